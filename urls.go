package undust

import (
	"encoding/binary"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// A urlStore keeps the URLs of a crawl's holders: each URL's scheme and authority
// ("https://www.example.com", its prefix) once per distinct prefix, and the rest of it (its
// tail, "/a/b?c=d") in an append-only arena of 1 MB chunks, after its length. A URL costs its
// tail's bytes and one or two, instead of a string of its own (its bytes rounded up to a size
// class, and a 16-byte header). The zero value is empty.
type urlStore struct {
	chunks   [][]byte
	prefixes []string // prefix id -> prefix; id 0 is none: the tail is the whole URL
}

const (
	chunkBits   = 20
	chunkSize   = 1 << chunkBits
	maxChunks   = 1 << (offsetBits - chunkBits)
	offsetBits  = 38 // bits of a tail's offset: chunk << chunkBits | position
	prefixBits  = 24 // bits of a prefix id
	maxPrefixes = 1 << prefixBits
)

// add appends a tail and returns its offset; false when the arena is full (2^38 bytes).
func (s *urlStore) add(tail string) (uint64, bool) {
	var n [binary.MaxVarintLen64]byte
	ln := binary.PutUvarint(n[:], uint64(len(tail)))
	need := ln + len(tail)
	k := len(s.chunks) - 1
	if k < 0 || len(s.chunks[k])+need > chunkSize {
		if len(s.chunks) >= maxChunks {
			return 0, false
		}
		// A tail longer than a chunk gets a chunk of its own.
		s.chunks = append(s.chunks, make([]byte, 0, max(need, min(4<<10, chunkSize))))
		k++
	}
	c := s.chunks[k]
	if cap(c)-len(c) < need {
		// Grow the last chunk by doubling up to chunkSize, so that a small crawl takes little.
		g := make([]byte, len(c), min(chunkSize, max(2*cap(c), len(c)+need)))
		copy(g, c)
		c = g
	}
	off := uint64(k)<<chunkBits | uint64(len(c))
	c = append(c, n[:ln]...)
	s.chunks[k] = append(c, tail...)
	return off, true
}

// tail returns the tail at offset off. It is the arena's memory: not to be modified.
func (s *urlStore) tail(off uint64) []byte {
	c := s.chunks[off>>chunkBits][off&(chunkSize-1):]
	n, k := binary.Uvarint(c)
	return c[k : k+int(n)]
}

// bytes returns the bytes of the arena, for the documentation of memory.
func (s *urlStore) bytes() int {
	n := 0
	for _, c := range s.chunks {
		n += cap(c)
	}
	return n
}

// splitURL returns the prefix of a URL, its scheme and authority (up to the first "/", "?" or
// "#" after "://"), and the rest; "" and the URL when it has no "://".
func splitURL(u string) (prefix, tail string) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", u
	}
	j := strings.IndexAny(u[i+3:], "/?#")
	if j < 0 {
		return u, ""
	}
	return u[:i+3+j], u[i+3+j:]
}

// hashURL returns the hash a holder keeps of its URL: the URL itself is compared by it, and
// read from the arena only to be given out.
func hashURL(u string) uint64 { return xxhash.Sum64String(u) }
