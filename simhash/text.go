package simhash

import (
	"sync"

	"github.com/undust/undust/shingle"
)

// bufs recycles the shingle hash buffers of SumText.
var bufs = sync.Pool{New: func() any { return new([]uint64) }}

// maxPooled is the largest buffer (in hashes) SumText keeps for reuse, so that
// one huge page does not pin its buffer forever.
const maxPooled = 1 << 20

// SumText returns the SimHash fingerprint of text's w-shingles as package
// shingle makes them with o (by default 5-word shingles of the NFKC,
// lower-cased text, CJK ideographs as single tokens, hashed with XXH64),
// each shingle weighted by its count. It is equivalent to
// Sum64(shingle.AppendHashes(nil, text, o)) but reuses its buffer, so it
// does not allocate in the steady state. A text without tokens gives 0, like
// the empty feature list; callers comparing pages should treat such pages
// apart, since all of them share the fingerprint 0. SumText is safe for
// concurrent use.
func SumText(text string, o shingle.Options) uint64 {
	p := bufs.Get().(*[]uint64)
	hs := shingle.AppendHashes((*p)[:0], text, o)
	fp := Sum64(hs)
	if cap(hs) <= maxPooled {
		*p = hs
		bufs.Put(p)
	}
	return fp
}
