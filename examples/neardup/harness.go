package main

// The evaluation harness: how to add a method.
//
// A method family lives in its own file, method_<family>.go, and registers
// its rows from an init function:
//
//	func init() {
//		register(Method{
//			Family:  "simhash",
//			Name:    "simhash:k3",   // unique; what -method matches
//			Param:   "k<=3",         // the threshold, as printed
//			Default: true,           // the family's default threshold
//			Run:     func(in *Input) Result { ... },
//		})
//	}
//
// The harness loads the corpus, extracts every page once with htmltext
// in two variants (full page text and main content), and calls Run once
// per variant with an *Input holding, for every page in id order:
//
//	in.Docs[i]   ID, URL, Lang, Title, Paragraphs and Text (the paragraphs
//	             joined by blank lines) of the variant being evaluated;
//	in.Sets[i]   the default shingle.Set (5-word shingles, corpus
//	             tokenization) of Text, computed once and shared;
//	in.Pages[i]  the page as the corpus holds it (URL and HTML), for a
//	             method that extracts by itself (method_crawl.go);
//	in.Main      whether the texts are main content.
//
// Run must not modify the Input. It returns a Result with either
//
//	Pairs    the pairs it calls near-duplicates, as indices into in.Docs
//	         with A < B (so in.Docs[A].ID < in.Docs[B].ID); or
//	Removed  for an eliminator, the pages it drops, each with the kept
//	         page it duplicates (Removal{Dropped, Kept}); the harness
//	         scores the (Dropped, Kept) pairs and reports the removal rate.
//
// A family that computes one expensive thing for several thresholds can
// share it between its rows with in.Cache(key, func() any { ... }), which
// runs the function once per Input. Rows are printed in registration order
// within a file, files in the order Go initializes them (file name order).
//
// What is scored, per row and text variant: precision, recall and F1
// against the near-duplicate label (J >= 0.8 on main text in
// truth_pairs.tsv), recall on the contained label (either containment
// >= 0.9), the number of trap pairs (traps.tsv) called duplicates, the
// removal rate of an eliminator, and Run's wall time.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/undust/undust/shingle"
)

// Method is one row of the evaluation: a method at one threshold.
type Method struct {
	Family  string // method family, e.g. "shingle"
	Name    string // unique row name, e.g. "jaccard:0.80"; -method matches it
	Param   string // threshold as printed, e.g. "J>=0.80"
	Default bool   // the family's default threshold
	Run     func(in *Input) Result
}

// Doc is one page's extracted text.
type Doc struct {
	ID, URL, Lang string
	Title         string
	Paragraphs    []string
	Text          string // Paragraphs joined by "\n\n"
}

// Input is what a method sees: every page of the corpus in id order, in
// one text variant. Methods must not modify it.
type Input struct {
	Docs  []Doc
	Sets  []shingle.Set // default shingle set of each Docs[i].Text
	Pages []Page        // the corpus's pages, in the order of Docs
	Main  bool          // texts are main content (else full page)

	mu    sync.Mutex
	cache map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	v    any
}

// Cache returns the value of f for key, calling f at most once per Input.
func (in *Input) Cache(key string, f func() any) any {
	in.mu.Lock()
	if in.cache == nil {
		in.cache = map[string]*cacheEntry{}
	}
	e := in.cache[key]
	if e == nil {
		e = &cacheEntry{}
		in.cache[key] = e
	}
	in.mu.Unlock()
	e.once.Do(func() { e.v = f() })
	return e.v
}

// Pair is two pages by index into Input.Docs, A < B.
type Pair struct{ A, B int32 }

// MakePair returns the pair of pages i and j in order.
func MakePair(i, j int) Pair {
	if i > j {
		i, j = j, i
	}
	return Pair{int32(i), int32(j)}
}

// Removal is one page dropped by an eliminator and the kept page it
// duplicates.
type Removal struct{ Dropped, Kept int32 }

// Result is what a method returns: Pairs, or Removed for an eliminator.
type Result struct {
	Pairs   []Pair
	Removed []Removal
}

var methods []Method

// register adds rows to the evaluation. It panics on a duplicate name, a
// programming error in a method file.
func register(ms ...Method) {
	for _, m := range ms {
		for _, o := range methods {
			if o.Name == m.Name {
				panic("neardup: method " + m.Name + " registered twice")
			}
		}
		if m.Run == nil || m.Name == "" {
			panic("neardup: method without Name or Run")
		}
		methods = append(methods, m)
	}
}

// selectMethods returns the registered rows matching the comma-separated
// patterns: a pattern matches a row when it equals its family, is a
// prefix of its name ending at ':' , or matches its name as a path.Match
// pattern. "all" or "" selects every row; "default" every default row.
func selectMethods(spec string) ([]Method, error) {
	if spec == "" || spec == "all" {
		return methods, nil
	}
	var out []Method
	for _, pat := range strings.Split(spec, ",") {
		pat = strings.TrimSpace(pat)
		if pat == "" {
			continue
		}
		if _, err := path.Match(pat, ""); err != nil {
			return nil, fmt.Errorf("bad -method pattern %q: %v", pat, err)
		}
		n := 0
		for _, m := range methods {
			ok, _ := path.Match(pat, m.Name)
			if ok || pat == m.Family || pat == "default" && m.Default || strings.HasPrefix(m.Name, pat+":") {
				if !slices.ContainsFunc(out, func(o Method) bool { return o.Name == m.Name }) {
					out = append(out, m)
				}
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("-method %q matches no method (have %s)", pat, methodNames())
		}
	}
	// Keep registration order.
	slices.SortStableFunc(out, func(a, b Method) int {
		return cmp.Compare(indexOf(a.Name), indexOf(b.Name))
	})
	return out, nil
}

func indexOf(name string) int {
	return slices.IndexFunc(methods, func(m Method) bool { return m.Name == name })
}

func methodNames() string {
	var names []string
	for _, m := range methods {
		names = append(names, m.Name)
	}
	return strings.Join(names, ", ")
}

// Row is one line of the evaluation table.
type Row struct {
	Method      string  `json:"method"`
	Family      string  `json:"family"`
	Param       string  `json:"param"`
	Default     bool    `json:"default"`
	Text        string  `json:"text"` // "main", "full" or "ext" (extracted.go)
	Predicted   int     `json:"predicted"`
	TruePos     int     `json:"true_pos"`
	Precision   float64 `json:"precision"`
	Recall      float64 `json:"recall"`
	F1          float64 `json:"f1"`
	Contained   float64 `json:"contained_recall"`
	TrapFP      int     `json:"trap_fp"`
	RemovalRate float64 `json:"removal_rate,omitempty"` // eliminators only
	Seconds     float64 `json:"seconds"`
}

// score compares a method's result with the labels.
func score(c *Corpus, m Method, main bool, res Result, d time.Duration) Row {
	r := Row{Method: m.Name, Family: m.Family, Param: m.Param, Default: m.Default, Seconds: d.Seconds()}
	r.Text = "full"
	if main {
		r.Text = "main"
	}
	pairs := res.Pairs
	if res.Removed != nil {
		pairs = pairs[:len(pairs):len(pairs)]
		for _, x := range res.Removed {
			pairs = append(pairs, MakePair(int(x.Dropped), int(x.Kept)))
		}
		dropped := map[int32]bool{}
		for _, x := range res.Removed {
			dropped[x.Dropped] = true
		}
		r.RemovalRate = float64(len(dropped)) / float64(len(c.IDs))
	}
	seen := make(map[Pair]bool, len(pairs))
	contained := 0
	for _, p := range pairs {
		if p.A > p.B {
			p.A, p.B = p.B, p.A
		}
		if p.A == p.B || seen[p] {
			continue
		}
		seen[p] = true
		if c.NearDup[p] {
			r.TruePos++
		}
		if c.Contained[p] {
			contained++
		}
		if c.Trap[p] {
			r.TrapFP++
		}
	}
	r.Predicted = len(seen)
	if r.Predicted > 0 {
		r.Precision = float64(r.TruePos) / float64(r.Predicted)
	}
	if len(c.NearDup) > 0 {
		r.Recall = float64(r.TruePos) / float64(len(c.NearDup))
	}
	if r.Precision+r.Recall > 0 {
		r.F1 = 2 * r.Precision * r.Recall / (r.Precision + r.Recall)
	}
	if len(c.Contained) > 0 {
		r.Contained = float64(contained) / float64(len(c.Contained))
	}
	return r
}

// evaluate runs the methods on the requested text variants.
func evaluate(c *Corpus, ms []Method, variants []bool, progress io.Writer) []Row {
	var rows []Row
	for _, main := range variants {
		in := c.Input(main)
		for _, m := range ms {
			start := time.Now()
			res := m.Run(in)
			d := time.Since(start)
			row := score(c, m, main, res, d)
			if progress != nil {
				fmt.Fprintf(progress, "neardup: %s on %s text: F1 %.3f in %.2fs\n", m.Name, row.Text, row.F1, d.Seconds())
			}
			rows = append(rows, row)
		}
	}
	return rows
}

func writeText(w io.Writer, c *Corpus, rows []Row) error {
	fmt.Fprintf(w, "corpus: %d pages, %d near-duplicate pairs (J>=0.8), %d contained pairs (C>=0.9), %d trap pairs\n",
		len(c.IDs), len(c.NearDup), len(c.Contained), len(c.Trap))
	if c.Checked > 0 {
		fmt.Fprintf(w, "tokenizer conformance: J of %d/%d truth pairs reproduced from main_text\n", c.Reproduced, c.Checked)
	}
	fmt.Fprintf(w, "extraction: %.2fs full, %.2fs main; shingle sets %.2fs\n\n", c.ExtractFull.Seconds(), c.ExtractMain.Seconds(), c.SetTime.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\ttext\tparam\tdefault\tpairs\tprecision\trecall\tF1\tcontained-R\ttrap-FP\tremoval\ttime(s)\t")
	for _, r := range rows {
		def := ""
		if r.Default {
			def = "*"
		}
		removal := "-"
		if r.RemovalRate > 0 {
			removal = fmt.Sprintf("%.3f", r.RemovalRate)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%s\t%.2f\t\n",
			r.Method, r.Text, r.Param, def, r.Predicted, r.Precision, r.Recall, r.F1, r.Contained, r.TrapFP, removal, r.Seconds)
	}
	return tw.Flush()
}

func writeJSON(w io.Writer, c *Corpus, rows []Row, quality []QualityRow) error {
	out := struct {
		Pages      int          `json:"pages"`
		NearDup    int          `json:"near_dup_pairs"`
		Contained  int          `json:"contained_pairs"`
		Traps      int          `json:"trap_pairs"`
		Checked    int          `json:"truth_j_checked"`
		Reproduced int          `json:"truth_j_reproduced"`
		Rows       []Row        `json:"rows"`
		Quality    []QualityRow `json:"extraction_quality,omitempty"`
	}{len(c.IDs), len(c.NearDup), len(c.Contained), len(c.Trap), c.Checked, c.Reproduced, rows, quality}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
