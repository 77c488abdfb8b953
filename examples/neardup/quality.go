package main

// Extraction quality: how close each text variant is to the corpus's true
// main text (main_text.jsonl[.gz]), per doc set (pages_meta.tsv). An
// extraction regression shows here before it shows in a method's F1.
//
// For every page, J is the resemblance of the 5-token shingle sets (corpus
// tokenization, shingle.Options{}) of the extracted text and of the true
// main text; two empty texts count as J = 1 (nothing to find, nothing
// found). A row reports, over its pages, the median J and the share of
// pages with J >= 0.9.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/undust/undust/shingle"
)

// qualityGood is the J at or above which a page's extraction counts as good.
const qualityGood = 0.9

// QualityRow is the extraction quality of one text variant on one doc set
// ("all" for the whole corpus).
type QualityRow struct {
	Variant string  `json:"variant"`
	Docset  string  `json:"docset"`
	Pages   int     `json:"pages"`
	MedianJ float64 `json:"median_j"`
	Good    float64 `json:"share_j_ge_0.9"` // share of pages with J >= 0.9
}

// Variant is one text variant of the corpus: a name and a text per page,
// in the corpus's id order.
type Variant struct {
	Name string
	Docs []Doc
}

// readTrueMain reads main_text.jsonl[.gz] of dir into texts by page index.
// It returns ok false, and no error, when the corpus has no main text.
func (c *Corpus) readTrueMain(dir string) (texts []string, ok bool, err error) {
	rc, name, err := openMaybeGz(dir, "main_text.jsonl")
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer rc.Close()
	texts = make([]string, len(c.IDs))
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	for line := 1; sc.Scan(); line++ {
		var m struct {
			ID   string `json:"id"`
			Main string `json:"main"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, false, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if i, ok := c.index[m.ID]; ok {
			texts[i] = m.Main
		}
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("%s: %v", name, err)
	}
	return texts, true, nil
}

// readDocsets reads the docset column of pages_meta.tsv in dir by page
// index; pages without one (or a corpus without the file) get "".
func (c *Corpus) readDocsets(dir string) ([]string, error) {
	out := make([]string, len(c.IDs))
	name := filepath.Join(dir, "pages_meta.tsv")
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	col := -1
	for i, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(l, "\t")
		if i == 0 {
			col = slices.Index(f, "docset")
			if col < 0 || f[0] != "id" {
				return nil, fmt.Errorf("%s:1: no id and docset columns", name)
			}
			continue
		}
		if len(f) <= col {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least %d", name, i+1, len(f), col+1)
		}
		if k, ok := c.index[f[0]]; ok {
			out[k] = f[col]
		}
	}
	return out, nil
}

// pageQuality returns the resemblance of each variant text to the true text,
// page by page.
func pageQuality(docs []Doc, truth []shingle.Set) []float64 {
	js := make([]float64, len(docs))
	parallel(len(docs), func(i int) {
		got := shingle.NewSet(shingle.Hashes(docs[i].Text, shingle.Options{}))
		if len(got) == 0 && len(truth[i]) == 0 {
			js[i] = 1
			return
		}
		js[i] = got.Jaccard(truth[i])
	})
	return js
}

// quality returns the quality rows of every variant: one row for the whole
// corpus, then one per doc set in name order (when there is more than one).
func quality(variants []Variant, trueMain, docsets []string) []QualityRow {
	truth := make([]shingle.Set, len(trueMain))
	parallel(len(trueMain), func(i int) {
		truth[i] = shingle.NewSet(shingle.Hashes(trueMain[i], shingle.Options{}))
	})
	sets := map[string][]int{}
	for i, d := range docsets {
		sets[d] = append(sets[d], i)
	}
	names := make([]string, 0, len(sets))
	for d := range sets {
		names = append(names, d)
	}
	slices.Sort(names)
	var rows []QualityRow
	for _, v := range variants {
		js := pageQuality(v.Docs, truth)
		all := make([]int, len(js))
		for i := range all {
			all[i] = i
		}
		rows = append(rows, qualityRow(v.Name, "all", js, all))
		if len(names) > 1 {
			for _, d := range names {
				rows = append(rows, qualityRow(v.Name, d, js, sets[d]))
			}
		}
	}
	return rows
}

func qualityRow(variant, docset string, js []float64, idx []int) QualityRow {
	r := QualityRow{Variant: variant, Docset: docset, Pages: len(idx)}
	if len(idx) == 0 {
		return r
	}
	v := make([]float64, 0, len(idx))
	good := 0
	for _, i := range idx {
		v = append(v, js[i])
		if js[i] >= qualityGood {
			good++
		}
	}
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		r.MedianJ = v[n/2]
	} else {
		r.MedianJ = (v[n/2-1] + v[n/2]) / 2
	}
	r.Good = float64(good) / float64(len(idx))
	return r
}

// writeQuality prints the quality rows as a table: one line per doc set,
// one pair of columns (median J, share J>=0.9) per variant.
func writeQuality(w io.Writer, rows []QualityRow) error {
	var variants, docsets []string
	cell := map[[2]string]QualityRow{}
	for _, r := range rows {
		if !slices.Contains(variants, r.Variant) {
			variants = append(variants, r.Variant)
		}
		if !slices.Contains(docsets, r.Docset) {
			docsets = append(docsets, r.Docset)
		}
		cell[[2]string{r.Variant, r.Docset}] = r
	}
	fmt.Fprintf(w, "\nextraction quality vs true main text (5-shingle J per page: median, share >= %.1f)\n", qualityGood)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "docset\tpages\t")
	for _, v := range variants {
		fmt.Fprintf(tw, "%s med\t%s >=%.1f\t", v, v, qualityGood)
	}
	fmt.Fprintln(tw)
	for _, d := range docsets {
		r0 := cell[[2]string{variants[0], d}]
		fmt.Fprintf(tw, "%s\t%d\t", d, r0.Pages)
		for _, v := range variants {
			r := cell[[2]string{v, d}]
			fmt.Fprintf(tw, "%.3f\t%.3f\t", r.MedianJ, r.Good)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// variants returns the text variants of the corpus that eval evaluates
// (main or full, as in evaluate), in the order of the method table.
func (c *Corpus) variants(mains []bool) []Variant {
	var out []Variant
	for _, main := range mains {
		switch {
		case !main:
			out = append(out, Variant{"full", c.full})
		case c.Learn:
			out = append(out, Variant{"main+learn", c.main})
		default:
			out = append(out, Variant{"main", c.main})
		}
	}
	return out
}

// quality returns the extraction quality rows of the text variants vs of
// the corpus in dir, or nil when it has no main_text.jsonl[.gz].
func (c *Corpus) quality(dir string, vs []Variant) ([]QualityRow, error) {
	trueMain, ok, err := c.readTrueMain(dir)
	if err != nil || !ok {
		return nil, err
	}
	docsets, err := c.readDocsets(dir)
	if err != nil {
		return nil, err
	}
	return quality(vs, trueMain, docsets), nil
}
