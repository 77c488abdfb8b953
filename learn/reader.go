package learn

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
)

// A Record is one line of a dup-cluster TSV file: a URL and the cluster it belongs to. It is a
// plain value (safe to copy and share; the zero value is an empty record).
type Record struct {
	Cluster    string  // the cluster id, "h0042-p000123"
	URL        string  // the URL as written in the file
	Importance float64 // the page's importance; 0 when the column is absent
	Inlinks    int     // in-links to this URL string; 0 when the column is absent
	Line       int     // 1-based line number in the input
}

// ReaderOptions configure the readers of this package. The zero value means the defaults; the
// readers copy it.
type ReaderOptions struct {
	// SkipBad counts malformed lines and skips them instead of stopping with a *ParseError.
	SkipBad bool
	// MaxLineBytes bounds a line; a longer line is malformed (ErrLineTooLong). 0 means 1 MiB.
	MaxLineBytes int
	// Sites says how ReadClusters finds the site of each cluster: by default (ByHost) from
	// the hosts of its URLs, ByDomain from their registrable domains, ByID from its id.
	// The other readers ignore it (CaptureClusters takes its own Grouping).
	Sites Grouping
}

func (o ReaderOptions) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return 1 << 20
}

// Sentinel causes of a *ParseError.
var (
	ErrFieldCount  = errors.New("wrong number of fields")
	ErrBadField    = errors.New("malformed field")
	ErrLineTooLong = errors.New("line too long")
)

// A ParseError reports a malformed input line: its number, the offending field's name and
// text, and the cause, one of the ErrXxx sentinels above. It is a plain value, safe to share.
type ParseError struct {
	Line  int    // 1-based line number
	Name  string // the field's column: "cluster", "url", "importance", "inlinks"; "" for the line
	Field string // the field or line that failed, shortened
	Err   error
}

// Error returns `learn: line 3: importance "abc": malformed field`, or without the column name
// for an error of the whole line.
func (e *ParseError) Error() string {
	name := ""
	if e.Name != "" {
		name = e.Name + " "
	}
	return "learn: line " + strconv.Itoa(e.Line) + ": " + name + quote(e.Field) + ": " + e.Err.Error()
}

// Unwrap returns the cause, so errors.Is(err, learn.ErrFieldCount) works.
func (e *ParseError) Unwrap() error { return e.Err }

func quote(s string) string {
	const max = 120
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}

// lineScanner is a bufio.Scanner that reports over-long lines as a skippable error with a line
// number instead of stopping the stream.
type lineScanner struct {
	br   *bufio.Reader
	max  int
	line int
	buf  []byte
	err  error // a read error other than io.EOF
	long bool  // the last line was longer than max (its start is in buf)
}

func newLineScanner(r io.Reader, max int) *lineScanner {
	return &lineScanner{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next reads the next line into s.buf without its line ending. It returns false at the end of
// the input or on a read error.
func (s *lineScanner) next() bool {
	if s.err != nil {
		return false
	}
	s.buf = s.buf[:0]
	s.long = false
	for {
		frag, err := s.br.ReadSlice('\n')
		if !s.long && len(s.buf)+len(frag) <= s.max+2 {
			s.buf = append(s.buf, frag...)
		} else {
			s.long = true
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			s.err = err
			return false
		}
		if err == io.EOF && len(frag) == 0 && len(s.buf) == 0 && !s.long {
			return false
		}
		s.line++
		s.buf = bytes.TrimSuffix(s.buf, []byte{'\n'})
		s.buf = bytes.TrimSuffix(s.buf, []byte{'\r'})
		if len(s.buf) > s.max {
			s.long = true
		}
		return true
	}
}

// A TSVReader reads dup-cluster records (`cluster<TAB>url[<TAB>importance[<TAB>inlinks]]`, `#`
// comment lines, blank lines ignored) one at a time, like a bufio.Scanner. It does not split
// lines into per-field strings: the cluster id is interned (a site's lines repeat it) and the URL
// is the only other string allocated per record.
//
// The zero value is not usable: use NewTSVReader. A TSVReader is not safe for concurrent use. It
// reads from r and keeps nothing of it beyond the current record.
type TSVReader struct {
	s       *lineScanner
	opt     ReaderOptions
	rec     Record
	err     error
	skipped int
	ids     map[string]string
}

// NewTSVReader returns a reader of the dup-cluster TSV records in r.
func NewTSVReader(r io.Reader, opt ReaderOptions) *TSVReader {
	return &TSVReader{s: newLineScanner(r, opt.maxLine()), opt: opt, ids: make(map[string]string)}
}

// Next advances to the next record, which Record then returns. It returns false at the end of
// the input or at the first error, which Err then returns.
func (r *TSVReader) Next() bool {
	for r.err == nil && r.s.next() {
		line := r.s.buf
		if len(line) == 0 && !r.s.long || len(line) > 0 && line[0] == '#' {
			continue
		}
		err := r.parse(line)
		if err == nil {
			return true
		}
		if r.opt.SkipBad {
			r.skipped++
			continue
		}
		r.err = err
		return false
	}
	if r.err == nil && r.s.err != nil {
		r.err = r.s.err
	}
	return false
}

func (r *TSVReader) parse(line []byte) error {
	n := r.s.line
	if r.s.long {
		return &ParseError{Line: n, Field: string(line[:min(len(line), 120)]), Err: ErrLineTooLong}
	}
	var f [5][]byte
	k := 0
	for rest := line; ; k++ {
		if k == len(f) {
			return &ParseError{Line: n, Field: string(line), Err: ErrFieldCount}
		}
		i := bytes.IndexByte(rest, '\t')
		if i < 0 {
			f[k] = rest
			k++
			break
		}
		f[k], rest = rest[:i], rest[i+1:]
	}
	if k < 2 || k > 4 {
		return &ParseError{Line: n, Field: string(line), Err: ErrFieldCount}
	}
	if len(f[0]) == 0 {
		return &ParseError{Line: n, Name: "cluster", Field: string(f[0]), Err: ErrBadField}
	}
	if !validURLField(f[1]) {
		return &ParseError{Line: n, Name: "url", Field: string(f[1]), Err: ErrBadField}
	}
	rec := Record{Line: n}
	if k >= 3 {
		v, err := strconv.ParseFloat(string(f[2]), 64)
		if err != nil || !(v >= 0) || v > 1e300 {
			return &ParseError{Line: n, Name: "importance", Field: string(f[2]), Err: ErrBadField}
		}
		rec.Importance = v
	}
	if k == 4 {
		v, err := strconv.Atoi(string(f[3]))
		if err != nil || v < 0 {
			return &ParseError{Line: n, Name: "inlinks", Field: string(f[3]), Err: ErrBadField}
		}
		rec.Inlinks = v
	}
	id, ok := r.ids[string(f[0])]
	if !ok {
		id = string(f[0])
		r.ids[id] = id
	}
	rec.Cluster = id
	rec.URL = string(f[1])
	r.rec = rec
	return nil
}

// validURLField reports whether b can be a URL: non-empty, no spaces or control bytes.
func validURLField(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// Record returns the current record. Its strings stay valid after the next call to Next.
func (r *TSVReader) Record() Record { return r.rec }

// Err returns the first error met, or nil at a clean end of input.
func (r *TSVReader) Err() error { return r.err }

// Skipped returns the number of malformed lines skipped so far (with ReaderOptions.SkipBad).
func (r *TSVReader) Skipped() int { return r.skipped }
