package lcs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// refEliminator is the reference for Eliminator: all kept codes in one
// generalized suffix automaton, as the package did before its index of
// minimizers (commit 31b1ab4 of undust's main branch). Check is exact;
// Add stops its walk once no common substring can reach δ.
type refEliminator struct {
	delta float64
	m     automaton
	added int
}

func (e *refEliminator) check(code string, fast bool) Result {
	size := utf8.RuneCountInString(code)
	need := 0
	if fast {
		need = needed(size, e.delta)
	}
	n, _, owner := e.m.longest(code, size, need)
	r := Result{Of: int(owner), Common: n}
	if n > 0 {
		r.Score = float64(n) / float64(size)
		r.Dup = r.Score >= e.delta
	}
	return r
}

func (e *refEliminator) Add(code string) Result {
	r := e.check(code, true)
	id := e.added
	e.added++
	if !r.Dup && code != "" {
		e.m.insert(code, int32(id))
	}
	return r
}

// sameVerdict reports whether got agrees with want, the reference's verdict
// of Add: the same decision, and for a duplicate the same witness and
// length; a kept code's Common, Score and Of are lower bounds.
func sameVerdict(got, want Result) bool {
	if got.Dup != want.Dup {
		return false
	}
	return !want.Dup || got == want
}

// checkAgainstReference adds codes, in their order, to a new Eliminator
// (unbounded: never moving to the automaton) and to the reference, and
// compares every verdict of Add, and of Check on every step-th code before
// it is added.
func checkAgainstReference(t *testing.T, name string, codes []string, delta float64, unbounded bool, step int) {
	t.Helper()
	e := NewEliminator(delta)
	e.unbounded = unbounded
	ref := &refEliminator{delta: e.threshold()}
	for i, c := range codes {
		if step > 0 && i%step == 0 {
			if got, want := e.Check(c), ref.check(c, false); got != want {
				t.Fatalf("%s, δ %v: Check(codes[%d] = %q) = %+v, reference %+v", name, delta, i, c, got, want)
			}
		}
		_, got := e.Add(c)
		if want := ref.Add(c); !sameVerdict(got, want) {
			t.Fatalf("%s, δ %v: Add(codes[%d] = %q) = %+v, reference %+v", name, delta, i, c, got, want)
		}
	}
	if unbounded && e.auto {
		t.Fatalf("%s: moved to the automaton though unbounded", name)
	}
}

// longestFirst returns codes sorted as Eliminate processes them.
func longestFirst(codes []string) []string {
	out := slices.Clone(codes)
	slices.SortStableFunc(out, func(a, b string) int {
		return utf8.RuneCountInString(b) - utf8.RuneCountInString(a)
	})
	return out
}

// adversarialSets returns sets of codes that are hard on an index of
// grams: repeated symbols, one-symbol and two-symbol alphabets, periodic
// codes, a gram shared by every code, and codes shorter than a gram.
func adversarialSets(r *rand.Rand) map[string][]string {
	sets := map[string][]string{}
	var one, two, periodic, shared, short, mixed []string
	for range 60 {
		one = append(one, strings.Repeat("a", 1+r.IntN(60)))
		two = append(two, randString(r, []rune("ab"), 2, 1+r.IntN(60)))
		unit := randString(r, []rune("ab这是cd"), 6, 1+r.IntN(4))
		periodic = append(periodic, strings.Repeat(unit, 1+r.IntN(30)))
		shared = append(shared, randString(r, testAlpha, len(testAlpha), r.IntN(20))+"的的的的的的的的的"+randString(r, testAlpha, len(testAlpha), r.IntN(20)))
		short = append(short, randString(r, testAlpha, 1+r.IntN(4), r.IntN(gramLen+2)))
	}
	sets["one symbol"], sets["two symbols"], sets["periodic"] = one, two, periodic
	sets["shared gram"], sets["shorter than a gram"] = shared, short
	mixed = append(mixed, one[:20]...)
	mixed = append(mixed, periodic[:20]...)
	mixed = append(mixed, short[:20]...)
	mixed = append(mixed, synthCodesLen(r.Uint64(), 40, 0.5, 20)...)
	sets["mixed"] = mixed
	para := hostile.Paragraphs(80, 12)
	for i, p := range para {
		para[i] = strings.ReplaceAll(p, " ", "")
	}
	sets["hostile paragraphs"] = para
	var lines []string
	for range 30 {
		l := hostile.LongLine(30 + r.IntN(300))
		lines = append(lines, l, l[r.IntN(len(l)/2):])
	}
	sets["hostile long lines"] = lines
	return sets
}

// TestEliminatorMatchesReference checks that the index of minimizers keeps
// and drops exactly the codes the suffix automaton does, with the same
// witnesses and lengths for duplicates and the same exact Check, on
// synthetic codes shaped like real ones (medians 20, 73 and 200 runes,
// several shares of reprints and seeds) and on adversarial sets, with the
// move to the automaton allowed and not. The synthetic sets are of about
// 550 codes of median 20 (3050 in the exhaustive tier, tier.Long), the
// adversarial ones of one round of three.
func TestEliminatorMatchesReference(t *testing.T) {
	n, rounds := 500, 1
	if tier.Long() {
		n, rounds = 3000, 3
	}
	for seed := uint64(1); seed <= 3; seed++ {
		for _, median := range []float64{20, 73, 200} {
			for _, dup := range []float64{0, 0.2, 0.5, 0.9} {
				codes := longestFirst(synthCodesLen(seed*1000+uint64(median), n*20/int(median)+50, dup, median))
				for _, delta := range []float64{0, 0.5, 0.9, 1} {
					checkAgainstReference(t, "synthetic", codes, delta, false, 5)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(21, 22))
	for range rounds {
		for name, codes := range adversarialSets(r) {
			for _, delta := range []float64{0.3, 0.75, 1} {
				for _, unbounded := range []bool{false, true} {
					checkAgainstReference(t, name, codes, delta, unbounded, 3)
					checkAgainstReference(t, name, longestFirst(codes), delta, unbounded, 3)
				}
			}
		}
	}
}

// TestEliminatorIndexKept checks that codes shaped like real ones stay in
// the index: the move to the automaton is for hostile input.
func TestEliminatorIndexKept(t *testing.T) {
	codes := longestFirst(synthCodesLen(5, 5000, 0.2, 73))
	var e Eliminator
	for _, c := range codes {
		e.Add(c)
	}
	if e.auto {
		t.Errorf("5000 synthetic codes moved the Eliminator to the automaton (work %d, allowance %d)", e.work, e.allow)
	}
}

// FuzzEliminatorReference checks Eliminator against the reference on
// codes split from the input at '|', with the move to the automaton
// allowed or not.
func FuzzEliminatorReference(f *testing.F) {
	f.Add("abcdefghij|abcdefghij|xabcdefghi", uint8(75), false)
	f.Add(strings.Repeat("a", 40)+"|"+strings.Repeat("a", 39)+"|aaaa", uint8(90), true)
	f.Add(strings.Repeat("ab", 30)+"|"+strings.Repeat("ba", 29)+"|b", uint8(50), true)
	f.Add("王示一差站高只事就示对题最机给害严|差站高只事就示对题最|示一差站", uint8(75), false)
	f.Add(strings.ReplaceAll(strings.Join(hostile.Paragraphs(30, 12), "|"), " ", ""), uint8(60), true)
	f.Fuzz(func(t *testing.T, s string, d uint8, unbounded bool) {
		codes := strings.Split(s, "|")
		if len(codes) > 100 || len(s) > 5000 {
			return
		}
		delta := float64(d%101) / 100
		checkAgainstReference(t, "fuzz", codes, delta, unbounded, 1)
		checkAgainstReference(t, "fuzz sorted", longestFirst(codes), delta, unbounded, 2)
	})
}
