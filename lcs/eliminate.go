package lcs

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// DefaultDelta is the paper's repeatability threshold δ (§IV.B, Table II).
const DefaultDelta = 0.75

// Result is the verdict on one feature code.
type Result struct {
	// Dup reports whether the code duplicates a kept code: Score >= δ.
	Dup bool
	// Of is the id of a kept code that shares the longest common substring
	// with this code: of the longest substrings of this code found in kept
	// codes, the one ending first, and of the kept codes containing it, the
	// first kept. It is -1 if no kept code shares a rune.
	Of int
	// Common is the length in runes of that longest common substring.
	Common int
	// Score is Common divided by the length of this code in runes: the
	// repeatability S of this code's page over the page of Of.
	Score float64
}

// An Eliminator keeps feature codes and tells whether a new code duplicates
// one it keeps (§III.C-D of Guo et al.). The kept codes live in one
// generalized suffix automaton, so checking a code of n runes takes O(n)
// steps whatever the number of kept codes, and keeping it adds at most 2n
// states.
//
// What is computed: for a code C, the longest substring of C that occurs in
// any kept code, of length L, found by walking C through the automaton. Then
// Score = L / |C|, which is max over kept codes K of |lcs(K, C)| / |C|: the
// repeatability S of C's page over K's page (Definition 2, denominator the
// length of the code being checked). C is a duplicate when Score >= δ. When
// codes arrive longest first, as [Eliminate] arranges, every kept code is at
// least as long as C, which is exactly the paper's procedure. The reverse
// question, whether C contains a shorter kept code, is not asked: that would
// need per-state lengths of kept codes, and sorted input makes it needless.
//
// The zero value is ready to use with δ = [DefaultDelta]. An Eliminator is
// not safe for concurrent use. It copies what it needs from the codes it is
// given. Memory grows with the kept codes: on codes shaped like real ones,
// about 1.2 states of 20 bytes and 1.8 arena entries of 8 bytes, some 40
// bytes, per kept rune; Bytes reports it. It panics if the automaton
// outgrows its 32-bit indexes (2^31 states, some 1.7 billion kept runes).
type Eliminator struct {
	delta float64
	m     automaton
	added int
	kept  int
}

// NewEliminator returns an Eliminator with repeatability threshold delta; 0
// means [DefaultDelta]. It panics if delta is not in [0, 1].
func NewEliminator(delta float64) *Eliminator {
	checkDelta(delta)
	return &Eliminator{delta: delta}
}

func checkDelta(delta float64) {
	if math.IsNaN(delta) || delta < 0 || delta > 1 {
		panic(fmt.Sprintf("lcs: repeatability threshold %v out of range [0, 1]", delta))
	}
}

func (e *Eliminator) threshold() float64 {
	if e.delta == 0 {
		return DefaultDelta
	}
	return e.delta
}

// Check returns the verdict on code against the kept codes without adding
// it. An empty code is never a duplicate.
func (e *Eliminator) Check(code string) Result {
	return e.check(code, false)
}

// check returns the verdict on code. With fast, a code that is not a
// duplicate may get a lower bound of Common: the walk stops as soon as a
// common substring long enough for δ cannot be found any more.
func (e *Eliminator) check(code string, fast bool) Result {
	size := utf8.RuneCountInString(code)
	delta := e.threshold()
	need := 0
	if fast {
		need = needed(size, delta)
	}
	n, _, owner := e.m.longest(code, size, need)
	r := Result{Of: int(owner), Common: n}
	if n > 0 {
		r.Score = float64(n) / float64(size)
		r.Dup = r.Score >= delta
	}
	return r
}

// needed returns the least common length k with k/size >= delta, computed
// with the same division as Result.Score.
func needed(size int, delta float64) int {
	k := int(math.Ceil(delta * float64(size)))
	for k > 0 && float64(k-1)/float64(size) >= delta {
		k--
	}
	for k < size && float64(k)/float64(size) < delta {
		k++
	}
	return k
}

// Add checks code and keeps it unless it is a duplicate. It returns the id
// given to the code, the number of codes added before it, and the verdict;
// ids of dropped codes are not reused. The verdict is the one Check would
// give, except that for a code that is kept, Common, Score and Of may come
// from a shorter common substring than the longest: Add stops looking once
// no common substring can reach δ, which saves most of the walk.
func (e *Eliminator) Add(code string) (id int, r Result) {
	r = e.check(code, true)
	id = e.added
	e.added++
	if r.Dup {
		return id, r
	}
	e.kept++
	if code != "" {
		e.m.insert(code, int32(id))
	}
	return id, r
}

// Added returns the number of codes added since the last Reset.
func (e *Eliminator) Added() int { return e.added }

// Kept returns the number of codes kept since the last Reset.
func (e *Eliminator) Kept() int { return e.kept }

// Bytes returns the memory held by the Eliminator's automaton.
func (e *Eliminator) Bytes() int { return e.m.bytes() }

// Grow makes room for keeping codes of about runes runes in total, so that
// the automaton's arrays need not grow (and be copied) while codes are
// added. It is a hint: adding more works too. On Linux it advises the
// arrays it makes to transparent huge pages, which makes a large
// Eliminator faster where the kernel has them enabled (always or madvise).
func (e *Eliminator) Grow(runes int) {
	if runes > 0 {
		e.m.reserve(runes)
	}
}

// Reset drops all kept codes and the id count, keeping the memory for reuse.
func (e *Eliminator) Reset() {
	e.m.reset()
	e.added, e.kept = 0, 0
}

// Eliminate returns the verdict on each of codes, in their order, with
// threshold delta (0 means [DefaultDelta]). The codes are processed longest
// first, ties in their order, each against the codes kept before it, so a
// page is only ever dropped against a page at least as long, and of equal
// pages the first is kept (§III.C-D). Result.Of is an index into codes. It
// panics if delta is not in [0, 1].
func Eliminate(codes []string, delta float64) []Result {
	checkDelta(delta)
	lens := make([]int, len(codes))
	order := make([]int, len(codes))
	total := 0
	for i, c := range codes {
		lens[i] = utf8.RuneCountInString(c)
		order[i] = i
		total += lens[i]
	}
	slices.SortStableFunc(order, func(a, b int) int { return lens[b] - lens[a] })
	e := NewEliminator(delta)
	e.Grow(total)
	out := make([]Result, len(codes))
	for _, i := range order {
		_, r := e.Add(codes[i])
		if r.Of >= 0 {
			r.Of = order[r.Of]
		}
		out[i] = r
	}
	return out
}
