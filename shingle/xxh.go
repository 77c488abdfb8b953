package shingle

import (
	"encoding/binary"
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// XXH64 constants (Collet, xxHash specification).
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// sum64 is xxhash.Sum64 (seed 0). Shingles of CJK text are about 20 bytes,
// where the call into xxhash's assembly costs as much as the hashing, so
// inputs under 32 bytes take the XXH64 short-input path inline here.
// Tests compare it with xxhash.Sum64 on every length.
func sum64(b []byte) uint64 {
	n := len(b)
	if n >= 32 {
		return xxhash.Sum64(b)
	}
	h := prime5 + uint64(n)
	for ; len(b) >= 8; b = b[8:] {
		h = lane(h, binary.LittleEndian.Uint64(b))
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * prime1
		h = bits.RotateLeft64(h, 23)*prime2 + prime3
		b = b[4:]
	}
	for _, c := range b {
		h = tail(h, c)
	}
	return avalanche(h)
}

// avalanche is XXH64's final mix.
func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

// lane mixes the 8-byte word k into h, a step of XXH64's input of under 32
// bytes.
func lane(h, k uint64) uint64 {
	k *= prime2
	k = bits.RotateLeft64(k, 31)
	k *= prime1
	h ^= k
	return bits.RotateLeft64(h, 27)*prime1 + prime4
}

// tail mixes one of the last bytes of XXH64's input into h.
func tail(h uint64, c byte) uint64 {
	return bits.RotateLeft64(h^tail5[c], 11) * prime1
}

// tail5 holds c*prime5 for every byte c, the product tail mixes in.
var tail5 = func() (t [256]uint64) {
	for c := range t {
		t[c] = uint64(c) * prime5
	}
	return t
}()

// stripe mixes the 8-byte word k into the accumulator v, a step of XXH64's
// input of 32 bytes or more.
func stripe(v, k uint64) uint64 {
	v += k * prime2
	return bits.RotateLeft64(v, 31) * prime1
}

// merge mixes the accumulator v into h after the stripes.
func merge(h, v uint64) uint64 {
	h ^= stripe(0, v)
	return h*prime1 + prime4
}
