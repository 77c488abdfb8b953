package shingle

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// linearIndex is the reference: a list of signatures, queried by
// comparing the bands of every document.
type linearIndex struct {
	b, r int
	sigs map[uint64][]uint64
}

func (x *linearIndex) query(sig []uint64) []uint64 {
	var out []uint64
	for key, s := range x.sigs {
		for i := range x.b {
			if slices.Equal(s[i*x.r:(i+1)*x.r], sig[i*x.r:(i+1)*x.r]) {
				out = append(out, key)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// mutate returns a copy of sig with about frac of its values changed.
func mutate(r *rand.Rand, sig []uint64, frac float64) []uint64 {
	out := slices.Clone(sig)
	for i := range out {
		if r.Float64() < frac {
			out[i] = r.Uint64()
		}
	}
	return out
}

func sorted(k []uint64) []uint64 { slices.Sort(k); return k }

func TestLSHMatchesLinearScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	l := NewLSH(128, 0.8)
	b, rows := l.Bands()
	ref := &linearIndex{b: b, r: rows, sigs: map[uint64][]uint64{}}
	var base [][]uint64
	for range 20 {
		base = append(base, randomHashes(r, 128))
	}
	// Families of near signatures, random ones, and re-inserted keys.
	for key := uint64(0); key < 400; key++ {
		sig := mutate(r, base[r.IntN(len(base))], r.Float64()*0.5)
		if err := l.Insert(key, sig); err != nil {
			t.Fatal(err)
		}
		ref.sigs[key] = sig
	}
	for key := uint64(0); key < 400; key += 7 {
		sig := mutate(r, base[r.IntN(len(base))], 0.1)
		l.Insert(key, sig) // replaces
		ref.sigs[key] = sig
	}
	for key := uint64(0); key < 400; key += 5 {
		if got, want := l.Delete(key), ref.sigs[key] != nil; got != want {
			t.Errorf("Delete(%d) = %v, want %v", key, got, want)
		}
		delete(ref.sigs, key)
	}
	if l.Delete(1000) {
		t.Errorf("Delete of an absent key reported true")
	}
	if l.Len() != len(ref.sigs) {
		t.Errorf("Len() = %d, want %d", l.Len(), len(ref.sigs))
	}
	for q := range 100 {
		sig := mutate(r, base[q%len(base)], r.Float64()*0.6)
		got, err := l.Query(sig)
		if err != nil {
			t.Fatal(err)
		}
		if want := ref.query(sig); !slices.Equal(sorted(got), want) {
			t.Fatalf("Query %d: got %d keys, linear scan %d", q, len(got), len(want))
		}
	}
	if _, err := l.Query(make([]uint64, 5)); !errors.Is(err, ErrSignature) {
		t.Errorf("Query with a short signature: err %v, want ErrSignature", err)
	}
	if err := l.Insert(1, make([]uint64, 5)); !errors.Is(err, ErrSignature) {
		t.Errorf("Insert with a short signature: err %v, want ErrSignature", err)
	}
}

func TestOptimalBands(t *testing.T) {
	tests := []struct {
		k int
		t float64
	}{
		{128, 0.8}, // the default
		{128, 0.5},
		{64, 0.9},
	}
	for _, tt := range tests {
		b, r := OptimalBands(tt.k, tt.t)
		if b*r > tt.k {
			t.Errorf("OptimalBands(%d, %v) = %d x %d > k", tt.k, tt.t, b, r)
		}
		// The S-curve must be low well below the threshold and high
		// well above it.
		p := func(s float64) float64 { return 1 - math.Pow(1-math.Pow(s, float64(r)), float64(b)) }
		if p(tt.t-0.25) > 0.2 || p(math.Min(tt.t+0.1, 1)) < 0.8 {
			t.Errorf("OptimalBands(%d, %v) = %d x %d: P(%.2f) = %.2f, P(%.2f) = %.2f", tt.k, tt.t, b, r,
				tt.t-0.25, p(tt.t-0.25), tt.t+0.1, p(math.Min(tt.t+0.1, 1)))
		}
	}
}

func TestLSHSaveLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	l := NewLSH(64, 0.7)
	sigs := map[uint64][]uint64{}
	for key := range uint64(50) {
		sigs[key] = randomHashes(r, 64)
		l.Insert(key, sigs[key])
	}
	l.Delete(3)
	var buf bytes.Buffer
	if _, err := l.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	m, err := ReadLSH(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 49 || m.K() != 64 {
		t.Fatalf("loaded Len %d K %d, want 49 64", m.Len(), m.K())
	}
	for key, sig := range sigs {
		got, _ := m.Query(sig)
		want, _ := l.Query(sig)
		if !slices.Equal(sorted(got), sorted(want)) {
			t.Fatalf("key %d: loaded index answers %v, original %v", key, got, want)
		}
	}
	// Every truncation and every single-byte change is rejected.
	for n := range len(data) {
		if _, err := ReadLSH(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
	for i := 0; i < len(data); i += 7 {
		bad := slices.Clone(data)
		bad[i] ^= 0x40
		if _, err := ReadLSH(bytes.NewReader(bad)); err == nil {
			t.Fatalf("byte %d flipped: no error", i)
		}
	}
	if _, err := ReadLSH(bytes.NewReader([]byte("PK\x03\x04 not an index"))); !errors.Is(err, ErrFormat) {
		t.Errorf("foreign file: err %v, want ErrFormat", err)
	}
}

func TestLSHConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	l := NewLSH(128, 0.8)
	sigs := make([][]uint64, 200)
	for i := range sigs {
		sigs[i] = randomHashes(r, 128)
		l.Insert(uint64(i), sigs[i])
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range 200 {
				got, err := l.Query(sigs[i])
				if err != nil || !slices.Contains(got, uint64(i)) {
					t.Errorf("query %d: %v %v", i, got, err)
				}
			}
		})
	}
	wg.Go(func() {
		for i := 200; i < 400; i++ {
			l.Insert(uint64(i), randomHashes(rand.New(rand.NewPCG(uint64(i), 0)), 128))
		}
	})
	wg.Wait()
}

func TestLSHQueryAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	l := NewLSH(128, 0.8)
	var sigs [][]uint64
	for i := range 1000 {
		s := randomHashes(r, 128)
		sigs = append(sigs, s)
		l.Insert(uint64(i), s)
	}
	dst := make([]uint64, 0, 64)
	q := mutate(r, sigs[7], 0.1)
	if n := testing.AllocsPerRun(100, func() { dst, _ = l.AppendQuery(dst[:0], q) }); n != 0 {
		t.Errorf("AppendQuery allocates %v times, want 0", n)
	}
}
