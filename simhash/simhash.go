package simhash

import "math/bits"

// Sum64 returns the SimHash fingerprint of features, each a 64-bit feature
// hash with weight 1. A hash that occurs n times in features weighs n, so
// passing every shingle of a text (repeats included) weighs features by their
// counts.
//
// Bit i of the result (the bit with value 1<<i) is set when more of the
// features have bit i set than clear, that is when the lecture notes' counter
// V[i] = #set - #clear is > 0. A tie (V[i] == 0) gives 0, so the empty input
// gives 0. Sum64 does not allocate and does not keep or change features.
func Sum64(features []uint64) uint64 {
	var a Accumulator
	a.AddHashes(features)
	return a.Sum64()
}

// Sum64Weighted returns the SimHash fingerprint of features where
// features[i] weighs weights[i] (for example an inverse document frequency
// supplied by the caller). Bit i is set when the total weight of features
// with bit i set exceeds the total weight of those with it clear (V[i] > 0);
// ties and the empty input give 0. Weights should be finite; a negative weight
// counts against the feature's bits. A NaN or infinite weight makes the
// fingerprint 0.
//
// Sum64Weighted panics if len(weights) != len(features). It does not allocate
// and does not keep or change its arguments.
func Sum64Weighted(features []uint64, weights []float64) uint64 {
	if len(weights) != len(features) {
		panic("simhash: Sum64Weighted: len(weights) != len(features)")
	}
	var a Accumulator
	for i, h := range features {
		a.AddWeighted(h, weights[i])
	}
	return a.Sum64()
}

// Distance returns the Hamming distance between two fingerprints: the number
// of bit positions in which they differ (0 to 64).
func Distance(a, b uint64) int {
	return bits.OnesCount64(a ^ b)
}

// Tie says which bit a fingerprint gets where the counter V[i] is exactly 0.
// The zero value is TieZero.
type Tie uint8

const (
	// TieZero sets bit i only when V[i] > 0, as in the lecture notes and
	// Charikar's sign rule read as "positive"; the empty input gives 0.
	TieZero Tie = iota
	// TieOne sets bit i when V[i] >= 0 (github.com/mfonda/simhash,
	// github.com/go-dedup/simhash); the empty input gives all ones.
	TieOne
)

// flushEvery is how many unit-weight features the byte lanes of an
// Accumulator hold before they are added to the wide counters: each lane byte
// counts at most 255.
const flushEvery = 255

// Accumulator builds one fingerprint from a stream of features without
// allocating: the lecture notes' per-bit counters V[0..63]. Add features with
// Add, AddHashes or AddWeighted, read the fingerprint with Sum64 (or SumTie),
// and Reset to start the next document.
//
// The zero value is an empty Accumulator, ready to use. An Accumulator is not
// safe for concurrent use; it keeps nothing it is given but the counters.
type Accumulator struct {
	// lanes[b] holds eight 8-bit counters, one for each bit of byte b of the
	// unit-weight hashes added since the last flush: adding a hash is eight
	// table look-ups and eight additions instead of 64 branches.
	lanes   [8]uint64
	pending int // unit-weight hashes in lanes

	ones  [64]int64 // flushed unit-weight counts of set bits
	units int64     // unit-weight features added

	wset   [64]float64 // total weight of weighted features with bit i set
	wtotal float64     // total weight of weighted features
	wused  bool
}

// Reset empties the Accumulator.
func (a *Accumulator) Reset() { *a = Accumulator{} }

// Add adds one feature hash with weight 1.
func (a *Accumulator) Add(h uint64) {
	a.lanes[0] += spread[byte(h)]
	a.lanes[1] += spread[byte(h>>8)]
	a.lanes[2] += spread[byte(h>>16)]
	a.lanes[3] += spread[byte(h>>24)]
	a.lanes[4] += spread[byte(h>>32)]
	a.lanes[5] += spread[byte(h>>40)]
	a.lanes[6] += spread[byte(h>>48)]
	a.lanes[7] += spread[byte(h>>56)]
	a.pending++
	if a.pending == flushEvery {
		a.flush()
	}
}

// AddHashes adds every hash in hs with weight 1; it is equivalent to calling
// Add for each.
func (a *Accumulator) AddHashes(hs []uint64) {
	for _, h := range hs {
		a.Add(h)
	}
}

// AddWeighted adds one feature hash with weight w. Unit-weight and weighted
// features may be mixed; the fingerprint then compares float64 totals.
func (a *Accumulator) AddWeighted(h uint64, w float64) {
	a.wused = true
	a.wtotal += w
	// One table row per byte of h: eight branch-free multiply-adds per
	// byte, about twice as fast as shifting out one bit at a time.
	for b := 0; b < 8; b++ {
		row := &bitFloats[byte(h>>(8*b))]
		s := a.wset[8*b : 8*b+8 : 8*b+8]
		s[0] += w * row[0]
		s[1] += w * row[1]
		s[2] += w * row[2]
		s[3] += w * row[3]
		s[4] += w * row[4]
		s[5] += w * row[5]
		s[6] += w * row[6]
		s[7] += w * row[7]
	}
}

// bitFloats[x][j] is bit j of x as 0 or 1.
var bitFloats = func() (t [256][8]float64) {
	for x := range 256 {
		for j := range 8 {
			t[x][j] = float64(x >> j & 1)
		}
	}
	return t
}()

func (a *Accumulator) flush() {
	for b := range a.lanes {
		l := a.lanes[b]
		for j := range 8 {
			a.ones[8*b+j] += int64((l >> (8 * j)) & 0xff)
		}
		a.lanes[b] = 0
	}
	a.units += int64(a.pending)
	a.pending = 0
}

// Sum64 returns the fingerprint of the features added so far with the
// TieZero rule: bit i is set when V[i] > 0. The Accumulator is not changed.
func (a *Accumulator) Sum64() uint64 { return a.SumTie(TieZero) }

// SumTie returns the fingerprint of the features added so far, with tie
// deciding the bits whose counter V[i] is exactly 0. The Accumulator is not
// changed.
func (a *Accumulator) SumTie(tie Tie) uint64 {
	c := *a // flush a copy so that Sum64 leaves the Accumulator as it was
	if c.pending > 0 {
		c.flush()
	}
	var fp uint64
	if !c.wused {
		// Integer path, exact: V[i] = ones[i] - (units - ones[i]).
		for i, o := range c.ones {
			v := 2*o - c.units
			if v > 0 || (v == 0 && tie == TieOne) {
				fp |= 1 << uint(i)
			}
		}
		return fp
	}
	for i := range c.ones {
		v := 2*(float64(c.ones[i])+c.wset[i]) - (float64(c.units) + c.wtotal)
		if v > 0 || (v == 0 && tie == TieOne) {
			fp |= 1 << uint(i)
		}
	}
	return fp
}

// spread[x] has byte j equal to bit j of x, so adding spread[x] to a lane
// increments the 8-bit counters of the bits set in x.
var spread = func() (t [256]uint64) {
	for x := range 256 {
		for j := range 8 {
			if x&(1<<j) != 0 {
				t[x] |= 1 << (8 * j)
			}
		}
	}
	return t
}()
