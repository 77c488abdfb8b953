package lcs

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// page is one line of testdata/pages.jsonl (see testdata/ORIGIN.md).
type page struct {
	ID         string   `json:"id"`
	Lang       string   `json:"lang"`
	Origin     string   `json:"origin"`
	Paragraphs []string `json:"paragraphs"`
}

func readPages(tb testing.TB) []page {
	tb.Helper()
	f, err := os.Open("testdata/pages.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var pages []page
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return pages
}

// TestRealPages checks the labelled relations of real pages: an edited
// page and reprints duplicate their source, a Chinese and an English page
// do not.
func TestRealPages(t *testing.T) {
	pages := readPages(t)
	code := map[string]string{}
	var ids, codes []string
	for _, p := range pages {
		code[p.ID] = Code(p.Paragraphs)
		ids = append(ids, p.ID)
		codes = append(codes, code[p.ID])
	}
	tests := []struct {
		i, j     string
		min, max float64 // bounds of S_ij: page j over page i
	}{
		{"p03505", "p00175", 0.75, 1}, // an edit (J = 0.965) over its source
		{"p00175", "p03505", 0.75, 1}, // and the source over the edit
		{"p00340", "p00336", 1, 1},    // a reprint, main content equal
		{"p00340", "p01926", 1, 1},    // another reprint
		{"p00336", "p01926", 1, 1},    // two reprints of one page
		{"p00340", "p03505", 0, 0.2},  // different pages in different languages
		{"p03505", "p00340", 0, 0.2},
	}
	for _, tt := range tests {
		if s := Repeatability(code[tt.i], code[tt.j]); s < tt.min || s > tt.max {
			t.Errorf("Repeatability(%s, %s) = %.3f, want %.2f..%.2f (codes %q, %q)", tt.i, tt.j, s, tt.min, tt.max, code[tt.i], code[tt.j])
		}
	}
	kept := map[string]bool{}
	for i, r := range Eliminate(codes, 0) {
		if !r.Dup {
			kept[ids[i]] = true
		}
	}
	if len(kept) != 2 || !kept["p03505"] && !kept["p00175"] || !kept["p00340"] && !kept["p00336"] && !kept["p01926"] {
		t.Errorf("Eliminate kept %v, want one page of each language", kept)
	}
}
