package simhash

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// Pair is two near-duplicate fingerprints, given by their positions I < J in
// the slice passed to FindPairs or FindPairsExact: a plain value.
type Pair struct {
	I, J     int
	Distance int
}

// BatchOptions tunes FindPairs. The zero value means the lecture notes'
// method: 64 passes, one bit of rotation apart, comparing adjacent entries.
// FindPairs only reads it.
type BatchOptions struct {
	// Rotations is the number of sort passes; pass r sorts the fingerprints
	// rotated left by r*Step bits. 0 means 64.
	Rotations int
	// Window is how many following entries each entry of a sorted pass is
	// compared with. 0 means 1 (adjacent entries only).
	Window int
	// Step is the rotation, in bits, between passes. 0 means 1.
	Step int
}

// FindPairs returns pairs of fingerprints within Hamming distance k of each
// other, found by the lecture notes' batch method: sort, compare each entry
// with the next Window entries, rotate all fingerprints, repeat Rotations
// times. Every pair returned is within k; pairs that no pass brings within
// Window places of each other are missed (see FindPairsExact for all of
// them). Pairs are returned once each, ordered by I and then J.
//
// FindPairs takes O(Rotations * n * (log n + Window)) time and O(n + pairs)
// memory, and does not keep or change fps. It panics if k is not in
// [0, 64], an option is negative, or fps has more than 2^32 entries.
func FindPairs(fps []uint64, k int, opts *BatchOptions) []Pair {
	var o BatchOptions
	if opts != nil {
		o = *opts
	}
	if k < 0 || k > 64 || o.Rotations < 0 || o.Window < 0 || o.Step < 0 || uint64(len(fps)) > 1<<32 {
		panic(fmt.Sprintf("simhash: FindPairs: k = %d or options %+v out of range", k, o))
	}
	if o.Rotations == 0 {
		o.Rotations = 64
	}
	if o.Window == 0 {
		o.Window = 1
	}
	if o.Step == 0 {
		o.Step = 1
	}
	items := make([]item, len(fps))
	tmp := make([]item, len(fps))
	seen := make(map[uint64]uint8) // i<<32 | j -> distance
	for r := range o.Rotations {
		rot := (r * o.Step) % 64
		for i, fp := range fps {
			items[i] = item{bits.RotateLeft64(fp, rot), i}
		}
		radixSort(items, tmp)
		for a := range items {
			for b := a + 1; b <= a+o.Window && b < len(items); b++ {
				// Rotation preserves Hamming distance.
				if d := bits.OnesCount64(items[a].key ^ items[b].key); d <= k {
					i, j := items[a].i, items[b].i
					if i > j {
						i, j = j, i
					}
					seen[uint64(i)<<32|uint64(j)] = uint8(d)
				}
			}
		}
	}
	return sortedPairs(seen)
}

type item struct {
	key uint64
	i   int
}

// radixSort sorts items by key, stably (equal keys keep their order), with
// tmp as scratch space of the same length: eight passes of one byte each,
// several times faster than a comparison sort for the large inputs of a
// crawl.
func radixSort(items, tmp []item) {
	if len(items) < 2 {
		return
	}
	src, dst := items, tmp
	for shift := 0; shift < 64; shift += 8 {
		var count [257]int
		for _, it := range src {
			count[int(byte(it.key>>shift))+1]++
		}
		if count[int(byte(src[0].key>>shift))+1] == len(src) {
			continue // every key has this byte: the pass would not move anything
		}
		for b := 1; b < 257; b++ {
			count[b] += count[b-1]
		}
		for _, it := range src {
			b := byte(it.key >> shift)
			dst[count[b]] = it
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &items[0] {
		copy(items, src)
	}
}

// FindPairsExact returns every pair of fingerprints within Hamming distance
// k, 0 <= k <= 31, each once, ordered by I and then J. It inserts the
// fingerprints into an Index with K = k and queries each one, so it takes
// about as long as n queries; fps is not kept or changed. It panics if k is
// out of range.
func FindPairsExact(fps []uint64, k int) []Pair {
	x := NewIndex(k, nil)
	var ps []Pair
	var ms []Match
	for j, fp := range fps {
		// Query before inserting: every match has a smaller position.
		ms = x.AppendNear(ms[:0], fp, k)
		for _, m := range ms {
			ps = append(ps, Pair{I: int(m.ID), J: j, Distance: m.Distance})
		}
		x.Insert(uint64(j), fp)
	}
	slices.SortFunc(ps, comparePairs)
	return ps
}

func sortedPairs(m map[uint64]uint8) []Pair {
	ps := make([]Pair, 0, len(m))
	for ij, d := range m {
		ps = append(ps, Pair{int(ij >> 32), int(ij & (1<<32 - 1)), int(d)})
	}
	slices.SortFunc(ps, comparePairs)
	return ps
}

func comparePairs(a, b Pair) int {
	return cmp.Or(cmp.Compare(a.I, b.I), cmp.Compare(a.J, b.J))
}
