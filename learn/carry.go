package learn

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
)

// Rules a relearn drops by chance. A relearn learns a site's rules anew from its evidence, and
// the decision tree may split a context otherwise than the last relearn did, so that a rule
// the crawl has used and verified (the deletion of s= on listing pages) is missing from the
// new set until a later relearn learns it again, and the URLs it merged are fetched meanwhile.
// A rule is dropped for a reason when the evidence shows it wrong: it would give one key to two
// URLs the crawl fetched with different pages. A rule of the last set that checks have
// confirmed (carryConfirmed times, without a failure), that is not retracted anywhere, and that
// joins no two pages of the site's fetched URLs under the new set is carried into it. It keeps
// its counters (see ruleCounter), so its verification goes on where it stood; a failure
// retracts it as any rule's.

// carryConfirmed is how many confirmations (and no failure) a rule needs to be carried across
// a relearn that dropped it. On examples/frontier (seeds 1-12, pass 3 fetches per distinct
// page, 2.37 without carrying) 1 gives 2.21, 2 2.24, 3 2.23 and 5 2.22 with fewer
// verification fetches (74 a seed against 90 with 1 and 78 without carrying); on the site
// families of seed 1, 1 lost 5 pages of the docs family (0.098%) in one order of 5.
const carryConfirmed = 5

// carry returns set, a relearn's new rules of s, with the rules of s's last set that the
// relearn dropped by chance (see the comment above); set itself if there are none or with
// ablate.NoCarry. It costs a key per URL of the site's evidence when it carries any. s.mu must
// be held.
func (s *onlineSite) carry(set *rules.Set) *rules.Set {
	prev := s.base
	s.carried = nil
	if prev == nil || ablate.NoCarry {
		return set
	}
	have := map[string]bool{}
	all := make([]rules.Rule, 0, set.Len())
	for i := range set.Len() {
		r := set.Rule(i)
		have[contentKey(r)] = true
		all = append(all, r)
	}
	carried := map[string]bool{}
	for i := range prev.Len() {
		r := prev.Rule(i)
		c := contentKey(r)
		if have[c] || s.retracted[c] || len(s.outCtx[c]) > 0 {
			continue
		}
		if n := s.counters[c]; n == nil || n.confirmed.Load() < carryConfirmed || n.fails.Load() > 0 {
			continue
		}
		all = append(all, r)
		have[c] = true
		carried[c] = true
	}
	if len(carried) == 0 {
		return set
	}
	trial, err := rules.NewSet(all, set.Options())
	if err != nil {
		return set
	}
	v := &siteVersion{set: trial, prior: priors(trial), words: s.words}
	bad := map[string]bool{}
	type first struct {
		k  Key
		fp uint64
	}
	firsts := map[string]first{}
	for _, fp := range s.order {
		for _, u := range s.clusters[fp].URLs {
			if s.inferred[u.Raw] {
				continue
			}
			p, ok := Prepare(u.Raw)
			if !ok {
				continue
			}
			k, err := v.key(p)
			if err != nil {
				// A rewrite cycle or limit: the rules carried that took part go.
				_, used, _ := trial.NormalizeTrace(nil, p)
				for _, i := range used {
					if c := contentKey(trial.Rule(i)); carried[c] {
						bad[c] = true
					}
				}
				continue
			}
			f, ok := firsts[k.Key]
			if !ok {
				firsts[k.Key] = first{k, fp}
				continue
			}
			if f.fp == fp {
				continue
			}
			for _, r := range decisive(k, f.k) {
				if c := contentKey(trial.Rule(r.i)); carried[c] {
					bad[c] = true
				}
			}
		}
	}
	if len(bad) == len(carried) {
		return set
	}
	keep := all[:0]
	for _, r := range all {
		if c := contentKey(r); !bad[c] {
			keep = append(keep, r)
			if carried[c] {
				s.carried = append(s.carried, r)
			}
		}
	}
	if len(bad) == 0 {
		return trial
	}
	if trial, err = rules.NewSet(keep, set.Options()); err != nil {
		s.carried = nil
		return set
	}
	return trial
}

// withCarried returns set, a site's rules learned again from its last snapshot (see
// relearnSnapshot), with the rules that carry added to them at that relearn.
func (s *onlineSite) withCarried(set *rules.Set) *rules.Set {
	if len(s.carried) == 0 {
		return set
	}
	all := make([]rules.Rule, 0, set.Len()+len(s.carried))
	for i := range set.Len() {
		all = append(all, set.Rule(i))
	}
	out, err := rules.NewSet(append(all, s.carried...), set.Options())
	if err != nil {
		return set
	}
	return out
}
