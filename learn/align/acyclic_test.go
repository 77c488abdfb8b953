package align

import (
	"errors"
	"testing"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

// TestAcyclic learns on a site where two candidate rules undo each other (a trailing slash and
// index.php) and checks that the learned set rewrites no training URL round a cycle.
func TestAcyclic(t *testing.T) {
	cls := readClusters(t, "dev-h0023.tsv", learn.ReaderOptions{})
	set, st, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	if st.Cycles == 0 {
		t.Error("Stats.Cycles = 0: the fixture has a cycle to break")
	}
	for _, c := range cls {
		for _, u := range c.URLs {
			if _, err := set.Normalize(u.Raw); errors.Is(err, rules.ErrCycle) {
				t.Errorf("Normalize(%q): %v", u.Raw, err)
			}
		}
	}
}
