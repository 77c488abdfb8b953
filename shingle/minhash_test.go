package shingle

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowSignature is the reference: for each bin, the least permuted value
// of the hashes that fall in it, then the same probe sequence for empty
// bins, written out without shortcuts.
func slowSignature(m *MinHasher, h []uint64) []uint64 {
	k := m.K()
	own := make([]uint64, k)
	has := make([]bool, k)
	for bin := range k {
		for _, x := range h {
			v := fmix(x ^ m.seed)
			hi, _ := bits.Mul64(v, uint64(k))
			if int(hi) == bin && (!has[bin] || v < own[bin]) {
				own[bin], has[bin] = v, true
			}
		}
	}
	sig := make([]uint64, k)
	anyOwn := slices.Contains(has, true)
	for i := range k {
		switch {
		case has[i]:
			sig[i] = own[i]
		case !anyOwn:
			sig[i] = math.MaxUint64
		default:
			for attempt := uint64(1); ; attempt++ {
				j, _ := bits.Mul64(fmix(m.seed^(uint64(i)<<32|attempt)^probeSalt), uint64(k))
				if has[j] {
					sig[i] = own[j]
					break
				}
			}
		}
	}
	return sig
}

func randomHashes(r *rand.Rand, n int) []uint64 {
	h := make([]uint64, n)
	for i := range h {
		h[i] = r.Uint64()
	}
	return h
}

func TestSignatureMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		k, n int
	}{
		{128, 0},    // empty set: all empty
		{128, 1},    // one shingle fills every bin by densification
		{128, 20},   // sparse: most bins densified
		{128, 1000}, // dense: no empty bins
		{7, 50},     // k not a power of two
		{1, 5},      // a single bin
	}
	for _, tt := range tests {
		m := NewMinHasher(tt.k, 42)
		h := randomHashes(r, tt.n)
		got := m.Signature(h)
		want := slowSignature(m, h)
		if !slices.Equal(got, want) {
			t.Errorf("k=%d n=%d: Signature differs from reference", tt.k, tt.n)
		}
		// Duplicates and order do not matter.
		h2 := append(slices.Clone(h), h...)
		slices.Reverse(h2)
		if !slices.Equal(m.Signature(h2), got) {
			t.Errorf("k=%d n=%d: signature depends on order or duplicates", tt.k, tt.n)
		}
	}
}

// TestEstimateError checks that the estimate is unbiased with the error
// theory predicts, sqrt(J(1-J)/k), at J = 0.5 and J = 0.8 for k = 128, on
// sets large enough that no bin is empty and on small sets where most
// bins are densified.
func TestEstimateError(t *testing.T) {
	trials := 1000
	if testing.Short() || raceEnabled {
		trials = 300
	}
	for _, tt := range []struct {
		j    float64
		size int // |A ∪ B|
	}{
		{0.5, 2000}, // dense
		{0.8, 2000},
		{0.5, 60}, // sparse: densified
	} {
		r := rand.New(rand.NewPCG(11, uint64(tt.size)))
		inter := int(tt.j * float64(tt.size))
		onlyA := (tt.size - inter) / 2 // the rest is only in B
		var sum, sumSq float64
		for trial := range trials {
			m := NewMinHasher(128, uint64(trial))
			all := randomHashes(r, tt.size)
			a := all[:inter+onlyA]
			b := append(slices.Clone(all[:inter]), all[inter+onlyA:]...)
			exact := NewSet(a).Jaccard(NewSet(b))
			e := Estimate(m.Signature(a), m.Signature(b)) - exact
			sum += e
			sumSq += e * e
		}
		mean := sum / float64(trials)
		sd := math.Sqrt(sumSq/float64(trials) - mean*mean)
		theory := math.Sqrt(tt.j * (1 - tt.j) / 128)
		// The mean of 1000 errors has a standard error of sd/sqrt(1000)
		// (about 0.0014); allow 4 of them. The sample sd of 1000 draws is
		// within a few percent of the true one (300 draws: 4%); OPH may be a little
		// better than with-replacement sampling, never much worse.
		if math.Abs(mean) > 4*theory/math.Sqrt(float64(trials)) {
			t.Errorf("J=%.1f size %d: mean error %.4f, want about 0", tt.j, tt.size, mean)
		}
		if sd > theory*1.12 || sd < theory*0.75 {
			t.Errorf("J=%.1f size %d: error sd %.4f, theory %.4f", tt.j, tt.size, sd, theory)
		}
		t.Logf("J=%.1f |A∪B|=%d: mean error %+.4f, sd %.4f (theory %.4f)", tt.j, tt.size, mean, sd, theory)
	}
}

func TestEstimateEdges(t *testing.T) {
	m := NewMinHasher(0, 1)
	if m.K() != DefaultK {
		t.Errorf("K() = %d, want %d", m.K(), DefaultK)
	}
	e := m.Signature(nil)
	if got := Estimate(e, e); got != 0 {
		t.Errorf("Estimate(empty, empty) = %v, want 0", got)
	}
	a := m.Signature([]uint64{1, 2, 3})
	if got := Estimate(a, a); got != 1 {
		t.Errorf("Estimate(a, a) = %v, want 1", got)
	}
	if got := Estimate(a, a[:5]); got != 0 {
		t.Errorf("Estimate of different lengths = %v, want 0", got)
	}
}

func TestAppendSignatureAllocs(t *testing.T) {
	m := NewMinHasher(128, 1)
	h := randomHashes(rand.New(rand.NewPCG(1, 1)), 500)
	dst := make([]uint64, 0, 128)
	if n := testing.AllocsPerRun(100, func() { dst = m.AppendSignature(dst[:0], h) }); n != 0 {
		t.Errorf("AppendSignature allocates %v times, want 0", n)
	}
}
