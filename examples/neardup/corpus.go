package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/internal/par"
	"github.com/undust/undust/shingle"
)

// maxLine bounds one JSON line of pages.jsonl (a page with its HTML).
const maxLine = 64 << 20

// Page is one line of pages.jsonl.
type Page struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Lang string `json:"lang"`
	HTML string `json:"html"`
}

// Corpus is a loaded evaluation corpus with both text variants extracted.
type Corpus struct {
	IDs   []string // sorted
	index map[string]int
	Pages []Page

	full, main []Doc

	// Conformance of the shingle tokenizer: of Checked truth pairs whose
	// J was recomputed from main_text.jsonl(.gz) when the corpus has it,
	// Reproduced matched truth_pairs.tsv to its 4 decimals.
	Checked, Reproduced int

	truthJ map[Pair]float64

	NearDup   map[Pair]bool // J >= 0.8 on main text
	Contained map[Pair]bool // a containment >= 0.9
	Trap      map[Pair]bool // traps.tsv

	ExtractFull, ExtractMain, SetTime time.Duration

	// Learn is whether main content drops the blocks an htmltext.Site
	// learns from each host's pages (see learn.go).
	Learn bool

	inputs [2]*Input
}

// openMaybeGz opens dir/name.gz, or dir/name if there is no .gz.
func openMaybeGz(dir, name string) (io.ReadCloser, string, error) {
	p := filepath.Join(dir, name+".gz")
	f, err := os.Open(p)
	if err == nil {
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
	if !errors.Is(err, os.ErrNotExist) {
		return nil, p, err
	}
	p = filepath.Join(dir, name)
	f, err = os.Open(p)
	if err != nil {
		return nil, p, err
	}
	return f, p, nil
}

// readPages reads JSON lines of pages from r.
func readPages(r io.Reader, name string) ([]Page, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	var pages []Page
	seen := map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var p Page
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if p.ID == "" {
			return nil, fmt.Errorf("%s:%d: page without id", name, line)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("%s:%d: duplicate id %q", name, line, p.ID)
		}
		seen[p.ID] = true
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return pages, nil
}

// loadCorpus reads pages.jsonl(.gz), truth_pairs.tsv and traps.tsv from dir
// and extracts the text of every page in both variants.
func loadCorpus(dir string) (*Corpus, error) {
	return loadCorpusLearn(dir, true)
}

// loadCorpusLearn is loadCorpus with the learned-boilerplate mechanism on
// or off for the main-content variant.
func loadCorpusLearn(dir string, learn bool) (*Corpus, error) {
	rc, name, err := openMaybeGz(dir, "pages.jsonl")
	if err != nil {
		return nil, err
	}
	pages, err := readPages(rc, name)
	rc.Close()
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("%s: no pages", name)
	}
	slices.SortFunc(pages, func(a, b Page) int { return strings.Compare(a.ID, b.ID) })
	c := &Corpus{Pages: pages, index: map[string]int{}, Learn: learn}
	for i, p := range pages {
		c.IDs = append(c.IDs, p.ID)
		c.index[p.ID] = i
	}
	c.NearDup, c.Contained, c.truthJ = map[Pair]bool{}, map[Pair]bool{}, map[Pair]float64{}
	err = c.readTSV(filepath.Join(dir, "truth_pairs.tsv"), 6, func(p Pair, f []string) error {
		j, err1 := strconv.ParseFloat(f[2], 64)
		cab, err2 := strconv.ParseFloat(f[3], 64)
		cba, err3 := strconv.ParseFloat(f[4], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		c.truthJ[p] = j
		if j >= 0.8 {
			c.NearDup[p] = true
		}
		if cab >= 0.9 || cba >= 0.9 {
			c.Contained[p] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.Trap = map[Pair]bool{}
	err = c.readTSV(filepath.Join(dir, "traps.tsv"), 2, func(p Pair, f []string) error {
		c.Trap[p] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := c.checkTruth(dir); err != nil {
		return nil, err
	}
	c.extract()
	return c, nil
}

// checkTruth recomputes the resemblance of every truth pair from the
// corpus's main text, if it has main_text.jsonl(.gz), with the default
// shingle options.
func (c *Corpus) checkTruth(dir string) error {
	rc, name, err := openMaybeGz(dir, "main_text.jsonl")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	sets := make([]shingle.Set, len(c.IDs))
	for line := 1; sc.Scan(); line++ {
		var m struct {
			ID   string `json:"id"`
			Main string `json:"main"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if i, ok := c.index[m.ID]; ok {
			sets[i] = shingle.NewSet(shingle.Hashes(m.Main, shingle.Options{}))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	for p, want := range c.truthJ {
		c.Checked++
		if got := sets[p.A].Jaccard(sets[p.B]); got > want-0.00051 && got < want+0.00051 {
			c.Reproduced++
		}
	}
	return nil
}

// readTSV reads a labels file with a header line; each row starts with
// two page ids.
func (c *Corpus) readTSV(name string, minFields int, row func(Pair, []string) error) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	for i, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i == 0 || l == "" || strings.HasPrefix(l, "#") {
			continue // header
		}
		f := strings.Split(l, "\t")
		if len(f) < minFields {
			return fmt.Errorf("%s:%d: %d fields, want at least %d", name, i+1, len(f), minFields)
		}
		a, okA := c.index[f[0]]
		b, okB := c.index[f[1]]
		if !okA || !okB {
			return fmt.Errorf("%s:%d: unknown page id in %q", name, i+1, f[0]+" "+f[1])
		}
		if a == b {
			return fmt.Errorf("%s:%d: pair of a page with itself", name, i+1)
		}
		if err := row(MakePair(a, b), f); err != nil {
			return fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
	}
	return nil
}

// extract runs htmltext on every page, full and main, on all cores.
func (c *Corpus) extract() {
	c.full = make([]Doc, len(c.Pages))
	c.main = make([]Doc, len(c.Pages))
	for _, main := range []bool{false, true} {
		start := time.Now()
		docs := c.full
		if main {
			docs = c.main
		}
		parallel(len(c.Pages), func(i int) {
			p := c.Pages[i]
			t, err := htmltext.Extract([]byte(p.HTML), htmltext.Options{MainContent: main})
			if err != nil {
				// Extract only fails on tokenizer failures; keep
				// the page with no text rather than abort.
				t = htmltext.Text{}
			}
			docs[i] = Doc{ID: p.ID, URL: p.URL, Lang: p.Lang, Title: t.Title, Paragraphs: t.Paragraphs, Text: t.String()}
		})
		if main && c.Learn {
			c.learnMain()
		}
		if main {
			c.ExtractMain = time.Since(start)
		} else {
			c.ExtractFull = time.Since(start)
		}
	}
}

// Input returns the method input of one text variant, built once.
func (c *Corpus) Input(main bool) *Input {
	k := 0
	docs := c.full
	if main {
		k, docs = 1, c.main
	}
	if c.inputs[k] != nil {
		return c.inputs[k]
	}
	start := time.Now()
	in := &Input{Docs: docs, Pages: c.Pages, Main: main, Sets: make([]shingle.Set, len(docs))}
	parallel(len(docs), func(i int) {
		in.Sets[i] = shingle.NewSet(shingle.Hashes(docs[i].Text, shingle.Options{}))
	})
	c.SetTime += time.Since(start)
	c.inputs[k] = in
	return in
}

// parallel calls f(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) { par.For(n, runtime.GOMAXPROCS(0), f) }
