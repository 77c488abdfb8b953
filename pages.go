package undust

import "math/bits"

// A pageIndex numbers the pages kept: ids from 1, by digest and by SimHash.
type pageIndex struct {
	nearK    int
	digests  map[uint64]uint32 // digest -> page id, for every digest seen
	sims     *nearIndex        // the SimHashes of the kept pages; nil for exact duplicates only
	first    []uint32          // page id - 1 -> the holder of its first URL, or noHolder
	firstURL map[uint32]string // page id -> its first URL when no holder has it
}

func newPageIndex(nearK int) pageIndex {
	x := pageIndex{nearK: nearK, digests: map[uint64]uint32{}, firstURL: map[uint32]string{}}
	if nearK > 0 {
		x.sims = newNearIndex(nearK)
	}
	return x
}

// lookup returns the id of the kept page that p duplicates, if any; p's digests are recorded
// under that id.
func (x *pageIndex) lookup(p print) (uint64, bool) {
	id, ok := x.find(p)
	if ok {
		x.record(p, id)
	}
	return uint64(id), ok
}

func (x *pageIndex) find(p print) (uint32, bool) {
	if p.n == 0 {
		id, ok := x.digests[p.body]
		return id, ok
	}
	for j := range p.n {
		if id, ok := x.digests[p.digest[j]]; ok {
			return id, true
		}
	}
	if x.sims != nil {
		for j := range p.n {
			if id, ok := x.sims.near(p.sim[j]); ok {
				return id, true
			}
		}
	}
	return 0, false
}

func (x *pageIndex) record(p print, id uint32) {
	if p.n == 0 {
		x.digests[p.body] = id
	}
	for j := range p.n {
		x.digests[p.digest[j]] = id
	}
}

// add keeps p as a new page whose first URL is u, held by holder first (or noHolder), and
// returns its id; 0 when the index holds max pages already.
func (x *pageIndex) add(p print, first uint32, u string, max int) uint64 {
	if len(x.first) >= max {
		return 0
	}
	x.first = append(x.first, first)
	id := uint32(len(x.first))
	if first == noHolder {
		x.firstURL[id] = u
	}
	x.record(p, id)
	if x.sims != nil {
		for j := range p.n {
			// Two texts with one SimHash: the second entry would never be the closest first.
			if j == 0 || p.sim[j] != p.sim[0] {
				x.sims.insert(id, p.sim[j])
			}
		}
	}
	return uint64(id)
}

// url returns the first URL of page id. c.mu is held.
func (x *pageIndex) url(c *Crawl, id uint64) string {
	if id == 0 || id > uint64(len(x.first)) {
		return ""
	}
	if h := x.first[id-1]; h != noHolder {
		return c.url(h)
	}
	return x.firstURL[uint32(id)]
}

// A nearIndex holds the SimHashes of the kept pages and finds the closest within K bits of a
// query (ties to the one stored first): the permuted tables of Manku, Jain and Das Sarma (WWW
// 2007) with B = K+1 blocks, so that every SimHash within K bits of a query equals it on at
// least one block, and one table per block, keyed by (the leading bits of) that block. It
// answers as simhash.Index's Near does for the same insertions, in less memory: an entry is an
// index into the SimHashes and 32 other bits of its SimHash, which rule out nearly every entry
// of a bucket that is not within K bits without reading its SimHash. Per SimHash: 8 bytes, 4
// for its page, and (K+1) tables of 8 bytes plus bucket slack (about 50 bytes at K = 3,
// against about 130 in a simhash.Index).
type nearIndex struct {
	k       int
	fps     []uint64     // entry -> SimHash
	pages   []uint32     // entry -> page id
	lo, w   []uint8      // table t's block is bits [lo[t], lo[t]+w[t]) of a SimHash
	dir     int          // bits of a block that select its bucket (at most the block's)
	buckets [][][]uint64 // table -> bucket -> entry << 32 | rest(t, SimHash)
}

func newNearIndex(k int) *nearIndex {
	b := k + 1
	x := &nearIndex{k: k, lo: make([]uint8, b), w: make([]uint8, b), buckets: make([][][]uint64, b)}
	top := 64
	for t := range b {
		w := 64 / b
		if t < 64%b {
			w++
		}
		top -= w
		x.lo[t], x.w[t] = uint8(top), uint8(w)
		x.buckets[t] = make([][]uint64, 1)
	}
	return x
}

// bucket returns the bucket of fp in table t: the block's leading bits.
func (x *nearIndex) bucket(t int, fp uint64) uint64 {
	d := min(x.dir, int(x.w[t]))
	return fp >> (int(x.lo[t]) + int(x.w[t]) - d) & (1<<d - 1)
}

// rest folds the bits of fp outside table t's block into 32: two SimHashes within K bits of
// each other have rests within K bits too, since folding never adds differing bits.
func (x *nearIndex) rest(t int, fp uint64) uint64 {
	v := fp &^ ((1<<x.w[t] - 1) << x.lo[t])
	return (v ^ v>>32) & 0xffffffff
}

func (x *nearIndex) insert(page uint32, fp uint64) {
	e := uint64(len(x.fps))
	x.fps = append(x.fps, fp)
	x.pages = append(x.pages, page)
	if len(x.fps) >= 8<<x.dir && x.dir < int(x.w[0]) {
		// About 4 to 8 entries a bucket: more bits, and every entry in its new bucket.
		x.dir++
		for t := range x.buckets {
			x.buckets[t] = make([][]uint64, 1<<min(x.dir, int(x.w[t])))
		}
		for e, fp := range x.fps {
			x.place(uint64(e), fp)
		}
		return
	}
	x.place(e, fp)
}

func (x *nearIndex) place(e, fp uint64) {
	for t := range x.buckets {
		b := x.bucket(t, fp)
		x.buckets[t][b] = append(x.buckets[t][b], e<<32|x.rest(t, fp))
	}
}

// near returns the page of the stored SimHash closest to fp within K bits, of equally close
// ones the one stored first.
func (x *nearIndex) near(fp uint64) (uint32, bool) {
	best, bestD := uint64(0), x.k+1
	for t := range x.buckets {
		r := x.rest(t, fp)
		for _, en := range x.buckets[t][x.bucket(t, fp)] {
			if bits.OnesCount64((en^r)&0xffffffff) > x.k {
				continue
			}
			e := en >> 32
			d := bits.OnesCount64(x.fps[e] ^ fp)
			if d < bestD || d == bestD && e < best {
				best, bestD = e, d
			}
		}
	}
	if bestD > x.k {
		return 0, false
	}
	return x.pages[best], true
}
