package corpus

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The environment variables naming the corpus directories.
const (
	NearDupVar     = "UNDUST_NEARDUP"     // holds pages.jsonl.gz and main_text.jsonl.gz
	DupClustersVar = "UNDUST_DUPCLUSTERS" // holds train.tsv, dev.tsv and sample.tsv
)

// maxLine bounds one JSON line (a page with all its HTML).
const maxLine = 1 << 28

// Page is one line of pages.jsonl.gz: a crawled page and its HTML. Its zero
// value is an empty page; it is plain data, safe to share once read.
type Page struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Lang string `json:"lang"`
	HTML string `json:"html"`
}

// Pages returns the first max pages of pages.jsonl.gz in $UNDUST_NEARDUP,
// or all of them when max <= 0, in file order. It skips tb when the
// variable is unset.
func Pages(tb testing.TB, max int) []Page {
	tb.Helper()
	var pages []Page
	readLines(tb, "pages.jsonl.gz", max, func(line []byte) error {
		var p Page
		err := json.Unmarshal(line, &p)
		pages = append(pages, p)
		return err
	})
	return pages
}

// MainTexts returns the main text ("main") of the first max lines of
// main_text.jsonl.gz in $UNDUST_NEARDUP, or of all of them when max <= 0,
// in file order. It skips tb when the variable is unset.
func MainTexts(tb testing.TB, max int) []string {
	tb.Helper()
	var texts []string
	readLines(tb, "main_text.jsonl.gz", max, func(line []byte) error {
		var d struct {
			Main string `json:"main"`
		}
		err := json.Unmarshal(line, &d)
		texts = append(texts, d.Main)
		return err
	})
	return texts
}

// DupClusters returns the path of the file name (such as "train.tsv") in
// $UNDUST_DUPCLUSTERS. It skips tb when the variable is unset; it does not
// open the file.
func DupClusters(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(dir(tb, DupClustersVar), name)
}

// dir returns the value of the environment variable v, or skips tb.
func dir(tb testing.TB, v string) string {
	tb.Helper()
	d := os.Getenv(v)
	if d == "" {
		tb.Skip(v + " not set")
	}
	return d
}

// readLines calls f on each of the first max lines (all when max <= 0) of
// the gzipped file name in $UNDUST_NEARDUP, and fails tb on any error.
func readLines(tb testing.TB, name string, max int, f func(line []byte) error) {
	tb.Helper()
	path := filepath.Join(dir(tb, NearDupVar), name)
	file, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer file.Close()
	z, err := gzip.NewReader(file)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, maxLine)
	for n := 1; (max <= 0 || n <= max) && sc.Scan(); n++ {
		if err := f(sc.Bytes()); err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}
