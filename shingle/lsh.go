package shingle

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// Errors returned by the LSH index.
var (
	// ErrCorrupt reports an index file that is truncated, has a bad
	// checksum or inconsistent contents.
	ErrCorrupt = errors.New("shingle: corrupt LSH index")
	// ErrFormat reports a file that is not an LSH index of a version this
	// package reads.
	ErrFormat = errors.New("shingle: not an LSH index")
	// ErrSignature reports a signature whose length is not the index's k.
	ErrSignature = errors.New("shingle: signature length does not match the index")
)

// LSH is a locality-sensitive hashing index over MinHash signatures
// (banding: Indyk and Motwani, STOC 1998; Leskovec, Rajaraman, Ullman,
// Mining of Massive Datasets, section 3.4). A signature of k values is cut
// into b bands of r rows; two documents are candidates when all rows of at
// least one band agree, which happens with probability 1-(1-J^r)^b for
// resemblance J, an S-curve that is steepest near (1/b)^(1/r).
//
// Documents are identified by a uint64 key chosen by the caller. Per
// document the index keeps its key and b 64-bit band hashes, plus b
// chain links and about b hash-table slots: about 30 b + 16 bytes, so
// about 0.3 KB at b = 9. It does not keep the signatures: callers that
// want to verify candidates by their estimated resemblance keep them.
//
// The zero value is not usable; create one with [NewLSH] or [NewLSHBands].
// All methods are safe for concurrent use: queries run in parallel with
// each other, inserts and deletes take an exclusive lock. The index does
// not keep the signature slices it is given.
type LSH struct {
	k, b, r   int
	threshold float64

	mu     sync.RWMutex
	tables []map[uint64]int32 // band -> bucket hash -> first slot in chain
	next   []int32            // slot*b + band -> next slot in chain, -1 at end
	bands  []uint64           // slot*b + band -> bucket hash
	keys   []uint64           // slot -> key
	live   []bool             // slot -> in use
	free   []int32            // free slots
	slots  map[uint64]int32   // key -> slot
}

// NewLSH returns an index for k-value signatures whose bands and rows are
// chosen for the Jaccard threshold t: the (b, r) with b*r <= k that
// minimizes the sum of the false-positive area (the candidate probability
// integrated over J < t) and the false-negative area (the miss probability
// integrated over J >= t). Such an index proposes a pair at J = t with
// probability well under 1 (0.4 for k = 128, t = 0.8): when candidates are
// then checked, by [Estimate] or by exact Jaccard, build it for
// [CandidateThreshold](t) and let the check decide. k = 0 means DefaultK.
// It panics if t is not in (0, 1) or k is out of range.
func NewLSH(k int, t float64) *LSH {
	if k == 0 {
		k = DefaultK
	}
	if !(t > 0 && t < 1) {
		panic(fmt.Sprintf("shingle: LSH threshold %v not in (0, 1)", t))
	}
	b, r := OptimalBands(k, t)
	l := NewLSHBands(b, r)
	l.k = k
	l.threshold = t
	return l
}

// NewLSHBands returns an index for signatures of b*r values with b bands
// of r rows. It panics unless 1 <= b, r and b*r <= 1<<16.
func NewLSHBands(b, r int) *LSH {
	if b < 1 || r < 1 || b*r > 1<<16 {
		panic(fmt.Sprintf("shingle: LSH bands %d x rows %d out of range", b, r))
	}
	// The band tables are made on the first insert, so that an empty
	// index, or a saved one read back, costs memory in proportion to its
	// documents rather than to b.
	return &LSH{k: b * r, b: b, r: r, slots: map[uint64]int32{}}
}

// CandidateThreshold returns the resemblance to build an LSH index for when
// its candidates are then checked at threshold t (by [Estimate] or by exact
// Jaccard): t - 0.1, at least 0.05. Such an index, [NewLSH](k,
// CandidateThreshold(t)), proposes a pair at J = t with probability 0.87
// for k = 128 and t = 0.8, where one built for t itself proposes it with
// probability 0.4; the check, not the S-curve, then decides the pairs near
// t.
func CandidateThreshold(t float64) float64 { return max(t-0.1, 0.05) }

// OptimalBands returns the bands b and rows r (b*r <= k) that minimize the
// false-positive plus false-negative area of the LSH S-curve around the
// threshold t, integrated numerically.
func OptimalBands(k int, t float64) (b, r int) {
	best := math.Inf(1)
	for bb := 1; bb <= k; bb++ {
		for rr := 1; bb*rr <= k; rr++ {
			fp := integrate(func(s float64) float64 { return 1 - math.Pow(1-math.Pow(s, float64(rr)), float64(bb)) }, 0, t)
			fn := integrate(func(s float64) float64 { return math.Pow(1-math.Pow(s, float64(rr)), float64(bb)) }, t, 1)
			if e := fp + fn; e < best {
				best, b, r = e, bb, rr
			}
		}
	}
	return b, r
}

// integrate is the midpoint rule with 200 steps.
func integrate(f func(float64) float64, lo, hi float64) float64 {
	const n = 200
	w := (hi - lo) / n
	s := 0.0
	for i := range n {
		s += f(lo + (float64(i)+0.5)*w)
	}
	return s * w
}

// Bands returns the number of bands b and rows per band r.
func (l *LSH) Bands() (b, r int) { return l.b, l.r }

// K returns the signature length the index takes (b*r, or the k given to
// NewLSH, of which the first b*r values are used).
func (l *LSH) K() int { return l.k }

// Len returns the number of documents in the index.
func (l *LSH) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.slots)
}

// bandHash hashes the rows of one band with the band number, so equal rows
// in different bands do not share buckets.
func bandHash(rows []uint64, band int) uint64 {
	h := uint64(band)*0x9e3779b97f4a7c15 + 0x6a09e667f3bcc909
	for _, v := range rows {
		h = fmix(h ^ v)
	}
	return h
}

func (l *LSH) check(sig []uint64) error {
	if len(sig) != l.k {
		return fmt.Errorf("%w: %d values, index takes %d", ErrSignature, len(sig), l.k)
	}
	return nil
}

// Insert adds the document key with signature sig, replacing an earlier
// document with the same key. The index keeps band hashes, not sig.
func (l *LSH) Insert(key uint64, sig []uint64) error {
	if err := l.check(sig); err != nil {
		return err
	}
	var hs [64]uint64
	bh := hs[:0]
	if l.b > len(hs) {
		bh = make([]uint64, 0, l.b)
	}
	for i := range l.b {
		bh = append(bh, bandHash(sig[i*l.r:(i+1)*l.r], i))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.insertLocked(key, bh)
	return nil
}

func (l *LSH) insertLocked(key uint64, bh []uint64) {
	if l.tables == nil {
		l.tables = make([]map[uint64]int32, l.b)
		for i := range l.tables {
			l.tables[i] = map[uint64]int32{}
		}
	}
	if _, ok := l.slots[key]; ok {
		l.deleteLocked(key)
	}
	var s int32
	if n := len(l.free); n > 0 {
		s = l.free[n-1]
		l.free = l.free[:n-1]
	} else {
		s = int32(len(l.keys))
		l.keys = append(l.keys, 0)
		l.live = append(l.live, false)
		for range l.b {
			l.next = append(l.next, -1)
			l.bands = append(l.bands, 0)
		}
	}
	l.keys[s] = key
	l.live[s] = true
	l.slots[key] = s
	for i, h := range bh {
		at := int(s)*l.b + i
		l.bands[at] = h
		if head, ok := l.tables[i][h]; ok {
			l.next[at] = head
		} else {
			l.next[at] = -1
		}
		l.tables[i][h] = s
	}
}

// Delete removes the document key and reports whether it was present.
func (l *LSH) Delete(key uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.deleteLocked(key)
}

func (l *LSH) deleteLocked(key uint64) bool {
	s, ok := l.slots[key]
	if !ok {
		return false
	}
	for i := range l.b {
		at := int(s)*l.b + i
		h := l.bands[at]
		head := l.tables[i][h]
		if head == s {
			if n := l.next[at]; n >= 0 {
				l.tables[i][h] = n
			} else {
				delete(l.tables[i], h)
			}
			continue
		}
		for p := head; p >= 0; {
			pat := int(p)*l.b + i
			if l.next[pat] == s {
				l.next[pat] = l.next[at]
				break
			}
			p = l.next[pat]
		}
	}
	delete(l.slots, key)
	l.live[s] = false
	l.free = append(l.free, s)
	return true
}

// Query returns the keys of the documents that share at least one band
// with sig, each once, in no particular order. It is equivalent to
// AppendQuery(nil, sig).
func (l *LSH) Query(sig []uint64) ([]uint64, error) {
	return l.AppendQuery(nil, sig)
}

// AppendQuery appends the candidate keys for sig to dst. Its cost is
// O(b*r + candidates).
func (l *LSH) AppendQuery(dst []uint64, sig []uint64) ([]uint64, error) {
	if err := l.check(sig); err != nil {
		return dst, err
	}
	start := len(dst)
	var seen map[int32]struct{}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.tables == nil {
		return dst, nil // nothing inserted yet
	}
	for i := range l.b {
		h := bandHash(sig[i*l.r:(i+1)*l.r], i)
		s, ok := l.tables[i][h]
		if !ok {
			continue
		}
	chain:
		for ; s >= 0; s = l.next[int(s)*l.b+i] {
			key := l.keys[s]
			// Candidate lists are usually short, where a linear check
			// beats a map; long ones switch to a map.
			if seen != nil {
				if _, dup := seen[s]; dup {
					continue
				}
				seen[s] = struct{}{}
				dst = append(dst, key)
				continue
			}
			for _, k := range dst[start:] {
				if k == key {
					continue chain
				}
			}
			dst = append(dst, key)
			if len(dst)-start > 32 {
				seen = make(map[int32]struct{}, 2*(len(dst)-start))
				for _, k := range dst[start:] {
					seen[l.slots[k]] = struct{}{}
				}
			}
		}
	}
	return dst, nil
}

// File format: the magic "undust-lsh\n", a uint32 version (1), then k, b
// and r as uint32, the threshold as float64 bits, the document count as
// uint64, and per document its key and b band hashes as uint64, all
// little-endian, and last the XXH64 of everything before it.
const (
	lshMagic   = "undust-lsh\n"
	lshVersion = 1
)

// WriteTo writes the index to w in the versioned binary format. It
// implements io.WriterTo.
func (l *LSH) WriteTo(w io.Writer) (int64, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	d := xxhash.New()
	bw := bufio.NewWriter(io.MultiWriter(w, d))
	var n int64
	put := func(v uint64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		bw.Write(b[:])
		n += 8
	}
	bw.WriteString(lshMagic)
	n += int64(len(lshMagic))
	var hdr [16]byte
	binary.LittleEndian.PutUint32(hdr[0:], lshVersion)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(l.k))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(l.b))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(l.r))
	bw.Write(hdr[:])
	n += 16
	put(math.Float64bits(l.threshold))
	put(uint64(len(l.slots)))
	for s, key := range l.keys {
		if !l.live[s] {
			continue
		}
		put(key)
		for i := range l.b {
			put(l.bands[s*l.b+i])
		}
	}
	if err := bw.Flush(); err != nil {
		return n, err
	}
	var sum [8]byte
	binary.LittleEndian.PutUint64(sum[:], d.Sum64())
	m, err := w.Write(sum[:])
	return n + int64(m), err
}

// ReadLSH reads an index written by WriteTo, reading exactly its bytes
// from r, so that an index followed by other data in one stream leaves that
// data unread. It returns ErrFormat for a file that is not an LSH index of a
// known version and ErrCorrupt for a truncated or damaged one; it never
// allocates more than the input's size justifies, whatever layout the header
// asks for.
func ReadLSH(r io.Reader) (*LSH, error) {
	d := xxhash.New()
	// read fills p from r and adds it to the checksum; it never asks r for
	// more than len(p) bytes.
	read := func(p []byte) error {
		_, err := io.ReadFull(r, p)
		d.Write(p)
		return err
	}
	var hdr [len(lshMagic) + 32]byte
	if err := read(hdr[:len(lshMagic)]); err != nil || string(hdr[:len(lshMagic)]) != lshMagic {
		return nil, ErrFormat
	}
	h := hdr[len(lshMagic):]
	if err := read(h[:16]); err != nil {
		return nil, fmt.Errorf("%w: short header", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(h[0:]); v != lshVersion {
		return nil, fmt.Errorf("%w: version %d", ErrFormat, v)
	}
	k := int(binary.LittleEndian.Uint32(h[4:]))
	b := int(binary.LittleEndian.Uint32(h[8:]))
	rows := int(binary.LittleEndian.Uint32(h[12:]))
	if b < 1 || rows < 1 || b > 1<<16 || rows > 1<<16 || b*rows > 1<<16 || k < b*rows || k > 1<<16 {
		return nil, fmt.Errorf("%w: k %d, bands %d, rows %d", ErrCorrupt, k, b, rows)
	}
	if err := read(h[16:32]); err != nil {
		return nil, fmt.Errorf("%w: truncated", ErrCorrupt)
	}
	t := math.Float64frombits(binary.LittleEndian.Uint64(h[16:]))
	if !(t >= 0 && t < 1) {
		return nil, fmt.Errorf("%w: threshold %v", ErrCorrupt, t)
	}
	count := binary.LittleEndian.Uint64(h[24:])
	l := NewLSHBands(b, rows)
	l.k, l.threshold = k, t
	// Documents are read in chunks of about 1 MiB, and the buffer grows by
	// at most 64 KiB ahead of the bytes actually read, never with the count
	// or band number the header claims.
	size := 8 * (1 + b) // bytes per document
	per := max(1, (1<<20)/size)
	var buf []byte
	fill := func(n int) error {
		buf = buf[:0]
		for len(buf) < n {
			step := min(n-len(buf), 64<<10)
			buf = slices.Grow(buf, step)
			if err := read(buf[len(buf) : len(buf)+step]); err != nil {
				return err
			}
			buf = buf[:len(buf)+step]
		}
		return nil
	}
	var bh []uint64
	for done := uint64(0); done < count; {
		m := int(min(count-done, uint64(per)))
		if err := fill(m * size); err != nil {
			return nil, fmt.Errorf("%w: truncated", ErrCorrupt)
		}
		if bh == nil {
			bh = make([]uint64, b)
		}
		for e := range m {
			doc := buf[e*size : (e+1)*size]
			key := binary.LittleEndian.Uint64(doc)
			for i := range bh {
				bh[i] = binary.LittleEndian.Uint64(doc[8+8*i:])
			}
			if _, dup := l.slots[key]; dup {
				return nil, fmt.Errorf("%w: key %d twice", ErrCorrupt, key)
			}
			l.insertLocked(key, bh)
		}
		done += uint64(m)
	}
	want := d.Sum64()
	var sum [8]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return nil, fmt.Errorf("%w: no checksum", ErrCorrupt)
	}
	if binary.LittleEndian.Uint64(sum[:]) != want {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return l, nil
}
