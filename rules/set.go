package rules

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/undust/undust/urlnorm"
)

// DefaultMaxRewrites is the number of rewrites after which Normalize stops when Options does not
// say otherwise.
const DefaultMaxRewrites = 8

// Patterns are one host's deep-token patterns (package deeptoken): they split the tokens of the
// host's URLs into deep tokens, so that rules can address parts of a path segment or a value,
// and they write themselves as text lines for the rule file.
type Patterns interface {
	// AppendSplit appends toks to dst with the tokens that the patterns cover replaced by their
	// deep tokens (Sub and RSub set, the token's other key fields kept).
	AppendSplit(dst, toks []urlnorm.Token) []urlnorm.Token
	// AppendText appends the patterns as lines, none empty and none starting with "#".
	AppendText(dst []byte) []byte
}

// A Canonicalizer rewrites a URL to its canonical form; *urlnorm.Normalizer is one. Every URL
// that a rule writes goes through it, so that a rule's output is a canonical URL.
type Canonicalizer interface {
	AppendCanonical(dst []byte, raw string) ([]byte, error)
}

// Options configure a Set. The zero Options are the defaults.
type Options struct {
	// MaxRewrites bounds the rewrites of one URL; 0 means DefaultMaxRewrites.
	MaxRewrites int
	// Patterns maps a host (exact, as in a canonical URL) to its deep-token patterns.
	Patterns map[string]Patterns
	// ParsePatterns reads one host's patterns from the lines that AppendText wrote; the reader
	// needs it for a file with patterns.
	ParsePatterns func(text []byte) (Patterns, error)
	// Canonicalizer canonicalizes every rewritten URL; nil leaves rewritten URLs as the rules
	// write them.
	Canonicalizer Canonicalizer
}

// A Set is a rule set indexed for online matching. Build it with NewSet or read it with Load.
// A Set is immutable once built and safe for concurrent use by many goroutines, except ReadFrom,
// which replaces its content and must not run concurrently with anything else. The zero Set is
// an empty set that leaves every URL unchanged. NewSet copies the rules it is given.
type Set struct {
	rules   []crule // in precedence order: index 0 wins over every other rule
	exact   map[string]*bucket
	domain  map[string]*bucket
	opts    Options
	maxRw   int
	scratch sync.Pool
}

// crule is a rule compiled for matching.
type crule struct {
	Rule
	conds []Condition // Equal conditions first, then the others, then Any on the keys Copy reads
}

// bucket indexes the rules of one scope (an exact host or a domain). Each rule that has an Equal
// condition is filed under one of them, its anchor: the (key, value) that the fewest rules of
// the bucket share. A URL then only meets the rules filed under the values its tokens have at the
// anchor keys, and the rules without an Equal condition.
type bucket struct {
	keys   []urlnorm.Key        // the distinct anchor keys
	values []map[string][]int32 // per anchor key: value -> rule indexes, ascending
	rest   []int32              // rules with no Equal condition, ascending
	count  map[anchor]int       // build-time only
	rules  []int32              // build-time only
	_      [0]func()            // not comparable
}

type anchor struct {
	key   urlnorm.Key
	value string
}

// scratch holds the buffers of one Normalize call.
type scratch struct {
	v     view
	out   []urlnorm.Token
	fin   []urlnorm.Token
	ins   []insertion
	buf   []byte
	canon []byte
	chain []string
	all   []int32
}

// NewSet builds a Set from rules. It copies them, rejects an invalid one with an *Error
// that wraps ErrInvalidRule and names the rule's index, and orders them by precedence: more
// literal conditions first, then higher precision, coverage and support, exact-host scope before
// domain scope, then text. A nil opts means the defaults. A query key's occurrence Pos 0 is
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
	cr := make([]crule, len(rules))
	text := make([]string, len(rules))
	for i := range rules {
		r := rules[i].clone()
		normalizeRule(&r)
		if err := r.Validate(); err != nil {
			if lines != nil {
				return &ParseError{Line: lines[i], Text: r.String(), Err: err}
			}
			return &Error{Op: "rule " + strconv.Itoa(i), Input: r.String(), Err: err}
		}
		cr[i] = compile(r)
		text[i] = r.String()
	}
	order := make([]int, len(cr))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		return before(&cr[a].Rule, &cr[b].Rule, text[a], text[b])
	})
	s.rules = make([]crule, len(cr))
	for i, j := range order {
		s.rules[i] = cr[j]
	}
	s.opts = o
	s.maxRw = o.MaxRewrites
	if s.maxRw <= 0 {
		s.maxRw = DefaultMaxRewrites
	}
	s.index()
	return nil
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
	c := crule{Rule: r}
	for _, x := range r.Context {
		if x.Op == Equal {
			c.conds = append(c.conds, x)
		}
	}
	for _, x := range r.Context {
		if x.Op != Equal {
			c.conds = append(c.conds, x)
		}
	}
	// A Copy needs its source: the rule does not apply to a URL without it.
	for _, a := range r.Transform {
		if a.Op == Copy && !slices.ContainsFunc(c.conds, func(x Condition) bool { return x.Key == a.From && x.Op != Absent }) {
			c.conds = append(c.conds, Condition{Key: a.From, Op: Any})
		}
	}
	return c
}

// index files every rule in the bucket of its scope under its anchor.
func (s *Set) index() {
	s.exact, s.domain = map[string]*bucket{}, map[string]*bucket{}
	for i := range s.rules {
		r := &s.rules[i]
		m := s.exact
		if r.Scope.Domain {
			m = s.domain
		}
		b := m[r.Scope.Host]
		if b == nil {
			b = &bucket{count: map[anchor]int{}}
			m[r.Scope.Host] = b
		}
		b.rules = append(b.rules, int32(i))
		for _, c := range r.Context {
			if c.Op == Equal {
				b.count[anchor{c.Key, c.Value}]++
			}
		}
	}
	for _, m := range []map[string]*bucket{s.exact, s.domain} {
		for _, b := range m {
			s.fill(b)
		}
	}
}

func (s *Set) fill(b *bucket) {
	keyUse := map[urlnorm.Key]int{}
	for a, n := range b.count {
		keyUse[a.key] += n
	}
	slot := map[urlnorm.Key]int{}
	for _, i := range b.rules {
		r := &s.rules[i]
		best, bestN := -1, 0
		for j, c := range r.Context {
			if c.Op != Equal {
				continue
			}
			n := b.count[anchor{c.Key, c.Value}]
			if best < 0 || n < bestN || n == bestN && betterKey(c.Key, r.Context[best].Key, keyUse) {
				best, bestN = j, n
			}
		}
		if best < 0 {
			b.rest = append(b.rest, i)
			continue
		}
		c := r.Context[best]
		k, ok := slot[c.Key]
		if !ok {
			k = len(b.keys)
			slot[c.Key] = k
			b.keys = append(b.keys, c.Key)
			b.values = append(b.values, map[string][]int32{})
		}
		b.values[k][c.Value] = append(b.values[k][c.Value], i)
	}
	b.count, b.rules = nil, nil
}

// betterKey prefers, between two equally selective anchors, the key more rules share (fewer
// distinct keys to probe), then the smaller key text, so the choice is deterministic.
func betterKey(a, b urlnorm.Key, use map[urlnorm.Key]int) bool {
	if use[a] != use[b] {
		return use[a] > use[b]
	}
	return keyText(a) < keyText(b)
}

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

func (s *Set) getScratch() *scratch {
	if sc, ok := s.scratch.Get().(*scratch); ok {
		return sc
	}
	return &scratch{}
}

func (s *Set) putScratch(sc *scratch) {
	clear(sc.chain)
	sc.chain = sc.chain[:0]
	s.scratch.Put(sc)
}

// match returns the index of the rule of highest precedence whose scope and context hold in v,
// or -1. It meets only the rules filed under v's values at the anchor keys of v's host's
// buckets and the rules without a literal condition.
func (s *Set) match(v *view) int {
	best := int32(len(s.rules))
	if b := s.exact[v.host]; b != nil {
		best = s.matchBucket(b, v, best)
	}
	if len(s.domain) > 0 {
		for h := v.host; ; {
			if b := s.domain[h]; b != nil {
				best = s.matchBucket(b, v, best)
			}
			j := strings.IndexByte(h, '.')
			if j < 0 {
				break
			}
			h = h[j+1:]
		}
	}
	if int(best) == len(s.rules) {
		return -1
	}
	return int(best)
}

func (s *Set) matchBucket(b *bucket, v *view, best int32) int32 {
	for k, key := range b.keys {
		val, ok := v.lookup(key)
		if !ok {
			continue
		}
		best = s.first(b.values[k][val], v, best)
	}
	return s.first(b.rest, v, best)
}

// first returns the first rule of list (ascending) below best that matches v, or best.
func (s *Set) first(list []int32, v *view, best int32) int32 {
	for _, i := range list {
		if i >= best {
			break
		}
		if s.rules[i].matches(v) {
			return i
		}
	}
	return best
}

// matchAll appends to dst the indexes of every rule whose scope and context hold in v, in
// precedence order.
func (s *Set) matchAll(dst []int32, v *view) []int32 {
	n := len(dst)
	add := func(list []int32) {
		for _, i := range list {
			if s.rules[i].matches(v) {
				dst = append(dst, i)
			}
		}
	}
	visit := func(b *bucket) {
		for k, key := range b.keys {
			if val, ok := v.lookup(key); ok {
				add(b.values[k][val])
			}
		}
		add(b.rest)
	}
	if b := s.exact[v.host]; b != nil {
		visit(b)
	}
	for h := v.host; len(s.domain) > 0; {
		if b := s.domain[h]; b != nil {
			visit(b)
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
// If the rewrites come back to an earlier URL, Normalize stops with the last URL and an
// *Error wrapping ErrCycle; if the bound is reached, with the last URL and ErrRewriteLimit. A
// URL that urlnorm cannot tokenize comes back unchanged with the error. Normalize satisfies
// urlnorm.Stage.
func (s *Set) Normalize(u string) (string, error) {
	return s.normalize(u, false)
}

// normalizeSlow is Normalize with the reference matcher (a linear scan over every rule) instead of
// the index. It is for tests and for checking a set; it gives the same results as Normalize.
func (s *Set) normalizeSlow(u string) (string, error) {
	return s.normalize(u, true)
}

// AppendNormalize appends the result of Normalize(u) to dst and returns the extended buffer
// with Normalize's error.
func (s *Set) AppendNormalize(dst []byte, u string) ([]byte, error) {
	out, err := s.Normalize(u)
	return append(dst, out...), err
}

func (s *Set) normalize(u string, slow bool) (string, error) {
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
		next, err := s.apply(sc, i)
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
			return next, &Error{Op: "normalize", Input: u, Err: ErrCycle}
		}
		cur = next
	}
}

// applyNext applies the first rule after rule i, in precedence order, that matches the URL in
// sc.v and changes it; it returns "" if there is none.
func (s *Set) applyNext(sc *scratch, cur string, i int, slow bool) (string, error) {
	if slow {
		for {
			i = s.matchSlow(&sc.v, i+1)
			if i < 0 {
				return "", nil
			}
			next, err := s.apply(sc, i)
			if err != nil || next != cur {
				return next, err
			}
		}
	}
	sc.all = s.matchAll(sc.all[:0], &sc.v)
	for _, j := range sc.all {
		if int(j) <= i {
			continue
		}
		next, err := s.apply(sc, int(j))
		if err != nil || next != cur {
			return next, err
		}
	}
	return "", nil
}

// apply rewrites the URL in sc.v by rule i and canonicalizes the result.
func (s *Set) apply(sc *scratch, i int) (string, error) {
	sc.buf = rewrite(sc.buf[:0], &s.rules[i].Rule, &sc.v, sc)
	if s.opts.Canonicalizer == nil {
		return string(sc.buf), nil
	}
	// The canonicalizer reads the rewritten URL in place; it must not keep it, so an error
	// (which may quote it) is made again from a copy.
	var err error
	sc.canon, err = s.opts.Canonicalizer.AppendCanonical(sc.canon[:0], unsafe.String(unsafe.SliceData(sc.buf), len(sc.buf)))
	if err != nil {
		raw := string(sc.buf)
		_, err = s.opts.Canonicalizer.AppendCanonical(nil, raw)
		return "", &Error{Op: "canonical", Input: raw, Err: err}
	}
	return string(sc.canon), nil
}
