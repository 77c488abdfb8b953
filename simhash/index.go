package simhash

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// DefaultK is the distance Manku, Jain and Das Sarma (WWW 2007) found right
// for 64-bit fingerprints of web pages, and the K of a zero Index.
const DefaultK = 3

// maxK is the largest K an Index supports: with K+1 blocks of at least
// two bits each, the blocks still select buckets.
const maxK = 31

// maxTables bounds the tables an Index builds (and a decoder accepts).
const maxTables = 1024

// IndexOptions tunes NewIndex. The zero value means the defaults; NewIndex
// only reads it.
type IndexOptions struct {
	// Tables is the most permuted tables to build. The 64 bits are cut into
	// B blocks and every choice of B-K blocks makes one table, C(B, K) tables
	// in all; NewIndex takes the largest B whose C(B, K) is at most Tables.
	// More tables mean longer exact-match prefixes, fewer candidates per
	// query and more memory. 0 (or anything below C(K+2, K)) means B = K+1:
	// K+1 tables, each keyed by one block (4 tables of 16 bits for K = 3).
	Tables int
	// MaxLoadTables is the most tables ReadFrom builds for a saved index:
	// a saved index that asks for more is rejected with ErrLimit, because
	// the memory of a loaded index is its entries times its tables, and a
	// small file may otherwise ask for C(45, 2) = 990 tables. 0 means
	// DefaultMaxLoadTables or the index's own number of tables, whichever
	// is larger, so that an index reads back what it saved.
	MaxLoadTables int
}

// DefaultMaxLoadTables is the most tables ReadFrom builds unless
// IndexOptions.MaxLoadTables says otherwise: enough for every K with the
// default tables and for K = 3 with up to C(8, 3) = 56 tables. Loading then
// takes at most about 64 times 16 bytes per saved entry of 16 bytes.
const DefaultMaxLoadTables = 64

// Match is one fingerprint found by a query: a plain value.
type Match struct {
	ID       uint64 // the id it was inserted with
	FP       uint64 // the fingerprint
	Distance int    // Hamming distance to the query
}

// Index answers "which stored fingerprints are within Hamming distance k of
// this one" for k up to the index's K, online: fingerprints are inserted and
// deleted one at a time between queries. It implements the permuted tables of
// Manku, Jain and Das Sarma (WWW 2007): the 64 bits are cut into
// B blocks; if two fingerprints differ in at most K bits, at least B-K blocks
// are equal, so one table per choice of B-K blocks, keyed by those blocks,
// finds every match by probing one bucket per table. Queries find exactly
// what a linear scan finds (recall 1.0 within K).
//
// Each table is a directory of buckets keyed by the leading bits of its
// blocks; the directory doubles as the index grows so that buckets hold 4 to 8
// entries on average (never more bits than the table's blocks have). Stored
// per fingerprint: 16 bytes per table plus slice slack, and one entry of an
// id-to-fingerprint map.
//
// The zero value is an empty index with K = DefaultK and the default tables.
// An Index is safe for concurrent use: queries run in parallel with each
// other, Insert, Delete and ReadFrom exclusively. It keeps copies of the ids
// and fingerprints it is given. An Index must not be copied after first use.
type Index struct {
	mu     sync.RWMutex
	inited bool
	k      int
	blocks int
	fps    map[uint64]uint64 // id -> fingerprint
	tables []table
	dir    int // directory bits wanted (each table uses at most its prefix length)

	blockLo, blockSize []int // block j covers bits [blockLo[j], blockLo[j]+blockSize[j])

	maxLoad int // IndexOptions.MaxLoadTables
}

type entry struct {
	fp, id uint64
}

// seg moves width bits at shift of a fingerprint to bit out of a bucket number.
type seg struct {
	shift, width, out uint8
}

type table struct {
	blocks  []int  // which blocks are this table's key, in order
	prefix  int    // bits in those blocks
	dirMask uint64 // fingerprint bits that select the bucket
	segs    []seg  // how to gather them
	buckets [][]entry
}

// NewIndex returns an empty index for queries up to distance k, 0 <= k <= 31.
// opts may be nil for the defaults. It panics if k is out of range.
func NewIndex(k int, opts *IndexOptions) *Index {
	if k < 0 || k > maxK {
		panic(fmt.Sprintf("simhash: NewIndex: k = %d out of range [0, %d]", k, maxK))
	}
	tables, maxLoad := 0, 0
	if opts != nil {
		tables, maxLoad = opts.Tables, max(opts.MaxLoadTables, 0)
	}
	x := &Index{maxLoad: maxLoad}
	x.init(k, blocksFor(k, tables))
	return x
}

// blocksFor returns B for k and a table budget (see IndexOptions.Tables).
func blocksFor(k, tables int) int {
	if k == 0 {
		return 1 // one table keyed by the whole fingerprint
	}
	b := k + 1
	for b < 64 && choose(b+1, k) <= min(tables, maxTables) {
		b++
	}
	return b
}

// choose returns C(n, k), saturating at maxTables+1.
func choose(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
		if c > maxTables {
			return maxTables + 1
		}
	}
	return c
}

func (x *Index) init(k, b int) {
	x.inited = true
	x.k = k
	x.blocks = b
	x.fps = make(map[uint64]uint64)
	x.dir = 0
	// Block j covers bits [lo[j], lo[j]+size[j]); block 0 is the most
	// significant; sizes differ by at most one, larger blocks first.
	lo := make([]int, b)
	size := make([]int, b)
	top := 64
	for j := range b {
		size[j] = 64 / b
		if j < 64%b {
			size[j]++
		}
		top -= size[j]
		lo[j] = top
	}
	x.tables = x.tables[:0]
	chosen := make([]int, b-k)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == len(chosen) {
			t := table{blocks: slices.Clone(chosen)}
			for _, c := range chosen {
				t.prefix += size[c]
			}
			x.tables = append(x.tables, t)
			return
		}
		// Leave enough blocks for the remaining choices.
		for j := start; j <= b-(len(chosen)-depth); j++ {
			chosen[depth] = j
			rec(j+1, depth+1)
		}
	}
	rec(0, 0)
	x.blockLo, x.blockSize = lo, size
	x.rebuild(0)
}

// rebuild lays out every table with a directory of (at most) dir bits and
// re-inserts the stored fingerprints.
func (x *Index) rebuild(dir int) {
	x.dir = dir
	for ti := range x.tables {
		t := &x.tables[ti]
		d := min(dir, t.prefix)
		t.segs = t.segs[:0]
		t.dirMask = 0
		out := d
		for _, c := range t.blocks {
			if out == 0 {
				break
			}
			w := min(out, x.blockSize[c])
			shift := x.blockLo[c] + x.blockSize[c] - w // the block's top w bits
			out -= w
			t.segs = append(t.segs, seg{uint8(shift), uint8(w), uint8(out)})
			t.dirMask |= (uint64(1)<<w - 1) << shift
		}
		t.buckets = make([][]entry, 1<<d)
	}
	for id, fp := range x.fps {
		x.add(id, fp)
	}
}

// load replaces the entries of an empty, initialized index with es (ids
// distinct) in one pass: the directory is sized for len(es) at once, and
// each table's buckets are cut from one array of exactly len(es) entries,
// so loading allocates tables x 16 bytes per entry and no slack.
func (x *Index) load(es []entry) {
	dir := 0
	for dir < x.maxDir() && len(es) >= 8<<dir {
		dir++ // as Insert would have grown it
	}
	x.rebuild(dir)
	x.fps = make(map[uint64]uint64, len(es))
	for _, e := range es {
		x.fps[e.id] = e.fp
	}
	var count []int32
	for ti := range x.tables {
		t := &x.tables[ti]
		if cap(count) < len(t.buckets) {
			count = make([]int32, len(t.buckets))
		}
		count = count[:len(t.buckets)]
		clear(count)
		for _, e := range es {
			count[t.bucket(e.fp)]++
		}
		all := make([]entry, len(es))
		at := 0
		for b, c := range count {
			if c > 0 {
				// Full slice expressions: a later Insert into a bucket
				// copies it rather than overwriting the next one.
				t.buckets[b] = all[at : at : at+int(c)]
				at += int(c)
			}
		}
		for _, e := range es {
			b := t.bucket(e.fp)
			t.buckets[b] = append(t.buckets[b], e)
		}
	}
}

// bucket returns the bucket number of fp in t.
func (t *table) bucket(fp uint64) uint64 {
	var n uint64
	for _, s := range t.segs {
		n |= (fp >> s.shift) & (uint64(1)<<s.width - 1) << s.out
	}
	return n
}

func (x *Index) lazyInit() {
	if !x.inited {
		x.init(DefaultK, blocksFor(DefaultK, 0))
	}
}

// K returns the largest distance the index answers queries for.
func (x *Index) K() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.inited {
		return DefaultK
	}
	return x.k
}

// Tables returns the number of permuted tables.
func (x *Index) Tables() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.lazyInit()
	return len(x.tables)
}

// Len returns the number of fingerprints stored.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.fps)
}

// Insert stores fp under id, replacing what id held before.
// Amortized O(tables); the directory doubles now and then.
func (x *Index) Insert(id, fp uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.lazyInit()
	if old, ok := x.fps[id]; ok {
		if old == fp {
			return
		}
		x.remove(id, old)
	}
	x.fps[id] = fp
	x.add(id, fp)
	// Keep 4 to 8 entries per bucket on average.
	if n := len(x.fps); n >= 8<<x.dir && x.dir < x.maxDir() {
		x.rebuild(x.dir + 1)
	}
}

// maxDir is the longest table prefix: more directory bits would not split
// buckets further.
func (x *Index) maxDir() int {
	m := 0
	for i := range x.tables {
		m = max(m, x.tables[i].prefix)
	}
	return min(m, 26)
}

func (x *Index) add(id, fp uint64) {
	for ti := range x.tables {
		t := &x.tables[ti]
		b := t.bucket(fp)
		t.buckets[b] = append(t.buckets[b], entry{fp, id})
	}
}

// Delete removes id and reports whether it was stored.
func (x *Index) Delete(id uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	fp, ok := x.fps[id]
	if !ok {
		return false
	}
	x.remove(id, fp)
	delete(x.fps, id)
	return true
}

func (x *Index) remove(id, fp uint64) {
	for ti := range x.tables {
		t := &x.tables[ti]
		b := t.bucket(fp)
		es := t.buckets[b]
		for i := range es {
			if es[i].id == id {
				es[i] = es[len(es)-1]
				es[len(es)-1] = entry{}
				t.buckets[b] = es[:len(es)-1]
				break
			}
		}
	}
}

// Get returns the fingerprint stored under id.
func (x *Index) Get(id uint64) (fp uint64, ok bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	fp, ok = x.fps[id]
	return fp, ok
}

func (x *Index) checkK(k int) {
	kk := DefaultK
	if x.inited {
		kk = x.k
	}
	if k < 0 || k > kk {
		panic(fmt.Sprintf("simhash: query distance %d out of range [0, %d] of the index", k, kk))
	}
}

// Near returns the stored fingerprint closest to fp if one is within
// distance k; of equally close ones, the one with the smallest id. It panics
// if k is negative or larger than the index's K.
func (x *Index) Near(fp uint64, k int) (Match, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	x.checkK(k)
	best := Match{Distance: 65}
	x.scan(fp, k, func(m Match) {
		if m.Distance < best.Distance || m.Distance == best.Distance && m.ID < best.ID {
			best = m
		}
	})
	return best, best.Distance <= k
}

// AppendNear appends every stored fingerprint within distance k of fp to dst,
// each id once, ordered by distance and then id, and returns the extended
// slice. It does not allocate when dst has room. It panics if k is negative
// or larger than the index's K.
func (x *Index) AppendNear(dst []Match, fp uint64, k int) []Match {
	x.mu.RLock()
	defer x.mu.RUnlock()
	x.checkK(k)
	start := len(dst)
	x.scan(fp, k, func(m Match) { dst = append(dst, m) })
	slices.SortFunc(dst[start:], func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ID, b.ID))
	})
	return dst
}

// scan calls f once for every stored fingerprint within distance k of fp.
// A match lies in the probed bucket of every table whose directory bits it
// shares with fp; it is reported by the first such table only.
func (x *Index) scan(fp uint64, k int, f func(Match)) {
	if !x.inited {
		return
	}
	for ti := range x.tables {
		t := &x.tables[ti]
		for _, e := range t.buckets[t.bucket(fp)] {
			d := bits.OnesCount64(e.fp ^ fp)
			if d > k || x.seenBefore(ti, e.fp^fp) {
				continue
			}
			f(Match{ID: e.id, FP: e.fp, Distance: d})
		}
	}
}

// seenBefore reports whether a fingerprint differing from the query in diff
// was in the probed bucket of a table before table ti.
func (x *Index) seenBefore(ti int, diff uint64) bool {
	for i := range ti {
		if diff&x.tables[i].dirMask == 0 {
			return true
		}
	}
	return false
}
