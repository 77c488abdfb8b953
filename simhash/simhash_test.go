package simhash

import (
	"math"
	"math/rand/v2"
	"testing"
)

// slowSum is the lecture notes' algorithm bit by bit: V[i] += w if bit i of
// the hash is set, else V[i] -= w; bit i of the result is V[i] > 0 (or >= 0
// with TieOne).
func slowSum(hs []uint64, ws []float64, tie Tie) uint64 {
	var v [64]float64
	for j, h := range hs {
		w := 1.0
		if ws != nil {
			w = ws[j]
		}
		for i := range 64 {
			if h&(1<<i) != 0 {
				v[i] += w
			} else {
				v[i] -= w
			}
		}
	}
	var fp uint64
	for i := range 64 {
		if v[i] > 0 || tie == TieOne && v[i] == 0 {
			fp |= 1 << i
		}
	}
	return fp
}

func TestSum64(t *testing.T) {
	tests := []struct {
		name string
		hs   []uint64
		want uint64
	}{
		{"empty", nil, 0}, // documented: empty input gives 0
		{"one feature", []uint64{0xdeadbeef}, 0xdeadbeef},      // a single feature is its own fingerprint
		{"two agree", []uint64{0xf0, 0xf0}, 0xf0},              // repeats weigh as counts
		{"two disagree", []uint64{0xff00, 0x00ff}, 0},          // every differing bit ties, ties give 0
		{"majority", []uint64{0b110, 0b011, 0b010}, 0b010},     // bit i set iff more features set it than clear it
		{"count wins", []uint64{1, 1, 2}, 1},                   // feature 1 counted twice outweighs feature 2
		{"top bit", []uint64{1 << 63, 1<<63 | 1}, 1 << 63},     // bit 63 maps to bit 63 (value 1<<i convention)
		{"all ones", []uint64{math.MaxUint64}, math.MaxUint64}, // all bits
	}
	for _, tt := range tests {
		if got := Sum64(tt.hs); got != tt.want {
			t.Errorf("%s: Sum64(%#x) = %#x, want %#x", tt.name, tt.hs, got, tt.want)
		}
		if got := slowSum(tt.hs, nil, TieZero); got != tt.want {
			t.Errorf("%s: slowSum(%#x) = %#x, want %#x", tt.name, tt.hs, got, tt.want)
		}
	}
}

func TestSum64Weighted(t *testing.T) {
	tests := []struct {
		name string
		hs   []uint64
		ws   []float64
		want uint64
	}{
		{"empty", nil, nil, 0}, // empty input gives 0
		{"heavy wins", []uint64{0b01, 0b10}, []float64{2, 1}, 0b01},        // a weight-2 feature outweighs a weight-1 one
		{"equal ties", []uint64{0b01, 0b10}, []float64{1.5, 1.5}, 0},       // equal weights tie on differing bits
		{"negative", []uint64{0b01}, []float64{-1}, ^uint64(1)},            // a negative weight votes against its bits: its clear bits win
		{"zero weight", []uint64{0b1}, []float64{0}, 0},                    // weight 0 adds nothing
		{"nan", []uint64{math.MaxUint64}, []float64{math.NaN()}, 0},        // NaN total gives 0, no panic
		{"inf", []uint64{math.MaxUint64, 1}, []float64{math.Inf(1), 1}, 0}, // infinite weight gives 0, no panic
	}
	for _, tt := range tests {
		if got := Sum64Weighted(tt.hs, tt.ws); got != tt.want {
			t.Errorf("%s: Sum64Weighted = %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

// TestSumMatchesSlow compares the lane-counting accumulator with the
// bit-by-bit reference over random inputs, across flush boundaries.
func TestSumMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 254, 255, 256, 510, 511, 1000, 5000} {
		for range 20 {
			hs := make([]uint64, n)
			base := r.Uint64()
			for i := range hs {
				// Correlated hashes make ties and near-ties common.
				hs[i] = base ^ (r.Uint64() & r.Uint64() & r.Uint64())
			}
			for _, tie := range []Tie{TieZero, TieOne} {
				var a Accumulator
				a.AddHashes(hs)
				if got, want := a.SumTie(tie), slowSum(hs, nil, tie); got != want {
					t.Fatalf("n=%d tie=%d: SumTie = %#x, slow = %#x", n, tie, got, want)
				}
			}
			ws := make([]float64, n)
			for i := range ws {
				ws[i] = float64(r.IntN(7)) // small integers: float sums are exact
			}
			if got, want := Sum64Weighted(hs, ws), slowSum(hs, ws, TieZero); got != want {
				t.Fatalf("n=%d weighted: got %#x, slow %#x", n, got, want)
			}
		}
	}
}

// TestAccumulatorMixed checks that unit and weighted features combine as if
// all were weighted.
func TestAccumulatorMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := r.IntN(600)
		hs := make([]uint64, n)
		ws := make([]float64, n)
		var a Accumulator
		for i := range hs {
			hs[i] = r.Uint64()
			if r.IntN(2) == 0 {
				ws[i] = 1
				a.Add(hs[i])
			} else {
				ws[i] = float64(r.IntN(5))
				a.AddWeighted(hs[i], ws[i])
			}
		}
		if got, want := a.Sum64(), slowSum(hs, ws, TieZero); got != want {
			t.Fatalf("mixed n=%d: got %#x, slow %#x", n, got, want)
		}
		// Sum64 must not change the accumulator.
		if again := a.Sum64(); again != a.Sum64() {
			t.Fatal("Sum64 changed the accumulator")
		}
		a.Reset()
		if a.Sum64() != 0 {
			t.Fatal("Reset did not empty the accumulator")
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b uint64
		want int
	}{
		{0, 0, 0},               // equal
		{0, math.MaxUint64, 64}, // all bits differ
		{0b1010, 0b0110, 2},     // two bits differ
		{1 << 63, 1, 2},         // top and bottom bit
		{0x8c3a5f7e9ecb3f35, 0x8c3a5f7e9ecb3f21, 2}, // go-dedup example pair
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%#x, %#x) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSumAllocs(t *testing.T) {
	hs := make([]uint64, 1000)
	ws := make([]float64, 1000)
	for i := range hs {
		hs[i] = uint64(i) * 0x9e3779b97f4a7c15
		ws[i] = 1.5
	}
	var sink uint64
	if n := testing.AllocsPerRun(100, func() { sink += Sum64(hs) }); n != 0 {
		t.Errorf("Sum64 allocates %v times per run, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { sink += Sum64Weighted(hs, ws) }); n != 0 {
		t.Errorf("Sum64Weighted allocates %v times per run, want 0", n)
	}
	var a Accumulator
	if n := testing.AllocsPerRun(100, func() {
		a.Reset()
		a.AddHashes(hs)
		sink += a.Sum64()
	}); n != 0 {
		t.Errorf("Accumulator allocates %v times per run, want 0", n)
	}
	_ = sink
}
