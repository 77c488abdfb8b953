package learn

import (
	"errors"
	"os"
	"testing"

	"github.com/undust/undust/rules"
)

func readTestClusters(t *testing.T, name string) []Cluster {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := ReadClusters(f, ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

// TestAcyclic learns on a site where two learned rules undo each other on some training URLs
// and checks that the learned set rewrites no training URL round a cycle.
func TestAcyclic(t *testing.T) {
	cls := readTestClusters(t, "testdata/dev-h0014.tsv")
	set, st, err := Learn(cls, Options{})
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
