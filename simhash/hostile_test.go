package simhash

import (
	"bytes"
	"errors"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/undust/undust/internal/hostile"
)

// TestReadFromLoadLimit: the header chooses the table layout; layouts over
// the limit are rejected before any entry is read.
func TestReadFromLoadLimit(t *testing.T) {
	big := hostile.SimhashIndex(2, 45, 100) // C(45, 2) = 990 tables
	tests := []struct {
		name   string
		opts   *IndexOptions
		file   []byte
		tables int // 0: ErrLimit
	}{
		{"990 tables, default limit", nil, big, 0},
		{"990 tables, limit 989", &IndexOptions{MaxLoadTables: 989}, big, 0},
		{"990 tables, limit 990", &IndexOptions{MaxLoadTables: 990}, big, 990},
		{"56 tables, default limit", nil, hostile.SimhashIndex(3, 8, 100), 56},
		{"84 tables, default limit", nil, hostile.SimhashIndex(3, 9, 100), 0},
		// An index reads back what it saved: its own tables raise the
		// default limit.
		{"84 tables, own layout", &IndexOptions{Tables: 84}, hostile.SimhashIndex(3, 9, 100), 84},
		{"default layout", nil, hostile.SimhashIndex(3, 4, 100), 4},
	}
	for _, tt := range tests {
		x := NewIndex(3, tt.opts)
		n, err := x.ReadFrom(bytes.NewReader(tt.file))
		if tt.tables == 0 {
			if !errors.Is(err, ErrLimit) || n != headerSize {
				t.Errorf("%s: ReadFrom = %d, %v; want %d, ErrLimit", tt.name, n, err, headerSize)
			}
			continue
		}
		if err != nil || x.Tables() != tt.tables || x.Len() != 100 {
			t.Errorf("%s: ReadFrom: %v; %d tables, %d entries; want %d tables, 100 entries", tt.name, err, x.Tables(), x.Len(), tt.tables)
		}
	}
}

// TestReadFromMemory: loading allocates about 16 bytes per entry and table
// plus the id map, whatever the layout, and never more for a damaged file.
func TestReadFromMemory(t *testing.T) {
	const n = 8192
	for _, l := range []struct{ k, blocks int }{{3, 4}, {3, 8}, {2, 11}, {1, 64}, {0, 1}, {31, 32}} {
		file := hostile.SimhashIndex(l.k, l.blocks, n)
		tables := choose(l.blocks, l.k)
		for _, in := range [][]byte{file, file[:len(file)-1], append(bytes.Clone(file[:len(file)-4]), 0, 0, 0, 0)} {
			c := hostile.Measure(func() int {
				NewIndex(3, &IndexOptions{MaxLoadTables: maxTables}).ReadFrom(bytes.NewReader(in))
				return 0
			})
			// Per entry: 16 bytes per table and up to 6 of directory (a
			// 24-byte bucket header per 4 to 8 entries), 32 for the read
			// entries as they grow, about 64 for the id map.
			limit := uint64(n*(22*tables+128) + 64<<10)
			if c.Bytes > limit {
				t.Errorf("k=%d, %d blocks (%d tables): loading %d bytes allocated %d, want at most %d",
					l.k, l.blocks, tables, len(in), c.Bytes, limit)
			}
		}
	}
}

// TestLoadThenUpdate: a loaded index cuts its buckets from one array per
// table; inserts and deletes after loading must not disturb neighbours.
func TestLoadThenUpdate(t *testing.T) {
	file := hostile.SimhashIndex(3, 6, 3000)
	x := NewIndex(3, nil)
	if _, err := x.ReadFrom(bytes.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	ref := scanIndex{}
	body := file[headerSize : len(file)-4]
	for i := 0; i < len(body); i += 16 {
		ref[le64(body[i:])] = le64(body[i+8:])
	}
	for i := range uint64(2000) {
		id, fp := 5000+i, ref[1+i]^(1<<(i%64))
		x.Insert(id, fp)
		ref[id] = fp
		if i%3 == 0 {
			x.Delete(1 + i)
			delete(ref, 1+i)
		}
	}
	for i := uint64(0); i < 6000; i += 7 {
		fp, ok := ref[i]
		if !ok {
			continue
		}
		for _, q := range []uint64{fp, fp ^ 3, fp ^ 0x8000000000000101} {
			if diff := gocmp.Diff(ref.near(q, 3), x.AppendNear(nil, q, 3), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("AppendNear(%#x) after load and updates mismatch (-scan +index):\n%s", q, diff)
			}
		}
	}
}

func le64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// TestReadFromLinear: loading costs linear time and memory in the entries.
func TestReadFromLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	sizes := []int{1 << 13, 1 << 14, 1 << 15, 1 << 16}
	for _, l := range []struct{ k, blocks int }{{3, 4}, {2, 11}} {
		in := map[int][]byte{}
		for _, n := range sizes {
			in[n] = hostile.SimhashIndex(l.k, l.blocks, n)
		}
		// CPU time only with a generous bound: past the caches, a
		// doubling of a hash map's work costs more than twice as much.
		hostile.Linear(t, hostile.Growth{Sizes: sizes, Repeat: 5, MaxCPURatio: 4}, func(n int) int {
			x := NewIndex(0, nil)
			if _, err := x.ReadFrom(bytes.NewReader(in[n])); err != nil {
				t.Fatal(err)
			}
			return x.Len()
		})
	}
}
