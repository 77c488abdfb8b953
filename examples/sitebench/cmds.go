package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func cmdTruth(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("truth", flag.ContinueOnError)
	spec := fs.String("truth", "", "CSS `selector` of the main-content element, or undust (required)")
	ignore := fs.String("ignore", "", "CSS `selector` of elements inside the -truth elements whose text is left out")
	twice := fs.Bool("twice", false, "fetch each URL twice and fail if its truth changed")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *spec == "" {
		return usagef("truth", "-truth is required (a CSS selector, or undust)")
	}
	t, err := newTruther(*spec, *ignore)
	if err != nil {
		return usagef("truth", "%v", err)
	}
	client := &http.Client{Timeout: *timeout}
	get := func(raw string) (truth, string, bool, error) {
		resp, err := client.Get(raw)
		if err != nil {
			return 0, "", false, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		if err != nil {
			return 0, "", false, err
		}
		if resp.StatusCode != http.StatusOK {
			return 0, "", false, fmt.Errorf("status %d", resp.StatusCode)
		}
		tr, text, nomatch := t.text(resp.Header.Get("Content-Type"), body)
		return tr, text, nomatch, nil
	}
	changed := 0
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		raw := strings.TrimSpace(sc.Text())
		if raw == "" || strings.HasPrefix(raw, "#") {
			continue
		}
		tr, text, nomatch, err := get(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", raw, err)
		}
		note := "-"
		if nomatch {
			note = "nomatch"
		}
		if *twice {
			tr2, text2, _, err := get(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", raw, err)
			}
			if tr2 != tr {
				changed++
				note = "changed"
				fmt.Fprintf(stderr, "sitebench truth: %s changed between two fetches:\n  %s\n  %s\n", raw, diffStart(text, text2), diffStart(text2, text))
			}
		}
		if len(text) > 80 {
			text = text[:80]
		}
		fmt.Fprintf(stdout, "%s\t%016x\t%s\t%s\n", raw, uint64(tr), note, text)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if changed > 0 {
		return fmt.Errorf("%d URLs changed truth between two fetches", changed)
	}
	return nil
}

// diffStart returns a's text from a little before its first difference from b.
func diffStart(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-30)
	return "..." + a[from:min(len(a), i+50)]
}

func cmdDups(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("dups", flag.ContinueOnError)
	logFile := fs.String("log", "", "fetch log `file` (fetches-CRAWLER.tsv) written by run -out (required)")
	top := fs.Int("top", 25, "patterns to print")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *logFile == "" {
		return usagef("dups", "-log is required")
	}
	fetches, err := readLogFile(*logFile)
	if err != nil {
		return err
	}
	writeDups(stdout, fetches, *top)
	return nil
}

// cmdClusters writes the pages of a fetch log as a dup-cluster file (the format of urldedup's
// -clusters): one line per URL that served a page, in the order of its first such fetch, with
// the page's truth as its cluster id. A crawl of a real application so becomes data that
// urldedup replay and families can learn online from, in the crawl's own order or shuffled.
func cmdClusters(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("clusters", flag.ContinueOnError)
	logFile := fs.String("log", "", "fetch log `file` (fetches-CRAWLER.tsv) written by run -out (required)")
	prefix := fs.String("prefix", "page", "cluster ids are PREFIX-TRUTH: the `prefix`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *logFile == "" {
		return usagef("clusters", "-log is required")
	}
	if *prefix == "" || strings.ContainsAny(*prefix, "\t\n") {
		return usagef("clusters", "-prefix must be a non-empty word")
	}
	fetches, err := readLogFile(*logFile)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "# dup clusters of the pages of %s: cluster id (%s-truth), URL\n# cluster\turl\n", filepath.Base(*logFile), *prefix)
	seen := map[string]bool{}
	for _, x := range fetches {
		if x.truth == "-" || seen[x.url] {
			continue
		}
		seen[x.url] = true
		fmt.Fprintf(w, "%s-%s\t%s\n", *prefix, x.truth, x.url)
	}
	return w.Flush()
}

// A logged fetch is a line of a fetch log: what dups and clusters need of it.
type loggedFetch struct {
	url   string
	truth string // "-" for fetches without a complete 200
}

// readLogFile reads the fetch log in the file name.
func readLogFile(name string) ([]loggedFetch, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fetches, err := readLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return fetches, nil
}

func readLog(r io.Reader) ([]loggedFetch, error) {
	var out []loggedFetch
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Split(s, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("line %d: %d fields, want 7", line, len(f))
		}
		out = append(out, loggedFetch{url: f[5], truth: f[4]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no fetches")
	}
	return out, nil
}
