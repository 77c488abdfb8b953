package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/undust/undust/shingle"
)

// truthMinC is the labelling threshold: a pair is listed when
// max(J, containment a in b, containment b in a) >= truthMinC.
const truthMinC = 0.5

// longShingle is the width of the shingle a listed pair must share.
const longShingle = 8

// textSets are the shingle sets of one main text.
type textSets struct {
	tokens int
	s5     shingle.Set // 5-token shingles (one shingle when shorter)
	s8     shingle.Set // 8-token shingles, empty when the text has fewer than 8 tokens
}

// newTextSets tokenizes text the documented way (shingle's defaults: NFKC,
// lower case, CJK ideographs one token each, other runs of letters and
// digits one token) and hashes its 5- and 8-token shingles.
func newTextSets(text string) textSets {
	n := len(shingle.Tokens(text, shingle.Options{}))
	ts := textSets{tokens: n, s5: shingle.NewSet(shingle.Hashes(text, shingle.Options{}))}
	if n >= longShingle {
		ts.s8 = shingle.NewSet(shingle.Hashes(text, shingle.Options{Width: longShingle}))
	}
	return ts
}

// scored is one pair of documents with its similarities; A < B as indexes.
type scored struct {
	A, B      int
	J, CA, CB float64 // resemblance, containment of A in B, of B in A
}

// score computes J and both containments of a pair of sets.
func score(a, b shingle.Set) (j, ca, cb float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0, 0
	}
	in := a.Intersection(b)
	j = float64(in) / float64(len(a)+len(b)-in)
	ca = float64(in) / float64(len(a))
	cb = float64(in) / float64(len(b))
	return j, ca, cb
}

// listed reports whether a scored pair belongs in truth_pairs.tsv.
func listed(j, ca, cb float64, a, b textSets) bool {
	if max(j, ca, cb) < truthMinC {
		return false
	}
	return len(a.s8) > 0 && len(b.s8) > 0 && a.s8.Intersection(b.s8) > 0
}

// truthPairs returns every pair of docs with max(J, containments) >= 0.5
// that shares an 8-token shingle, sorted by (A, B). It never compares all
// pairs: every set is indexed whole, and each set probes the index with its
// prefix of rarest shingles. When a is the smaller set of a pair (ties
// broken by index) and |a∩b| >= |a|/2, the first |a| - ceil(|a|/2) + 1 of
// a's shingles in any fixed order must meet b, so probing with that prefix
// finds every such b (prefix filtering, Chaudhuri, Ganti and Kaushik, ICDE
// 2006); ordering by rarity keeps the posting lists short.
func truthPairs(docs []textSets) []scored {
	df := map[uint64]int32{}
	for _, d := range docs {
		for _, h := range d.s5 {
			df[h]++
		}
	}
	post := map[uint64][]int32{}
	for i, d := range docs {
		for _, h := range d.s5 {
			post[h] = append(post[h], int32(i))
		}
	}
	smaller := func(a, b int) bool { // is a the smaller of the pair?
		la, lb := len(docs[a].s5), len(docs[b].s5)
		return la < lb || la == lb && a < b
	}
	var out []scored
	seen := map[int32]bool{}
	order := []uint64{}
	for a, d := range docs {
		n := len(d.s5)
		if n == 0 || d.tokens < longShingle {
			continue
		}
		order = append(order[:0], d.s5...)
		slices.SortFunc(order, func(x, y uint64) int {
			return cmp.Or(cmp.Compare(df[x], df[y]), cmp.Compare(x, y))
		})
		need := int(math.Ceil(truthMinC * float64(n)))
		prefix := order[:n-need+1]
		clear(seen)
		for _, h := range prefix {
			for _, b := range post[h] {
				if int(b) == a || seen[b] || !smaller(a, int(b)) {
					continue
				}
				seen[b] = true
				e := docs[b]
				if e.tokens < longShingle {
					continue
				}
				x, y := a, int(b)
				if x > y {
					x, y = y, x
				}
				j, ca, cb := score(docs[x].s5, docs[y].s5)
				if listed(j, ca, cb, docs[x], docs[y]) {
					out = append(out, scored{x, y, j, ca, cb})
				}
			}
		}
	}
	slices.SortFunc(out, func(p, q scored) int { return cmp.Or(cmp.Compare(p.A, q.A), cmp.Compare(p.B, q.B)) })
	return out
}

// truthPairsBrute is the all-pairs reference of truthPairs.
func truthPairsBrute(docs []textSets) []scored {
	var out []scored
	for a := range docs {
		for b := a + 1; b < len(docs); b++ {
			j, ca, cb := score(docs[a].s5, docs[b].s5)
			if listed(j, ca, cb, docs[a], docs[b]) {
				out = append(out, scored{a, b, j, ca, cb})
			}
		}
	}
	return out
}

// round4 formats a similarity the way the TSV files do.
func round4(x float64) string { return fmt.Sprintf("%.4f", x) }
