package learn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvaluateDupclusters runs the paper's protocol on the dupclusters data sets when
// UNDUST_DUPCLUSTERS names their directory; run it with -v to see the tables.
func TestEvaluateDupclusters(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	for _, name := range []string{"dev.tsv", "train.tsv"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		cls, _, err := ReadClusters(f, ReaderOptions{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Evaluate(cls, 1, Options{}, []Baseline{{"prepare (static)", PrepareNormalizer}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: learn %v, stats %+v", name, rep.LearnTime, rep.Learn)
		var b strings.Builder
		WriteTable(&b, rep.Unseen)
		t.Logf("%s, unseen half:\n%s", name, b.String())
		b.Reset()
		WriteTable(&b, rep.Both)
		t.Logf("%s, both halves:\n%s", name, b.String())
	}
}
