package learn

import (
	"bytes"
	"encoding/gob"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLearnSiteAssemble checks that Assemble of the LearnSite results of every site, given in
// any order and after a round trip through encoding/gob (what a distributed pipeline does to
// them), writes the rules file of Learn byte for byte, with the same Stats.
func TestLearnSiteAssemble(t *testing.T) {
	cls := loadSample(t)
	for _, opt := range []Options{
		{},                                 // the defaults
		{MinCoverage: 1, MinPrecision: -1}, // every rule
		{MinSites: 1},                      // widening on one site
		{NoDeepTokens: true},               // no patterns
	} {
		want, wantSt, err := Learn(cls, opt)
		if err != nil {
			t.Fatal(err)
		}
		var wantText bytes.Buffer
		want.WriteTo(&wantText)

		names, bySite := GroupSites(cls)
		var results []SiteResult
		for _, name := range names {
			var sc []Cluster
			for _, c := range bySite[name] {
				sc = append(sc, *c)
			}
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(LearnSite(name, sc, opt)); err != nil {
				t.Fatal(err)
			}
			var r SiteResult
			if err := gob.NewDecoder(&buf).Decode(&r); err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		}
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
		got, gotSt, err := Assemble(results, opt)
		if err != nil {
			t.Fatal(err)
		}
		var gotText bytes.Buffer
		got.WriteTo(&gotText)
		if diff := cmp.Diff(wantText.String(), gotText.String()); diff != "" {
			t.Errorf("%+v: Assemble mismatch (-Learn +Assemble):\n%s", opt, diff)
		}
		if wantSt != gotSt {
			t.Errorf("%+v: Stats: Learn %+v, Assemble %+v", opt, wantSt, gotSt)
		}
		if wantSt.Selected == 0 {
			t.Errorf("%+v: nothing selected: the comparison checks little", opt)
		}
	}
}

// TestAssembleErrors checks Assemble's errors.
func TestAssembleErrors(t *testing.T) {
	a := LearnSite("a", []Cluster{{ID: "a-1", Site: "a", URLs: []URL{{Raw: "http://a.example/x"}}}}, Options{})
	for _, tc := range []struct {
		in   []SiteResult
		want error
	}{
		{nil, ErrNoClusters},                   // nothing to assemble
		{[]SiteResult{a, a}, ErrDuplicateSite}, // one site twice
	} {
		if _, _, err := Assemble(tc.in, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("Assemble(%d results): %v, want %v", len(tc.in), err, tc.want)
		}
	}
	bad := a
	bad.Patterns = map[string]string{"a.example": "not a pattern line"}
	if _, _, err := Assemble([]SiteResult{bad}, Options{}); err == nil {
		t.Errorf("Assemble with bad patterns: no error")
	}
}
