package undust

// A keyTable maps the 64-bit hashes of the keys held to their holders: a holder's index, or a
// declaration's index with declaredBit. It is an open-addressing table with linear probing,
// 8 bytes a slot, at most three quarters full: about 13 bytes a key at 10 million keys, against
// 30 for a Go map[uint64]uint32. A slot keeps the low 32 bits of its key's hash (which also say
// where the key belongs, up to 2^32 slots) and the value; the whole hash is the one its value
// names (Crawl.keyHash), so a lookup reads the holder that a crawl reads next anyway, and
// deleting needs nothing but the slots. The zero value is an empty table. The methods take the
// Crawl whose holders and declarations the values name; c.mu is held.
type keyTable struct {
	slots []uint64 // low 32 bits of the hash << 32 | value + 1; 0 is empty
	n     int
}

// keyHash returns the hash of the key that holder or declaration v holds. c.mu is held.
func (c *Crawl) keyHash(v uint32) uint64 {
	if v&declaredBit != 0 {
		return c.decls[v&^declaredBit].key
	}
	return c.holders[v].key
}

// find returns the slot of key hash h, or the empty slot where the probe for it ended.
func (t *keyTable) find(c *Crawl, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return int(i), false
		}
		if s>>32 == h&0xffffffff && c.keyHash(uint32(s)-1) == h {
			return int(i), true
		}
	}
}

// get returns the value of key hash h.
func (t *keyTable) get(c *Crawl, h uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	i, ok := t.find(c, h)
	if !ok {
		return 0, false
	}
	return uint32(t.slots[i]) - 1, true
}

// put sets the value of key hash h to v; v must name a holder or declaration whose key hash is
// h (keyHash(v) == h).
func (t *keyTable) put(c *Crawl, h uint64, v uint32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	i, ok := t.find(c, h)
	if !ok {
		t.n++
	}
	t.slots[i] = h<<32 | uint64(v+1)
}

// del removes key hash h, if present: the slots after it that probed past it move back
// (backward-shift deletion, which leaves no tombstones).
func (t *keyTable) del(c *Crawl, h uint64) {
	if t.n == 0 {
		return
	}
	i, ok := t.find(c, h)
	if !ok {
		return
	}
	t.n--
	mask := len(t.slots) - 1
	for {
		t.slots[i] = 0
		j := i
		for {
			j = (j + 1) & mask
			s := t.slots[j]
			if s == 0 {
				return
			}
			// The entry at j fills the hole at i if it belongs at i or before: its probe
			// from home passed i.
			home := int(s>>32) & mask
			if (j-home)&mask >= (j-i)&mask {
				t.slots[i] = s
				i = j
				break
			}
		}
	}
}

// grow doubles the slots (16 at first) and places the entries again.
func (t *keyTable) grow() {
	old := t.slots
	t.slots = make([]uint64, max(16, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := s >> 32 & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// all calls f with each entry's value, in no particular order.
func (t *keyTable) all(f func(v uint32)) {
	for _, s := range t.slots {
		if s != 0 {
			f(uint32(s) - 1)
		}
	}
}
