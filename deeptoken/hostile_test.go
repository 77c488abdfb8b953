package deeptoken

import (
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/urlnorm"
)

// TestLinearParsePatterns checks that ParsePatterns costs at most linear time and memory in
// its input (hostile.Linear: bytes allocated per doubling, CPU time generously), for the
// shapes of internal/hostile.
func TestLinearParsePatterns(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	old := debug.SetGCPercent(-1) // the CPU time measured is the parser's own, not a collection's
	defer debug.SetGCPercent(old)
	for _, tc := range []struct {
		name  string
		sizes []int
		gen   func(int) []byte
	}{
		{"many keys", []int{1 << 10, 1 << 11, 1 << 12}, hostile.PatternManyKeys},
		{"high paths", []int{1 << 8, 1 << 9, 1 << 10}, hostile.PatternHighPaths},
		{"deep", []int{250, 500, 1000}, hostile.PatternDeep},
		{"wide", []int{1 << 10, 1 << 11, 1 << 12}, hostile.PatternWide},
		{"long literal", []int{1 << 16, 1 << 17, 1 << 18}, hostile.PatternLongLiteral},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := map[int][]byte{}
			for _, n := range tc.sizes {
				in[n] = tc.gen(n)
			}
			hostile.Linear(t, hostile.Growth{Sizes: tc.sizes, MaxBytesRatio: 3.2, MaxCPURatio: 4, Repeat: 5}, func(n int) int {
				if _, err := ParsePatterns(in[n]); err != nil {
					t.Fatal(err)
				}
				return 0
			})
		})
	}
}

// TestParsePatternsMemory checks that the memory ParsePatterns allocates is a small multiple of
// its input, whatever the input says: a key at path position 32767 is one tree, not 32767
// slots.
func TestParsePatternsMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"high paths", hostile.PatternHighPaths(4)},
		{"high path", hostile.PatternHighPaths(1)},
		{"many keys", hostile.PatternManyKeys(100)},
		{"wide", hostile.PatternWide(100)},
	} {
		c := hostile.Measure(func() int {
			if _, err := ParsePatterns(tc.in); err != nil {
				t.Fatal(err)
			}
			return 0
		})
		// 200 bytes per input byte is generous for maps and nodes; a slot per position is
		// 8 bytes × 32768 for a 26-byte line.
		if limit := 4096 + 200*uint64(len(tc.in)); c.Bytes > limit {
			t.Errorf("%s: ParsePatterns of %d bytes allocated %d bytes, want at most %d", tc.name, len(tc.in), c.Bytes, limit)
		}
	}
}

// TestHighPathPosition checks that a tree at a path position above the dense index
// (maxDensePath) splits its segment as the same tree at position 1 splits the first.
func TestHighPathPosition(t *testing.T) {
	const tree = "node 0 *\nanchor 0 0 ^ - friends\nnode 1 friends - *\n"
	u := "http://h.example/friends-x1" + strings.Repeat("/friends-x1", 99)
	toks, err := urlnorm.Tokenize(nil, u)
	if err != nil {
		t.Fatal(err)
	}
	deep := func(pos int) []string {
		p, err := ParsePatterns([]byte("key path " + strconv.Itoa(pos) + "\n" + tree))
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for _, d := range p.AppendSplit(nil, toks) {
			if d.Part == urlnorm.PartPath && int(d.Pos) == pos && d.Sub != 0 {
				vals = append(vals, d.Value)
			}
		}
		return vals
	}
	want := deep(1)
	if len(want) < 2 {
		t.Fatalf("the tree does not split friends-x1: %q", want)
	}
	for _, pos := range []int{maxDensePath, maxDensePath + 1, 100} {
		if got := deep(pos); !slices.Equal(got, want) {
			t.Errorf("segment %d splits into %q, want %q", pos, got, want)
		}
	}
}
