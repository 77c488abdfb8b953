// Command extract runs the go-trafilatura adapter over the pages of a
// neardup corpus and writes their main text in the format of the corpus's
// main_text.jsonl, for "neardup eval -extracted".
//
// Usage:
//
//	extract -corpus DIR -o FILE [-fallback] [-j N] [-quality]
//
// It reads DIR/pages.jsonl.gz (or DIR/pages.jsonl; one JSON object per
// line with "id" and "html"), extracts every page on N goroutines (all
// cores by default) and writes one line {"id", "title", "main"} per page
// in input order to FILE, gzip-compressed when FILE ends in ".gz"; the
// paragraphs of "main" are joined by blank lines. A page the extractor
// fails on is written with empty text and counted on stderr. It prints the
// CPU time of the extraction and its throughput in MiB of HTML per CPU
// second.
//
// With -quality, and when DIR has main_text.jsonl(.gz), it also extracts
// every page with htmltext's main content in the same run and prints, for
// both extractors, how close their text is to the corpus's main text: the
// median Jaccard resemblance of 5-shingle sets (the corpus's tokens, as
// the shingle package computes them) and the share of pages with J >= 0.9,
// over the pages listed in main_text.
//
// Exit codes: 0 success, 1 failure (unreadable or malformed files), 2 bad
// usage.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/htmltext/trafilatura"
	"github.com/undust/undust/internal/cpubench"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// maxLine bounds one JSON line (a page with its HTML).
const maxLine = 64 << 20

// page is one line of pages.jsonl.
type page struct {
	ID   string `json:"id"`
	HTML string `json:"html"`
}

// record is one line of the output, as in main_text.jsonl.
type record struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Main  string `json:"main"`
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("corpus", "", "corpus `directory` holding pages.jsonl[.gz]")
	out := fs.String("o", "", "output `file` (JSON lines; gzip when it ends in .gz)")
	fallback := fs.Bool("fallback", false, "also run go-readability and DOM Distiller (go-trafilatura's fallback)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "extract on `N` goroutines")
	quality := fs.Bool("quality", false, "compare with the corpus's main_text and with htmltext main content")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *dir == "" || *out == "" || fs.NArg() > 0 || *workers < 1 {
		fmt.Fprintln(stderr, "usage: extract -corpus DIR -o FILE [-fallback] [-j N] [-quality]")
		return 2
	}
	pages, err := readPages(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "extract: %v\n", err)
		return 1
	}
	var bytes int64
	for _, p := range pages {
		bytes += int64(len(p.HTML))
	}
	ext := trafilatura.Extractor{Fallback: *fallback}
	recs, failed, cpu, wall := extractAll(pages, ext, *workers)
	fmt.Fprintf(stderr, "extract: %d pages, %.1f MiB, %d failed; trafilatura%s: %s\n",
		len(pages), mib(bytes), len(failed), map[bool]string{true: "+fallback"}[*fallback], speed(bytes, cpu, wall))
	printFailed(stderr, failed)
	if err := writeRecords(*out, recs); err != nil {
		fmt.Fprintf(stderr, "extract: %v\n", err)
		return 1
	}
	if !*quality {
		return 0
	}
	truth, err := readTruth(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "extract: %v\n", err)
		return 1
	}
	if truth == nil {
		fmt.Fprintf(stderr, "extract: -quality: %s has no main_text.jsonl(.gz)\n", *dir)
		return 1
	}
	base, baseFailed, baseCPU, baseWall := extractAll(pages, htmltext.Options{MainContent: true}, *workers)
	fmt.Fprintf(stderr, "extract: htmltext main: %d failed; %s\n", len(baseFailed), speed(bytes, baseCPU, baseWall))
	printFailed(stderr, baseFailed)
	fmt.Fprintf(stderr, "extract: quality against main_text (%d pages):\n", len(truth))
	for _, x := range []struct {
		name string
		recs []record
	}{{"htmltext-main", base}, {"trafilatura", recs}} {
		q := compare(x.recs, truth)
		fmt.Fprintf(stderr, "  %-14s median J %.3f  J>=0.9 %.3f  empty %d\n", x.name, q.MedianJ, q.ShareGE90, q.Empty)
	}
	return 0
}

// printFailed prints the first failures.
func printFailed(w io.Writer, failed []string) {
	for i, f := range failed {
		if i == 5 {
			fmt.Fprintf(w, "  ... and %d more\n", len(failed)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", f)
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// speed formats CPU and wall time and the throughput per CPU second.
func speed(bytes int64, cpu, wall time.Duration) string {
	s := fmt.Sprintf("%.2fs CPU, %.2fs wall", cpu.Seconds(), wall.Seconds())
	if cpu > 0 {
		s += fmt.Sprintf(", %.2f MiB/s CPU", mib(bytes)/cpu.Seconds())
	}
	return s
}

// extractAll extracts every page with e on n goroutines and returns the
// records in page order, the pages e failed on ("id: error"), and the process
// CPU and wall time taken.
func extractAll(pages []page, e htmltext.Extractor, n int) (recs []record, failed []string, cpu, wall time.Duration) {
	recs = make([]record, len(pages))
	fail := make([]error, len(pages))
	next := make(chan int, 64)
	var wg sync.WaitGroup
	start, startCPU := time.Now(), cpubench.ProcessTime()
	for range n {
		wg.Go(func() {
			for i := range next {
				t, err := e.ExtractText([]byte(pages[i].HTML))
				fail[i] = err
				recs[i] = record{ID: pages[i].ID, Title: t.Title, Main: t.String()}
			}
		})
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()
	cpu, wall = cpubench.ProcessTime()-startCPU, time.Since(start)
	for i, err := range fail {
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", pages[i].ID, err))
		}
	}
	return recs, failed, cpu, wall
}

// open opens dir/name.gz, or dir/name if there is no .gz, decompressed.
func open(dir, name string) (io.ReadCloser, string, error) {
	p := filepath.Join(dir, name+".gz")
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		p = filepath.Join(dir, name)
		f, err = os.Open(p)
		return f, p, err
	}
	if err != nil {
		return nil, p, err
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, p, fmt.Errorf("%s: %v", p, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, p, nil
}

// eachLine decodes every non-blank JSON line of r into a new value and
// passes it to f.
func eachLine[T any](r io.Reader, name string, f func(T) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if err := f(v); err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return nil
}

func readPages(dir string) ([]page, error) {
	rc, name, err := open(dir, "pages.jsonl")
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var pages []page
	seen := map[string]bool{}
	err = eachLine(rc, name, func(p page) error {
		if p.ID == "" {
			return errors.New("page without id")
		}
		if seen[p.ID] {
			return fmt.Errorf("duplicate id %q", p.ID)
		}
		seen[p.ID] = true
		pages = append(pages, p)
		return nil
	})
	return pages, err
}

// readTruth returns the main text by id of dir/main_text.jsonl(.gz), or
// nil if the corpus has none.
func readTruth(dir string) (map[string]string, error) {
	rc, name, err := open(dir, "main_text.jsonl")
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	truth := map[string]string{}
	err = eachLine(rc, name, func(r record) error {
		truth[r.ID] = r.Main
		return nil
	})
	return truth, err
}

func writeRecords(name string, recs []record) (err error) {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	bw := bufio.NewWriter(f)
	var w io.Writer = bw
	var z *gzip.Writer
	if strings.HasSuffix(name, ".gz") {
		z = gzip.NewWriter(bw)
		w = z
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	if z != nil {
		if err := z.Close(); err != nil {
			return err
		}
	}
	return bw.Flush()
}
