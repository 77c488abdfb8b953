package htmltext

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// The Site file: the magic, a version, the settings, then every group in
// ascending order of its key with its sampled pages in ascending order of
// their URL hash, each with its distinct block keys in ascending order,
// and last the XXH64 of everything before it. Integers are unsigned
// varints, hashes and MinFraction 8 bytes little-endian. Block counts are
// not stored: they are the sums of the pages' keys.
const (
	siteMagic   = "undust htmltext.Site\n"
	siteVersion = 1
)

// Hard limits of a Site file, checked while reading.
const (
	maxFileGroups = 1 << 20
	maxFilePages  = 1 << 20
)

// ErrSiteFile reports a Site file that is not one, is of another version,
// is truncated, corrupt or over its limits; the errors ReadFrom returns
// wrap it.
var ErrSiteFile = errors.New("htmltext: bad site file")

// WriteTo writes what s has learned, with its settings (MinPages,
// MinFraction, SamplePages, MaxGroups and Options.DropHidden and
// MaxBytes), to w in a versioned binary form that [Site.ReadFrom] reads
// back: a Site read from it extracts and goes on learning exactly as s
// does. It implements io.WriterTo. The file takes about 8 bytes per block
// key of a sampled page.
func (s *Site) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var d xxhash.Digest
	d.Reset()
	var n int64
	var buf []byte
	put := func() error {
		d.Write(buf)
		k, err := bw.Write(buf)
		n += int64(k)
		buf = buf[:0]
		return err
	}
	buf = append(buf, siteMagic...)
	buf = binary.AppendUvarint(buf, siteVersion)
	buf = binary.AppendUvarint(buf, uint64(max(s.MinPages, 0)))
	buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(max(s.MinFraction, 0)))
	buf = binary.AppendUvarint(buf, uint64(max(s.SamplePages, 0)))
	buf = binary.AppendUvarint(buf, uint64(max(s.MaxGroups, 0)))
	hidden := byte(0)
	if s.Options.DropHidden {
		hidden = 1
	}
	buf = append(buf, hidden)
	buf = binary.AppendVarint(buf, int64(s.Options.MaxBytes))
	keys := make([]uint64, 0, len(s.groups))
	for k := range s.groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		g := s.groups[k]
		pages := slices.Clone([]uint64(g.pages))
		slices.Sort(pages)
		buf = binary.LittleEndian.AppendUint64(buf, k)
		buf = binary.AppendUvarint(buf, uint64(len(pages)))
		for _, p := range pages {
			buf = binary.LittleEndian.AppendUint64(buf, p)
			bk := g.blocks[p]
			buf = binary.AppendUvarint(buf, uint64(len(bk)))
			for _, b := range bk {
				buf = binary.LittleEndian.AppendUint64(buf, b)
			}
			if len(buf) > 1<<16 {
				if err := put(); err != nil {
					return n, err
				}
			}
		}
	}
	if err := put(); err != nil {
		return n, err
	}
	buf = binary.LittleEndian.AppendUint64(buf, d.Sum64())
	k, err := bw.Write(buf)
	n += int64(k)
	if err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// ReadFrom replaces what s has learned and its settings by those of a
// file that [Site.WriteTo] wrote. It implements io.ReaderFrom. A file
// that is not a Site file, of another version, truncated, corrupt (its
// checksum differs) or over the limits of its own settings (more groups
// than MaxGroups, more pages in a group than SamplePages, more block keys
// in a page than a Site learns, keys out of order) is an error wrapping
// [ErrSiteFile], and s is left as it was; memory grows with the bytes
// read, never with a count in the file alone. ReadFrom reads ahead of the
// file's end unless r is an io.ByteReader.
func (s *Site) ReadFrom(r io.Reader) (int64, error) {
	br, ok := r.(io.ByteReader)
	if !ok {
		b := bufio.NewReader(r)
		br, r = b, b
	}
	sr := &siteReader{r: r, br: br}
	sr.d.Reset()
	t, err := sr.site()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return sr.n, fmt.Errorf("%w: %v", ErrSiteFile, err)
	}
	*s = *t
	return sr.n, nil
}

// siteReader reads a Site file, counting and hashing what it reads.
type siteReader struct {
	r   io.Reader
	br  io.ByteReader
	d   xxhash.Digest
	n   int64
	buf [8]byte
}

func (sr *siteReader) ReadByte() (byte, error) {
	c, err := sr.br.ReadByte()
	if err != nil {
		return 0, err
	}
	sr.n++
	sr.d.Write([]byte{c})
	return c, nil
}

func (sr *siteReader) full(b []byte) error {
	k, err := io.ReadFull(sr.r, b)
	sr.n += int64(k)
	sr.d.Write(b[:k])
	return err
}

func (sr *siteReader) u64() (uint64, error) {
	if err := sr.full(sr.buf[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(sr.buf[:]), nil
}

// count reads a varint that must be at most limit.
func (sr *siteReader) count(what string, limit int) (int, error) {
	v, err := binary.ReadUvarint(sr)
	if err != nil {
		return 0, err
	}
	if v > uint64(limit) {
		return 0, fmt.Errorf("%s %d over the limit %d", what, v, limit)
	}
	return int(v), nil
}

func (sr *siteReader) site() (*Site, error) {
	magic := make([]byte, len(siteMagic))
	if err := sr.full(magic); err != nil {
		return nil, err
	}
	if string(magic) != siteMagic {
		return nil, errors.New("not a site file")
	}
	if v, err := binary.ReadUvarint(sr); err != nil {
		return nil, err
	} else if v != siteVersion {
		return nil, fmt.Errorf("version %d, want %d", v, siteVersion)
	}
	s := &Site{}
	var err error
	if s.MinPages, err = sr.count("min pages", maxFilePages); err != nil {
		return nil, err
	}
	f, err := sr.u64()
	if err != nil {
		return nil, err
	}
	if s.MinFraction = math.Float64frombits(f); !(s.MinFraction >= 0 && s.MinFraction <= 1) {
		return nil, fmt.Errorf("min fraction %v", s.MinFraction)
	}
	if s.SamplePages, err = sr.count("sample pages", maxFilePages); err != nil {
		return nil, err
	}
	if s.MaxGroups, err = sr.count("max groups", maxFileGroups); err != nil {
		return nil, err
	}
	hidden, err := sr.ReadByte()
	if err != nil {
		return nil, err
	}
	if hidden > 1 {
		return nil, fmt.Errorf("drop hidden %d", hidden)
	}
	s.Options.DropHidden = hidden == 1
	mb, err := binary.ReadVarint(sr)
	if err != nil {
		return nil, err
	}
	if mb != int64(int(mb)) {
		return nil, fmt.Errorf("max bytes %d", mb)
	}
	s.Options.MaxBytes = int(mb)
	ng, err := sr.count("groups", s.maxGroups())
	if err != nil {
		return nil, err
	}
	s.groups = make(map[uint64]*group, min(ng, 1024))
	var prevGroup uint64
	for i := range ng {
		gk, err := sr.u64()
		if err != nil {
			return nil, err
		}
		if i > 0 && gk <= prevGroup {
			return nil, fmt.Errorf("group %x out of order", gk)
		}
		prevGroup = gk
		np, err := sr.count("pages of a group", s.samplePages())
		if err != nil {
			return nil, err
		}
		g := &group{blocks: map[uint64][]uint64{}}
		var prevPage uint64
		for j := range np {
			ph, err := sr.u64()
			if err != nil {
				return nil, err
			}
			if j > 0 && ph <= prevPage {
				return nil, fmt.Errorf("page %x out of order", ph)
			}
			prevPage = ph
			nk, err := sr.count("block keys of a page", maxBlocks)
			if err != nil {
				return nil, err
			}
			keys := make([]uint64, 0, min(nk, 1024))
			for k := range nk {
				b, err := sr.u64()
				if err != nil {
					return nil, err
				}
				if k > 0 && b <= keys[k-1] {
					return nil, fmt.Errorf("block key %x out of order", b)
				}
				keys = append(keys, b)
			}
			g.pages = append(g.pages, ph)
			g.blocks[ph] = keys
		}
		heap.Init(&g.pages)
		s.groups[gk] = g
		s.ranks = append(s.ranks, gk)
	}
	heap.Init(&s.ranks)
	sum := sr.d.Sum64()
	got, err := sr.u64()
	if err != nil {
		return nil, err
	}
	if got != sum {
		return nil, errors.New("checksum mismatch")
	}
	return s, nil
}
