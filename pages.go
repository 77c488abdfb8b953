package undust

import (
	"math/bits"
	"slices"
)

// A pageIndex numbers the pages kept: ids from 1, by digest and by SimHash. Two kept pages that
// a later page matches both are one page: the later id is then the earlier's (same), and the
// later id's pages are found under the earlier id from then on.
type pageIndex struct {
	nearK    int
	digests  map[uint64]uint32 // digest -> page id, with tplBit when a template text made it
	sims     *nearIndex        // the SimHashes of the kept pages; nil for exact duplicates only
	first    []uint32          // page id - 1 -> the holder of its first URL, or noHolder
	firstURL map[uint32]string // page id -> its first URL when no holder has it
	own      []uint64          // page id - 1 -> the SimHash of its own text (print.own)
	same     []uint32          // page id - 1 -> the earlier page it was found to be, 0 for none
}

// tplBit marks a digest of the digests map that a template text made (print.tpl).
const tplBit = 1 << 31

// tplNear is the distance within which the SimHashes of two pages' own texts must be for a
// match in which a template text takes part to count: 13 of 64 bits, an angle of 0.2 pi
// between their shingle vectors (Charikar's estimate), a cosine similarity of about 0.8. The
// per-page chrome that the template drops (ids, dates, user names, counters, a print link)
// leaves the own texts sharing nearly all their shingles (4 to 8 bits apart on the simulated
// site's print views); a listing page whose posts the template drops as repeated on other
// listings, or a site's test page beside its page map, shares only its heading and chrome with
// the kept page (19 to 31 bits on WordPress and Fossil).
const tplNear = 13

func newPageIndex(nearK int) pageIndex {
	x := pageIndex{nearK: nearK, digests: map[uint64]uint32{}, firstURL: map[uint32]string{}}
	if nearK > 0 {
		x.sims = newNearIndex(nearK)
	}
	return x
}

// root returns the page that page id was found to be (id itself if none).
func (x *pageIndex) root(id uint32) uint32 {
	for id != 0 && x.same[id-1] != 0 {
		next := x.same[id-1]
		if g := x.same[next-1]; g != 0 {
			x.same[id-1] = g // path halving: chains stay short
		}
		id = next
	}
	return id
}

// lookup returns the id of the kept page that p duplicates, if any; p's digests not seen before
// are recorded under that id. When p duplicates several kept pages (one by its own text, one by
// its template text), they are one page, of the earliest id: the later ids are appended to
// joined, which lookup returns.
func (x *pageIndex) lookup(p print, joined []uint32) (uint64, bool, []uint32) {
	var buf [3]uint32
	m := x.matches(buf[:0], p)
	if len(m) == 0 {
		return 0, false, joined
	}
	id, joined := x.union(m, joined)
	x.record(p, id)
	return uint64(id), true, joined
}

// union makes the pages of roots (roots of the index) one page, the least of them, and returns
// it, with the others appended to joined.
func (x *pageIndex) union(roots, joined []uint32) (uint32, []uint32) {
	id := slices.Min(roots)
	for _, o := range roots {
		if o != id && x.same[o-1] == 0 {
			x.same[o-1] = id
			joined = append(joined, o)
		}
	}
	return id, joined
}

// matches appends to dst the kept pages (their roots) that p duplicates: a digest of either of
// its texts that a kept page has, or a SimHash within nearK bits of one; a match in which a
// template text takes part (either side's) only when the own texts are within tplNear bits.
func (x *pageIndex) matches(dst []uint32, p print) []uint32 {
	if p.n == 0 {
		if id, ok := x.digests[p.body]; ok {
			dst = append(dst, x.root(id))
		}
		return dst
	}
	for j := range p.n {
		v, ok := x.digests[p.digest[j]]
		if !ok {
			continue
		}
		id := x.root(v &^ tplBit)
		if (p.tpl[j] || v&tplBit != 0) && !x.ownNear(id, p) {
			continue
		}
		if !slices.Contains(dst, id) {
			dst = append(dst, id)
		}
	}
	if len(dst) > 0 || x.sims == nil {
		return dst
	}
	for j := range p.n {
		if id, ok := x.sims.near(p.sim[j]); ok {
			if id = x.root(id); !p.tpl[j] || x.ownNear(id, p) {
				return append(dst, id)
			}
		}
	}
	return dst
}

// ownNear reports whether the own texts of page id and of p are within tplNear bits.
func (x *pageIndex) ownNear(id uint32, p print) bool {
	return bits.OnesCount64(x.own[id-1]^p.own) <= tplNear
}

// record records the digests of p not seen before under page id.
func (x *pageIndex) record(p print, id uint32) {
	if p.n == 0 {
		if _, ok := x.digests[p.body]; !ok {
			x.digests[p.body] = id
		}
	}
	for j := range p.n {
		if _, ok := x.digests[p.digest[j]]; !ok {
			v := id
			if p.tpl[j] {
				v |= tplBit
			}
			x.digests[p.digest[j]] = v
		}
	}
}

// add keeps p as a new page whose first URL is u, held by holder first (or noHolder), and
// returns its id; 0 when the index holds max pages already.
func (x *pageIndex) add(p print, first uint32, u string, max int) uint64 {
	if len(x.first) >= max {
		return 0
	}
	x.first = append(x.first, first)
	x.own = append(x.own, p.own)
	x.same = append(x.same, 0)
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
