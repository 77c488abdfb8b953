package learn

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// rowSet holds a site's pairwise rules as rows: the source's value id per attribute (0 =
// absent) and the class (transformation) id.
type rowSet struct {
	attrs   []urlnorm.Key
	vals    [][]int32
	class   []int32
	cluster []int32 // the cluster of each row's source
	valStr  []string
}

// keyOrder ranks the attributes by gain ratio with respect to the classes over all rows
// (Koppula et al. Algorithm 5, lines 3-4: the key with the largest information gain is chosen
// first; Quinlan's gain ratio keeps keys with many values from winning on their diversity
// alone). Ties keep the attribute order, so the ranking is deterministic.
func keyOrder(rs *rowSet) []int32 {
	n := len(rs.class)
	order := make([]int32, len(rs.attrs))
	score := make([]float64, len(rs.attrs))
	classHist := map[int32]int{}
	for _, c := range rs.class {
		classHist[c]++
	}
	// Floating-point sums depend on their order: every sum below runs over sorted keys, so that
	// equal scores stay equal from run to run and the ranking is deterministic.
	h0 := 0.0
	for _, c := range slices.Sorted(maps.Keys(classHist)) {
		p := float64(classHist[c]) / float64(n)
		h0 -= p * math.Log2(p)
	}
	type vc struct{ v, c int32 }
	for a := range rs.attrs {
		order[a] = int32(a)
		joint := map[vc]int{}
		valHist := map[int32]int{}
		for r := range n {
			v := rs.vals[r][a]
			joint[vc{v, rs.class[r]}]++
			valHist[v]++
		}
		hcond, split := 0.0, 0.0
		for _, v := range slices.Sorted(maps.Keys(valHist)) {
			p := float64(valHist[v]) / float64(n)
			split -= p * math.Log2(p)
		}
		jk := slices.SortedFunc(maps.Keys(joint), func(a, b vc) int {
			if a.v != b.v {
				return cmp.Compare(a.v, b.v)
			}
			return cmp.Compare(a.c, b.c)
		})
		for _, x := range jk {
			pj := float64(joint[x]) / float64(n)
			pv := float64(valHist[x.v]) / float64(n)
			hcond -= pj * math.Log2(pj/pv)
		}
		if split > 0 {
			score[a] = (h0 - hcond) / split
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return 0
	})
	return order
}

// generalize turns the rows of one class into generalized contexts (Koppula et al. Algorithm 5,
// lines 5-18): keys are taken in the order of keyOrder; at each node, a value held by a strict
// majority of the node's rows becomes a branch c(k) = v (or "k absent"), and the other rows are
// reconsidered on the same key; when no value holds a majority, the key is wildcarded: c(k) = *
// if every row has it, no condition if some lack it. A query parameter whose value e copies
// into the target (the head of s=grace@example.org) is wildcarded as soon as its rows have
// two values: a branch on the value of most of them would make the copy a literal of that
// value, and the rule for every other value would wait for rows of its own. Branches with
// fewer than minSupport rows are dropped, and so are the rules they would give. Each path from
// the root is a context.
func generalize(rs *rowSet, order []int32, rows []int32, minSupport int, e *edit) [][]cond {
	var out [][]cond
	var rec func(rows []int32, ki int, path []cond)
	rec = func(rows []int32, ki int, path []cond) {
		if len(rows) < minSupport {
			return
		}
		if ki == len(order) {
			out = append(out, slices.Clone(path))
			return
		}
		a := order[ki]
		k := rs.attrs[a]
		// A deep token never branches: it is wildcarded (or left out) like a key without a
		// majority. Branching on deep-token values fragments a class into branches too small to
		// keep (measured: eBay-style and [id] segments lost rules); deep tokens serve as
		// references and as the anchors' presence.
		deep := k.Sub != 0 || k.RSub != 0
		read := e != nil && k.Part == urlnorm.PartQuery && e.reads(k.Name) && !ablate.NoReadBranches
		rest := rows
		for len(rest) >= minSupport {
			cnt := map[int32]int{}
			best, bestN := int32(0), -1
			for _, r := range rest {
				v := rs.vals[r][a]
				cnt[v]++
			}
			for v, c := range cnt {
				if c > bestN || c == bestN && v < best {
					best, bestN = v, c
				}
			}
			if bestN == len(rest) && best == 0 && len(rest) == len(rows) {
				// No row of the node has the key: it says nothing about this class.
				rec(rest, ki+1, path)
				return
			}
			if 2*bestN <= len(rest) || deep || read && bestN < len(rest) {
				// No majority: wildcard.
				present := cnt[0] == 0
				if present {
					rec(rest, ki+1, append(slices.Clip(path), cond{Key: k, Kind: condAny}))
				} else {
					rec(rest, ki+1, path)
				}
				return
			}
			var in, out []int32
			for _, r := range rest {
				if rs.vals[r][a] == best {
					in = append(in, r)
				} else {
					out = append(out, r)
				}
			}
			c := cond{Key: k, Kind: condEq, Value: rs.valStr[best]}
			if best == 0 {
				c = cond{Key: k, Kind: condAbsent}
			}
			rec(in, ki+1, append(slices.Clip(path), c))
			rest = out
		}
	}
	rec(rows, 0, nil)
	for _, c := range out {
		slices.SortFunc(c, func(a, b cond) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	}
	return out
}

// mergedContext returns the context that the contexts of one class share, when generalization
// split the class's rows into several (nil when it did not, or when they differ on the page
// type): a key with one condition in every context keeps it; a key present in every context
// with different values (a value in one, another or the wildcard in the next) becomes the
// wildcard; any other key is left out. The contexts must agree on scheme, host and every path
// condition, one of which at least fixes a literal (a page type: /timeline, /print/): the
// merged rule stays on the page type that each of them names, and only the query's
// conditions widen. Contexts of query conditions alone are left as they are: their merger
// would stand for every page of the site, and, widened, of every site (measured: "delete
// view whatever its value", from two values on one site, merged print views with articles on
// another where one print view in five is another page). Generalization branches on a value held by a majority of a node's
// rows, then on the rest, so the rows of a class seen on a few pages of several forms
// (timeline?r=trunk&advm=0, timeline?u=ada&advm=0, timeline?advm=1) make several contexts, each
// covering too few URLs to pass selection, where the class is one rule; the merged context is
// measured and selected like any other (C4.5's pruning of a subtree whose leaves agree).
func mergedContext(ctxs [][]cond) []cond {
	if len(ctxs) < 2 || ablate.NoMergedContexts {
		return nil
	}
	type entry struct {
		c     cond
		n     int
		diff  bool
		first int
	}
	byKey := map[urlnorm.Key]*entry{}
	var keys []urlnorm.Key
	for i, ctx := range ctxs {
		for _, c := range ctx {
			e := byKey[c.Key]
			if e == nil {
				byKey[c.Key] = &entry{c: c, n: 1, first: i}
				keys = append(keys, c.Key)
				continue
			}
			if e.first == i {
				continue // a key twice in one context: not made by generalize
			}
			e.n++
			if e.c != c {
				e.diff = true
			}
		}
	}
	var out []cond
	typed := false
	for _, k := range keys {
		e := byKey[k]
		if k.Part != urlnorm.PartQuery {
			if e.n < len(ctxs) || e.diff {
				return nil // another page type, or not fixed in every context
			}
			out = append(out, e.c)
			typed = typed || k.Part == urlnorm.PartPath && e.c.Kind == condEq
			continue
		}
		switch {
		case e.n < len(ctxs):
			// Absent from some context: said nothing there.
		case !e.diff:
			out = append(out, e.c)
		case e.c.Kind != condAbsent && !anyAbsent(ctxs, k):
			out = append(out, cond{Key: k, Kind: condAny})
		}
	}
	if !typed {
		return nil // no page type: a merged context would stand for the whole site
	}
	for _, ctx := range ctxs {
		if len(ctx) == len(out) {
			same := true
			for i := range ctx {
				if ctx[i] != out[i] {
					same = false
					break
				}
			}
			if same {
				return nil
			}
		}
	}
	slices.SortFunc(out, func(a, b cond) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	return out
}

// anyAbsent reports whether some context of ctxs requires k absent.
func anyAbsent(ctxs [][]cond, k urlnorm.Key) bool {
	for _, ctx := range ctxs {
		for _, c := range ctx {
			if c.Key == k && c.Kind == condAbsent {
				return true
			}
		}
	}
	return false
}
