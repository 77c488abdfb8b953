package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCompare(t *testing.T) {
	const text = "the print server keeps one queue per printer and sends the jobs in order"
	truth := map[string]string{"a": text, "b": text, "c": text, "d": ""}
	recs := []record{
		{ID: "a", Main: text},               // J 1
		{ID: "b", Main: text + " and more"}, // J 10/12 (14 and 16 tokens), below 0.9
		{ID: "c", Main: ""},                 // J 0, empty
		{ID: "d", Main: ""},                 // both empty: J 1
		{ID: "x", Main: text},               // no reference: left out
	}
	got := compare(recs, truth)
	want := quality{Pages: 4, MedianJ: (10.0/12 + 1) / 2, ShareGE90: 0.5, Empty: 1}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("compare mismatch (-want +got):\n%s", diff)
	}
}

// TestRun extracts a two-page corpus and checks the output file and the
// quality report.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	pages := `{"id":"p1","html":` + quote(string(page)) + "}\n" + `{"id":"p2","html":"<p>x"}` + "\n" +
		`{"id":"p3","html":` + quote(strings.Repeat("<p>x", 30000)) + "}\n" // too many elements
	os.WriteFile(filepath.Join(dir, "pages.jsonl"), []byte(pages), 0o644)
	os.WriteFile(filepath.Join(dir, "main_text.jsonl"), []byte(`{"id":"p1","main":"nothing alike at all in this text"}`+"\n"), 0o644)
	out := filepath.Join(dir, "ext.jsonl.gz")
	var stderr bytes.Buffer
	if code := run([]string{"-corpus", dir, "-o", out, "-j", "2", "-quality"}, &stderr); code != 0 {
		t.Fatalf("run = %d; stderr:\n%s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []record
	if err := eachLine(z, out, func(r record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].ID != "p1" || got[1].ID != "p2" || got[2].ID != "p3" || got[2].Main != "" || got[0].Title != "Configuring the print queue" ||
		!strings.HasPrefix(got[0].Main, "Configuring the print queue\n\nThe print server keeps one queue") {
		t.Errorf("output records %+v", got)
	}
	for _, s := range []string{"3 pages", "1 failed", "p3: trafilatura: page too large: more than 20000 elements", "htmltext-main  median J 0.000", "trafilatura    median J 0.000"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr does not mention %q:\n%s", s, stderr.String())
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pages.jsonl"), []byte("{bad\n"), 0o644)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage"},
		{[]string{"-corpus", dir}, 2, "usage"}, // no -o
		{[]string{"-corpus", filepath.Join(dir, "none"), "-o", filepath.Join(dir, "o")}, 1, "no such file"},
		{[]string{"-corpus", dir, "-o", filepath.Join(dir, "o")}, 1, "pages.jsonl:1:"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		if code := run(tt.args, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("run(%q) = %d, stderr %q; want %d, %q", tt.args, code, stderr.String(), tt.code, tt.msg)
		}
	}
}
