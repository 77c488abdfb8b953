package simsite

import (
	"context"
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The site's host names and where a crawl of it starts.
const (
	Host       = "www.dustshop.example"    // the site's own host name
	BareHost   = "dustshop.example"        // the same site without www
	MirrorHost = "mirror.dustshop.example" // a mirror of the news tree under /archive
	Domain     = "dustshop.example"        // the registrable domain of all three
	StartURL   = "https://" + Host + "/"   // the home page, from which every page is reachable
)

// The range of sizes New accepts.
const (
	MinPages = 10
	MaxPages = 100000
)

// Variants is the number of URL variants the site draws each page's links from (before
// duplicates among them are removed), besides the two print-view URLs of a story.
const Variants = 8

// A Page names a distinct page of a site: "home", "blog", "story/1007", "product/B0A1C2D3E4",
// "list/shoes/2/price", "wiki/Apple", "docs/kettle3".
type Page string

type story struct {
	id    int
	slug  string
	year  int
	month int
}

// A Site is a simulated site of about n distinct pages. It is immutable after New, so it is
// safe for concurrent use (as an http.Handler it serves many requests at once). Its zero value
// is not usable; make one with New.
type Site struct {
	seed     uint64
	stories  []story
	storyAt  map[int]int // story id -> index in stories
	products []string    // ASIN-like ids, the content key of a product page
	slugs    []string    // the product's slug, parallel to products
	product  map[string]int
	cats     []string
	lists    int // listing pages per category
	wiki     []string
	wikiSet  map[string]bool
	docs     []string
	doc      map[string]int // lower-cased doc name -> index in docs
	pages    []Page         // sorted
}

var words = strings.Fields(`apple river stone garden mirror silver lantern harbor meadow copper
violet thunder canyon orchard falcon marble ember willow compass glacier saddle velvet quarry
beacon tundra prairie cobalt nectar pebble summit tavern jasmine anchor bramble cinder delta
fern grotto hazel island juniper kettle lagoon maple nickel oasis pepper quill rustic sparrow
timber umber valley walnut yonder zephyr amber basalt cedar dune estuary fjord geyser heron`)

// New makes the site of about n distinct pages for seed (Pages gives the exact list; below 100
// there are more, since each kind of page has a least number): the same
// n and seed give the same site, byte for byte. It returns an error if n is outside
// [MinPages, MaxPages]. It takes O(n log n) time and O(n) memory.
func New(n int, seed uint64) (*Site, error) {
	if n < MinPages || n > MaxPages {
		return nil, fmt.Errorf("simsite: %d pages out of range [%d, %d]", n, MinPages, MaxPages)
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s := &Site{seed: seed, storyAt: map[int]int{}, product: map[string]int{}, wikiSet: map[string]bool{}, doc: map[string]int{}}
	nStories := max(n*45/100, 4)
	nProducts := max(n*25/100, 2)
	s.cats = []string{"shoes", "tents", "lamps", "books", "tools", "maps"}
	s.lists = max(n*10/100/len(s.cats), 2)
	nWiki := max(n*12/100, 2)
	nDocs := max(n*5/100, 2)
	for i := range nStories {
		title := phrase(r, 3+r.IntN(3))
		st := story{
			id:    1000 + i*7,
			slug:  strings.ReplaceAll(title, " ", "-"),
			year:  2008 + r.IntN(10),
			month: 1 + r.IntN(12),
		}
		s.storyAt[st.id] = len(s.stories)
		s.stories = append(s.stories, st)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for len(s.products) < nProducts {
		b := []byte("B0")
		for range 8 {
			b = append(b, alnum[r.IntN(len(alnum))])
		}
		slug := strings.ReplaceAll(titleCase(phrase(r, 2+r.IntN(2))), " ", "-")
		if _, dup := s.product[string(b)]; dup {
			continue
		}
		s.product[string(b)] = len(s.products)
		s.products = append(s.products, string(b))
		s.slugs = append(s.slugs, slug)
	}
	for len(s.wiki) < nWiki {
		w := titleCase(words[r.IntN(len(words))])
		switch {
		case len(s.wiki)%5 == 4:
			// An all-caps title next to its capitalized twin: on a wiki they are different pages.
			w = strings.ToUpper(s.wiki[len(s.wiki)-1])
		case s.wikiSet[w]:
			// The words run out on large sites: "Apple_70" (the number is the title's index,
			// so it is new).
			w += "_" + strconv.Itoa(len(s.wiki))
		}
		if s.wikiSet[w] {
			w = "Page_" + strconv.Itoa(len(s.wiki))
		}
		s.wikiSet[w] = true
		s.wiki = append(s.wiki, w)
	}
	for i := range nDocs {
		d := fmt.Sprintf("%s%d", titleCase(words[(i*7)%len(words)]), i)
		s.doc[strings.ToLower(d)] = i
		s.docs = append(s.docs, d)
	}
	s.pages = append(s.pages, "home", "blog")
	for _, st := range s.stories {
		s.pages = append(s.pages, Page("story/"+strconv.Itoa(st.id)))
	}
	for _, p := range s.products {
		s.pages = append(s.pages, Page("product/"+p))
	}
	for _, c := range s.cats {
		for p := 1; p <= s.lists; p++ {
			s.pages = append(s.pages, listPage(c, p, ""), listPage(c, p, "price"))
		}
	}
	for _, w := range s.wiki {
		s.pages = append(s.pages, Page("wiki/"+w))
	}
	for _, d := range s.docs {
		s.pages = append(s.pages, Page("docs/"+strings.ToLower(d)))
	}
	slices.Sort(s.pages)
	return s, nil
}

// Pages returns the distinct pages of the site, sorted, in a new slice.
func (s *Site) Pages() []Page { return slices.Clone(s.pages) }

// NumPages returns the number of distinct pages of the site: len(s.Pages()).
func (s *Site) NumPages() int { return len(s.pages) }

// Page says which page the URL raw serves ("" for none: the server answers 404) and whether it
// is the page's print view, as the server answers a GET of raw. Two URLs are the same page when
// Page gives both the same non-empty Page; the print view counts as its page, since it has the
// same main text in a bare template.
func (s *Site) Page(raw string) (p Page, print bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	return s.resolve(u.Host, u.EscapedPath(), u.Query())
}

// InSite reports whether the URL raw is on one of the site's hosts (Domain or a host under it),
// whether or not it serves a page.
func InSite(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	h := u.Hostname()
	return h == Domain || strings.HasSuffix(h, "."+Domain)
}

// Links returns the URLs through which the site links to page p, without duplicates, in a
// new slice: its URL variants, then a story's print views. Each serves p (Page gives p). Every
// link in a page the site renders is one of them, so they are all the URLs a crawl of the site
// can meet. Links returns nil for a page that is not the site's.
func (s *Site) Links(p Page) []string {
	if _, ok := slices.BinarySearch(s.pages, p); !ok {
		return nil
	}
	var out []string
	for v := range Variants {
		if u := s.link(p, v); !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	if rest, ok := strings.CutPrefix(string(p), "story/"); ok {
		out = append(out, s.printLink(rest, 0), s.printLink(rest, 1))
	}
	return out
}

func listPage(cat string, page int, sortBy string) Page {
	return Page(fmt.Sprintf("list/%s/%d/%s", cat, page, sortBy))
}

// titleCase upper-cases the first letter of each word of ASCII text.
func titleCase(s string) string {
	b := []byte(s)
	for i := range b {
		if (i == 0 || b[i-1] == ' ') && 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

func phrase(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

// resolve is the server's truth. It ignores what real servers ignore (session ids, tracking
// parameters, parameter order, the slug in front of a product id, the case of the docs
// section, index files) and honours what changes content (ids, page numbers, sort order, the
// case of a wiki title after its first letter).
func (s *Site) resolve(host, path string, q url.Values) (id Page, print bool) {
	if host != Host && host != BareHost && host != MirrorHost {
		return "", false
	}
	// ;jsessionid=... path parameters are stripped by the servlet container.
	if i := strings.Index(path, ";jsessionid="); i >= 0 {
		j := strings.IndexByte(path[i+1:], '/')
		if j < 0 {
			path = path[:i]
		} else {
			path = path[:i] + path[i+1+j:]
		}
	}
	if host == MirrorHost {
		// The mirror carries the news tree under /archive.
		rest, ok := strings.CutPrefix(path, "/archive/")
		if !ok {
			return "", false
		}
		path = "/" + rest
	}
	print = q.Get("print") == "1"
	if p, ok := strings.CutPrefix(path, "/print/"); ok {
		path, print = "/"+p, true
	}
	var id0 Page
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case path == "/" || path == "/index.html" || path == "/index.php":
		id0 = "home"
	case path == "/blog" || path == "/blog/" || path == "/blog/index.html":
		id0 = "blog"
	case len(seg) == 2 && seg[0] == "story":
		id0 = s.storyPage(seg[1])
	case path == "/story.php":
		id0 = s.storyPage(q.Get("id"))
	case len(seg) == 3 && len(seg[0]) == 4 && strings.HasSuffix(seg[2], ".html"):
		// /2009/05/1234-some-title.html: the id before the first "-" is what the server reads.
		n, _, _ := strings.Cut(strings.TrimSuffix(seg[2], ".html"), "-")
		id0 = s.storyPage(n)
	case len(seg) == 2 && seg[0] == "dp", len(seg) == 3 && seg[1] == "dp":
		if _, ok := s.product[seg[len(seg)-1]]; ok {
			id0 = Page("product/" + seg[len(seg)-1])
		}
	case path == "/list":
		c := q.Get("cat")
		page := 1
		if v := q.Get("page"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return "", false
			}
			page = n
		}
		sortBy := q.Get("sort")
		if (sortBy == "" || sortBy == "price") && slices.Contains(s.cats, c) && page >= 1 && page <= s.lists {
			id0 = listPage(c, page, sortBy)
		}
	case len(seg) == 2 && seg[0] == "wiki":
		id0 = s.wikiPage(seg[1])
	case path == "/w/index.php":
		id0 = s.wikiPage(q.Get("title"))
	case len(seg) >= 2 && strings.EqualFold(seg[0], "docs"):
		// An IIS-style section: any case, with or without default.aspx or the slash.
		if len(seg) == 3 && seg[2] != "" && !strings.EqualFold(seg[2], "default.aspx") || len(seg) > 3 {
			return "", false
		}
		if _, ok := s.doc[strings.ToLower(seg[1])]; ok {
			id0 = Page("docs/" + strings.ToLower(seg[1]))
		}
	}
	if id0 == "" {
		return "", false
	}
	return id0, print
}

func (s *Site) storyPage(v string) Page {
	n, err := strconv.Atoi(v)
	if err != nil || strconv.Itoa(n) != v {
		return ""
	}
	if _, ok := s.storyAt[n]; !ok {
		return ""
	}
	return Page("story/" + v)
}

// wikiPage resolves a wiki title: the first letter is case-insensitive, the rest is not.
func (s *Site) wikiPage(t string) Page {
	if t == "" {
		return ""
	}
	t = strings.ToUpper(t[:1]) + t[1:]
	if !s.wikiSet[t] {
		return ""
	}
	return Page("wiki/" + t)
}

// ServeHTTP serves the site: the page of the request's URL (status 200, text/html) or 404. The
// host is the request's Host; the scheme is X-Forwarded-Proto's, http if it has none.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := r.Header.Get("X-Forwarded-Proto")
	if scheme != "https" {
		scheme = "http"
	}
	full := scheme + "://" + r.Host + r.URL.RequestURI()
	id, print := s.resolve(r.Host, r.URL.EscapedPath(), r.URL.Query())
	if id == "" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	s.render(&b, id, print, full)
	fmt.Fprint(w, b.String())
}

// render writes the page: a template (header, navigation, related links, footer) around the
// main content. The print view has the same main content in a bare template. Links name a URL
// variant chosen by a generator seeded with the requested URL, so every copy of a page links
// out through its own mix of variants, as on a real site.
func (s *Site) render(b *strings.Builder, id Page, print bool, requested string) {
	r := rand.New(rand.NewPCG(hash64(string(id))^s.seed, 1))
	lr := rand.New(rand.NewPCG(hash64(requested)^s.seed, 2))
	title, paras := s.content(id, r)
	fmt.Fprintf(b, "<!doctype html><html><head><title>%s</title></head><body>\n", html.EscapeString(title))
	if !print {
		b.WriteString(`<div id="header"><h1>Dustshop</h1><p>Gear and stories since 2008.</p></div>` + "\n")
		b.WriteString(`<ul class="nav">`)
		for _, l := range []Page{"home", "blog", listPage(s.cats[0], 1, ""), Page("docs/" + strings.ToLower(s.docs[0]))} {
			fmt.Fprintf(b, `<li><a href="%s">%s</a></li>`, html.EscapeString(s.link(l, lr.IntN(Variants))), l)
		}
		b.WriteString("</ul>\n")
	}
	fmt.Fprintf(b, "<div class=\"article\"><h2>%s</h2>\n", html.EscapeString(title))
	for _, p := range paras {
		fmt.Fprintf(b, "<p>%s</p>\n", html.EscapeString(p))
	}
	b.WriteString("</div>\n")
	if !print {
		b.WriteString(`<div class="related"><h3>Related</h3><ul>`)
		for _, l := range s.outlinks(id, r) {
			fmt.Fprintf(b, `<li><a href="%s">more</a></li>`, html.EscapeString(s.link(l, lr.IntN(Variants))))
		}
		b.WriteString("</ul></div>\n")
		if rest, ok := strings.CutPrefix(string(id), "story/"); ok {
			fmt.Fprintf(b, `<p><a href="%s">print</a></p>`, html.EscapeString(s.printLink(rest, lr.IntN(2))))
		}
		b.WriteString(`<div id="footer"><p>Copyright Dustshop. All rights reserved. Contact us.</p></div>` + "\n")
	}
	b.WriteString("</body></html>\n")
}

// content makes the page's title and paragraphs, deterministic in its id.
func (s *Site) content(id Page, r *rand.Rand) (string, []string) {
	np := 3 + r.IntN(4)
	if strings.HasPrefix(string(id), "list/") {
		np = 2
	}
	paras := make([]string, np)
	for i := range paras {
		paras[i] = sentence(r, 25+r.IntN(30))
	}
	return string(id), paras
}

func sentence(r *rand.Rand, n int) string {
	p := phrase(r, n)
	return strings.ToUpper(p[:1]) + p[1:] + "."
}

// outlinks chooses the pages a page links to: its neighbours in the sorted list of pages, so
// that everything is reachable from the home page, and a few random others.
func (s *Site) outlinks(id Page, r *rand.Rand) []Page {
	i, _ := slices.BinarySearch(s.pages, id)
	var out []Page
	for d := 1; d <= 3; d++ {
		out = append(out, s.pages[(i+d)%len(s.pages)])
	}
	for range 6 {
		out = append(out, s.pages[r.IntN(len(s.pages))])
	}
	return out
}

// link returns URL variant v (0 <= v < Variants) of page id: the variant's choices are drawn
// from a generator seeded with the site's seed, the page and v.
func (s *Site) link(id Page, v int) string {
	r := rand.New(rand.NewPCG(hash64(string(id))^s.seed, 0x5eed+uint64(v)))
	kind, rest, _ := strings.Cut(string(id), "/")
	// Most links use the site's own form (https, www); some use the aliases.
	host := Host
	if r.IntN(8) == 0 {
		host = BareHost
	}
	scheme := "https"
	if r.IntN(6) == 0 {
		scheme = "http"
	}
	var path string
	q := url.Values{}
	switch kind {
	case "home":
		path = pick(r, "/", "/", "/index.html")
	case "blog":
		path = pick(r, "/blog/", "/blog/", "/blog/index.html", "/blog")
	case "story":
		n, _ := strconv.Atoi(rest)
		st := s.stories[s.storyAt[n]]
		switch r.IntN(6) {
		case 0, 1, 2:
			path = "/story/" + rest
		case 3:
			path = "/story.php"
			q.Set("id", rest)
		case 4:
			path = fmt.Sprintf("/%d/%02d/%s-%s.html", st.year, st.month, rest, st.slug)
		case 5:
			host, path = MirrorHost, "/archive/story/"+rest
		}
	case "product":
		slug := s.slugs[s.product[rest]]
		path = pick(r, "/"+slug+"/dp/"+rest, "/"+slug+"/dp/"+rest, "/dp/"+rest, "/"+strings.ToLower(slug)+"/dp/"+rest)
	case "list":
		parts := strings.Split(rest, "/")
		path = "/list"
		q.Set("cat", parts[0])
		if parts[1] != "1" || r.IntN(3) == 0 {
			q.Set("page", parts[1]) // page=1 is the default value
		}
		if parts[2] != "" {
			q.Set("sort", parts[2])
		}
	case "wiki":
		t := rest
		if r.IntN(4) == 0 && t != strings.ToUpper(t) {
			t = strings.ToLower(t[:1]) + t[1:]
		}
		if r.IntN(3) == 0 {
			path = "/w/index.php"
			q.Set("title", t)
		} else {
			path = "/wiki/" + t
		}
	case "docs":
		name := s.docs[s.doc[rest]]
		switch r.IntN(4) {
		case 0:
			path = "/Docs/" + name + "/default.aspx"
		case 1:
			path = "/docs/" + strings.ToLower(name) + "/"
		case 2:
			path = "/DOCS/" + strings.ToUpper(name) + "/DEFAULT.ASPX"
		default:
			path = "/Docs/" + name + "/"
		}
	}
	// Session ids: a servlet-style path parameter, or the site's own "s" parameter, which no
	// static list can know is a session id (on other sites s= is a search query).
	switch r.IntN(8) {
	case 0:
		if kind != "home" && !strings.HasSuffix(path, "/") {
			path += ";jsessionid=" + hexID(r, 16)
		}
	case 1, 2:
		q.Set("s", hexID(r, 12))
	}
	// Tracking parameters.
	if r.IntN(6) == 0 {
		q.Set("utm_source", pick(r, "feed", "mail", "social"))
		q.Set("utm_medium", "link")
	}
	if r.IntN(7) == 0 {
		q.Set("from", pick(r, "sidebar", "related", "top"))
	}
	u := scheme + "://" + host + path
	if len(q) > 0 {
		// Parameter order varies from link to link.
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range q {
				if !yield(k) {
					return
				}
			}
		})
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = url.QueryEscape(k) + "=" + url.QueryEscape(q.Get(k))
		}
		u += "?" + strings.Join(parts, "&")
	}
	return u
}

// printLink returns print view v (0 or 1) of the story with id rest.
func (s *Site) printLink(rest string, v int) string {
	if v == 0 {
		return "https://" + Host + "/print/story/" + rest
	}
	return "https://" + Host + "/story/" + rest + "?print=1"
}

func pick(r *rand.Rand, opts ...string) string { return opts[r.IntN(len(opts))] }

func hexID(r *rand.Rand, n int) string {
	const hexdigits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = hexdigits[r.IntN(16)]
	}
	return string(b)
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Transport returns an http.RoundTripper that sends every request, whatever its host and
// scheme, to the server listening at addr (host:port, such as an httptest.Server's
// Listener.Addr().String()) in plain HTTP, with the URL's host in the Host header and its
// scheme in X-Forwarded-Proto: a crawler sees many hosts and both schemes while nothing leaves
// the machine. It does not follow redirects (that is the client's job) and does not modify
// the requests it is given. It is safe for concurrent use.
func Transport(addr string) http.RoundTripper {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &loopback{rt: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 16,
	}}
}

type loopback struct{ rt http.RoundTripper }

func (l *loopback) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Host = req.URL.Host
	r.Header.Set("X-Forwarded-Proto", req.URL.Scheme)
	r.URL.Scheme = "http"
	resp, err := l.rt.RoundTrip(r)
	if resp != nil {
		// The response answers the caller's request, not the rewritten one.
		resp.Request = req
	}
	return resp, err
}
