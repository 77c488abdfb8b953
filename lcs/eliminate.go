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
// one it keeps (§III.C-D of Guo et al.).
//
// What is computed: for a code C, the longest substring of C that occurs in
// any kept code, of length L. Then Score = L / |C|, which is max over kept
// codes K of |lcs(K, C)| / |C|: the repeatability S of C's page over K's
// page (Definition 2, denominator the length of the code being checked). C
// is a duplicate when Score >= δ. When codes arrive longest first, as
// [Eliminate] arranges, every kept code is at least as long as C, which is
// exactly the paper's procedure. The reverse question, whether C contains a
// shorter kept code, is not asked: sorted input makes it needless.
//
// The kept codes live in an index of their minimizers, with a scan of all
// kept codes for codes of fewer than about 10 runes, and, should repetitive
// codes make that costly, in a generalized suffix automaton (see the
// package doc). Either way checking a code costs time linear in its length
// on codes like real ones, and all checks together stay linear in the
// runes given.
//
// The zero value is ready to use with δ = [DefaultDelta]. An Eliminator is
// not safe for concurrent use. It copies what it needs from the codes it is
// given. Memory grows with the kept codes: on codes shaped like real ones,
// about 14 bytes per kept rune in the index (4 of text, the rest postings
// and their hash table), or some 40 in the automaton; Bytes reports it. It
// panics if the kept codes outgrow its 32-bit indexes (2^31 runes, or 2^31
// states of the automaton).
type Eliminator struct {
	delta float64
	x     index     // the kept codes, while auto is false
	m     automaton // the kept codes, once auto is true
	cm    automaton // scratch: the automaton of one code, for index.scan
	rs    []rune    // scratch: the runes of the code at hand
	auto  bool
	// unbounded keeps the index whatever its searches cost (for tests).
	unbounded bool
	work      int // steps taken by searches and scans of the index
	allow     int // allowancePerRune for every rune checked
	added     int
	kept      int
}

// The index answers in a few steps per rune on codes like real ones, but
// its postings can be many on repetitive codes (a gram in every kept code,
// a code of one rune repeated), and a code shorter than minRun needs a scan
// of all kept codes. Once its searches and scans have taken more than
// allowanceBase plus allowancePerRune steps per rune checked, or one search
// half as many per rune of its code (and 1024), the Eliminator moves the
// kept codes to a suffix automaton for good, which costs one step per kept
// rune once and bounds every later check to a step per rune. The allowance
// lets the 56 codes of fewer than 10 runes among 100,000 of median 73
// (BenchmarkEliminate) scan 7 million kept runes each at half of it; on
// codes of the neardup corpus at δ = 0.5, nearly a fifth of them shorter
// than 16 runes, the move comes early enough to cost 1.5 times the
// automaton alone (CPU time), against 4.3 times with four times the reads
// allowed.
const (
	allowanceBase    = 1 << 12
	allowancePerRune = 32
)

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
// duplicate may get a lower bound of Common. Unless the kept codes are in
// the automaton, e.rs and e.x's scratch then hold code's runes and grams,
// for index.add.
func (e *Eliminator) check(code string, fast bool) Result {
	if e.auto {
		return e.checkAuto(code, fast)
	}
	rs := e.rs[:0]
	for _, c := range code {
		rs = append(rs, c)
	}
	e.rs = rs
	size := len(rs)
	delta := e.threshold()
	e.allow += allowancePerRune * size
	// One search may take allowancePerRune/2 steps per rune and a few
	// more, and all searches and scans their allowance.
	limit := min(allowanceBase+e.allow-e.work, allowancePerRune/2*size+1024)
	if e.unbounded {
		limit = math.MaxInt
	}
	e.x.selectGrams(rs)
	best := match{id: -1}
	exact := false
	need := needed(size, delta)
	if size >= minRun && (!fast || need >= minRun) {
		// Every kept code sharing minRun runes or more is found: the
		// verdict is exact when a duplicate needs that many, and so is
		// Common when it is that long.
		b, work, ok := e.x.search(rs, limit)
		e.work += work
		if !ok {
			e.toAutomaton()
			return e.checkAuto(code, fast)
		}
		best, exact = b, fast || b.n >= minRun
	}
	if !exact {
		// Add needs the longest common substring only if it has need
		// runes: it starts with a pair of runes of the code.
		k := 1
		if fast && need >= 2 {
			k = 2
		}
		limit := allowanceBase + e.allow - e.work
		if e.unbounded {
			limit = math.MaxInt
		}
		e.cm.insertEnds(rs)
		b, work, ok := e.x.scan(rs, &e.cm, k, limit)
		e.work += work
		if !ok {
			e.toAutomaton()
			return e.checkAuto(code, fast)
		}
		best = b
	}
	r := Result{Of: int(best.id), Common: int(best.n)}
	if best.n > 0 {
		r.Score = float64(best.n) / float64(size)
		r.Dup = r.Score >= delta
	}
	return r
}

// checkAuto is check with the kept codes in the automaton. With fast, the
// walk stops as soon as a common substring long enough for δ cannot be
// found any more.
func (e *Eliminator) checkAuto(code string, fast bool) Result {
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

// toAutomaton moves the kept codes from the index to the automaton, in
// the order they were kept, and frees the index.
func (e *Eliminator) toAutomaton() {
	e.m.reset()
	e.m.reserve(len(e.x.text))
	for k, id := range e.x.ids {
		e.m.insertRunes(e.x.code(int32(k)), id)
	}
	e.x = index{}
	e.auto = true
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
// from a shorter common substring than the longest, or be 0, 0 and -1: Add
// looks only for common substrings long enough to reach δ.
func (e *Eliminator) Add(code string) (id int, r Result) {
	r = e.check(code, true)
	id = e.added
	e.added++
	if r.Dup {
		return id, r
	}
	e.kept++
	switch {
	case code == "":
	case e.auto:
		e.m.insert(code, int32(id))
	default:
		e.x.add(e.rs, int32(id))
	}
	return id, r
}

// Added returns the number of codes added since the last Reset.
func (e *Eliminator) Added() int { return e.added }

// Kept returns the number of codes kept since the last Reset.
func (e *Eliminator) Kept() int { return e.kept }

// Bytes returns the memory held by the Eliminator.
func (e *Eliminator) Bytes() int {
	return e.x.bytes() + e.m.bytes() + e.cm.bytes() + cap(e.rs)*4
}

// Grow makes room for keeping codes of about runes runes in total, so that
// the arrays of the index need not grow (and be copied) while codes are
// added. It is a hint: adding more works too. On Linux it advises the
// large arrays it makes to transparent huge pages, which makes a large
// Eliminator faster where the kernel has them enabled (always or madvise).
func (e *Eliminator) Grow(runes int) {
	switch {
	case runes <= 0:
	case e.auto:
		e.m.reserve(runes)
	default:
		e.x.reserve(runes)
	}
}

// Reset drops all kept codes and the id count, keeping the memory for reuse.
func (e *Eliminator) Reset() {
	e.x.reset()
	if e.auto {
		e.m.reset()
		e.auto = false
	}
	e.work, e.allow = 0, 0
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
