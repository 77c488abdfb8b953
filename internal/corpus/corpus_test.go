package corpus

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeGz writes content gzipped to dir/name.
func writeGz(t *testing.T, dir, name, content string) {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write([]byte(content))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// neardup makes a small corpus directory and points $UNDUST_NEARDUP at it.
func neardup(t *testing.T) {
	dir := t.TempDir()
	writeGz(t, dir, "pages.jsonl.gz", `{"id": "p0", "url": "http://a.example/", "lang": "en", "html": "<p>a</p>"}
{"id": "p1", "url": "http://b.example/x", "lang": "zh", "html": "<p>\u6570</p>"}
{"id": "p2", "url": "http://c.example/", "lang": "en", "html": ""}
`)
	writeGz(t, dir, "main_text.jsonl.gz", `{"id": "p0", "title": "A", "main": "a"}
{"id": "p1", "title": "B", "main": "数据"}
{"id": "p2", "title": "C", "main": ""}
`)
	t.Setenv(NearDupVar, dir)
}

func TestPages(t *testing.T) {
	neardup(t)
	all := []Page{
		{ID: "p0", URL: "http://a.example/", Lang: "en", HTML: "<p>a</p>"},
		{ID: "p1", URL: "http://b.example/x", Lang: "zh", HTML: "<p>数</p>"},
		{ID: "p2", URL: "http://c.example/", Lang: "en"},
	}
	tests := []struct {
		max  int
		want []Page
	}{
		{0, all},     // max <= 0 reads all
		{-1, all},    // likewise
		{2, all[:2]}, // the first max, in file order
		{3, all},     // exactly all
		{10, all},    // more than there are
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Pages(t, tt.max)); diff != "" {
			t.Errorf("Pages(t, %d) mismatch (-want +got):\n%s", tt.max, diff)
		}
	}
}

func TestMainTexts(t *testing.T) {
	neardup(t)
	tests := []struct {
		max  int
		want []string
	}{
		{0, []string{"a", "数据", ""}}, // all, empty texts kept
		{1, []string{"a"}},           // the first max
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, MainTexts(t, tt.max)); diff != "" {
			t.Errorf("MainTexts(t, %d) mismatch (-want +got):\n%s", tt.max, diff)
		}
	}
}

func TestDupClusters(t *testing.T) {
	t.Setenv(DupClustersVar, "/data/dupclusters")
	if got, want := DupClusters(t, "train.tsv"), filepath.Join("/data/dupclusters", "train.tsv"); got != want {
		t.Errorf("DupClusters(t, %q) = %q, want %q", "train.tsv", got, want)
	}
}

// TestSkip checks that every function skips, and reads nothing, when its
// variable is unset.
func TestSkip(t *testing.T) {
	tests := []struct {
		name string
		v    string
		f    func(testing.TB)
	}{
		{"Pages", NearDupVar, func(tb testing.TB) { Pages(tb, 0) }},
		{"MainTexts", NearDupVar, func(tb testing.TB) { MainTexts(tb, 0) }},
		{"DupClusters", DupClustersVar, func(tb testing.TB) { DupClusters(tb, "train.tsv") }},
	}
	for _, tt := range tests {
		skipped := false
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(tt.v, "")
			defer func() { skipped = t.Skipped() }()
			tt.f(t)
			t.Errorf("%s returned with %s unset", tt.name, tt.v)
		})
		if !skipped {
			t.Errorf("%s did not skip with %s unset", tt.name, tt.v)
		}
	}
}

// TestFail checks that a malformed or missing file fails the test rather
// than yielding a short corpus.
func TestFail(t *testing.T) {
	tests := []struct {
		name string
		data func(t *testing.T, dir string)
	}{
		{"bad JSON", func(t *testing.T, dir string) { // line 2
			writeGz(t, dir, "pages.jsonl.gz", "{\"id\": \"p0\"}\nnot json\n")
		}},
		{"not gzip", func(t *testing.T, dir string) { // gzip header
			os.WriteFile(filepath.Join(dir, "pages.jsonl.gz"), []byte("{}\n"), 0o644)
		}},
		{"missing", func(t *testing.T, dir string) {}}, // no pages.jsonl.gz
	}
	for _, tt := range tests {
		dir := t.TempDir()
		tt.data(t, dir)
		failed := false
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(NearDupVar, dir)
			ft := &fatalTB{TB: t}
			func() {
				defer func() { recover() }()
				Pages(ft, 0)
			}()
			failed = ft.failed
		})
		if !failed {
			t.Errorf("%s: Pages did not fail", tt.name)
		}
	}
}

// fatalTB records a Fatal instead of failing the test, and stops the caller
// with a panic the test recovers.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Fatal(args ...any)                 { f.failed = true; panic("fatal") }
func (f *fatalTB) Fatalf(format string, args ...any) { f.failed = true; panic("fatal") }
