package deeptoken

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// Options holds the thresholds of anchor selection (WSDM'10 Algorithm 2) and the bounds of
// learning. The zero value of a field means its default; the zero Options is the defaults.
type Options struct {
	// MinCoverage is the share of a node's distinct tokens that a cluster of candidate anchors
	// must cover, and the share that the child patterns it makes must keep, for the cluster to
	// be selected. Default 0.3.
	MinCoverage float64
	// MaxUnique is the largest number of distinct anchors in a selected cluster. Default 16.
	MaxUnique int
	// MinSupport is the least number of distinct tokens of an anchor (rarer candidates of a
	// cluster are noise) and of a child pattern. Default 3.
	MinSupport int
	// MaxVariation bounds the frequency variance of a selected cluster's anchors, given as the
	// coefficient of variation (standard deviation / mean) of the anchors' token counts.
	// Default 1.
	MaxVariation float64
	// MaxChildren is the largest number of child patterns a refinement may make. Default 32.
	MaxChildren int
	// MaxDepth bounds the depth of a pattern tree (d_max of the paper's Lemma 1). Default 12,
	// at most 1000.
	MaxDepth int
	// MaxValues bounds the distinct values a Learner keeps per key; later new values are
	// ignored. Default 1<<17.
	MaxValues int
	// MaxSample bounds the distinct values per key that a tree is learned from: a key with
	// more is learned from an even sample of its sorted values (every k-th). Shares such as
	// coverage are estimated well from a few thousand values, and learning then costs
	// O(MaxSample·d) per key however many URLs a host has. Default 4096; a negative value
	// learns from all values.
	MaxSample int
	// MaxKeys bounds the keys (path positions and parameter names) a Learner keeps; tokens of
	// later new keys are ignored. Default 1024.
	MaxKeys int
}

func (o Options) withDefaults() Options {
	if o.MinCoverage <= 0 {
		o.MinCoverage = 0.3
	}
	if o.MaxUnique <= 0 {
		o.MaxUnique = 16
	}
	if o.MinSupport <= 0 {
		o.MinSupport = 3
	}
	if o.MaxVariation <= 0 {
		o.MaxVariation = 1
	}
	if o.MaxChildren <= 0 {
		o.MaxChildren = 32
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 12
	}
	o.MaxDepth = min(o.MaxDepth, maxParseDepth) // deeper trees would not parse back
	if o.MaxValues <= 0 {
		o.MaxValues = 1 << 17
	}
	if o.MaxSample == 0 {
		o.MaxSample = 4096
	}
	if o.MaxKeys <= 0 {
		o.MaxKeys = 1024
	}
	return o
}

// A Learner learns the deep-token patterns of one host from its URLs, streaming: feed it the
// tokens of every URL of the host with Add (or AddURL), then call Patterns.
//
// The zero value is not usable; use [NewLearner]. A Learner is not safe for concurrent use. It
// keeps a copy of every distinct path segment and query value it is given (up to
// Options.MaxValues per key), never the caller's slices.
type Learner struct {
	opts   Options
	values map[treeKey]map[string]struct{}
	cl     clusterer
}

// NewLearner returns a Learner with the given options (zero fields take their defaults).
func NewLearner(opts Options) *Learner {
	return &Learner{opts: opts.withDefaults(), values: make(map[treeKey]map[string]struct{})}
}

// Reset forgets every token added, keeping the options.
func (l *Learner) Reset() { clear(l.values) }

// Add adds the tokens of one URL of the host, as urlnorm.Tokenize returns them. Path segments
// and query values are learned from; other tokens, deep tokens and bare parameters are ignored.
func (l *Learner) Add(toks []urlnorm.Token) {
	for _, t := range toks {
		k, ok := keyOf(t.Key)
		if !ok || t.Bare || len(t.Value) < 2 {
			continue
		}
		vs := l.values[k]
		if vs == nil {
			if len(l.values) >= l.opts.MaxKeys {
				continue
			}
			k.name = strings.Clone(k.name)
			vs = make(map[string]struct{})
			l.values[k] = vs
		}
		if _, ok := vs[t.Value]; ok || len(vs) >= l.opts.MaxValues {
			continue
		}
		vs[strings.Clone(t.Value)] = struct{}{}
	}
}

// AddURL tokenizes the URL s with urlnorm.Tokenize and adds its tokens; s should be a
// normalizer's output. It returns Tokenize's error for a URL it cannot tokenize.
func (l *Learner) AddURL(s string) error {
	var buf [32]urlnorm.Token
	toks, err := urlnorm.Tokenize(buf[:0], s)
	if err != nil {
		return err
	}
	l.Add(toks)
	return nil
}

// Learn returns the patterns learned from the URLs of one host; URLs that urlnorm.Tokenize
// rejects are skipped. It is NewLearner(opts), AddURL for every URL, then Patterns.
func Learn(urls iter.Seq[string], opts Options) *Patterns {
	l := NewLearner(opts)
	for u := range urls {
		_ = l.AddURL(u) // a URL Tokenize rejects has nothing to learn from
	}
	return l.Patterns()
}

// Patterns runs the pattern-tree learning (WSDM'10 Algorithm 1, DeepTokenize, from the
// pattern "*") on the distinct values of every key and returns the learned patterns. Keys whose
// tree is the bare "*" (no anchor was selected) are left out. The result does not depend on the
// order in which tokens were added (unless a key reached Options.MaxValues, which keeps the
// first values). Patterns may be called again after more Adds; the result shares no memory with
// the Learner.
//
// It runs in time O(n·d) for n distinct values and trees of depth d (Lemma 1): every level of
// a tree looks at each value a bounded number of times.
func (l *Learner) Patterns() *Patterns {
	p := &Patterns{trees: make(map[treeKey]*node)}
	for k, vs := range l.values {
		vals := make([]string, 0, len(vs))
		for v := range vs {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		if m := l.opts.MaxSample; m > 0 && len(vals) > m {
			// An even sample of the sorted values: deterministic, independent of the order
			// of Adds.
			sample := make([]string, m)
			for i := range sample {
				sample[i] = vals[i*len(vals)/m]
			}
			vals = sample
		}
		if root := l.opts.learnTree(vals, &l.cl); root != nil {
			p.trees[k] = root
		}
	}
	p.finish()
	return p
}

// ltok is a token being learned from: its value, units and alignment to its node's pattern.
type ltok struct {
	val   string
	units []unit
	spans []span
}

// learnTree returns the pattern tree of the sorted distinct values vals, or nil if it is "*".
func (o *Options) learnTree(vals []string, cl *clusterer) *node {
	toks := make([]ltok, 0, len(vals))
	for _, v := range vals {
		us := appendUnits(nil, v)
		if len(us) < 2 {
			continue
		}
		toks = append(toks, ltok{val: v, units: us, spans: []span{{a: 0, b: int32(len(us)), star: true}}})
	}
	root := &node{elems: []elem{{star: true}}}
	o.grow(root, toks, 0, cl)
	if len(root.kids) == 0 {
		return nil
	}
	return root
}

// clusterKey is the cluster of a candidate anchor (Algorithm 2, ClusterCandidateAnchors): its
// star, start delimiter, end delimiter and type, and its position in the star or 0. Every
// candidate is in three clusters: anywhere, by position from the start and from the end.
type clusterKey struct {
	gap       int32
	pos       int16 // as anchorKey.pos
	pre, post delim
	num       bool
}

// cluster holds the features of a cluster of candidate anchors (Algorithm 2, ComputeFeatures).
type cluster struct {
	key     clusterKey
	tokens  int     // token coverage: distinct tokens with an anchor of the cluster
	last    int     // the last token counted, +1
	tracked int     // distinct anchors counted (at most maxTracked)
	live    bool    // covers enough tokens to be selectable: its anchors are counted
	anchors []int32 // after selectable: the ids of the frequent anchors
	counts  []int   // and their token counts
	cv      float64 // coefficient of variation of the anchors' token counts
}

// anchorStat counts the tokens of one anchor in one cluster.
type anchorStat struct {
	cluster, id  int32
	tokens, last int
}

func compareClusterKey(a, b clusterKey) int {
	c := cmp.Or(cmp.Compare(a.gap, b.gap), cmp.Compare(a.pos, b.pos), cmp.Compare(a.pre, b.pre), cmp.Compare(a.post, b.post))
	if c == 0 && a.num != b.num {
		if a.num {
			return 1
		}
		return -1
	}
	return c
}

// clusterer computes the clusters of candidate anchors of a node's tokens. Its maps are keyed by
// integers (packed cluster keys, interned anchor values) because they are the hot loop of
// learning; a Learner reuses one clusterer for all its nodes.
type clusterer struct {
	index  table // packed clusterKey -> index in list
	list   []cluster
	idt    table            // hash of an anchor value -> id, an index in names
	ids    map[string]int32 // anchor value -> id, for values whose hash collides in idt
	names  []string
	stats  table // cluster index << 32 | anchor id -> index in astats
	astats []anchorStat
	refs   []int32 // per candidate, its three clusters (-1: none), from the first pass
}

func (cl *clusterer) reset() {
	if cl.ids == nil {
		cl.ids = make(map[string]int32)
	}
	cl.index.reset()
	cl.idt.reset()
	clear(cl.ids)
	cl.stats.reset()
	cl.list, cl.names, cl.astats, cl.refs = cl.list[:0], cl.names[:0], cl.astats[:0], cl.refs[:0]
}

// code packs a delim into 14 bits: its kind, and for a character its byte, or for a
// percent-escape the byte it encodes, a flag and the case of its two hex digits.
func (d delim) code() uint64 {
	c := uint64(d >> 24)
	if d.kind() != delimChar {
		return c
	}
	low := uint64(d & (1<<24 - 1))
	if low <= 0xff {
		return c | low<<3
	}
	h, l := byte(low>>8), byte(low)
	hv, _ := unhex(h)
	lv, _ := unhex(l)
	v := uint64(hv)<<4 | uint64(lv)
	lower := func(x byte) uint64 {
		if x >= 'a' {
			return 1
		}
		return 0
	}
	return c | v<<3 | 1<<11 | lower(h)<<12 | lower(l)<<13
}

// pack packs a cluster key with gap <= maxGap into 49 bits.
func (k clusterKey) pack() uint64 {
	p := uint64(k.gap) | uint64(k.pos+maxOrd)<<15 | k.pre.code()<<20 | k.post.code()<<34
	if k.num {
		p |= 1 << 48
	}
	return p
}

// maxGap bounds the stars whose candidates are clustered.
const maxGap = 1<<15 - 1

// forCandidates calls f for every candidate anchor in the stars of toks: the token's index, the
// token, the unit's index, the star's number and the candidate's clusters (by position anywhere,
// from the start and from the end; positions beyond maxOrd are 0).
func forCandidates(toks []ltok, f func(ti int, t *ltok, i int, ck clusterKey, a, b int16)) {
	for ti := range toks {
		t := &toks[ti]
		gap := int32(0)
		for _, sp := range t.spans {
			if !sp.star {
				continue
			}
			if gap > maxGap {
				break
			}
			cnt := 0
			for i := sp.a; i < sp.b; i++ {
				if candidate(t.units, int(i)) {
					cnt++
				}
			}
			ord := 0
			for i := int(sp.a); i < int(sp.b); i++ {
				if !candidate(t.units, i) {
					continue
				}
				ord++
				ck := clusterKey{gap: gap, pre: preDelim(t.val, t.units, i), post: postDelim(t.val, t.units, i), num: t.units[i].numeric()}
				a, b := ords(ord, cnt)
				f(ti, t, i, ck, a, b)
			}
			gap++
		}
	}
}

// clusters computes the clusters of the candidate anchors in the stars of toks into cl, in two
// passes: the first counts the tokens each cluster covers, the second counts the anchors of
// only the clusters that cover enough tokens to be selectable.
func (o *Options) clusters(toks []ltok, cl *clusterer) {
	cl.reset()
	forCandidates(toks, func(ti int, t *ltok, i int, ck clusterKey, a, b int16) {
		cl.refs = append(cl.refs, cl.cluster(ck, ti))
		for _, ck.pos = range [2]int16{a, b} {
			r := int32(-1)
			if ck.pos != 0 {
				r = cl.cluster(ck, ti)
			}
			cl.refs = append(cl.refs, r)
		}
	})
	need := o.MinCoverage * float64(len(toks))
	for i := range cl.list {
		c := &cl.list[i]
		c.live = float64(c.tokens) >= need
	}
	k := 0
	forCandidates(toks, func(ti int, t *ltok, i int, _ clusterKey, _, _ int16) {
		refs := cl.refs[k : k+3]
		k += 3
		id := int32(-1)
		for _, r := range refs {
			if r < 0 || !cl.list[r].live {
				continue
			}
			if id < 0 {
				u := t.units[i]
				id = cl.intern(t.val[u.start:u.end])
			}
			cl.count(r, id, ti)
		}
	})
}

// intern returns the id of the anchor value v, giving it one if it has none.
func (cl *clusterer) intern(v string) int32 {
	h := uint64(fnvOffset)
	for i := 0; i < len(v); i++ {
		h = (h ^ uint64(v[i])) * fnvPrime
	}
	h >>= 1 // a table holds keys below 1<<64-1
	id, ok := cl.idt.get(h)
	if !ok {
		id = int32(len(cl.names))
		cl.idt.put(h, id)
		cl.names = append(cl.names, v)
		return id
	}
	if cl.names[id] == v {
		return id
	}
	// Another value has the same hash: the map decides.
	if id, ok := cl.ids[v]; ok {
		return id
	}
	id = int32(len(cl.names))
	cl.ids[v] = id
	cl.names = append(cl.names, v)
	return id
}

// cluster returns the index of the cluster ck, counting token ti in it.
func (cl *clusterer) cluster(ck clusterKey, ti int) int32 {
	pk := ck.pack()
	ci, ok := cl.index.get(pk)
	if !ok {
		ci = int32(len(cl.list))
		cl.index.put(pk, ci)
		cl.list = append(cl.list, cluster{key: ck})
	}
	c := &cl.list[ci]
	if c.last != ti+1 {
		c.tokens++
		c.last = ti + 1
	}
	return ci
}

// maxTracked bounds the distinct anchors counted per cluster; later new ones are not counted,
// which only lowers the cluster's coverage (a cluster with that many distinct values is a
// field of values, not a set of anchors).
const maxTracked = 256

// count counts the candidate anchor with id v of token ti in the cluster ci.
func (cl *clusterer) count(ci, v int32, ti int) {
	c := &cl.list[ci]
	sk := uint64(ci)<<32 | uint64(v)
	si, ok := cl.stats.get(sk)
	if !ok {
		if c.tracked >= maxTracked {
			return
		}
		c.tracked++
		si = int32(len(cl.astats))
		cl.stats.put(sk, si)
		cl.astats = append(cl.astats, anchorStat{cluster: ci, id: v})
	}
	a := &cl.astats[si]
	if a.last != ti+1 {
		a.tokens++
		a.last = ti + 1
	}
}

// selectable returns the clusters that Algorithm 2's SelectClusters accepts, best first (fewest
// unique anchors, then highest coverage, then lowest variance), with their anchors narrowed to
// the frequent ones: those in at least MinSupport tokens. Rare anchors are noise (an all-letter
// product id where a keyword usually stands); they are not counted as unique anchors, but the
// tokens they cover do not count as covered either. A cluster is selectable when its frequent
// anchors cover MinCoverage of the ntok tokens, number at most MaxUnique, and the coefficient of
// variation of their token counts is at most MaxVariation. A cluster whose anchors have a unit
// change on both sides (no delimiter character: the "Z" of "fclsZ1", but also the "f" of a hex
// session id) must moreover be positional, have one anchor and cover innerCoverage of the tokens.
func (o *Options) selectable(cl *clusterer, ntok int) []*cluster {
	for _, a := range cl.astats {
		if a.tokens >= o.MinSupport {
			c := &cl.list[a.cluster]
			c.anchors = append(c.anchors, a.id)
			c.counts = append(c.counts, a.tokens)
		}
	}
	var sel []*cluster
	for i := range cl.list {
		c := &cl.list[i]
		u := len(c.anchors)
		if u == 0 || u > o.MaxUnique {
			continue
		}
		var sum, sq int64
		for _, n := range c.counts {
			sum += int64(n)
			sq += int64(n) * int64(n)
		}
		covered := min(int(sum), c.tokens) // a token may hold two anchors of the cluster
		if float64(covered) < o.MinCoverage*float64(ntok) {
			continue
		}
		if c.key.pre == delimChange && c.key.post == delimChange &&
			(c.key.pos == 0 || u > 1 || float64(covered) < innerCoverage*float64(ntok)) {
			// Bounded by unit changes alone, as the letters inside a random id are.
			continue
		}
		c.tokens = covered
		// The variance from exact integer sums, so that the result (a tie-breaker in the
		// ranking) does not depend on the order of counting.
		c.cv = math.Sqrt(float64(int64(u)*sq-sum*sum)) / float64(sum)
		if c.cv > o.MaxVariation {
			continue
		}
		sel = append(sel, c)
	}
	slices.SortFunc(sel, func(a, b *cluster) int {
		return cmp.Or(cmp.Compare(len(a.anchors), len(b.anchors)), cmp.Compare(b.tokens, a.tokens),
			cmp.Compare(a.cv, b.cv), compareClusterKey(a.key, b.key))
	})
	return sel
}

// innerCoverage is the coverage that a cluster of anchors with a unit change on both sides needs.
const innerCoverage = 0.8

// maxTries bounds the refinements tried at one node.
const maxTries = 8

// grow refines the node n, whose pattern matches toks, recursively (Algorithm 1). It tries the
// selectable clusters of fewest unique anchors together, then each selectable cluster alone,
// and keeps the first refinement that is productive: its child patterns of at least MinSupport
// tokens hold at least MinCoverage of the tokens, and there are at most MaxChildren of them.
// Tokens outside those children stay with n, which is their leaf pattern.
func (o *Options) grow(n *node, toks []ltok, depth int, cl *clusterer) {
	if depth >= o.MaxDepth || len(toks) < o.MinSupport {
		return
	}
	o.clusters(toks, cl)
	sel := o.selectable(cl, len(toks))
	if len(sel) == 0 {
		return
	}
	var tries [][]*cluster
	tier := 1
	for tier < len(sel) && len(sel[tier].anchors) == len(sel[0].anchors) {
		tier++
	}
	if tier > 1 {
		// A positional cluster in the tier beside its cluster "anywhere" has the same anchors
		// (same count, a subset): leave it out.
		any := make(map[clusterKey]bool)
		for _, c := range sel[:tier] {
			if c.key.pos == 0 {
				any[c.key] = true
			}
		}
		var joint []*cluster
		for _, c := range sel[:tier] {
			k := c.key
			k.pos = 0
			if c.key.pos == 0 || !any[k] {
				joint = append(joint, c)
			}
		}
		tries = append(tries, joint)
	}
	for i := range min(len(sel), maxTries) {
		tries = append(tries, sel[i:i+1])
	}
	for _, try := range tries {
		t := &node{elems: n.elems}
		for _, c := range try {
			for _, id := range c.anchors {
				t.addAnchor(anchorKey{gap: c.key.gap, pos: c.key.pos, pre: c.key.pre, post: c.key.post, num: c.key.num, value: cl.names[id]})
			}
		}
		kids, kidToks := o.children(t, toks)
		if kids == nil {
			continue
		}
		// Rebuild the anchors with copied values (see children).
		for k := range t.sel {
			k.value = strings.Clone(k.value)
			n.addAnchor(k)
		}
		n.kids = kids
		for i, k := range kids {
			o.grow(k, kidToks[i], depth+1, cl)
		}
		return
	}
}

// children groups toks by the child pattern that t's anchors make of them (GenerateChildPatterns)
// and returns the child patterns, sorted by their text, with their tokens, or nil if the
// refinement is not productive.
func (o *Options) children(t *node, toks []ltok) ([]*node, [][]ltok) {
	type group struct {
		text  string
		elems []elem
		toks  []ltok
	}
	groups := make(map[string]*group)
	var buf []byte
	for _, tok := range toks {
		spans, found := t.refine(nil, tok.val, tok.units, tok.spans)
		if !found {
			continue
		}
		buf = appendSpans(buf[:0], tok.val, tok.units, spans)
		g := groups[string(buf)]
		if g == nil {
			g = &group{text: string(buf), elems: make([]elem, len(spans))}
			for i, sp := range spans {
				if sp.star {
					g.elems[i].star = true
				} else {
					g.elems[i].lit = tok.val[tok.units[sp.a].start:tok.units[sp.a].end]
				}
			}
			groups[g.text] = g
		}
		g.toks = append(g.toks, ltok{val: tok.val, units: tok.units, spans: spans})
	}
	var kept []*group
	covered := 0
	for _, g := range groups {
		if len(g.toks) >= o.MinSupport {
			kept = append(kept, g)
			covered += len(g.toks)
		}
	}
	if len(kept) == 0 || len(kept) > o.MaxChildren || float64(covered) < o.MinCoverage*float64(len(toks)) {
		return nil, nil
	}
	slices.SortFunc(kept, func(a, b *group) int { return strings.Compare(a.text, b.text) })
	kids := make([]*node, len(kept))
	kidToks := make([][]ltok, len(kept))
	for i, g := range kept {
		// The literals are substrings of the learner's values: copy them, so that patterns
		// do not keep those alive.
		for j := range g.elems {
			g.elems[j].lit = strings.Clone(g.elems[j].lit)
		}
		kids[i] = &node{elems: g.elems}
		kidToks[i] = g.toks
	}
	return kids, kidToks
}
