package align

import (
	"os"
	"testing"

	"github.com/undust/undust/learn"
)

func TestDiag(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" || os.Getenv("DIAG") == "" {
		t.Skip()
	}
	cls := readDataset(t, dir, os.Getenv("UNDUST_SET"))
	train, test := learn.Split(cls, 1)
	ks, _, _ := koppula{}.Learn(train)
	as, _, _ := (&Learner{}).Learn(train)
	kn, an := learn.SetNormalizer(ks), learn.SetNormalizer(as)
	n := 0
	bySite := map[string]int{}
	for _, c := range test {
		if len(c.URLs) < 2 {
			continue
		}
		kk, ak := map[string]bool{}, map[string]bool{}
		for _, u := range c.URLs {
			a, _ := kn.Normalize(u.Raw)
			b, _ := an.Normalize(u.Raw)
			kk[a], ak[b] = true, true
		}
		bySite[c.Site] += len(ak) - len(kk)
		if len(kk) < len(ak) && n < 400 && bySite[c.Site] < 12 {
			n++
			for _, u := range c.URLs {
				a, _ := kn.Normalize(u.Raw)
				b, _ := an.Normalize(u.Raw)
				t.Logf("%s %s -> %s | K %s", c.ID, u.Raw, b, a)
			}
		}
	}
	t.Log(bySite)
}
