package simhash

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	gocmp "github.com/google/go-cmp/cmp"
)

// scanIndex is the slow reference: a map scanned linearly.
type scanIndex map[uint64]uint64

func (s scanIndex) near(fp uint64, k int) []Match {
	var ms []Match
	for id, f := range s {
		if d := Distance(f, fp); d <= k {
			ms = append(ms, Match{ID: id, FP: f, Distance: d})
		}
	}
	slices.SortFunc(ms, func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ID, b.ID))
	})
	return ms
}

// flip returns fp with d distinct random bits flipped.
func flip(r *rand.Rand, fp uint64, d int) uint64 {
	for _, i := range r.Perm(64)[:d] {
		fp ^= 1 << i
	}
	return fp
}

// clustered returns n fingerprints in clusters of near neighbours, so that
// queries have many matches at every distance up to maxD.
func clustered(r *rand.Rand, n, maxD int) []uint64 {
	return clusteredBy(r, n, maxD, 8)
}

// clusteredBy is clustered with clusters of size fingerprints.
func clusteredBy(r *rand.Rand, n, maxD, size int) []uint64 {
	fps := make([]uint64, n)
	var base uint64
	for i := range fps {
		if i%size == 0 {
			base = r.Uint64()
		}
		fps[i] = flip(r, base, r.IntN(maxD+1))
	}
	return fps
}

func TestIndexMatchesScan(t *testing.T) {
	n, queries := 3000, 1000
	if testing.Short() || raceEnabled {
		n, queries = 1000, 300
	}
	tests := []struct {
		k, tables int
	}{
		{0, 0},  // exact matches: one table keyed by the whole fingerprint
		{1, 0},  // 2 tables of 32 bits
		{2, 0},  // 3 tables
		{3, 0},  // Manku's k=3 with the default 4 tables, each keyed by one 16-bit block
		{3, 10}, // 10 tables: 5 blocks, choose 2
		{3, 20}, // 20 tables: 6 blocks, choose 3
		{4, 0},  // 5 tables
		{6, 0},  // 7 tables of 9-10 bit blocks
		{6, 30}, // 28 tables: 8 blocks, choose 2
	}
	for _, tt := range tests {
		r := rand.New(rand.NewPCG(uint64(tt.k), uint64(tt.tables)))
		x := NewIndex(tt.k, &IndexOptions{Tables: tt.tables})
		ref := scanIndex{}
		fps := clustered(r, n, tt.k+2)
		for i, fp := range fps {
			x.Insert(uint64(i), fp)
			ref[uint64(i)] = fp
		}
		// Streaming changes: deletes, re-inserts under a new fingerprint,
		// re-inserts of the same fingerprint, deletes of missing ids.
		for i := 0; i < n; i += 7 {
			id := uint64(r.IntN(n + 100))
			switch r.IntN(3) {
			case 0:
				_, had := ref[id]
				if got := x.Delete(id); got != had {
					t.Fatalf("k=%d: Delete(%d) = %v, want %v", tt.k, id, got, had)
				}
				delete(ref, id)
			case 1:
				fp := flip(r, fps[r.IntN(n)], r.IntN(tt.k+1))
				x.Insert(id, fp)
				ref[id] = fp
			case 2:
				if fp, ok := ref[id]; ok {
					x.Insert(id, fp)
				}
			}
		}
		if x.Len() != len(ref) {
			t.Fatalf("k=%d: Len = %d, want %d", tt.k, x.Len(), len(ref))
		}
		var got []Match
		for q := range queries {
			fp := r.Uint64()
			if q%4 != 0 {
				fp = flip(r, fps[r.IntN(n)], r.IntN(tt.k+2))
			}
			for k := range tt.k + 1 {
				want := ref.near(fp, k)
				got = x.AppendNear(got[:0], fp, k)
				if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("k=%d tables=%d: AppendNear(%#x, %d) mismatch (-want +got):\n%s", tt.k, tt.tables, fp, k, diff)
				}
				m, ok := x.Near(fp, k)
				if ok != (len(want) > 0) || ok && m != want[0] {
					t.Fatalf("k=%d: Near(%#x, %d) = %v, %v; want %v", tt.k, fp, k, m, ok, want)
				}
			}
		}
	}
}

func TestIndexTables(t *testing.T) {
	tests := []struct {
		k, tables, want int
	}{
		{0, 0, 1},      // k=0: one table keyed by the whole fingerprint
		{0, 50, 1},     // k=0 needs no more
		{1, 0, 2},      // K+1 tables by default
		{3, 0, 4},      // Manku k=3: 4 blocks of 16 bits, 4 tables
		{3, 9, 4},      // 10 tables do not fit in 9
		{3, 10, 10},    // 5 blocks choose 2
		{3, 19, 10},    // 20 do not fit in 19
		{3, 20, 20},    // 6 blocks choose 3
		{3, 5000, 969}, // capped at 1024 tables: C(19, 3) = 969
		{6, 0, 7},      // 7 blocks
	}
	for _, tt := range tests {
		x := NewIndex(tt.k, &IndexOptions{Tables: tt.tables})
		if got := x.Tables(); got != tt.want {
			t.Errorf("NewIndex(%d, Tables: %d).Tables() = %d, want %d", tt.k, tt.tables, got, tt.want)
		}
	}
}

func TestIndexZeroValue(t *testing.T) {
	var x Index
	if x.K() != DefaultK || x.Len() != 0 {
		t.Fatalf("zero Index: K = %d, Len = %d", x.K(), x.Len())
	}
	if _, ok := x.Near(1, 3); ok {
		t.Fatal("zero Index found a match")
	}
	x.Insert(7, 0b111)
	if m, ok := x.Near(0, 3); !ok || m.ID != 7 || m.Distance != 3 {
		t.Fatalf("Near = %v, %v", m, ok)
	}
	if x.Tables() != 4 {
		t.Fatalf("zero Index has %d tables, want 4", x.Tables())
	}
}

func TestIndexPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"k above K", func() { NewIndex(2, nil).Near(0, 3) }},              // query wider than the index
		{"negative k", func() { NewIndex(2, nil).AppendNear(nil, 0, -1) }}, // negative distance
		{"NewIndex k=32", func() { NewIndex(32, nil) }},                    // beyond maxK
		{"NewIndex k=-1", func() { NewIndex(-1, nil) }},                    // negative K
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tt.name)
				}
			}()
			tt.f()
		}()
	}
}

func TestIndexAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := NewIndex(3, nil)
	fps := clustered(r, 2000, 3)
	for i, fp := range fps {
		x.Insert(uint64(i), fp)
	}
	dst := make([]Match, 0, 64)
	if n := testing.AllocsPerRun(200, func() { dst = x.AppendNear(dst[:0], fps[7], 3) }); n != 0 {
		t.Errorf("AppendNear allocates %v times per run, want 0", n)
	}
	if n := testing.AllocsPerRun(200, func() { x.Near(fps[9], 3) }); n != 0 {
		t.Errorf("Near allocates %v times per run, want 0", n)
	}
}

// TestIndexConcurrent runs queries in parallel with inserts and deletes; run
// with -race.
func TestIndexConcurrent(t *testing.T) {
	x := NewIndex(3, nil)
	r := rand.New(rand.NewPCG(7, 8))
	fps := clustered(r, 2000, 3)
	for i, fp := range fps[:1000] {
		x.Insert(uint64(i), fp)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var dst []Match
			for i := range 2000 {
				dst = x.AppendNear(dst[:0], fps[(i*7+g)%len(fps)], 3)
				x.Near(fps[i%len(fps)], 2)
			}
		})
	}
	wg.Go(func() {
		for i, fp := range fps[1000:] {
			x.Insert(uint64(1000+i), fp)
			x.Delete(uint64(i))
		}
	})
	wg.Wait()
	if x.Len() != 1000 {
		t.Fatalf("Len = %d, want 1000", x.Len())
	}
}

func TestIndexRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, opts := range []struct{ k, tables int }{{3, 0}, {3, 20}, {0, 0}, {6, 0}} {
		x := NewIndex(opts.k, &IndexOptions{Tables: opts.tables})
		fps := clustered(r, 700, opts.k+1)
		for i, fp := range fps {
			x.Insert(uint64(i)*31, fp)
		}
		var buf bytes.Buffer
		n, err := x.WriteTo(&buf)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("WriteTo = %d, %v; wrote %d", n, err, buf.Len())
		}
		saved := bytes.Clone(buf.Bytes())
		buf.WriteString("trailing bytes are left unread")
		var y Index
		m, err := y.ReadFrom(&buf)
		if err != nil || m != n {
			t.Fatalf("ReadFrom = %d, %v; want %d", m, err, n)
		}
		if y.K() != x.K() || y.Tables() != x.Tables() || y.Len() != x.Len() {
			t.Fatalf("loaded K=%d tables=%d len=%d, saved K=%d tables=%d len=%d", y.K(), y.Tables(), y.Len(), x.K(), x.Tables(), x.Len())
		}
		for _, fp := range fps[:100] {
			a := x.AppendNear(nil, fp, opts.k)
			b := y.AppendNear(nil, fp, opts.k)
			if diff := gocmp.Diff(a, b); diff != "" {
				t.Fatalf("query after load mismatch (-saved +loaded):\n%s", diff)
			}
		}
		var again bytes.Buffer
		y.WriteTo(&again)
		if !bytes.Equal(saved, again.Bytes()) {
			t.Fatal("re-encoding a loaded index differs from the original encoding")
		}
	}
}

// encodeRaw builds a saved index by hand, with a correct checksum.
func encodeRaw(magic string, version, k, blocks uint32, count uint64, entries [][2]uint64) []byte {
	var b []byte
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint32(b, k)
	b = binary.LittleEndian.AppendUint32(b, blocks)
	b = binary.LittleEndian.AppendUint64(b, count)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint64(b, e[0])
		b = binary.LittleEndian.AppendUint64(b, e[1])
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func TestIndexDecodeErrors(t *testing.T) {
	good := encodeRaw(indexMagic, 1, 3, 4, 2, [][2]uint64{{1, 10}, {2, 20}})
	flipped := bytes.Clone(good)
	flipped[headerSize+3] ^= 1
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, io.ErrUnexpectedEOF},                                                                // no header
		{"short header", good[:10], io.ErrUnexpectedEOF},                                                   // header cut
		{"bad magic", encodeRaw("NOTANIDX", 1, 3, 4, 0, nil), ErrFormat},                                   // wrong file type
		{"version 2", encodeRaw(indexMagic, 2, 3, 4, 0, nil), ErrVersion},                                  // future version
		{"k 32", encodeRaw(indexMagic, 1, 32, 33, 0, nil), ErrCorrupt},                                     // k beyond maxK
		{"too few blocks", encodeRaw(indexMagic, 1, 3, 3, 0, nil), ErrCorrupt},                             // B <= k cannot find matches
		{"too many tables", encodeRaw(indexMagic, 1, 3, 64, 0, nil), ErrCorrupt},                           // C(64,3) tables
		{"k0 blocks", encodeRaw(indexMagic, 1, 0, 2, 0, nil), ErrCorrupt},                                  // k=0 uses one block
		{"entries cut", good[:len(good)-10], io.ErrUnexpectedEOF},                                          // truncated entries
		{"checksum cut", good[:len(good)-2], io.ErrUnexpectedEOF},                                          // truncated checksum
		{"flipped bit", flipped, ErrCorrupt},                                                               // checksum mismatch
		{"ids out of order", encodeRaw(indexMagic, 1, 3, 4, 2, [][2]uint64{{2, 10}, {1, 20}}), ErrCorrupt}, // not sorted
		{"duplicate id", encodeRaw(indexMagic, 1, 3, 4, 2, [][2]uint64{{2, 10}, {2, 20}}), ErrCorrupt},     // same id twice
		{"huge count", encodeRaw(indexMagic, 1, 3, 4, 1<<62, nil), io.ErrUnexpectedEOF},                    // claims more than it has
	}
	for _, tt := range tests {
		x := NewIndex(1, nil)
		x.Insert(99, 99)
		_, err := x.ReadFrom(bytes.NewReader(tt.in))
		var de *DecodeError
		if !errors.Is(err, tt.want) || !errors.As(err, &de) {
			t.Errorf("%s: ReadFrom error = %v, want %v in a *DecodeError", tt.name, err, tt.want)
		}
		if x.K() != 1 || x.Len() != 1 {
			t.Errorf("%s: failed ReadFrom changed the index", tt.name)
		}
	}
	var x Index
	if _, err := x.ReadFrom(bytes.NewReader(good)); err != nil || x.Len() != 2 {
		t.Fatalf("good input: %v, Len %d", err, x.Len())
	}
}
