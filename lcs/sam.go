package lcs

import (
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// automaton is a generalized suffix automaton (a DAWG of all substrings of
// the strings added to it), built online: adding a string of n runes costs
// amortized O(n log σ) time, where σ bounds the out-degree of a state, and
// creates at most 2n states and 3n transitions.
//
// Transitions are stored per state: none, one inline, or a sorted block of
// a power-of-two capacity in a shared arena (a size-class allocator with
// free lists reuses blocks left behind when a state outgrows its block).
// Most states have one transition, so most need no arena space.
type automaton struct {
	st   []state
	sym  []rune   // arena: transition symbols, sorted within a block
	to   []uint32 // arena: transition targets, parallel to sym
	free [32][]uint32
}

// state is one state of the automaton: the class of substrings that share
// their set of end positions.
type state struct {
	len   int32  // length of the longest substring in the class
	link  int32  // suffix link; -1 for the root
	owner int32  // id of the first string added that contains the class
	deg   int32  // number of transitions
	a     uint32 // deg == 1: the symbol; deg > 1: arena offset of the block
	b     uint32 // deg == 1: the target
}

const stateBytes = int(unsafe.Sizeof(state{}))

func (m *automaton) reset() {
	m.st = append(m.st[:0], state{link: -1, owner: -1})
	m.sym = m.sym[:0]
	m.to = m.to[:0]
	for i := range m.free {
		m.free[i] = m.free[i][:0]
	}
}

// bytes returns the memory held by the automaton.
func (m *automaton) bytes() int {
	n := cap(m.st)*stateBytes + cap(m.sym)*4 + cap(m.to)*4
	for _, f := range m.free {
		n += cap(f) * 4
	}
	return n
}

// next returns the target of the transition from s on c, or -1.
func (m *automaton) next(s int32, c rune) int32 {
	st := &m.st[s]
	switch st.deg {
	case 0:
		return -1
	case 1:
		if rune(st.a) == c {
			return int32(st.b)
		}
		return -1
	}
	i, ok := m.search(st.a, st.deg, c)
	if !ok {
		return -1
	}
	return int32(m.to[i])
}

// search finds c in the block at off with n entries: its index, or the
// index where it would be inserted.
func (m *automaton) search(off uint32, n int32, c rune) (uint32, bool) {
	syms := m.sym[off : off+uint32(n)]
	lo, hi := 0, len(syms)
	if len(syms) <= 8 {
		for lo < hi && syms[lo] < c {
			lo++
		}
	} else {
		for lo < hi {
			h := int(uint(lo+hi) >> 1)
			if syms[h] < c {
				lo = h + 1
			} else {
				hi = h
			}
		}
	}
	return off + uint32(lo), lo < len(syms) && syms[lo] == c
}

// alloc returns the offset of a free block of 1<<class entries.
func (m *automaton) alloc(class int) uint32 {
	if f := m.free[class]; len(f) > 0 {
		off := f[len(f)-1]
		m.free[class] = f[:len(f)-1]
		return off
	}
	off := len(m.sym)
	if off+1<<class > math.MaxUint32 {
		panic("lcs: automaton arena exceeds 2^32 transitions")
	}
	m.sym = append(m.sym, make([]rune, 1<<class)...)
	m.to = append(m.to, make([]uint32, 1<<class)...)
	return uint32(off)
}

// blockClass returns the size class of a block holding n > 1 entries.
func blockClass(n int32) int {
	return bits.Len32(uint32(n - 1))
}

// add adds a transition from s on c to t; s has none on c.
func (m *automaton) add(s int32, c rune, t int32) {
	st := &m.st[s]
	switch st.deg {
	case 0:
		st.a, st.b, st.deg = uint32(c), uint32(t), 1
		return
	case 1:
		off := m.alloc(1)
		st = &m.st[s]
		c0, t0 := rune(st.a), st.b
		if c0 < c {
			m.sym[off], m.to[off], m.sym[off+1], m.to[off+1] = c0, t0, c, uint32(t)
		} else {
			m.sym[off], m.to[off], m.sym[off+1], m.to[off+1] = c, uint32(t), c0, t0
		}
		st.a, st.b, st.deg = off, 0, 2
		return
	}
	n := st.deg
	if n&(n-1) == 0 { // full: move to a block twice the size
		class := blockClass(n)
		off := m.alloc(class + 1)
		st = &m.st[s]
		copy(m.sym[off:off+uint32(n)], m.sym[st.a:st.a+uint32(n)])
		copy(m.to[off:off+uint32(n)], m.to[st.a:st.a+uint32(n)])
		m.free[class] = append(m.free[class], st.a)
		st.a = off
	}
	i, _ := m.search(st.a, n, c)
	end := st.a + uint32(n)
	copy(m.sym[i+1:end+1], m.sym[i:end])
	copy(m.to[i+1:end+1], m.to[i:end])
	m.sym[i], m.to[i] = c, uint32(t)
	st.deg++
}

// redirect changes the existing transition from s on c to t.
func (m *automaton) redirect(s int32, c rune, t int32) {
	st := &m.st[s]
	if st.deg == 1 {
		st.b = uint32(t)
		return
	}
	i, _ := m.search(st.a, st.deg, c)
	m.to[i] = uint32(t)
}

// newState appends a state and returns its index.
func (m *automaton) newState(s state) int32 {
	if len(m.st) >= math.MaxInt32 {
		panic("lcs: automaton exceeds 2^31 states")
	}
	m.st = append(m.st, s)
	return int32(len(m.st) - 1)
}

// clone returns a copy of q, transitions included, with length n.
func (m *automaton) clone(q int32, n int32) int32 {
	s := m.st[q]
	s.len = n
	if s.deg > 1 {
		class := blockClass(s.deg)
		off := m.alloc(class)
		copy(m.sym[off:off+uint32(s.deg)], m.sym[s.a:s.a+uint32(s.deg)])
		copy(m.to[off:off+uint32(s.deg)], m.to[s.a:s.a+uint32(s.deg)])
		s.a = off
	}
	return m.newState(s)
}

// insert adds the string s, with id, to the automaton.
func (m *automaton) insert(s string, id int32) {
	if len(m.st) == 0 {
		m.reset()
	}
	last := int32(0)
	for _, c := range s {
		last = m.extend(last, c, id)
	}
}

// extend adds c after the state last, the state of the whole prefix added
// so far of the current string, and returns the state of the longer prefix.
// This is the online construction for several strings: a prefix that
// already occurs needs no new state, only possibly a clone.
func (m *automaton) extend(last int32, c rune, id int32) int32 {
	if q := m.next(last, c); q >= 0 {
		if m.st[q].len == m.st[last].len+1 {
			return q
		}
		return m.split(last, c, q)
	}
	cur := m.newState(state{len: m.st[last].len + 1, owner: id})
	p := last
	for p >= 0 && m.next(p, c) < 0 {
		m.add(p, c, cur)
		p = m.st[p].link
	}
	if p < 0 {
		m.st[cur].link = 0
		return cur
	}
	q := m.next(p, c)
	if m.st[q].len == m.st[p].len+1 {
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
	for p >= 0 && m.next(p, c) == q {
		m.redirect(p, c, cl)
		p = m.st[p].link
	}
	return cl
}

// longest walks s through the automaton and returns the length in runes of
// the longest substring of s that is a substring of some added string, the
// byte offset in s where the first such substring ends, and the owner of its
// state (the first added string containing it), -1 if nothing matched.
// It takes O(len(s)) steps (amortized; each costs O(log σ)).
func (m *automaton) longest(s string) (n, end int, owner int32) {
	owner = -1
	if len(m.st) == 0 {
		return 0, 0, -1
	}
	v, l := int32(0), int32(0)
	best, bestAt := int32(0), 0
	for i, c := range s {
		for {
			if t := m.next(v, c); t >= 0 {
				v, l = t, l+1
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
			best, bestAt, owner = l, i, m.st[v].owner
		}
	}
	if best > 0 {
		_, size := utf8.DecodeRuneInString(s[bestAt:])
		end = bestAt + size
	}
	return int(best), end, owner
}
