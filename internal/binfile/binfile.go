// Package binfile writes and reads the library's saved states: a magic, a version, a body of
// varints, fixed-width integers and length-prefixed strings, and a CRC-32C (Castagnoli) of
// everything before it. A Reader is exact and bounded: it fails on a wrong magic or version, on
// input that ends early, on a count or a length over the limit its caller gives, on a checksum
// that does not hold and on bytes after the checksum, and it allocates with the bytes it has read,
// never with a count the input claims.
//
// Writers and Readers keep the first error and ignore later calls, so that a codec writes its
// fields in a row and checks once (the error handling of bufio.Scanner).
package binfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// Sentinel causes of an *Error.
var (
	ErrFormat  = errors.New("not a saved state of this kind") // wrong magic
	ErrVersion = errors.New("unsupported version")
	ErrCorrupt = errors.New("corrupt")        // a value out of range, a bad checksum, trailing bytes
	ErrLimit   = errors.New("over the limit") // a count or length larger than the reader allows
)

// An Error is a problem with saved input: what was read (Detail) at which byte (Offset), and
// its cause, one of the sentinels above, io.ErrUnexpectedEOF or the reader's own error. It is a
// plain value.
type Error struct {
	Prefix string // the package and kind of state, "learn: online state"
	Offset int64
	Detail string
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: at byte %d: %s: %v", e.Prefix, e.Offset, e.Detail, e.Err)
}

// Unwrap returns the cause, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A Writer writes one saved state to an io.Writer. Make one with NewWriter; it is not safe for
// concurrent use.
type Writer struct {
	bw  *bufio.Writer
	crc hash.Hash32
	n   int64
	err error
	buf [binary.MaxVarintLen64]byte
}

// NewWriter returns a Writer that has written magic and version.
func NewWriter(w io.Writer, magic string, version uint64) *Writer {
	x := &Writer{bw: bufio.NewWriter(w), crc: crc32.New(castagnoli)}
	x.write([]byte(magic))
	x.Uvarint(version)
	return x
}

func (x *Writer) write(p []byte) {
	if x.err != nil {
		return
	}
	m, err := x.bw.Write(p)
	x.crc.Write(p[:m])
	x.n += int64(m)
	x.err = err
}

// Uvarint writes v as an unsigned varint.
func (x *Writer) Uvarint(v uint64) { x.write(binary.AppendUvarint(x.buf[:0], v)) }

// Int writes v as a signed varint.
func (x *Writer) Int(v int64) { x.write(binary.AppendVarint(x.buf[:0], v)) }

// Uint64 writes v in 8 bytes, little-endian: for hashes and fingerprints, which varints would
// lengthen.
func (x *Writer) Uint64(v uint64) { x.write(binary.LittleEndian.AppendUint64(x.buf[:0], v)) }

// Float64 writes the bits of v.
func (x *Writer) Float64(v float64) { x.Uint64(math.Float64bits(v)) }

// Bool writes v as one byte.
func (x *Writer) Bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	x.write([]byte{b})
}

// String writes the length of s and its bytes.
func (x *Writer) String(s string) {
	x.Uvarint(uint64(len(s)))
	if x.err == nil && len(s) > 0 {
		m, err := x.bw.WriteString(s)
		x.crc.Write([]byte(s[:m]))
		x.n += int64(m)
		x.err = err
	}
}

// Close writes the checksum and flushes, and returns the bytes written and the first error.
// The Writer is not usable afterwards.
func (x *Writer) Close() (int64, error) {
	if x.err == nil {
		sum := binary.LittleEndian.AppendUint32(nil, x.crc.Sum32())
		m, err := x.bw.Write(sum)
		x.n += int64(m)
		x.err = err
	}
	if x.err == nil {
		x.err = x.bw.Flush()
	}
	return x.n, x.err
}

// A Reader reads one saved state. Make one with NewReader; it is not safe for concurrent use.
type Reader struct {
	r      byteReader
	crc    hash.Hash32
	n      int64
	err    error
	prefix string
	buf    []byte
}

type byteReader interface {
	io.Reader
	io.ByteReader
}

// oneByteReader reads bytes for varints one Read at a time, so that a Reader never reads past
// the checksum of a state embedded in a longer stream.
type oneByteReader struct {
	io.Reader
	b [1]byte
}

func (c *oneByteReader) ReadByte() (byte, error) {
	_, err := io.ReadFull(c.Reader, c.b[:])
	return c.b[0], err
}

// NewReader reads magic and the version from r and returns the Reader with the version. A
// version above maxVersion is ErrVersion. The Reader reads no byte past the checksum: give it a
// *bufio.Reader (or any reader that is an io.ByteReader too) for speed; other readers are read
// a byte at a time for varints. prefix names the state in errors ("learn: online state").
func NewReader(r io.Reader, prefix, magic string, maxVersion uint64) (*Reader, uint64, error) {
	x := &Reader{crc: crc32.New(castagnoli), prefix: prefix}
	if br, ok := r.(byteReader); ok {
		x.r = br
	} else {
		x.r = &oneByteReader{Reader: r}
	}
	m := make([]byte, len(magic))
	x.full(m, "reading the magic")
	if x.err != nil {
		return nil, 0, x.err
	}
	if string(m) != magic {
		x.fail(0, fmt.Sprintf("magic %q", m), ErrFormat)
		return nil, 0, x.err
	}
	v := x.Uvarint()
	if x.err == nil && (v == 0 || v > maxVersion) {
		x.fail(int64(len(magic)), fmt.Sprintf("version %d", v), ErrVersion)
	}
	if x.err != nil {
		return nil, 0, x.err
	}
	return x, v, nil
}

func (x *Reader) fail(off int64, detail string, err error) {
	if x.err != nil {
		return
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	x.err = &Error{Prefix: x.prefix, Offset: off, Detail: detail, Err: err}
}

// Fail records a problem that the caller found in a value it read (ErrCorrupt, ErrLimit) at the
// current offset, unless an error is recorded already.
func (x *Reader) Fail(detail string, err error) { x.fail(x.n, detail, err) }

// Err returns the first error.
func (x *Reader) Err() error { return x.err }

// Offset returns the bytes read so far.
func (x *Reader) Offset() int64 { return x.n }

func (x *Reader) full(p []byte, what string) {
	if x.err != nil {
		return
	}
	m, err := io.ReadFull(x.r, p)
	x.crc.Write(p[:m])
	x.n += int64(m)
	if err != nil {
		x.fail(x.n, what, err)
	}
}

type crcByteReader struct{ x *Reader }

func (c crcByteReader) ReadByte() (byte, error) {
	b, err := c.x.r.ReadByte()
	if err == nil {
		c.x.crc.Write([]byte{b})
		c.x.n++
	}
	return b, err
}

// Uvarint reads an unsigned varint.
func (x *Reader) Uvarint() uint64 { return readVarint(x, binary.ReadUvarint) }

// Int reads a signed varint.
func (x *Reader) Int() int64 { return readVarint(x, binary.ReadVarint) }

// readVarint reads a varint with read (binary.ReadUvarint or ReadVarint) through the checksum;
// a varint that overflows is ErrCorrupt.
func readVarint[T uint64 | int64](x *Reader, read func(io.ByteReader) (T, error)) T {
	if x.err != nil {
		return 0
	}
	off := x.n
	v, err := read(crcByteReader{x})
	if err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		x.fail(off, "reading a varint", err)
		return 0
	}
	return v
}

// Count reads an unsigned varint that counts something and checks that it is at most limit; what
// names it in the error.
func (x *Reader) Count(limit int, what string) int {
	off := x.n
	v := x.Uvarint()
	if x.err == nil && v > uint64(limit) {
		x.fail(off, fmt.Sprintf("%s %d, limit %d", what, v, limit), ErrLimit)
		return 0
	}
	return int(v)
}

// Uint64 reads 8 bytes, little-endian.
func (x *Reader) Uint64() uint64 {
	var b [8]byte
	x.full(b[:], "reading a 64-bit value")
	if x.err != nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Float64 reads a float64's bits; NaN and infinities are ErrCorrupt.
func (x *Reader) Float64() float64 {
	off := x.n
	f := math.Float64frombits(x.Uint64())
	if x.err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		x.fail(off, fmt.Sprintf("number %v", f), ErrCorrupt)
		return 0
	}
	return f
}

// Bool reads a byte that must be 0 or 1.
func (x *Reader) Bool() bool {
	var b [1]byte
	off := x.n
	x.full(b[:], "reading a flag")
	if x.err == nil && b[0] > 1 {
		x.fail(off, fmt.Sprintf("flag %d", b[0]), ErrCorrupt)
	}
	return b[0] == 1
}

// String reads a length-prefixed string of at most maxLen bytes.
func (x *Reader) String(maxLen int, what string) string {
	n := x.Count(maxLen, what+" length")
	if x.err != nil || n == 0 {
		return ""
	}
	if cap(x.buf) < n {
		x.buf = make([]byte, n)
	}
	b := x.buf[:n]
	x.full(b, "reading "+what)
	if x.err != nil {
		return ""
	}
	return string(b)
}

// Close reads the checksum and checks it, and reports the first error. It reads nothing after
// the checksum; a caller that owns the whole input checks that it ends there with AtEOF.
func (x *Reader) Close() error {
	if x.err != nil {
		return x.err
	}
	want := x.crc.Sum32()
	var b [4]byte
	off := x.n
	x.full(b[:], "reading the checksum")
	if x.err == nil && binary.LittleEndian.Uint32(b[:]) != want {
		x.fail(off, "checksum", ErrCorrupt)
	}
	return x.err
}

// AtEOF reports, after Close, an error if r holds more bytes: a saved state that is a whole
// file is exact.
func (x *Reader) AtEOF() error {
	if x.err != nil {
		return x.err
	}
	if _, err := x.r.ReadByte(); err == nil {
		x.fail(x.n, "bytes after the checksum", ErrCorrupt)
	} else if !errors.Is(err, io.EOF) {
		x.fail(x.n, "reading past the checksum", err)
	}
	return x.err
}
