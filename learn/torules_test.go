package learn

import (
	"testing"

	"github.com/undust/undust/rules"
)

// TestToRules converts the rules learned from the sample into package rules' model, builds a
// rules.Set from them and compares its dedup keys with the model's on every sample URL.
func TestToRules(t *testing.T) {
	cls := loadSample(t)
	m, _, err := Learn(cls, Options{MinCoverage: 1, MinPrecision: -1})
	if err != nil {
		t.Fatal(err)
	}
	rs, skipped := m.ToRules()
	set, err := rules.NewSet(rs, &rules.Options{Canonicalizer: crawler})
	if err != nil {
		t.Fatal(err)
	}
	same, n := 0, 0
	for _, c := range cls {
		for _, u := range c.URLs {
			prep, _ := Prepare(u.Raw)
			want, _ := m.Normalize(u.Raw)
			got, err := set.Normalize(prep)
			if err != nil {
				t.Fatalf("Set.Normalize(%q): %v", prep, err)
			}
			n++
			if finalize(got) == want {
				same++
			} else if testing.Verbose() {
				t.Logf("%q: model %q, set %q", u.Raw, want, got)
			}
		}
	}
	t.Logf("%d rules.Rule from %d selected rules, %d not expressible; keys agree on %d of %d URLs", len(rs), m.NumRules(), skipped, same, n)
	if len(rs) == 0 || same < n*9/10 {
		t.Errorf("%d rules converted, %d skipped; keys agree on only %d of %d URLs", len(rs), skipped, same, n)
	}
}
