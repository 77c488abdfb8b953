package main

import (
	"math/rand/v2"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestSiteTruth(t *testing.T) {
	s := newSite(200, 1)
	st := s.stories[0]
	sid := "story/" + strconv.Itoa(st.id)
	asin, slug := s.products[0], s.slugs[0]
	w := s.wiki[0]
	doc := s.docs[0]
	tests := []struct {
		url   string
		want  pageID
		print bool
	}{
		// The mechanisms that make one page many URLs.
		{"https://www.dustshop.example/story/" + strconv.Itoa(st.id), pageID(sid), false},
		{"http://dustshop.example/story/" + strconv.Itoa(st.id), pageID(sid), false},                           // scheme and www aliases
		{"https://www.dustshop.example/story.php?id=" + strconv.Itoa(st.id), pageID(sid), false},               // old URL scheme
		{"https://www.dustshop.example/2011/03/" + strconv.Itoa(st.id) + "-any-slug.html", pageID(sid), false}, // permalink
		{"https://mirror.dustshop.example/archive/story/" + strconv.Itoa(st.id), pageID(sid), false},           // mirrored subtree
		{"https://www.dustshop.example/story/" + strconv.Itoa(st.id) + ";jsessionid=ABC123", pageID(sid), false},
		{"https://www.dustshop.example/story/" + strconv.Itoa(st.id) + "?s=deadbeef&utm_source=x", pageID(sid), false},
		{"https://www.dustshop.example/story/" + strconv.Itoa(st.id) + "?print=1", pageID(sid), true}, // print view
		{"https://www.dustshop.example/print/story/" + strconv.Itoa(st.id), pageID(sid), true},
		{"https://www.dustshop.example/" + slug + "/dp/" + asin, pageID("product/" + asin), false},
		{"https://www.dustshop.example/dp/" + asin, pageID("product/" + asin), false}, // slug is irrelevant
		{"https://www.dustshop.example/list?page=1&cat=shoes", listID("shoes", 1, ""), false},
		{"https://www.dustshop.example/list?cat=shoes", listID("shoes", 1, ""), false}, // default value
		{"https://www.dustshop.example/wiki/" + w, pageID("wiki/" + w), false},
		{"https://www.dustshop.example/w/index.php?title=" + w, pageID("wiki/" + w), false},
		{"https://www.dustshop.example/wiki/" + strings.ToLower(w[:1]) + w[1:], pageID("wiki/" + w), false}, // first letter
		{"https://www.dustshop.example/Docs/" + doc + "/default.aspx", pageID("docs/" + strings.ToLower(doc)), false},
		{"https://www.dustshop.example/DOCS/" + strings.ToUpper(doc) + "/DEFAULT.ASPX", pageID("docs/" + strings.ToLower(doc)), false},
		{"https://www.dustshop.example/docs/" + strings.ToLower(doc) + "/", pageID("docs/" + strings.ToLower(doc)), false},
		{"https://www.dustshop.example/blog/index.html", "blog", false},
		// Pages that look alike but are distinct.
		{"https://www.dustshop.example/list?cat=shoes&page=2", listID("shoes", 2, ""), false},
		{"https://www.dustshop.example/list?cat=shoes&sort=price", listID("shoes", 1, "price"), false},
		{"https://www.dustshop.example/wiki/" + strings.ToUpper(w), "", false},  // unless it exists, APPLE is not Apple
		{"https://www.dustshop.example/dp/" + strings.ToLower(asin), "", false}, // ids are case-sensitive
		{"https://www.dustshop.example/story/1", "", false},
		{"https://other.example/story/" + strconv.Itoa(st.id), "", false},
	}
	for _, tt := range tests {
		got, print := s.truth(tt.url)
		if got != tt.want || print != tt.print {
			t.Errorf("truth(%q) = %q, %v; want %q, %v", tt.url, got, print, tt.want, tt.print)
		}
	}
}

// Every URL the site links to serves a page, and every page is linked from somewhere.
func TestSiteLinks(t *testing.T) {
	s := newSite(200, 7)
	r := rand.New(rand.NewPCG(1, 2))
	for _, id := range s.allPages() {
		for range 20 {
			u := s.link(id, r)
			if got, _ := s.truth(u); got != id {
				t.Fatalf("link(%q) = %q serves %q", id, u, got)
			}
		}
	}
}

// Every page of the site is reachable from the home page through the links it renders.
func TestSiteReachable(t *testing.T) {
	s := newSite(150, 3)
	seen := map[pageID]bool{"home": true}
	queue := []pageID{"home"}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		var b strings.Builder
		s.render(&b, id, false, "https://"+siteHost+"/"+string(id))
		for _, l := range links("https://"+siteHost+"/", []byte(b.String())) {
			if got, _ := s.truth(l); got != "" && !seen[got] {
				seen[got] = true
				queue = append(queue, got)
			}
		}
	}
	if got, want := len(seen), len(s.allPages()); got != want {
		t.Errorf("%d distinct pages reachable from home, want all %d", got, want)
	}
}

// The crawler fetches through the loopback transport, keeps to the site and stops at its budget.
func TestCrawlBudget(t *testing.T) {
	s := newSite(60, 3)
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := &crawl{name: "test", client: httpClient(srv.Listener.Addr().String()), key: identity{}, maxFetches: 150}
	if err := c.run("https://" + siteHost + "/"); err != nil {
		t.Fatal(err)
	}
	if len(c.fetches) != 150 {
		t.Errorf("crawl made %d fetches, want the budget of 150 (session ids make the URL space endless)", len(c.fetches))
	}
	for _, f := range c.fetches {
		if id, _ := s.truth(f.url); (id != "") != (f.status == 200) {
			t.Errorf("fetch %q: status %d, truth %q", f.url, f.status, id)
		}
	}
}

type identity struct{}

func (identity) Normalize(s string) (string, error) { return s, nil }
