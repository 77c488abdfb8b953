package lcs

import (
	"math"
	"math/bits"
	"unsafe"
)

// The kept codes are indexed by their minimizers: of every window of
// window consecutive q-grams (gramLen runes each), the one of least hash,
// the leftmost of equal ones. Which gram a window selects depends on the
// window's runes only, so a common substring of at least minRun runes,
// which holds a whole window, has a selected gram at the same place in
// both codes: looking up the selected grams of a code finds every kept code
// sharing minRun runes with it, on the right diagonal. About 2/(window+1)
// of the grams are selected.
const (
	gramLen = 5
	window  = 4
	minRun  = window + gramLen - 1
)

// index holds the kept codes as runes and their selected grams in a hash
// table with chaining: head maps a bucket to its latest posting, and each
// posting to the one before. Postings and heads are 1-based, 0 ends a chain.
type index struct {
	text  []rune  // the runes of the kept codes, one after another
	start []int32 // per kept code its offset in text, and len(text) at the end
	ids   []int32 // per kept code the id Add gave it
	head  []int32
	post  []posting

	// Scratch of one search or scan.
	filter [1 << 10]uint64
	hash   []uint64
	sel    []int32
	runs   runTable
}

// posting is one selected gram of a kept code.
type posting struct {
	next int32  // the posting before it in its bucket, 1-based; 0 for none
	key  uint32 // the low half of the gram's hash; the bucket is its low bits
	code int32  // the kept code, an index into start
	pos  int32  // the gram's offset in the kept code, in runes
}

// gramHash returns the hash of the gram of gramLen runes at r[0:].
func gramHash(r []rune) uint64 {
	a := uint64(r[0])<<42 | uint64(r[1])<<21 | uint64(r[2])
	b := uint64(r[3])<<21 | uint64(r[4])
	x := a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	return x
}

func (x *index) reset() {
	x.text = x.text[:0]
	x.start = append(x.start[:0], 0)
	x.ids = x.ids[:0]
	clear(x.head)
	x.post = x.post[:0]
}

// reserve makes room for keeping codes of about runes runes in total.
func (x *index) reserve(runes int) {
	if len(x.start) == 0 {
		x.reset()
	}
	if need := len(x.text) + runes; need > cap(x.text) {
		text := make([]rune, len(x.text), need)
		adviseHuge(unsafe.Pointer(unsafe.SliceData(text)), need*4)
		copy(text, x.text)
		x.text = text
	}
	posts := len(x.post) + runes*2/(window+1) + runes/16
	if posts > cap(x.post) {
		post := make([]posting, len(x.post), posts)
		adviseHuge(unsafe.Pointer(unsafe.SliceData(post)), posts*int(unsafe.Sizeof(posting{})))
		copy(post, x.post)
		x.post = post
	}
	if posts > len(x.head) {
		x.rehash(posts)
	}
}

// rehash makes the table of heads at least n long, a power of two, and
// puts the postings back in their buckets, in their order.
func (x *index) rehash(n int) {
	size := 1 << bits.Len(uint(max(n, 1024)-1))
	if size > math.MaxInt32 {
		panic("lcs: index exceeds 2^31 buckets")
	}
	head := make([]int32, size)
	adviseHuge(unsafe.Pointer(unsafe.SliceData(head)), size*4)
	mask := uint32(size - 1)
	for i := range x.post {
		p := &x.post[i]
		b := p.key & mask
		p.next = head[b]
		head[b] = int32(i + 1)
	}
	x.head = head
}

// bytes returns the memory held by the index.
func (x *index) bytes() int {
	return (cap(x.text)+cap(x.start)+cap(x.ids)+cap(x.head)+cap(x.sel))*4 +
		cap(x.post)*int(unsafe.Sizeof(posting{})) + cap(x.hash)*8 + x.runs.bytes()
}

// code returns the runes of kept code k.
func (x *index) code(k int32) []rune { return x.text[x.start[k]:x.start[k+1]] }

// selectGrams sets x.hash to the hashes of the grams of c and x.sel to the
// offsets of the selected ones, in increasing order.
func (x *index) selectGrams(c []rune) {
	x.hash, x.sel = x.hash[:0], x.sel[:0]
	if len(c) < minRun {
		return
	}
	for i := 0; i+gramLen <= len(c); i++ {
		x.hash = append(x.hash, gramHash(c[i:i+gramLen]))
	}
	h := x.hash
	last := int32(-1)
	for k := 0; k+window <= len(h); k++ {
		m := k
		for j := k + 1; j < k+window; j++ {
			if h[j] < h[m] {
				m = j
			}
		}
		if int32(m) != last {
			last = int32(m)
			x.sel = append(x.sel, last)
		}
	}
}

// add keeps c, of at least one rune, with id. It must follow a
// selectGrams(c).
func (x *index) add(c []rune, id int32) {
	if len(x.start) == 0 {
		x.reset()
	}
	if len(x.text)+len(c) > math.MaxInt32 || len(x.post)+len(x.sel) >= math.MaxInt32 {
		panic("lcs: index exceeds 2^31 runes")
	}
	k := int32(len(x.ids))
	x.text = append(x.text, c...)
	x.start = append(x.start, int32(len(x.text)))
	x.ids = append(x.ids, id)
	if len(x.post)+len(x.sel) > len(x.head) {
		x.rehash(2 * (len(x.post) + len(x.sel)))
	}
	mask := uint32(len(x.head) - 1)
	for _, i := range x.sel {
		key := uint32(x.hash[i])
		b := key & mask
		x.post = append(x.post, posting{next: x.head[b], key: key, code: k, pos: i})
		x.head[b] = int32(len(x.post))
	}
}

// match is a common substring of a code and a kept code: its length, its
// end in the code (in runes) and the kept code's id.
type match struct {
	n, end, id int32
}

// better reports whether m is preferred to o: longer, else ending first in
// the code, else in a code kept first.
func (m match) better(o match) bool {
	if m.n != o.n {
		return m.n > o.n
	}
	if m.end != o.end {
		return m.end < o.end
	}
	return m.id < o.id
}

// search returns the preferred (see better) of the longest common
// substrings of c with kept codes, if its length is at least minRun; a
// shorter one it found by chance; or a match of length 0 and id -1. It
// must follow a selectGrams(c). work counts the postings and runes it
// looked at; once it exceeds limit, search stops and returns ok false.
func (x *index) search(c []rune, limit int) (best match, work int, ok bool) {
	best = match{id: -1}
	if len(x.post) == 0 {
		return best, 0, true
	}
	mask := uint32(len(x.head) - 1)
	x.runs.clear()
	for _, i := range x.sel {
		key := uint32(x.hash[i])
		for p := x.head[key&mask]; p != 0; {
			po := &x.post[p-1]
			p = po.next
			work++
			if po.key != key {
				continue
			}
			diag := po.pos - i
			slot, end := x.runs.find(po.code, diag)
			if end > i {
				continue // inside a common substring found before
			}
			k := x.code(po.code)
			s, t := int(i), int(po.pos)
			if [gramLen]rune(c[s:s+gramLen]) != [gramLen]rune(k[t:t+gramLen]) {
				continue // another gram with the same key
			}
			for s > 0 && t > 0 && c[s-1] == k[t-1] {
				s, t = s-1, t-1
			}
			e, u := int(i)+gramLen, int(po.pos)+gramLen
			for e < len(c) && u < len(k) && c[e] == k[u] {
				e, u = e+1, u+1
			}
			work += e - s
			x.runs.set(slot, po.code, diag, int32(e))
			if m := (match{int32(e - s), int32(e), x.ids[po.code]}); m.better(best) {
				best = m
			}
		}
		if work > limit {
			return best, work, false
		}
	}
	return best, work, true
}

// scan returns the preferred (see better) of the longest common substrings
// of c with kept codes, if its length is at least k (1 or 2), else a
// shorter one or a match of length 0 and id -1. cm is the suffix automaton
// of c with each state's owner the end of its first occurrence (see
// insertEnds). It reads every kept rune, and from each place where a gram
// of k runes of c may start, finds the longest substring of c starting
// there; a common substring of k runes or more starts at one of them. work
// counts the steps taken and a quarter of the runes read; once it exceeds
// limit, scan stops and returns ok false.
func (x *index) scan(c []rune, cm *automaton, k, limit int) (best match, work int, ok bool) {
	best = match{id: -1}
	// Reading the runes in order costs far less than a step at random.
	if work = len(x.text) / 4; work > limit {
		return best, work, false
	}
	// A filter of the grams of c: a bit per hash, none missing.
	f := &x.filter
	for i := 0; i+k <= len(c); i++ {
		h := filterHash(c[i:], k)
		f[h>>6] |= 1 << (h & 63)
	}
	defer clear(f[:])
	for kc := range x.ids {
		code := x.code(int32(kc))
		for j := 0; j+k <= len(code); j++ {
			if h := filterHash(code[j:], k); f[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
			v, l := int32(0), int32(0)
			for t := j; t < len(code); t++ {
				e := cm.find(v, code[t])
				if e == nil {
					break
				}
				v, l = edgeTo(*e), l+1
			}
			work += int(l) + 1
			if l > 0 && l >= best.n {
				if m := (match{l, cm.owner[v] + 1, x.ids[kc]}); m.better(best) {
					best = m
				}
			}
		}
		if work > limit {
			return best, work, false
		}
	}
	return best, work, true
}

// filterHash returns a hash in [0, 2^16) of the k runes (1 or 2) at r[0:].
func filterHash(r []rune, k int) uint32 {
	h := uint32(r[0])
	if k > 1 {
		h = h*0x9e3779b1 ^ uint32(r[1])
	}
	return h * 0x85ebca6b >> 16
}

// insertEnds makes m the suffix automaton of c alone, each state's owner
// the offset of the last rune of the first occurrence of its substrings.
func (m *automaton) insertEnds(c []rune) {
	m.reset()
	last := int32(0)
	for i, r := range c {
		last = m.extend(last, r, int32(i))
	}
}

// runTable maps a kept code and a diagonal (offset in the kept code minus
// offset in the code) to the end of the last common substring found on it,
// for one search: open addressing, keys kept in used to be cleared.
type runTable struct {
	keys []uint64 // code+1 << 32 | diag; 0 is empty
	ends []int32
	used []int32
}

func (t *runTable) bytes() int { return cap(t.keys)*8 + (cap(t.ends)+cap(t.used))*4 }

func (t *runTable) clear() {
	for _, s := range t.used {
		t.keys[s] = 0
	}
	t.used = t.used[:0]
}

func runKey(code, diag int32) uint64 { return uint64(code+1)<<32 | uint64(uint32(diag)) }

// find returns the slot of code and diag and the end stored there, or
// the empty slot where they would go and -1.
func (t *runTable) find(code, diag int32) (slot int, end int32) {
	if len(t.keys) == 0 {
		return -1, -1
	}
	key := runKey(code, diag)
	mask := len(t.keys) - 1
	for s := int(key*0x9e3779b97f4a7c15>>40) & mask; ; s = (s + 1) & mask {
		switch t.keys[s] {
		case key:
			return s, t.ends[s]
		case 0:
			return s, -1
		}
	}
}

// set stores end for code and diag in slot, as find returned it.
func (t *runTable) set(slot int, code, diag, end int32) {
	if key := runKey(code, diag); slot >= 0 && t.keys[slot] == key {
		t.ends[slot] = end
		return
	}
	if 2*(len(t.used)+1) > len(t.keys) {
		t.grow()
		slot, _ = t.find(code, diag)
	}
	t.keys[slot] = runKey(code, diag)
	t.ends[slot] = end
	t.used = append(t.used, int32(slot))
}

func (t *runTable) grow() {
	keys, ends := t.keys, t.ends
	n := max(64, 2*len(keys))
	t.keys, t.ends = make([]uint64, n), make([]int32, n)
	used := t.used
	t.used = make([]int32, 0, n/2)
	for _, s := range used {
		slot, _ := t.find(int32(keys[s]>>32)-1, int32(uint32(keys[s])))
		t.keys[slot], t.ends[slot] = keys[s], ends[s]
		t.used = append(t.used, int32(slot))
	}
}
