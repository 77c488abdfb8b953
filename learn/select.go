package learn

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// member is a prepared URL of a cluster, with what target and source selection rank it by.
type member struct {
	prep       string
	p          parsed
	importance float64
	inlinks    int
	cluster    int32 // index of its cluster within the site
	origin     int   // the site's URLs with its scheme and host
}

// targetRank orders a cluster's URLs for being its normalized form (Koppula et al. §3.2.1,
// target selection): static before dynamic (fewer query parameters), fewer hops from the root
// (path segments), with Options.MainOrigin the origin (scheme and host) that more of the site's
// URLs have (member.origin, 0 without it), shorter, fewer uppercase letters, more in-links, then
// the string itself. The order is structural first on purpose: rules generalize only if
// similar clusters pick similar targets, and in-links differ from cluster to cluster where
// structure does not. The origin comes before the length for the same reason: a cluster that
// holds the site's main origin (https://www.example.com) and one alias of it (http://, the
// bare domain) would otherwise pick the shorter alias, and clusters that hold different aliases
// (as a crawl's clusters do, holding the variants it happened to fetch) would pick different
// targets for one kind of URL, and rules that send one page's URLs to several keys.
func targetRank(a, b *member) int {
	if c := structuralRank(a, b); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.prep), len(b.prep)); c != 0 {
		return c
	}
	if c := cmp.Compare(countUpper(a.prep), countUpper(b.prep)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.inlinks, a.inlinks); c != 0 {
		return c
	}
	return strings.Compare(a.prep, b.prep)
}

// structuralRank is the structural part of targetRank: fewer query parameters, then fewer path
// segments, then the origin with more of the site's URLs.
func structuralRank(a, b *member) int {
	if c := cmp.Compare(len(a.p.query), len(b.p.query)); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.p.path), len(b.p.path)); c != 0 {
		return c
	}
	return cmp.Compare(b.origin, a.origin)
}

func countUpper(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			n++
		}
	}
	return n
}

// selectSources picks at most max of the given members (the non-targets of a cluster) by
// stratified sampling (Koppula et al. §3.2.1, source selection): members are sorted by
// importance and cut into equal-size buckets, and each bucket gets a share of max proportional
// to its share of the total importance (largest remainders, ties to the more important bucket).
// When all importances are equal (a dup-cluster file gives every URL of a cluster the same one),
// the number of distinct tokens stands in for importance, as the paper suggests, so that URLs of
// various shapes are sampled. Within a bucket, members are taken evenly spaced. The result is
// in a deterministic order and never longer than max: pairs stay linear in cluster size
// (Lemma 2).
func selectSources(ms []*member, max int) []*member {
	if len(ms) <= max {
		return ms
	}
	weight := func(m *member) float64 { return m.importance }
	allEq := true
	for _, m := range ms[1:] {
		if m.importance != ms[0].importance {
			allEq = false
			break
		}
	}
	if allEq {
		weight = func(m *member) float64 { return float64(distinctTokens(&m.p)) }
	}
	sorted := slices.Clone(ms)
	slices.SortStableFunc(sorted, func(a, b *member) int {
		if c := cmp.Compare(weight(b), weight(a)); c != 0 {
			return c
		}
		return strings.Compare(a.prep, b.prep)
	})
	nb := min(max, 4)
	size := (len(sorted) + nb - 1) / nb
	var total float64
	for _, m := range sorted {
		total += weight(m)
	}
	type bucket struct {
		ms    []*member
		quota int
		rem   float64
	}
	bs := make([]bucket, 0, nb)
	left := max
	for i := 0; i < len(sorted); i += size {
		b := bucket{ms: sorted[i:min(i+size, len(sorted))]}
		var w float64
		for _, m := range b.ms {
			w += weight(m)
		}
		share := float64(max) / float64(nb)
		if total > 0 {
			share = float64(max) * w / total
		}
		b.quota = min(int(math.Floor(share)), len(b.ms))
		b.rem = share - float64(b.quota)
		left -= b.quota
		bs = append(bs, b)
	}
	for left > 0 {
		best := -1
		for i := range bs {
			if bs[i].quota < len(bs[i].ms) && (best < 0 || bs[i].rem > bs[best].rem) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		bs[best].quota++
		bs[best].rem = -1
		left--
	}
	out := make([]*member, 0, max)
	for _, b := range bs {
		for j := range b.quota {
			out = append(out, b.ms[j*len(b.ms)/b.quota])
		}
	}
	return out
}

func distinctTokens(p *parsed) int {
	seen := make(map[string]struct{}, len(p.path)+len(p.query))
	for _, s := range p.path {
		seen[s] = struct{}{}
	}
	for _, q := range p.query {
		seen[q.Name+"="+q.Value] = struct{}{}
	}
	return len(seen)
}
