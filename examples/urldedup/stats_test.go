package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
)

func TestStats(t *testing.T) {
	dir := t.TempDir()
	tsv := filepath.Join(dir, "c.tsv")
	data := "# cluster\turl\n" +
		"s1-a\thttp://www.a.example/x?utm_source=m\n" + // Crawler key drops utm_source
		"s1-a\thttp://www.a.example/x\n" +
		"s1-a\thttps://a.example/x\n" + // only Aggressive folds https and www
		"s1-b\thttp://www.a.example/y\n" +
		"s2-c\thttp://b.example/\n"
	if err := os.WriteFile(tsv, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := cmdStats([]string{"-clusters", tsv}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"sites 2, hosts 3, clusters 3, URLs 5, largest cluster 3",
		"max possible reduction (URLs - clusters) / URLs: 0.4000",
		"| share of clusters | 66.7% | 0.0% | 33.3% |",
		"| urlnorm Crawler | 0.2000 | 0.500 | 1.0000 | 0.0000 |",
		"| urlnorm Aggressive | 0.4000 | 1.000 | 1.0000 | 0.0000 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stats output lacks %q:\n%s", want, out.String())
		}
	}
	if err := cmdStats(nil, &out); err != errUsage {
		t.Errorf("stats without input: error %v, want usage", err)
	}
	if err := cmdStats([]string{"-clusters", filepath.Join(dir, "missing.tsv")}, &out); err == nil || err == errUsage {
		t.Errorf("stats of a missing file: error %v, want a file error", err)
	}
}

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	rows := []learn.Row{
		{Method: "urlnorm Crawler key (static)", Metrics: learn.Metrics{OfMax: 0.2, PairPrecision: 1}},
		{Method: "learned", Precision: "=1", MinCoverage: 3, Metrics: learn.Metrics{OfMax: 0.8, PairPrecision: 1}},
		{Method: "learned", Precision: "all", MinCoverage: 3, Metrics: learn.Metrics{OfMax: 0.9, PairPrecision: 0.2}},
		{Method: "learned", Precision: "=1", MinCoverage: 10, Metrics: learn.Metrics{OfMax: 0.7, PairPrecision: 1}},
	}
	tr := filepath.Join(dir, "t.svg")
	if err := writeTradeoff(tr, "trade-off", rows); err != nil {
		t.Fatal(err)
	}
	cv := filepath.Join(dir, "sub", "c.svg")
	if err := writeCoverage(cv, "coverage", []int{3, 100, 10}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tr)
	// One series per minimum coverage and one per baseline.
	if n := bytes.Count(b, []byte("<polyline")); n != 3 {
		t.Errorf("trade-off has %d lines, want 3", n)
	}
	b, _ = os.ReadFile(cv)
	if !bytes.Contains(b, []byte("cumulative coverage")) {
		t.Errorf("coverage picture lacks its axis label")
	}
	if got := sortedCoverages([]int{3, 100, 10}); got[0] != 100 || got[2] != 3 {
		t.Errorf("sortedCoverages = %v", got)
	}
}

func TestLearnerFlag(t *testing.T) {
	for _, name := range []string{"koppula", "align"} {
		if l, err := learnerNamed(name, learn.Options{}); err != nil || l == nil {
			t.Errorf("learnerNamed(%q) = %v, %v", name, l, err)
		}
	}
	if _, err := learnerNamed("nope", learn.Options{}); err != errUsage {
		t.Errorf("learnerNamed(nope): error %v, want usage", err)
	}
	if err := cmdEval([]string{"-data", t.TempDir(), "-learner", "nope"}, &bytes.Buffer{}); err != errUsage {
		t.Errorf("eval -learner nope: error %v, want usage", err)
	}
	// The alignment learner writes a rules file too.
	dir := t.TempDir()
	tsv := filepath.Join(dir, "c.tsv")
	var b strings.Builder
	for i := range 6 {
		c := "s-" + string(rune('a'+i))
		id := string(rune('0' + i))
		b.WriteString(c + "\thttp://h.example/item?id=" + id + "&sid=abc" + id + "\n")
		b.WriteString(c + "\thttp://h.example/item?id=" + id + "\n")
	}
	os.WriteFile(tsv, []byte(b.String()), 0o644)
	var out bytes.Buffer
	if err := cmdLearn([]string{"-clusters", tsv, "-learner", "align"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "undust-rules v2") {
		t.Errorf("align rules file starts %.40q", out.String())
	}
}
