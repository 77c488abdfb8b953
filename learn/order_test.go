package learn

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// What is learned does not depend on the order of the clusters or of the URLs within them, so a
// Beam shuffle or a re-sorted crawl log gives the same rules file.
func TestOrderIndependent(t *testing.T) {
	// One site of dev.tsv whose rules changed with the input order before learnSite sorted its
	// clusters (sample.tsv is too small to show it).
	f, err := os.Open("testdata/dev-h0030.tsv")
	if err != nil {
		t.Fatal(err)
	}
	cls, _, err := ReadClusters(f, ReaderOptions{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := rulesText(t, cls)
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 3 {
		shuffled := slices.Clone(cls)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for i := range shuffled {
			u := slices.Clone(shuffled[i].URLs)
			r.Shuffle(len(u), func(a, b int) { u[a], u[b] = u[b], u[a] })
			shuffled[i].URLs = u
		}
		if got := rulesText(t, shuffled); !bytes.Equal(got, want) {
			t.Errorf("trial %d: shuffled clusters and URLs give a different rules file (%d bytes, want %d)", trial, len(got), len(want))
		}
	}
	// The caller's clusters are not reordered.
	before := slices.Clone(cls[0].URLs)
	rulesText(t, cls)
	if !slices.Equal(before, cls[0].URLs) {
		t.Error("Learn reordered the URLs of its input")
	}
}

func rulesText(t *testing.T, cls []Cluster) []byte {
	t.Helper()
	set, _, err := Learn(cls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := set.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
