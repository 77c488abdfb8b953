package align

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// koppula adapts package learn's decision-tree learner to SetLearner: learn.Learn returns the
// rules.Set that a crawler loads.
type koppula struct{ opt learn.Options }

func (k koppula) Learn(cls []learn.Cluster) (*rules.Set, learn.Stats, error) {
	return learn.Learn(cls, k.opt)
}

func readDataset(t testing.TB, dir, name string) []learn.Cluster {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := learn.ReadClusters(f, learn.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

// TestCompareDupclusters prints the side-by-side table of both learners and the static
// baselines on the unseen halves of train.tsv and dev.tsv when UNDUST_DUPCLUSTERS names the
// dupclusters directory; run it with -v.
func TestCompareDupclusters(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	names := []string{"train.tsv", "dev.tsv"}
	if n := os.Getenv("UNDUST_SET"); n != "" {
		names = []string{n}
	}
	for _, name := range names {
		cls := readDataset(t, dir, name)
		rows, err := Compare(cls, 1, []Contender{
			{"Koppula (learn, as rules.Set)", koppula{}},
			{"DUSTER (align)", &Learner{}},
		}, []learn.Baseline{
			{Name: "urlnorm Crawler key (static)", Normalizer: learn.PrepareNormalizer},
			{Name: "urlnorm Aggressive key (static)", Normalizer: urlnorm.New(urlnorm.Aggressive)},
		})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		WriteTable(&b, rows)
		t.Logf("%s, unseen half:\n%s", name, b.String())
		for _, r := range rows[2:] {
			t.Logf("%s stats: %+v", r.Method, r.Stats)
		}
		// The decision-tree learner's set measured on raw URLs directly (it keys them itself).
		train, test := learn.Split(cls, 1)
		m, _, err := learn.Learn(train, learn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mm := learn.Measure(test, m)
		t.Logf("%s: Koppula's learned rules.Set on raw URLs: %d rules, reduction %.4f, of max %.3f, pair precision %.4f, false-merge %.4f, false pairs %d",
			name, m.Len(), mm.Reduction, mm.OfMax, mm.PairPrecision, mm.FalseMergeRate, mm.FalsePairs)
	}
}
