package simhash

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
)

// The saved form of an Index, all integers little-endian:
//
//	magic    8 bytes  "UDSIMHX\n"
//	version  uint32   1
//	k        uint32   0..31
//	blocks   uint32   B, with C(B, k) <= 1024 tables
//	count    uint64   number of entries
//	entries  count x (id uint64, fp uint64), ids strictly increasing
//	crc      uint32   CRC-32C (Castagnoli) of everything before it
//
// Entries sorted by id make the encoding of a set of fingerprints unique,
// and let the decoder reject duplicate ids without a second pass.
const (
	indexMagic   = "UDSIMHX\n"
	indexVersion = 1
	headerSize   = 8 + 4 + 4 + 4 + 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var (
	// ErrFormat means the input is not a saved simhash Index (bad magic).
	ErrFormat = errors.New("simhash: not a saved index")
	// ErrVersion means the input is a saved Index of an unsupported version.
	ErrVersion = errors.New("simhash: unsupported index version")
	// ErrCorrupt means the input is damaged: a bad checksum, a field out of
	// range, or ids out of order.
	ErrCorrupt = errors.New("simhash: corrupt index")
	// ErrLimit means the input is a well-formed saved Index whose table
	// layout exceeds the loading index's IndexOptions.MaxLoadTables.
	ErrLimit = errors.New("simhash: index layout over the load limit")
)

// DecodeError is returned by Index.ReadFrom for input it cannot load. Err is
// ErrFormat, ErrVersion, ErrCorrupt, ErrLimit or io.ErrUnexpectedEOF, or the reader's
// own error; test for them with errors.Is. A DecodeError is a plain value.
type DecodeError struct {
	Offset int64  // byte offset of the problem in the input
	Detail string // what was wrong, for people
	Err    error
}

// Error describes the problem with its byte offset.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("simhash: decoding index at byte %d: %s: %v", e.Offset, e.Detail, e.Err)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *DecodeError) Unwrap() error { return e.Err }

// WriteTo writes the index (its K, block layout and every id with its
// fingerprint) to w in the versioned binary form that ReadFrom loads. It
// implements io.WriterTo.
func (x *Index) WriteTo(w io.Writer) (int64, error) {
	x.mu.RLock()
	k, blocks := DefaultK, blocksFor(DefaultK, 0)
	if x.inited {
		k, blocks = x.k, x.blocks
	}
	ids := make([]uint64, 0, len(x.fps))
	for id := range x.fps {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fps := make([]uint64, len(ids))
	for i, id := range ids {
		fps[i] = x.fps[id]
	}
	x.mu.RUnlock()

	bw := bufio.NewWriter(w)
	crc := crc32.New(castagnoli)
	out := io.MultiWriter(bw, crc)
	var n int64
	var buf [headerSize]byte
	copy(buf[:8], indexMagic)
	binary.LittleEndian.PutUint32(buf[8:], indexVersion)
	binary.LittleEndian.PutUint32(buf[12:], uint32(k))
	binary.LittleEndian.PutUint32(buf[16:], uint32(blocks))
	binary.LittleEndian.PutUint64(buf[20:], uint64(len(ids)))
	m, err := out.Write(buf[:])
	n += int64(m)
	if err != nil {
		return n, err
	}
	var e [16]byte
	for i, id := range ids {
		binary.LittleEndian.PutUint64(e[:8], id)
		binary.LittleEndian.PutUint64(e[8:], fps[i])
		m, err := out.Write(e[:])
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	binary.LittleEndian.PutUint32(e[:4], crc.Sum32())
	m, err = bw.Write(e[:4])
	n += int64(m)
	if err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// ReadFrom replaces the index's contents, K and tables with an index saved by
// WriteTo, reading exactly the saved bytes from r. It implements
// io.ReaderFrom. On error the index is unchanged and the error is a
// *DecodeError. A saved index whose layout has more tables than the
// index's IndexOptions.MaxLoadTables (by default DefaultMaxLoadTables) fails
// with ErrLimit before its entries are read. Memory grows with the bytes
// actually read, never with the count the header claims, and the tables are
// built only once the checksum holds: loading n entries into T tables
// allocates about 16 n (T + 1) bytes and the id map, and takes O(n T) time.
func (x *Index) ReadFrom(r io.Reader) (int64, error) {
	x.mu.RLock()
	limit := x.maxLoad
	if limit == 0 {
		limit = DefaultMaxLoadTables
		if x.inited {
			limit = max(limit, len(x.tables))
		}
	}
	x.mu.RUnlock()
	cr := &countReader{r: r}
	crc := crc32.New(castagnoli)
	read := func(p []byte) error {
		_, err := io.ReadFull(cr, p)
		crc.Write(p)
		return err
	}
	fail := func(off int64, detail string, err error) (int64, error) {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return cr.n, &DecodeError{Offset: off, Detail: detail, Err: err}
	}

	var h [headerSize]byte
	if err := read(h[:]); err != nil {
		return fail(cr.n, "reading header", err)
	}
	if string(h[:8]) != indexMagic {
		return fail(0, fmt.Sprintf("magic %q", h[:8]), ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != indexVersion {
		return fail(8, fmt.Sprintf("version %d", v), ErrVersion)
	}
	k := binary.LittleEndian.Uint32(h[12:])
	if k > maxK {
		return fail(12, fmt.Sprintf("k = %d", k), ErrCorrupt)
	}
	blocks := binary.LittleEndian.Uint32(h[16:])
	if !validBlocks(int(k), int(blocks)) {
		return fail(16, fmt.Sprintf("%d blocks for k = %d", blocks, k), ErrCorrupt)
	}
	if t := choose(int(blocks), int(k)); t > limit {
		return fail(16, fmt.Sprintf("%d blocks for k = %d make %d tables, limit %d", blocks, k, t, limit), ErrLimit)
	}
	count := binary.LittleEndian.Uint64(h[20:])

	// Read entries in chunks straight from r (no read-ahead past the end);
	// the entry list grows with the chunks read, not with count.
	const chunk = 4096
	buf := make([]byte, 16*min(count, chunk))
	var es []entry
	var prev uint64
	for i := uint64(0); i < count; {
		m := min(count-i, chunk)
		off := int64(headerSize) + int64(i)*16
		if err := read(buf[:16*m]); err != nil {
			return fail(off, fmt.Sprintf("reading entries %d..%d of %d", i, i+m, count), err)
		}
		for j := range m {
			e := buf[16*j : 16*j+16]
			id := binary.LittleEndian.Uint64(e[:8])
			if i+j > 0 && id <= prev {
				return fail(off+int64(16*j), fmt.Sprintf("id %d after id %d", id, prev), ErrCorrupt)
			}
			prev = id
			es = append(es, entry{fp: binary.LittleEndian.Uint64(e[8:]), id: id})
		}
		i += m
	}
	want := crc.Sum32()
	off := cr.n
	var c [4]byte
	if _, err := io.ReadFull(cr, c[:]); err != nil {
		return fail(off, "reading checksum", err)
	}
	if got := binary.LittleEndian.Uint32(c[:]); got != want {
		return fail(off, fmt.Sprintf("checksum %#08x, computed %#08x", got, want), ErrCorrupt)
	}
	nx := &Index{}
	nx.init(int(k), int(blocks))
	nx.load(es)
	x.mu.Lock()
	x.inited, x.k, x.blocks, x.fps, x.tables, x.dir = true, nx.k, nx.blocks, nx.fps, nx.tables, nx.dir
	x.blockLo, x.blockSize = nx.blockLo, nx.blockSize
	x.mu.Unlock()
	return cr.n, nil
}

// validBlocks reports whether B blocks are a layout NewIndex could make for k.
func validBlocks(k, b int) bool {
	if k == 0 {
		return b == 1
	}
	return b >= k+1 && b <= 64 && choose(b, k) <= maxTables
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
