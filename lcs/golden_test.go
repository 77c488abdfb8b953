package lcs

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// goldenCodes returns the codes of the golden test: synthetic Chinese
// codes shaped like real ones, random codes over small alphabets (many
// clones and splits), the codes of the real pages of testdata and cuts of
// them, and random bytes (invalid UTF-8 included).
func goldenCodes(tb testing.TB) [][]string {
	r := rand.New(rand.NewPCG(11, 12))
	var sets [][]string
	sets = append(sets, synthCodesLen(7, 3000, 0.2, 73), synthCodesLen(8, 500, 0.5, 200))
	var small []string
	for range 200 {
		small = append(small, randCodes(r, 1+r.IntN(40), 1+r.IntN(len(testAlpha)))...)
	}
	sets = append(sets, small)
	var real []string
	for _, p := range readPages(tb) {
		real = append(real, Code(p.Paragraphs))
		for i := range p.Paragraphs {
			for j := i + 1; j <= len(p.Paragraphs) && j <= i+4; j++ {
				real = append(real, Code(p.Paragraphs[i:j]))
			}
		}
	}
	sets = append(sets, real)
	var bytes []string
	for range 2000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = "a\xe4\xb8\x80\xe9\xbf\xbf\xf3\xb0\x80\x80\xed\xa0\x80\xc3\xa9\xff"[r.IntN(17)]
		}
		bytes = append(bytes, string(b))
	}
	return append(sets, bytes)
}

// resultsDigest hashes every field of the results. With keptBound, the
// Common, Score and Of of a code that is not a duplicate are left out: Add
// and Eliminate only promise a lower bound for them.
func resultsDigest(h interface{ Write([]byte) (int, error) }, rs []Result, keptBound bool) {
	var b [25]byte
	for _, r := range rs {
		if keptBound && !r.Dup {
			r = Result{}
		}
		if r.Dup {
			b[0] = 1
		} else {
			b[0] = 0
		}
		binary.LittleEndian.PutUint64(b[1:], uint64(r.Of))
		binary.LittleEndian.PutUint64(b[9:], uint64(r.Common))
		binary.LittleEndian.PutUint64(b[17:], math.Float64bits(r.Score))
		h.Write(b[:])
	}
}

// TestEliminateGolden checks that Eliminate, Add and Check give exactly
// the verdicts, the witnesses and lengths of duplicates, and Check's exact
// lengths and witnesses, that the suffix automaton gave when it held all
// kept codes (commit 31b1ab4 of undust's main branch; the same as commit
// e991910, before its transitions carried the solid bit and its walks
// decoded runes inline). A kept code's lower bound, which depends on where
// the search stopped, is left out.
func TestEliminateGolden(t *testing.T) {
	const want uint64 = 0xad68b3e08093f8a3
	h := fnv.New64a()
	for _, codes := range goldenCodes(t) {
		for _, delta := range []float64{0, 0.5, 0.9, 1} {
			resultsDigest(h, Eliminate(codes, delta), true)
		}
		var e Eliminator
		var rs, checks []Result
		for i, c := range codes {
			_, r := e.Add(c)
			rs = append(rs, r)
			if i%7 == 0 {
				checks = append(checks, e.Check(strings.Repeat(c, 2)), e.Check(c[:len(c)/2]))
			}
		}
		resultsDigest(h, rs, true)
		resultsDigest(h, checks, false)
	}
	if got := h.Sum64(); got != want {
		t.Errorf("digest of the results = %#x, want %#x", got, want)
	}
}
