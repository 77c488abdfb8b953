package main

import (
	"fmt"
	"hash/fnv"
	"html"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// The simulated site: one shop-and-news site on several host names, serving each of its pages
// under many URLs, the way real sites do (see the dupclusters README for the mechanisms), and a
// few sets of pages that look alike but are distinct. It knows which page every URL serves, so
// the example can score itself; the crawler never looks at that.
//
// Host names end in .example (RFC 2606). The crawler's transport sends every request to the
// one loopback server, which tells the hosts apart by the Host header.
const (
	siteHost   = "www.dustshop.example"
	bareHost   = "dustshop.example"
	mirrorHost = "mirror.dustshop.example"
	// siteDomain is the registrable domain the crawler stays in.
	siteDomain = "dustshop.example"
)

// A pageID names a distinct page: "story/17", "product/B0A1C2D3E4", "list/shoes/2/price", ...
type pageID string

type story struct {
	id    int
	slug  string
	title string
	year  int
	month int
}

type site struct {
	stories  []story
	products []string // ASIN-like ids, the content key of a product page; their slugs
	slugs    []string
	cats     []string
	pages    int // listing pages per category
	wiki     []string
	docs     []string
}

var words = strings.Fields(`apple river stone garden mirror silver lantern harbor meadow copper
violet thunder canyon orchard falcon marble ember willow compass glacier saddle velvet quarry
beacon tundra prairie cobalt nectar pebble summit tavern jasmine anchor bramble cinder delta
fern grotto hazel island juniper kettle lagoon maple nickel oasis pepper quill rustic sparrow
timber umber valley walnut yonder zephyr amber basalt cedar dune estuary fjord geyser heron`)

// newSite makes a deterministic site of about n distinct pages from seed.
func newSite(n int, seed uint64) *site {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s := &site{}
	nStories := max(n*45/100, 4)
	nProducts := max(n*25/100, 2)
	s.cats = []string{"shoes", "tents", "lamps", "books", "tools", "maps"}
	s.pages = max(n*10/100/len(s.cats), 2)
	nWiki := max(n*12/100, 2)
	nDocs := max(n*5/100, 2)
	for i := range nStories {
		title := phrase(r, 3+r.IntN(3))
		s.stories = append(s.stories, story{
			id:    1000 + i*7,
			slug:  strings.ToLower(strings.ReplaceAll(title, " ", "-")),
			title: title,
			year:  2008 + r.IntN(10),
			month: 1 + r.IntN(12),
		})
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for range nProducts {
		b := []byte("B0")
		for range 8 {
			b = append(b, alnum[r.IntN(len(alnum))])
		}
		s.products = append(s.products, string(b))
		s.slugs = append(s.slugs, strings.ReplaceAll(titleCase(phrase(r, 2+r.IntN(2))), " ", "-"))
	}
	seen := map[string]bool{}
	for len(s.wiki) < nWiki {
		w := titleCase(words[r.IntN(len(words))])
		if len(s.wiki)%5 == 4 {
			// An all-caps title next to its capitalized twin: on a wiki they are different pages.
			w = strings.ToUpper(s.wiki[len(s.wiki)-1])
		}
		if !seen[w] {
			seen[w] = true
			s.wiki = append(s.wiki, w)
		}
	}
	for i := range nDocs {
		s.docs = append(s.docs, fmt.Sprintf("%s%d", titleCase(words[(i*7)%len(words)]), i))
	}
	return s
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

// allPages lists every distinct page of the site, sorted.
func (s *site) allPages() []pageID {
	var ids []pageID
	ids = append(ids, "home", "blog")
	for _, st := range s.stories {
		ids = append(ids, pageID("story/"+strconv.Itoa(st.id)))
	}
	for _, p := range s.products {
		ids = append(ids, pageID("product/"+p))
	}
	for _, c := range s.cats {
		for p := 1; p <= s.pages; p++ {
			ids = append(ids, listID(c, p, ""), listID(c, p, "price"))
		}
	}
	for _, w := range s.wiki {
		ids = append(ids, pageID("wiki/"+w))
	}
	for _, d := range s.docs {
		ids = append(ids, pageID("docs/"+strings.ToLower(d)))
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func listID(cat string, page int, sortBy string) pageID {
	return pageID(fmt.Sprintf("list/%s/%d/%s", cat, page, sortBy))
}

// resolve says which page u serves and whether it is the print view: the server's truth. It
// ignores what real servers ignore (session ids, tracking parameters, parameter order, the
// slug in front of a product id, the case of the docs section, index files) and honours what
// changes content (ids, page numbers, sort order, the case of a wiki title after its first letter).
func (s *site) resolve(host, path string, q url.Values) (id pageID, print bool) {
	if host != siteHost && host != bareHost && host != mirrorHost {
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
	if host == mirrorHost {
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
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case path == "/" || path == "/index.html" || path == "/index.php":
		return "home", print
	case path == "/blog" || path == "/blog/" || path == "/blog/index.html":
		return "blog", print
	case len(seg) == 2 && seg[0] == "story":
		return s.storyID(seg[1]), print
	case path == "/story.php":
		return s.storyID(q.Get("id")), print
	case len(seg) == 3 && len(seg[0]) == 4 && strings.HasSuffix(seg[2], ".html"):
		// /2009/05/1234-some-title.html: the id before the first "-" is what the server reads.
		n, _, _ := strings.Cut(strings.TrimSuffix(seg[2], ".html"), "-")
		return s.storyID(n), print
	case len(seg) == 2 && seg[0] == "dp", len(seg) == 3 && seg[1] == "dp":
		asin := seg[len(seg)-1]
		for _, p := range s.products {
			if p == asin {
				return pageID("product/" + p), print
			}
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
		if sortBy != "" && sortBy != "price" {
			return "", false
		}
		for _, cc := range s.cats {
			if cc == c && page >= 1 && page <= s.pages {
				return listID(c, page, sortBy), print
			}
		}
	case len(seg) == 2 && seg[0] == "wiki":
		return s.wikiID(seg[1]), print
	case path == "/w/index.php":
		return s.wikiID(q.Get("title")), print
	case len(seg) >= 2 && strings.EqualFold(seg[0], "docs"):
		// An IIS-style section: any case, with or without default.aspx or the slash.
		if len(seg) == 3 && seg[2] != "" && !strings.EqualFold(seg[2], "default.aspx") || len(seg) > 3 {
			return "", false
		}
		for _, d := range s.docs {
			if strings.EqualFold(d, seg[1]) {
				return pageID("docs/" + strings.ToLower(d)), print
			}
		}
	}
	return "", false
}

func (s *site) storyID(v string) pageID {
	n, err := strconv.Atoi(v)
	if err != nil {
		return ""
	}
	for _, st := range s.stories {
		if st.id == n {
			return pageID("story/" + v)
		}
	}
	return ""
}

// wikiID resolves a wiki title: the first letter is case-insensitive, the rest is not.
func (s *site) wikiID(t string) pageID {
	if t == "" {
		return ""
	}
	t = strings.ToUpper(t[:1]) + t[1:]
	for _, w := range s.wiki {
		if w == t {
			return pageID("wiki/" + w)
		}
	}
	return ""
}

// ServeHTTP serves the site. The scheme the client asked for comes in X-Forwarded-Proto, as
// behind a TLS-terminating proxy.
func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := r.Header.Get("X-Forwarded-Proto")
	if scheme == "" {
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

// render writes the page: a template (header, navigation, sidebar, footer) around the main
// content. The print view has the same main content in a bare template. Links in the page use
// URL variants chosen by a generator seeded with the requested URL, so every copy of a page
// links out through its own mix of session ids and aliases, as on a real site.
func (s *site) render(b *strings.Builder, id pageID, print bool, requested string) {
	r := rand.New(rand.NewPCG(hash64(string(id)), 1))
	lr := rand.New(rand.NewPCG(hash64(requested), 2))
	title, paras := s.content(id, r)
	fmt.Fprintf(b, "<!doctype html><html><head><title>%s</title></head><body>\n", html.EscapeString(title))
	if !print {
		b.WriteString(`<div id="header"><h1>Dustshop</h1><p>Gear and stories since 2008.</p></div>` + "\n")
		b.WriteString(`<ul class="nav">`)
		for _, l := range []pageID{"home", "blog", listID(s.cats[0], 1, ""), pageID("docs/" + strings.ToLower(s.docs[0]))} {
			fmt.Fprintf(b, `<li><a href="%s">%s</a></li>`, html.EscapeString(s.link(l, lr)), l)
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
			fmt.Fprintf(b, `<li><a href="%s">more</a></li>`, html.EscapeString(s.link(l, lr)))
		}
		b.WriteString("</ul></div>\n")
		if strings.HasPrefix(string(id), "story/") {
			fmt.Fprintf(b, `<p><a href="%s">print</a></p>`, html.EscapeString(s.printLink(id, lr)))
		}
		b.WriteString(`<div id="footer"><p>Copyright Dustshop. All rights reserved. Contact us.</p></div>` + "\n")
	}
	b.WriteString("</body></html>\n")
}

// content makes the page's title and paragraphs, deterministic in its id.
func (s *site) content(id pageID, r *rand.Rand) (string, []string) {
	title := string(id)
	np := 3 + r.IntN(4)
	if strings.HasPrefix(string(id), "list/") {
		np = 2
	}
	paras := make([]string, np)
	for i := range paras {
		paras[i] = sentence(r, 25+r.IntN(30))
	}
	return title, paras
}

func sentence(r *rand.Rand, n int) string {
	p := phrase(r, n)
	return strings.ToUpper(p[:1]) + p[1:] + "."
}

// outlinks chooses the pages a page links to: its neighbours in the site's lists, so that
// everything is reachable from the home page, and a few random others.
func (s *site) outlinks(id pageID, r *rand.Rand) []pageID {
	all := s.allPages()
	i := sort.Search(len(all), func(i int) bool { return all[i] >= id })
	var out []pageID
	for d := 1; d <= 3; d++ {
		out = append(out, all[(i+d)%len(all)])
	}
	for range 6 {
		out = append(out, all[r.IntN(len(all))])
	}
	return out
}

// link returns one of the many URLs of page id.
func (s *site) link(id pageID, r *rand.Rand) string {
	kind, rest, _ := strings.Cut(string(id), "/")
	// Most links use the site's own form (https, www); some use the aliases.
	host := siteHost
	if r.IntN(8) == 0 {
		host = bareHost
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
		st := s.storyByID(n)
		switch r.IntN(6) {
		case 0, 1, 2:
			path = "/story/" + rest
		case 3:
			path = "/story.php"
			q.Set("id", rest)
		case 4:
			path = fmt.Sprintf("/%d/%02d/%s-%s.html", st.year, st.month, rest, st.slug)
		case 5:
			host, path = mirrorHost, "/archive/story/"+rest
		}
	case "product":
		slug := s.slugs[indexOf(s.products, rest)]
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
		name := s.docs[indexOfFold(s.docs, rest)]
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
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		var parts []string
		for _, k := range keys {
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(q.Get(k)))
		}
		u += "?" + strings.Join(parts, "&")
	}
	return u
}

func (s *site) printLink(id pageID, r *rand.Rand) string {
	_, rest, _ := strings.Cut(string(id), "/")
	if r.IntN(2) == 0 {
		return "https://" + siteHost + "/print/story/" + rest
	}
	return "https://" + siteHost + "/story/" + rest + "?print=1"
}

func (s *site) storyByID(n int) story {
	for _, st := range s.stories {
		if st.id == n {
			return st
		}
	}
	return story{}
}

func pick(r *rand.Rand, opts ...string) string { return opts[r.IntN(len(opts))] }

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return 0
}

func indexOfFold(list []string, v string) int {
	for i, x := range list {
		if strings.EqualFold(x, v) {
			return i
		}
	}
	return 0
}

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

// truth says which page a URL serves ("" for none) and whether it is a print view, as the
// server would answer it. Only the report uses it; the crawler judges by content.
func (s *site) truth(raw string) (pageID, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	return s.resolve(u.Host, u.EscapedPath(), u.Query())
}
