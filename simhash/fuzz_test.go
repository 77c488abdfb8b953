package simhash

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/undust/undust/internal/hostile"
)

// FuzzReadFrom feeds arbitrary bytes to the decoder. Properties: no panic;
// an error is a *DecodeError wrapping one of the documented causes and
// leaves the index unchanged; a successful load re-encodes to exactly the
// bytes it consumed, and answers queries as a scan of its entries does.
func FuzzReadFrom(f *testing.F) {
	for _, opts := range []struct{ k, tables, n int }{{3, 0, 0}, {3, 0, 5}, {0, 0, 3}, {2, 10, 4}, {6, 0, 2}} {
		x := NewIndex(opts.k, &IndexOptions{Tables: opts.tables})
		for i := range opts.n {
			x.Insert(uint64(i*i+1), uint64(i)*0x9e3779b97f4a7c15)
		}
		var buf bytes.Buffer
		x.WriteTo(&buf)
		f.Add(buf.Bytes())
		b := buf.Bytes()
		f.Add(b[:len(b)/2])
	}
	f.Add(encodeRaw(indexMagic, 1, 3, 4, 2, [][2]uint64{{2, 10}, {1, 20}}))
	f.Add(encodeRaw(indexMagic, 1, 3, 4, 1<<40, nil))
	f.Add([]byte("UDSIMHX\n"))
	// Crafted files: the largest layouts, many entries, truncations.
	f.Add(hostile.SimhashIndex(2, 45, 3))
	f.Add(hostile.SimhashIndex(3, 19, 2))
	f.Add(hostile.SimhashIndex(31, 64, 1))
	f.Add(hostile.SimhashIndex(3, 4, 2000))
	for _, cut := range hostile.Truncations(hostile.SimhashIndex(2, 11, 40), 6) {
		f.Add(cut)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// The limit admits every layout, so that the decoder of each is
		// fuzzed; inputs are small.
		x := NewIndex(1, &IndexOptions{MaxLoadTables: maxTables})
		x.Insert(5, 5)
		n, err := x.ReadFrom(bytes.NewReader(in))
		if n > int64(len(in)) {
			t.Fatalf("ReadFrom claims %d bytes of %d", n, len(in))
		}
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrLimit) {
				t.Fatalf("error %v wraps no documented cause", err)
			}
			if x.K() != 1 || x.Len() != 1 {
				t.Fatal("failed ReadFrom changed the index")
			}
			return
		}
		var out bytes.Buffer
		if _, err := x.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in[:n]) {
			t.Fatalf("re-encoding differs from the %d bytes read", n)
		}
		// Queries agree with a scan of the loaded entries.
		ref := scanIndex{}
		body := in[headerSize : n-4]
		for i := 0; i+16 <= len(body); i += 16 {
			ref[binary.LittleEndian.Uint64(body[i:])] = binary.LittleEndian.Uint64(body[i+8:])
		}
		for _, fp := range ref {
			for _, q := range []uint64{fp, fp ^ 1, fp ^ 0x8000000000000001} {
				got := x.AppendNear(nil, q, x.K())
				if diff := gocmp.Diff(ref.near(q, x.K()), got, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("query mismatch (-scan +index):\n%s", diff)
				}
			}
		}
	})
}

// FuzzSum64 checks the lane-counting Accumulator against the bit-by-bit
// reference, for unit and small integer weights and both tie rules.
func FuzzSum64(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte("\x06\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"), uint8(1))
	f.Add(bytes.Repeat([]byte{0xff, 0, 0x0f, 0xf0, 1, 2, 3, 4}, 300), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, wseed uint8) {
		hs := make([]uint64, len(in)/8)
		for i := range hs {
			hs[i] = binary.LittleEndian.Uint64(in[8*i:])
		}
		for _, tie := range []Tie{TieZero, TieOne} {
			if got, want := sumTie(hs, tie), slowSum(hs, nil, tie); got != want {
				t.Fatalf("tie %d: SumTie = %#x, slow = %#x", tie, got, want)
			}
		}
		ws := make([]float64, len(hs))
		for i := range ws {
			ws[i] = float64(int(in[i]^wseed)%9 - 2) // small integers, some negative
		}
		if got, want := Sum64Weighted(hs, ws), slowSum(hs, ws, TieZero); got != want {
			t.Fatalf("weighted: %#x, slow %#x", got, want)
		}
	})
}

// FuzzIndex runs a program of inserts, deletes and queries decoded from the
// input against the index and a linear scan.
func FuzzIndex(f *testing.F) {
	f.Add(uint8(3), uint8(0), []byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"))
	f.Add(uint8(0), uint8(0), bytes.Repeat([]byte{0, 1, 1, 0, 2, 3}, 40))
	f.Add(uint8(6), uint8(30), bytes.Repeat([]byte{9, 0x80, 7, 1, 2, 0xfe, 0x11}, 60))
	f.Fuzz(func(t *testing.T, k, tables uint8, prog []byte) {
		kk := int(k % 8)
		x := NewIndex(kk, &IndexOptions{Tables: int(tables % 40)})
		ref := scanIndex{}
		var last uint64
		// The program runs twice: on the index built by inserts, then
		// again on that index saved and loaded (whose buckets are cut
		// from one array per table).
		whole := prog
		for pass := 0; pass < 2; pass++ {
			if pass == 1 {
				var buf bytes.Buffer
				if _, err := x.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				if _, err := x.ReadFrom(&buf); err != nil {
					t.Fatalf("reading back a saved index: %v", err)
				}
				prog = whole
			}
			for len(prog) >= 3 {
				op, id, arg := prog[0]%4, uint64(prog[1]%32), prog[2]
				prog = prog[3:]
				// Fingerprints near the previous one, so that matches happen.
				fp := last ^ (uint64(1) << (arg % 64)) ^ uint64(arg>>6)<<(arg%61)
				switch op {
				case 0, 1:
					x.Insert(id, fp)
					ref[id] = fp
					last = fp
				case 2:
					_, had := ref[id]
					if got := x.Delete(id); got != had {
						t.Fatalf("Delete(%d) = %v, want %v", id, got, had)
					}
					delete(ref, id)
				case 3:
					q := int(arg) % (kk + 1)
					got := x.AppendNear(nil, fp, q)
					if diff := gocmp.Diff(ref.near(fp, q), got, cmpopts.EquateEmpty()); diff != "" {
						t.Fatalf("AppendNear(%#x, %d) mismatch (-scan +index):\n%s", fp, q, diff)
					}
				}
			}
			if x.Len() != len(ref) {
				t.Fatalf("Len = %d, want %d", x.Len(), len(ref))
			}
		}
	})
}
