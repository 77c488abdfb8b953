package shingle

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// slowJaccard is the reference: sets as maps.
func slowJaccard(a, b []uint64) (j, cab float64) {
	ma, mb := map[uint64]bool{}, map[uint64]bool{}
	for _, h := range a {
		ma[h] = true
	}
	for _, h := range b {
		mb[h] = true
	}
	n := 0
	for h := range ma {
		if mb[h] {
			n++
		}
	}
	if u := len(ma) + len(mb) - n; u > 0 {
		j = float64(n) / float64(u)
	}
	if len(ma) > 0 {
		cab = float64(n) / float64(len(ma))
	}
	return j, cab
}

func TestSet(t *testing.T) {
	tests := []struct {
		a, b   []uint64
		j, cAB float64
	}{
		{[]uint64{0, 1, 2, 5, 6}, []uint64{0, 2, 3, 5, 7, 9}, 3.0 / 8, 3.0 / 5}, // the lecture's example: 3/8
		{[]uint64{1, 1, 2}, []uint64{2, 1}, 1, 1},                               // duplicates do not count
		{nil, nil, 0, 0},                               // empty sets: 0
		{[]uint64{1}, nil, 0, 0},                       // one empty
		{[]uint64{1, 2}, []uint64{1, 2, 3, 4}, 0.5, 1}, // a inside b
	}
	for _, tt := range tests {
		a, b := NewSet(tt.a), NewSet(tt.b)
		if got := a.Jaccard(b); got != tt.j {
			t.Errorf("Jaccard(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.j)
		}
		if got := a.Containment(b); got != tt.cAB {
			t.Errorf("Containment(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.cAB)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a := make([]uint64, r.IntN(50))
		b := make([]uint64, r.IntN(50))
		for i := range a {
			a[i] = r.Uint64N(60)
		}
		for i := range b {
			b[i] = r.Uint64N(60)
		}
		wj, wc := slowJaccard(a, b)
		sa, sb := NewSet(a), NewSet(b)
		if got := sa.Jaccard(sb); got != wj {
			t.Errorf("Jaccard(%v, %v) = %v, reference %v", a, b, got, wj)
		}
		if got := sa.Containment(sb); got != wc {
			t.Errorf("Containment(%v, %v) = %v, reference %v", a, b, got, wc)
		}
	}
}

func TestSample(t *testing.T) {
	// The lecture's example: hashes 0 mod 4 are the fingerprints.
	s := NewSet([]uint64{938, 664, 463, 822, 492, 798, 78, 969, 143, 236, 913, 908, 694, 553, 870, 779})
	got := s.Sample(nil, 4)
	want := Set{236, 492, 664, 908}
	if len(got) != len(want) {
		t.Fatalf("Sample(4) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Sample(4) = %v, want %v", got, want)
		}
	}
}

func TestDigest(t *testing.T) {
	a := "Hello,   WORLD!"
	b := "hello world"
	if Digest(a, Options{}) != Digest(b, Options{}) || Digest64(a, Options{}) != Digest64(b, Options{}) {
		t.Errorf("digests of %q and %q differ", a, b)
	}
	if Digest("hello world", Options{}) != sha256.Sum256([]byte("hello world")) {
		t.Errorf("Digest is not SHA-256 of the normalized text")
	}
	if Digest64("Hello, World", Options{}) != xxhash.Sum64String("hello world") {
		t.Errorf("Digest64 is not XXH64 of the normalized text")
	}
	if Digest("hello world", Options{}) == Digest("hello word", Options{}) {
		t.Errorf("different texts share a digest")
	}
	if got := NormalizedText("Hello,  World", Options{}); got != "hello world" {
		t.Errorf("NormalizedText = %q", got)
	}
}

func TestContains(t *testing.T) {
	s := NewSet([]uint64{5, 1, 9, 1})
	tests := []struct {
		h    uint64
		want bool
	}{
		{1, true}, {5, true}, {9, true}, // members
		{0, false}, {4, false}, {10, false}, // before, between, after
	}
	for _, tt := range tests {
		if got := s.Contains(tt.h); got != tt.want {
			t.Errorf("%v.Contains(%d) = %v, want %v", s, tt.h, got, tt.want)
		}
	}
	if Set(nil).Contains(0) {
		t.Error("empty set contains 0")
	}
}
