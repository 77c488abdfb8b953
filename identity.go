package undust

import (
	"bytes"
	"github.com/undust/undust/internal/ablate"
	"net/http"
	"slices"
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
// duplicates a kept page when either of its texts matches either of the kept page's, but a
// match in which a template text takes part counts only when the two pages' own texts are near
// duplicates too (see pageIndex): the template also drops blocks that repeat on other pages
// without being chrome (the excerpts of a listing's posts, which every other listing of the
// posts repeats; the commits a history page lists), and what is left of two different pages
// can be the same heading.
type print struct {
	n      int // texts: 0 for a page without text, 1, or 2 when the extractions differ
	body   uint64
	digest [2]uint64
	sim    [2]uint64
	tpl    [2]bool // text j is the template's and differs from the own text
	own    uint64  // the SimHash of the own text (of the template's when the own one is empty)
	young  bool    // the template of the page's kind was still learning (htmltext.Site.ExtractSettled)
}

// A hostTemplate is the template learned from one host's pages, in the ring of the hosts that
// keep one, most recently used first.
type hostTemplate struct {
	mu         sync.Mutex
	site       htmltext.Site
	host       string
	prev, next *hostTemplate // guarded by Crawl.hmu
}

// identify returns the print of the page body fetched from u.
func (c *Crawl) identify(u string, body []byte) print {
	var p print
	var o shingle.Options
	add := func(t htmltext.Text, err error) {
		if err != nil {
			return
		}
		text := withoutURLIDs(t, u).String()
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
	own := p.n
	if ht := c.template(hostOfURL(u)); ht != nil {
		ht.mu.Lock()
		t, settled, err := ht.site.ExtractSettled(u, body)
		ht.mu.Unlock()
		add(t, err)
		p.young = err == nil && !settled && !ablate.NoYoung
	}
	if p.n > own && own > 0 {
		p.tpl[own] = true
	}
	p.own = p.sim[0]
	if p.n == 0 {
		d := xxhash.New()
		_, _ = d.WriteString("undust raw body\x00")
		_, _ = d.Write(body)
		p.body = d.Sum64()
	}
	return p
}

// withoutURLIDs returns t without its paragraphs that are nothing but an identifier of the
// page's own URL u: a run of at least 7 ASCII letters and digits, with a digit, that a word of
// u's path or query (a run of letters and digits) begins, or that begins such a word. A
// repository browser shows the id of the blob it serves under ?h=<id> in a bar above the file,
// and shows the commit it is seen from instead when the URL names one (&hb=<commit>): one page,
// whose two kinds of URL would otherwise keep it apart. A page whose URL names its object by an
// abbreviation (/info/4f12f67d9c) shows the whole id (4f12f67d9c1d3a98...) where the URL with the
// whole id shows it too. The template drops such a bar only when pages with it are most of their
// group. t is not modified.
func withoutURLIDs(t htmltext.Text, u string) htmltext.Text {
	if ablate.NoURLIDs {
		return t
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[i:] // the path and query: the host is no page's id
	}
	var out []string
	for i, para := range t.Paragraphs {
		if urlID(para, u) {
			if out == nil {
				out = slices.Clone(t.Paragraphs[:i])
			}
			continue
		}
		if out != nil {
			out = append(out, para)
		}
	}
	if out == nil {
		return t
	}
	t.Paragraphs = out
	return t
}

// urlID reports whether s is an identifier of the URL u (see withoutURLIDs).
func urlID(s, u string) bool {
	if len(s) < minURLID || !strings.ContainsAny(s, "0123456789") || strings.IndexFunc(s, func(r rune) bool { return !isAlnum(r) }) >= 0 {
		return false
	}
	for u != "" {
		i := strings.IndexFunc(u, isAlnum)
		if i < 0 {
			return false
		}
		u = u[i:]
		j := strings.IndexFunc(u, func(r rune) bool { return !isAlnum(r) })
		if j < 0 {
			j = len(u)
		}
		if w := u[:j]; len(w) >= minURLID && (strings.HasPrefix(s, w) || strings.HasPrefix(w, s)) {
			return true
		}
		u = u[j:]
	}
	return false
}

// minURLID is the least length of an identifier of a URL (see withoutURLIDs).
const minURLID = 7

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// learnTemplate adds a kept page to its host's template. Only pages kept are added: the copies
// of one page that a crawl fetches through its many URLs would otherwise make the page's own
// text look like the site's template.
func (c *Crawl) learnTemplate(u string, body []byte) {
	if c.opt.NoContent {
		return
	}
	if ht := c.template(hostOfURL(u)); ht != nil {
		ht.mu.Lock()
		_ = ht.site.Add(u, body) // a page that cannot be learned from is still kept
		ht.mu.Unlock()
	}
}

// template returns the learned template of host, made on first use, and makes it the most
// recently used; nil without templates or for a host whose template was dropped. A new host
// past Options.MaxTemplates drops the template of the host used least recently: its pages are
// read by their own markup from then on.
func (c *Crawl) template(host string) *hostTemplate {
	if c.opt.NoTemplates {
		return nil
	}
	c.hmu.Lock()
	defer c.hmu.Unlock()
	if c.lru.next == nil {
		c.lru.next, c.lru.prev = &c.lru, &c.lru
	}
	ht := c.hosts[host]
	if ht == nil {
		if c.dropped[host] {
			return nil
		}
		if len(c.hosts) >= c.opt.MaxTemplates {
			old := c.lru.prev
			old.unlink()
			delete(c.hosts, old.host)
			c.dropped[old.host] = true
		}
		ht = &hostTemplate{host: strings.Clone(host)}
		ht.site.MinPages, ht.site.MinFraction = c.opt.Templates.MinPages, c.opt.Templates.MinFraction
		ht.site.SamplePages, ht.site.MaxGroups = c.opt.Templates.SamplePages, c.opt.Templates.MaxGroups
		ht.site.Options = c.opt.Templates.Options
		c.hosts[ht.host] = ht
	} else {
		ht.unlink()
	}
	ht.prev, ht.next = &c.lru, c.lru.next
	ht.next.prev, c.lru.next = ht, ht
	return ht
}

// unlink takes ht out of the ring. Crawl.hmu is held.
func (ht *hostTemplate) unlink() {
	ht.prev.next, ht.next.prev = ht.next, ht.prev
	ht.prev, ht.next = nil, nil
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

// maxYoung bounds the bytes of the bodies a Crawl keeps of young pages (see youngPages).
const maxYoung = 8 << 20

// youngPages keeps the bodies of kept pages whose template text was made while the template of
// their kind was still learning, the oldest dropped past maxYoung bytes. A template that learns
// a kind's per-page chrome (an object's id, its commit's title) after the first pages of the kind
// were kept would otherwise leave those pages with digests that a later copy of one of them,
// identified without that chrome, does not have: the copy would be kept as another page, and a
// verification that fetched it would retract the correct rule that named it a duplicate. A young
// page is identified again when a verification finds another page than its id (Crawl.recheck).
type youngPages struct {
	pages map[uint32]youngPage // page id -> its body
	order []uint32             // page ids, oldest first
	bytes int
}

type youngPage struct {
	url  string
	body []byte
}

// add keeps a copy of the body of page id, fetched from u.
func (y *youngPages) add(id uint32, u string, body []byte) {
	if len(body) > maxYoung/64 {
		return // a huge page would push out many others
	}
	if y.pages == nil {
		y.pages = map[uint32]youngPage{}
	}
	y.pages[id] = youngPage{url: strings.Clone(u), body: bytes.Clone(body)}
	y.order = append(y.order, id)
	y.bytes += len(body) + len(u)
	for y.bytes > maxYoung {
		y.drop(y.order[0])
		y.order = y.order[1:]
	}
}

// drop forgets the body of page id; its place in order goes when it comes first.
func (y *youngPages) drop(id uint32) {
	if p, ok := y.pages[id]; ok {
		y.bytes -= len(p.body) + len(p.url)
		delete(y.pages, id)
	}
}

// again identifies the young page id again under the template as it stands, and records its
// digests: a kept page it matches now is the same page (see pageIndex.lookup). It returns the
// page's id then, with the ids it was joined to appended to joined. The page stays young until
// its kind is learned. c.mu is held.
func (c *Crawl) again(id uint32, joined []uint32) (uint32, []uint32) {
	y := c.young.pages[id]
	q := c.identify(y.url, y.body)
	var buf [4]uint32
	roots := append(c.pages.matches(buf[:0], q), c.pages.root(id))
	root, joined := c.pages.union(roots, joined)
	c.pages.record(q, root)
	c.young.order = slices.DeleteFunc(c.young.order, func(v uint32) bool { return v == id })
	if q.young {
		c.young.order = append(c.young.order, id) // the newest again
	} else {
		c.young.drop(id)
	}
	return root, joined
}

// recheck identifies the young page kept again, if it is one, and reports whether it is page id
// under the template as it stands: the two are one page from then on, of the earlier id. The
// pages joined on the way are appended to joined. c.mu is held.
func (c *Crawl) recheck(kept uint32, id uint64, joined []uint32) (bool, []uint32) {
	if _, ok := c.young.pages[kept]; !ok || id == 0 {
		return false, joined
	}
	root, joined := c.again(kept, joined)
	return root == c.pages.root(uint32(id)), joined
}
