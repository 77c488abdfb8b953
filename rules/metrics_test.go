package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEvaluate(t *testing.T) {
	s := mustSet(t, nil,
		`host=h.example cov=1 prec=1 sup=1 if query("sid")=* then query("sid")=-`,
		`host=h.example cov=1 prec=1 sup=1 if path(1,1)="c" then path(1,1)="b"`, // merges c3 into c2: wrong
	)
	urls := []Labeled{
		{"c1", "http://h.example/a?sid=1"},
		{"c1", "http://h.example/a"},
		{"c2", "http://h.example/b?sid=2"},
		{"c2", "http://h.example/b"},
		{"c3", "http://h.example/c"},
		{"c3", "http://h.example/c"}, // a repeated URL counts once
	}
	got := s.Evaluate(urls)
	want := Metrics{
		URLs: 5, Clusters: 3, Canonical: 5, Normalized: 2,
		ReductionRatio: 3.0 / 5, MaxReduction: 2.0 / 5, AvgReductionPerRule: 3.0 / 2,
		Pairs: 4, TruePairs: 2, PairPrecision: 0.5, // {a?sid, a} true; {b?sid, b, c}: 1 true of 3
		MergedClusters: 2, FalseMergeRate: 2.0 / 3,
		Rules: []RuleMetrics{
			{Coverage: 1, False: 1, Precision: 0}, // the path rule (one literal) comes first
			{Coverage: 2, False: 0, Precision: 1}, // the sid rule
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", d)
	}
	// Pair counts must not enumerate pairs: a cluster of 20,000 URLs of one page.
	var big []Labeled
	for i := range 20000 {
		big = append(big, Labeled{"c", "http://h.example/a?sid=" + itoa(i)})
	}
	m := s.Evaluate(big)
	if m.Normalized != 1 || m.Pairs != 20000*19999/2 || m.PairPrecision != 1 {
		t.Errorf("Evaluate(big) = %d normalized, %d pairs, precision %v", m.Normalized, m.Pairs, m.PairPrecision)
	}
	// An empty set and no URLs.
	var zero Set
	if m := zero.Evaluate(nil); m.PairPrecision != 1 || m.URLs != 0 {
		t.Errorf("empty Evaluate = %+v", m)
	}
}

func itoa(i int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}
