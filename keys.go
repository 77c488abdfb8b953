package undust

// A keyTable maps the 64-bit hashes of the keys held to their holders: a holder's index, or a
// declaration's index with declaredBit. It is an open-addressing table with linear probing, at
// most three quarters full, whose 16-byte slots keep the low 32 bits of the key's hash (which
// also say where the key belongs, up to 2^32 slots), the value, and for a holder the hash of
// its URL and its state: so Before answers a URL that holds its key from one slot, without
// reading the holder (one cache miss where a Go map of URL strings takes two). About 27 bytes a
// key at 10 million keys (30 for a Go map[uint64]uint32, which would also need the holders).
// The whole hash of a slot's key is the one its value names (Crawl.keyHash): get, put and del
// compare it; seen, the fast path, compares the URL's hash instead. The zero value is an empty
// table. The methods take the Crawl whose holders and declarations the values name; c.mu is
// held.
type keyTable struct {
	slots []keySlot
	n     int
}

type keySlot struct {
	kv uint64 // low 32 bits of the key hash << 32 | value + 1; 0 is empty
	us uint64 // a holder's URL hash with its state in the low 2 bits; 0 for a declaration
}

// keyHash returns the hash of the key that holder or declaration v holds. c.mu is held.
func (c *Crawl) keyHash(v uint32) uint64 {
	if v&declaredBit != 0 {
		return c.decls[v&^declaredBit].key
	}
	return c.holders.at(v).key
}

// find returns the slot of key hash h, or the empty slot where the probe for it ended.
func (t *keyTable) find(c *Crawl, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i].kv
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
	v, _, ok := t.getURL(c, h)
	return v, ok
}

// getURL is get that also returns the hash of the URL of a holder's key (0 for a declaration's),
// with the holder's state in its low 2 bits.
func (t *keyTable) getURL(c *Crawl, h uint64) (uint32, uint64, bool) {
	if t.n == 0 {
		return 0, 0, false
	}
	i, ok := t.find(c, h)
	if !ok {
		return 0, 0, false
	}
	return uint32(t.slots[i].kv) - 1, t.slots[i].us, true
}

// seen returns the holder of key hash h and its state if its URL's hash is u; false if h is
// not held, or held by a declaration or by another URL. It reads the slots alone: a slot whose
// key shares h's low 32 bits and whose URL has hash u is taken for h's (a URL is keyed by its
// key: its holder's key is h once rekeyed).
func (t *keyTable) seen(h, u uint64) (uint32, uint8, bool) {
	if t.n == 0 {
		return 0, 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.kv == 0 {
			return 0, 0, false
		}
		if s.kv>>32 == h&0xffffffff && s.us&^3 == u&^3 && s.us != 0 {
			return uint32(s.kv) - 1, uint8(s.us & 3), true
		}
	}
}

// put sets the value of key hash h to v; v must name a holder or declaration whose key hash is
// h (keyHash(v) == h), and u is the hash of the holder's URL (unused for a declaration).
func (t *keyTable) put(c *Crawl, h uint64, v uint32, u uint64) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	i, ok := t.find(c, h)
	if !ok {
		t.n++
	}
	us := uint64(0)
	if v&declaredBit == 0 {
		us = u&^3 | uint64(c.holders.at(v).state())
	}
	t.slots[i] = keySlot{kv: h<<32 | uint64(v+1), us: us}
}

// update writes again the state of holder v in the slot of key hash h, if v holds it.
func (t *keyTable) update(c *Crawl, h uint64, v uint32) {
	if t.n == 0 {
		return
	}
	if i, ok := t.find(c, h); ok && uint32(t.slots[i].kv)-1 == v {
		t.slots[i].us = t.slots[i].us&^3 | uint64(c.holders.at(v).state())
	}
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
		t.slots[i] = keySlot{}
		j := i
		for {
			j = (j + 1) & mask
			s := t.slots[j]
			if s.kv == 0 {
				return
			}
			// The entry at j fills the hole at i if it belongs at i or before: its probe
			// from home passed i.
			home := int(s.kv>>32) & mask
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
	t.slots = make([]keySlot, max(16, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.kv == 0 {
			continue
		}
		i := s.kv >> 32 & mask
		for t.slots[i].kv != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// all calls f with each entry's value, in no particular order.
func (t *keyTable) all(f func(v uint32)) {
	for _, s := range t.slots {
		if s.kv != 0 {
			f(uint32(s.kv) - 1)
		}
	}
}
