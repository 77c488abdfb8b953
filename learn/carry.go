package learn

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
)

// Carrying rules across relearns. A relearn learns a site's rules anew from its evidence, and
// the decision tree that gives each rule its context may cut the evidence differently as it
// grows: a rule published by one relearn (delete s= from the listing pages) can be missing
// from the next, whose tree split those pages on another key and found too few URLs in each
// part, and come back a relearn or two later. In between, every URL it would have merged is
// fetched again: on the frontier example's simulated site, about a fifth of the duplicates
// that an online crawl fetches before its final rules merge them (seed 1).
//
// So a relearn keeps, beside the rules it learned, each rule of the site's published set that
// it dropped and that the crawl's own checks back: at least one check confirmed it and none
// failed it, it is not retracted, and it merges no two pages of the new evidence (rules.Set
// Evaluate: no training URL rewritten onto a URL of another page). A carried rule is checked
// like any other (its counter is kept by content) and dropped at the first relearn after a
// check fails it or the evidence contradicts it. The carried rules are the site's; Set, the
// rules to save for the next crawl, is what the evidence alone gives (see Set).

// carryCandidates returns the rules of the site's published set (its last relearn's rules and
// those carried before) that set does not have and whose checks back them. s.mu is held.
func (s *onlineSite) carryCandidates(set *rules.Set) []rules.Rule {
	if ablate.NoCarry || s.base == nil {
		return nil
	}
	have := make(map[string]bool, set.Len())
	for i := range set.Len() {
		have[contentKey(set.Rule(i))] = true
	}
	var out []rules.Rule
	for i := range s.base.Len() {
		r := s.base.Rule(i)
		k := contentKey(r)
		c := s.counters[k]
		if have[k] || s.retracted[k] || c == nil || c.fails.Load() > 0 || c.confirmed.Load() == 0 {
			continue
		}
		have[k] = true
		out = append(out, r)
	}
	return out
}

// holding returns the rules of cands that merge no two clusters of cls, each measured on its
// own (rules.Set.Evaluate): O(n log n + m) for the n URLs of cls and the m matches of the
// rules.
func holding(cands []rules.Rule, cls []Cluster, opts *rules.Options) []rules.Rule {
	if len(cands) == 0 {
		return nil
	}
	set, err := rules.NewSet(cands, opts)
	if err != nil {
		return nil // rules of valid sets are valid
	}
	var urls []rules.Labeled
	for _, c := range cls {
		for _, u := range c.URLs {
			urls = append(urls, rules.Labeled{Cluster: c.ID, URL: u.Raw})
		}
	}
	m := set.Evaluate(urls)
	var out []rules.Rule
	for i, rm := range m.Rules {
		if rm.False == 0 {
			out = append(out, set.Rule(i))
		}
	}
	return out
}

// withCarried returns set with the rules carried added, nil set if there are none. A carried
// rule retracted since holding measured it is left out. s.mu is held.
func (s *onlineSite) withCarried(set *rules.Set, carried []rules.Rule) (*rules.Set, []rules.Rule) {
	var keep []rules.Rule
	for _, r := range carried {
		if !s.retracted[contentKey(r)] {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		return set, nil
	}
	all := make([]rules.Rule, 0, set.Len()+len(keep))
	for i := range set.Len() {
		all = append(all, set.Rule(i))
	}
	all = append(all, keep...)
	ns, err := rules.NewSet(all, set.Options())
	if err != nil {
		return set, nil
	}
	return ns, keep
}
