package rules

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/urlnorm"
)

// DefaultMaxRewrites is the number of rewrites after which Normalize stops when Options does not
// say otherwise.
const DefaultMaxRewrites = 8

// DefaultMaxRules is the number of rules above which NewSet and the reader fail with
// ErrTooManyRules when Options does not say otherwise. A rule takes about 1 KB in a Set (a
// learned rule of many conditions up to 2.5 KB), so the default keeps a set below about 250 to
// 650 MB; a learned set of a crawl of many thousand hosts has tens of thousands of rules.
const DefaultMaxRules = 1 << 18

// Patterns are one host's deep-token patterns (package deeptoken): they split the tokens of the
// host's URLs into deep tokens, so that rules can address parts of a path segment or a value,
// and they write themselves as text lines for the rule file. Implementations must be safe for
// concurrent use and must not modify toks. A Set keeps the Patterns it is given.
type Patterns interface {
	// AppendSplit appends toks to dst with the tokens that the patterns cover replaced by their
	// deep tokens (Sub and RSub set, the token's other key fields kept).
	AppendSplit(dst, toks []urlnorm.Token) []urlnorm.Token
	// AppendText appends the patterns as lines, none empty and none starting with "#".
	AppendText(dst []byte) []byte
}

// A Canonicalizer rewrites a URL to its canonical form; *urlnorm.Normalizer is one. Every URL
// that a rule writes goes through it, so that a rule's output is a canonical URL. It must be
// safe for concurrent use and must not keep the string it is given.
type Canonicalizer interface {
	AppendCanonical(dst []byte, raw string) ([]byte, error)
}

// Options configure a Set. The zero Options are the defaults. NewSet and Load copy the Options
// and the Patterns map (not the Patterns themselves).
type Options struct {
	// MaxRewrites bounds the rewrites of one URL; 0 means DefaultMaxRewrites.
	MaxRewrites int
	// MaxRules bounds the number of rules of a set, for NewSet and the reader, which fail with
	// ErrTooManyRules above it (the reader as soon as it meets one rule too many, so a huge
	// file costs no more memory than the bound); 0 means DefaultMaxRules, a negative value no
	// bound.
	MaxRules int
	// Patterns maps a host (exact, as in a canonical URL) to its deep-token patterns, usually a
	// *deeptoken.Patterns learned from the host's URLs.
	Patterns map[string]Patterns
	// ParsePatterns reads one host's patterns from the lines that AppendText wrote, for the
	// reader; nil means deeptoken.ParsePatterns.
	ParsePatterns func(text []byte) (Patterns, error)
	// Canonicalizer canonicalizes every rewritten URL, and the URLs that Evaluate is given;
	// nil means urlnorm.New(urlnorm.Safe). To keep rewritten URLs in the form of a dedup key
	// (urlnorm's Key: sorted query, session ids dropped), give a type whose AppendCanonical
	// calls a Normalizer's AppendKey, or set Key.
	Canonicalizer Canonicalizer
	// Key, if not 0, makes the set work on urlnorm dedup keys made with these flags (package
	// learn's sets use urlnorm.Crawler): Normalize first brings its input to the key form of
	// urlnorm.New(Key), and every rewritten URL too; Canonicalizer is then not used. A set with a
	// Key takes raw URLs, at the cost of computing the key (an allocation). The file carries Key
	// on a "key" line, which ReadFrom restores.
	Key urlnorm.Flags
}

// A Set is a rule set indexed for online matching. Build it with NewSet or read it with Load.
// A Set is immutable once built and safe for concurrent use by many goroutines, except ReadFrom,
// which replaces its content and must not run concurrently with anything else. The zero Set is
// an empty set that leaves every URL unchanged. NewSet copies the rules it is given.
type Set struct {
	rules  []crule           // in precedence order: index 0 wins over every other rule
	twins  map[int32][]int32 // rules left out of the index, by the equal rule before them
	exact  map[string]*node  // rules of an exact-host scope, by host
	domain map[string]*node  // rules of a domain scope, by domain
	all    *node             // exact[AllHosts], the rules of every host
	every  everyHostFilter   // what the rules of every host require of a URL, for mayMatch
	hosts  hostFilter        // the hosts and domains of exact and domain, for mayMatch
	opts   Options
	keyer  *urlnorm.Normalizer // urlnorm.New(opts.Key), if opts.Key is set
	maxRw  int
	// tokenKey says that the set's Key flags are ones that keyCleanAt knows (tokenKeyFlags), so
	// that a rewrite whose tokens it passes needs no new key.
	tokenKey bool
	// succ has the successors of each rule (see succ.go), nil for a set without tokenKey.
	succ    []succList
	scratch sync.Pool
	// spare is a scratch kept for the next call, cheaper to take and give back than scratch's
	// (getScratch, keep); a call that finds it taken uses scratch. Unlike the pool's, it lives
	// as long as the set (or until ReadFrom), with buffers as large as the longest call's.
	spare spareSlot
}

// spareSlot is a scratch that one call at a time holds: the call that moves state from
// spareFree (or spareNone, making sc) to spareHeld owns sc until it sets state back to
// spareFree. It is on a cache line of its own, so that taking and giving it back disturbs no
// core's copy of the set's other fields.
type spareSlot struct {
	_     [64]byte
	state atomic.Uint32
	sc    *scratch
	_     [48]byte
}

// The states of a spareSlot.
const (
	spareNone = iota // no scratch yet
	spareFree
	spareHeld
)

// crule is a rule compiled for matching: its context has the Equal conditions first.
type crule struct {
	Rule
	needs []urlnorm.Key // keys that a Copy reads and no condition requires present
	lits  int           // Literals()
	eqs   int           // the Equal conditions of Context, for precedence (equalsFirst)
	// known has bit j set when the index tree has checked Context[j] on the way to the leaf
	// that holds the rule, so that matches skips it (conditions after the 64th are always checked).
	known uint64
	// check holds what matches looks up, what neither the way to the leaf (known) nor the
	// prefilter decides (prefilterTree): the conditions of Context and the presence of the
	// keys of needs, compiled.
	check []probe
	// wholeOK says that rewrite may work on the whole tokens: no action has a deep key or
	// reads one, and no Convert of the whole path changes the first letter of each token only
	// (LowerFirst, UpperFirst), which differs between a token and its deep tokens.
	wholeOK bool
	// convPath says that an action is a Convert of the whole path, which rewrite applies
	// before the others.
	convPath bool
	// splice, if not nil, is the rule's splice plan (splicePlan), by which apply rewrites a
	// URL on whole tokens of a set with tokenKey without rewrite.
	splice *splice
}

// routeKey is the key under which the index files a condition on k: a path key that gives a
// position from the start drops the one from the end, and a deep key that gives an index from
// the start drops the one from the end, so that path(1,3), path(1,2) and path(1,-) meet under
// path(1,-). A condition on path(1,3) implies one on path(1,-) (the same value, or presence),
// which is all the index needs.
func routeKey(k urlnorm.Key) urlnorm.Key {
	if k.Part == urlnorm.PartPath && k.Pos != 0 {
		k.RPos = 0
	}
	if k.Sub != 0 {
		k.RSub = 0
	}
	return k
}

// routesOf returns the conditions that the index may file rule r under: for each routing key,
// the first Equal or Any condition that implies it (an Any for a key a Copy reads), or an Absent
// condition on exactly that key (absence of path(1,3) does not imply absence of path(1,-)).
func routesOf(r *crule) []Condition {
	rs := make([]Condition, 0, len(r.Context)+len(r.needs))
	var seen keySet // linear in the conditions, however many
	add := func(c Condition) {
		k := routeKey(c.Key)
		if c.Op == Absent && k != c.Key || dup(&seen, rs, k, func(r *Condition) (urlnorm.Key, bool) { return r.Key, true }) {
			return
		}
		c.Key = k
		rs = append(rs, c)
	}
	for _, c := range r.Context {
		add(c)
	}
	for _, k := range r.needs {
		add(Condition{Key: k, Op: Any})
	}
	return rs
}

// A node indexes a list of rules (ascending indexes, so in precedence order), like a decision
// tree over literal conditions: an inner node splits its rules by their Equal condition on one
// key (Equal by value, Any, Absent, none; see build for the choice of key). A leaf is a short list that is checked rule by rule. A URL
// then meets only the rules filed under its own values along one path, and the rests on the way.
type node struct {
	min      int32     // the smallest rule index in the subtree: a search for a better rule skips it
	bit      uint8     // an inner node's: 1 + the bit of key in the tree's keyTable, 0 if it has none
	kind     probeKind // an inner node's: how has finds key (compileProbe)
	look     lookKind  // an inner node's: what find reads of the URL once the mask has not said absent
	pos      int16     // and the position of a path key
	leaf     []int32
	key      urlnorm.Key
	kids     []kid            // rules with an Equal condition on key, by value (few values)
	children map[string]*node // the same, for more than maxKids values
	present  *node            // rules with an Any condition on key
	absent   *node            // rules with an Absent condition on key
	rest     *node            // rules with no condition on key
	ents     []leafEnt        // a leaf's rules, by index in leaf, with what first reads of them
	keys     *keyTable        // the root's: the bits of the tree's keys (prefilterTree)
}

// leafEnt is rule i of a leaf with what first reads of it: its prefilter and its checks
// (crule.check), next to each other, so that first need not reach the rule.
type leafEnt struct {
	prefilter
	i     int32
	check []probe
}

// lookKind is what find reads of a URL at an inner node whose key the mask does not say absent.
type lookKind uint8

const (
	lookKey    lookKind = iota // the key, by lookup
	lookNone                   // nothing: the mask says present, and the node has no values
	lookPos                    // the path segment at pos from the start
	lookRPos                   // the path segment at pos from the end
	lookScheme                 // the scheme
)

// lookOf returns the lookKind of inner node n, whose bit, kids and children are set.
func lookOf(n *node) lookKind {
	switch {
	case n.bit != 0 && n.kids == nil && n.children == nil:
		return lookNone
	case n.kind == probePos:
		return lookPos
	case n.kind == probeRPos:
		return lookRPos
	case n.kind == probeScheme:
		return lookScheme
	}
	return lookKey
}

// kid is one value's branch of a node.
type kid struct {
	value string
	node  *node
}

// maxLeaf is the size up to which a node is not split; maxKids the number of values up to which
// a node keeps its branches in a slice instead of a map; a strong split keeps at least
// 1/splitGain of a node's rules from every URL, and a path takes at most maxWeakSplits others
// (see build).
const (
	maxLeaf       = 4
	maxKids       = 8
	splitGain     = 16
	maxWeakSplits = 16
)

// scratch holds the buffers of one Normalize call.
type scratch struct {
	v   view
	out []urlnorm.Token
	// outUsed is the most tokens that out held during the call, the part that putScratch clears.
	outUsed int
	fin     []urlnorm.Token
	ins     []insertion
	touched []int32 // the indexes of out that the last rewrite may have changed
	buf     []byte
	canon   []byte
	chain   []string
	all     []int32 // matchAll's result, for applyNext
	// arena holds the URLs that normalizeFast meets, one after another; with inArena set,
	// apply appends its result to it instead of making a string.
	arena   []byte
	inArena bool
	// conv holds the values that rewrites in normalizeFast convert (scratch.convert), one after
	// another; it only grows during a call.
	conv []byte
	// joined is the token list that the last rewrite joined into sc.buf (out or fin).
	joined []urlnorm.Token
	// next holds the tokens of the URL that apply returned last, when nextOK says that it knows
	// them (as urlnorm.Tokenize would give them), so that normalizeFast need not tokenize it.
	next   []urlnorm.Token
	nextOK bool
	// samePlace says that the tokens in next are at the places of those of v (apply edited them
	// in place and deleted none): the next view keeps v's positions (view.indexSame).
	samePlace bool
	// clean says that the last rewrite that apply wrote took the keyCleanAt path: its result's
	// tokens, in next, are the rewritten ones renumbered (for Set.succ).
	clean bool
	// lay is the layout of the key in arena when layOK says so (Normalize and AppendNormalize
	// with a Key), so that normalizeFast makes the first view's tokens from it.
	lay   urlnorm.KeyLayout
	layOK bool
	// spare says that the scratch is its set's spare (Set.spare), given back there.
	spare bool
}

// NewSet builds a Set from rules. It copies them, rejects an invalid one with an *Error
// that wraps ErrInvalidRule and names the rule's index, and orders them by precedence (see the
// package doc: most specific first). A nil opts means the defaults. A query key's occurrence Pos 0 is
// taken as 1.
func NewSet(rules []Rule, opts *Options) (*Set, error) {
	s := &Set{}
	if err := s.init(rules, opts, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// init fills s from rules; lines, if not nil, gives the file line of each rule for errors.
func (s *Set) init(rules []Rule, opts *Options, lines []int) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Patterns != nil {
		o.Patterns = maps(o.Patterns)
	}
	if len(rules) > o.maxRules() {
		return &Error{Op: "build", Input: strconv.Itoa(len(rules)) + " rules", Err: ErrTooManyRules}
	}
	cr := make([]crule, len(rules))
	for i := range rules {
		r := rules[i]
		if lines == nil {
			r = r.clone() // the reader's rules are its own
		}
		normalizeRule(&r)
		if err := r.Validate(); err != nil {
			if lines != nil {
				return &ParseError{Line: lines[i], Text: r.String(), Err: err}
			}
			return &Error{Op: "rule " + strconv.Itoa(i), Input: r.String(), Err: err}
		}
		cr[i] = compile(r)
	}
	// precedence is a total order up to rules that are equal in every field, so an unstable sort
	// (of indexes: rules are large) gives one order.
	// The statistics that precedence compares first are copied into a small array, so that the
	// sort reads contiguous memory and reaches the rules only on ties.
	order := make([]sortKey, len(cr))
	for i := range order {
		r := &cr[i]
		order[i] = sortKey{r.lits, len(r.Context), r.eqs, r.Stats.Coverage, r.Stats.Precision, r.Stats.Support, scopeRank(r.Scope), int32(i)}
	}
	slices.SortFunc(order, func(a, b sortKey) int {
		if c := a.compare(&b); c != 0 {
			return c
		}
		return compareContent(&cr[a.i].Rule, &cr[b.i].Rule)
	})
	// Put rule order[i].i at i, in place, one cycle of the permutation at a time.
	for i := range order {
		if int(order[i].i) == i {
			continue
		}
		tmp := cr[i]
		j := i
		for {
			k := int(order[j].i)
			order[j].i = int32(j) // done
			if k == i {
				cr[j] = tmp
				break
			}
			cr[j] = cr[k]
			j = k
		}
	}
	s.rules = cr
	s.opts = o
	s.keyer = nil
	if o.Key != 0 {
		s.keyer = urlnorm.New(o.Key)
	}
	s.tokenKey = o.Key != 0 && o.Key&^tokenKeyFlags == 0
	s.maxRw = o.MaxRewrites
	if s.maxRw <= 0 {
		s.maxRw = DefaultMaxRewrites
	}
	s.index()
	return nil
}

// sortKey holds what precedence compares before the content of rule i.
type sortKey struct {
	lits, nctx, eqs, cov int
	prec                 float64
	sup, rank            int
	i                    int32
}

// compare is precedence up to the content comparison.
func (a *sortKey) compare(b *sortKey) int {
	switch {
	case a.lits != b.lits:
		return cmp.Compare(b.lits, a.lits)
	case a.nctx != b.nctx:
		return cmp.Compare(b.nctx, a.nctx)
	case a.eqs != b.eqs:
		return cmp.Compare(b.eqs, a.eqs)
	case a.cov != b.cov:
		return cmp.Compare(b.cov, a.cov)
	}
	if c := cmp.Compare(b.prec, a.prec); c != 0 {
		return c
	}
	if a.sup != b.sup {
		return cmp.Compare(b.sup, a.sup)
	}
	return cmp.Compare(a.rank, b.rank)
}

// maxRules returns the bound on the number of rules that o sets.
func (o *Options) maxRules() int {
	switch {
	case o.MaxRules == 0:
		return DefaultMaxRules
	case o.MaxRules < 0:
		return int(^uint(0) >> 1)
	}
	return o.MaxRules
}

func maps(m map[string]Patterns) map[string]Patterns {
	c := make(map[string]Patterns, len(m))
	for k, v := range m {
		if v != nil {
			c[k] = v
		}
	}
	return c
}

func compile(r Rule) crule {
	// Equal conditions first: they fail fastest. The order does not change the rule's meaning.
	slices.SortStableFunc(r.Context, func(a, b Condition) int {
		return cmp.Compare(boolInt(a.Op != Equal), boolInt(b.Op != Equal))
	})
	c := crule{Rule: r, lits: r.Literals(), eqs: equalsFirst(&r), wholeOK: true}
	for _, a := range r.Transform {
		if a.Key.Sub != 0 || a.Key.RSub != 0 || a.Op == Copy && (a.From.Sub != 0 || a.From.RSub != 0) ||
			a.Op == Convert && a.Key == wholePath && a.Conv != Lower && a.Conv != Upper {
			c.wholeOK = false
		}
		if a.Op == Convert && a.Key == wholePath {
			c.convPath = true
		}
	}
	c.splice = splicePlan(&r)
	// A Copy needs its source: the rule does not apply to a URL without it.
	for _, a := range r.Transform {
		if a.Op == Copy && !slices.ContainsFunc(r.Context, func(x Condition) bool { return x.Key == a.From && x.Op != Absent }) &&
			!slices.Contains(c.needs, a.From) {
			c.needs = append(c.needs, a.From)
		}
	}
	return c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// index builds the tree of each scope. A rule with the same scope, context and transformation as
// a rule before it can never be the one that applies: it is left out of the trees and recorded
// in s.twins, for matchAll.
func (s *Set) index() {
	// Twins: rules of equal content, found by a hash of it; each is a twin of the first.
	twin := make([]bool, len(s.rules))
	s.twins = nil
	seed := maphash.MakeSeed()
	seen := make(map[uint64][]int32, len(s.rules))
	for i := range s.rules {
		h := hashContent(seed, &s.rules[i].Rule)
		for _, j := range seen[h] {
			if compareContent(&s.rules[j].Rule, &s.rules[i].Rule) == 0 {
				if s.twins == nil {
					s.twins = map[int32][]int32{}
				}
				twin[i] = true
				s.twins[j] = append(s.twins[j], int32(i))
				break
			}
		}
		if !twin[i] {
			seen[h] = append(seen[h], int32(i))
		}
	}
	lists := [2]map[string][]int32{{}, {}}
	for i := range s.rules {
		if twin[i] {
			continue
		}
		r := &s.rules[i]
		d := 0
		if r.Scope.Domain {
			d = 1
		}
		lists[d][r.Scope.Host] = append(lists[d][r.Scope.Host], int32(i))
	}
	routes := make([][]Condition, len(s.rules))
	for i := range s.rules {
		if !twin[i] {
			routes[i] = routesOf(&s.rules[i])
		}
	}
	var buf []keyStat
	s.exact, s.domain = make(map[string]*node, len(lists[0])), make(map[string]*node, len(lists[1]))
	for h, l := range lists[0] {
		s.exact[h] = build(s.rules, routes, l, nil, 0, &buf)
		prefilterTree(s.rules, s.exact[h])
	}
	s.all = s.exact[AllHosts]
	s.every = newEveryHostFilter(s.rules)
	for h, l := range lists[1] {
		s.domain[h] = build(s.rules, routes, l, nil, 0, &buf)
		prefilterTree(s.rules, s.domain[h])
	}
	s.hosts = newHostFilter(s.exact, s.domain, s.opts.Patterns)
	if !s.every.ok {
		// Any URL may match a rule of every host: every tail passes the tail test, so that the
		// quick tests of Normalize and AppendNormalize, which a tail that passes sends on to
		// gateHost, need not ask (gateHost and mayMatch then find the host, to the same answer).
		for i := range s.hosts.tails {
			s.hosts.tails[i] = ^uint64(0)
		}
	}
	s.indexSuccessors(twin)
}

// build makes the node of rules list, whose routing conditions routes gives; used holds the
// keys split on above it, weak the number of weak splits among them. It records in each rule of a leaf the conditions that the path to the
// leaf checks (crule.known).
func build(rules []crule, routes [][]Condition, list []int32, used []urlnorm.Key, weak int, buf *[]keyStat) *node {
	if len(list) <= maxLeaf {
		return leaf(rules, routes, list, used)
	}
	// For every key: how many rules have a condition on it, and whether the conditions differ.
	// Split on the key that the most rules have a condition on (a URL that fails it skips them
	// all), ties broken by key order. A key on which every rule has the same condition splits
	// nothing.
	// The stats are a slice, searched linearly while it is short and through a map of indexes
	// after that.
	stats := (*buf)[:0] // shared with the calls below, which come after the last use of stats
	var where map[urlnorm.Key]int
	for _, i := range list {
		for _, c := range routes[i] {
			if slices.Contains(used, c.Key) {
				continue
			}
			j := -1
			if where != nil {
				if k, ok := where[c.Key]; ok {
					j = k
				}
			} else {
				j = slices.IndexFunc(stats, func(st keyStat) bool { return st.first.Key == c.Key })
			}
			if j < 0 {
				j = len(stats)
				stats = append(stats, keyStat{first: c})
				if where != nil {
					where[c.Key] = j
				} else if len(stats) > 16 {
					where = make(map[urlnorm.Key]int, 2*len(stats))
					for k := range stats {
						where[stats[k].first.Key] = k
					}
				}
			}
			st := &stats[j]
			st.n++
			st.mixed = st.mixed || c != st.first
		}
	}
	var best urlnorm.Key
	bestN := 0
	for _, st := range stats {
		k := st.first.Key
		if st.n == len(list) && !st.mixed {
			continue
		}
		if st.n > bestN || st.n == bestN && compareKey(k, best) < 0 {
			best, bestN = k, st.n
		}
	}
	*buf = stats[:0]
	if bestN == 0 {
		return leaf(rules, routes, list, used)
	}
	n := &node{min: list[0], key: best}
	n.kind, n.pos = probeOf(best)
	parts := map[string][]int32{}
	var values []string
	var present, absent, rest []int32
	biggest := 0 // the largest part
	for _, i := range list {
		rs := routes[i]
		j := slices.IndexFunc(rs, func(c Condition) bool { return c.Key == best })
		switch {
		case j < 0:
			rest = append(rest, i)
		case rs[j].Op == Equal:
			if _, ok := parts[rs[j].Value]; !ok {
				values = append(values, rs[j].Value)
			}
			parts[rs[j].Value] = append(parts[rs[j].Value], i)
			biggest = max(biggest, len(parts[rs[j].Value]))
		case rs[j].Op == Any:
			present = append(present, i)
		default:
			absent = append(absent, i)
		}
	}
	// A strong split keeps a good share of the rules from every URL: the most a URL meets
	// below it is one value's part with the present ones and the rest, or the absent ones and
	// the rest, at most 15/16 of the node's rules. A weak split keeps fewer; it still pays for
	// the few rules it separates, but a path may take only maxWeakSplits of them. Without
	// that bound, rules that each have a key of their own (the best key then takes one rule)
	// make a chain of as many levels as rules, each level scanning the rules below it:
	// quadratic time to build, and a walk of the chain for every match. With it, a path has
	// at most maxWeakSplits weak and O(log n) strong splits, and each level partitions the
	// rules: building takes O(c log n) for c conditions in all.
	if reach := max(biggest+len(present), len(absent)) + len(rest); reach > len(list)-max(1, len(list)/splitGain) {
		if weak >= maxWeakSplits {
			return leaf(rules, routes, list, used)
		}
		weak++
	}
	used = append(used[:len(used):len(used)], best)
	if len(values) > maxKids {
		n.children = make(map[string]*node, len(values))
	}
	for _, v := range values {
		c := build(rules, routes, parts[v], used, weak, buf)
		if n.children != nil {
			n.children[v] = c
		} else {
			n.kids = append(n.kids, kid{v, c})
		}
	}
	if len(present) > 0 {
		n.present = build(rules, routes, present, used, weak, buf)
	}
	if len(absent) > 0 {
		n.absent = build(rules, routes, absent, used, weak, buf)
	}
	if len(rest) > 0 {
		n.rest = build(rules, routes, rest, used, weak, buf)
	}
	return n
}

// keyStat counts the rules of a node that have a routing condition on the key of first, and
// says whether their conditions differ.
type keyStat struct {
	n     int
	first Condition
	mixed bool
}

// leaf makes the leaf of rules list below the splits on the keys used. A rule reaches the leaf
// only if each of its routing conditions on a used key held in the URL (find takes the branch of
// the URL's value, present or absent only then); a context condition equal to one of them is
// known to hold.
func leaf(rules []crule, routes [][]Condition, list []int32, used []urlnorm.Key) *node {
	for _, i := range list {
		r := &rules[i]
		r.known = 0
		for _, rt := range routes[i] {
			if !slices.Contains(used, rt.Key) {
				continue
			}
			for j := range min(len(r.Context), 64) {
				if r.Context[j] == rt {
					r.known |= 1 << j
				}
			}
		}
	}
	return &node{min: list[0], leaf: list}
}

// child returns the node of the rules with an Equal condition of value val on n's key, or nil.
func (n *node) child(val string) *node {
	if n.children != nil {
		return n.children[val]
	}
	for i := range n.kids {
		if n.kids[i].value == val {
			return n.kids[i].node
		}
	}
	return nil
}

// Options returns a copy of the options the set was built or loaded with (its Patterns map is a
// copy too), for building a set like it, e.g. from a selection of its rules.
func (s *Set) Options() *Options {
	o := s.opts
	if o.Patterns != nil {
		o.Patterns = maps(o.Patterns)
	}
	return &o
}

// KeyFlags returns the flags of the urlnorm dedup key that Normalize applies to its input before
// the rules (Options.Key), or 0 for a set that takes canonical URLs. A set with a KeyFlags takes
// raw URLs: no static Normalizer belongs in front of it, and urlnorm.Chain refuses one whose
// flags go beyond these.
func (s *Set) KeyFlags() urlnorm.Flags { return s.opts.Key }

// Len returns the number of rules in the set.
func (s *Set) Len() int { return len(s.rules) }

// Rule returns the i-th rule in precedence order (0 <= i < Len()). The returned Rule shares its
// slices with the set: do not modify them.
func (s *Set) Rule(i int) Rule { return s.rules[i].Rule }

// Patterns returns the deep-token patterns of host h, or nil.
func (s *Set) Patterns(h string) Patterns { return s.patternsFor(h) }

func (s *Set) patternsFor(h string) Patterns {
	if s.opts.Patterns == nil {
		return nil
	}
	return s.opts.Patterns[h]
}

// A Set is a stage of urlnorm's normalization, and urlnorm's Normalizer is a Canonicalizer.
var (
	_ urlnorm.Stage = (*Set)(nil)
	_ Canonicalizer = (*urlnorm.Normalizer)(nil)
)

// parseDeepTokens is the default Options.ParsePatterns.
func parseDeepTokens(text []byte) (Patterns, error) {
	p, err := deeptoken.ParsePatterns(text)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// *deeptoken.Patterns are Patterns.
var _ Patterns = (*deeptoken.Patterns)(nil)

// defaultCanonicalizer is the canonicalizer of a Set whose Options name none.
var defaultCanonicalizer = urlnorm.New(urlnorm.Safe)

func (s *Set) canonicalizer() Canonicalizer {
	if s.opts.Canonicalizer != nil {
		return s.opts.Canonicalizer
	}
	return defaultCanonicalizer
}

// getScratch takes a scratch for a call: the spare if it is free, else one of the pool's or a
// new one. The call gives it back with putFast or putScratch (keep if it touched only arena and
// lay).
func (s *Set) getScratch() *scratch {
	if s.spare.state.CompareAndSwap(spareFree, spareHeld) {
		return s.spare.sc
	}
	return s.otherScratch()
}

// otherScratch is getScratch when the spare is not free: it makes the spare if there is none
// yet, else takes a scratch from the pool.
func (s *Set) otherScratch() *scratch {
	if s.spare.state.CompareAndSwap(spareNone, spareHeld) {
		s.spare.sc = &scratch{spare: true}
		return s.spare.sc
	}
	if sc, ok := s.scratch.Get().(*scratch); ok {
		return sc
	}
	return &scratch{}
}

// putScratch puts sc back after a call that may have left strings of the caller's in it (the
// reference path, Metrics, Trace).
func (s *Set) putScratch(sc *scratch) {
	// Keep no part of the caller's URLs alive in the pool. Each buffer is cut to length 0 once
	// cleared, so that the next call clears only what it used: the calls append to them from
	// length 0.
	clear(sc.v.whole)
	sc.v.whole = sc.v.whole[:0]
	sc.v.host, sc.v.treesSet, sc.v.treesHost, sc.v.walk = "", nil, "", hostWalk{}
	clear(sc.v.deepBuf)
	sc.v.deepBuf = sc.v.deepBuf[:0]
	if sc.v.oneBy != nil {
		clear(sc.v.one)
		sc.v.one, sc.v.oneOf, sc.v.oneBy = sc.v.one[:0], urlnorm.Token{}, nil
	}
	clear(sc.out[:sc.outUsed])
	sc.outUsed = 0
	clear(sc.fin)
	sc.fin = sc.fin[:0]
	clear(sc.next)
	sc.next = sc.next[:0]
	sc.joined = nil
	clear(sc.ins)
	sc.ins = sc.ins[:0]
	clear(sc.chain)
	sc.chain = sc.chain[:0]
	sc.all = sc.all[:0]
	s.keep(sc)
}

// keep gives sc back for a later call: to the spare if it is the spare, else to the pool.
func (s *Set) keep(sc *scratch) {
	if sc.spare {
		s.spare.state.Store(spareFree)
		return
	}
	s.scratch.Put(sc)
}

// putFast puts sc back after normalizeFast. That works on a copy of the URL in sc.arena: the
// strings it leaves in sc's buffers point into sc.arena and sc.conv, sc's own, or are the set's
// (rule values, index trees), so there is nothing of the caller's to clear, and the next call
// writes each buffer from length 0 before it reads it. The exceptions: the deep tokens, which
// the host's Patterns make as they like, are cleared if any were made; the token last split
// alone (view.oneToken) is forgotten; chain, which calls append to, is cut. The view keeps the index trees of its host (a copy of it: view.treesHost)
// for the next call, often of a URL of the same host.
func (s *Set) putFast(sc *scratch) {
	if len(sc.v.deepBuf) > 0 {
		clear(sc.v.deepBuf)
		sc.v.deepBuf = sc.v.deepBuf[:0]
	}
	sc.chain = sc.chain[:0]
	sc.v.walk.ok = false
	sc.inArena, sc.nextOK, sc.layOK, sc.samePlace = false, false, false, false
	// The token last split into deep tokens, and its deep tokens, point into sc.arena, which
	// the next call's key overwrites: a token of the same bytes at the same place would
	// otherwise be taken for it, with the deep tokens of what was there before.
	if sc.v.oneBy != nil {
		sc.v.one, sc.v.oneOf, sc.v.oneBy = sc.v.one[:0], urlnorm.Token{}, nil
	}
	s.keep(sc)
}

// dropScratch forgets the scratches kept for later calls, whose views may hold index trees of
// the set's content before ReadFrom replaced it.
func (s *Set) dropScratch() {
	s.scratch = sync.Pool{}
	s.spare.state.Store(spareNone)
	s.spare.sc = nil
}

// match returns the index of the rule of highest precedence whose scope and context hold in v,
// or -1. It meets only the rules filed under v's values at the anchor keys of v's host's
// buckets and the rules without a literal condition.
func (s *Set) match(v *view) int { return s.matchFrom(v, 0) }

// matchFrom is match among the rules from index from on.
func (s *Set) matchFrom(v *view, from int32) int {
	best := int32(len(s.rules))
	if n := v.hostTree; n != nil && n.min < best {
		if m := v.maskFor(0, n); n.opens(m) {
			best = s.find(n, v, m, from, best)
		}
	}
	// The trees of every host and of the domains are mostly closed by their gates: mayOpen
	// tells most of them without the mask.
	if n := s.all; n != nil && v.host != AllHosts && n.min < best && n.keys.mayOpen(v) {
		if m := v.maskFor(1, n); n.opens(m) {
			best = s.find(n, v, m, from, best)
		}
	}
	for i, n := range v.doms {
		if n.min < best && n.keys.mayOpen(v) {
			if m := v.maskFor(2+i, n); n.opens(m) {
				best = s.find(n, v, m, from, best)
			}
		}
	}
	if int(best) == len(s.rules) {
		return -1
	}
	return int(best)
}

// opens reports whether a rule of the tree rooted at n may match a URL of presence mask m: false
// if m has none of the bits of the tree's gate (keyTable.gate).
func (n *node) opens(m uint64) bool {
	return n.keys == nil || n.keys.gate == 0 || m&n.keys.gate != 0
}

// has reports whether v has the key of the inner node n, and its value if n branches by value;
// m is v's presence mask for n's tree. matchAll calls it (for Evaluate, and for applyNext once its
// first tries failed); find has the same tests inline.
func (n *node) has(v *view, m uint64) (string, bool) {
	if n.bit != 0 {
		if m&(1<<(n.bit-1)) == 0 {
			return "", false
		}
		if n.kids == nil && n.children == nil {
			return "", true
		}
	}
	switch n.kind { // the key found in place by its kind (compileProbe), else looked up
	case probePos:
		if int(n.pos) <= v.nseg {
			return v.whole[v.pathStart+int(n.pos)-1].Value, true
		}
		return "", false
	case probeRPos:
		if int(n.pos) <= v.nseg {
			return v.whole[v.pathStart+v.nseg-int(n.pos)].Value, true
		}
		return "", false
	case probeScheme:
		return v.whole[0].Value, true
	}
	return v.lookup(n.key)
}

// find returns the first rule of n's tree in [from, best) that matches v, or best; m is v's
// presence mask for the tree.
func (s *Set) find(n *node, v *view, m uint64, from, best int32) int32 {
	for n != nil && n.min < best {
		if n.leaf != nil {
			return s.first(n, v, m, from, best)
		}
		// node.has, with the mask's answer and the keys found in place inline: most inner
		// nodes need no call to learn the URL's value.
		var val string
		ok := true
		if n.bit != 0 && m>>(n.bit-1)&1 == 0 {
			ok = false
		} else {
			switch n.look {
			case lookRPos:
				if ok = int(n.pos) <= v.nseg; ok {
					val = v.whole[v.pathStart+v.nseg-int(n.pos)].Value
				}
			case lookPos:
				if ok = int(n.pos) <= v.nseg; ok {
					val = v.whole[v.pathStart+int(n.pos)-1].Value
				}
			case lookScheme:
				val = v.whole[0].Value
			case lookKey:
				val, ok = v.lookup(n.key)
			}
		}
		// A branch that is a leaf is searched here, without a call of find.
		if ok {
			if c := n.child(val); c != nil && c.min < best {
				if c.leaf != nil {
					best = s.first(c, v, m, from, best)
				} else {
					best = s.find(c, v, m, from, best)
				}
			}
			if c := n.present; c != nil && c.min < best {
				if c.leaf != nil {
					best = s.first(c, v, m, from, best)
				} else {
					best = s.find(c, v, m, from, best)
				}
			}
		} else if c := n.absent; c != nil && c.min < best {
			if c.leaf != nil {
				best = s.first(c, v, m, from, best)
			} else {
				best = s.find(c, v, m, from, best)
			}
		}
		n = n.rest
	}
	return best
}

// first returns the first rule of leaf n (ascending) in [from, best) that matches v, or best.
func (s *Set) first(n *node, v *view, m uint64, from, best int32) int32 {
	ents := n.ents
	for k := range ents {
		e := &ents[k]
		if e.i >= best {
			break
		}
		if e.i >= from && e.pass(m) && (len(e.check) == 0 || v.holdsAll(e.check)) {
			return e.i
		}
	}
	return best
}

// matchAll appends to dst the indexes of every rule whose scope and context hold in v, in
// precedence order; with twins false, it leaves out the rules equal to a rule before them
// (Set.twins).
func (s *Set) matchAll(dst []int32, v *view, twins bool) []int32 {
	n := len(dst)
	var m uint64 // the mask of the tree being visited
	add := func(leaf *node) {
		for j, i := range leaf.leaf {
			if leaf.ents[j].pass(m) && s.rules[i].matches(v) {
				dst = append(dst, i)
				if twins {
					dst = append(dst, s.twins[i]...)
				}
			}
		}
	}
	var visit func(n *node)
	visit = func(n *node) {
		for n != nil {
			if n.leaf != nil {
				add(n)
				return
			}
			if val, ok := n.has(v, m); ok {
				visit(n.child(val))
				visit(n.present)
			} else {
				visit(n.absent)
			}
			n = n.rest
		}
	}
	root := func(n *node) {
		m = v.maskOf(n, s)
		visit(n)
	}
	if b := s.exact[v.host]; b != nil {
		root(b)
	}
	if b := s.all; b != nil && v.host != AllHosts {
		root(b)
	}
	for h := v.host; len(s.domain) > 0; {
		if b := s.domain[h]; b != nil {
			root(b)
		}
		j := strings.IndexByte(h, '.')
		if j < 0 {
			break
		}
		h = h[j+1:]
	}
	slices.Sort(dst[n:])
	return dst
}

// matchSlow is the reference matcher: a linear scan over the rules from index from on, in
// precedence order.
func (s *Set) matchSlow(v *view, from int) int {
	for i := from; i < len(s.rules); i++ {
		if matchesSlow(&s.rules[i].Rule, v) {
			return i
		}
	}
	return -1
}

// Normalize rewrites u by the rule of highest precedence that matches it and changes it, then the
// result again, until no rule changes the URL or MaxRewrites rewrites were
// made; every rewritten URL goes through the set's canonicalizer. u should be the output of a
// urlnorm normalizer (rules match canonical tokens); a URL that no rule matches comes back as
// it is, without allocation.
//
// With a Key, Normalize takes a raw URL and computes its key first. A URL whose host has no
// rules (neither its own nor a domain's) and that has none of the query parameters that the
// rules of every host require costs the key and a look at its host and parameter names, no
// tokenization. Every URL met is written into one buffer of the call, so Normalize allocates
// only its result: nothing for a URL that is its own key and that the rules leave as it is, one
// string otherwise (AppendNormalize allocates nothing).
//
// If the rewrites come back to an earlier URL, Normalize returns its input (with a Key, the
// input's key: the static key) and an *Error wrapping ErrCycle; if the bound is reached, the
// last URL and ErrRewriteLimit. A
// URL that urlnorm cannot tokenize comes back unchanged with the error. Normalize satisfies
// urlnorm.Stage.
func (s *Set) Normalize(u string) (string, error) {
	if s.keyer == nil {
		if len(s.rules) == 0 || !s.mayMatch(u) {
			return u, nil
		}
		return s.normalizeScratch(u)
	}
	// The key goes straight into the arena of a scratch (the URLs of the call are written there
	// after it): a URL that no rule can match costs the key (with its layout), the gate
	// and taking and giving back the scratch, and a string only if the key is not u itself.
	sc := s.getScratch()
	b, err := s.keyer.AppendKeyLayout(sc.arena[:0], u, &sc.lay)
	sc.arena = b
	if err != nil {
		s.keep(sc) // nothing else of sc was touched
		return u, &Error{Op: "key", Input: u, Err: err}
	}
	k := bytesString(b)
	may := len(s.rules) > 0
	if may {
		i, j := sc.lay.Host()
		// The host of the scratch's last view, whose find answer the view keeps (view.treesOf
		// is hostFilter.find of view.treesHost): a key of the same host as the URL before, as
		// in a queue of one site's URLs, takes that answer if the host has rules, instead of
		// testing and finding the host again (such a host passes the tail test below).
		if v := &sc.v; v.treesSet == s && v.treesHost == k[i:j] && v.treesOf.has() {
			v.walk = v.treesOf
		} else {
			// gateLayout, with its quickest tests inlined as in AppendNormalize (which see):
			// most keys that no rule can match are known so from their host's tail and the
			// summary of their parameter names. The key is at the start of sc.arena, so the
			// tail test reads only its bytes.
			end := j < 8 || s.hosts.tailMay(le64(k[j-8:]))
			if !end && sc.lay.ParamNames()&s.every.params == 0 {
				may = false
			} else {
				sc.v.walk, may = s.gateHost(k, &sc.lay, i, j, end)
			}
		}
	}
	if !may {
		sc.v.walk.ok = false
		if k == u {
			s.keep(sc)
			return u, nil
		}
		out := string(b)
		s.keep(sc)
		return out, nil
	}
	sc.layOK = true
	return s.finish(sc, u)
}

// normalizeScratch is Normalize of u by normalizeFast, for a set without a Key.
func (s *Set) normalizeScratch(u string) (string, error) {
	sc := s.getScratch()
	sc.arena = append(sc.arena[:0], u...)
	return s.finish(sc, u)
}

// finish runs normalizeFast on u, whose key (with a Key; u without) is in sc.arena, puts sc back and
// returns a copy of the result, or u itself if the result is u.
func (s *Set) finish(sc *scratch, u string) (string, error) {
	out, err := s.normalizeFast(sc, u)
	if out != u {
		out = strings.Clone(out) // out is in sc.arena
	} else {
		out = u
	}
	s.putFast(sc)
	return out, err
}

// normalizeRef is Normalize by the reference path: the URL met at each step a string of its own,
// tokenized from it, and the result of every rewrite canonicalized from a fresh string.
func (s *Set) normalizeRef(u string) (string, error) {
	return s.normalize(u, false)
}

// normalizeSlow is normalizeRef with the reference matcher (a linear scan over every rule) instead of
// the index. It is for tests and for checking a set; it gives the same results as Normalize.
func (s *Set) normalizeSlow(u string) (string, error) {
	return s.normalize(u, true)
}

// AppendNormalize appends the result of Normalize(u) to dst and returns the extended buffer
// with Normalize's error. It does not allocate when dst has room and the result is u's key
// unchanged by the rules.
func (s *Set) AppendNormalize(dst []byte, u string) ([]byte, error) {
	// The path of a URL that no rule can match stays in this small function, with nothing
	// after the key but the gate's quickest tests: every other path is a call, so that this
	// one keeps its few values in registers.
	if s.keyer == nil {
		return s.appendNoKey(dst, u)
	}
	start := len(dst)
	var lay urlnorm.KeyLayout
	dst, err := s.keyer.AppendKeyLayout(dst, u, &lay)
	if err != nil {
		return s.appendKeyed(dst, start, u, &lay, err, true)
	}
	// The quickest tests of gateLayout, inlined: most keys that no rule can match are known so
	// from their host's tail and the summary of their parameter names. The tail test reads the
	// word of dst that ends where the host does: if the host is shorter than the word, bytes
	// before it (in the key or before it in dst) take part, as gateLayout's test allows. The
	// word's last byte tells a host that ends with '*' (AllHosts), which find must see. The
	// key is not longer than maxTokensFilter (keyMaxLen), and every key passes the tail test
	// if the rules of every host may match any URL (see index). A set without rules needs
	// no test of its own: no tail has a bit in its filter (hostFilter.tails), and its rules of
	// every host require nothing (every.ok, no names), so the key returns here or in
	// appendKeyed.
	_, j := lay.Host()
	if h := start + j; h >= 8 && !s.hosts.tailMay(binary.LittleEndian.Uint64(dst[h-8:h])) {
		if lay.ParamNames()&s.every.params == 0 {
			return dst, nil
		}
		return s.appendKeyed(dst, start, u, &lay, nil, false)
	}
	return s.appendKeyed(dst, start, u, &lay, nil, true)
}

// keyMaxLen is the length that no key of a Set's Key (urlnorm.New, with the default
// urlnorm.Options.MaxLength) exceeds; the array's length would be negative if it could
// exceed maxTokensFilter, so that a key never has more tokens than urlnorm.Tokenize takes.
var _ [maxTokensFilter - keyMaxLen]struct{}

const keyMaxLen = urlnorm.DefaultMaxLength

// appendNoKey is AppendNormalize for a set without a Key.
func (s *Set) appendNoKey(dst []byte, u string) ([]byte, error) {
	start := len(dst)
	dst = append(dst, u...)
	if len(s.rules) == 0 || !s.mayMatch(u) {
		return dst, nil
	}
	return s.appendScratch(dst, start, u, nil, hostWalk{})
}

// appendKeyed is the rest of AppendNormalize after the key dst[start:] of u with the layout lay
// and the error err of writing it, and the tail test (end) of its host.
func (s *Set) appendKeyed(dst []byte, start int, u string, lay *urlnorm.KeyLayout, err error, end bool) ([]byte, error) {
	if err != nil {
		return dst, &Error{Op: "key", Input: u, Err: err}
	}
	if len(s.rules) == 0 {
		return dst, nil
	}
	k := bytesString(dst[start:])
	if len(k) > maxTokensFilter {
		return s.appendScratch(dst, start, u, lay, hostWalk{})
	}
	i, j := lay.Host()
	w, may := s.gateHost(k, lay, i, j, end)
	if !may {
		return dst, nil
	}
	return s.appendScratch(dst, start, u, lay, w)
}

// appendScratch is AppendNormalize of u, whose key (with a Key; u without) is dst[start:], for a
// URL that mayMatch or the gate (gateLayout) let through: lay is the key's layout (nil without a Key),
// w what the gate learned of its host.
func (s *Set) appendScratch(dst []byte, start int, u string, lay *urlnorm.KeyLayout, w hostWalk) ([]byte, error) {
	sc := s.getScratch()
	sc.arena = append(sc.arena[:0], dst[start:]...)
	if lay != nil {
		sc.lay, sc.layOK, sc.v.walk = *lay, true, w
	}
	out, err := s.normalizeFast(sc, u)
	dst = append(dst[:start], out...)
	s.putFast(sc)
	return dst, err
}

func (s *Set) normalize(u string, slow bool) (string, error) {
	if s.keyer != nil {
		k, err := s.keyer.Key(u)
		if err != nil {
			return u, &Error{Op: "key", Input: u, Err: err}
		}
		u = k
	}
	if len(s.rules) == 0 {
		return u, nil
	}
	sc := s.getScratch()
	defer s.putScratch(sc)
	cur := u
	for n := 0; ; n++ {
		if err := sc.v.load(cur, s); err != nil {
			return cur, &Error{Op: "normalize", Input: cur, Err: err}
		}
		var i int
		if slow {
			i = s.matchSlow(&sc.v, 0)
		} else {
			i = s.match(&sc.v)
		}
		if i < 0 {
			return cur, nil
		}
		next, err := s.apply(sc, i, cur)
		if err != nil {
			return cur, err
		}
		if next == cur {
			// The best rule leaves the URL as it is: the next matching rule that changes it
			// applies, if any.
			next, err = s.applyNext(sc, cur, i, slow)
			if err != nil || next == "" {
				return cur, err
			}
		}
		if n == s.maxRw {
			return cur, &Error{Op: "normalize", Input: u, Err: ErrRewriteLimit}
		}
		sc.chain = append(sc.chain, cur)
		if slices.Contains(sc.chain, next) {
			// No URL of a cycle is a better key than another: the input (keyed, with a Key)
			// is one every caller can rely on, whatever URL of the cycle it entered by.
			return u, &Error{Op: "normalize", Input: u, Err: ErrCycle}
		}
		cur = next
	}
}

// incrementalTries is the number of rules that applyNext finds one by one before it finds all.
const incrementalTries = 4

// applyNext applies the first rule after rule i, in precedence order, that matches the URL in
// sc.v and changes it; it returns "" if there is none.
func (s *Set) applyNext(sc *scratch, cur string, i int, slow bool) (string, error) {
	if slow {
		for {
			i = s.matchSlow(&sc.v, i+1)
			if i < 0 {
				return "", nil
			}
			next, err := s.apply(sc, i, cur)
			if err != nil || next != cur {
				return next, err
			}
		}
	}
	// The next few matching rules are found by the pruned search of matchFrom, cheapest when
	// one of them changes the URL (the common case); after that, every matching rule is found
	// in one walk of the index: a walk for each rule tried would cost as many walks as rules
	// that leave the URL as it is.
	for range incrementalTries {
		i = s.matchFrom(&sc.v, int32(i+1))
		if i < 0 {
			return "", nil
		}
		next, err := s.apply(sc, i, cur)
		if err != nil || next != cur {
			return next, err
		}
	}
	sc.all = s.matchAll(sc.all[:0], &sc.v, false)
	j, _ := slices.BinarySearch(sc.all, int32(i+1))
	for _, k := range sc.all[j:] {
		if unchanged(&s.rules[k].Rule, &sc.v) {
			continue // certainly a no-op, known without copying the URL's tokens
		}
		next, err := s.apply(sc, int(k), cur)
		if err != nil || next != cur {
			return next, err
		}
	}
	return "", nil
}

// checkEdits, if not nil, is called after each rewrite that apply makes on whole tokens (in
// normalizeFast), with the view of cur and the scratch that holds the rewrite; for tests.
var checkEdits func(v *view, cur string, sc *scratch)

// apply rewrites the URL cur, tokenized in sc.v, by rule i and canonicalizes the result; if the
// rule changes no token, it returns cur.
//
// In normalizeFast (sc.inArena), it also leaves the tokens of the URL it returns in sc.next, with
// sc.nextOK set, when it knows them without reading the URL again: from the rewritten tokens
// when keyCleanAt says that the URL is its own key, from urlnorm's key writer when it keys the
// URL again.
func (s *Set) apply(sc *scratch, i int, cur string) (string, error) {
	sc.nextOK, sc.samePlace = false, false
	c := &s.rules[i]
	if c.splice != nil && sc.inArena && s.tokenKey {
		next, ok := "", false
		if checkSplice != nil {
			next, ok = s.applySpliceChecked(sc, i, cur)
		} else {
			next, ok = s.applySplice(sc, c, cur)
		}
		if ok {
			return next, nil
		}
	}
	return s.applyRewrite(sc, i, cur)
}

// applyRewrite is apply by the general rewrite.
func (s *Set) applyRewrite(sc *scratch, i int, cur string) (string, error) {
	sc.nextOK, sc.samePlace = false, false
	whole := sc.inArena && s.rules[i].wholeOK
	if !rewrite(&s.rules[i], &sc.v, sc, whole) {
		return cur, nil
	}
	// The canonicalizer reads the rewritten URL in place; it must not keep it, so an error
	// (which may quote it) is made again from a copy.
	var err error
	canon, mark := sc.canon[:0], 0
	if sc.inArena {
		// The result goes after the URLs met so far, which stay as they are.
		canon, mark = sc.arena, len(sc.arena)
	}
	if checkEdits != nil && whole {
		checkEdits(&sc.v, cur, sc)
	}
	clean := whole && s.tokenKey && keyCleanAt(sc.v.whole, sc.next, sc.ins, sc.touched)
	if clean {
		// The tokens show that the rewritten URL is its own key: it is written in place, with
		// its tokens (the rewritten ones, renumbered), and not read again. Without insertions,
		// the tokens that no action touched are copied from cur and its view in runs.
		var toks []urlnorm.Token
		if len(sc.ins) == 0 {
			// The rewritten tokens, in sc.next (see rewrite), become the next view's.
			if canon, toks, sc.nextOK = appendEdited(canon, cur, &sc.v, sc.next, sc.touched); sc.nextOK {
				sc.next, sc.samePlace = toks, len(toks) == len(sc.v.whole)
			} else {
				// appendJoined writes the tokens into sc.next: they are read from a copy.
				sc.fin = append(sc.fin[:0], sc.next...)
				sc.joined = sc.fin
			}
		}
		if !sc.nextOK {
			canon, sc.next, sc.nextOK = appendJoined(canon, sc.next[:0], sc.joined)
		}
		if len(canon)-mark > urlnorm.DefaultMaxLength {
			// Too long to be a key: the key writer reports it.
			sc.buf = append(sc.buf[:0], canon[mark:]...)
			canon, sc.nextOK, clean = canon[:mark], false, false
		}
	} else {
		sc.buf = urlnorm.AppendJoin(sc.buf[:0], sc.joined)
	}
	sc.clean = clean
	switch {
	case clean:
	case s.keyer != nil:
		raw := unsafe.String(unsafe.SliceData(sc.buf), len(sc.buf))
		if sc.inArena {
			// The key writer gives the layout of the key, from which its tokens are made;
			// they point into the arena.
			var l urlnorm.KeyLayout
			if c, kerr := s.keyer.AppendKeyLayout(canon, raw, &l); kerr == nil {
				toks, terr := l.AppendTokens(sc.next[:0], bytesString(c[len(canon):]))
				sc.next = toks
				if terr == nil {
					canon, sc.nextOK = c, true
				}
			}
		}
		if !sc.nextOK {
			canon, err = s.keyer.AppendKey(canon, raw)
		}
		if err != nil {
			raw := string(sc.buf)
			_, err = s.keyer.AppendKey(nil, raw)
			return "", &Error{Op: "key", Input: raw, Err: err}
		}
	default:
		c := s.canonicalizer()
		canon, err = c.AppendCanonical(canon, unsafe.String(unsafe.SliceData(sc.buf), len(sc.buf)))
		if err != nil {
			raw := string(sc.buf)
			_, err = c.AppendCanonical(nil, raw)
			return "", &Error{Op: "canonical", Input: raw, Err: err}
		}
	}
	if !sc.inArena {
		sc.canon = canon
		return string(canon), nil
	}
	next := bytesString(canon[mark:])
	if next == cur {
		// Not kept: the next result may take its place.
		sc.nextOK = false
		sc.arena = canon[:mark]
		return cur, nil
	}
	sc.arena = canon
	return next, nil
}
