package learn

import "slices"

// Target selection by expressibility. The structural rank (targetRank) picks the target that
// is simplest to read, but a target is only worth learning towards if the cluster's other URLs
// can be rewritten into it by a rule that generalizes: each target value a key reference, a
// value conversion, or a literal that the site uses often. A target that holds a value no
// other URL of its cluster has and the site rarely uses (the segment
// "software.php[item]123[SiteID]x" beside ?item=123) can only be written as that literal, and
// the rule learned towards it never applies to another cluster; the reverse pair, whose values
// all come from the source's tokens and deep tokens, can. So among a cluster's best-ranked URLs
// the target is the one that the fewest of the others reach only through a rare literal, the
// structural rank breaking ties.

// minLiteralClusters is the number of a site's clusters a value must occur in for a literal of
// it to count as expressible: a value of one or two clusters is an id or a title.
const minLiteralClusters = 3

// maxTargetCandidates and maxCostSources bound the work of choosing a target: the best-ranked
// URLs tried as targets, and the URLs each is measured against.
const (
	maxTargetCandidates = 8
	maxCostSources      = 16
)

// valueClusters counts, for every host, path segment and query value of the site's members,
// the number of clusters it occurs in (at most minLiteralClusters: only rarity matters).
func valueClusters(byCluster [][]*member) map[string]int {
	n := map[string]int{}
	for _, ms := range byCluster {
		seen := map[string]bool{}
		add := func(v string) {
			if !seen[v] {
				seen[v] = true
				if n[v] < minLiteralClusters {
					n[v]++
				}
			}
		}
		for _, m := range ms {
			add(m.p.scheme)
			add(m.p.host)
			for _, s := range m.p.path {
				add(s)
			}
			for _, q := range m.p.query {
				add(q.Value)
			}
		}
	}
	return n
}

// rareLiteral reports whether t writes a non-empty literal that occurs in fewer than
// minLiteralClusters of the site's clusters.
func rareLiteral(t *edit, common map[string]int) bool {
	rare := func(o *vop) bool {
		return o != nil && o.Kind == opLiteral && !o.Bare && o.Lit != "" && common[o.Lit] < minLiteralClusters
	}
	if rare(t.Scheme) || rare(t.Host) {
		return true
	}
	for i := range t.Ins {
		if rare(&t.Ins[i]) {
			return true
		}
	}
	for i := range t.Query {
		if !t.Query[i].Delete && rare(&t.Query[i].vop) {
			return true
		}
	}
	return false
}

// expressibleFirst moves to the front of ms (sorted by targetRank, distinct URLs) the
// best-ranked of its first maxTargetCandidates URLs that the fewest of the others reach only
// through a rare literal; the others keep their order. It leaves ms alone when the first URL
// needs no rare literal from any other.
func expressibleFirst(ms []*member, common map[string]int) {
	cost := func(t *member) int {
		c := 0
		for i, s := range ms {
			if i >= maxCostSources {
				break
			}
			if s == t || s.prep == t.prep {
				continue
			}
			if e := derive(&s.p, &t.p); rareLiteral(&e, common) {
				c++
			}
		}
		return c
	}
	best, bestCost := 0, cost(ms[0])
	for i := 1; i < min(len(ms), maxTargetCandidates) && bestCost > 0; i++ {
		if c := cost(ms[i]); c < bestCost {
			best, bestCost = i, c
		}
	}
	if best > 0 {
		m := ms[best]
		copy(ms[1:best+1], slices.Clone(ms[:best]))
		ms[0] = m
	}
}
