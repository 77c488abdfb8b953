package beamlearn

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"slices"
	"strings"

	"github.com/nlnwa/gowarc"
)

// MaxPageBytes bounds the HTML of one page that the readers keep: a page whose payload is
// larger (after transfer and content decoding) is left out, as htmltext.Options.MaxBytes
// refuses a larger page by default.
const MaxPageBytes = 16 << 20

// IsWARC reports whether a file name is that of a WARC file (.warc, .warc.gz), which ReadPages
// reads as WARC records rather than JSON lines.
func IsWARC(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz")
}

// warcStats counts what ReadWARCPages left out, by reason.
type warcStats struct {
	Records  int // records read, well-formed or not
	Pages    int // HTML pages emitted
	NotPage  int // records that are not a response with an HTML payload and status 2xx
	Encoding int // payloads in a content coding other than gzip and deflate
	TooLarge int // payloads over MaxPageBytes
	Bad      int // records skipped as malformed (skipBad)
}

// ReadWARCPages reads the WARC records of r (uncompressed, or compressed record by record as
// .warc.gz files are) and calls page with the target URI and HTML payload of each response
// record that is an HTML page: HTTP status 2xx, a Content-Type of text/html or
// application/xhtml+xml (or none, when the payload sniffs as HTML). The payload is decoded
// from chunked transfer coding and from gzip or deflate content coding when the record keeps
// them; other records and other codings are left out, as are payloads over MaxPageBytes.
// The records are parsed by github.com/nlnwa/gowarc.
//
// A malformed record is an error naming name and the record's number, unless skipBad, in
// which case reading goes on at the next record. page must not keep html: the buffer is
// reused.
func ReadWARCPages(r io.Reader, name string, skipBad bool, page func(url string, html []byte) error) error {
	_, err := readWARC(r, name, skipBad, page)
	return err
}

func readWARC(r io.Reader, name string, skipBad bool, page func(url string, html []byte) error) (warcStats, error) {
	var st warcStats
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	consumed := func() int64 { return cr.n - int64(br.Buffered()) }
	// Syntax errors fail the record: under gowarc v1.1.1's lenient policy, a header cut
	// short loops for ever adding the same error. Spec violations (a digest that does not
	// match, a record cut short in its block) land in the Validation.
	newUnmarshaler := func() gowarc.Unmarshaler {
		return gowarc.NewUnmarshaler(gowarc.WithSyntaxErrorPolicy(gowarc.ErrFail))
	}
	u := newUnmarshaler()
	var buf []byte
	garbage := false // inside a run of bytes that are no record, counted once
	for n := 1; ; {
		before := consumed()
		var url string
		eof := false
		err := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					// gowarc v1.1.1 indexes out of range on some malformed lines (a
					// version line of "WARC/\n"): a malformed record, and a fresh
					// unmarshaler for the next one.
					err = fmt.Errorf("malformed record (gowarc: %v)", p)
					u = newUnmarshaler()
				}
			}()
			rec, _, v, err := u.Unmarshal(br)
			if err == io.EOF && rec == nil && consumed() == before {
				eof = true
				return nil
			}
			if err == nil {
				url, buf, err = htmlPayload(rec, buf[:0], &st)
			}
			if rec != nil {
				if cerr := rec.Close(); err == nil && cerr != nil {
					err = cerr
				}
			}
			if err == nil && v != nil && !v.Valid() {
				// A record cut short, a digest that does not match, a malformed field.
				var msgs []string
				for _, e := range *v {
					msgs = append(msgs, e.Error())
				}
				err = errors.New(strings.Join(msgs, "; "))
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				err = errors.New("truncated")
			}
			return err
		}()
		if eof {
			return st, nil
		}
		if consumed() == before {
			// No record here: bytes that are none, or an error before the first byte.
			if !skipBad {
				return st, fmt.Errorf("beamlearn: %s: WARC record %d: %v", name, n, err)
			}
			if !garbage {
				st.Bad++
				garbage = true
			}
			if _, err := br.Discard(1); err != nil {
				return st, nil
			}
			continue
		}
		garbage = false
		st.Records++
		n++
		if err != nil {
			if !skipBad {
				return st, fmt.Errorf("beamlearn: %s: WARC record %d: %v", name, n-1, err)
			}
			st.Bad++
			continue
		}
		if url == "" {
			continue
		}
		st.Pages++
		if err := page(url, buf); err != nil {
			return st, err
		}
	}
}

// htmlPayload returns the target URI and decoded payload of rec when it is an HTML page, and
// "" when it is another record, counting the reason in st.
func htmlPayload(rec gowarc.WarcRecord, buf []byte, st *warcStats) (string, []byte, error) {
	if rec.Type() != gowarc.Response {
		st.NotPage++
		return "", buf, nil
	}
	block, ok := rec.Block().(gowarc.HttpResponseBlock)
	if !ok || block.HttpHeader() == nil {
		st.NotPage++
		return "", buf, nil
	}
	if c := block.HttpStatusCode(); c < 200 || c > 299 {
		st.NotPage++
		return "", buf, nil
	}
	h := *block.HttpHeader()
	ct := h.Get("Content-Type")
	if ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "text/html" && mt != "application/xhtml+xml") {
			st.NotPage++
			return "", buf, nil
		}
	}
	pr, err := block.PayloadBytes()
	if err != nil {
		return "", buf, err
	}
	if chunked(block.ProtocolHeaderBytes()) {
		pr = httputil.NewChunkedReader(pr)
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(pr)
		if err != nil {
			return "", buf, fmt.Errorf("gzip payload: %v", err)
		}
		defer zr.Close()
		pr = zr
	case "deflate":
		fr := flate.NewReader(pr)
		defer fr.Close()
		pr = fr
	default:
		st.Encoding++
		return "", buf, nil
	}
	buf, err = readAtMost(pr, buf, MaxPageBytes)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			st.TooLarge++
			return "", buf, nil
		}
		return "", buf, err
	}
	if ct == "" && !strings.HasPrefix(http.DetectContentType(buf), "text/html") {
		st.NotPage++
		return "", buf, nil
	}
	url := strings.Trim(rec.WarcHeader().Get(gowarc.WarcTargetURI), "<>")
	return url, buf, nil
}

// chunked reports whether an HTTP response header declares the chunked transfer coding, which
// some WARC writers keep in the payload. (net/http moves Transfer-Encoding out of the header
// that the record's block gives.)
func chunked(header []byte) bool {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(header)), nil)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return slices.Contains(resp.TransferEncoding, "chunked")
}

var errTooLarge = errors.New("payload too large")

// readAtMost appends r's bytes to buf, failing with errTooLarge past max bytes.
func readAtMost(r io.Reader, buf []byte, max int) ([]byte, error) {
	n, err := io.Copy(&appender{&buf}, io.LimitReader(r, int64(max)+1))
	if err != nil {
		return buf, err
	}
	if n > int64(max) {
		return buf, errTooLarge
	}
	return buf, nil
}

type appender struct{ b *[]byte }

func (a *appender) Write(p []byte) (int, error) {
	*a.b = append(*a.b, p...)
	return len(p), nil
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
