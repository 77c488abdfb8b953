package lcs

import (
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// automaton is a generalized suffix automaton (a DAWG of all substrings of
// the strings added to it), built online: adding a string of n runes costs
// amortized O(n) time and creates at most 2n states and 3n transitions.
//
// The layout is chosen for few cache misses on an automaton far larger than
// the caches. A state is 16 bytes, four to a cache line: its length, its
// suffix link and one word that is either its only transition (most states
// have one) or a reference to a block of an arena. Blocks of 2, 4 or 8
// transitions are scanned linearly; more live in an open-addressing hash
// table in the arena (load at most 3/4) behind a header entry holding their
// number. Blocks come in size classes; an allocator with free lists reuses
// the blocks left behind when a state outgrows its block. The owner of
// each state, read only when a walk finds a longer match, is kept apart.
type automaton struct {
	st    []state
	owner []int32  // per state: id of the first string added that contains it
	edge  []uint64 // arena of blocks of transitions; 0 is an empty entry
	free  [32][]uint32
}

// state is one state of the automaton: the class of substrings that share
// their set of end positions.
type state struct {
	len  int32  // length of the longest substring in the class
	link int32  // suffix link; -1 for the root
	e    uint64 // 0, the only transition, or isBlock | class<<classShift | offset
}

const (
	// stateBytes is the memory of a state, its owner included.
	stateBytes     = int(unsafe.Sizeof(state{})) + 4
	maxLinear      = 8 // blocks up to this many transitions are scanned
	maxLinearClass = 3
	isBlock        = 1 << 63
	classShift     = 56
)

// A transition is symbol<<32 | target, never 0 since no transition leads
// to the root. Symbols are runes, below 2^21, so a state's word tells a
// transition from a block reference by its top bit.
//
// solid marks a transition p -> q with len(q) == len(p)+1, which the
// construction asks about for every added rune: the bit saves reading q,
// a cache miss on a large automaton. Targets are below 2^31, so bit 31 of
// the target half is free.
const solid = 1 << 31

func edge(c rune, t int32) uint64 { return uint64(uint32(c))<<32 | uint64(uint32(t)) }
func edgeSym(e uint64) rune       { return rune(e >> 32) }
func edgeTo(e uint64) int32       { return int32(uint32(e) &^ solid) }
func isSolid(e uint64) bool       { return e&solid != 0 }

func blockRef(class int, off uint64) uint64 { return isBlock | uint64(class)<<classShift | off }
func blockOf(e uint64) (class int, off uint64) {
	return int(e>>classShift) & 31, uint64(uint32(e))
}

// blockSize returns the number of arena entries of a block of class:
// 1<<class transitions scanned linearly, or a header and a hash table of
// 1<<class slots.
func blockSize(class int) uint64 {
	if class <= maxLinearClass {
		return 1 << class
	}
	return 1<<class + 1
}

// blockClass returns the class of the block for a state with deg >= 2
// transitions: 2, 4 or 8 entries scanned linearly, else a hash table of at
// least 4/3 deg slots (more are as many cache misses and touch more memory).
func blockClass(deg int32) int {
	if deg <= maxLinear {
		return bits.Len32(uint32(deg - 1))
	}
	return bits.Len32(uint32(deg + deg/3))
}

func hashSlot(c rune, class int) uint32 {
	return uint32(c) * 0x9e3779b1 >> (32 - class)
}

func (m *automaton) reset() {
	m.st = append(m.st[:0], state{link: -1})
	m.owner = append(m.owner[:0], -1)
	m.edge = m.edge[:0]
	for i := range m.free {
		m.free[i] = m.free[i][:0]
	}
}

// reserve makes room for adding strings of about runes runes in total
// without growing the arrays: about 1.2 states and 1.8 arena entries per
// rune are used on text-like strings. The arrays it makes are advised to
// huge pages (see adviseHuge).
func (m *automaton) reserve(runes int) {
	if len(m.st) == 0 {
		m.reset()
	}
	if need := len(m.st) + runes*5/4 + 1; need > cap(m.st) {
		st := make([]state, len(m.st), need)
		adviseHuge(unsafe.Pointer(unsafe.SliceData(st)), need*int(unsafe.Sizeof(state{})))
		copy(st, m.st)
		m.st = st
		owner := make([]int32, len(m.owner), need)
		adviseHuge(unsafe.Pointer(unsafe.SliceData(owner)), need*4)
		copy(owner, m.owner)
		m.owner = owner
	}
	if need := len(m.edge) + runes*2; need > cap(m.edge) {
		edge := make([]uint64, len(m.edge), need)
		adviseHuge(unsafe.Pointer(unsafe.SliceData(edge)), need*8)
		copy(edge, m.edge)
		m.edge = edge
	}
}

// bytes returns the memory held by the automaton.
func (m *automaton) bytes() int {
	n := cap(m.st)*int(unsafe.Sizeof(state{})) + cap(m.owner)*4 + cap(m.edge)*8
	for _, f := range m.free {
		n += cap(f) * 4
	}
	return n
}

// find returns the transition from s on c, or nil. The pointer is valid
// until the automaton grows.
func (m *automaton) find(s int32, c rune) *uint64 {
	st := &m.st[s]
	e := st.e
	if e&isBlock == 0 {
		if e != 0 && edgeSym(e) == c {
			return &st.e
		}
		return nil
	}
	class, off := blockOf(e)
	if class <= maxLinearClass {
		block := m.edge[off : off+1<<class]
		for i := range block {
			if block[i] == 0 {
				return nil
			}
			if edgeSym(block[i]) == c {
				return &block[i]
			}
		}
		return nil
	}
	p := &m.edge[m.slot(e, c)]
	if *p == 0 {
		return nil
	}
	return p
}

// next returns the target of the transition from s on c, or -1.
func (m *automaton) next(s int32, c rune) int32 {
	if e := m.find(s, c); e != nil {
		return edgeTo(*e)
	}
	return -1
}

// slot returns the index of c's slot in the hash block that e refers to,
// or of the empty slot where c would go.
func (m *automaton) slot(e uint64, c rune) uint64 {
	class, off := blockOf(e)
	mask := uint32(1)<<class - 1
	off++ // the header
	block := m.edge[off : off+uint64(mask)+1]
	for i := hashSlot(c, class); ; i = (i + 1) & mask {
		if x := block[i]; x == 0 || edgeSym(x) == c {
			return off + uint64(i)
		}
	}
}

// alloc returns the offset of a free, zeroed block of class.
func (m *automaton) alloc(class int) uint64 {
	size := blockSize(class)
	if f := m.free[class]; len(f) > 0 {
		off := uint64(f[len(f)-1])
		m.free[class] = f[:len(f)-1]
		clear(m.edge[off : off+size])
		return off
	}
	off := len(m.edge)
	if uint64(off)+size > math.MaxUint32 {
		panic("lcs: automaton arena exceeds 2^32 transitions")
	}
	if end := off + int(size); end <= cap(m.edge) {
		// Reuse the room a reset left (without a make that the race
		// detector's build would allocate).
		m.edge = m.edge[:end]
		clear(m.edge[off:end])
	} else {
		m.edge = append(m.edge, make([]uint64, size)...)
	}
	return uint64(off)
}

// add adds the transition x from s; s has none on its symbol.
func (m *automaton) add(s int32, x uint64) {
	e := m.st[s].e
	switch {
	case e == 0:
		m.st[s].e = x
		return
	case e&isBlock == 0:
		off := m.alloc(1)
		m.edge[off], m.edge[off+1] = e, x
		m.st[s].e = blockRef(1, off)
		return
	}
	class, off := blockOf(e)
	var d int32 // transitions before x
	if class <= maxLinearClass {
		block := m.edge[off : off+1<<class]
		for d < int32(len(block)) && block[d] != 0 {
			d++
		}
		if d < int32(len(block)) {
			block[d] = x
			return
		}
		if d < maxLinear {
			noff := m.alloc(class + 1)
			copy(m.edge[noff:], m.edge[off:off+uint64(d)])
			m.edge[noff+uint64(d)] = x
			m.free[class] = append(m.free[class], uint32(off))
			m.st[s].e = blockRef(class+1, noff)
			return
		}
	} else {
		d = int32(m.edge[off])
		if blockClass(d+1) == class {
			m.edge[off] = uint64(d + 1)
			m.edge[m.slot(e, edgeSym(x))] = x
			return
		}
	}
	// Move to a (larger) hash block.
	newClass := blockClass(d + 1)
	noff := m.alloc(newClass)
	ne := blockRef(newClass, noff)
	m.edge[noff] = uint64(d + 1)
	var old []uint64
	if class <= maxLinearClass {
		old = m.edge[off : off+uint64(d)]
	} else {
		old = m.edge[off+1 : off+blockSize(class)]
	}
	for _, o := range old {
		if o != 0 {
			m.edge[m.slot(ne, edgeSym(o))] = o
		}
	}
	m.edge[m.slot(ne, edgeSym(x))] = x
	m.free[class] = append(m.free[class], uint32(off))
	m.st[s].e = ne
}

// newState appends a state with owner and returns its index.
func (m *automaton) newState(s state, owner int32) int32 {
	if len(m.st) >= math.MaxInt32 {
		panic("lcs: automaton exceeds 2^31 states")
	}
	m.st = append(m.st, s)
	m.owner = append(m.owner, owner)
	return int32(len(m.st) - 1)
}

// clone returns a copy of q, transitions and owner included, with length
// n. The copied transitions are not solid: n < len(q) < len(t) for each
// target t of q, and len(t) > len(q) >= n+1.
func (m *automaton) clone(q int32, n int32) int32 {
	s := m.st[q]
	s.len = n
	if s.e&isBlock != 0 {
		class, off := blockOf(s.e)
		size := blockSize(class)
		noff := m.alloc(class)
		block := m.edge[noff : noff+size]
		copy(block, m.edge[off:off+size])
		for i := range block {
			block[i] &^= solid // a hash header, a count below 2^31, keeps its value
		}
		s.e = blockRef(class, noff)
	} else {
		s.e &^= solid
	}
	return m.newState(s, m.owner[q])
}

// insert adds the string s, with id, to the automaton.
func (m *automaton) insert(s string, id int32) {
	if len(m.st) == 0 {
		m.reset()
	}
	last := int32(0)
	for i := 0; i < len(s); {
		// Decoded as in longest.
		c, size := rune(s[i]), 1
		if c >= 0xE1 && c <= 0xEC && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			c, size = c&0x0F<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
		} else if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		last = m.extend(last, c, id)
		i += size
	}
}

// extend adds c after the state last, the state of the whole prefix added
// so far of the current string, and returns the state of the longer prefix.
// This is the online construction for several strings: a prefix that
// already occurs needs no new state, only possibly a clone.
func (m *automaton) extend(last int32, c rune, id int32) int32 {
	if e := m.find(last, c); e != nil {
		if isSolid(*e) {
			return edgeTo(*e)
		}
		return m.split(last, c, edgeTo(*e))
	}
	cur := m.newState(state{len: m.st[last].len + 1}, id)
	p := last
	var q int32
	var found uint64
	add := edge(c, cur) | solid // only the transition from last is solid
	for {
		if e := m.find(p, c); e != nil {
			found = *e
			q = edgeTo(found)
			break
		}
		m.add(p, add)
		add &^= solid
		if p = m.st[p].link; p < 0 {
			m.st[cur].link = 0
			return cur
		}
	}
	if isSolid(found) {
		m.st[cur].link = q
		return cur
	}
	m.st[cur].link = m.split(p, c, q)
	return cur
}

// split clones q, the target of p on c, into a state of length len(p)+1,
// redirects p and its suffixes from q to the clone, and returns the clone.
// The clone keeps q's owner: its substrings occurred first where q's did.
func (m *automaton) split(p int32, c rune, q int32) int32 {
	cl := m.clone(q, m.st[p].len+1)
	m.st[q].link = cl
	to := edge(c, cl) | solid // only the transition from p is solid
	for p >= 0 {
		e := m.find(p, c)
		if edgeTo(*e) != q {
			break // p has c, as a suffix of a state that has
		}
		*e = to
		to &^= solid
		p = m.st[p].link
	}
	return cl
}

// longest walks s, of size runes, through the automaton and returns the
// length in runes of the longest substring of s that is a substring of some
// added string, the byte offset in s where the first such substring ends,
// and the owner of its state (the first added string containing it), -1 if
// nothing matched. It takes O(size) steps (amortized).
//
// With need > 0 it may stop early, once no substring of need runes can be
// found any more (the current match plus the runes left fall short); the
// result is then the longest found so far, shorter than need.
func (m *automaton) longest(s string, size, need int) (n, end int, owner int32) {
	owner = -1
	if len(m.st) == 0 {
		return 0, 0, -1
	}
	v, l := int32(0), int32(0)
	best, bestAt := int32(0), 0
	left := int32(size) // runes not yet walked
	for i, size := 0, 0; i < len(s); i += size {
		// Decoded as ranging over s does, with the three-byte runes
		// of CJK text inline: lead bytes E1 to EC take any two
		// continuation bytes (U+1000 to U+CFFF).
		c := rune(s[i])
		size = 1
		if c >= 0xE1 && c <= 0xEC && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			c, size = c&0x0F<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
		} else if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		left--
		for {
			if e := m.find(v, c); e != nil {
				v, l = edgeTo(*e), l+1
				break
			}
			if v == 0 {
				l = 0
				break
			}
			v = m.st[v].link
			l = m.st[v].len
		}
		if l > best {
			best, bestAt, owner = l, i, m.owner[v]
		}
		if int(best) < need && int(l+left) < need {
			break
		}
	}
	if best > 0 {
		_, size := utf8.DecodeRuneInString(s[bestAt:])
		end = bestAt + size
	}
	return int(best), end, owner
}

// insertRunes adds the string of runes s, with id, to the automaton.
func (m *automaton) insertRunes(s []rune, id int32) {
	if len(m.st) == 0 {
		m.reset()
	}
	last := int32(0)
	for _, c := range s {
		last = m.extend(last, c, id)
	}
}
