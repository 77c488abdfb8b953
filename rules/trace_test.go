package rules_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/rules"
)

// traceRules are two rules that chain: the mirror host to www, then the print view dropped.
const traceRules = `undust-rules v1
rule host=mirror.example.org cov=9 prec=1 sup=3 if host=* then host="www.example.org"
rule host=www.example.org cov=9 prec=1 sup=3 if query("print")=* then query("print")=-
`

func ExampleSet_NormalizeTrace() {
	s, err := rules.Load(strings.NewReader(traceRules), nil)
	if err != nil {
		panic(err)
	}
	for _, u := range []string{
		"http://mirror.example.org/a?print=1",
		"http://www.example.org/a",
	} {
		key, used, err := s.NormalizeTrace(nil, u)
		fmt.Println(key, used, err)
		for _, i := range used {
			fmt.Println("  by", s.Rule(i))
		}
	}
	// Output:
	// http://www.example.org/a [0 1] <nil>
	//   by host=mirror.example.org cov=9 prec=1 sup=3 if host=* then host="www.example.org"
	//   by host=www.example.org cov=9 prec=1 sup=3 if query("print")=* then query("print")=-
	// http://www.example.org/a [] <nil>
}

// TestNormalizeTrace checks that NormalizeTrace gives Normalize's result (Normalize run over the
// cases first, back to back) and that replaying the traced rules, each alone in a set, one
// rewrite each, gives the same URL.
func TestNormalizeTrace(t *testing.T) {
	s, err := rules.Load(strings.NewReader(traceRules), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		used []int
	}{
		{"http://mirror.example.org/a?print=1", []int{0, 1}}, // two rules chain
		{"http://mirror.example.org/a", []int{0}},            // the host rule only
		{"http://www.example.org/a?print=yes", []int{1}},     // the print rule only
		{"http://other.example.org/a?print=1", nil},          // no rule's scope
	}
	// Normalize's results first, one call after another: NormalizeTrace gives its scratch back
	// cleared, and would make each Normalize start afresh.
	wants := make([]string, len(tests))
	werrs := make([]error, len(tests))
	for i, tc := range tests {
		wants[i], werrs[i] = s.Normalize(tc.in)
	}
	for i, tc := range tests {
		want, werr := wants[i], werrs[i]
		got, used, err := s.NormalizeTrace(nil, tc.in)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("NormalizeTrace(%q) = %q, %v; Normalize gives %q, %v", tc.in, got, err, want, werr)
		}
		if !slices.Equal(used, tc.used) {
			t.Errorf("NormalizeTrace(%q) used %v, want %v", tc.in, used, tc.used)
		}
		cur := tc.in
		for _, i := range used {
			one, err := rules.NewSet([]rules.Rule{s.Rule(i)}, &rules.Options{MaxRewrites: 1})
			if err != nil {
				t.Fatal(err)
			}
			cur, _ = one.Normalize(cur)
		}
		if cur != want {
			t.Errorf("replaying the trace of %q gives %q, want %q", tc.in, cur, want)
		}
	}
}
