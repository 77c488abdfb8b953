package deeptoken

import (
	"slices"
	"sync"

	"github.com/undust/undust/urlnorm"
)

// elem is one element of a pattern (WSDM'10 Definition 4): a literal unit (an anchor or a
// delimiter) or a star, which matches one or more units and makes one deep token.
type elem struct {
	lit  string // the literal's text; "" for a star
	star bool
}

// span is the alignment of one pattern element to a token: the units [a, b) of the token.
// A literal spans one unit, a star one or more.
type span struct {
	a, b int32
	star bool
}

// A delim is the delimiter before or after a candidate anchor: one of delimStart, delimEnd and
// delimChange, or delimChar with the delimiter's bytes (one byte, or the three of a
// percent-escape) in its low 24 bits. It is an integer so that cluster keys hash fast.
type delim uint32

const (
	delimStart  delim = (iota + 1) << 24 // the start of the token, written "^"
	delimEnd                             // the end of the token, written "$"
	delimChange                          // a unit change, no character, written "~"
	delimChar                            // a delimiter character, written as itself
)

// charDelim returns the delim of the delimiter unit t (one byte or a percent-escape).
func charDelim(t string) delim {
	if len(t) == 3 {
		return delimChar | delim(t[0])<<16 | delim(t[1])<<8 | delim(t[2])
	}
	return delimChar | delim(t[0])
}

// kind returns delimStart, delimEnd, delimChange or delimChar.
func (d delim) kind() delim { return d &^ (1<<24 - 1) }

// text returns the delimiter's bytes of a delimChar.
func (d delim) text() string {
	if d.kind() != delimChar {
		return ""
	}
	if low := d & (1<<24 - 1); low > 0xff {
		return string([]byte{byte(low >> 16), byte(low >> 8), byte(low)})
	}
	return string([]byte{byte(d)})
}

// anchorKey identifies a selected anchor: its cluster (the star it sits in, counted from 0 in
// the node's pattern, its position among the candidate anchors of that star, its start and end
// delimiters and its type) and its value.
type anchorKey struct {
	gap       int32
	pos       int16 // 0: anywhere in the star; k > 0: k-th candidate from its start; k < 0: from its end
	pre, post delim
	num       bool
	value     string
}

// node is a pattern of the pattern tree with, if it was refined, the anchors that refine it and
// its child patterns (sorted by their text).
type node struct {
	elems []elem
	sel   map[anchorKey]struct{}
	kids  []*node
	// The anchors of sel indexed for splitting: by value, and which stars have any.
	vals    []string       // the distinct anchor values
	specs   [][]anchorSpec // the anchors of each value
	byValue map[string]int // value -> index in vals, when there are many
	gapMask uint64         // bit g: star g (< 64) has anchors
	gapsHi  map[int32]bool // stars >= 64 that have anchors
	// The kids by the hash of their pattern (see index).
	kidHash map[uint64][]*node
	// A quick filter over sel: the lengths and first bytes of the selected anchors.
	minLen, maxLen int
	first          [4]uint64
}

// anchorSpec is an anchorKey without its value (and type, which the value fixes).
type anchorSpec struct {
	gap       int32
	pos       int16
	pre, post delim
}

// maxScan is the number of anchor values up to which a node finds a value by a linear scan,
// faster than hashing for a few short strings.
const maxScan = 8

// hasGap reports whether star gap has anchors.
func (n *node) hasGap(gap int32) bool {
	if gap < 64 {
		return n.gapMask&(1<<gap) != 0
	}
	return n.gapsHi[gap]
}

// specsOf returns the anchors of value v.
func (n *node) specsOf(v string) []anchorSpec {
	if n.byValue != nil {
		if i, ok := n.byValue[v]; ok {
			return n.specs[i]
		}
		return nil
	}
	for i, w := range n.vals {
		if len(w) == len(v) && w == v {
			return n.specs[i]
		}
	}
	return nil
}

// addAnchor adds k to the node's selected anchors.
func (n *node) addAnchor(k anchorKey) {
	if n.sel == nil {
		n.sel = make(map[anchorKey]struct{})
		n.minLen = len(k.value)
	}
	if _, ok := n.sel[k]; ok {
		return
	}
	n.sel[k] = struct{}{}
	// Through the map once there is one: a scan of every value for every anchor is quadratic
	// in the anchors of a node.
	i := -1
	if n.byValue != nil {
		if j, ok := n.byValue[k.value]; ok {
			i = j
		}
	} else {
		i = slices.Index(n.vals, k.value)
	}
	if i < 0 {
		i = len(n.vals)
		n.vals = append(n.vals, k.value)
		n.specs = append(n.specs, nil)
		if len(n.vals) > maxScan {
			if n.byValue == nil {
				n.byValue = make(map[string]int)
				for j, v := range n.vals {
					n.byValue[v] = j
				}
			}
			n.byValue[k.value] = i
		}
	}
	n.specs[i] = append(n.specs[i], anchorSpec{gap: k.gap, pos: k.pos, pre: k.pre, post: k.post})
	if k.gap < 64 {
		n.gapMask |= 1 << k.gap
	} else {
		if n.gapsHi == nil {
			n.gapsHi = make(map[int32]bool)
		}
		n.gapsHi[k.gap] = true
	}
	n.minLen = min(n.minLen, len(k.value))
	n.maxLen = max(n.maxLen, len(k.value))
	if k.value != "" {
		c := k.value[0]
		n.first[c>>6] |= 1 << (c & 63)
	}
}

// preDelim and postDelim return the delimiters around unit i of us, a cut of s.
func preDelim(s string, us []unit, i int) delim {
	switch {
	case i == 0:
		return delimStart
	case us[i-1].kind == kindDelim:
		return charDelim(s[us[i-1].start:us[i-1].end])
	}
	return delimChange
}

func postDelim(s string, us []unit, i int) delim {
	switch {
	case i == len(us)-1:
		return delimEnd
	case us[i+1].kind == kindDelim:
		return charDelim(s[us[i+1].start:us[i+1].end])
	}
	return delimChange
}

// candidate reports whether unit i of us is a candidate anchor: alphanumeric and not the whole
// token (an anchor that is the whole token splits nothing).
func candidate(us []unit, i int) bool {
	return us[i].kind != kindDelim && len(us) > 1
}

// maxOrd bounds the positions of candidate anchors that positional clusters distinguish; an
// anchor further from both ends of its star clusters by its delimiters only.
const maxOrd = 8

// ords returns the positional cluster positions of the ord-th of cnt candidates of a star:
// from the start and from the end, 0 where beyond maxOrd.
func ords(ord, cnt int) (int16, int16) {
	var a, b int16
	if ord <= maxOrd {
		a = int16(ord)
	}
	if r := cnt - ord + 1; r <= maxOrd {
		b = -int16(r)
	}
	return a, b
}

// anchorAt tells whether unit i of us, a candidate in star gap, is one of the node's selected
// anchors: anywhere in its star, or at the positions among the star's candidates whose
// bits pos has (bit maxOrd+k for position k, as ords gives them), which refine checks, so that
// it counts a star's candidates only for an anchor with a position.
func (n *node) anchorAt(s string, us []unit, i int, gap int32) (anywhere bool, pos uint32) {
	u := us[i]
	specs := n.specsOf(s[u.start:u.end])
	if len(specs) == 0 {
		return false, 0
	}
	pre, post := preDelim(s, us, i), postDelim(s, us, i)
	for _, sp := range specs {
		if sp.gap == gap && sp.pre == pre && sp.post == post {
			if sp.pos == 0 {
				return true, 0
			}
			pos |= 1 << (sp.pos + maxOrd)
		}
	}
	return false, pos
}

// refine appends to dst the alignment of a token to the child pattern that the node's selected
// anchors make of it (WSDM'10 Algorithm 1, GenerateChildPatterns), given its alignment spans to
// the node's pattern: every selected anchor in a star becomes a literal, with the delimiter
// characters around it, and what is left of the star between literals stays a star. It reports
// whether any anchor was found (if not, the result equals spans).
func (n *node) refine(dst []span, s string, us []unit, spans []span) ([]span, bool) {
	if len(us) < 2 {
		return append(dst, spans...), false // a token of one unit has no candidate anchor
	}
	found := false
	gap := int32(0)
	minLen, maxLen, first := int32(n.minLen), int32(n.maxLen), &n.first
	for _, sp := range spans {
		if !sp.star || !n.hasGap(gap) {
			dst = append(dst, sp)
			if sp.star {
				gap++
			}
			continue
		}
		run, ord, cnt := sp.a, 0, -1 // cnt: the star's candidates, counted when needed
		for i := sp.a; i < sp.b; i++ {
			u := &us[i]
			if u.kind == kindDelim {
				continue
			}
			ord++
			// The quick filter of the node's anchors: their lengths and first bytes.
			if l := u.end - u.start; l < minLen || l > maxLen {
				continue
			}
			if c := s[u.start]; first[c>>6]&(1<<(c&63)) == 0 {
				continue
			}
			anywhere, pos := n.anchorAt(s, us, int(i), gap)
			if !anywhere {
				if pos == 0 {
					continue
				}
				if cnt < 0 {
					cnt = ord - 1
					for j := i; j < sp.b; j++ {
						if us[j].kind != kindDelim {
							cnt++
						}
					}
				}
				a, b := ords(ord, cnt)
				if pos&(1<<(a+maxOrd)|1<<(b+maxOrd)) == 0 {
					continue
				}
			}
			found = true
			lo, hi := i, i+1
			if lo-1 >= run && us[lo-1].kind == kindDelim {
				lo--
			}
			if hi < sp.b && us[hi].kind == kindDelim {
				hi++
			}
			if lo > run {
				dst = append(dst, span{a: run, b: lo, star: true})
			}
			for j := lo; j < hi; j++ {
				dst = append(dst, span{a: j, b: j + 1})
			}
			run = hi
			i = hi - 1
		}
		if run < sp.b {
			dst = append(dst, span{a: run, b: sp.b, star: true})
		}
		gap++
	}
	return dst, found
}

// FNV-1a, over a pattern's elements: each literal's bytes then a 0xfe, or a 0xff for a star.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashElems(elems []elem) uint64 {
	h := uint64(fnvOffset)
	for _, e := range elems {
		if e.star {
			h = (h ^ 0xff) * fnvPrime
			continue
		}
		for i := 0; i < len(e.lit); i++ {
			h = (h ^ uint64(e.lit[i])) * fnvPrime
		}
		h = (h ^ 0xfe) * fnvPrime
	}
	return h
}

// hashSpans is hashElems of the pattern that the alignment spans of s spells.
func hashSpans(s string, us []unit, spans []span) uint64 {
	h := uint64(fnvOffset)
	for _, sp := range spans {
		if sp.star {
			h = (h ^ 0xff) * fnvPrime
			continue
		}
		u := us[sp.a]
		for i := u.start; i < u.end; i++ {
			h = (h ^ uint64(s[i])) * fnvPrime
		}
		h = (h ^ 0xfe) * fnvPrime
	}
	return h
}

// maxLinearKids is the number of kids up to which kid compares with each in turn.
const maxLinearKids = 2

// index builds the kid indexes of the tree under n; a tree is indexed once built, before use.
func (n *node) index() {
	if len(n.kids) == 0 {
		return
	}
	n.kidHash = make(map[uint64][]*node, len(n.kids))
	for _, k := range n.kids {
		h := hashElems(k.elems)
		n.kidHash[h] = append(n.kidHash[h], k)
		k.index()
	}
}

// kid returns the kid whose pattern the alignment spans of s spells, or nil.
func (n *node) kid(s string, us []unit, spans []span) *node {
	if len(n.kids) <= maxLinearKids {
		// Comparing with a few kids (most fail on length) is cheaper than hashing.
		for _, k := range n.kids {
			if k.matches(s, us, spans) {
				return k
			}
		}
		return nil
	}
	for _, k := range n.kidHash[hashSpans(s, us, spans)] {
		if k.matches(s, us, spans) {
			return k
		}
	}
	return nil
}

// matches reports whether the node's pattern is the one that the alignment spans spells.
func (n *node) matches(s string, us []unit, spans []span) bool {
	if len(n.elems) != len(spans) {
		return false
	}
	for i, e := range n.elems {
		sp := spans[i]
		if e.star != sp.star {
			return false
		}
		if !e.star && e.lit != s[us[sp.a].start:us[sp.a].end] {
			return false
		}
	}
	return true
}

// leaf walks the tree from the root n for the token value s and returns its units and its
// alignment to its leaf pattern (WSDM'10 Algorithm 1, FindDeepTokens): a child pattern is taken
// when the token's refinement under the node's anchors is that child's pattern; a token that
// matches no child stays with the node, which is then its leaf. ubuf, buf0 and buf1 are empty
// slices of working memory (of the caller's stack arrays, to keep short tokens off the heap).
func leaf(n *node, s string, ubuf []unit, buf0, buf1 []span) ([]unit, []span) {
	us := appendUnits(ubuf, s)
	if len(us) < 2 {
		return us, nil
	}
	cur := append(buf0, span{a: 0, b: int32(len(us)), star: true})
	for len(n.kids) > 0 {
		next, found := n.refine(buf1, s, us, cur)
		if !found {
			break
		}
		kid := n.kid(s, us, next)
		if kid == nil {
			break
		}
		n = kid
		cur, buf1 = next, cur[:0]
	}
	return us, cur
}

// A Patterns holds the learned deep-token patterns of one host: a pattern tree per key, where
// a key is a path segment position counted from the start of the path (urlnorm.Key.Pos, the
// paper's k_i of its MapReduce stage I) or a query parameter name (every occurrence of the name
// shares one tree). Other parts of a URL are never split.
//
// The zero value and nil are valid and hold no patterns: they split nothing. A Patterns is
// immutable once built by a [Learner] or [ParsePatterns] and is safe for concurrent use.
type Patterns struct {
	trees map[treeKey]*node
	// The trees indexed for AppendSplit (see finish).
	paths   []*node // by path position, up to maxDensePath
	pathsHi map[int16]*node
	queries map[string]*node
}

// maxDensePath is the highest path position whose tree finish files in a slice; higher ones go
// in a map, so that a key at position 32767 costs one tree, not a slot per position below it.
const maxDensePath = 64

// finish indexes the trees once they are built.
func (p *Patterns) finish() {
	p.queries = make(map[string]*node)
	for k, root := range p.trees {
		root.index()
		switch k.part {
		case urlnorm.PartPath:
			if k.pos > maxDensePath {
				if p.pathsHi == nil {
					p.pathsHi = make(map[int16]*node)
				}
				p.pathsHi[k.pos] = root
				continue
			}
			if int(k.pos) >= len(p.paths) {
				p.paths = append(p.paths, make([]*node, int(k.pos)+1-len(p.paths))...)
			}
			p.paths[k.pos] = root
		case urlnorm.PartQuery:
			p.queries[k.name] = root
		}
	}
}

// tree returns the pattern tree of a token with key k, or nil.
func (p *Patterns) tree(k urlnorm.Key) *node {
	if k.Sub != 0 || k.RSub != 0 {
		return nil
	}
	switch k.Part {
	case urlnorm.PartPath:
		if k.Pos > 0 && int(k.Pos) < len(p.paths) {
			return p.paths[k.Pos]
		}
		if k.Pos > maxDensePath {
			return p.pathsHi[k.Pos]
		}
	case urlnorm.PartQuery:
		return p.queries[k.Name]
	}
	return nil
}

// treeKey names the pattern tree of a key.
type treeKey struct {
	part urlnorm.Part
	pos  int16
	name string
}

func keyOf(k urlnorm.Key) (treeKey, bool) {
	if k.Sub != 0 || k.RSub != 0 {
		return treeKey{}, false
	}
	switch k.Part {
	case urlnorm.PartPath:
		return treeKey{part: urlnorm.PartPath, pos: k.Pos}, k.Pos > 0
	case urlnorm.PartQuery:
		return treeKey{part: urlnorm.PartQuery, name: k.Name}, true
	}
	return treeKey{}, false
}

// Len returns the number of keys that have a pattern tree that splits some tokens.
func (p *Patterns) Len() int {
	if p == nil {
		return 0
	}
	return len(p.trees)
}

// scratch is the working memory of AppendSplit.
type scratch struct {
	ubuf       [96]unit
	sbuf, tbuf [64]span
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxSub is the largest deep-token index a Key holds.
const maxSub = 1<<15 - 1

// AppendSplit appends toks to dst and returns the extended slice, with every token that a leaf
// pattern of p covers replaced by its deep tokens (WSDM'10 Definition 5): the same Key with Sub
// 1..m and RSub m..1, and values that are substrings of the token's value, delimiters included,
// so that urlnorm.Join of the result equals urlnorm.Join(toks). A token whose leaf pattern is
// "*" (no anchor), a bare query parameter, a token that is already a deep token and a token of
// another part than path or query are copied unchanged. toks is not modified; dst and toks must
// not overlap. Each token is split on its own: the result for toks is the results for its
// tokens one after another (see Splitter).
//
// With enough capacity in dst, AppendSplit does not allocate for tokens of up to 96 units (its
// working memory comes from a sync.Pool).
func (p *Patterns) AppendSplit(dst, toks []urlnorm.Token) []urlnorm.Token {
	if p == nil || len(p.trees) == 0 {
		return append(dst, toks...)
	}
	var sc *scratch // from a pool: zeroing arrays this size on every call costs more than a split
	for _, t := range toks {
		var root *node
		if !t.Bare {
			root = p.tree(t.Key)
		}
		if root == nil {
			dst = append(dst, t)
			continue
		}
		if sc == nil {
			sc = scratchPool.Get().(*scratch)
		}
		dst = sc.appendDeep(dst, root, t)
	}
	if sc != nil {
		scratchPool.Put(sc)
	}
	return dst
}

// appendDeep appends to dst the deep tokens of t by its pattern tree root, or t itself if its
// leaf pattern has fewer than two elements.
func (sc *scratch) appendDeep(dst []urlnorm.Token, root *node, t urlnorm.Token) []urlnorm.Token {
	us, spans := leaf(root, t.Value, sc.ubuf[:0], sc.sbuf[:0], sc.tbuf[:0])
	if len(spans) < 2 || len(spans) > maxSub {
		return append(dst, t)
	}
	m := len(spans)
	for i, sp := range spans {
		d := t
		d.Sub, d.RSub = int16(i+1), int16(m-i)
		d.Value = t.Value[us[sp.a].start:us[sp.b-1].end]
		dst = append(dst, d)
	}
	return dst
}

// A Splitter splits tokens one at a time, with working memory of its own: for a caller that
// needs the deep tokens of one token of a URL (the one that a rule reads, say), not those of
// every token, and that should not pay AppendSplit's take of working memory from a pool for
// each. Its zero value is ready to use. A Splitter is not safe for concurrent use. It remembers
// the splits of the last short tokens it split, by their bytes and their pattern tree, so that
// a token split again (the same id in the next URL of a site) is not walked again; it keeps no
// reference to the tokens it is given, nor to their memory. It is about 9 KB: keep it with
// other reused buffers.
type Splitter struct {
	sc   scratch
	memo [memoSize]memoEnt
	// memoHits counts the tokens found in memo, for tests.
	memoHits int
}

// memoSize is the number of slots of a Splitter's memory, a power of two; memoLen is the
// longest value it remembers, which covers the ids and file names that rules read.
const (
	memoSize = 64
	memoLen  = 32
)

// memoEnt is a token value split by the tree root: its bytes, as memoKey packs them (and all of
// them if it is longer than 16), and the ends of its deep tokens. A value is filed in the slot
// of its hash.
type memoEnt struct {
	root   *node // nil: an unused slot
	w0, w1 uint64
	n      uint8 // the value's length
	m      uint8 // the number of deep tokens; 0 if the value is not split
	val    [memoLen]byte
	ends   [memoLen]uint8
}

// memoKey packs a value v of 1 to memoLen bytes into two words which, with its length, are all
// of it up to 16 bytes: its first and last 8 bytes (which overlap below 16 bytes), its first
// and last 4 in w0 (below 8 bytes), or its first, middle and last byte (below 4).
func memoKey(v string) (w0, w1 uint64) {
	n := len(v)
	switch {
	case n >= 8:
		return le64(v), le64(v[n-8:])
	case n >= 4:
		return le32(v) | le32(v[n-4:])<<32, 0
	}
	return uint64(v[0]) | uint64(v[n/2])<<8 | uint64(v[n-1])<<16, 0
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}

// AppendToken appends to dst the deep tokens of t by p, exactly as p.AppendSplit(dst,
// []urlnorm.Token{t}) does, and returns the extended slice. With enough capacity in dst, it
// does not allocate for a token of up to 96 units.
func (s *Splitter) AppendToken(dst []urlnorm.Token, p *Patterns, t urlnorm.Token) []urlnorm.Token {
	if p == nil || len(p.trees) == 0 || t.Bare {
		return append(dst, t)
	}
	root := p.tree(t.Key)
	if root == nil {
		return append(dst, t)
	}
	v := t.Value
	if len(v) == 0 || len(v) > memoLen {
		return s.sc.appendDeep(dst, root, t)
	}
	w0, w1 := memoKey(v)
	h := (w0 ^ w1*0x9e3779b97f4a7c15 ^ uint64(len(v))) * 0xff51afd7ed558ccd
	e := &s.memo[h>>58%memoSize]
	if e.root == root && e.w0 == w0 && e.w1 == w1 && int(e.n) == len(v) && (len(v) <= 16 || string(e.val[:len(v)]) == v) {
		s.memoHits++
		return appendEnds(dst, &t, e.ends[:e.m])
	}
	sc := &s.sc
	us, spans := leaf(root, v, sc.ubuf[:0], sc.sbuf[:0], sc.tbuf[:0])
	e.root, e.w0, e.w1, e.n, e.m = root, w0, w1, uint8(len(v)), 0
	if len(v) > 16 {
		copy(e.val[:], v)
	}
	if len(spans) >= 2 {
		e.m = uint8(len(spans))
		for i, sp := range spans {
			e.ends[i] = uint8(us[sp.b-1].end)
		}
	}
	return appendEnds(dst, &t, e.ends[:e.m])
}

// appendEnds appends to dst the deep tokens of t whose values end at ends, or t itself if ends
// has fewer than two.
func appendEnds(dst []urlnorm.Token, t *urlnorm.Token, ends []uint8) []urlnorm.Token {
	m := len(ends)
	if m < 2 {
		return append(dst, *t)
	}
	n := len(dst)
	dst = slices.Grow(dst, m)[:n+m]
	out := dst[n:]
	ends = ends[:len(out)]
	v, start := t.Value, 0
	for i := range out {
		end := int(ends[i])
		d := &out[i]
		*d = *t
		d.Sub, d.RSub = int16(i+1), int16(m-i)
		d.Value = v[start:end]
		start = end
	}
	return dst
}
