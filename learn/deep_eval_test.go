package learn

import (
	"os"
	"strings"
	"testing"
)

// TestDeepTokenMechanisms learns on half 0 of dev.tsv with and without deep tokens, when
// UNDUST_DUPCLUSTERS is set, and logs the reduction (of max) and pair precision on the held-out
// clusters of the sites that use each mechanism deep tokens are for: eBay-style W0QQ segments,
// [id] delimiters, vBulletin showthread.php, and friends-<random id>; first on all held-out
// clusters of those sites, then on the clusters with a URL that shows the mechanism.
func TestDeepTokenMechanisms(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	cls := readDataset(t, dir, "dev.tsv")
	train, test := Split(cls, 1)
	marks := []string{"W0QQ", "[id]", "%5Bid%5D", "showthread.php", "friends-"}
	sitesOf := map[string]map[string]bool{}
	for _, c := range cls {
		for _, u := range c.URLs {
			for _, m := range marks {
				if strings.Contains(u.Raw, m) {
					if sitesOf[m] == nil {
						sitesOf[m] = map[string]bool{}
					}
					sitesOf[m][c.Site] = true
				}
			}
		}
	}
	for _, nd := range []bool{true, false} {
		set, _, err := Learn(train, Options{NoDeepTokens: nd})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range marks {
			var sub []Cluster
			for _, c := range test {
				if sitesOf[m][c.Site] {
					sub = append(sub, c)
				}
			}
			if len(sub) == 0 {
				continue
			}
			// only the clusters with a URL that has the mark
			var only []Cluster
			for _, c := range sub {
				for _, u := range c.URLs {
					if strings.Contains(u.Raw, m) {
						only = append(only, c)
						break
					}
				}
			}
			a := Measure(sub, set)
			b := Measure(only, set)
			t.Logf("deep tokens %-5v %-15s %d sites: %4d clusters of max %.3f pair prec. %.4f (%d false) | %4d with the mark: of max %.3f pair prec. %.4f (%d false)",
				!nd, m, len(sitesOf[m]), len(sub), a.OfMax, a.PairPrecision, a.FalsePairs, len(only), b.OfMax, b.PairPrecision, b.FalsePairs)
		}
	}
}
