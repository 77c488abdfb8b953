package learn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A Capture is one record of a crawl index: a URL fetched once, with its HTTP status, MIME type
// and payload digest. It is a plain value (safe to copy; the zero value is an empty capture).
type Capture struct {
	URL    string // the original URL (CDX field "a")
	Mime   string // "text/html", "warc/revisit", "-"
	Status string // "200", "302", "-"
	Digest string // payload digest (CDX field "k"), "-" when unknown
	Line   int    // 1-based line number in the input
}

// ErrNoField is the cause of a *ParseError for a CDX header that lacks a field the reader needs.
var ErrNoField = errors.New("cdx header lacks a needed field (a, s, k)")

// cdxDefault is the common 11-field layout, used when the input has no " CDX" header line.
const cdxDefault = "N b a m s k r M S V g"

// A CDXReader reads captures from a CDX index (space-separated fields, laid out by its
// " CDX N b a m s k r M S V g" header line, or the common 11-field layout when there is none) or
// from a CDXJ index (`urlkey timestamp {json}`); it tells them apart line by line, so a file may
// not mix them only in that a CDX header applies to the CDX lines after it. Lines starting with
// "!" (CDXJ metadata) and blank lines are skipped.
//
// The zero value is not usable: use NewCDXReader. A CDXReader is not safe for concurrent use. It
// reads from r and keeps nothing of it beyond the current capture.
type CDXReader struct {
	s       *lineScanner
	opt     ReaderOptions
	idx     [4]int // field positions of a, m, s, k; -1 when absent
	nf      int    // number of fields in the layout
	cap     Capture
	err     error
	skipped int
}

// NewCDXReader returns a reader of the CDX or CDXJ captures in r.
func NewCDXReader(r io.Reader, opt ReaderOptions) *CDXReader {
	c := &CDXReader{s: newLineScanner(r, opt.maxLine()), opt: opt}
	c.layout(cdxDefault)
	return c
}

func (c *CDXReader) layout(h string) bool {
	f := strings.Fields(h)
	idx := [4]int{-1, -1, -1, -1}
	for i, name := range f {
		switch name {
		case "a":
			idx[0] = i
		case "m":
			idx[1] = i
		case "s":
			idx[2] = i
		case "k":
			idx[3] = i
		}
	}
	if idx[0] < 0 || idx[2] < 0 || idx[3] < 0 {
		return false
	}
	c.idx, c.nf = idx, len(f)
	return true
}

// Next advances to the next capture, which Capture then returns. It returns false at the end of
// the input or at the first error, which Err then returns.
func (c *CDXReader) Next() bool {
	for c.err == nil && c.s.next() {
		line := c.s.buf
		if !c.s.long && (len(bytes.TrimSpace(line)) == 0 || line[0] == '!') {
			continue
		}
		err := c.parse(line)
		if err == nil {
			return true
		}
		if err == errHeader {
			continue
		}
		if c.opt.SkipBad {
			c.skipped++
			continue
		}
		c.err = err
		return false
	}
	if c.err == nil && c.s.err != nil {
		c.err = c.s.err
	}
	return false
}

var errHeader = errors.New("header")

func (c *CDXReader) parse(line []byte) error {
	n := c.s.line
	if c.s.long {
		return &ParseError{Line: n, Field: string(line[:min(len(line), 120)]), Err: ErrLineTooLong}
	}
	if h, ok := bytes.CutPrefix(line, []byte(" CDX ")); ok {
		if !c.layout(string(h)) {
			return &ParseError{Line: n, Field: string(line), Err: ErrNoField}
		}
		return errHeader
	}
	// CDXJ: "urlkey timestamp {json}".
	if j := bytes.IndexByte(line, '{'); j >= 0 && bytes.Count(line[:j], []byte{' '}) == 2 && line[j-1] == ' ' {
		var v struct {
			URL    string `json:"url"`
			Mime   string `json:"mime"`
			Status string `json:"status"`
			Digest string `json:"digest"`
		}
		if err := json.Unmarshal(line[j:], &v); err != nil {
			return &ParseError{Line: n, Field: string(line[j:]), Err: ErrBadField}
		}
		if !validURLField([]byte(v.URL)) {
			return &ParseError{Line: n, Field: v.URL, Err: ErrBadField}
		}
		c.cap = Capture{URL: v.URL, Mime: orDash(v.Mime), Status: orDash(v.Status), Digest: orDash(v.Digest), Line: n}
		return nil
	}
	// The fields are counted, and only the four the capture needs are copied: a line of many
	// fields costs no string per field.
	var f [4][]byte
	k := 0
	for rest := line; ; k++ {
		rest = bytes.TrimLeftFunc(rest, isSpace)
		if len(rest) == 0 {
			break
		}
		end := bytes.IndexFunc(rest, isSpace)
		if end < 0 {
			end = len(rest)
		}
		for j, at := range c.idx {
			if at == k {
				f[j] = rest[:end]
			}
		}
		rest = rest[end:]
	}
	if k != c.nf {
		return &ParseError{Line: n, Field: string(line), Err: ErrFieldCount}
	}
	cp := Capture{URL: string(f[0]), Mime: "-", Status: string(f[2]), Digest: string(f[3]), Line: n}
	if c.idx[1] >= 0 {
		cp.Mime = string(f[1])
	}
	c.cap = cp
	return nil
}

// isSpace is the white space of strings.Fields.
func isSpace(r rune) bool { return unicode.IsSpace(r) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Capture returns the current capture.
func (c *CDXReader) Capture() Capture { return c.cap }

// Err returns the first error met, or nil at a clean end of input.
func (c *CDXReader) Err() error { return c.err }

// Skipped returns the number of malformed lines skipped so far (with ReaderOptions.SkipBad).
func (c *CDXReader) Skipped() int { return c.skipped }

// Grouping says how a site, the unit that rules are learned for, is found: by CaptureClusters
// for the captures of a crawl index, and by ReadClusters (ReaderOptions.Sites) for the clusters
// of a dup-cluster file. The zero value is ByHost.
type Grouping uint8

const (
	// ByHost names a site by the URL's host name, lowercased: "www.iana.org". ReadClusters
	// joins the hosts that share a cluster into one site (www and bare host, mirrors).
	ByHost Grouping = iota
	// ByDomain names a site by the URL's registrable domain (public suffix + 1): "iana.org".
	// ReadClusters joins the domains that share a cluster into one site.
	ByDomain
	// ByID takes the site from the dup-cluster id, the text before its last "-" (SiteOf):
	// "h0042-p000123" is site "h0042". Only ReadClusters reads ids; CaptureClusters treats ByID
	// as ByHost.
	ByID
)

// String returns "host", "domain" or "id".
func (g Grouping) String() string {
	switch g {
	case ByHost:
		return "host"
	case ByDomain:
		return "domain"
	case ByID:
		return "id"
	}
	return "Grouping(" + strconv.Itoa(int(g)) + ")"
}

// ParseGrouping returns the Grouping whose String is s.
func ParseGrouping(s string) (Grouping, error) {
	for _, g := range []Grouping{ByHost, ByDomain, ByID} {
		if s == g.String() {
			return g, nil
		}
	}
	return 0, fmt.Errorf("learn: unknown grouping %q (want host, domain or id)", s)
}

// CaptureClusters reads all captures of c and groups them into dup clusters: the distinct URLs
// of one site (host or registrable domain, by g) that share a payload digest. Only status 200
// captures count; revisit records (mime "warc/revisit"), captures with status or digest "-",
// redirects and errors are skipped, because two redirect bodies can share a digest without being
// the same page. A URL that does not parse or has no host is skipped too. Every URL gets
// Importance 0 and Inlinks 0: a crawl index carries neither. Clusters come sorted by site, then
// by digest; a cluster's URLs are sorted. The error is c's.
func CaptureClusters(c *CDXReader, g Grouping) ([]Cluster, error) {
	type gk struct{ site, digest string }
	groups := make(map[gk]map[string]bool)
	for c.Next() {
		cp := c.Capture()
		if cp.Status != "200" || cp.Digest == "-" || cp.Mime == "warc/revisit" {
			continue
		}
		u, err := url.Parse(cp.URL)
		if err != nil || u.Host == "" {
			continue
		}
		site := hostPort(u)
		if g == ByDomain {
			site = registrableDomain(site)
		}
		k := gk{site, cp.Digest}
		if groups[k] == nil {
			groups[k] = make(map[string]bool)
		}
		groups[k][cp.URL] = true
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	keys := make([]gk, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].site != keys[j].site {
			return keys[i].site < keys[j].site
		}
		return keys[i].digest < keys[j].digest
	})
	out := make([]Cluster, 0, len(keys))
	for _, k := range keys {
		cl := Cluster{ID: k.site + " " + k.digest, Site: k.site}
		for u := range groups[k] {
			cl.URLs = append(cl.URLs, URL{Raw: u})
		}
		sort.Slice(cl.URLs, func(i, j int) bool { return cl.URLs[i].Raw < cl.URLs[j].Raw })
		out = append(out, cl)
	}
	return out, nil
}
