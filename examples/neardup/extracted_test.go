package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeExtracted writes lines to a file in a temporary directory, gzipped
// when gz is set, and returns its name.
func writeExtracted(t *testing.T, lines []string, gz bool) string {
	t.Helper()
	data := []byte(strings.Join(lines, "\n") + "\n")
	name := filepath.Join(t.TempDir(), "ext.jsonl")
	if gz {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(data)
		z.Close()
		data, name = b.Bytes(), name+".gz"
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestEvalExtracted(t *testing.T) {
	mainText, err := os.ReadFile("testdata/main_text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	truth := strings.Split(strings.TrimSpace(string(mainText)), "\n")
	var same []string // every page the same text
	for _, id := range []string{"p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"} {
		same = append(same, fmt.Sprintf(`{"id":%q,"title":"t","main":"one text for every page of the corpus\n\nin two paragraphs"}`, id))
	}
	tests := []struct {
		name              string
		lines             []string
		gz                bool
		predicted, trapFP int
		precision, recall float64
	}{
		{"truth", truth, false, 4, 0, 1, 1},       // the labels' own text: exact
		{"truth gzip", truth, true, 4, 0, 1, 1},   // the same, compressed
		{"same", same, false, 36, 3, 4.0 / 36, 1}, // all 9*8/2 pairs called duplicates
		{"missing", same[:1], false, 0, 0, 0, 0},  // unlisted pages have no text
	}
	for _, tt := range tests {
		rows := evalRows(t, "-method", "jaccard:0.80", "-text", "main", "-extracted", writeExtracted(t, tt.lines, tt.gz))
		if _, ok := rows["jaccard:0.80/main"]; !ok {
			t.Errorf("%s: no main row beside the ext row", tt.name)
		}
		r, ok := rows["jaccard:0.80/ext"]
		if !ok {
			t.Errorf("%s: no ext row", tt.name)
			continue
		}
		if r.Predicted != tt.predicted || r.TrapFP != tt.trapFP || !near(r.Precision, tt.precision) || !near(r.Recall, tt.recall) {
			t.Errorf("%s: predicted %d trapFP %d P %.3f R %.3f; want %d %d %.3f %.3f",
				tt.name, r.Predicted, r.TrapFP, r.Precision, r.Recall, tt.predicted, tt.trapFP, tt.precision, tt.recall)
		}
	}
}

func TestEvalExtractedErrors(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		msg   string // in stderr
	}{
		{"unknown id", []string{`{"id":"p01","main":"a"}`, `{"id":"nope","main":"b"}`}, `ext.jsonl:2: unknown page id "nope"`},
		{"duplicate id", []string{`{"id":"p01","main":"a"}`, `{"id":"p01","main":"b"}`}, `ext.jsonl:2: duplicate id "p01"`},
		{"bad json", []string{`{"id":"p01",`}, "ext.jsonl:1: "},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		args := []string{"eval", "-corpus", "testdata", "-q", "-method", "digest", "-extracted", writeExtracted(t, tt.lines, false)}
		if code := run(args, &out, &errb); code != 1 {
			t.Errorf("%s: exit code %d, want 1", tt.name, code)
		}
		if !strings.Contains(errb.String(), tt.msg) {
			t.Errorf("%s: stderr %q does not mention %q", tt.name, errb.String(), tt.msg)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "-corpus", "testdata", "-extracted", "testdata/none.jsonl"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no such file") {
		t.Errorf("missing file: exit code %d, stderr %q; want 1, no such file", code, errb.String())
	}
}
