package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQualityRow(t *testing.T) {
	js := []float64{1, 0.95, 0.5, 0.9, 0, 0.89}
	tests := []struct {
		idx        []int
		med, share float64
	}{
		{[]int{0, 1, 2}, 0.95, 2.0 / 3},     // odd count: the middle value
		{[]int{2, 3, 4, 5}, 0.695, 1.0 / 4}, // even: mean of the middle two; 0.9 counts as good
		{nil, 0, 0},                         // no pages
	}
	for _, tt := range tests {
		r := qualityRow("v", "d", js, tt.idx)
		if !near(r.MedianJ, tt.med) || !near(r.Good, tt.share) || r.Pages != len(tt.idx) {
			t.Errorf("qualityRow(%v) = %+v, want median %.3f share %.3f", tt.idx, r, tt.med, tt.share)
		}
	}
}

func TestQuality(t *testing.T) {
	truth := []string{
		"one two three four five six seven",
		"alpha beta gamma delta epsilon zeta",
		"",
	}
	docsets := []string{"a", "a", "b"}
	exact := []Doc{{Text: truth[0]}, {Text: truth[1]}, {Text: ""}}
	noisy := []Doc{{Text: truth[0] + " menu home blog"}, {Text: "something else entirely here today"}, {Text: "stray words"}}
	rows := quality([]Variant{{"exact", exact}, {"noisy", noisy}}, truth, docsets)
	type cell struct {
		V, D  string
		N     int
		Med   float64
		Share float64
	}
	var got []cell
	for _, r := range rows {
		got = append(got, cell{r.Variant, r.Docset, r.Pages, float64(int(r.MedianJ*1000+0.5)) / 1000, r.Good})
	}
	want := []cell{
		{"exact", "all", 3, 1, 1}, // two empty texts count as J = 1
		{"exact", "a", 2, 1, 1},
		{"exact", "b", 1, 1, 1},
		{"noisy", "all", 3, 0, 0},
		{"noisy", "a", 2, 0.25, 0}, // 3 of 6 shingles shared: J 0.5; and 0
		{"noisy", "b", 1, 0, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("quality mismatch (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	if err := writeQuality(&out, rows); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"exact med", "noisy >=0.9"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("writeQuality output lacks %q:\n%s", s, out.String())
		}
	}
	if !strings.Contains(out.String(), "\n") || !slicesContainsLine(out.String(), "a 2 1.000 1.000 0.250 0.000") {
		t.Errorf("writeQuality output lacks the row of doc set a:\n%s", out.String())
	}
}

func TestReadDocsets(t *testing.T) {
	c := &Corpus{IDs: []string{"p1", "p2"}, index: map[string]int{"p1": 0, "p2": 1}}
	dir := t.TempDir()
	got, err := c.readDocsets(dir) // no pages_meta.tsv
	if err != nil || !cmp.Equal(got, []string{"", ""}) {
		t.Errorf("readDocsets without file = %q, %v; want empty names", got, err)
	}
	meta := filepath.Join(dir, "pages_meta.tsv")
	os.WriteFile(meta, []byte("id\turl\tdocset\np2\thttp://x/\tdocs\np9\thttp://y/\tother\n"), 0o644)
	got, err = c.readDocsets(dir)
	if err != nil || !cmp.Equal(got, []string{"", "docs"}) {
		t.Errorf("readDocsets = %q, %v; want [\"\" docs]", got, err)
	}
	os.WriteFile(meta, []byte("id\turl\n"), 0o644)
	if _, err := c.readDocsets(dir); err == nil {
		t.Errorf("readDocsets without a docset column: no error")
	}
	os.WriteFile(meta, []byte("id\turl\tdocset\np1\n"), 0o644)
	if _, err := c.readDocsets(dir); err == nil {
		t.Errorf("readDocsets with a short row: no error")
	}
}

// TestEvalQuality checks that eval reports the quality of every text
// variant it evaluates, named after the learning switch.
func TestEvalQuality(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		variants []string
	}{
		{nil, []string{"full", "main+learn"}},
		{[]string{"-learn=false"}, []string{"full", "main"}},
		{[]string{"-text", "main"}, []string{"main+learn"}},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"eval", "-corpus", "testdata", "-json", "-q", "-method", "jaccard:0.80"}, tt.args...)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("run(%q) = %d: %s", args, code, errb.String())
		}
		var res struct {
			Quality []QualityRow `json:"extraction_quality"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Quality {
			if r.Docset == "all" {
				got = append(got, r.Variant)
				if r.Pages != 9 {
					t.Errorf("%q: %s covers %d pages, want 9", args, r.Variant, r.Pages)
				}
			}
		}
		if !cmp.Equal(got, tt.variants) {
			t.Errorf("%q: quality variants %q, want %q", args, got, tt.variants)
		}
	}
}

// slicesContainsLine reports whether some line of s has the fields of line.
func slicesContainsLine(s, line string) bool {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Join(strings.Fields(l), " ") == line {
			return true
		}
	}
	return false
}
