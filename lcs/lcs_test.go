package lcs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// slowLongest is the O(n*m) dynamic-programming reference: the length in
// runes of the longest common substring of a and b.
func slowLongest(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	best := 0
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			if ra[i-1] == rb[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

// runesContain reports whether a contains sub, both compared as runes.
func runesContain(a, sub string) bool {
	return strings.Contains(string([]rune(a)), string([]rune(sub)))
}

func TestLongest(t *testing.T) {
	tests := []struct {
		a, b, want string
	}{
		{"", "", ""},                  // empty inputs
		{"abc", "", ""},               // empty b
		{"", "abc", ""},               // empty a
		{"abc", "xyz", ""},            // nothing in common
		{"xabcy", "zabcw", "abc"},     // one match in the middle
		{"abcd", "abcd", "abcd"},      // identical
		{"ab", "xxabyyab", "ab"},      // first ending occurrence in b
		{"abxcd", "cdzab", "cd"},      // equal lengths: the one ending first in b
		{"banana", "ananas", "anana"}, // overlapping repeats
		{"系法这流以点从码", "这流以点", "这流以点"},                         // CJK runes, not bytes
		{"特征码", "特征", "特征"},                                  // a prefix
		{"aaaa", "aaa", "aaa"},                               // runs of one rune
		{"\xe4\xb8x", "\xff\xfex", "\xff\xfex"},              // invalid bytes compare as U+FFFD
		{"\U000f0001\U000f0002", "\U000f0002", "\U000f0002"}, // private use symbols of words
	}
	for _, tt := range tests {
		if got := Longest(tt.a, tt.b); got != tt.want {
			t.Errorf("Longest(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// randString returns a random string of n runes over the first k runes of
// alpha.
func randString(r *rand.Rand, alpha []rune, k, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteRune(alpha[r.IntN(k)])
	}
	return sb.String()
}

var testAlpha = []rune("ab的。c特征码x\U000f1234\ufffd")

func TestLongestMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		k := 1 + r.IntN(len(testAlpha))
		a := randString(r, testAlpha, k, r.IntN(40))
		b := randString(r, testAlpha, k, r.IntN(40))
		checkLongest(t, a, b)
	}
}

func checkLongest(t *testing.T, a, b string) {
	t.Helper()
	got := Longest(a, b)
	want := slowLongest(a, b)
	if n := utf8.RuneCountInString(got); n != want {
		t.Fatalf("Longest(%q, %q) = %q, %d runes, want %d", a, b, got, n, want)
	}
	if !strings.Contains(b, got) || !runesContain(a, got) {
		t.Fatalf("Longest(%q, %q) = %q, not a common substring", a, b, got)
	}
}

func TestRepeatability(t *testing.T) {
	tests := []struct {
		ci, cj string
		want   float64
	}{
		{"abcdef", "abcdef", 1},     // identical codes
		{"xxabcdefyy", "abcd", 1},   // cj contained in ci: j duplicates i
		{"abcd", "xxabcdefyy", 0.4}, // the reverse: ci covers 4 of cj's 10
		{"abc", "", 0},              // empty cj
		{"", "abc", 0},              // empty ci
		{"ab", "xyz", 0},            // disjoint
		// Table I, A2' against A: one shared rune (最) of A2's 19-rune code,
		// 1/19 = 0.053, which the paper rounds to 0.05.
		{"王示一差站高只事就示对题最机给害严府形象", "在中哈服地统学责水造和海一七最座成架人", 1.0 / 19},
		// Table I the other way: one rune of A's 20, 0.05.
		{"在中哈服地统学责水造和海一七最座成架人", "王示一差站高只事就示对题最机给害严府形象", 1.0 / 20},
	}
	for _, tt := range tests {
		if got := Repeatability(tt.ci, tt.cj); got != tt.want {
			t.Errorf("Repeatability(%q, %q) = %v, want %v", tt.ci, tt.cj, got, tt.want)
		}
	}
}

// slowEliminate is the reference for Eliminate: the paper's procedure with
// pairwise dynamic programming.
func slowEliminate(codes []string, delta float64) []Result {
	order := make([]int, len(codes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return utf8.RuneCountInString(codes[b]) - utf8.RuneCountInString(codes[a])
	})
	out := make([]Result, len(codes))
	var kept []int
	for _, i := range order {
		r := Result{Of: -1}
		for _, k := range kept {
			if l := slowLongest(codes[k], codes[i]); l > r.Common {
				r.Common = l
			}
		}
		if r.Common > 0 {
			r.Score = float64(r.Common) / float64(utf8.RuneCountInString(codes[i]))
			r.Dup = r.Score >= delta
		}
		if !r.Dup {
			kept = append(kept, i)
		}
		out[i] = r
	}
	return out
}

// randCodes returns n random codes over k runes of testAlpha, some made
// from earlier ones by cutting, mutating and padding, as reprints are.
func randCodes(r *rand.Rand, n, k int) []string {
	codes := make([]string, 0, n)
	for range n {
		if len(codes) > 0 && r.IntN(2) == 0 {
			src := []rune(codes[r.IntN(len(codes))])
			if len(src) > 0 {
				i := r.IntN(len(src))
				j := i + r.IntN(len(src)-i+1)
				part := slices.Clone(src[i:j])
				if len(part) > 0 && r.IntN(2) == 0 {
					part[r.IntN(len(part))] = testAlpha[r.IntN(k)]
				}
				codes = append(codes, randString(r, testAlpha, k, r.IntN(3))+string(part)+randString(r, testAlpha, k, r.IntN(3)))
				continue
			}
		}
		codes = append(codes, randString(r, testAlpha, k, r.IntN(30)))
	}
	return codes
}

func TestEliminateMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rounds := 300
	if testing.Short() {
		rounds = 30
	}
	for range rounds {
		codes := randCodes(r, 1+r.IntN(40), 1+r.IntN(len(testAlpha)))
		delta := []float64{0, 0.5, 0.7, 0.75, 0.9, 1}[r.IntN(6)]
		got := Eliminate(codes, delta)
		if delta == 0 {
			delta = DefaultDelta
		}
		want := slowEliminate(codes, delta)
		for i := range codes {
			g, w := got[i], want[i]
			// A duplicate's verdict is exact; a kept code's may stop early
			// with a shorter common substring (Add's documented shortcut).
			if g.Dup != w.Dup || w.Dup && (g.Common != w.Common || g.Score != w.Score) ||
				!w.Dup && (g.Common > w.Common || g.Score >= delta) {
				t.Fatalf("Eliminate(%q, %v)[%d] = %+v, want %+v", codes, delta, i, g, w)
			}
			checkOf(t, codes, i, g, got)
		}
	}
}

// checkOf checks the witness of r, the verdict on codes[i]: a kept code
// that shares a common substring of r.Common runes with codes[i].
func checkOf(t *testing.T, codes []string, i int, r Result, all []Result) {
	t.Helper()
	if r.Common == 0 {
		if r.Of != -1 {
			t.Fatalf("verdict on %q: Of = %d with nothing in common", codes[i], r.Of)
		}
		return
	}
	if r.Of < 0 || r.Of >= len(codes) || all[r.Of].Dup || r.Of == i {
		t.Fatalf("verdict on %q: Of = %d, not a kept code", codes[i], r.Of)
	}
	if l := slowLongest(codes[r.Of], codes[i]); l != r.Common && (r.Dup || l < r.Common) {
		t.Fatalf("verdict on %q: Of = %d (%q) shares %d runes, Common = %d", codes[i], r.Of, codes[r.Of], l, r.Common)
	}
}

func TestEliminatorStreamingMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rounds := 300
	if testing.Short() {
		rounds = 30
	}
	for range rounds {
		codes := randCodes(r, 1+r.IntN(40), 1+r.IntN(len(testAlpha)))
		var e Eliminator // the zero value: δ = 0.75, arrival order
		var kept []int
		for i, c := range codes {
			want := 0
			for _, k := range kept {
				want = max(want, slowLongest(codes[k], c))
			}
			if chk := e.Check(c); chk.Common != want {
				t.Fatalf("Check(%q) after %q: Common = %d, want %d", c, codes[:i], chk.Common, want)
			}
			id, got := e.Add(c)
			if id != i {
				t.Fatalf("Add(%q) id = %d, want %d", c, id, i)
			}
			wantDup := want > 0 && float64(want)/float64(utf8.RuneCountInString(c)) >= DefaultDelta
			if wantDup && got.Common != want || got.Common > want {
				t.Fatalf("Add(%q) after %q: Common = %d, want %d", c, codes[:i], got.Common, want)
			}
			if got.Dup != wantDup {
				t.Fatalf("Add(%q) after %q: Dup = %v, want %v", c, codes[:i], got.Dup, wantDup)
			}
			if got.Common > 0 {
				if !slices.Contains(kept, got.Of) {
					t.Fatalf("Add(%q): Of = %d, not kept (%v)", c, got.Of, kept)
				}
				if l := slowLongest(codes[got.Of], c); l != got.Common && (got.Dup || l < got.Common) {
					t.Fatalf("Add(%q): Of = %d shares %d runes, Common = %d", c, got.Of, l, got.Common)
				}
			}
			if !got.Dup {
				kept = append(kept, i)
			}
		}
		if e.Kept() != len(kept) || e.Added() != len(codes) {
			t.Fatalf("Kept() = %d, Added() = %d, want %d, %d", e.Kept(), e.Added(), len(kept), len(codes))
		}
	}
}

func TestEliminate(t *testing.T) {
	tests := []struct {
		name  string
		codes []string
		delta float64
		dup   []bool
		of    []int
	}{
		{
			name:  "equal codes keep the first arrived", // §III.D
			codes: []string{"abcdef", "abcdef", "abcdef"},
			dup:   []bool{false, true, true},
			of:    []int{-1, 0, 0},
		},
		{
			name:  "a contained page is dropped even when it arrives first", // §III.C: longest first
			codes: []string{"cdef", "abcdefgh"},
			dup:   []bool{true, false},
			of:    []int{1, -1},
		},
		{
			name:  "three of four runes at 0.75 is a duplicate", // S >= δ, not >
			codes: []string{"xxxxabcyyyy", "abcz"},
			dup:   []bool{false, true},
			of:    []int{-1, 0},
		},
		{
			name:  "three of four runes at 0.8 is not",
			codes: []string{"xxxxabcyyyy", "abcz"},
			delta: 0.8,
			dup:   []bool{false, false},
			of:    []int{-1, 0},
		},
		{
			name:  "not transitive: C is checked against kept codes only", // Figure 3
			codes: []string{"aaaabbbb", "bbbbcc", "bbcccc"},
			dup:   []bool{false, false, false},
			of:    []int{-1, 0, 1},
		},
		{
			name:  "empty codes are kept and match nothing",
			codes: []string{"", "abc", ""},
			dup:   []bool{false, false, false},
			of:    []int{-1, -1, -1},
		},
	}
	for _, tt := range tests {
		got := Eliminate(tt.codes, tt.delta)
		var dup []bool
		var of []int
		for _, r := range got {
			dup = append(dup, r.Dup)
			of = append(of, r.Of)
		}
		if !slices.Equal(dup, tt.dup) || !slices.Equal(of, tt.of) {
			t.Errorf("%s: Eliminate(%q, %v): Dup = %v, Of = %v; want %v, %v", tt.name, tt.codes, tt.delta, dup, of, tt.dup, tt.of)
		}
	}
}

func TestEliminatorReset(t *testing.T) {
	e := NewEliminator(0.9)
	e.Add("abcdef")
	if _, r := e.Add("abcdef"); !r.Dup {
		t.Fatalf("second Add of an equal code: %+v, want a duplicate", r)
	}
	e.Reset()
	if e.Kept() != 0 || e.Added() != 0 {
		t.Fatalf("after Reset: Kept() = %d, Added() = %d", e.Kept(), e.Added())
	}
	if id, r := e.Add("abcdef"); r.Dup || id != 0 || r.Of != -1 {
		t.Fatalf("Add after Reset = %d, %+v, want 0 and a kept code", id, r)
	}
	// Check is exact: 6 of 8 runes in common.
	if r := e.Check("xabcdefx"); r.Dup || r.Common != 6 || r.Score != 0.75 || r.Of != 0 {
		t.Fatalf("Check(%q) with δ 0.9 = %+v, want kept with 6 runes in common", "xabcdefx", r)
	}
	// Add stops at the first rune: 8*0.9 needs all 8 runes, and the first
	// one starts no match.
	if _, r := e.Add("xabcdefx"); r.Dup || r.Common != 0 {
		t.Fatalf("Add(%q) with δ 0.9 = %+v, want kept, stopped early", "xabcdefx", r)
	}
}

func TestNeeded(t *testing.T) {
	for size := 1; size < 200; size++ {
		for _, delta := range []float64{0.01, 0.1, 0.5, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99, 1} {
			k := needed(size, delta)
			if float64(k)/float64(size) < delta || k > 0 && float64(k-1)/float64(size) >= delta {
				t.Fatalf("needed(%d, %v) = %d, not the least k with k/size >= delta", size, delta, k)
			}
		}
	}
}

func TestNewEliminatorPanics(t *testing.T) {
	for _, d := range []float64{-0.1, 1.5} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewEliminator(%v) did not panic", d)
				}
			}()
			NewEliminator(d)
		}()
	}
}

func TestCheckAllocs(t *testing.T) {
	var e Eliminator
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range randCodes(r, 200, len(testAlpha)) {
		e.Add(c)
	}
	code := randString(r, testAlpha, len(testAlpha), 200)
	if n := testing.AllocsPerRun(100, func() { e.Check(code) }); n != 0 {
		t.Errorf("Check allocates %v times, want 0", n)
	}
}

func TestBytes(t *testing.T) {
	var e Eliminator
	if n := e.Bytes(); n != 0 {
		t.Errorf("Bytes() of the zero value = %d, want 0", n)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range randCodes(r, 300, len(testAlpha)) {
		e.Add(c)
	}
	// Bytes counts capacity, so at least what is in use.
	min := len(e.x.text)*4 + len(e.x.post)*16 + len(e.x.head)*4
	if e.auto {
		min = len(e.m.st)*stateBytes + len(e.m.edge)*8
	}
	if n := e.Bytes(); n < min || min <= stateBytes {
		t.Errorf("Bytes() = %d, want at least %d (memory in use)", n, min)
	}
	e.Reset()
	if n := e.Bytes(); n == 0 {
		t.Errorf("Bytes() after Reset = 0, want the memory kept for reuse")
	}
}

func TestBytesIndex(t *testing.T) {
	var e Eliminator
	for _, c := range synthCodes(3, 300, 0.2) {
		e.Add(c)
	}
	if e.auto {
		t.Fatal("synthetic codes moved to the automaton")
	}
	if n, min := e.Bytes(), len(e.x.text)*4+len(e.x.post)*16+len(e.x.head)*4; n < min || min <= 0 {
		t.Errorf("Bytes() = %d, want at least %d (text, postings and heads in use)", n, min)
	}
}

// TestGrow checks that Grow reserves room and changes no verdict.
func TestGrow(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	codes := randCodes(r, 200, len(testAlpha))
	var plain, grown Eliminator
	grown.Grow(5000)
	if grown.Bytes() < 5000*4 {
		t.Fatalf("Bytes() after Grow(5000) = %d, want room for 5000 runes", grown.Bytes())
	}
	grown.Grow(0) // no-op
	for _, c := range codes {
		_, a := plain.Add(c)
		_, b := grown.Add(c)
		if a != b {
			t.Fatalf("Add(%q) = %+v after Grow, %+v without", c, b, a)
		}
	}
}
