package hostile

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/cespare/xxhash/v2"
)

// mix is SplitMix64's finalizer: distinct, well spread values from a counter.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// SimhashIndex returns a valid, checksummed saved simhash index (the form
// simhash.Index.WriteTo writes) for distance k, with the 64 bits cut into
// blocks blocks and n entries: ids 1..n with well-spread fingerprints. k = 2
// with 45 blocks asks a loader for C(45, 2) = 990 tables, so a small file
// can ask for much memory. The generator writes the bytes itself so that the
// simhash package's own tests may use it.
func SimhashIndex(k, blocks, n int) []byte {
	n = max(n, 0)
	b := make([]byte, 0, 28+16*n+4)
	b = append(b, "UDSIMHX\n"...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(k))
	b = binary.LittleEndian.AppendUint32(b, uint32(blocks))
	b = binary.LittleEndian.AppendUint64(b, uint64(n))
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, uint64(i+1))
		b = binary.LittleEndian.AppendUint64(b, mix(uint64(i)))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// LSHIndex returns a valid, checksummed saved shingle LSH index (the form
// shingle.LSH.WriteTo writes) of bands x rows rows over k = bands*rows
// minhashes with threshold 0.5 and n documents: keys 1..n, each with
// well-spread band hashes. Like SimhashIndex it writes the bytes itself.
func LSHIndex(bands, rows, n int) []byte {
	n = max(n, 0)
	b := make([]byte, 0, 11+16+16+8*(1+bands)*n+8)
	b = append(b, "undust-lsh\n"...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(bands*rows))
	b = binary.LittleEndian.AppendUint32(b, uint32(bands))
	b = binary.LittleEndian.AppendUint32(b, uint32(rows))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(0.5))
	b = binary.LittleEndian.AppendUint64(b, uint64(n))
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, uint64(i+1))
		for j := range bands {
			b = binary.LittleEndian.AppendUint64(b, mix(uint64(i)<<16|uint64(j)))
		}
	}
	return binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
}

// Truncations returns file cut at n+1 evenly spaced lengths from 0 to
// len(file)-1: every prefix a reader must reject as truncated.
func Truncations(file []byte, n int) [][]byte {
	if len(file) == 0 {
		return nil
	}
	n = max(n, 0)
	out := make([][]byte, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, file[:(len(file)-1)*i/max(n, 1)])
	}
	return out
}
