package rules

import (
	"cmp"
	"slices"

	"github.com/undust/undust/urlnorm"
)

// The presence prefilter. Most conditions of learned rules ask only whether a key is present
// (query("s")=*, path(3,-)=*) or absent (query("page")=-), and most rules that a URL meets in
// the index fail on one of them. Each index tree gives a bit to up to 64 of the keys that its
// rules and inner nodes read (keyTable); a URL's presence mask for a tree, made in one pass over
// its tokens (view.maskFor), has the bits of the keys it has. A rule in a leaf carries the bits
// that must be set and those that must be clear (prefilter), so that a rule that fails such a
// condition is rejected with two tests and no lookup, and a condition that the mask decides is
// not looked up again (crule.check). An inner node whose key has a bit learns the key's
// presence from the mask too, and looks its value up only if it has branches by value.
//
// A key has a bit only where the mask tells its presence exactly as view.lookup does:
//   - a query key (name and occurrence) by the query parameters;
//   - a path key that gives a position from the start or the end (or both), below
//     maxPathBit, by the number of segments alone;
//   - a userinfo, port or fragment key by the token of its part.
//
// A deep key has no bit of its own: it is present only if its whole token is, so a condition
// that it be present or have a value requires the bit of its whole key, and is still looked up.

// hostOnly is the key of the host.
var hostOnly = urlnorm.Key{Part: urlnorm.PartHost}

// maxPathBit bounds the positions of the path keys that get a bit: path.masks has one entry per
// number of segments up to it, so that a hostile position costs no memory.
const maxPathBit = 32

// keyTable is the bit assignment of one index tree, with what the mask computation needs.
type keyTable struct {
	// path[min(nseg, maxPathBit)] has the bits of the path keys present in a URL of nseg
	// segments; nil if no path key has a bit.
	path []uint64
	// query is an open-addressing table of the query keys with a bit, by the hash of the name;
	// a slot of bit 0 is empty.
	query  []queryBit
	qshift uint8 // 64 - log2(len(query)): nameHash(name)>>qshift is the name's first slot
	// part has the bits of the userinfo, port and fragment keys, by part; early says that one
	// of them has a bit, so that the mask reads every token, not the query's only.
	part  [urlnorm.PartFragment + 1]uint64
	early bool
	// gate, when not 0, has bits of which every rule of the tree requires one set: a URL whose
	// mask has none of them meets no rule of the tree, which matchFrom then skips. It is the
	// union of the bits of the keys that each rule requires present (its conditions other than
	// Absent, on the whole key of a deep key, and the keys it copies from), 0 if a rule requires
	// none with a bit.
	gate uint64
	// gateNames has the bit nameBit (as everyHostFilter.bloom) of the name of each query key
	// of gate, for mayOpen.
	gateNames [4]uint64
}

// queryBit is a slot of keyTable.query: bit+1 of the key of name and occurrence pos.
type queryBit struct {
	name string
	pos  int16
	bit  uint8
}

// prefilter is what a rule in a leaf requires of a URL's presence mask: need all set, forbid all
// clear.
type prefilter struct {
	need, forbid uint64
}

// pass reports whether mask m meets p.
func (p *prefilter) pass(m uint64) bool {
	return m&p.need == p.need && m&p.forbid == 0
}

// nameHash is the hash of a query name for keyTable.query: its length and three of its bytes,
// cheap where a URL has several names to look up in several tables. Names that collide cost
// string comparisons, at most one per key of the table.
func nameHash(s string) uint64 {
	h := uint64(len(s))
	if len(s) > 0 {
		h |= uint64(s[0])<<8 | uint64(s[len(s)/2])<<16 | uint64(s[len(s)-1])<<24
	}
	return (h ^ h>>13) * 0x9e3779b97f4a7c15
}

// bitKey reports whether k can have a bit: whether its presence in a URL follows from the
// mask exactly as view.lookup finds it.
func bitKey(k urlnorm.Key) bool {
	if k.Sub != 0 || k.RSub != 0 {
		return false
	}
	switch k.Part {
	case urlnorm.PartQuery:
		return k.RPos == 0 && k.Pos >= 1
	case urlnorm.PartPath:
		switch {
		case k.Pos < 0 || k.RPos < 0 || k.Pos == 0 && k.RPos == 0:
			return false
		case k.Pos != 0 && k.RPos != 0:
			return int(k.Pos)+int(k.RPos)-1 < maxPathBit
		}
		return int(k.Pos)+int(k.RPos) < maxPathBit
	case urlnorm.PartUserinfo, urlnorm.PartPort, urlnorm.PartFragment:
		return true
	}
	return false
}

// baseKey returns the whole key of a deep key k: the token that k is a deep token of.
func baseKey(k urlnorm.Key) urlnorm.Key {
	k.Sub, k.RSub = 0, 0
	return k
}

// prefilterTree gives the keys of the tree rooted at root (over rules) their bits, stores the
// table in root, and fills the prefilters of its leaves, the bits of its inner nodes and the
// conditions of its rules that the mask decides. Its cost is linear in the conditions of the
// tree's rules and in its nodes.
func prefilterTree(rules []crule, root *node) {
	// Count how often each key that can have a bit is read: by an inner node (on every URL
	// that reaches it) or by a rule's condition or Copy.
	count := map[urlnorm.Key]int{}
	add := func(k urlnorm.Key, n int) {
		if k.Sub != 0 || k.RSub != 0 {
			k = baseKey(k)
		}
		if bitKey(k) {
			count[k] += n
		}
	}
	var walk func(n *node, f func(n *node))
	walk = func(n *node, f func(n *node)) {
		for ; n != nil; n = n.rest {
			f(n)
			for i := range n.kids {
				walk(n.kids[i].node, f)
			}
			for _, c := range n.children {
				walk(c, f)
			}
			walk(n.present, f)
			walk(n.absent, f)
		}
	}
	walk(root, func(n *node) {
		if n.leaf == nil {
			add(n.key, 4)
			return
		}
		for _, i := range n.leaf {
			r := &rules[i]
			for _, c := range r.Context {
				if c.Op != Absent || c.Key.Sub == 0 && c.Key.RSub == 0 {
					add(c.Key, 1)
				}
			}
			for _, k := range r.needs {
				add(k, 1)
			}
		}
	})
	keys := make([]urlnorm.Key, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b urlnorm.Key) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return compareKey(a, b)
	})
	keys = keys[:min(len(keys), 64)]
	bits := make(map[urlnorm.Key]uint8, len(keys))
	t := &keyTable{}
	nq := 0
	for i, k := range keys {
		bits[k] = uint8(i)
		if k.Part == urlnorm.PartQuery {
			nq++
		}
	}
	if nq > 0 {
		lg := 2
		for 1<<lg < 2*nq {
			lg++
		}
		t.query = make([]queryBit, 1<<lg)
		t.qshift = uint8(64 - lg)
	}
	for i, k := range keys {
		b := uint64(1) << i
		switch k.Part {
		case urlnorm.PartQuery:
			mask := uint64(len(t.query) - 1)
			j := nameHash(k.Name) >> t.qshift
			for t.query[j].bit != 0 {
				j = (j + 1) & mask
			}
			t.query[j] = queryBit{name: k.Name, pos: k.Pos, bit: uint8(i + 1)}
		case urlnorm.PartPath:
			if t.path == nil {
				t.path = make([]uint64, maxPathBit+1)
			}
			for n := range t.path {
				// n segments, n == maxPathBit for any number from it on.
				var ok bool
				switch {
				case k.Pos != 0 && k.RPos != 0:
					ok = int(k.Pos)+int(k.RPos)-1 == n
				case k.Pos != 0:
					ok = int(k.Pos) <= n
				default:
					ok = int(k.RPos) <= n
				}
				if ok {
					t.path[n] |= b
				}
			}
		default:
			t.part[k.Part] |= b
			t.early = true
		}
	}
	root.keys = t
	t.gate = treeGate(rules, root, bits, walk)
	for k, b := range bits {
		if t.gate&(1<<b) != 0 && k.Part == urlnorm.PartQuery {
			nb := nameBit(k.Name)
			t.gateNames[nb>>6] |= 1 << (nb & 63)
		}
	}
	// The prefilters of all leaves and the checks of all rules are parts of two arrays, one
	// allocation each for the tree.
	nrules := 0
	walk(root, func(n *node) { nrules += len(n.leaf) })
	pres := make([]leafEnt, nrules)
	type span struct {
		i, a, b int32
		e       *leafEnt
	}
	var checks []probe
	spans := make([]span, 0, nrules)
	var deepCheck []probe
	walk(root, func(n *node) {
		if n.leaf == nil {
			if b, ok := bits[n.key]; ok {
				n.bit = b + 1
			}
			n.look = lookOf(n)
			return
		}
		n.ents, pres = pres[:len(n.leaf):len(n.leaf)], pres[len(n.leaf):]
		for j, i := range n.leaf {
			r := &rules[i]
			p := &n.ents[j]
			p.i = i
			// What the prefilter leaves to matches: the conditions that neither the way to
			// the leaf (known) nor the mask decides, those on deep keys last (the first of
			// them splits the URL into deep tokens), and the keys to copy from likewise.
			a := len(checks)
			deepCheck = deepCheck[:0]
			for ci := range r.Context {
				c := &r.Context[ci]
				if ci < 64 && r.known&(1<<ci) != 0 {
					continue
				}
				if c.Key == hostOnly && !r.Scope.Domain && r.Scope.Host != AllHosts && c.Op == Equal && c.Value == r.Scope.Host {
					continue // the tree of an exact host is searched for that host only
				}
				k := c.Key
				deep := k.Sub != 0 || k.RSub != 0
				if deep {
					k = baseKey(k)
				}
				if b, ok := bits[k]; ok {
					switch {
					case c.Op == Absent && !deep:
						p.forbid |= 1 << b
					case c.Op != Absent:
						p.need |= 1 << b
					}
					// A deep token may be absent from a present token.
					if !deep && c.Op != Equal {
						continue
					}
				}
				if deep {
					deepCheck = append(deepCheck, compileProbe(&c.Key, c.Op, c.Value))
				} else {
					checks = append(checks, compileProbe(&c.Key, c.Op, c.Value))
				}
			}
			checks = append(checks, deepCheck...)
			for ni, k := range r.needs {
				b, ok := bits[baseKey(k)]
				if ok {
					p.need |= 1 << b
				}
				if !ok || k.Sub != 0 || k.RSub != 0 {
					checks = append(checks, compileProbe(&r.needs[ni], Any, ""))
				}
			}
			spans = append(spans, span{i, int32(a), int32(len(checks)), p})
		}
	})
	checks = slices.Clip(checks)
	for _, sp := range spans {
		rules[sp.i].check = checks[sp.a:sp.b:sp.b]
		sp.e.check = rules[sp.i].check
	}
}

// treeGate returns keyTable.gate of the tree rooted at root, whose keys have bits; walk visits
// its nodes.
func treeGate(rules []crule, root *node, bits map[urlnorm.Key]uint8, walk func(*node, func(*node))) uint64 {
	var gate uint64
	open := false // a rule requires no key with a bit
	walk(root, func(n *node) {
		for _, i := range n.leaf {
			r := &rules[i]
			var req uint64
			for ci := range r.Context {
				if c := &r.Context[ci]; c.Op != Absent {
					if b, ok := bits[baseKey(c.Key)]; ok {
						req |= 1 << b
					}
				}
			}
			for _, k := range r.needs {
				if b, ok := bits[baseKey(k)]; ok {
					req |= 1 << b
				}
			}
			if req == 0 {
				open = true
			}
			gate |= req
		}
	})
	if open {
		return 0
	}
	return gate
}

// mask returns the presence mask of v for table t (0 for a nil t): one pass over the query (and
// the userinfo and port, if a key of theirs has a bit), a table lookup for the path.
func (t *keyTable) mask(v *view) uint64 { return t.maskAt(v, 64) }

// maskAt is mask, kept as v's mask of slot (view.maskFor) if slot < 64.
func (t *keyTable) maskAt(v *view, slot int) uint64 {
	var m uint64
	if t != nil {
		if t.path != nil {
			m = t.path[min(v.nseg, maxPathBit)]
		}
		from := v.queryAt
		if t.early {
			from = 0
		} else if t.query == nil {
			from = len(v.whole)
		}
		for i := from; i < len(v.whole); i++ {
			tok := &v.whole[i]
			switch tok.Part {
			case urlnorm.PartQuery:
				if t.query == nil {
					continue
				}
				mask := uint64(len(t.query) - 1)
				for j := nameHash(tok.Name) >> t.qshift; ; j = (j + 1) & mask {
					q := &t.query[j]
					if q.bit == 0 {
						break
					}
					if q.pos == tok.Pos && q.name == tok.Name {
						m |= 1 << (q.bit - 1)
						break
					}
				}
			case urlnorm.PartUserinfo, urlnorm.PartPort, urlnorm.PartFragment:
				m |= t.part[tok.Part]
			}
		}
	}
	if slot < 64 {
		v.masks[slot] = m
		v.made |= 1 << slot
	}
	return m
}

// mayOpen reports whether the tree of table t may open to v (node.opens of v's mask) without
// making the mask: false, which is certain, if the gate has none of v's path keys and none of
// v's query names, by their nameBit (a gate of other keys is taken as open). A tree that only
// its gate would turn away, such as that of every host, costs then a pass over the names only.
func (t *keyTable) mayOpen(v *view) bool {
	if t == nil || t.gate == 0 || t.early {
		return true
	}
	if t.path != nil && t.path[min(v.nseg, maxPathBit)]&t.gate != 0 {
		return true
	}
	for i := v.queryAt; i < len(v.whole); i++ {
		if b := nameBit(v.whole[i].Name); t.gateNames[b>>6]>>(b&63)&1 != 0 {
			return true
		}
	}
	return false
}

// loadMasks prepares v for the presence masks of the URL just loaded, which maskFor makes when
// first needed, and counts the URL (oneToken); load calls it.
func (v *view) loadMasks() { v.made, v.gen = 0, v.gen+1 }

// maskFor returns v's presence mask for the tree rooted at root, which holds slot in the order of
// matchFrom: 0 for the host's tree, 1 for that of every host, 2+i for doms[i]. The first 64
// slots are made once per URL: a URL that a host's rule matches does not need the mask of every
// host's tree, whose rules come after (they have no literal conditions).
// It is small enough to be inlined in matchFrom; keyTable.maskAt makes and keeps the mask.
func (v *view) maskFor(slot int, root *node) uint64 {
	if v.made>>slot&1 != 0 { // 0 from slot 64 on
		return v.masks[slot&63]
	}
	return root.keys.maskAt(v, slot)
}

// maskOf returns v's presence mask for the tree rooted at root, by its slot if it has one.
func (v *view) maskOf(root *node, s *Set) uint64 {
	switch {
	case root == v.hostTree:
		return v.maskFor(0, root)
	case root == s.all && v.host != AllHosts:
		return v.maskFor(1, root)
	}
	for i, n := range v.doms {
		if n == root {
			return v.maskFor(2+i, root)
		}
	}
	return v.maskFor(64, root)
}
