package shingle

import (
	"encoding/binary"
	"math/bits"
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
	buf, starts := t.buf, t.starts
	for i := 0; i+w <= n; i++ {
		e := len(buf)
		if i+w < n {
			e = int(starts[i+w]) - 1
		}
		b := buf[starts[i]:e]
		if len(b) >= 64 {
			dst = append(dst, xxhash.Sum64(b))
			continue
		}
		// XXH64 of inputs under 64 bytes, written out here without
		// loops: a shingle of five ideographs is 19 bytes, one of five
		// English words about 30, and a call per shingle costs as much
		// as hashing it. At most one 32-byte stripe, then the tail.
		var h uint64
		if len(b) >= 32 {
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
			h += uint64(len(b))
			b = b[32:]
		} else {
			h = prime5 + uint64(len(b))
		}
		if len(b) >= 8 {
			h = lane(h, binary.LittleEndian.Uint64(b))
			if len(b) >= 16 {
				h = lane(h, binary.LittleEndian.Uint64(b[8:]))
				if len(b) >= 24 {
					h = lane(h, binary.LittleEndian.Uint64(b[16:]))
				}
			}
			b = b[len(b)&^7:]
		}
		if len(b) >= 4 {
			h ^= uint64(binary.LittleEndian.Uint32(b)) * prime1
			h = bits.RotateLeft64(h, 23)*prime2 + prime3
			b = b[4:]
		}
		if len(b) > 0 {
			h = tail(h, b[0])
			if len(b) > 1 {
				h = tail(h, b[1])
				if len(b) > 2 {
					h = tail(h, b[2])
				}
			}
		}
		h ^= h >> 33
		h *= prime2
		h ^= h >> 29
		h *= prime3
		h ^= h >> 32
		dst = append(dst, h)
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
