package undust

import (
	"bytes"
	"net/http"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/net/html"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
)

// A print is the content fingerprint of a page: the digest and SimHash of its main text as two
// extractions give it, one by the page's own markup (htmltext.Extract with MainContent) and one
// without the blocks its host's template learned from the host's other pages (htmltext.Site);
// or the digest of its bytes when it has no text. The first is stable over a crawl; the second
// drops the per-page chrome a site repeats, once the template has seen enough pages. A page
// duplicates a kept page when either of its texts matches either of the kept page's.
type print struct {
	n      int // texts: 0 for a page without text, 1, or 2 when the extractions differ
	body   uint64
	digest [2]uint64
	sim    [2]uint64
}

// A hostTemplate is the template learned from one host's pages.
type hostTemplate struct {
	mu   sync.Mutex
	site htmltext.Site
}

// identify returns the print of the page body fetched from u.
func (c *Crawl) identify(u string, body []byte) print {
	var p print
	var o shingle.Options
	add := func(t htmltext.Text, err error) {
		if err != nil {
			return
		}
		text := t.String()
		hashes := shingle.AppendHashes(nil, text, o)
		if len(hashes) == 0 {
			return
		}
		d := shingle.Digest64(text, o)
		if p.n == 1 && p.digest[0] == d {
			return
		}
		p.digest[p.n], p.sim[p.n] = d, simhash.Sum64(hashes)
		p.n++
	}
	add(htmltext.Extract(body, htmltext.Options{MainContent: true}))
	if !c.opt.NoTemplates {
		ht := c.template(hostOfURL(u))
		ht.mu.Lock()
		t, err := ht.site.Extract(u, body)
		ht.mu.Unlock()
		add(t, err)
	}
	if p.n == 0 {
		d := xxhash.New()
		_, _ = d.WriteString("undust raw body\x00")
		_, _ = d.Write(body)
		p.body = d.Sum64()
	}
	return p
}

// learnTemplate adds a kept page to its host's template. Only pages kept are added: the copies
// of one page that a crawl fetches through its many URLs would otherwise make the page's own
// text look like the site's template.
func (c *Crawl) learnTemplate(u string, body []byte) {
	if c.opt.NoTemplates || c.opt.NoContent {
		return
	}
	ht := c.template(hostOfURL(u))
	ht.mu.Lock()
	_ = ht.site.Add(u, body) // a page that cannot be learned from is still kept
	ht.mu.Unlock()
}

// template returns the learned template of host, made on first use.
func (c *Crawl) template(host string) *hostTemplate {
	c.hmu.Lock()
	defer c.hmu.Unlock()
	ht := c.hosts[host]
	if ht == nil {
		ht = &hostTemplate{}
		ht.site.MinPages, ht.site.MinFraction = c.opt.Templates.MinPages, c.opt.Templates.MinFraction
		ht.site.SamplePages, ht.site.MaxGroups = c.opt.Templates.SamplePages, c.opt.Templates.MaxGroups
		ht.site.Options = c.opt.Templates.Options
		c.hosts[host] = ht
	}
	return ht
}

// hostOfURL returns the lowercase host and port of an absolute URL, "" for anything else.
func hostOfURL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	h := u[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return strings.ToLower(h)
}

// A pageIndex numbers the pages kept: ids from 1, by digest and by SimHash.
type pageIndex struct {
	nearK    int
	digests  map[uint64]uint32 // digest -> page id, for every digest seen
	sims     *simhash.Index    // page id -> SimHash of the kept page; nil for exact duplicates only
	first    []uint32          // page id - 1 -> the holder of its first URL, or noHolder
	firstURL map[uint32]string // page id -> its first URL when no holder has it
}

func newPageIndex(nearK int) pageIndex {
	x := pageIndex{nearK: nearK, digests: map[uint64]uint32{}, firstURL: map[uint32]string{}}
	if nearK > 0 {
		x.sims = simhash.NewIndex(nearK, nil)
	}
	return x
}

// lookup returns the id of the kept page that p duplicates, if any; p's digests are recorded
// under that id.
func (x *pageIndex) lookup(p print) (uint64, bool) {
	id, ok := x.find(p)
	if ok {
		x.record(p, id)
	}
	return uint64(id), ok
}

func (x *pageIndex) find(p print) (uint32, bool) {
	if p.n == 0 {
		id, ok := x.digests[p.body]
		return id, ok
	}
	for j := range p.n {
		if id, ok := x.digests[p.digest[j]]; ok {
			return id, true
		}
	}
	if x.sims != nil {
		for j := range p.n {
			if m, ok := x.sims.Near(p.sim[j], x.nearK); ok {
				return uint32(m.ID >> 1), true
			}
		}
	}
	return 0, false
}

func (x *pageIndex) record(p print, id uint32) {
	if p.n == 0 {
		x.digests[p.body] = id
	}
	for j := range p.n {
		x.digests[p.digest[j]] = id
	}
}

// add keeps p as a new page whose first URL is u, held by holder first (or noHolder), and
// returns its id; 0 when the index holds max pages already. The SimHash of text j of page id is
// entry 2*id+j of the index.
func (x *pageIndex) add(p print, first uint32, u string, max int) uint64 {
	if len(x.first) >= max {
		return 0
	}
	x.first = append(x.first, first)
	id := uint64(len(x.first))
	if first == noHolder {
		x.firstURL[uint32(id)] = u
	}
	x.record(p, uint32(id))
	if x.sims != nil {
		for j := range p.n {
			x.sims.Insert(2*id+uint64(j), p.sim[j])
		}
	}
	return id
}

// url returns the first URL of page id. c.mu is held.
func (x *pageIndex) url(c *Crawl, id uint64) string {
	if id == 0 || id > uint64(len(x.first)) {
		return ""
	}
	if h := x.first[id-1]; h != noHolder {
		return c.url(h)
	}
	return x.firstURL[uint32(id)]
}

// canonicalOf returns the canonical URL that a page at base declares, resolved: the first
// rel="canonical" link of its Link headers, else of the <link> elements of its head. It returns
// "" for none, or for one that is not an http(s) URL.
func (c *Crawl) canonicalOf(base string, h http.Header, body []byte) string {
	href := ""
	for _, v := range h.Values("Link") {
		if href = linkCanonical(v); href != "" {
			break
		}
	}
	if href == "" {
		href = headCanonical(body)
	}
	if href == "" {
		return ""
	}
	u, err := c.canon.Resolve(base, href)
	if err != nil || !(strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
		return ""
	}
	return u
}

// linkCanonical returns the target of the first link with relation canonical in an HTTP Link
// header value (RFC 8288): `<https://example.com/a>; rel="canonical", <...>; rel=next`.
func linkCanonical(v string) string {
	for v != "" {
		v = strings.TrimLeft(v, " \t,")
		if !strings.HasPrefix(v, "<") {
			return ""
		}
		end := strings.IndexByte(v, '>')
		if end < 0 {
			return ""
		}
		target := v[1:end]
		v = v[end+1:]
		// Parameters up to the next link: ";" separated, values may be quoted.
		next := len(v)
		inQuote := false
		for i := 0; i < len(v); i++ {
			switch v[i] {
			case '"':
				inQuote = !inQuote
			case ',':
				if !inQuote {
					next = i
					i = len(v)
				}
			}
		}
		for p := range strings.SplitSeq(v[:next], ";") {
			name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
				continue
			}
			val = strings.Trim(strings.TrimSpace(val), `"`)
			for r := range strings.FieldsSeq(val) {
				if strings.EqualFold(r, "canonical") {
					return target
				}
			}
		}
		v = v[next:]
	}
	return ""
}

// headCanonical returns the href of the first <link rel="canonical"> before the page's body.
func headCanonical(body []byte) string {
	if !bytes.Contains(body, []byte("anonical")) { // most pages: no tokenizing
		return ""
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "link":
				var rel, href string
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					switch string(k) {
					case "rel":
						rel = string(v)
					case "href":
						href = string(v)
					}
				}
				for r := range strings.FieldsSeq(rel) {
					if strings.EqualFold(r, "canonical") {
						return strings.TrimSpace(href)
					}
				}
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return ""
			}
		}
	}
}
