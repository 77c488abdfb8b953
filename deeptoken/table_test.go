package deeptoken

import (
	"math/rand/v2"
	"testing"
)

// TestTable compares table with a Go map.
func TestTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tb table
	for round := range 3 {
		ref := make(map[uint64]int32)
		for i := range 5000 {
			k := r.Uint64N(3000) << (round * 20) // keys sharing low bits in later rounds
			if i%7 == 0 {
				k = ^uint64(0) - 1 // the largest key a table holds
			}
			v, ok := tb.get(k)
			w, wok := ref[k]
			if ok != wok || v != w {
				t.Fatalf("round %d: get(%d) = %d, %v; want %d, %v", round, k, v, ok, w, wok)
			}
			if !ok {
				tb.put(k, int32(i))
				ref[k] = int32(i)
			}
		}
		if tb.n != len(ref) {
			t.Fatalf("round %d: %d entries, want %d", round, tb.n, len(ref))
		}
		tb.reset()
		if _, ok := tb.get(0); ok {
			t.Fatalf("reset table is not empty")
		}
	}
}

// TestIntern checks that intern gives equal values one id and different values different ids,
// also when their hashes collide.
func TestIntern(t *testing.T) {
	var cl clusterer
	cl.reset()
	// Force collisions: put a foreign id under the hash of "b" before interning "b".
	a := cl.intern("a")
	h := uint64(fnvOffset)
	h = ((h ^ 'b') * fnvPrime) >> 1
	cl.idt.put(h, a)
	b := cl.intern("b")
	c := cl.intern("c")
	for _, tt := range []struct {
		v    string
		want int32
	}{{"a", a}, {"b", b}, {"c", c}} {
		if got := cl.intern(tt.v); got != tt.want || cl.names[got] != tt.v {
			t.Errorf("intern(%q) = %d (%q), want %d", tt.v, got, cl.names[got], tt.want)
		}
	}
	if a == b || b == c || a == c {
		t.Errorf("ids not distinct: %d %d %d", a, b, c)
	}
}
