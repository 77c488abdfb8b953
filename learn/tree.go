package learn

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// CondKind is the kind of a context condition.
type CondKind uint8

// Context conditions (the paper's c(k) = v, c(k) = *, and k absent).
const (
	CondEq     CondKind = iota + 1 // the key has this value
	CondAny                        // the key is present, with any value (the paper's wildcard)
	CondAbsent                     // the key is absent (⊥)
)

// A Cond is one condition of a rule's context.
type Cond struct {
	Key   urlnorm.Key // a path key gives Pos or RPos, not both
	Kind  CondKind
	Value string // for CondEq
}

func (c Cond) String() string {
	switch c.Kind {
	case CondEq:
		return c.Key.String() + "=" + strconv.Quote(c.Value)
	case CondAny:
		return c.Key.String() + "=*"
	}
	return c.Key.String() + "=!"
}

// attrKeys enumerates the keys of p that the decision tree may test: scheme, host, every path
// segment by position from the start and from the end, and every query parameter by name.
func attrKeys(p *parsed, fn func(k urlnorm.Key, v string)) {
	fn(urlnorm.Key{Part: urlnorm.PartScheme}, p.scheme)
	fn(urlnorm.Key{Part: urlnorm.PartHost}, p.host)
	n := len(p.path)
	for i, s := range p.path {
		fn(urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(i + 1)}, s)
		fn(urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(n - i)}, s)
	}
	for i, q := range p.query {
		if i > 0 && p.query[i-1].Name == q.Name {
			continue
		}
		fn(urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}, q.Value)
	}
}

// node is a node of a site's decision tree.
type node struct {
	attr     int32           // attribute tested, -1 at a leaf
	branches map[int32]*node // value id -> child; value 0 is "absent"
	other    *node           // values present but without a branch: the wildcard
	class    int32           // majority class of the rows that reached the node
	rule     int32           // index into site.rules of this leaf's rule, -1 if none
}

// siteTree is the decision tree of one site, with the interning tables its attributes and
// values need.
type siteTree struct {
	attrs   []urlnorm.Key
	attrIdx map[urlnorm.Key]int32
	vals    map[string]int32 // value ids start at 1; 0 is "absent"
	classes []Transform      // class 0 is the identity
	root    *node
}

type treeBuilder struct {
	t          *siteTree
	rowClass   []int32
	rowVals    [][]int32 // rows x attrs, dense
	minSupport int
	maxDepth   int
	leafRows   map[*node][]int32 // rows that reached each leaf
	pairs      []uint64          // scratch
	cnt        []int32           // scratch: per value id counts
}

// entropy of a class histogram given as counts with total n.
func entropy(counts []int, n int) float64 {
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	return h
}

// build grows the tree over rows (Koppula et al. Algorithm 5, lines 2-17): at each node the
// attribute (key) with the largest information gain is tested. A value gets a branch of its own
// when at least minSupport rows at the node share it; the rarer values share one wildcard branch
// (the paper's "*" when no value holds a majority), and "absent" always has its own branch.
// Information gain is computed over these branches, not over raw values, so that a key with a
// fresh value on every row (a product id, a session id) gains nothing from its raw diversity.
func (b *treeBuilder) build(rows []int32, used []bool, depth int) *node {
	n := &node{attr: -1, rule: -1}
	hist := map[int32]int{}
	for _, r := range rows {
		hist[b.rowClass[r]]++
	}
	best, bestN := int32(-1), -1
	for c, k := range hist {
		if k > bestN || k == bestN && c < best {
			best, bestN = c, k
		}
	}
	n.class = best
	if len(hist) == 1 || depth >= b.maxDepth || len(rows) < 2 {
		b.leafRows[n] = rows
		return n
	}
	counts := make([]int, 0, len(hist))
	for _, k := range hist {
		counts = append(counts, k)
	}
	h0 := entropy(counts, len(rows))

	bestAttr, bestGain := int32(-1), 1e-9
	for a := range b.t.attrs {
		if used[a] {
			continue
		}
		g, ok := b.gain(rows, int32(a), h0)
		if ok && g > bestGain {
			bestAttr, bestGain = int32(a), g
		}
	}
	if bestAttr < 0 {
		b.leafRows[n] = rows
		return n
	}
	n.attr = bestAttr
	b.countVals(rows, bestAttr)
	part := map[int32][]int32{}
	var other []int32
	for _, r := range rows {
		v := b.rowVals[r][bestAttr]
		if v != 0 && b.cnt[v] < int32(b.minSupport) {
			other = append(other, r)
		} else {
			part[v] = append(part[v], r)
		}
	}
	b.resetVals(rows, bestAttr)
	used[bestAttr] = true
	n.branches = make(map[int32]*node, len(part))
	keys := make([]int32, 0, len(part))
	for v := range part {
		keys = append(keys, v)
	}
	slices.Sort(keys)
	for _, v := range keys {
		n.branches[v] = b.build(part[v], used, depth+1)
	}
	if len(other) > 0 {
		n.other = b.build(other, used, depth+1)
	}
	used[bestAttr] = false
	return n
}

func (b *treeBuilder) countVals(rows []int32, a int32) {
	for _, r := range rows {
		b.cnt[b.rowVals[r][a]]++
	}
}

func (b *treeBuilder) resetVals(rows []int32, a int32) {
	for _, r := range rows {
		b.cnt[b.rowVals[r][a]] = 0
	}
}

// gain returns the information gain of splitting rows on attribute a into its branches, and
// false when the split would leave all rows in one branch.
func (b *treeBuilder) gain(rows []int32, a int32, h0 float64) (float64, bool) {
	b.countVals(rows, a)
	const otherBucket = math.MaxInt32
	pairs := b.pairs[:0]
	first, one := int64(-1), true
	for _, r := range rows {
		v := b.rowVals[r][a]
		bk := int64(v)
		if v != 0 && b.cnt[v] < int32(b.minSupport) {
			bk = otherBucket
		}
		if first < 0 {
			first = bk
		} else if bk != first {
			one = false
		}
		pairs = append(pairs, uint64(bk)<<32|uint64(uint32(b.rowClass[r])))
	}
	b.resetVals(rows, a)
	b.pairs = pairs
	if one {
		return 0, false
	}
	slices.Sort(pairs)
	var hsum float64
	var counts []int
	i := 0
	for i < len(pairs) {
		bk := pairs[i] >> 32
		counts = counts[:0]
		nb := 0
		for i < len(pairs) && pairs[i]>>32 == bk {
			j := i
			for j < len(pairs) && pairs[j] == pairs[i] {
				j++
			}
			counts = append(counts, j-i)
			nb += j - i
			i = j
		}
		hsum += float64(nb) / float64(len(rows)) * entropy(counts, nb)
	}
	return h0 - hsum, true
}

// walk returns the leaf that p reaches, or nil when p meets a value the tree has no branch for
// (an absent key where no "absent" branch grew): such URLs are left alone.
func (t *siteTree) walk(p *parsed) *node {
	n := t.root
	for n != nil && n.attr >= 0 {
		v, ok := p.lookup(t.attrs[n.attr])
		if !ok {
			n = n.branches[0]
			continue
		}
		if id, ok := t.vals[v]; ok {
			if c, ok := n.branches[id]; ok {
				n = c
				continue
			}
		}
		n = n.other
	}
	return n
}

// contextOf reads out a leaf's generalized context (Algorithm 5, line 18): the conditions on the
// path from the root, plus every attribute on which all rows of the leaf's class agree: the same
// value (c(k) = v), present with several values (c(k) = *), or absent where the path tested it.
func contextOf(t *siteTree, path []Cond, rowVals [][]int32, rows []int32, valStr []string) []Cond {
	conds := slices.Clone(path)
	onPath := map[urlnorm.Key]bool{}
	for _, c := range path {
		onPath[c.Key] = true
	}
	for a, k := range t.attrs {
		if onPath[k] {
			continue
		}
		v0 := rowVals[rows[0]][a]
		same, present := true, v0 != 0
		for _, r := range rows[1:] {
			v := rowVals[r][a]
			if v != v0 {
				same = false
			}
			if v == 0 {
				present = false
			}
		}
		switch {
		case same && v0 != 0:
			conds = append(conds, Cond{Key: k, Kind: CondEq, Value: valStr[v0]})
		case present && len(rows) > 1:
			conds = append(conds, Cond{Key: k, Kind: CondAny})
		}
	}
	slices.SortFunc(conds, func(a, b Cond) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	return conds
}

// holds reports whether p satisfies every condition.
func holds(conds []Cond, p *parsed) bool {
	for _, c := range conds {
		v, ok := p.lookup(c.Key)
		switch c.Kind {
		case CondEq:
			if !ok || v != c.Value {
				return false
			}
		case CondAny:
			if !ok {
				return false
			}
		case CondAbsent:
			if ok {
				return false
			}
		}
	}
	return true
}
