package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/simsite"
)

// simsiteURLs returns every URL through which a simulated site (package simsite) links its
// pages, with the page as truth, in a fixed random order.
func simsiteURLs(t *testing.T, n int, seed uint64) []truthURL {
	s, err := simsite.New(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	var us []truthURL
	for i, p := range s.Pages() {
		for _, u := range s.Links(p) {
			us = append(us, truthURL{u, uint64(i + 1)})
		}
	}
	rand.New(rand.NewPCG(seed, 3)).Shuffle(len(us), func(i, j int) { us[i], us[j] = us[j], us[i] })
	return us
}

// TestCarry checks that a relearn keeps the rules of the set published before it that checks
// confirmed and none failed, unless they merge two pages of the evidence: a relearn whose tree
// cuts the evidence otherwise must not drop a rule the crawl had checked, to learn it again
// later. The site's rules flicker so (a rule published, dropped by the next relearn, learned
// again) without the mechanism.
func TestCarry(t *testing.T) {
	for _, off := range []bool{false, true} {
		ablate.NoCarry = off
		carried, dropped := carryReplay(t)
		ablate.NoCarry = false
		switch {
		case !off && (dropped > 0 || carried == 0):
			t.Errorf("a relearn dropped %d rules that checks backed and carried %d; want none dropped, some carried", dropped, carried)
		case off && dropped == 0:
			t.Errorf("with ablate.NoCarry, no relearn dropped a rule that checks backed: the replay does not exercise carrying")
		}
	}
}

// carryReplay replays a simulated site's URLs through an Online learner and counts, over its
// relearns, the rules it carried and the rules backed by checks (see backed; not retracted,
// merging no two pages of the evidence) that a relearn dropped.
func carryReplay(t *testing.T) (carried, lost int) {
	t.Helper()
	o := NewOnline(OnlineOptions{})
	r := newReplayer(o)
	const site = "dustshop.example"
	relearns := int64(0)
	var prev *siteVersion
	for _, u := range simsiteURLs(t, 120, 2) {
		r.step(u)
		st := o.Stats()
		s := o.site(simsite.Host, false)
		if s == nil || st.Relearns == relearns {
			continue
		}
		relearns = st.Relearns
		cur := s.cur.Load()
		s.mu.Lock()
		if prev != nil && cur != nil {
			have := map[string]bool{}
			for i := range cur.set.Len() {
				have[contentKey(cur.set.Rule(i))] = true
			}
			var cls []Cluster
			for _, fp := range s.order {
				cls = append(cls, *s.clusters[fp])
			}
			var dropped []int
			for i := range prev.set.Len() {
				r := prev.set.Rule(i)
				k := contentKey(r)
				if !have[k] && !s.retracted[k] && backed(r, s.counters[k]) {
					dropped = append(dropped, i)
				}
			}
			for _, i := range dropped {
				if len(holding([]rules.Rule{prev.set.Rule(i)}, cls, prev.set.Options())) > 0 {
					lost++
				}
			}
			carried += len(s.carried)
		}
		s.mu.Unlock()
		prev = cur
	}
	if o.SiteSet(site) == nil {
		t.Fatalf("no rules learned for %s", site)
	}
	return carried, lost
}
