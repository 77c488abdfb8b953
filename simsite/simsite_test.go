package simsite

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func mustNew(t testing.TB, n int, seed uint64) *Site {
	t.Helper()
	s, err := New(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPage(t *testing.T) {
	s := mustNew(t, 200, 1)
	sid := strconv.Itoa(s.stories[0].id)
	story := Page("story/" + sid)
	asin, slug := s.products[0], s.slugs[0]
	w := s.wiki[0]
	doc := s.docs[0]
	docPage := Page("docs/" + strings.ToLower(doc))
	tests := []struct {
		url   string
		want  Page
		print bool
	}{
		// The mechanisms that make one page many URLs.
		{"https://www.dustshop.example/story/" + sid, story, false},
		{"http://dustshop.example/story/" + sid, story, false},                           // scheme and www aliases
		{"https://www.dustshop.example/story.php?id=" + sid, story, false},               // old URL scheme
		{"https://www.dustshop.example/2011/03/" + sid + "-any-slug.html", story, false}, // permalink
		{"https://mirror.dustshop.example/archive/story/" + sid, story, false},           // mirrored subtree
		{"https://www.dustshop.example/story/" + sid + ";jsessionid=ABC123", story, false},
		{"https://www.dustshop.example/story/" + sid + "?s=deadbeef&utm_source=x", story, false},
		{"https://www.dustshop.example/story/" + sid + "?print=1", story, true}, // print view
		{"https://www.dustshop.example/print/story/" + sid, story, true},
		{"https://www.dustshop.example/" + slug + "/dp/" + asin, Page("product/" + asin), false},
		{"https://www.dustshop.example/dp/" + asin, Page("product/" + asin), false}, // slug is irrelevant
		{"https://www.dustshop.example/list?page=1&cat=shoes", listPage("shoes", 1, ""), false},
		{"https://www.dustshop.example/list?cat=shoes", listPage("shoes", 1, ""), false}, // default value
		{"https://www.dustshop.example/wiki/" + w, Page("wiki/" + w), false},
		{"https://www.dustshop.example/w/index.php?title=" + w, Page("wiki/" + w), false},
		{"https://www.dustshop.example/wiki/" + strings.ToLower(w[:1]) + w[1:], Page("wiki/" + w), false}, // first letter
		{"https://www.dustshop.example/Docs/" + doc + "/default.aspx", docPage, false},
		{"https://www.dustshop.example/DOCS/" + strings.ToUpper(doc) + "/DEFAULT.ASPX", docPage, false},
		{"https://www.dustshop.example/docs/" + strings.ToLower(doc) + "/", docPage, false},
		{"https://www.dustshop.example/blog/index.html", "blog", false},
		// Pages that look alike but are distinct.
		{"https://www.dustshop.example/list?cat=shoes&page=2", listPage("shoes", 2, ""), false},
		{"https://www.dustshop.example/list?cat=shoes&sort=price", listPage("shoes", 1, "price"), false},
		{"https://www.dustshop.example/dp/" + strings.ToLower(asin), "", false}, // ids are case-sensitive
		// Not pages.
		{"https://www.dustshop.example/story/1", "", false},
		{"https://www.dustshop.example/story/0" + sid, "", false}, // the id is read as written
		{"https://www.dustshop.example/list?cat=shoes&sort=name", "", false},
		{"https://www.dustshop.example/list?cat=shoes&page=x", "", false},
		{"https://www.dustshop.example/Docs/" + doc + "/other.aspx", "", false},
		{"https://mirror.dustshop.example/story/" + sid, "", false}, // the mirror serves /archive only
		{"https://other.example/story/" + sid, "", false},
		{"::", "", false},
	}
	for _, tt := range tests {
		got, print := s.Page(tt.url)
		if got != tt.want || print != tt.print {
			t.Errorf("Page(%q) = %q, %v; want %q, %v", tt.url, got, print, tt.want, tt.print)
		}
	}
	// A capitalized wiki title and its all-caps twin are two pages.
	if w4, w3 := s.wiki[4], s.wiki[3]; w4 != strings.ToUpper(w3) || s.wikiPage(w4) == s.wikiPage(w3) {
		t.Errorf("wiki titles %q and %q: want an all-caps twin that is another page", w3, w4)
	}
}

// New accepts the ends of its range, rejects what lies outside, and makes the same site for
// the same size and seed.
func TestNewRange(t *testing.T) {
	for _, n := range []int{MinPages, 675, 5000, MaxPages} {
		s := mustNew(t, n, 1)
		if got := s.NumPages(); got < n*9/10 || got > n*11/10+30 {
			t.Errorf("New(%d) has %d pages", n, got)
		}
		seen := map[Page]bool{}
		for _, p := range s.Pages() {
			if seen[p] {
				t.Errorf("New(%d): page %q twice", n, p)
			}
			seen[p] = true
		}
		if len(s.wikiSet) != len(s.wiki) {
			t.Errorf("New(%d): %d wiki titles, %d distinct", n, len(s.wiki), len(s.wikiSet))
		}
	}
	for _, n := range []int{MinPages - 1, 0, -5, MaxPages + 1} {
		if _, err := New(n, 1); err == nil {
			t.Errorf("New(%d) gave no error", n)
		}
	}
	a, b := mustNew(t, 300, 9), mustNew(t, 300, 9)
	if !slices.Equal(a.Pages(), b.Pages()) || a.render1("story/1007") != b.render1("story/1007") {
		t.Error("two sites of one size and seed differ")
	}
}

func (s *Site) render1(id Page) string {
	var b strings.Builder
	s.render(&b, id, false, StartURL)
	return b.String()
}

// Every link of every page is one of its target's Links, and serves it.
func TestLinks(t *testing.T) {
	for _, n := range []int{MinPages, 200} {
		s := mustNew(t, n, 7)
		for _, id := range s.Pages() {
			ls := s.Links(id)
			if len(ls) < 2 {
				t.Errorf("Links(%q) = %q: want several variants", id, ls)
			}
			for _, u := range ls {
				if got, _ := s.Page(u); got != id {
					t.Fatalf("Links(%q) has %q, which serves %q", id, u, got)
				}
			}
		}
		if s.Links("story/1") != nil || s.Links("") != nil {
			t.Error("Links of a page not on the site is not nil")
		}
	}
}

var hrefRE = regexp.MustCompile(`href="([^"]*)"`)

func hrefs(page string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// Every page is reachable from the home page through the links the site renders, every link
// is one of its page's Links, and so a crawl by exact URL ends: the URL space is finite.
func TestReachableFinite(t *testing.T) {
	s := mustNew(t, 150, 3)
	links := map[string]Page{}
	for _, p := range s.Pages() {
		for _, u := range s.Links(p) {
			links[u] = p
		}
	}
	seen := map[string]bool{StartURL: true}
	pages := map[Page]bool{}
	queue := []string{StartURL}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		id, print := s.Page(u)
		if id == "" {
			t.Fatalf("%q serves no page", u)
		}
		pages[id] = true
		var b strings.Builder
		s.render(&b, id, print, u)
		for _, l := range hrefs(b.String()) {
			if _, ok := links[l]; !ok {
				t.Fatalf("page %q links to %q, which is not in Links", u, l)
			}
			if !seen[l] {
				seen[l] = true
				queue = append(queue, l)
			}
		}
	}
	if len(pages) != s.NumPages() {
		t.Errorf("%d distinct pages reachable from home, want all %d", len(pages), s.NumPages())
	}
	if len(seen) > len(links)+1 {
		t.Errorf("a crawl by exact URL met %d URLs, more than the %d of Links", len(seen), len(links))
	}
}

// Through Transport, the server answers for every host and both schemes.
func TestServe(t *testing.T) {
	s := mustNew(t, 40, 2)
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := &http.Client{Transport: Transport(srv.Listener.Addr().String())}
	sid := strconv.Itoa(s.stories[1].id)
	tests := []struct {
		url    string
		status int
		want   string // in the body
	}{
		{StartURL, 200, `<h2>home</h2>`},
		{"http://dustshop.example/story/" + sid, 200, `<h2>story/` + sid + `</h2>`},
		{"https://mirror.dustshop.example/archive/story/" + sid, 200, `<h2>story/` + sid + `</h2>`},
		{"https://www.dustshop.example/print/story/" + sid, 200, `<h2>story/` + sid + `</h2>`},
		{"https://www.dustshop.example/nothing", 404, "not found"},
	}
	for _, tt := range tests {
		resp, err := c.Get(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Request.URL.String() != tt.url {
			t.Errorf("GET %s: the response's request is for %s", tt.url, resp.Request.URL)
		}
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.want) {
			t.Errorf("GET %s: %d, %.80q; want %d with %q", tt.url, resp.StatusCode, body, tt.status, tt.want)
		}
	}
	// The print view has the article without the template.
	resp, err := c.Get("https://www.dustshop.example/print/story/" + sid)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), `class="nav"`) {
		t.Error("print view has the navigation")
	}
}

func TestInSite(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{StartURL, true},
		{"http://dustshop.example/x", true},
		{"https://mirror.dustshop.example/archive/", true},
		{"https://notdustshop.example/", false}, // a suffix of the name, not a sub-domain
		{"https://other.example/", false},
		{"::", false},
	}
	for _, tt := range tests {
		if got := InSite(tt.url); got != tt.want {
			t.Errorf("InSite(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}
