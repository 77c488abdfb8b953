package shingle

import (
	"bytes"
	"io"
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// TestReadLSHExact: two indexes written back to back are read in turn, and
// what follows them is left in the stream.
func TestReadLSHExact(t *testing.T) {
	var stream bytes.Buffer
	a := NewLSHBands(3, 2)
	b := NewLSHBands(2, 4)
	for i := range 5 {
		a.Insert(uint64(i), []uint64{uint64(i), 2, 3, uint64(i * 7), 5, 6})
		b.Insert(uint64(100+i), []uint64{1, uint64(i), 3, 4, 5, 6, 7, uint64(i)})
	}
	e := NewLSHBands(1, 1) // empty: header and checksum only
	for _, l := range []*LSH{a, e, b} {
		if _, err := l.WriteTo(&stream); err != nil {
			t.Fatal(err)
		}
	}
	stream.WriteString("tail")
	for i, want := range []*LSH{a, e, b} {
		got, err := ReadLSH(&stream)
		if err != nil {
			t.Fatalf("index %d: %v", i, err)
		}
		gb, gr := got.Bands()
		wb, wr := want.Bands()
		if got.Len() != want.Len() || gb != wb || gr != wr {
			t.Fatalf("index %d: read %d documents in %dx%d, want %d in %dx%d", i, got.Len(), gb, gr, want.Len(), wb, wr)
		}
	}
	if rest, _ := io.ReadAll(&stream); string(rest) != "tail" {
		t.Fatalf("after the indexes the stream holds %q, want %q", rest, "tail")
	}
}

// TestReadLSHLayouts: a header may ask for up to 65536 bands; reading it
// must cost memory for what the file holds, not for what it asks.
func TestReadLSHLayouts(t *testing.T) {
	tests := []struct {
		name     string
		file     []byte
		ok       bool
		maxBytes uint64
	}{
		{"empty 65536 bands", hostile.LSHIndex(1<<16, 1, 0), true, 8 << 10},
		{"empty 256x256", hostile.LSHIndex(256, 256, 0), true, 8 << 10},
		{"truncated 65536 bands", hostile.LSHIndex(1<<16, 1, 1)[:200], false, 80 << 10},
		{"truncated 1000 documents", hostile.LSHIndex(9, 14, 1000)[:5000], false, 80 << 10},
	}
	for _, tt := range tests {
		c := hostile.Measure(func() int {
			_, err := ReadLSH(bytes.NewReader(tt.file))
			if (err == nil) != tt.ok {
				t.Errorf("%s: ReadLSH error %v, want ok=%v", tt.name, err, tt.ok)
			}
			return 0
		})
		limit := tt.maxBytes
		if raceEnabled {
			limit *= 2 // allocations are higher under the race detector (132 KiB measured for the truncated files)
		}
		if c.Bytes > limit {
			t.Errorf("%s: ReadLSH of %d bytes allocated %d bytes, want at most %d", tt.name, len(tt.file), c.Bytes, limit)
		}
	}
}

// TestReadLSHLinear: loading costs linear time and memory in the file, for
// many documents and for wide ones.
func TestReadLSHLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, shape := range []struct {
		name  string
		sizes []int
		gen   func(n int) []byte
	}{
		{"documents", []int{1 << 12, 1 << 13, 1 << 14}, func(n int) []byte { return hostile.LSHIndex(9, 14, n) }},
		{"bands", []int{1 << 10, 1 << 11, 1 << 12, 1 << 13}, func(n int) []byte { return hostile.LSHIndex(n, 1, 8) }},
	} {
		t.Run(shape.name, func(t *testing.T) {
			in := map[int][]byte{}
			for _, n := range shape.sizes {
				in[n] = shape.gen(n)
			}
			hostile.Linear(t, hostile.Growth{Sizes: shape.sizes, Repeat: 5, MaxCPURatio: 4}, func(n int) int {
				l, err := ReadLSH(bytes.NewReader(in[n]))
				if err != nil {
					t.Fatal(err)
				}
				return l.Len()
			})
		})
	}
}
