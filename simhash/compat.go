package simhash

import (
	"crypto/md5"
	"encoding/binary"
	"hash/fnv"
	"regexp"
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"
)

// FeatureHash names a 64-bit hash of a feature's UTF-8 bytes. The zero value
// is XXH64.
type FeatureHash uint8

const (
	// XXH64 is xxHash64 with seed 0 (github.com/cespare/xxhash/v2), the hash
	// package shingle uses.
	XXH64 FeatureHash = iota
	// FNV1 is 64-bit FNV-1 (hash/fnv.New64), used by
	// github.com/mfonda/simhash and github.com/go-dedup/simhash.
	FNV1
	// FNV1a is 64-bit FNV-1a (hash/fnv.New64a).
	FNV1a
	// MD5Low64 is the last 8 bytes of the MD5 digest read big-endian: the
	// low 64 bits of Python's int(hashlib.md5(b).hexdigest(), 16), used by
	// the Python package simhash (github.com/1e0ng/simhash).
	MD5Low64
)

// Hash returns the hash of s's bytes.
func (h FeatureHash) Hash(s string) uint64 {
	switch h {
	case FNV1:
		f := fnv.New64()
		f.Write([]byte(s))
		return f.Sum64()
	case FNV1a:
		f := fnv.New64a()
		f.Write([]byte(s))
		return f.Sum64()
	case MD5Low64:
		d := md5.Sum([]byte(s))
		return binary.BigEndian.Uint64(d[8:])
	default:
		return xxhash.Sum64String(s)
	}
}

// Tokenizer names how a Profile turns text into string features. The zero
// value is ASCIIWords.
type Tokenizer uint8

const (
	// ASCIIWords lower-cases the text (Unicode lower case) and takes every
	// match of the regular expression [\w']+(?:://[\w./]+)? with ASCII \w
	// as a feature: the WordFeatureSet of github.com/mfonda/simhash and
	// github.com/go-dedup/simhash. "It's at http://x.org/a, ok" gives
	// "it's", "at", "http://x.org/a", "ok".
	ASCIIWords Tokenizer = iota
	// JoinedCharGrams lower-cases the text, keeps only word characters
	// (letters, numbers, '_' and U+4E00..U+9FCC), joins them, and takes
	// every run of Width characters as a feature; a text shorter than Width
	// is one feature, even when empty. This is the Python package simhash
	// (github.com/1e0ng/simhash), whose \w is Unicode: "How are you?" with
	// Width 4 gives "howa", "owar", "ware", "arey", "reyo", "eyou".
	JoinedCharGrams
)

// Profile reproduces another library's text fingerprints: its tokenization,
// feature hash and tie rule. Every documented library weighs a feature by
// its count, and so does Profile. The zero value is ASCII words hashed with
// xxHash64 and the TieZero rule. A Profile is a plain value, safe for
// concurrent use.
type Profile struct {
	Tokens Tokenizer
	Width  int // characters per feature for JoinedCharGrams; 0 means 4
	Hash   FeatureHash
	Tie    Tie
}

var (
	// GoDedup reproduces github.com/go-dedup/simhash and
	// github.com/mfonda/simhash (SimhashBytes / GetSimhash of a
	// WordFeatureSet): ASCII words, FNV-1, bit set when V[i] >= 0.
	GoDedup = Profile{Tokens: ASCIIWords, Hash: FNV1, Tie: TieOne}
	// PySimhash reproduces the Python package simhash by 1e0ng (leonsim),
	// Simhash(text) with f=64 in its current form: 4-character grams of the
	// joined word characters, MD5 low 64 bits, bit set when V[i] > 0.
	PySimhash = Profile{Tokens: JoinedCharGrams, Width: 4, Hash: MD5Low64, Tie: TieZero}
	// PySimhashOld reproduces early revisions of the same Python package
	// (2-character grams, bit set when V[i] >= 0).
	PySimhashOld = Profile{Tokens: JoinedCharGrams, Width: 2, Hash: MD5Low64, Tie: TieOne}
)

var asciiWord = regexp.MustCompile(`[\w']+(?:://[\w./]+)?`)

// Features calls f for each string feature of text, in order, repeats
// included.
func (p Profile) Features(text string, f func(feature string)) {
	switch p.Tokens {
	case JoinedCharGrams:
		w := p.Width
		if w <= 0 {
			w = 4
		}
		var rs []rune
		for _, r := range strings.ToLower(text) {
			if r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || r >= 0x4e00 && r <= 0x9fcc {
				rs = append(rs, r)
			}
		}
		for i := range max(len(rs)-w+1, 1) {
			f(string(rs[i:min(i+w, len(rs))]))
		}
	default:
		for _, m := range asciiWord.FindAllString(strings.ToLower(text), -1) {
			f(m)
		}
	}
}

// AppendHashes appends the hash of every feature of text to dst and returns
// the extended slice: the features for Sum64Weighted when the caller
// supplies weights.
func (p Profile) AppendHashes(dst []uint64, text string) []uint64 {
	p.Features(text, func(s string) { dst = append(dst, p.Hash.Hash(s)) })
	return dst
}

// Sum64 returns the fingerprint of text under the profile.
func (p Profile) Sum64(text string) uint64 {
	var a Accumulator
	p.Features(text, func(s string) { a.Add(p.Hash.Hash(s)) })
	return a.SumTie(p.Tie)
}
