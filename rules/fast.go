package rules

import (
	"math/bits"
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
//     With a Key, the key writer tells where the host and the query are (urlnorm.KeyLayout),
//     with a summary of the query's parameter names (one test rules out most queries): the
//     filter does not look for them, and the first view's tokens are made from the layout
//     (only past the filter), without reading the key again; the view takes the index trees of
//     its host from what the filter found of it (hostWalk).
//   - A rewritten URL that keeps a host with rules goes to the matcher without the filter.
//   - A URL that a rule wrote and that is its own key token for token (keyCleanAt) is matched
//     against that rule's successors only (the rules that what the rule writes may match, see
//     succ.go), not the index; with none that its tokens may meet, it is final before it has a
//     view.
//   - The host's deep-token split is made only when a deep key is read (view.deepTokens).
//   - A rewritten URL is not tokenized again: its view is built from the tokens of the rewrite,
//     renumbered (appendJoined, which writes the URL in the same pass), when keyCleanAt shows that
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
	// heads has the bit headBit of the first two bytes of each name set, as queryMayHave reads
	// them at the start of a parameter (headKeys), so that most parameters cost one test
	// instead of a scan of their name; empty says that the empty name is among the names.
	heads [8]uint64
	empty bool
	// params has the bit urlnorm.ParamNameBit of each name set, to test a key's
	// urlnorm.KeyLayout.ParamNames against (0 if there are no names).
	params uint64
}

// newEveryHostFilter makes the filter of the rules of every host among rs.
func newEveryHostFilter(rs []crule) everyHostFilter {
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
	}
	return everyFilterOf(seen)
}

// everyFilterOf is the filter of the names in seen, which it keeps.
func everyFilterOf(seen map[string]bool) everyHostFilter {
	f := everyHostFilter{ok: true}
	for name := range seen {
		b := nameBit(name)
		f.bloom[b>>6] |= 1 << (b & 63)
		f.empty = f.empty || name == ""
		f.params |= urlnorm.ParamNameBit(name)
		for _, k := range headKeys(name) {
			b := headBit(k)
			f.heads[b>>6] |= 1 << (b & 63)
		}
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

// headKeys are the first two bytes (the low 16 bits of the little-endian word of the parameter's
// first bytes) that a parameter named name may start with: a name of two bytes or more starts
// with them; a name of one byte is followed by '=', '&' or the end of the query (a 0 byte); the
// empty name has none (everyHostFilter.empty).
func headKeys(name string) []uint64 {
	switch len(name) {
	case 0:
		return nil
	case 1:
		c := uint64(name[0])
		return []uint64{c | '='<<8, c | '&'<<8, c}
	default:
		return []uint64{uint64(name[0]) | uint64(name[1])<<8}
	}
}

// headBit is the bit of everyHostFilter.heads of the first two bytes k of a parameter.
func headBit(k uint64) uint64 { return ((k & 0xffff) * 0x9e3779b97f4a7c15) >> 55 }

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
// any, is a number of at most five digits (see TestMayMatchKeyPort). Normalize and
// AppendNormalize use the gate of gateLayout, which knows where the key's parts are;
// mayMatchKey, which reads the key, is its reference in the tests.
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
	return s.every.queryMayMatch(rest[q+1:])
}

// gateLayout is mayMatchKey of u, a key that s.keyer wrote with the layout l: it finds the host
// and the query from l instead of reading u, and returns what it learned of the host for
// view.index (w, if it let u through). Normalize and AppendNormalize inline its quickest tests
// and call gateHost for the rest; no code of the package calls gateLayout itself: it is that
// gate as a function for the tests, which check it against mayMatchKey (checkMayMatch).
func (s *Set) gateLayout(u string, l *urlnorm.KeyLayout) (w hostWalk, may bool) {
	if len(u) > maxTokensFilter {
		return hostWalk{}, true
	}
	i, j := l.Host()
	// The tail test (mayEndIn), from the word of the key's eight bytes before the host's end: if
	// the host is shorter than tailLen, and so than every name but AllHosts, bytes before it take
	// part, and the answer for it may be false, as mayEndIn's, or true.
	end := j < 8 || s.hosts.tailMay(le64(u[j-8:]))
	return s.gateHost(u, l, i, j, end)
}

// gateHost is gateLayout of u, whose host is u[i:j], once the tail test told whether the host
// may have rules (end).
func (s *Set) gateHost(u string, l *urlnorm.KeyLayout, i, j int, end bool) (w hostWalk, may bool) {
	f := &s.hosts
	w.ok = true // no trees unless end
	if end {
		w.e, w.whole = f.find(u[i:j])
		if _, has := found(w.e, w.whole); has {
			return w, true
		}
		if u[i:j] == AllHosts {
			return w, false
		}
	}
	// The rules of every host (none if s.all is nil: params is 0) require a parameter of
	// s.every's names: the key writer's summary of its parameter names rules out most queries
	// with one test, a key without a query included.
	if !s.every.ok {
		return w, true
	}
	if l.ParamNames()&s.every.params == 0 {
		return w, false
	}
	i, j = l.Query(u)
	return w, i >= 0 && s.every.queryMayHave(u[:j], i)
}

// queryMayMatch reports whether a parameter name of query, the part of a URL after its '?'
// (it stops at a '#'), may be one of f's names, one of which every rule for all hosts needs;
// false is certain.
func (f *everyHostFilter) queryMayMatch(query string) bool {
	for {
		// The parameter's name ends at its first '=', '&' or '#'; its value at the next '&'.
		n := 0
		for n < len(query) && query[n] != '=' && query[n] != '&' && query[n] != '#' {
			n++
		}
		if f.has(query[:n]) {
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

// queryMayHave is queryMayMatch of the query k[q:] of a key (with a Key, no '#' is in a key's
// query: it is in the fragment), len(k) >= 8. A parameter whose first two bytes start no name
// of f costs one test (heads), and the '&' that ends it is found eight bytes at a time.
func (f *everyHostFilter) queryMayHave(k string, q int) bool {
	const amp = '&' * lowBytes
	n := len(k)
	for p := q; ; {
		if p >= n {
			return f.empty // an empty parameter at the end
		}
		// The parameter at p: its name is empty if it starts with '=' or '&'.
		h := uint64(k[p])
		if p+1 < n {
			h |= uint64(k[p+1]) << 8
		}
		if c := byte(h); c == '=' || c == '&' {
			if f.empty {
				return true
			}
		} else if b := headBit(h); f.heads[b>>6]&(1<<(b&63)) != 0 {
			e := p
			for e < n && k[e] != '=' && k[e] != '&' {
				e++
			}
			if f.has(k[p:e]) {
				return true
			}
		}
		// The next parameter starts after the next '&', at p or later.
		for {
			if n-p < 8 {
				// The bytes from p on are the last of the word of k's last eight bytes.
				m := zeroBytes(le64(k[n-8:])^amp) >> ((8 * (p - n + 8)) & 63)
				if m == 0 {
					return false
				}
				p += bits.TrailingZeros64(m)>>3 + 1
				break
			}
			if m := zeroBytes(le64(k[p:]) ^ amp); m != 0 {
				p += bits.TrailingZeros64(m)>>3 + 1
				break
			}
			p += 8
		}
	}
}

// lowBytes has the low bit of each byte set: c*lowBytes is the word of eight bytes c.
const lowBytes = 0x0101010101010101

// zeroBytes returns w with the high bit set of each byte that is zero in w, and no other bit.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// hostFilter holds every host that has rules of its own (exact scope) or deep-token patterns and
// every domain that has rules (domain scope), each name once, in an open-addressing table keyed
// by a hash of the whole name. Each entry keeps the index trees of the domains among the name
// and its suffixes after a dot, so that the trees of a host are those of the longest of the host
// and its suffixes after a dot that is a name in the table: a host with rules of its own (most
// hosts met) costs one hash of its bytes, a word at a time, and one probe; another host one
// probe more for each suffix whose first bytes and length some name has (bits). mayMatch
// learns the same way that neither a host nor any domain it is in has rules, and view.index
// finds the trees and patterns of the host and its domains. Most hosts without rules are known
// so sooner, by their last bytes (mayEndIn). A hash that collides only costs a comparison of
// names. Its zero value has no hosts.
type hostFilter struct {
	slots []hostSlot
	ents  []hostEnt
	shift uint8
	// maxLen is the length of the longest name: no longer suffix of a host is looked up.
	maxLen int
	// bits has the bit (hostBit) of each name's first word and length set, so that find answers
	// most suffixes that are no name with one test instead of a hash and a probe, and hashes
	// whole at most one suffix of a host per name length; nil if slots is.
	bits *[filterWords]uint64
	// tails has the bit tailBit of the tail of each name but AllHosts: its last tailLen bytes,
	// tailLen being the length of the shortest such name, at most 8 (0 if a name is empty, and
	// then every bit is set), so that mayEndIn and the tail test of gateLayout learn from a host's last bytes alone
	// that it is none of the names and in none of the domains. No bit is set if slots is nil;
	// every bit if the Set's rules of every host may match any URL (Set.index).
	// It is an array of the filter, not a pointer, so that the tail test of a key costs one
	// load and no nil check.
	tails   [filterWords]uint64
	tailLen int
	// tailMask is the mask of the word of a host's last eight bytes that leaves its tail
	// (tailWord): an AND, where a shift would need its count in CX.
	tailMask uint64
}

// hostSlot is a slot of hostFilter's table: the words of a name (hostWords) and its length, which
// are the whole name if it is at most 24 bytes long, and its entry (nil in an empty slot).
type hostSlot struct {
	w0, w1, w2 uint64
	n          int
	ent        *hostEnt
}

// hostEnt is what hostFilter holds of a name: its index tree and deep-token patterns as a host,
// whether it has either (own), and the index trees of the domains with rules among itself and its
// suffixes after a dot, longest first.
type hostEnt struct {
	name string
	tree *node
	pat  Patterns
	own  bool
	doms []*node
}

// filterWords is the size of hostFilter.bits and tails in words: 4096 bits.
const filterWords = 64

// newHostFilter makes the filter of the hosts and domains with rules, and of the hosts with
// patterns.
func newHostFilter(exact, domain map[string]*node, pats map[string]Patterns) hostFilter {
	ents := map[string]*hostEnt{}
	ent := func(h string) *hostEnt {
		e := ents[h]
		if e == nil {
			e = &hostEnt{name: h}
			ents[h] = e
		}
		return e
	}
	for h, t := range exact {
		e := ent(h)
		e.tree, e.pat, e.own = t, pats[h], true
	}
	for h, p := range pats {
		e := ent(h)
		e.pat, e.own = p, true
	}
	for h := range domain {
		ent(h)
	}
	if len(ents) == 0 {
		return hostFilter{}
	}
	bits := 3
	for 1<<bits < 2*len(ents) {
		bits++
	}
	f := hostFilter{slots: make([]hostSlot, 1<<bits), ents: make([]hostEnt, 0, len(ents)), shift: uint8(64 - bits),
		bits: new([filterWords]uint64), tailLen: 8}
	for h := range ents {
		if h != AllHosts {
			f.tailLen = min(f.tailLen, len(h))
		}
		f.maxLen = max(f.maxLen, len(h))
	}
	for h, e := range ents {
		// The domains among h and its suffixes after a dot, longest first.
		for i := 0; ; {
			if t := domain[h[i:]]; t != nil {
				e.doms = append(e.doms, t)
			}
			j := strings.IndexByte(h[i:], '.')
			if j < 0 {
				break
			}
			i += j + 1
		}
		f.ents = append(f.ents, *e)
	}
	for i := range f.ents {
		f.add(&f.ents[i])
	}
	f.tailMask = ^uint64(0) << (64 - 8*f.tailLen)
	if f.tailLen == 0 {
		for i := range f.tails {
			f.tails[i] = ^uint64(0) // every tail may be a name's
		}
	}
	return f
}

// add files e under the hash of its name, and sets the bits of its first word and its tail.
func (f *hostFilter) add(e *hostEnt) {
	h := e.name
	if h != AllHosts && f.tailLen > 0 {
		b := tailBit(tailWord(h, f.tailLen))
		f.tails[b>>6] |= 1 << (b & 63)
	}
	w0, w1, w2, n := hostWords(h, 0)
	b, x := hostBit(w0, n), hostHash(h, 0, w0, w1, w2, n)
	f.bits[b>>6] |= 1 << (b & 63)
	mask := uint64(len(f.slots) - 1)
	for i := (x * 0x9e3779b97f4a7c15) >> f.shift; ; i = (i + 1) & mask {
		if f.slots[i].ent == nil {
			f.slots[i] = hostSlot{w0, w1, w2, n, e}
			return
		}
	}
}

// hostWord0 is the first word of the name h[p:]: its first eight bytes, little-endian, or all
// of it, zero-padded, if it is shorter.
func hostWord0(h string, p int) uint64 {
	n := len(h) - p
	switch {
	case n >= 8:
		return le64(h[p:])
	case n == 0:
		return 0
	case len(h) >= 8:
		return le64(h[len(h)-8:]) >> ((64 - 8*n) & 63)
	}
	var w uint64
	for k := len(h) - 1; k >= p; k-- {
		w = w<<8 | uint64(h[k])
	}
	return w
}

// hostBit returns the bit of a name in hostFilter.bits, which is of its first word w0 (hostWord0)
// and its length n alone: a suffix of a host that is no name costs one word.
func hostBit(w0 uint64, n int) uint64 {
	return mixHash(w0^uint64(n)*0x9e3779b97f4a7c15) >> 52
}

// hostWords returns the words of the name h[p:] that a hostSlot keeps, with its length n: w0
// (hostWord0), w1 its eight bytes after the first eight (0 if it is shorter than 16 bytes) and
// w2 its last eight (0 if it is shorter than 8), which are all of a name of at most 24 bytes.
func hostWords(h string, p int) (w0, w1, w2 uint64, n int) {
	n = len(h) - p
	if n < 8 {
		return hostWord0(h, p), 0, 0, n
	}
	w0, w2 = le64(h[p:]), le64(h[len(h)-8:])
	if n >= 16 {
		w1 = le64(h[p+8:])
	}
	return w0, w1, w2, n
}

// hostHash returns the hash in hostFilter's table of the name h[p:], whose words and length
// are w0, w1, w2 and n (hostWords).
func hostHash(h string, p int, w0, w1, w2 uint64, n int) uint64 {
	x := (w0^uint64(n))*0x9e3779b97f4a7c15 ^ (w1^(w2<<32|w2>>32))*0xbf58476d1ce4e5b9
	if n > 24 {
		x = hashMiddle(x, h, p)
	}
	return x ^ x>>29
}

// hashMiddle is x with the words of the name h[p:] between its first sixteen bytes and its
// last eight mixed in (len(h)-p > 24).
func hashMiddle(x uint64, h string, p int) uint64 {
	for q := p + 16; len(h)-q > 8; q += 8 {
		x = mixHash(x ^ le64(h[q:]))
	}
	return x
}

// sameName reports whether a == b, reading them a word at a time.
func sameName(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) < 8 {
		return a == b
	}
	// The last eight bytes, then the words before them.
	if le64(a[len(a)-8:]) != le64(b[len(b)-8:]) {
		return false
	}
	for ; len(a) > 8; a, b = a[8:], b[8:] {
		if le64(a) != le64(b) {
			return false
		}
	}
	return true
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

// lookup returns the entry of the name h[p:], or nil. A slot's words and length are the whole
// name if it is at most 24 bytes long; only a longer one is compared with h[p:] byte by byte. A
// suffix of a host (p > 0) is first tested against bits, so that one that is no name is mostly
// turned away by its first word and length, and only one with those of a name is hashed whole.
func (f *hostFilter) lookup(h string, p int) *hostEnt {
	// hostWords and hostHash, written out: functions too big to be inlined.
	var w0, w1, w2 uint64
	name := h[p:]
	n := len(name)
	if n >= 8 {
		w0, w2 = le64(name), le64(name[n-8:])
		if n >= 16 {
			w1 = le64(name[8:])
		}
	} else {
		w0 = hostWord0(h, p)
	}
	if p > 0 {
		if b := hostBit(w0, n); f.bits[b>>6]&(1<<(b&63)) == 0 {
			return nil
		}
	}
	x := (w0^uint64(n))*0x9e3779b97f4a7c15 ^ (w1^(w2<<32|w2>>32))*0xbf58476d1ce4e5b9
	if n > 24 {
		x = hashMiddle(x, h, p)
	}
	x ^= x >> 29
	mask := uint64(len(f.slots) - 1)
	for i := (x * 0x9e3779b97f4a7c15) >> (f.shift & 63); ; i = (i + 1) & mask {
		sl := &f.slots[i]
		if sl.w0 == w0 && sl.w2 == w2 && sl.w1 == w1 && sl.n == n && sl.ent != nil &&
			(n <= 24 || sameName(sl.ent.name[16:n-8], name[16:n-8])) {
			return sl.ent
		}
		if sl.ent == nil {
			return nil
		}
	}
}

// find returns the entry of the longest of host and its suffixes after a dot that is a name in
// f (nil if none is), and whether it is host itself. That entry's doms are the trees of the
// domains that host is in or is: a longer suffix that is a domain would be a name in f.
func (f *hostFilter) find(host string) (*hostEnt, bool) {
	if len(f.slots) == 0 {
		return nil, false
	}
	p := 0
	if len(host) > f.maxLen {
		// No name is as long as host, nor as the suffixes longer than maxLen.
		d := strings.IndexByte(host[len(host)-f.maxLen-1:], '.')
		if d < 0 {
			return nil, false
		}
		p = len(host) - f.maxLen + d
	}
	for {
		if e := f.lookup(host, p); e != nil {
			return e, p == 0
		}
		d := strings.IndexByte(host[p:], '.')
		if d < 0 {
			return nil, false
		}
		p += d + 1
	}
}

// found is what treesOf and mayHave make of find's answer: the entry of host if it has rules or
// patterns of its own, and whether host or a domain it is in has any (has).
func found(e *hostEnt, whole bool) (own *hostEnt, has bool) {
	if e == nil {
		return nil, false
	}
	if whole && e.own {
		return e, true
	}
	return nil, len(e.doms) > 0
}

// has is found's has of w: whether the host that w is find's answer for has rules of its own or
// is in a domain with rules.
func (w hostWalk) has() bool {
	_, has := found(w.e, w.whole)
	return has
}

// treesOf finds the index trees of a host and of the domains it is in, and the host's patterns,
// from find's answer for the host (e, whole): it returns the host's entry (nil if it has neither
// rules nor patterns) and appends the trees of its domains to doms, longest domain first.
func (f *hostFilter) treesOf(e *hostEnt, whole bool, doms []*node) (*hostEnt, []*node) {
	if e == nil {
		return nil, doms
	}
	doms = append(doms, e.doms...)
	if whole && e.own {
		return e, doms
	}
	return nil, doms
}

// hostWalk is find's answer for a host that gateHost looked up (ok), so that view.index
// need not find it again: e is the entry of the longest of the host and its suffixes after a
// dot in the filter (nil if none), whole says that it is the host's.
type hostWalk struct {
	e     *hostEnt
	whole bool
	ok    bool
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
		w = le64(s[len(s)-8:]) & f.tailMask
	case len(s) >= n:
		w = tailWord(s, n)
	default:
		return false // shorter than every name
	}
	b := tailBit(w)
	return f.tails[b>>6]&(1<<(b&63)) != 0
}

// tailWord is the word of the last n bytes of s, 0 < n <= min(8, len(s)), that the tail test
// hashes: the little-endian word of the eight bytes that end with them, of which only they are
// kept (the word of a longer string's last eight bytes, masked with hostFilter.tailMask).
func tailWord(s string, n int) uint64 {
	var w uint64
	for k := len(s) - 1; k >= len(s)-n; k-- {
		w = w<<8 | uint64(s[k])
	}
	return w << (64 - 8*n)
}

// tailMay is the tail test of the gate: it reports whether a host whose last eight bytes are the
// little-endian word w may be one of f's names or in one of its domains; false is certain. A host
// that ends with '*' (AllHosts) passes. It is small enough to be inlined in Normalize and
// AppendNormalize.
func (f *hostFilter) tailMay(w uint64) bool {
	b := tailBit(w & f.tailMask)
	return f.tails[b>>6]&(1<<(b&63)) != 0 || w>>56 == '*'
}

// tailBit is the bit of hostFilter.tails of the tail w.
func tailBit(w uint64) uint64 {
	return (w * 0x9e3779b97f4a7c15) >> 52
}

// mayHave reports whether host may have rules of its own or be in a domain with rules (as
// Set.matchFrom looks them up: the host, then each suffix after a dot); false is certain.
func (f *hostFilter) mayHave(host string) bool { return f.mayHaveWalk(host, nil) }

// mayHaveWalk is mayHave; if w is not nil, it fills w with find's answer.
func (f *hostFilter) mayHaveWalk(host string, w *hostWalk) bool {
	e, whole := f.find(host)
	if w != nil {
		*w = hostWalk{e: e, whole: whole, ok: true}
	}
	_, has := found(e, whole)
	return has
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

// normalizeFast is Normalize (the fast path described above) of u, whose key (with a Key; a
// copy of u without) is in sc.arena, for a URL that mayMatch did not turn away. The string it
// returns may point into sc.arena: the caller copies it before it puts sc back.
//
// The caller puts sc back with putFast, which resets the flags that normalizeFast sets.
func (s *Set) normalizeFast(sc *scratch, u string) (string, error) {
	in := bytesString(sc.arena)
	sc.inArena, sc.nextOK, sc.conv = true, false, sc.conv[:0]
	cur := in
	// The view of the first URL: with the key's layout, its tokens without reading it again.
	if sc.layOK {
		var err error
		if sc.v.whole, err = sc.lay.AppendTokens(sc.v.whole[:0], cur); err != nil {
			return cur, &Error{Op: "normalize", Input: strings.Clone(cur), Err: err}
		}
		sc.v.indexTokens(s)
		if checkTokenView != nil {
			checkTokenView(&sc.v, cur)
		}
	} else if err := sc.v.load(cur, s); err != nil {
		return cur, &Error{Op: "normalize", Input: strings.Clone(cur), Err: err}
	}
	// i is the rule that matches cur, k its position among succ's entries if succ is not nil:
	// the successors of the rule that wrote cur without the key writer, the only rules that may
	// match cur.
	i, k := s.match(&sc.v), 0
	var succ *succList
	for n := 0; ; n++ {
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
		// A cycle: next is a URL met before. It is not cur (apply and applyNext give a URL
		// that differs from cur, or none), so after the first rewrite there is nothing to
		// compare; after that, in and the URLs in sc.chain (those met after in, before cur).
		if n > 0 {
			if next == in {
				return in, &Error{Op: "normalize", Input: strings.Clone(in), Err: ErrCycle}
			}
			for _, c := range sc.chain {
				if c == next {
					return in, &Error{Op: "normalize", Input: strings.Clone(in), Err: ErrCycle}
				}
			}
			sc.chain = append(sc.chain, cur)
		}
		cur = next
		if succ != nil {
			if s.final(succ, sc.next) {
				return cur, nil // no rule can match what the last rule wrote
			}
		} else if sc.nextOK && sc.v.hostHas && tokensHost(sc.next) == sc.v.host {
			// A rewrite that keeps a host with rules may match again: only a new host needs
			// the filter (not needed with successors, which know the rules of the host).
			if checkHostKept != nil {
				checkHostKept(s, cur)
			}
		} else if !s.mayMatch(cur) {
			return cur, nil // a rewrite to a host without rules, often
		}
		if sc.nextOK {
			// apply knows the tokens of cur: no need to tokenize it.
			sc.v.whole, sc.next = sc.next, sc.v.whole
			sc.nextOK = false
			if sc.samePlace {
				sc.samePlace = false
				sc.v.indexSame(s)
			} else {
				sc.v.indexTokens(s)
			}
			if checkTokenView != nil {
				checkTokenView(&sc.v, cur)
			}
		} else if err := sc.v.load(cur, s); err != nil {
			return cur, &Error{Op: "normalize", Input: strings.Clone(cur), Err: err}
		}
		if succ != nil {
			if k = s.matchSucc(&sc.v, succ.ents, 0); k >= 0 {
				i = int(succ.ents[k].j)
			} else {
				i = -1
			}
		} else {
			i = s.match(&sc.v)
		}
	}
}

// cleanSucc returns the successors of rule i, which has just rewritten the URL of sc.v, if the
// rewrite took apply's keyCleanAt path (the result's tokens are the rewritten ones), else nil.
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

// tokenKeyFlags are the urlnorm flags whose effect keyCleanAt knows: those of urlnorm.Crawler and
// DropUserinfo. A set whose Key has another flag (FoldWWW, DropIndex, LowercasePath, ...) has
// every rewritten URL keyed again from its text.
const tokenKeyFlags = urlnorm.Crawler | urlnorm.DropUserinfo

// keyCleanAt reports whether the URL that the tokens out and the insertions ins spell is its own
// key under tokenKeyFlags, given that orig, the tokens of a key that out was copied from (token
// for token: a deleted token has Part 0), spell a key, and that touched lists every index where
// out differs from orig: it looks at those tokens only. It answers false, "read it again", for
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
func keyCleanAt(orig, out []urlnorm.Token, ins []insertion, touched []int32) bool {
	scheme := false // the scheme changed
	for _, i := range touched {
		t, o := &out[i], &orig[i]
		if t.Part == 0 {
			if o.Part == urlnorm.PartScheme || o.Part == urlnorm.PartHost {
				return false
			}
			continue
		}
		if t.Value == o.Value && t.Bare == o.Bare {
			continue
		}
		if !plainValue(t.Part, t.Value) {
			return false
		}
		scheme = scheme || t.Part == urlnorm.PartScheme
	}
	for _, x := range ins {
		if x.tok.Part != urlnorm.PartPath || !plainSegment(x.tok.Value) {
			return false
		}
	}
	if scheme {
		// A changed scheme could make the port its default: the port, if any, comes within
		// the first four tokens (scheme, userinfo, host, port).
		for i := range min(len(out), 4) {
			if out[i].Part == urlnorm.PartPort {
				return false
			}
		}
	}
	return true
}

// plainValue reports whether v, set as the value of a token of part p, leaves a key a key: a
// path segment that plainSegment accepts, a host that plainHost accepts, or the scheme http or
// https.
func plainValue(p urlnorm.Part, v string) bool {
	switch p {
	case urlnorm.PartPath:
		return plainSegment(v)
	case urlnorm.PartHost:
		return plainHost(v)
	case urlnorm.PartScheme:
		return v == "http" || v == "https"
	}
	return false
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
	// One pass: at each dot and at the end, the label before it is checked.
	start, letter := 0, false
	for i := 0; ; i++ {
		if i < len(h) && h[i] != '.' {
			switch c := h[i]; {
			case 'a' <= c && c <= 'z':
				letter = true
			case '0' <= c && c <= '9' || c == '-':
			default:
				return false
			}
			continue
		}
		l := h[start:i]
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' || len(l) >= 4 && l[2] == '-' && l[3] == '-' {
			return false // an empty label is also that after a trailing dot
		}
		if i == len(h) {
			return letter && (len(l) < 2 || l[0] != '0' || l[1] != 'x')
		}
		start, letter = i+1, false
	}
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

// appendEdited appends to b the URL that urlnorm.AppendJoin writes of out, and returns its
// tokens as urlnorm.Tokenize gives them, made in place of out, like appendJoined: for out made of
// the whole tokens of v by deleting (Part 0) and setting tokens at the indexes touched (which it
// sorts and may rewrite), nothing inserted, and cur the URL of v (which AppendJoin of v.whole
// gives). The runs of untouched tokens are copied from cur as they are; the tokens that a
// deletion moves are numbered again where it changed their positions. ok is false, with b and
// out as they were, for what it does not write: a query parameter set, a path left without a
// segment (AppendJoin writes "/"), a touched token past the end of cur.
func appendEdited(b []byte, cur string, v *view, out []urlnorm.Token, touched []int32) (_ []byte, toks []urlnorm.Token, ok bool) {
	for i := 1; i < len(touched); i++ {
		for j := i; j > 0 && touched[j] < touched[j-1]; j-- {
			touched[j], touched[j-1] = touched[j-1], touched[j]
		}
	}
	touched = slices.Compact(touched)
	orig := v.whole
	b0 := len(b)
	// The URL: the bytes of cur from one touched token to the next, and the touched tokens
	// written again, or left out.
	off, from, k := 0, 0, 0 // the byte offset in cur of token k; the start of the run to copy
	dels, delSeg, needQ := 0, 0, false
	for _, i := range touched {
		for ; k < int(i); k++ {
			off += textLen(&orig[k])
		}
		end := off + textLen(&orig[i])
		if end > len(cur) {
			return b[:b0], out, false
		}
		if needQ && from < off {
			// The query parameters before this run were all deleted: the run's first token,
			// a parameter after "&", starts the query.
			b, from = firstParam(b, from, cur)
			needQ = false
		}
		b = append(b, cur[from:off]...)
		off = end
		k, from = int(i)+1, off
		t := &out[i]
		switch t.Part {
		case 0:
			dels++
			switch orig[i].Part {
			case urlnorm.PartPath:
				delSeg++
			case urlnorm.PartQuery:
				needQ = needQ || int(i) == v.queryAt
			}
		case urlnorm.PartQuery:
			return b[:b0], out, false
		default:
			b = appendPartText(b, t.Part, t.Value)
		}
	}
	if delSeg == v.nseg && delSeg > 0 {
		return b[:b0], out, false
	}
	if needQ && from < len(cur) {
		b, from = firstParam(b, from, cur)
	}
	b = append(b, cur[from:]...)
	if dels == 0 {
		return b, out, true
	}
	renumber(v, out, touched, delSeg)
	// The deleted tokens taken out: the runs between them moved down.
	w := int(touched[0])
	for w < len(out) && out[w].Part != 0 {
		w++
	}
	r := w
	for _, i := range touched {
		if int(i) > r && out[i].Part == 0 {
			w += copy(out[w:], out[r:i])
			r = int(i)
		}
		if int(i) == r && out[i].Part == 0 {
			r++
		}
	}
	w += copy(out[w:], out[r:])
	for j := w; j < len(out); j++ {
		out[j] = urlnorm.Token{} // no token left twice in the buffer
	}
	return b, out[:w], true
}

// renumber numbers again, in place, the tokens of out (those of v.whole, the deleted ones of Part
// 0, at indexes in touched, sorted) that a deletion moves: every path segment when delSeg of
// them are deleted, and the occurrences of a query parameter after a deleted one of its name.
func renumber(v *view, out []urlnorm.Token, touched []int32, delSeg int) {
	if delSeg > 0 {
		nseg := int16(v.nseg - delSeg)
		p := int16(1)
		for i := v.pathStart; i < v.pathStart+v.nseg; i++ {
			if t := &out[i]; t.Part != 0 {
				t.Pos, t.RPos = p, nseg-p+1
				p++
			}
		}
	}
	orig := v.whole
	for _, d := range touched {
		if out[d].Part != 0 || orig[d].Part != urlnorm.PartQuery {
			continue
		}
		for i := int(d) + 1; i < len(out) && orig[i].Part == urlnorm.PartQuery; i++ {
			if t := &out[i]; t.Part != 0 && t.Name == orig[d].Name {
				t.Pos--
			}
		}
	}
}

// firstParam writes "?" for the "&" at byte from of the URL cur, if it is there (the run that
// starts at from starts with a query parameter), and returns b and where to copy from then.
func firstParam(b []byte, from int, cur string) ([]byte, int) {
	if cur[from] != '&' {
		return b, from
	}
	return append(b, '?'), from + 1
}

// appendPartText appends v, the value of a whole token of part p (not a query parameter), with
// the separator that urlnorm.AppendJoin writes beside it: the scheme's "://" after it, the
// userinfo's "@" after it, the port's ":", a path segment's "/" and the fragment's "#" before it.
func appendPartText(b []byte, p urlnorm.Part, v string) []byte {
	switch p {
	case urlnorm.PartScheme:
		return append(append(b, v...), "://"...)
	case urlnorm.PartUserinfo:
		return append(append(b, v...), '@')
	case urlnorm.PartHost:
		return append(b, v...)
	case urlnorm.PartPort:
		return append(append(b, ':'), v...)
	case urlnorm.PartPath:
		return append(append(b, '/'), v...)
	case urlnorm.PartFragment:
		return append(append(b, '#'), v...)
	}
	return b
}

// textLen returns the length of what urlnorm.AppendJoin writes of the whole token t: its value
// and the separator before or after it (a query parameter's "?" or "&", name and "=").
func textLen(t *urlnorm.Token) int {
	switch t.Part {
	case urlnorm.PartScheme:
		return len(t.Value) + len("://")
	case urlnorm.PartHost:
		return len(t.Value)
	case urlnorm.PartQuery:
		if t.Bare {
			return 1 + len(t.Name)
		}
		return 2 + len(t.Name) + len(t.Value)
	}
	return 1 + len(t.Value) // userinfo "@", port ":", path "/", fragment "#"
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
	case urlnorm.PartPath:
		if j.nseg == 0 {
			j.pathStart = len(dst)
		}
		j.nseg++
		u.Pos = int16(j.nseg)
		b = appendPartText(b, p, t.Value)
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
	default:
		b = appendPartText(b, p, t.Value)
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
