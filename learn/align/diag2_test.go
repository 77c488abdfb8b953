package align

import (
	"os"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
)

func TestDiag2(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	site := os.Getenv("DIAG2")
	if dir == "" || site == "" {
		t.Skip()
	}
	cls := readDataset(t, dir, os.Getenv("UNDUST_SET"))
	train, _ := learn.Split(cls, 1)
	var mine []*learn.Cluster
	for i := range train {
		if train[i].Site == site {
			mine = append(mine, &train[i])
		}
	}
	opt := Options{}.withDefaults()
	debugValidate = func(c *candidate, supp, fp int64, cov int) {
		if strings.Contains(c.text, os.Getenv("DIAG2_GREP")) {
			t.Logf("supp=%d fp=%d cov=%d clusters=%d %s", supp, fp, cov, c.clusters, c.text)
		}
	}
	defer func() { debugValidate = nil }()
	learnSite(mine, opt)
}
