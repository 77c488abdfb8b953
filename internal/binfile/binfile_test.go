package binfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"testing"
)

const magic = "UDTEST\n"

func sample(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b, magic, 2)
	w.Uvarint(300)
	w.Int(-5)
	w.Uint64(math.MaxUint64)
	w.Float64(0.25)
	w.Bool(true)
	w.String("http://example.com/")
	w.String("")
	n, err := w.Close()
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("Close = %d, %v; wrote %d", n, err, b.Len())
	}
	return b.Bytes()
}

func read(r io.Reader) (vals []any, err error) {
	x, v, err := NewReader(r, "binfile: test", magic, 2)
	if err != nil {
		return nil, err
	}
	vals = append(vals, v, x.Uvarint(), x.Int(), x.Uint64(), x.Float64(), x.Bool(),
		x.String(64, "url"), x.String(64, "empty"))
	if err := x.Close(); err != nil {
		return nil, err
	}
	return vals, x.AtEOF()
}

func TestRoundTrip(t *testing.T) {
	data := sample(t)
	for _, r := range []io.Reader{bytes.NewReader(data), bufio.NewReader(bytes.NewReader(data)), struct{ io.Reader }{bytes.NewReader(data)}} {
		vals, err := read(r)
		if err != nil {
			t.Fatal(err)
		}
		want := []any{uint64(2), uint64(300), int64(-5), uint64(math.MaxUint64), 0.25, true, "http://example.com/", ""}
		for i := range want {
			if vals[i] != want[i] {
				t.Errorf("value %d = %v, want %v", i, vals[i], want[i])
			}
		}
	}
}

// Every truncation is io.ErrUnexpectedEOF (or a bad magic for an empty input), and every
// single-byte change is an error: the checksum covers every byte.
func TestDamaged(t *testing.T) {
	data := sample(t)
	for n := range len(data) {
		_, err := read(bytes.NewReader(data[:n]))
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("truncated to %d bytes: %v, want io.ErrUnexpectedEOF", n, err)
		}
	}
	for i := range data {
		d := bytes.Clone(data)
		d[i] ^= 0x10
		if _, err := read(bytes.NewReader(d)); err == nil {
			t.Errorf("byte %d changed: no error", i)
		}
	}
	if _, err := read(bytes.NewReader(append(bytes.Clone(data), 0))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("trailing byte: %v, want ErrCorrupt", err)
	}
}

func TestLimits(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, magic, 1)
	w.String("0123456789")
	w.Uvarint(1 << 40)
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	x, _, err := NewReader(bytes.NewReader(b.Bytes()), "binfile: test", magic, 1)
	if err != nil {
		t.Fatal(err)
	}
	x.String(5, "name")
	var e *Error
	if err := x.Err(); !errors.Is(err, ErrLimit) || !errors.As(err, &e) || e.Offset != int64(len(magic)+1) {
		t.Errorf("long string: %v, want ErrLimit at byte %d", err, len(magic)+1)
	}

	x, _, _ = NewReader(bytes.NewReader(b.Bytes()), "binfile: test", magic, 1)
	x.String(10, "name")
	if x.Count(1000, "entries"); !errors.Is(x.Err(), ErrLimit) {
		t.Errorf("large count: %v, want ErrLimit", x.Err())
	}
	if _, _, err := NewReader(bytes.NewReader(b.Bytes()), "binfile: test", magic, 0); !errors.Is(err, ErrVersion) {
		t.Errorf("version 1 with max 0: %v, want ErrVersion", err)
	}
	if _, _, err := NewReader(bytes.NewReader(b.Bytes()), "binfile: test", "OTHER\n\n", 1); !errors.Is(err, ErrFormat) {
		t.Errorf("other magic: %v, want ErrFormat", err)
	}
}

func FuzzReader(f *testing.F) {
	var b bytes.Buffer
	w := NewWriter(&b, magic, 2)
	w.String("abc")
	w.Uvarint(7)
	w.Close()
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		x, _, err := NewReader(bytes.NewReader(data), "binfile: test", magic, 2)
		if err != nil {
			return
		}
		x.String(1<<10, "s")
		x.Count(1<<20, "n")
		x.Close()
	})
}
