package shingle

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

func TestSpotSignatures(t *testing.T) {
	sig := func(s ...string) uint64 { return xxhash.Sum64String(strings.Join(s, ":")) }
	tests := []struct {
		text string
		o    SpotOptions
		want []uint64
	}{
		// The paper's example: chains skip antecedents ("to" is not one
		// here, "a" and "the" are).
		{"At a rally to kick off a weeklong campaign for the South Carolina primary",
			SpotOptions{Antecedents: []string{"a", "the"}},
			[]uint64{sig("a", "rally", "to"), sig("a", "weeklong", "campaign"), sig("the", "south", "carolina")}},
		// Spot distance 2 takes every second token.
		{"the one two three four", SpotOptions{Antecedents: []string{"the"}, Distance: 2},
			[]uint64{sig("the", "two", "four")}},
		// Chain 1; an anchor too near the end gives nothing.
		{"the cat and the", SpotOptions{Antecedents: []string{"the"}, Chain: 1},
			[]uint64{sig("the", "cat")}},
		// Antecedents inside a chain are skipped.
		{"the the cat the dog", SpotOptions{Antecedents: []string{"the"}},
			[]uint64{sig("the", "cat", "dog"), sig("the", "cat", "dog")}},
		// Chinese: characters are tokens, 的 anchors.
		{"我的电脑的屏幕", SpotOptions{}, []uint64{sig("的", "电", "脑"), sig("的", "屏", "幕")}},
	}
	for _, tt := range tests {
		got := SpotSignatures(tt.text, tt.o)
		want := newSpots(slices.Clone(tt.want))
		if !slices.Equal(got.Hashes, want.Hashes) || !slices.Equal(got.Counts, want.Counts) || got.Size != want.Size {
			t.Errorf("SpotSignatures(%q) = %+v, want %+v", tt.text, got, want)
		}
	}
}

func TestSpotJaccard(t *testing.T) {
	a := SpotsOf([]uint64{1, 1, 2, 3})
	b := SpotsOf([]uint64{1, 2, 2, 4})
	// min counts: 1->1, 2->1 = 2; |a|+|b|-2 = 6.
	if got, want := a.Jaccard(b), 2.0/6; got != want {
		t.Errorf("Jaccard = %v, want %v", got, want)
	}
	if got := (Spots{}).Jaccard(Spots{}); got != 0 {
		t.Errorf("Jaccard of empties = %v, want 0", got)
	}
}

// TestSpotPairsMatchesBruteForce compares the partitioned, prefix-probed
// search with comparing all pairs.
func TestSpotPairsMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	var docs []Spots
	for range 30 {
		base := make([]uint64, 5+r.IntN(60))
		for i := range base {
			base[i] = r.Uint64N(200)
		}
		docs = append(docs, SpotsOf(base))
		for range r.IntN(4) { // near copies
			c := slices.Clone(base)
			for i := range c {
				if r.IntN(8) == 0 {
					c[i] = r.Uint64N(200)
				}
			}
			c = append(c, base[:r.IntN(len(base))/4]...)
			docs = append(docs, SpotsOf(c))
		}
	}
	docs = append(docs, Spots{})
	for _, th := range []float64{0.3, 0.5, 0.8, 1} {
		got := SpotPairs(docs, th)
		var want []ScoredPair
		for i := range docs {
			for j := i + 1; j < len(docs); j++ {
				if s := docs[i].Jaccard(docs[j]); s >= th {
					want = append(want, ScoredPair{i, j, s})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("t=%v: SpotPairs found %d pairs, brute force %d", th, len(got), len(want))
		}
	}
}

func TestSizeSpots(t *testing.T) {
	short := "Exit all groups and return to normal view."
	if s := SizeSpots(short, SizeSpotOptions{}); s.Size != len(Hashes(short, Options{})) {
		t.Errorf("short page: %d features, want its %d shingles", s.Size, len(Hashes(short, Options{})))
	}
	long := strings.Repeat("The printer is on the desk and the cable is in the drawer. ", 5)
	if s, spots := SizeSpots(long, SizeSpotOptions{}), SpotSignatures(long, SpotOptions{}); s.Size != spots.Size || spots.Size < 10 {
		t.Errorf("long page: %d features, want its %d spot signatures", s.Size, spots.Size)
	}
}
