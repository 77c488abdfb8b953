package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testSets reads the doc sets of testdata/config.tsv.
func testSets(t *testing.T) []docSet {
	t.Helper()
	sets, err := readConfig(filepath.Join("testdata", "config.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

func setNamed(t *testing.T, sets []docSet, name string) *docSet {
	t.Helper()
	for i := range sets {
		if sets[i].Name == name {
			return &sets[i]
		}
	}
	t.Fatalf("no doc set %q", name)
	return nil
}

// TestMainTextPerGenerator checks that each generator's content selector
// keeps the article and drops the chrome around it.
func TestMainTextPerGenerator(t *testing.T) {
	sets := testSets(t)
	tests := []struct {
		docset, file  string
		want, notWant []string
	}{
		// Sphinx (Python theme): div.body has the article, not the sidebar,
		// the related-navigation bars or the footer.
		{"py", "library/crypto.html",
			[]string{"Cryptographic Services", "hashlib — Secure hashes and message digests"},
			[]string{"Previous topic", "This Page", "Report a Bug", "Copyright", "Navigation"}},
		// Sphinx (sphinx13 theme): the site navigation sidebar lists the
		// whole manual; it is not main text.
		{"sphinx", "usage/markdown.html",
			[]string{"Markdown", "MyST-Parser"},
			[]string{"Site navigation", "Installing Sphinx", "Getting Started"}},
		// DocBook: body minus the navigation header and footer.
		{"pg", "sql-checkpoint.html",
			[]string{"CHECKPOINT — force a write-ahead log checkpoint", "Compatibility"},
			[]string{"Prev", "Next", "Home", "SQL Commands"}},
		// gtk-doc: body minus the navigation table.
		{"libxml2", "libxml2-xmlexports.html",
			[]string{"xmlexports - macros for marking symbols as exportable/importable."},
			[]string{"libxml2 Reference Manual"}},
		// Apache httpd docs: div#page-content minus the language bars; the
		// module's quick view (its own cross-reference list) stays.
		{"httpd", "en/mod/mod_socache_dc.html",
			[]string{"Apache Module mod_socache_dc", "Distcache based shared object cache provider", "Bugfix checklist"},
			[]string{"Available Languages", "Copyright", "Apache HTTP Server Version 2.4", "Documentation > Version 2.4"}},
	}
	for _, tt := range tests {
		d := setNamed(t, sets, tt.docset)
		page, err := os.ReadFile(filepath.Join(d.Dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := mainText(page, d)
		if !ok {
			t.Errorf("%s: no main element %v", tt.file, d.Content)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: main text lacks %q:\n%.300s", tt.file, w, got)
			}
		}
		// The chrome strings are in the full page, so their absence from the
		// main text means the selector dropped them.
		full := visibleText(page)
		for _, w := range tt.notWant {
			if !strings.Contains(full, w) {
				t.Errorf("%s: test is vacuous: %q is not in the page", tt.file, w)
			}
			if containsWord(got, w) {
				t.Errorf("%s: main text has chrome %q", tt.file, w)
			}
		}
	}
}

// containsWord reports whether s has w between non-letters.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isLetter(s[j-1])
		after := j+len(w) == len(s) || !isLetter(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// randomDocs makes n texts that reuse passages of each other, so that
// every range of overlap occurs.
func randomDocs(r *rand.Rand, n int) []string {
	vocab := make([]string, 60)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	var docs []string
	for range n {
		var words []string
		for k := r.IntN(3); k > 0 && len(docs) > 0; k-- {
			src := strings.Fields(docs[r.IntN(len(docs))])
			a := r.IntN(len(src)/2 + 1)
			b := a + r.IntN(len(src)-a+1)
			words = append(words, src[a:b]...)
		}
		for range 3 + r.IntN(20) {
			words = append(words, vocab[r.IntN(len(vocab))])
		}
		if r.IntN(3) == 0 {
			r.Shuffle(len(words)/2, func(i, j int) { words[i], words[j] = words[j], words[i] })
		}
		docs = append(docs, strings.Join(words, " "))
	}
	return docs
}

// TestTruthPairsMatchBrute compares the prefix-filtered search with the
// all-pairs reference.
func TestTruthPairsMatchBrute(t *testing.T) {
	total := 0
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 1))
		texts := randomDocs(r, 80)
		docs := make([]textSets, len(texts))
		for i, s := range texts {
			docs[i] = newTextSets(s)
		}
		want := truthPairsBrute(docs)
		got := truthPairs(docs)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: truthPairs mismatch (-brute +fast):\n%s", seed, diff)
		}
		total += len(want)
	}
	if total < 200 {
		t.Fatalf("only %d pairs: the test data exercise too little", total)
	}
}

// TestTruthRules checks the listing rule on worked cases.
func TestTruthRules(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve"
	tests := []struct {
		a, b string
		want bool
	}{
		{long, long, true},                        // identical
		{long, long + " thirteen", true},          // contained, J = 8/9
		{"one two three", "one two three", false}, // fewer than 8 tokens: never listed
		// C(b in a) = 3/6 but the 8-shingles of b all hold "x".
		{long, "one two three four five six seven x nine ten", false},
		// C(a in b) = 4/8 and "one ... eight" is a common 8-shingle.
		{long, "alpha beta gamma delta epsilon zeta eta theta one two three four five six seven eight", true},
	}
	for _, tt := range tests {
		docs := []textSets{newTextSets(tt.a), newTextSets(tt.b)}
		got := len(truthPairs(docs)) == 1
		brute := len(truthPairsBrute(docs)) == 1
		if got != tt.want || brute != tt.want {
			j, ca, cb := score(docs[0].s5, docs[1].s5)
			t.Errorf("listed(%q, %q) = %v (brute %v), want %v; J=%.3f C=%.3f,%.3f", tt.a, tt.b, got, brute, tt.want, j, ca, cb)
		}
	}
}

// readGz reads a gzip file.
func readGz(t *testing.T, p string) []byte {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// buildTestCorpus builds the testdata corpus with seed into a temp dir.
func buildTestCorpus(t *testing.T, seed uint64) (string, *corpus) {
	t.Helper()
	c, err := build(testSets(t), seed, shares{1, 1}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := c.write(dir); err != nil {
		t.Fatal(err)
	}
	return dir, c
}

var corpusFiles = []string{"pages.jsonl.gz", "main_text.jsonl.gz", "truth_pairs.tsv", "traps.tsv", "pages_meta.tsv", "README.md"}

// TestBuildDeterministic builds twice with one seed and once with another.
func TestBuildDeterministic(t *testing.T) {
	d1, _ := buildTestCorpus(t, 7)
	d2, _ := buildTestCorpus(t, 7)
	d3, _ := buildTestCorpus(t, 8)
	for _, f := range corpusFiles {
		read := func(d string) []byte {
			if strings.HasSuffix(f, ".gz") {
				return readGz(t, filepath.Join(d, f))
			}
			b, err := os.ReadFile(filepath.Join(d, f))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		if !bytes.Equal(read(d1), read(d2)) {
			t.Errorf("%s differs between two builds with seed 7", f)
		}
		if f == "pages.jsonl.gz" && bytes.Equal(read(d1), read(d3)) {
			t.Errorf("%s is the same with seeds 7 and 8", f)
		}
	}
}

// TestBuildCorpus checks the built corpus: its truth is what check
// recomputes, generated pages relate to their sources as labelled, and the
// trap pages share their template.
func TestBuildCorpus(t *testing.T) {
	dir, c := buildTestCorpus(t, 1)
	rep, err := checkTruth(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Listed == 0 || rep.Both != rep.Listed || rep.Computed != rep.Listed || rep.SameValues != rep.Listed {
		t.Errorf("check = %+v, want all pairs reproduced", rep)
	}
	origins := map[string]int{}
	for i := range c.pages {
		p := &c.pages[i]
		origins[p.Origin]++
		if p.Origin == "shipped" {
			continue
		}
		src := &c.pages[p.Parent]
		j, ca, _ := score(p.main.s5, src.main.s5)
		switch {
		case p.Origin == "reprint" && !strings.HasPrefix(p.Note, "excerpt") && j != 1:
			t.Errorf("reprint %s of %s: J = %.3f, want 1", p.ID, src.ID, j)
		case p.Origin == "reprint" && ca < 0.95:
			t.Errorf("excerpt %s of %s: C = %.3f, want about 1", p.ID, src.ID, ca)
		case p.Origin == "edit" && (j == 1 || j < 0.3):
			t.Errorf("edit %s (%s) of %s: J = %.3f, want changed but close", p.ID, p.Note, src.ID, j)
		case p.Origin == "trap" && p.main.tokens >= 5 && ca < 0.95: // shorter: one shingle of its own
			t.Errorf("trap %s of %s: C = %.3f, want its article inside the source", p.ID, src.ID, ca)
		}
		if p.Origin == "reprint" && p.TemplateDocset == p.Docset {
			t.Errorf("reprint %s in the chrome of its own doc set %s", p.ID, p.Docset)
		}
	}
	for _, o := range originOrder {
		if origins[o] == 0 {
			t.Errorf("no %s pages: %v", o, origins)
		}
	}
	types := map[string]int{}
	for _, tp := range c.traps {
		types[strings.SplitN(tp.Type, "/", 2)[0]]++
		a, b := &c.pages[tp.A], &c.pages[tp.B]
		if tp.Type == "same-template" || tp.Type == "short-page" {
			if a.TrapGroup != b.TrapGroup || a.TrapGroup == "" {
				t.Errorf("trap pair %s %s in groups %q %q", a.ID, b.ID, a.TrapGroup, b.TrapGroup)
			}
			if j, _, _ := score(a.main.s5, b.main.s5); j >= 0.1 {
				t.Errorf("trap pair %s %s: main J %.3f, want < 0.1", a.ID, b.ID, j)
			}
		}
	}
	if types["same-template"] == 0 || types["short-page"] == 0 {
		t.Errorf("trap types %v, want same-template and short-page", types)
	}
	meta, err := os.ReadFile(filepath.Join(dir, "pages_meta.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(meta), "\n"), "\n")
	if len(lines) != len(c.pages)+1 {
		t.Errorf("pages_meta.tsv has %d lines, want %d", len(lines), len(c.pages)+1)
	}
	for i, l := range lines {
		if n := len(strings.Split(l, "\t")); n != 12 {
			t.Fatalf("pages_meta.tsv line %d has %d columns, want 12", i+1, n)
		}
	}
}

// TestConfigErrors checks that bad configs are rejected with a message.
func TestConfigErrors(t *testing.T) {
	header := strings.Join(configColumns, "\t") + "\n"
	line := func(f ...string) string { return strings.Join(f, "\t") + "\n" }
	good := []string{"d", "pkg", "1", "MIT", "dir", "*.html", "h.docs.example", "div.body", "-", "en", "0"}
	with := func(i int, v string) string {
		f := slices.Clone(good)
		f[i] = v
		return header + line(f...)
	}
	tests := []struct {
		text, want string
	}{
		{"", "no doc sets"},
		{"docset\tdir\n", "header"},
		{header + "d\tpkg\n", "columns"},
		{with(0, "a/b"), "bad docset name"},
		{header + line(good...) + line(good...), "duplicate docset"},
		{with(4, ""), "empty dir"},
		{with(5, "[*.html"), "bad include pattern"},
		{with(5, "!"), "bad include pattern"},
		{with(6, "h/x"), "bad host"},
		{with(7, "div."), "bad selector"},
		{with(7, "div > p"), "bad selector"},
		{with(8, "div.nav,#"), "bad selector"},
		{with(9, ""), "empty lang"},
		{with(10, "-1"), "bad max"},
		{with(10, "x"), "bad max"},
	}
	for _, tt := range tests {
		_, err := parseConfig(tt.text, "c.tsv", "/base")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseConfig(%q) error = %v, want %q", tt.text, err, tt.want)
		}
	}
	sets, err := parseConfig(header+line(good...), "c.tsv", "/base")
	if err != nil {
		t.Fatal(err)
	}
	if sets[0].Dir != filepath.Join("/base", "dir") {
		t.Errorf("relative dir = %q, want it under the config's directory", sets[0].Dir)
	}
}

// TestBuildErrors checks errors of doc sets that yield no pages.
func TestBuildErrors(t *testing.T) {
	sets := testSets(t)
	noMatch := *setNamed(t, sets, "pg")
	noMatch.Include = []string{"*.txt"}
	noElem := *setNamed(t, sets, "pg")
	noElem.Content = selector{Tag: "div", Class: "no-such-class"}
	missing := *setNamed(t, sets, "pg")
	missing.Dir = filepath.Join("testdata", "no-such-dir")
	for _, tt := range []struct {
		d    docSet
		want string
	}{
		{noMatch, "no files match"},
		{noElem, "has an element"},
		{missing, "no-such-dir"},
	} {
		_, err := build([]docSet{tt.d}, 1, shares{}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("build(%s) error = %v, want %q", tt.d.Name, err, tt.want)
		}
	}
}

// TestRunUsage checks exit codes of the command line.
func TestRunUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{
		{nil, 2},
		{[]string{"nope"}, 2},
		{[]string{"build"}, 2},
		{[]string{"build", "-config", "x", "-out", "y", "-reprints", "-1"}, 2},
		{[]string{"build", "-config", filepath.Join("testdata", "missing.tsv"), "-out", t.TempDir()}, 1},
		{[]string{"check"}, 2},
		{[]string{"check", "-corpus", t.TempDir()}, 1},
		{[]string{"help"}, 0},
		{[]string{"-h"}, 0},
		{[]string{"build", "-h"}, 0},
		{[]string{"check", "-h"}, 0},
		{[]string{"check", "-corpus", "x", "extra"}, 2},
	} {
		if got := run(tt.args, io.Discard, io.Discard); got != tt.want {
			t.Errorf("run(%q) = %d, want %d", tt.args, got, tt.want)
		}
	}
	// -h describes the command; an unknown command is named.
	for _, c := range []string{"build", "check"} {
		var errb bytes.Buffer
		run([]string{c, "-h"}, io.Discard, &errb)
		if want := "neardupbuild " + c + ": " + commands[c]; !strings.Contains(errb.String(), want) {
			t.Errorf("%s -h printed %q, want %q", c, errb.String(), want)
		}
	}
	var errb bytes.Buffer
	if run([]string{"nope"}, io.Discard, &errb); !strings.Contains(errb.String(), `unknown command "nope"`) {
		t.Errorf("unknown command: stderr %q", errb.String())
	}
}
