package shingle

import (
	"fmt"
	"math"
	"math/bits"
)

// DefaultK is the default number of MinHash values in a signature.
const DefaultK = 128

// empty marks a bin that no shingle fell into.
const empty = math.MaxUint64

// MinHasher computes MinHash signatures of shingle sets by one-permutation
// hashing with optimal densification (Li, Owen, Zhang, "One permutation
// hashing", NIPS 2012; Shrivastava, "Optimal densification for fast and
// accurate minwise hashing", ICML 2017).
//
// The hashing scheme, so that signatures can be reproduced elsewhere:
//
//  1. Every shingle hash h (from [AppendHashes]) is permuted with the
//     splitmix64 finalizer of h XOR seed: v = fmix(h ^ seed).
//  2. v falls in bin (v * k) >> 64 (the high 64 bits of the 128-bit
//     product), so the k bins split the 64-bit range into equal parts.
//  3. Bin i holds the least v that fell in it.
//  4. An empty bin i takes the value of the first non-empty bin in the
//     probe sequence bin(fmix(seed ^ (i<<32 | attempt) ^ probeSalt)) for
//     attempt = 1, 2, ...; the sequence depends only on i and the seed, so
//     two sets densify the same way and the estimator stays unbiased.
//
// Two signatures agree in a position with probability equal to the
// Jaccard resemblance of the sets, so the fraction of agreeing positions
// estimates it with standard deviation about sqrt(J(1-J)/k) (0.044 at
// J = 0.5 for k = 128; slightly less for OPH, which samples bins without
// replacement). Duplicate hashes in the input do not change the signature.
//
// A MinHasher is immutable after NewMinHasher: its zero value is not usable,
// it is safe for concurrent use, and it does not keep or modify the hashes
// it is given.
type MinHasher struct {
	k    int
	seed uint64
}

// NewMinHasher returns a MinHasher for k-value signatures (DefaultK if k is
// 0) seeded with seed. It panics if k is negative or above 1<<16.
func NewMinHasher(k int, seed uint64) *MinHasher {
	if k == 0 {
		k = DefaultK
	}
	if k < 0 || k > 1<<16 {
		panic(fmt.Sprintf("shingle: MinHash k = %d out of range [1, 65536]", k))
	}
	return &MinHasher{k: k, seed: seed}
}

// K returns the signature length.
func (m *MinHasher) K() int { return m.k }

// fmix is the splitmix64 finalizer, a bijection on uint64 with full
// avalanche.
func fmix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

const probeSalt = 0x9e3779b97f4a7c15

// Signature returns the signature of the shingle hashes h. It is
// equivalent to AppendSignature(nil, h).
func (m *MinHasher) Signature(h []uint64) []uint64 {
	return m.AppendSignature(nil, h)
}

// AppendSignature appends the k-value signature of the shingle hashes h to
// dst and returns the extended slice. A set without hashes has a signature
// of all math.MaxUint64, which agrees with no other signature. It does not
// allocate when dst has room for k values.
func (m *MinHasher) AppendSignature(dst []uint64, h []uint64) []uint64 {
	n := len(dst)
	k := uint64(m.k)
	for range m.k {
		dst = append(dst, empty)
	}
	sig := dst[n:]
	for _, x := range h {
		v := fmix(x ^ m.seed)
		bin, _ := bits.Mul64(v, k)
		if v < sig[bin] {
			sig[bin] = v
		}
	}
	m.densify(sig)
	return dst
}

// densify fills empty bins from non-empty ones along a fixed probe
// sequence. A bin holds its own minimum exactly when the value falls in
// that bin, which tells copied values from own ones without extra memory.
func (m *MinHasher) densify(sig []uint64) {
	k := uint64(len(sig))
	own := func(i int) bool {
		if sig[i] == empty {
			return false
		}
		b, _ := bits.Mul64(sig[i], k)
		return int(b) == i
	}
	filled := 0
	for i := range sig {
		if own(i) {
			filled++
		}
	}
	if filled == 0 || filled == len(sig) {
		return
	}
	for i := range sig {
		if own(i) {
			continue
		}
		found := false
		// The chance of missing every own bin in 64k probes is below
		// e^-64; the linear fallback only guarantees termination.
		for attempt := uint64(1); attempt <= 64*k; attempt++ {
			j, _ := bits.Mul64(fmix(m.seed^(uint64(i)<<32|attempt)^probeSalt), k)
			if own(int(j)) {
				sig[i] = sig[j]
				found = true
				break
			}
		}
		for j := (i + 1) % len(sig); !found; j = (j + 1) % len(sig) {
			if own(j) {
				sig[i] = sig[j]
				found = true
			}
		}
	}
}

// Estimate returns the fraction of positions in which the signatures a and
// b agree, the MinHash estimate of the Jaccard resemblance of their sets.
// It returns 0 if the lengths differ or are 0.
func Estimate(a, b []uint64) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	n := 0
	for i := range a {
		if a[i] == b[i] && a[i] != empty {
			n++
		}
	}
	return float64(n) / float64(len(a))
}
