package learn

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// suffixSite is a social site whose profile pages are linked as /u<i>/friends and with a
// random-looking suffix, /u<i>/friends-x<a>q<b>: one page for the first 8 users, from which the
// rule that cuts the suffix is learned, and for one user in 6 after that two pages (the
// suffixed URL a snapshot of the list), which nothing in the URLs tells apart.
func suffixSite() []visit {
	var vs []visit
	for i := range 200 {
		plain, suffixed := 2*i+1, 2*i+1
		if i >= 8 && i%6 == 1 {
			suffixed = 2*i + 2
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://p.example.org/u%d/friends", i), plain},
			visit{fmt.Sprintf("http://p.example.org/u%d/friends-x%dq%d", i, 7*i+100, 3*i+100), suffixed})
	}
	return vs
}

// TestVerifyRiskSuffix checks the prior risk of the other risky shape, a rule that cuts a
// random-looking suffix from a path segment: its first uses are checked, and it is retracted at
// its first wrong use. Sampled at the floor after its first use, as a rule of another shape, it
// loses a page for most wrong uses.
func TestVerifyRiskSuffix(t *testing.T) {
	got := crawl(NewOnline(OnlineOptions{}), suffixSite())
	if got.lost > 2 {
		t.Errorf("with the risk of its shape: %+v, want at most 2 pages lost", got)
	}
	turnOff(t, &ablate.NoShapeRisk)
	without := crawl(NewOnline(OnlineOptions{}), suffixSite())
	if without.lost < got.lost+10 {
		t.Errorf("without the risk of its shape: %+v; with it %+v: want 10 more pages lost without", without, got)
	}
	t.Logf("with the risk of its shape %+v, without %+v", got, without)
}
