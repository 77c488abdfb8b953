package align

import (
	"bytes"
	"testing"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

// TestFileRoundTrip learns on the sample clusters, writes the set as a rules file, loads it and
// checks that the loaded set gives every training URL the key that the learned set gives it in
// memory: the file must carry the key form (its "key" line) the rules were learned on.
func TestFileRoundTrip(t *testing.T) {
	cls := readClusters(t, "sample.tsv", learn.ReaderOptions{})
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() == 0 {
		t.Fatal("no rules learned: the test checks nothing")
	}
	var buf bytes.Buffer
	if _, err := set.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	loaded, err := rules.Load(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	mem := learn.SetNormalizer(set)
	changed := 0
	for _, c := range cls {
		for _, u := range c.URLs {
			want, werr := mem.Normalize(u.Raw)
			got, gerr := loaded.Normalize(u.Raw)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Errorf("loaded Normalize(%q) = %q, %v; in memory %q, %v", u.Raw, got, gerr, want, werr)
			}
			if p, _ := learn.Prepare(u.Raw); want != p {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("no training URL rewritten: the test checks nothing")
	}
}
