package learn

import "slices"

// Target selection by expressibility. The structural rank (targetRank) picks the target that
// is simplest to read, but a target is only worth learning towards if the cluster's other URLs
// can be rewritten into it by a rule that generalizes: each target value a key reference, a
// value conversion, or a literal that the site uses often. A target that holds a value no
// other URL of its cluster has and the site rarely uses (the segment "item.php[id]123[ref]x"
// beside item.php?id=123) can only be written as that literal, and the rule learned towards it
// never applies to another cluster; the reverse pair, whose values all come from the source's
// tokens and deep tokens, can. So when some URL of a cluster reaches the best-ranked one only
// through a rare literal, the target is the best-ranked URL that every other URL reaches
// without one, if there is such a URL.

// minLiteralClusters is the number of a site's clusters a value must occur in for a literal of
// it to count as expressible: a value of one or two clusters is an id or a title.
const minLiteralClusters = 3

// maxTargetCandidates and maxCostSources bound the work of choosing a target: the best-ranked
// URLs tried as targets, and the URLs each is checked against.
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
// best-ranked of its first maxTargetCandidates URLs that no other reaches only through a rare
// literal; the others keep their order. It leaves ms alone when the first URL is such a URL,
// or none is: a target that some URLs reach only through rare literals is no better than
// another, and moving it would only trade the structural rank away (story.php?id=N beside a
// permalink whose id no deep token isolates).
func expressibleFirst(ms []*member, common map[string]int) {
	if !needsRare(ms, ms[0], common) {
		return
	}
	for i := 1; i < min(len(ms), maxTargetCandidates); i++ {
		if !needsRare(ms, ms[i], common) {
			m := ms[i]
			copy(ms[1:i+1], slices.Clone(ms[:i]))
			ms[0] = m
			return
		}
	}
}

// needsRare reports whether some of the first maxCostSources members of ms other than t
// reach t only through a rare literal.
func needsRare(ms []*member, t *member, common map[string]int) bool {
	for i, s := range ms {
		if i >= maxCostSources {
			break
		}
		if s == t || s.prep == t.prep {
			continue
		}
		if e := derive(&s.p, &t.p); rareLiteral(&e, common) {
			return true
		}
	}
	return false
}
