package learn

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
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
// it dropped and that the crawl's own checks back: two checks confirmed it and none failed it,
// it is not retracted, and it merges no two pages of the new evidence (no training URL
// rewritten onto a URL of another page, or onto the rewrite of one). Rules whose check says
// little beyond the page it saw are not carried: those of a risky shape (see riskyShape), with
// training errors, that rewrite a literal (view=print deleted: a print view may show a whole
// series, see rewritesLiteral) or that cut a last path segment (a directory index, a file name,
// a trailing slash); carried, they lost pages on the replays of the dupclusters dev.tsv and
// train.tsv and on the print views of the site families; and a rule needs two checks, not one
// (see carryChecks). A carried rule is checked like any other (its counter is kept by content)
// and dropped at the first relearn after a check fails it or the evidence contradicts it. The
// carried rules are the site's; Set, the rules to save for the next crawl, is what the evidence
// alone gives (see Set).

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
		if !have[k] && !s.retracted[k] && backed(r, s.counters[k]) {
			have[k] = true
			out = append(out, r)
		}
	}
	return out
}

// carryChecks is the number of checks that must have confirmed a rule for a relearn to carry
// it: one check of a rule that deletes a shop's facet may have been on the page type where the
// facet is redundant (on the shops of the site families, seed 1, file order, one check lost 12
// pages and two 1; the frontier example needs 2.24 fetches per page on seed 1 with two, 2.23
// with one, 2.31 with three).
const carryChecks = 2

// backed reports whether checks back r, whose use counter is c (nil for none): carryChecks
// confirmed it and none failed it, and r is of a shape that a check confirms beyond the page
// it saw: not of a risky shape, without training errors, cutting no last path segment.
func backed(r rules.Rule, c *ruleCounter) bool {
	if c == nil || c.fails.Load() > 0 || c.confirmed.Load() < carryChecks {
		return false
	}
	p := priorOf(r)
	return p.fails == 0 && !p.risky && !p.dir && !p.literal && !cutsLast(&r)
}

// holding returns the rules of cands that merge no two clusters of cls, each applied on its
// own to every URL of cls: none rewrites a URL onto the key of a URL of another cluster, or
// onto the rewrite of one. It takes O(r·n) normalizations for r rules and n URLs.
func holding(cands []rules.Rule, cls []Cluster, opts *rules.Options) []rules.Rule {
	if len(cands) == 0 {
		return nil
	}
	static, err := rules.NewSet(nil, opts)
	if err != nil {
		return nil
	}
	type keyed struct {
		key     string
		cluster int
	}
	var urls []keyed
	plain := map[string]int{} // key without rules -> its first cluster
	for ci, c := range cls {
		for _, u := range c.URLs {
			k, err := static.Normalize(u.Raw)
			if err != nil {
				continue
			}
			urls = append(urls, keyed{k, ci})
			if _, ok := plain[k]; !ok {
				plain[k] = ci
			}
		}
	}
	var out []rules.Rule
	for _, r := range cands {
		one, err := rules.NewSet([]rules.Rule{r}, opts)
		if err != nil {
			continue // rules of valid sets are valid
		}
		rewrites := map[string]int{} // a rewrite -> its first cluster
		ok := true
		for _, u := range urls {
			k, err := one.Normalize(u.key)
			if err != nil || k == u.key {
				continue
			}
			if c, seen := plain[k]; seen && c != u.cluster {
				ok = false
				break
			}
			if c, seen := rewrites[k]; seen && c != u.cluster {
				ok = false
				break
			} else if !seen {
				rewrites[k] = u.cluster
			}
		}
		if ok {
			out = append(out, r)
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

// cutsLast reports whether r deletes or empties a last path segment, whatever its value (a
// file or directory name, a trailing slash): a check confirms such a cut for the page it saw,
// and a directory's page and its index or its own directory-less URL may be different pages
// elsewhere on the site.
func cutsLast(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if a.Key.Part == urlnorm.PartPath && a.Key.RPos == 1 && a.Key.Pos == 0 && !a.Insert &&
			(a.Op == rules.Delete || a.Op == rules.Assign && a.Value == "") {
			return true
		}
	}
	return false
}
