package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/shingle"
)

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "pages.jsonl"), []byte("{not json\n"), 0o644)
	emptyDir := filepath.Join(dir, "empty")
	os.Mkdir(emptyDir, 0o755)
	emptyFile := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(emptyFile, []byte("\n\n"), 0o644)
	idx := filepath.Join(dir, "x.idx")
	tests := []struct {
		args []string
		code int
		msg  string // in stderr
	}{
		{nil, 2, "usage"}, // no command
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},             // unknown command
		{[]string{"eval"}, 2, "-corpus is required"},                            // missing flag
		{[]string{"eval", "-bogus"}, 2, "flag provided but not defined"},        // unknown flag
		{[]string{"eval", "-corpus", "testdata", "-text", "x"}, 2, `-text "x"`}, // bad variant
		{[]string{"eval", "-corpus", "testdata", "-method", "nope"}, 2, `-method "nope" matches no method`},
		{[]string{"eval", "-corpus", filepath.Join(dir, "missing")}, 1, "no such file"}, // missing corpus
		{[]string{"eval", "-corpus", bad}, 1, "pages.jsonl:1"},                          // malformed pages
		{[]string{"eval", "-corpus", "testdata", "-q", "-method", "digest"}, 0, ""},     // success
		{[]string{"help"}, 0, ""}, // help
		{[]string{"eval", "-h"}, 0, "neardup eval: " + commands["eval"]}, // a command's description and flags
		{[]string{"index", "-h"}, 0, "neardup index: " + commands["index"]},
		{[]string{"query", "-h"}, 0, "neardup query: " + commands["query"]},
		{[]string{"eval", "-corpus", "testdata", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"query", "-index", idx, "extra"}, 2, `unexpected argument "extra"`},
		// Input without pages fails the same way in both forms, and writes no index.
		{[]string{"index", "-pages", emptyFile, "-o", idx}, 1, "no pages"},
		{[]string{"index", "-dir", emptyDir, "-o", idx}, 1, "no pages"},
		{[]string{"query", "-index", idx, "-pages", emptyFile}, 1, ""},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if code := run(tt.args, &out, &errb); code != tt.code {
			t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, code, tt.code, errb.String())
		}
		if !strings.Contains(errb.String(), tt.msg) {
			t.Errorf("run(%q) stderr %q does not mention %q", tt.args, errb.String(), tt.msg)
		}
	}
	if _, err := os.Stat(idx); err == nil {
		t.Errorf("index of no pages written to %s", idx)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".x.idx.tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// evalRows runs eval -json on testdata and returns the rows by "name/text".
func evalRows(t *testing.T, args ...string) map[string]Row {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"eval", "-corpus", "testdata", "-json", "-q"}, args...)
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("run(%q) = %d: %s", args, code, errb.String())
	}
	var res struct {
		Pages      int   `json:"pages"`
		NearDup    int   `json:"near_dup_pairs"`
		Checked    int   `json:"truth_j_checked"`
		Reproduced int   `json:"truth_j_reproduced"`
		Rows       []Row `json:"rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	if res.Pages != 9 || res.NearDup != 4 {
		t.Fatalf("corpus counts: %d pages, %d near-dup pairs; want 9, 4", res.Pages, res.NearDup)
	}
	// The truth J of all 7 labelled pairs is recomputed from main_text.
	if res.Checked != 7 || res.Reproduced != 7 {
		t.Errorf("truth J reproduced for %d of %d pairs, want 7 of 7", res.Reproduced, res.Checked)
	}
	m := map[string]Row{}
	for _, r := range res.Rows {
		m[r.Method+"/"+r.Text] = r
	}
	return m
}

func TestEvalTestdata(t *testing.T) {
	rows := evalRows(t, "-method", "digest:sha256,jaccard", "-templates=off") // the methods alone; templates_test.go has them with template features
	tests := []struct {
		key               string
		predicted, trapFP int
		precision, recall float64
	}{
		{"jaccard:0.80/main", 4, 0, 1, 1},       // main text: all four near-duplicates, nothing else
		{"jaccard:0.50/main", 7, 0, 4.0 / 7, 1}, // every listed pair has J >= 0.5
		{"jaccard:0.50/full", 4, 1, 0.5, 0.5},   // full text: the template makes a trap pair look alike
		{"digest:sha256/main", 2, 0, 1, 0.5},    // exact copies of the article only
		{"digest:sha256/full", 0, 0, 0, 0},      // no two full pages are identical
	}
	for _, tt := range tests {
		r, ok := rows[tt.key]
		if !ok {
			t.Errorf("no row %s", tt.key)
			continue
		}
		if r.Predicted != tt.predicted || r.TrapFP != tt.trapFP || !near(r.Precision, tt.precision) || !near(r.Recall, tt.recall) {
			t.Errorf("%s: predicted %d trapFP %d P %.3f R %.3f; want %d %d %.3f %.3f",
				tt.key, r.Predicted, r.TrapFP, r.Precision, r.Recall, tt.predicted, tt.trapFP, tt.precision, tt.recall)
		}
	}
	if r := rows["digest:sha256/main"]; !near(r.RemovalRate, 2.0/9) {
		t.Errorf("digest removal rate %.3f, want %.3f", r.RemovalRate, 2.0/9)
	}
	if _, ok := rows["digest:xxh64/main"]; ok {
		t.Errorf("-method digest:sha256 also ran digest:xxh64")
	}
}

func TestEvalTextOutput(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "-corpus", "testdata", "-q", "-text", "main", "-method", "default"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"9 pages", "jaccard:0.80", "digest:sha256", "trap-FP"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), " full ") || strings.Contains(out.String(), "jaccard:0.50") {
		t.Errorf("-text main -method default printed other rows:\n%s", out.String())
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestAllPairsJaccard compares the inverted-index all-pairs search with
// comparing every pair.
func TestAllPairsJaccard(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	sets := make([]shingle.Set, 60)
	for i := range sets {
		h := make([]uint64, r.IntN(30))
		for k := range h {
			h[k] = r.Uint64N(40)
		}
		sets[i] = shingle.NewSet(h)
	}
	got := map[Pair]float64{}
	for _, p := range allPairsJaccard(sets, 0.3) {
		got[p.Pair] = p.J
	}
	n := 0
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			jac := sets[i].Jaccard(sets[j])
			g, ok := got[Pair{int32(i), int32(j)}]
			if jac >= 0.3 {
				n++
				if !ok || !near(g, jac) {
					t.Errorf("pair %d,%d: J %.3f, all-pairs gave %.3f (found %v)", i, j, jac, g, ok)
				}
			} else if ok {
				t.Errorf("pair %d,%d: J %.3f below 0.3 but reported", i, j, jac)
			}
		}
	}
	if n == 0 {
		t.Fatal("test sets have no pair above 0.3")
	}
}

// TestDefaultRowsMain checks the default rows of the shingle-based
// families on the main text of the synthetic corpus: all four
// near-duplicate pairs, nothing else. (Other families, in their own
// method files, have their own tests.)
func TestDefaultRowsMain(t *testing.T) {
	rows := evalRows(t, "-method", "default", "-text", "main")
	n := 0
	for key, r := range rows {
		switch r.Family {
		case "jaccard", "minhash", "spotsigs", "sizespotsigs":
		default:
			continue
		}
		n++
		if r.Predicted != 4 || r.TruePos != 4 || r.TrapFP != 0 {
			t.Errorf("%s: predicted %d, true %d, trap FP %d; want 4 4 0", key, r.Predicted, r.TruePos, r.TrapFP)
		}
	}
	if n != 4 {
		t.Errorf("%d default rows of the shingle families, want 4", n)
	}
}

func TestIndexQuery(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "pages.idx")
	var out, errb bytes.Buffer
	if code := run([]string{"index", "-pages", "testdata/pages.jsonl", "-o", idx}, &out, &errb); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errb.String())
	}
	// Query with the corpus itself: every page finds itself, p01 finds
	// its reprint p02 and its edit p03, and the trap p04 finds only
	// itself and its original p07.
	out.Reset()
	if code := run([]string{"query", "-index", idx, "-pages", "testdata/pages.jsonl"}, &out, &errb); code != 0 {
		t.Fatalf("query: exit %d: %s", code, errb.String())
	}
	matches := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Split(l, "\t")
		matches[f[0]] = append(matches[f[0]], f[1])
	}
	tests := []struct {
		id   string
		want []string
	}{
		{"p01", []string{"p01", "p02", "p03"}}, // original: reprint and edit
		{"p04", []string{"p04", "p07"}},        // reprint in a trap template: its original only
		{"p09", []string{"p09"}},               // empty article: main content falls back to the navigation text
	}
	for _, tt := range tests {
		if got := matches[tt.id]; !slices.Equal(got, tt.want) {
			t.Errorf("query %s matched %v, want %v", tt.id, got, tt.want)
		}
	}
	// A directory of HTML files works too.
	hdir := filepath.Join(dir, "html")
	os.Mkdir(hdir, 0o755)
	pages, err := readInputs("testdata/pages.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(hdir, "q.html"), []byte(pages[1].HTML), 0o644)
	out.Reset()
	if code := run([]string{"query", "-index", idx, "-dir", hdir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "q.html\tp01\t") {
		t.Errorf("query -dir: exit %d, output %q", code, out.String())
	}
	// Damaged and foreign index files are errors (exit 1), not panics.
	data, _ := os.ReadFile(idx)
	for name, b := range map[string][]byte{
		"truncated": data[:len(data)-5],
		"foreign":   []byte("hello\n"),
		"flipped":   append(append([]byte(nil), data[:len(data)-20]...), append([]byte{data[len(data)-20] ^ 1}, data[len(data)-19:]...)...),
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		errb.Reset()
		if code := run([]string{"query", "-index", p, "-pages", "testdata/pages.jsonl"}, &out, &errb); code != 1 {
			t.Errorf("%s index: exit %d, want 1 (%s)", name, code, errb.String())
		}
	}
	for _, args := range [][]string{
		{"index", "-pages", "testdata/pages.jsonl"},                       // no -o
		{"index", "-o", idx},                                              // no input
		{"index", "-pages", "x", "-dir", "y", "-o", idx},                  // both inputs
		{"index", "-pages", "testdata/pages.jsonl", "-o", idx, "-t", "2"}, // bad threshold
		{"query", "-pages", "testdata/pages.jsonl"},                       // no -index
	} {
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}
