package align

import (
	"os"
	"testing"

	"github.com/undust/undust/learn"
)

// readClusters reads the clusters of a file of learn's testdata.
func readClusters(t *testing.T, name string, opt learn.ReaderOptions) []learn.Cluster {
	t.Helper()
	f, err := os.Open("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := learn.ReadClusters(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	return cls
}
