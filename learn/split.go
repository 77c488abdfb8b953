package learn

import (
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// Splitting a generalized rule that merges different pages on the key whose value tells them
// apart. Generalization (Algorithm 5) wildcards a key when no value holds a strict majority of
// a node's pairwise rules. When the key's value decides whether another key matters (a wiki's
// do=recent&id=X is one page for every X, do=login&id=X too, while do=show&id=X are as many
// pages as ids), the pairs that delete id are split evenly between recent and login, the key do
// is wildcarded, and the rule "if do=* id=* then delete id" merges the show pages and is
// rightly not selected. Such a rule is split on the key that separates its good uses from its
// false merges: one rule per value of the key that at least Options.MinSupport of its pairwise
// rules have, "if do=recent id=* then delete id", kept if it passes the selection by coverage
// and precision on its own.

// splitRules adds to s.rules the splits of its rules that merge different pages: for every rule
// made by generalization (class > 0) that covers at least opt.MinCoverage training URLs, makes
// false merges and is not selected, the key of its class's rows (a whole token, not a deep one)
// whose values cut its coverage into the most coverage of rules that are selected; those rules,
// one per value with at least opt.MinSupport rows, are added, measured. order is the keys' rank
// (keyOrder), which breaks ties. s.rules must be measured; the new rules are not in the order
// of precedence (call s.order).
func (s *site) splitRules(pw *pairwiseRules, sp *support, byClass [][]int32, order []int32, all []*member, ident map[string]int32, opt Options, st *Stats) {
	rs := pw.rs
	rank := make([]int, len(rs.attrs))
	for i, a := range order {
		rank[a] = i
	}
	attrOf := sp.attrOf
	type use struct {
		m       *member
		out     string
		bad     bool // the output is a training URL of another cluster
		own     bool // the output is a training URL of its own cluster
		blocked bool // a parameter deleted identifies the pages of the URL's type
	}
	n := len(s.rules)
	for i := range n {
		r := &s.rules[i]
		if r.class == 0 || r.False == 0 && r.blocked == 0 || r.Coverage < opt.MinCoverage || r.selected(opt.MinPrecision, opt.MinCoverage, true) {
			continue
		}
		// The rule's uses on the training URLs, as measured.
		var uses []use
		for _, m := range all {
			out, ok := r.use(m)
			if !ok {
				continue
			}
			c, ok := ident[out]
			uses = append(uses, use{m, out, ok && c != m.cluster, ok && c == m.cluster, blocked(pw.roles, r, m, out)})
		}
		// The class's rows that the rule's context holds in.
		var rows []int32
		for _, row := range byClass[r.class-1] {
			if rowHolds(rs, attrOf, r.Context, row) {
				rows = append(rows, row)
			}
		}
		var best []splitPart
		bestKey, bestScore := int32(-1), 0
		for a, k := range rs.attrs {
			if k.Sub != 0 || k.RSub != 0 || slices.ContainsFunc(r.Context, func(c cond) bool { return c.Key == k && c.Kind != condAny }) {
				continue
			}
			cnt := map[int32]int{}
			for _, row := range rows {
				cnt[rs.vals[row][a]]++
			}
			var parts []splitPart
			entities := r.blocked > 0 && len(cnt) > maxBlockedSplitValues && !ablate.NoEntitySplits
			for v, c := range cnt {
				switch {
				case c < opt.MinSupport:
				case v != 0 && entities:
				case v != 0:
					parts = append(parts, splitPart{c: cond{Key: k, Kind: condEq, Value: rs.valStr[v]}})
				case !ablate.NoAbsentSplits && slices.ContainsFunc(uses, func(u use) bool { _, ok := u.m.p.lookup(k); return ok }):
					// The key's absence, where some uses have it (a listing's root, without
					// the f= of its subdirectories).
					parts = append(parts, splitPart{c: cond{Key: k, Kind: condAbsent}})
				}
			}
			if len(parts) == 0 {
				continue
			}
			// Measure each part as selection measures a rule: its uses, and those that meet a
			// training URL of another cluster, or the output of a use of another cluster.
			score := 0
			for pi := range parts {
				p := &parts[pi]
				first := map[string]int32{}
				last := int32(-1)
				for _, u := range uses {
					if !holds([]cond{p.c}, &u.m.p) {
						continue
					}
					p.cov++
					if u.m.cluster != last && !opt.online && !ablate.NoClusterSupport {
						last = u.m.cluster // uses are by cluster, as the site's URLs are
						p.clusters++
					}
					bad, supported := u.bad, u.own
					if c, ok := first[u.out]; ok && c != u.m.cluster {
						bad = true
					} else if ok {
						supported = true
					} else {
						first[u.out] = u.m.cluster
					}
					if bad {
						p.bad++
					}
					if bad || !supported {
						p.unsupported++
					}
					if u.blocked {
						p.blocked++
					}
				}
				sub := p.rule()
				sub.Context, sub.edit = splitContext(r.Context, p.c), r.edit
				p.thin = sp.thin(&sub, rows)
				sub.thin = p.thin
				if sub.selected(opt.MinPrecision, opt.MinCoverage, true) {
					score += p.cov
				}
			}
			if score > bestScore || score == bestScore && score > 0 && rank[a] < rank[bestKey] {
				best, bestKey, bestScore = parts, int32(a), score
			}
		}
		if bestKey < 0 {
			continue
		}
		slices.SortFunc(best, func(a, b splitPart) int { return strings.Compare(a.c.String(), b.c.String()) })
		for _, p := range best {
			if sub := p.rule(); !sub.selected(opt.MinPrecision, opt.MinCoverage, true) {
				continue
			}
			s.rules = append(s.rules, lrule{Site: r.Site, Context: splitContext(r.Context, p.c), edit: r.edit, Coverage: p.cov, False: p.bad, class: r.class, clusters: p.clusters, merged: r.merged})
			st.Splits++
		}
	}
}

// maxBlockedSplitValues is the most values a key may take on the rows of a rule that deletes a
// parameter identifying the pages of some of its uses (see blocked) for the rule to be split on
// them: a split on the values of a key of page kinds (a=blob, a=tree; do=recent) carves out the
// kinds where the parameter does not matter, while a split on a key of many values (a file's
// path) gives a rule per entity for the entities whose few training URLs do not show the
// parameter to matter yet, where on the others it does. Its absence is a kind.
const maxBlockedSplitValues = 12

// A splitPart is one rule of a split: the value (or the absence) of the key it is split on,
// and its uses on the training URLs: all of them, those that merge different pages, those
// that delete a parameter identifying pages of their type, and those that meet no URL of their
// own cluster (neither a training URL nor the output of another use).
type splitPart struct {
	c                 cond
	cov, bad, blocked int
	unsupported       int
	clusters          int // clusters of its uses (see lrule.Estimate)
	thin              bool
}

// rule returns the measures of p as a rule, for selection. A split on a key's absence makes a
// rule that holds wherever the key is missing, on URLs unlike its pairs: a use is counted
// good only if it meets a URL of its own cluster, not merely none of another (a rule cutting
// the path of /timeline?c=7 to /?c=7 merges nothing on the training URLs, and nothing shows
// it right).
func (p *splitPart) rule() lrule {
	r := lrule{Coverage: p.cov, False: p.bad, blocked: p.blocked, thin: p.thin, clusters: p.clusters}
	if p.c.Kind == condAbsent && !ablate.NoAbsentSupport {
		r.False = p.unsupported
	}
	return r
}

// splitContext returns ctx with c in place of any condition on c's key, sorted by key.
func splitContext(ctx []cond, c cond) []cond {
	out := slices.DeleteFunc(slices.Clone(ctx), func(d cond) bool { return d.Key == c.Key })
	out = append(out, c)
	slices.SortFunc(out, func(a, b cond) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	return out
}

// rowHolds reports whether every condition of ctx holds in pairwise rule row of rs. A
// condition on a key that no row has holds only if it asks for the key's absence.
func rowHolds(rs *rowSet, attrOf map[urlnorm.Key]int32, ctx []cond, row int32) bool {
	for _, c := range ctx {
		a, ok := attrOf[c.Key]
		v := int32(0)
		if ok {
			v = rs.vals[row][a]
		}
		switch c.Kind {
		case condEq:
			if v == 0 || rs.valStr[v] != c.Value {
				return false
			}
		case condAny:
			if v == 0 {
				return false
			}
		case condAbsent:
			if v != 0 {
				return false
			}
		}
	}
	return true
}
