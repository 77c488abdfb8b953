package shingle

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
)

var tokenizers = sync.Pool{New: func() any { return new(tokenizer) }}

// Tokens returns the tokens of text under o. It is equivalent to
// AppendTokens(nil, text, o).
func Tokens(text string, o Options) []string {
	return AppendTokens(nil, text, o)
}

// AppendTokens appends the tokens of text to dst and returns the extended
// slice. The tokens share one newly allocated string.
func AppendTokens(dst []string, text string, o Options) []string {
	t := tokenizers.Get().(*tokenizer)
	defer tokenizers.Put(t)
	t.tokenize(text, o)
	all := string(t.buf)
	for i, s := range t.starts {
		e := len(all)
		if i+1 < len(t.starts) {
			e = int(t.starts[i+1]) - 1
		}
		dst = append(dst, all[s:e])
	}
	return dst
}

// Hashes returns the 64-bit hashes of the w-shingles of text, in text
// order, duplicates included. It is equivalent to AppendHashes(nil, text, o).
func Hashes(text string, o Options) []uint64 {
	return AppendHashes(nil, text, o)
}

// AppendHashes appends the hash of every w-shingle of text to dst, in text
// order, duplicates included, and returns the extended slice. The hash of a
// shingle is xxhash.Sum64 (XXH64, seed 0) of its tokens joined by single
// spaces, so it equals xxhash.Sum64String(strings.Join(tokens[i:i+w], " ")).
// A text with fewer than w tokens but at least one is a single shingle of
// all its tokens; a text without tokens has no shingles. Apart from growing
// dst, it does not allocate.
func AppendHashes(dst []uint64, text string, o Options) []uint64 {
	t := tokenizers.Get().(*tokenizer)
	dst = t.appendHashes(dst, text, o)
	tokenizers.Put(t)
	return dst
}

func (t *tokenizer) appendHashes(dst []uint64, text string, o Options) []uint64 {
	t.tokenize(text, o)
	w := o.width()
	n := len(t.starts)
	if n == 0 {
		return dst
	}
	if n < w {
		return append(dst, sum64(t.buf))
	}
	if cap(t.buf)-len(t.buf) < 8 {
		t.buf = slices.Grow(t.buf, 8)
	}
	return appendShingles(dst, t.buf, t.starts, w)
}

// appendShingles appends the XXH64 of buf[starts[i]:starts[i+w]-1] (of
// buf[starts[i]:] for the last) for every i, to dst. buf must have 8 bytes
// of capacity past its length: the last bytes of a shingle are read as one
// word.
//
// It is XXH64 of inputs under 64 bytes written out without loops (a
// shingle of five ideographs is 19 bytes, one of five English words about
// 30, and a call per shingle costs as much as hashing it), at most one
// 32-byte stripe, then the lanes of 8 bytes, then the last 0 to 7 bytes.
// Those come from one load and are mixed in by conditional moves rather
// than branches: English shingle lengths vary at random, and a mispredicted
// branch costs as much as the steps it skips. Runs of 19-byte shingles
// (Chinese text) take a loop of their own.
func appendShingles(dst []uint64, buf []byte, starts []int32, w int) []uint64 {
	full := buf[:cap(buf)]
	n := len(starts)
	for i := 0; i+w <= n; {
		e := len(buf)
		if i+w < n {
			e = int(starts[i+w]) - 1
		}
		s := int(starts[i])
		l := e - s
		if l == 19 {
			// Two lanes and three tail bytes, as long as the
			// shingles are 19 bytes long.
			for {
				b := full[s : s+24]
				h := lane(lane(prime5+19, binary.LittleEndian.Uint64(b)), binary.LittleEndian.Uint64(b[8:]))
				x := binary.LittleEndian.Uint64(b[16:])
				h = bits.RotateLeft64(h^tail5[x&0xFF], 11) * prime1
				h = bits.RotateLeft64(h^tail5[x>>8&0xFF], 11) * prime1
				h = bits.RotateLeft64(h^tail5[x>>16&0xFF], 11) * prime1
				dst = append(dst, avalanche(h))
				i++
				if i+w >= n {
					break
				}
				s = int(starts[i])
				if int(starts[i+w])-1-s != 19 {
					break
				}
			}
			continue
		}
		i++
		if l >= 64 {
			dst = append(dst, xxhash.Sum64(buf[s:e]))
			continue
		}
		var h uint64
		if l >= 32 {
			b := full[s : s+32]
			p1, p2 := prime1, prime2 // wrapping sums, as in the spec
			v1 := stripe(p1+p2, binary.LittleEndian.Uint64(b))
			v2 := stripe(prime2, binary.LittleEndian.Uint64(b[8:]))
			v3 := stripe(0, binary.LittleEndian.Uint64(b[16:]))
			v4 := stripe(-p1, binary.LittleEndian.Uint64(b[24:]))
			h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
			h = merge(h, v1)
			h = merge(h, v2)
			h = merge(h, v3)
			h = merge(h, v4)
			h += uint64(l)
			s += 32
		} else {
			h = prime5 + uint64(l)
		}
		r := l & 31
		switch r >> 3 {
		case 3:
			b := full[s : s+24]
			h = lane(h, binary.LittleEndian.Uint64(b))
			h = lane(h, binary.LittleEndian.Uint64(b[8:]))
			h = lane(h, binary.LittleEndian.Uint64(b[16:]))
			s += 24
		case 2:
			b := full[s : s+16]
			h = lane(h, binary.LittleEndian.Uint64(b))
			h = lane(h, binary.LittleEndian.Uint64(b[8:]))
			s += 16
		case 1:
			h = lane(h, binary.LittleEndian.Uint64(full[s:s+8]))
			s += 8
		}
		// The last r&7 bytes: four as a word if there are four, then
		// one at a time. Each step is computed and kept or not.
		x := binary.LittleEndian.Uint64(full[s : s+8])
		m := r & 7
		h4 := bits.RotateLeft64(h^uint64(uint32(x))*prime1, 23)*prime2 + prime3
		if m >= 4 {
			h = h4
		}
		x >>= (m & 4) * 8 // past the four bytes, if they were taken
		t0 := bits.RotateLeft64(h^tail5[x&0xFF], 11) * prime1
		if m&3 >= 1 {
			h = t0
		}
		t1 := bits.RotateLeft64(h^tail5[x>>8&0xFF], 11) * prime1
		if m&3 >= 2 {
			h = t1
		}
		t2 := bits.RotateLeft64(h^tail5[x>>16&0xFF], 11) * prime1
		if m&3 >= 3 {
			h = t2
		}
		dst = append(dst, avalanche(h))
	}
	return dst
}

// Shingles returns the w-shingles of text as strings, tokens joined by
// single spaces, in text order, duplicates included. It is the readable
// form of what [AppendHashes] hashes.
func Shingles(text string, o Options) []string {
	toks := Tokens(text, o)
	w := o.width()
	if len(toks) == 0 {
		return nil
	}
	if len(toks) < w {
		return []string{strings.Join(toks, " ")}
	}
	out := make([]string, 0, len(toks)-w+1)
	for i := 0; i+w <= len(toks); i++ {
		out = append(out, strings.Join(toks[i:i+w], " "))
	}
	return out
}
