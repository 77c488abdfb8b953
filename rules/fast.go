package rules

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/undust/undust/urlnorm"
)

// The fast path of Normalize. It gives the results of the reference path (normalize, the
// string path: a string per URL met, the result of every rewrite canonicalized from a fresh
// string) with these differences in cost:
//
//   - The static key and every rewritten URL are written into one buffer of the call's scratch
//     (an arena that only grows during the call), so the URLs met are strings into it; only the
//     result is copied out, once (none for AppendNormalize).
//   - A URL that no rule can match (its host has no rules, and no rule of every host finds its
//     query parameter) is known so from the host and the query's names, before it is tokenized.
//     With a Key, the key writer tells where the host and the query are (urlnorm.KeyLayout):
//     the filter does not look for them, and the first view's tokens are made from the layout
//     (only past the filter), without reading the key again; the view finds the index trees of
//     its host going on from the filter's hashes of the host's labels (hostWalk).
//   - A rewritten URL that keeps a host with rules goes to the matcher without the filter.
//   - A URL that a rule wrote and that is its own key token for token (keyClean) is matched
//     against that rule's successors only (the rules that what the rule writes may match, see
//     succ.go), not the index; with none that its tokens may meet, it is final before it has a
//     view.
//   - The host's deep-token split is made only when a deep key is read (view.deepTokens).
//   - A rewritten URL is not tokenized again: its view is built from the tokens of the rewrite,
//     renumbered (appendJoined, which writes the URL in the same pass), when keyClean shows that
//     it is its own key, or from the tokens that urlnorm's key writer gives with its key
//     (AppendKeyLayout and its AppendTokens) when it is keyed again; a view keeps the index trees of its host when
//     the host is that of the view before.

// everyHostFilter is what mayMatch knows of the rules of every host: the query parameter
// names of which each such rule requires one present. ok is false when some rule of every host
// requires no query parameter, so that only tokenizing tells.
type everyHostFilter struct {
	ok bool
	// bloom has the bit nameBit of each name set, so that has answers most names that are not
	// among them with one test.
	bloom [4]uint64
	names []string        // up to maxKids names, scanned
	set   map[string]bool // more names
}

// newEveryHostFilter makes the filter of the rules of every host among rs.
func newEveryHostFilter(rs []crule) everyHostFilter {
	f := everyHostFilter{ok: true}
	seen := map[string]bool{}
	for i := range rs {
		r := &rs[i]
		if r.Scope.Domain || r.Scope.Host != AllHosts {
			continue
		}
		name, found := "", false
		for _, c := range r.Context {
			// A condition that a query key be present or have a value requires the parameter of
			// that name, whatever its occurrence or deep index.
			if c.Key.Part == urlnorm.PartQuery && (c.Op == Equal || c.Op == Any) {
				name, found = c.Key.Name, true
				break
			}
		}
		if !found {
			return everyHostFilter{}
		}
		seen[name] = true
		b := nameBit(name)
		f.bloom[b>>6] |= 1 << (b & 63)
	}
	if len(seen) > maxKids {
		f.set = seen
		return f
	}
	for n := range seen {
		f.names = append(f.names, n)
	}
	return f
}

// nameBit is the bit of everyHostFilter.bloom for a parameter name: of its length and its first
// and last bytes.
func nameBit(name string) uint8 {
	b := uint8(len(name)) * 37
	if len(name) > 0 {
		b += name[0] ^ name[len(name)-1]<<3
	}
	return b
}

// has reports whether name is one of the filter's names.
func (f *everyHostFilter) has(name string) bool {
	if b := nameBit(name); f.bloom[b>>6]&(1<<(b&63)) == 0 {
		return false
	}
	if f.set != nil {
		return f.set[name]
	}
	for _, n := range f.names {
		if n == name {
			return true
		}
	}
	return false
}

// mayMatch reports whether a rule of s may match the URL u, which has the shape that
// urlnorm.Tokenize takes; false means that match certainly finds no rule, true that it may.
// It reads the host and the query's parameter names, without tokenizing u.
func (s *Set) mayMatch(u string) bool { return s.mayMatchIn(u, false) }

// mayMatchKey is mayMatch of u, a key that a urlnorm.Normalizer made (s.keyer): its port, if
// any, is a number of at most five digits (see TestMayMatchKeyPort). Normalize uses
// mayMatchLayout, which knows where the key's parts are; mayMatchKey, which reads the key, is
// its reference in the tests.
func (s *Set) mayMatchKey(u string) bool { return s.mayMatchIn(u, true) }

// mayMatchIn is mayMatch of u, a key of a urlnorm.Normalizer if key is set.
func (s *Set) mayMatchIn(u string, key bool) bool {
	// A URL that Tokenize may refuse (too many tokens) takes the full path, which reports it.
	if len(u) > maxTokensFilter {
		return true
	}
	// The scheme ends at the first "://", as urlnorm.Tokenize has it: in a key, at the first ':'
	// (http and https, the schemes of nearly every key, tested first).
	var rest string
	switch {
	case len(u) >= 8 && u[:8] == "https://":
		rest = u[8:]
	case len(u) >= 7 && u[:7] == "http://":
		rest = u[7:]
	default:
		i := strings.IndexByte(u, ':')
		if i <= 0 || len(u) < i+3 || u[i+1] != '/' || u[i+2] != '/' {
			if i = strings.Index(u, "://"); i <= 0 {
				return true
			}
		}
		rest = u[i+3:]
	}
	end := strings.IndexByte(rest, '/')
	if end < 0 {
		return true
	}
	// The authority's last bytes are its host's unless it has a port: most hosts without
	// rules are known so from them, without finding the host in the authority. In a key,
	// the ':' of a port is among the last eight bytes of the authority.
	host := rest[:end]
	var port bool
	if key && len(host) >= 8 {
		port = zeroBytes(le64(host[len(host)-8:])^':'*lowBytes) != 0
	} else {
		port = strings.IndexByte(host, ':') >= 0
	}
	if port || s.hosts.mayEndIn(host) {
		if strings.IndexByte(host, '@') >= 0 {
			host = host[strings.LastIndexByte(host, '@')+1:]
		}
		// The host ends at the port's ':', unless that ':' is inside an IPv6 literal's
		// brackets (as urlnorm.Tokenize splits it).
		if strings.IndexByte(host, ':') >= 0 {
			if c := strings.LastIndexByte(host, ':'); strings.IndexByte(host[c:], ']') < 0 {
				host = host[:c]
			}
		}
		if s.hosts.mayHave(host) {
			return true
		}
		if host == AllHosts {
			return false
		}
	}
	if s.all == nil {
		return false
	}
	if !s.every.ok {
		return true
	}
	rest = rest[end:]
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return false // no query
	}
	// The query ends at a '#'. Past it, and if the '?' is in the fragment, names are read that
	// are no parameters: that only costs the full path.
	return s.queryMayMatch(rest[q+1:])
}

// mayMatchLayout is mayMatchKey of u, a key that s.keyer wrote with the layout l: it finds the
// host and the query from l instead of reading u. If it lets u through for its host, it fills
// w (if not nil) for view.index.
func (s *Set) mayMatchLayout(u string, l urlnorm.KeyLayout, w *hostWalk) bool {
	if len(u) > maxTokensFilter {
		return true
	}
	i, j := l.Host()
	host := u[i:j]
	if s.hosts.mayEndIn(host) && s.hosts.mayHaveWalk(host, w) {
		return true
	}
	if host == AllHosts || s.all == nil {
		return false
	}
	if !s.every.ok {
		return true
	}
	if i, j = l.Query(u); i < 0 {
		return false // no query
	}
	return s.queryMayMatch(u[i:j])
}

// queryMayMatch reports whether a parameter name of query, the part of a URL after its '?'
// (it stops at a '#'), may be one that every rule for all hosts needs (s.every); false is
// certain.
func (s *Set) queryMayMatch(query string) bool {
	for {
		// The parameter's name ends at its first '=', '&' or '#'; its value at the next '&'.
		n := 0
		for n < len(query) && query[n] != '=' && query[n] != '&' && query[n] != '#' {
			n++
		}
		if s.every.has(query[:n]) {
			return true
		}
		if n < len(query) && query[n] == '#' {
			return false
		}
		if n < len(query) && query[n] == '=' {
			j := strings.IndexByte(query[n:], '&')
			if j < 0 {
				return false
			}
			n += j
		}
		if n == len(query) {
			return false
		}
		query = query[n+1:]
	}
}

// lowBytes has the low bit of each byte set: c*lowBytes is the word of eight bytes c.
const lowBytes = 0x0101010101010101

// zeroBytes returns w with the high bit set of each byte that is zero in w, and no other bit.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// hostFilter holds a hash of every host that has rules of its own (exact scope) or deep-token
// patterns and of every domain that has rules (domain scope), in an open-addressing table, so
// that mayMatch learns with one pass over a host, right to left, that neither the host nor any
// domain it is in has rules, and view.load finds the index trees and patterns of the host and its
// domains in the same pass, without a map lookup. Most hosts without rules are known so sooner:
// by their last bytes (mayEndIn), or by the first suffix that no name ends with (mayHave). A
// hash that collides makes mayEndIn or mayHave answer true, which only costs the full path. Its
// zero value has no hosts.
type hostFilter struct {
	slots []uint64 // 0: empty; a host's hash with its low bit clear, a domain's with it set
	ents  []hostEnt
	shift uint8
	// bits has a bit set (by the hash's top bits, whatever its low bit) for the hash of each
	// suffix after a dot of each host and domain in slots, the whole name included, so that
	// mayHave stops at the first suffix of a host that ends no name in slots, and get answers
	// most hashes not in slots with one well-predicted test instead of a probe; nil if slots is.
	bits *[filterWords]uint64
	// tails has the bit tailBit of the tail of each name in slots but AllHosts: its last
	// tailLen bytes, tailLen being the length of the shortest such name, at most 8 (0 if a name
	// is empty), so that mayEndIn learns from a host's last bytes alone that it is none of the
	// names and in none of the domains; nil if slots is.
	tails   *[filterWords]uint64
	tailLen int
}

// hostEnt is what hostFilter holds of a host or domain: its name, its index tree and (a host's)
// deep-token patterns.
type hostEnt struct {
	name string
	tree *node
	pat  Patterns
}

// filterWords is the size of hostFilter.bits in words: 4096 bits.
const filterWords = 64

// newHostFilter makes the filter of the hosts and domains with rules, and of the hosts with
// patterns.
func newHostFilter(exact, domain map[string]*node, pats map[string]Patterns) hostFilter {
	n := len(exact) + len(domain) + len(pats)
	if n == 0 {
		return hostFilter{}
	}
	bits := 3
	for 1<<bits < 2*n {
		bits++
	}
	f := hostFilter{slots: make([]uint64, 1<<bits), ents: make([]hostEnt, 1<<bits), shift: uint8(64 - bits), bits: new([filterWords]uint64), tails: new([filterWords]uint64), tailLen: 8}
	for _, m := range []map[string]*node{exact, domain} {
		for h := range m {
			if h != AllHosts {
				f.tailLen = min(f.tailLen, len(h))
			}
		}
	}
	for h := range pats {
		if h != AllHosts {
			f.tailLen = min(f.tailLen, len(h))
		}
	}
	for h, t := range exact {
		f.add(h, suffixHash(h)&^1, hostEnt{name: h, tree: t, pat: pats[h]})
	}
	for h, p := range pats {
		if exact[h] == nil {
			f.add(h, suffixHash(h)&^1, hostEnt{name: h, pat: p})
		}
	}
	for h, t := range domain {
		f.add(h, suffixHash(h)|1, hostEnt{name: h, tree: t})
	}
	return f
}

// suffixHash is the hash that mayHave computes of a whole host (see labelHash), with its top
// bit set so that it is never 0.
func suffixHash(h string) uint64 {
	x := uint64(hashSeed)
	for j := len(h); ; {
		i := strings.LastIndexByte(h[:j], '.') + 1
		x = labelHash(x, h, i, j)
		if i == 0 {
			return x | 1<<63
		}
		j = i - 1
	}
}

// labelHash mixes the label h[i:j] into x, the hash of the labels after it: a host's hash is
// made label by label from the last, so that the hash of each suffix after a dot is met on the
// way. It reads the label eight bytes at a time, not byte by byte.
func labelHash(x uint64, h string, i, j int) uint64 {
	for ; j-i > 8; i += 8 {
		x = mixHash(x ^ le64(h[i:]))
	}
	var w uint64
	switch n := j - i; {
	case n == 8:
		w = le64(h[i:])
	case n == 0:
	case i+8 <= len(h):
		w = le64(h[i:]) & (1<<(8*n) - 1)
	case j >= 8:
		w = le64(h[j-8:]) >> (8 * (8 - n))
	default:
		for k := j - 1; k >= i; k-- {
			w = w<<8 | uint64(h[k])
		}
	}
	return mixHash(x ^ w ^ uint64(j-i)<<56)
}

func mixHash(x uint64) uint64 {
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>31
}

// le64 is the little-endian word of the first eight bytes of s.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const hashSeed = 14695981039346656037

// add files e, named h, under its hash x, and sets the bits of the suffixes and the tail of h.
func (f *hostFilter) add(h string, x uint64, e hostEnt) {
	if h != AllHosts && f.tailLen > 0 {
		b := tailBit(tailWord(h, f.tailLen))
		f.tails[b>>6] |= 1 << (b & 63)
	}
	y := uint64(hashSeed)
	for j := len(h); ; {
		i := strings.LastIndexByte(h[:j], '.') + 1
		y = labelHash(y, h, i, j)
		b := f.bit(y)
		f.bits[b>>6] |= 1 << (b & 63)
		if i == 0 {
			break
		}
		j = i - 1
	}
	mask := uint64(len(f.slots) - 1)
	for i := (x * 0x9e3779b97f4a7c15) >> f.shift; ; i = (i + 1) & mask {
		if f.slots[i] == 0 {
			f.slots[i], f.ents[i] = x, e
			return
		}
	}
}

// bit is the bit of hash x in bits, the same whatever x's top and low bits.
func (f *hostFilter) bit(x uint64) uint64 {
	return ((x | 1<<63 | 1) * 0x9e3779b97f4a7c15) >> 52
}

// mayEnd reports whether some host or domain in f may be x's suffix or end with it, x being
// the hash of a suffix of a host after a dot; false is certain.
func (f *hostFilter) mayEnd(x uint64) bool {
	b := f.bit(x)
	return f.bits[b>>6]&(1<<(b&63)) != 0
}

// get returns the entry of hash x and name name, or nil.
func (f *hostFilter) get(x uint64, name string) *hostEnt {
	if !f.mayEnd(x) {
		return nil
	}
	mask := uint64(len(f.slots) - 1)
	for i := (x * 0x9e3779b97f4a7c15) >> f.shift; ; i = (i + 1) & mask {
		switch f.slots[i] {
		case x:
			if f.ents[i].name == name {
				return &f.ents[i]
			}
		case 0:
			return nil
		}
	}
}

// trees finds the index trees of host and of the domains it is in, and host's patterns, in one
// pass over host: it returns the host's entry (nil if it has neither rules nor patterns) and
// appends the trees of its domains to doms, longest domain first.
func (f *hostFilter) trees(host string, doms []*node) (*hostEnt, []*node) {
	if len(f.slots) == 0 {
		return nil, doms
	}
	return f.treesFrom(host, doms, len(doms), hashSeed, len(host)+1)
}

// treesWalk is trees of host, which mayHave passed with the walk w: it goes on from where
// mayHave stopped instead of hashing host's labels again.
func (f *hostFilter) treesWalk(host string, doms []*node, w *hostWalk) (*hostEnt, []*node) {
	n := len(doms)
	if w.dom != nil {
		doms = append(doms, w.dom.tree)
	}
	return f.treesFrom(host, doms, n, w.x, w.k)
}

// treesFrom is trees of host from the state of a pass that has hashed host[k:] into x (k =
// len(host)+1: nothing hashed yet) and appended to doms[n:] the trees of the domains among the
// suffixes hashed.
func (f *hostFilter) treesFrom(host string, doms []*node, n int, x uint64, k int) (*hostEnt, []*node) {
	if k > 0 {
		for j := k - 1; ; {
			i := strings.LastIndexByte(host[:j], '.') + 1
			x = labelHash(x, host, i, j)
			if i == 0 {
				break
			}
			if e := f.get(x|1<<63|1, host[i:]); e != nil {
				doms = append(doms, e.tree)
			}
			j = i - 1
		}
	}
	x |= 1 << 63
	if e := f.get(x|1, host); e != nil {
		doms = append(doms, e.tree)
	}
	slices.Reverse(doms[n:])
	return f.get(x&^1, host), doms
}

// hostWalk is where hostFilter.mayHave stopped on a host that it let through (ok), so that
// trees need not hash the host's labels again: x is the hash of host[k:], every suffix of host
// shorter than host[k:] that follows a dot is no domain with rules, and dom is the entry of the
// domain host[k:] if mayHave stopped at it (k > 0), else nil (k = 0: the whole host is hashed).
type hostWalk struct {
	x   uint64
	k   int
	dom *hostEnt
	ok  bool
}

// mayEndIn reports whether the host that s ends with, s being an authority without a port (the
// host, after a userinfo if any), may have rules of its own or be in a domain with rules (may be
// a name in f or end with "." and a domain in f); false is certain. A host that does ends with
// that name's tail, and so does s: s's tail is the host's, or the host is shorter than the tail
// and so than every name.
func (f *hostFilter) mayEndIn(s string) bool {
	if len(f.slots) == 0 {
		return false
	}
	n := f.tailLen
	if n == 0 || len(s) > 0 && s[len(s)-1] == '*' {
		return true // an empty name, or AllHosts
	}
	var w uint64
	switch {
	case len(s) >= 8:
		w = le64(s[len(s)-8:]) >> ((64 - 8*n) & 63)
	case len(s) >= n:
		w = tailWord(s, n)
	default:
		return false // shorter than every name
	}
	b := tailBit(w)
	return f.tails[b>>6]&(1<<(b&63)) != 0
}

// tailWord is the little-endian word of the last n bytes of s, n <= min(8, len(s)).
func tailWord(s string, n int) uint64 {
	var w uint64
	for k := len(s) - 1; k >= len(s)-n; k-- {
		w = w<<8 | uint64(s[k])
	}
	return w
}

// tailBit is the bit of hostFilter.tails of the tail w.
func tailBit(w uint64) uint64 {
	return (w * 0x9e3779b97f4a7c15) >> 52
}

// mayHave reports whether host may have rules of its own or be in a domain with rules (as
// Set.matchFrom looks them up: the host, then each suffix after a dot); false is certain. It
// reads host from the right and stops at the first suffix that no host or domain with rules
// ends with: most hosts without rules cost one or two labels.
func (f *hostFilter) mayHave(host string) bool { return f.mayHaveWalk(host, nil) }

// mayHaveWalk is mayHave; if it returns true and w is not nil, it fills w.
func (f *hostFilter) mayHaveWalk(host string, w *hostWalk) bool {
	if len(f.slots) == 0 {
		return false
	}
	x := uint64(hashSeed)
	for j := len(host); ; {
		i := strings.LastIndexByte(host[:j], '.') + 1
		x = labelHash(x, host, i, j)
		if !f.mayEnd(x) {
			return false // no name ends with host[i:], so none is host or a domain it is in
		}
		y := x | 1<<63
		if i == 0 {
			if f.get(y&^1, host) == nil && f.get(y|1, host) == nil {
				return false
			}
			if w != nil {
				*w = hostWalk{x: x, ok: true}
			}
			return true
		}
		if e := f.get(y|1, host[i:]); e != nil {
			if w != nil {
				*w = hostWalk{x: x, k: i, dom: e, ok: true}
			}
			return true // the domain host[i:]
		}
		j = i - 1
	}
}

// maxTokensFilter is the length of a URL up to which it cannot have more path segments or query
// parameters than urlnorm.Tokenize takes (32767).
const maxTokensFilter = 1<<15 - 1

// bytesString returns the bytes of b as a string, without copying: b must not change while
// the string is in use.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// normalizeFast is Normalize (the fast path described above) of u, whose key (with a Key; u
// itself without) is in sc.arena, for a URL that mayMatch did not turn away. The string it
// returns may point into sc.arena: the caller copies it before it puts sc back.
func (s *Set) normalizeFast(sc *scratch, u string) (string, error) {
	in := u
	if s.keyer != nil {
		in = bytesString(sc.arena)
	}
	sc.inArena, sc.nextOK, sc.conv = true, false, sc.conv[:0]
	defer func() { sc.inArena, sc.nextOK, sc.layOK = false, false, false }()
	cur := in
	// succ, if not nil, has the successors of the rule that wrote cur without the key writer:
	// the only rules that may match cur.
	var succ *succList
	for n := 0; ; n++ {
		if succ != nil && s.final(succ, sc.next) {
			return cur, nil // no rule can match what the last rule wrote
		}
		// A rewrite that keeps a host with rules may match again: only a new host needs the
		// filter (not needed with successors, which know the rules of the host).
		if n > 0 && succ == nil {
			if sc.nextOK && sc.v.hostHas && tokensHost(sc.next) == sc.v.host {
				if checkHostKept != nil {
					checkHostKept(s, cur)
				}
			} else if !s.mayMatch(cur) {
				return cur, nil // a rewrite to a host without rules, often
			}
		}
		if n > 0 && sc.nextOK {
			// apply knows the tokens of cur: no need to tokenize it.
			sc.v.whole, sc.next = sc.next, sc.v.whole
			sc.nextOK = false
			sc.v.index(s)
			if checkTokenView != nil {
				checkTokenView(&sc.v, cur)
			}
		} else if n == 0 && sc.layOK {
			// The key's layout gives its tokens without reading it again.
			var err error
			if sc.v.whole, err = sc.lay.AppendTokens(sc.v.whole[:0], cur); err != nil {
				return cur, &Error{Op: "normalize", Input: strings.Clone(cur), Err: err}
			}
			sc.v.index(s)
			if checkTokenView != nil {
				checkTokenView(&sc.v, cur)
			}
		} else if err := sc.v.load(cur, s); err != nil {
			return cur, &Error{Op: "normalize", Input: strings.Clone(cur), Err: err}
		}
		var i, k int
		if succ != nil {
			if k = s.matchSucc(&sc.v, succ.ents, 0); k >= 0 {
				i = int(succ.ents[k].j)
			} else {
				i = -1
			}
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
			if succ != nil {
				next, err = s.applyNextSucc(sc, cur, succ.ents, k)
			} else {
				next, err = s.applyNext(sc, cur, i, false)
			}
			if err != nil || next == "" {
				return cur, err
			}
			succ = nil
		} else {
			succ = s.cleanSucc(sc, i)
		}
		if n == s.maxRw {
			return cur, &Error{Op: "normalize", Input: strings.Clone(in), Err: ErrRewriteLimit}
		}
		sc.chain = append(sc.chain, cur)
		for _, c := range sc.chain {
			if c == next {
				return in, &Error{Op: "normalize", Input: strings.Clone(in), Err: ErrCycle}
			}
		}
		cur = next
	}
}

// cleanSucc returns the successors of rule i, which has just rewritten the URL of sc.v, if the
// rewrite took apply's keyClean path (the result's tokens are the rewritten ones), else nil.
func (s *Set) cleanSucc(sc *scratch, i int) *succList {
	if s.succ == nil || !sc.clean || s.succ[i].full {
		return nil
	}
	return &s.succ[i]
}

// applyNextSucc is applyNext among the successors ents of the rule that wrote cur, the first
// of which that matches cur is ents[k].
func (s *Set) applyNextSucc(sc *scratch, cur string, ents []succ, k int) (string, error) {
	for {
		if k = s.matchSucc(&sc.v, ents, k+1); k < 0 {
			return "", nil
		}
		next, err := s.apply(sc, int(ents[k].j), cur)
		if err != nil || next != cur {
			return next, err
		}
	}
}

// tokensHost returns the host of the tokens toks (as urlnorm.Tokenize gives them: the host
// comes after the scheme and the userinfo, if any), or "" if they have none.
func tokensHost(toks []urlnorm.Token) string {
	for i := range toks {
		if toks[i].Part == urlnorm.PartHost {
			return toks[i].Value
		}
	}
	return ""
}

// tokenKeyFlags are the urlnorm flags whose effect keyClean knows: those of urlnorm.Crawler and
// DropUserinfo. A set whose Key has another flag (FoldWWW, DropIndex, LowercasePath, ...) has
// every rewritten URL keyed again from its text.
const tokenKeyFlags = urlnorm.Crawler | urlnorm.DropUserinfo

// keyClean reports whether the URL that the tokens out and the insertions ins spell is its own
// key under tokenKeyFlags, given that orig, the tokens of a key that out was copied from (token
// for token: a deleted token has Part 0), spell a key. It answers false, "read it again", for
// anything it does not check. A key stays a key when the changes are:
//   - deleted port, userinfo, path segments or query parameters: what is left is canonical,
//     and the query stays sorted;
//   - a path segment set or inserted to unreserved characters (RFC 3986 section 2.3) that are not
//     "." or "..": nothing to escape, decode or resolve;
//   - a host set to lower-case LDH labels that IDNA and the IPv4 parser leave as they are;
//   - a scheme set to http or https, with no port left to be a default one.
//
// A query parameter set or added, a fragment, a port or a userinfo set are not checked: the
// first may become a session id or an empty parameter, the others are rare.
func keyClean(orig, out []urlnorm.Token, ins []insertion) bool {
	port := false
	for i := range out {
		t, o := &out[i], &orig[i]
		if t.Part == 0 {
			if o.Part == urlnorm.PartScheme || o.Part == urlnorm.PartHost {
				return false
			}
			continue
		}
		if t.Part == urlnorm.PartPort {
			port = true
		}
		if t.Value == o.Value && t.Bare == o.Bare {
			continue
		}
		switch t.Part {
		case urlnorm.PartPath:
			if !plainSegment(t.Value) {
				return false
			}
		case urlnorm.PartHost:
			if !plainHost(t.Value) {
				return false
			}
		case urlnorm.PartScheme:
			if t.Value != "http" && t.Value != "https" {
				return false
			}
		default:
			return false
		}
	}
	for _, x := range ins {
		if x.tok.Part != urlnorm.PartPath || !plainSegment(x.tok.Value) {
			return false
		}
	}
	if port {
		// A changed scheme could make the port its default; the check is not worth it.
		for i := range out {
			if out[i].Part == urlnorm.PartScheme && out[i].Value != orig[i].Value {
				return false
			}
		}
	}
	return true
}

// plainSegment reports whether v is a path segment that a key keeps as it is: unreserved
// characters only, and not a dot segment.
func plainSegment(v string) bool {
	if v == "." || v == ".." {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !unreserved(v[i]) {
			return false
		}
	}
	return true
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// plainHost reports whether h is a host name that a key keeps as it is: labels of lower-case
// letters, digits and inner hyphens (no "xn--" label, no hyphens at the third and fourth place,
// at most 63 bytes each, 253 in all), the last with a letter and not starting "0x", so that the
// WHATWG host parser does not read it as an IPv4 address.
func plainHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for len(h) > 0 {
		l := h
		if j := strings.IndexByte(h, '.'); j >= 0 {
			l, h = h[:j], h[j+1:]
			if h == "" {
				return false // a trailing dot
			}
		} else {
			h = ""
		}
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' || len(l) >= 4 && l[2] == '-' && l[3] == '-' {
			return false
		}
		letter := false
		for i := 0; i < len(l); i++ {
			c := l[i]
			switch {
			case 'a' <= c && c <= 'z':
				letter = true
			case '0' <= c && c <= '9' || c == '-':
			default:
				return false
			}
		}
		if h == "" && (!letter || len(l) >= 2 && l[0] == '0' && l[1] == 'x') {
			return false
		}
	}
	return true
}

// checkTokenView, if not nil, is called with each view that normalizeFast builds from the tokens
// that apply left, and the URL they spell: tests compare it with the view of the tokenized URL.
var checkTokenView func(v *view, u string)

// checkHostKept, if not nil, is called with each rewritten URL that normalizeFast takes on
// without mayMatch because it keeps a host with rules; for tests.
var checkHostKept func(s *Set, u string)

// appendJoined appends to b the URL that urlnorm.AppendJoin writes of toks, whole tokens (Sub
// 0) that a rewrite made of a URL's tokens (those of Part 0 deleted), and to dst the tokens that
// urlnorm.Tokenize gives of that URL, in the same pass: grouped by part in URL order, path
// segments and query occurrences numbered again, an empty segment for a URL left without a path.
// ok is false, with dst as it was, for what it does not number (a deep token, a part that takes
// one token given twice, more than scanParams query parameters): the caller then tokenizes the
// URL, which b holds all the same.
func appendJoined(b []byte, dst, toks []urlnorm.Token) (_ []byte, _ []urlnorm.Token, ok bool) {
	// Tokens come in URL order but for those a rewrite inserted at the end of the path or
	// added to another part, which come last: one pass over toks when they are in order, one
	// per part otherwise.
	inOrder := true
	for i, last := 0, urlnorm.Part(0); i < len(toks); i++ {
		if p := toks[i].Part; p != 0 {
			if p < last {
				inOrder = false
				break
			}
			last = p
		}
	}
	b0, n0 := len(b), len(dst)
	var j joiner
	if inOrder {
		for i := range toks {
			if toks[i].Part != 0 {
				if b, dst, ok = j.add(b, dst, &toks[i]); !ok {
					return urlnorm.AppendJoin(b[:b0], toks), dst[:n0], false
				}
			}
		}
	} else {
		for p := urlnorm.PartScheme; p <= urlnorm.PartFragment; p++ {
			for i := range toks {
				if toks[i].Part == p {
					if b, dst, ok = j.add(b, dst, &toks[i]); !ok {
						return urlnorm.AppendJoin(b[:b0], toks), dst[:n0], false
					}
				}
			}
		}
	}
	b, dst = j.end(b, dst)
	return b, dst, true
}

// joiner numbers the tokens that appendJoined appends, one part after another.
type joiner struct {
	last      urlnorm.Part
	nseg, nq  int
	pathStart int  // index in dst of the first path segment
	pathDone  bool // the path is ended (endPath)
}

// add writes t (its part not before j.last) to b as AppendJoin does, and appends its token to
// dst, renumbered.
func (j *joiner) add(b []byte, dst []urlnorm.Token, t *urlnorm.Token) ([]byte, []urlnorm.Token, bool) {
	p := t.Part
	if t.Sub != 0 || t.RSub != 0 || p == j.last && p != urlnorm.PartPath && p != urlnorm.PartQuery {
		return b, dst, false
	}
	if p > urlnorm.PartPath && !j.pathDone {
		b, dst = j.endPath(b, dst)
	}
	j.last = p
	u := urlnorm.Token{Key: urlnorm.Key{Part: p}, Value: t.Value}
	switch p {
	case urlnorm.PartScheme:
		b = append(b, t.Value...)
		b = append(b, "://"...)
	case urlnorm.PartUserinfo:
		b = append(b, t.Value...)
		b = append(b, '@')
	case urlnorm.PartHost:
		b = append(b, t.Value...)
	case urlnorm.PartPort:
		b = append(b, ':')
		b = append(b, t.Value...)
	case urlnorm.PartPath:
		if j.nseg == 0 {
			j.pathStart = len(dst)
		}
		j.nseg++
		u.Pos = int16(j.nseg)
		b = append(b, '/')
		b = append(b, t.Value...)
	case urlnorm.PartQuery:
		if j.nq++; j.nq > scanParams {
			return b, dst, false
		}
		if j.nq == 1 {
			b = append(b, '?')
		} else {
			b = append(b, '&')
		}
		b = append(b, t.Name...)
		u.Name, u.Bare, u.Pos = t.Name, t.Bare, 1
		if t.Bare {
			u.Value = ""
		} else {
			b = append(b, '=')
			b = append(b, t.Value...)
		}
		for k := len(dst) - j.nq + 1; k < len(dst); k++ {
			if dst[k].Name == u.Name {
				u.Pos++
			}
		}
	case urlnorm.PartFragment:
		b = append(b, '#')
		b = append(b, t.Value...)
	}
	return b, append(dst, u), true
}

// endPath ends the path: an empty segment if it has none (AppendJoin writes "/"), and the
// positions of its segments from the end.
func (j *joiner) endPath(b []byte, dst []urlnorm.Token) ([]byte, []urlnorm.Token) {
	if j.nseg == 0 {
		j.pathStart = len(dst)
		dst = append(dst, urlnorm.Token{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}})
		b = append(b, '/')
		j.nseg = 1
	}
	for k := j.pathStart; k < j.pathStart+j.nseg; k++ {
		dst[k].RPos = int16(j.nseg) - dst[k].Pos + 1
	}
	j.pathDone = true
	return b, dst
}

// end ends the tokens: the path, if no token after it ended it.
func (j *joiner) end(b []byte, dst []urlnorm.Token) ([]byte, []urlnorm.Token) {
	if !j.pathDone {
		return j.endPath(b, dst)
	}
	return b, dst
}

// scanParams bounds the query parameters that appendJoined numbers by a scan of those before.
const scanParams = 32
