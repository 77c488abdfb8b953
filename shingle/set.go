package shingle

import (
	"crypto/sha256"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Set is a shingle set: distinct shingle hashes in increasing order. Build
// one with [NewSet] or [AppendSet]; a Set is a plain slice, so the zero
// value is the empty set, it is safe for concurrent reads, and its methods
// never modify it.
type Set []uint64

// NewSet returns the set of the hashes in h. It does not modify h.
func NewSet(h []uint64) Set {
	return AppendSet(nil, h)
}

// AppendSet appends the hashes in h to dst[:0]'s storage, sorts and
// deduplicates them, and returns the set. It does not modify h; dst may
// not overlap h.
func AppendSet(dst Set, h []uint64) Set {
	s := append(dst[:0], h...)
	slices.Sort(s)
	return Set(slices.Compact(s))
}

// Contains reports whether h is in s, in O(log |s|) time.
func (s Set) Contains(h uint64) bool {
	_, ok := slices.BinarySearch(s, h)
	return ok
}

// Intersection returns |s ∩ t| in O(|s| + |t|) time.
func (s Set) Intersection(t Set) int {
	n, i, j := 0, 0, 0
	for i < len(s) && j < len(t) {
		switch {
		case s[i] < t[j]:
			i++
		case s[i] > t[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// Jaccard returns the resemblance |s ∩ t| / |s ∪ t|. Two empty sets have
// resemblance 0: they carry no evidence of being the same document.
func (s Set) Jaccard(t Set) float64 {
	n := s.Intersection(t)
	u := len(s) + len(t) - n
	if u == 0 {
		return 0
	}
	return float64(n) / float64(u)
}

// Containment returns |s ∩ t| / |s|, how much of s is inside t (Broder's
// containment of s in t); 0 for an empty s.
func (s Set) Containment(t Set) float64 {
	if len(s) == 0 {
		return 0
	}
	return float64(s.Intersection(t)) / float64(len(s))
}

// Sample appends to dst the hashes of s that are 0 mod m, the mod-m
// fingerprint selection of the lecture notes ("select only those hash
// values that are divisible by some number"), and returns it. The result
// is again a Set. m <= 1 keeps every hash.
func (s Set) Sample(dst Set, m uint64) Set {
	for _, h := range s {
		if m <= 1 || h%m == 0 {
			dst = append(dst, h)
		}
	}
	return dst
}

// normalized returns the tokens of text under o joined by single spaces:
// the normalized text the digests are taken of.
func normalized(text string, o Options) []byte {
	t := tokenizers.Get().(*tokenizer)
	defer tokenizers.Put(t)
	t.tokenize(text, o)
	return append([]byte(nil), t.buf...)
}

// Digest returns the SHA-256 digest of the normalized text: its tokens
// under o joined by single spaces. Two texts with the same digest are exact
// duplicates after normalization (case, white space and punctuation
// differences are gone; strip markup first with package htmltext).
func Digest(text string, o Options) [sha256.Size]byte {
	return sha256.Sum256(normalized(text, o))
}

// Digest64 returns the XXH64 digest of the normalized text, as [Digest]
// but 64 bits and not cryptographic: fast, and collision-free in practice
// for a crawl's worth of pages, but open to deliberate collisions.
func Digest64(text string, o Options) uint64 {
	t := tokenizers.Get().(*tokenizer)
	defer tokenizers.Put(t)
	t.tokenize(text, o)
	return xxhash.Sum64(t.buf)
}

// NormalizedText returns the tokens of text under o joined by single
// spaces, the input of [Digest] and [Digest64].
func NormalizedText(text string, o Options) string {
	return strings.Join(Tokens(text, o), " ")
}
