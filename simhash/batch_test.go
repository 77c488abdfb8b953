package simhash

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/undust/undust/internal/tier"
)

// slowPairs compares every pair: the obviously correct O(n^2) answer.
func slowPairs(fps []uint64, k int) []Pair {
	var ps []Pair
	for i := range fps {
		for j := i + 1; j < len(fps); j++ {
			if d := Distance(fps[i], fps[j]); d <= k {
				ps = append(ps, Pair{i, j, d})
			}
		}
	}
	return ps
}

func TestFindPairsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, k := range []int{0, 1, 3, 6} {
		fps := clustered(r, 1500, k+2)
		fps = append(fps, fps[:20]...) // exact duplicates at distance 0
		want := slowPairs(fps, k)
		got := FindPairsExact(fps, k)
		if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("k=%d: FindPairsExact mismatch (-want +got):\n%s", k, diff)
		}
	}
}

// TestFindPairsLectureExample runs the lecture notes' eight 16-bit numbers
// (placed in the top 16 bits): adjacent comparison after one sort finds the
// pairs (3,6) and (8,5); rotation brings (4,2) together.
func TestFindPairsLectureExample(t *testing.T) {
	nums := []uint64{37586, 50086, 2648, 934, 40957, 2650, 64475, 40955}
	fps := make([]uint64, len(nums))
	for i, v := range nums {
		fps[i] = v << 48
	}
	// Positions: 3->2, 6->5, 8->7, 5->4, 4->3, 2->1 (the notes count from 1).
	tests := []struct {
		name string
		opts BatchOptions
		k    int
		want []Pair
	}{
		// one sort, adjacent only: the notes' first listing finds (3,6) at
		// distance 1 and (8,5) at distance 2, not (4,2)
		{"one pass", BatchOptions{Rotations: 1}, 2, []Pair{{2, 5, 1}, {4, 7, 2}}},
		// the notes rotate left twice (within 16 bits); in 64 bits, 64
		// rotations reach every arrangement and also find (4,2)
		{"64 passes", BatchOptions{}, 2, []Pair{{1, 3, 2}, {2, 5, 1}, {4, 7, 2}}},
	}
	for _, tt := range tests {
		got := FindPairs(fps, tt.k, &tt.opts)
		if diff := gocmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: FindPairs mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	if diff := gocmp.Diff(slowPairs(fps, 2), FindPairsExact(fps, 2)); diff != "" {
		t.Errorf("exact mismatch (-slow +exact):\n%s", diff)
	}
}

// recall returns |got ∩ want| / |want|, and fails if got has a pair not in
// want (FindPairs never reports a false pair).
func recall(t *testing.T, got, want []Pair) float64 {
	t.Helper()
	in := make(map[Pair]bool, len(want))
	for _, p := range want {
		in[p] = true
	}
	for _, p := range got {
		if !in[p] {
			t.Fatalf("FindPairs reported %v, not within k", p)
		}
	}
	if len(want) == 0 {
		return 1
	}
	return float64(len(got)) / float64(len(want))
}

// TestFindPairsRecall measures recall against the exact answer as a function
// of rotations and window, checks that it never decreases when either grows,
// and that a window spanning the whole input finds everything. With
// UNDUST_LONG=1 it uses 20000 fingerprints (plus 5000 unrelated ones) and
// prints the tables (also with -v).
func TestFindPairsRecall(t *testing.T) {
	n := 1500
	if testing.Short() || raceEnabled {
		n = 500
	}
	long := tier.Long()
	if long {
		n = 20000
	}
	const k = 3
	var sb strings.Builder
	for _, cluster := range []int{2, 8} {
		r := rand.New(rand.NewPCG(13, uint64(cluster)))
		// Clusters whose members are within k of their centre (so within 2k
		// of each other), and unrelated pages.
		fps := clusteredBy(r, n, k, cluster)
		for range n / 4 {
			fps = append(fps, r.Uint64())
		}
		recallTable(t, &sb, fps, k, cluster)
	}
	if long || testing.Verbose() {
		t.Log("\n" + sb.String())
	}
	r := rand.New(rand.NewPCG(15, 16))
	small := clustered(r, 200, k)
	if got := recall(t, FindPairs(small, k, &BatchOptions{Rotations: 1, Window: len(small)}), FindPairsExact(small, k)); got != 1 {
		t.Errorf("window spanning the input: recall %.3f, want 1", got)
	}
}

func recallTable(t *testing.T, sb *strings.Builder, fps []uint64, k, cluster int) {
	exact := FindPairsExact(fps, k)
	rotations := []int{1, 2, 4, 8, 16, 32, 64}
	windows := []int{1, 2, 4, 8, 16}
	fmt.Fprintf(sb, "n=%d k=%d clusters of %d, exact pairs=%d\n", len(fps), k, cluster, len(exact))
	for _, step := range []int{1, 0} {
		fmt.Fprintf(sb, "step=%s | window:", map[int]string{1: "1", 0: "64/rotations"}[step])
		for _, w := range windows {
			fmt.Fprintf(sb, " %6d", w)
		}
		sb.WriteString("\n")
		prevRow := make([]float64, len(windows))
		for _, rot := range rotations {
			fmt.Fprintf(sb, "rotations %3d      :", rot)
			prev := 0.0
			for wi, w := range windows {
				s := step
				if s == 0 {
					s = 64 / rot
				}
				got := recall(t, FindPairs(fps, k, &BatchOptions{Rotations: rot, Window: w, Step: s}), exact)
				if got < prev {
					t.Errorf("step %d rotations %d: recall fell from %.3f to %.3f as window grew to %d", s, rot, prev, got, w)
				}
				if step == 1 && got < prevRow[wi] {
					t.Errorf("window %d: recall fell from %.3f to %.3f as rotations grew to %d", w, prevRow[wi], got, rot)
				}
				prev, prevRow[wi] = got, got
				fmt.Fprintf(sb, " %6.3f", got)
			}
			sb.WriteString("\n")
		}
	}
}

// TestRadixSort compares the radix sort with the standard library's stable
// sort, on keys with few distinct bytes (skipped passes) and many ties.
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, mask := range []uint64{0, 0xff, 0xff00ff0000000000, ^uint64(0)} {
			items := make([]item, n)
			for i := range items {
				items[i] = item{r.Uint64() & mask, i}
			}
			want := slices.Clone(items)
			slices.SortStableFunc(want, func(a, b item) int { return cmp.Compare(a.key, b.key) })
			radixSort(items, make([]item, n))
			if !slices.Equal(items, want) {
				t.Fatalf("n=%d mask=%#x: radixSort differs from a stable sort", n, mask)
			}
		}
	}
}
