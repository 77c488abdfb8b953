package deeptoken

// table is an open-addressing hash table from uint64 keys to int32 values, for the counting
// loops of learning, where Go maps' generality costs more than the counting itself. The zero
// value is an empty table.
type table struct {
	keys []uint64 // key+1; 0 marks an empty slot
	vals []int32
	n    int
}

func (t *table) hash(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// get returns the value of k and whether k is in the table.
func (t *table) get(k uint64) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.keys) - 1)
	for i := t.hash(k) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k + 1:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// put sets the value of k, which must not be in the table.
func (t *table) put(k uint64, v int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	i := t.hash(k) & mask
	for t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i] = k+1, v
	t.n++
}

func (t *table) grow() {
	old, oldv := t.keys, t.vals
	size := max(64, 2*len(old))
	t.keys, t.vals, t.n = make([]uint64, size), make([]int32, size), 0
	for i, k := range old {
		if k != 0 {
			t.put(k-1, oldv[i])
		}
	}
}

// reset empties the table, keeping its memory unless it is much larger than its last use.
func (t *table) reset() {
	if len(t.keys) > 1<<12 && 8*t.n < len(t.keys) {
		t.keys, t.vals = nil, nil
	} else {
		clear(t.keys)
	}
	t.n = 0
}
