package undustcolly

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/undust/undust"
	"github.com/undust/undust/simsite"
)

// A run is what the site's truth says of one crawl.
type run struct {
	fetches int                   // requests the server answered
	pages   map[simsite.Page]bool // distinct pages fetched
	kept    map[simsite.Page]bool // distinct pages the crawler's OnHTML saw (kept and followed)
	copies  int                   // responses the crawler's OnHTML saw: what it stores and indexes
	stats   undust.Stats          // undust's, if attached
	waiting int                   // requests the adapter still keeps as waiting for a URL at the end
}

func (r run) perPage() float64 { return float64(r.fetches) / float64(max(len(r.pages), 1)) }

// lost counts the pages of base that r did not keep.
func (r run) lost(base run) int {
	n := 0
	for p := range base.kept {
		if !r.kept[p] {
			n++
		}
	}
	return n
}

// crawlSite crawls site with colly, from its start page, following every link on its hosts,
// with undust attached or not, and scores the crawl with the site's truth.
func crawlSite(t *testing.T, site *simsite.Site, undust, async bool) run {
	t.Helper()
	var fetched atomic.Int64
	var mu sync.Mutex
	r := run{pages: map[simsite.Page]bool{}, kept: map[simsite.Page]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		fetched.Add(1)
		site.ServeHTTP(w, req)
	}))
	defer srv.Close()
	c := colly.NewCollector(colly.AllowedDomains(simsite.Host, simsite.BareHost, simsite.MirrorHost), colly.Async(async))
	c.WithTransport(simsite.Transport(srv.Listener.Addr().String()))
	if async {
		if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 4}); err != nil {
			t.Fatal(err)
		}
	}
	var u *Undust
	if undust {
		var err error
		if u, err = Attach(c, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	c.OnResponse(func(resp *colly.Response) {
		p, _ := site.Page(resp.Request.URL.String())
		mu.Lock()
		r.pages[p] = true
		mu.Unlock()
	})
	c.OnHTML("html", func(e *colly.HTMLElement) {
		p, _ := site.Page(e.Request.URL.String())
		mu.Lock()
		r.kept[p] = true
		r.copies++
		mu.Unlock()
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href"))
	})
	if err := c.Visit(simsite.StartURL); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	r.fetches = int(fetched.Load())
	if u != nil {
		r.stats = u.Stats()
		u.mu.Lock()
		for _, w := range u.waiting {
			r.waiting += len(w)
		}
		u.mu.Unlock()
	}
	return r
}

// TestSimsite crawls simulated sites with plain colly and with colly and undust, and compares
// the fetches they spend per distinct page, the pages they find and the pages undust loses
// (it must lose none). The sites are not the ones the learner's options were tuned on.
func TestSimsite(t *testing.T) {
	sites := []struct {
		size int
		seed uint64
	}{{300, 1}, {300, 7}, {600, 3}}
	if testing.Short() || raceEnabled {
		sites = sites[:1]
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-18s %-13s %8s %6s %9s %6s %5s %6s %8s %6s %6s\n",
		"site", "crawler", "fetches", "pages", "per page", "kept", "lost", "found", "aborted", "dups", "rules")
	for _, s := range sites {
		site, err := simsite.New(s.size, s.seed)
		if err != nil {
			t.Fatal(err)
		}
		plain := crawlSite(t, site, false, false)
		with := crawlSite(t, site, true, false)
		name := fmt.Sprintf("%d pages, seed %d", site.NumPages(), s.seed)
		fmt.Fprintf(&table, "%-18s %-13s %8d %6d %9.2f %6d %5s %6d %8s %6s %6s\n", name, "colly",
			plain.fetches, len(plain.pages), plain.perPage(), plain.copies, "-", len(plain.kept), "-", "-", "-")
		fmt.Fprintf(&table, "%-18s %-13s %8d %6d %9.2f %6d %5d %6d %8d %6d %6d\n", "", "colly+undust",
			with.fetches, len(with.pages), with.perPage(), with.copies, with.lost(plain), len(with.kept),
			with.stats.Skip+with.stats.Seen, with.stats.Duplicates, with.stats.Learner.Rules)
		if len(plain.kept) != site.NumPages() {
			t.Errorf("%s: plain colly found %d of the site's %d pages", name, len(plain.kept), site.NumPages())
		}
		if n := with.lost(plain); n != 0 {
			t.Errorf("%s: colly+undust lost %d pages that plain colly found", name, n)
		}
		if with.perPage() >= plain.perPage()/1.5 {
			t.Errorf("%s: colly+undust spent %.2f fetches per distinct page, plain colly %.2f: want 1.5x fewer",
				name, with.perPage(), plain.perPage())
		}
		if with.stats.Responses != int64(with.fetches) || with.stats.Pages != with.stats.Kept+with.stats.Duplicates {
			t.Errorf("%s: stats do not add up: %+v, %d fetches", name, with.stats, with.fetches)
		}
	}
	t.Logf("plain colly against colly+undust on simsite (in crawlers/colly: go test -v -run TestSimsite .):\n%s", table.String())
}

// An asynchronous collector calls the callbacks from several goroutines (run with -race):
// undust loses no page, still saves fetches, and keeps no aborted request past the crawl.
func TestSimsiteAsync(t *testing.T) {
	site, err := simsite.New(200, 4)
	if err != nil {
		t.Fatal(err)
	}
	plain := crawlSite(t, site, false, true)
	with := crawlSite(t, site, true, true)
	t.Logf("async: colly %d fetches, %d pages; colly+undust %d fetches, %d pages, %d lost",
		plain.fetches, len(plain.kept), with.fetches, len(with.kept), with.lost(plain))
	if n := with.lost(plain); n != 0 {
		t.Errorf("colly+undust lost %d pages that plain colly found", n)
	}
	if with.perPage() >= plain.perPage() {
		t.Errorf("colly+undust spent %.2f fetches per distinct page, plain colly %.2f", with.perPage(), plain.perPage())
	}
	// Each request aborted as a duplicate waits for a URL whose outcome After had, or, when
	// that URL was aborted in turn, for what that one waited for: none is left over.
	if with.waiting != 0 {
		t.Errorf("%d aborted requests still wait for a URL at the end of the crawl", with.waiting)
	}
}

func TestAttachErrors(t *testing.T) {
	tests := []struct {
		name string
		c    *colly.Collector
		o    Options
		want string // in the error; "" for none
	}{
		{"defaults", colly.NewCollector(), Options{}, ""},
		{"exact only", colly.NewCollector(), Options{Options: undust.Options{NearK: -1}}, ""},
		{"largest k", colly.NewCollector(), Options{Options: undust.Options{NearK: 31}}, ""},
		{"nil collector", nil, Options{}, "nil collector"},
		{"k too large", colly.NewCollector(), Options{Options: undust.Options{NearK: 32}}, "NearK 32"},
		{"negative bound", colly.NewCollector(), Options{Options: undust.Options{MaxURLs: -1}}, "negative MaxURLs"},
	}
	for _, tt := range tests {
		u, err := Attach(tt.c, tt.o)
		switch {
		case tt.want == "" && (err != nil || u == nil):
			t.Errorf("%s: Attach = %v, %v; want an Undust", tt.name, u, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "undustcolly: ")):
			t.Errorf("%s: Attach error %v; want one with %q", tt.name, err, tt.want)
		}
	}
}

// The content side: a copy of a page under another session id is a duplicate, marked and
// emptied before the crawler's callbacks see it; two distinct pages are kept; the print view,
// whose main text lacks the article's own "print" link, is a near duplicate, caught only with
// NearK.
func TestDuplicates(t *testing.T) {
	site, err := simsite.New(50, 1)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	story := "https://www.dustshop.example/story/1000"
	for _, o := range []Options{{}, {Options: undust.Options{NearK: 3}}} {
		c := colly.NewCollector()
		c.WithTransport(simsite.Transport(srv.Listener.Addr().String()))
		u, err := Attach(c, o)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		var html []string
		c.OnResponse(func(r *colly.Response) { got[r.Request.URL.String()] = DuplicateOf(r) })
		c.OnHTML("html", func(e *colly.HTMLElement) { html = append(html, e.Request.URL.String()) })
		printDup := "" // the print view's main text lacks the article's "print" link
		if o.NearK > 0 {
			printDup = story // near enough
		}
		visits := []struct{ url, dupOf string }{
			{story, ""},
			{"https://www.dustshop.example/print/story/1000", printDup},
			{"https://www.dustshop.example/story/1000?s=abc1", story}, // a session id urlnorm does not know
			{"https://www.dustshop.example/story/1007", ""},           // another page
		}
		for _, v := range visits {
			if err := c.Visit(v.url); err != nil {
				t.Fatalf("Visit(%s): %v", v.url, err)
			}
		}
		for _, v := range visits {
			if got[v.url] != v.dupOf {
				t.Errorf("NearK %d: DuplicateOf(%s) = %q, want %q", o.NearK, v.url, got[v.url], v.dupOf)
			}
		}
		var want []string
		for _, v := range visits {
			if v.dupOf == "" {
				want = append(want, v.url)
			}
		}
		if strings.Join(html, " ") != strings.Join(want, " ") {
			t.Errorf("NearK %d: OnHTML saw %q, want %q", o.NearK, html, want)
		}
		if st := u.Stats(); st.Pages != 4 || st.Kept != int64(len(want)) || st.Duplicates != int64(4-len(want)) || st.Skip != 0 {
			t.Errorf("NearK %d: stats %+v", o.NearK, st)
		}
	}
}

// A request whose key another request holds is aborted before it is fetched; a 404 is an
// answer and keeps its key; a request that fails gives its key up, and a request aborted as its
// duplicate while it was under way is sent in its place.
func TestAbort(t *testing.T) {
	site, err := simsite.New(50, 1)
	if err != nil {
		t.Fatal(err)
	}
	var u *Undust
	var mu sync.Mutex
	var fetched []string
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetched = append(fetched, r.URL.RequestURI())
		mu.Unlock()
		if r.URL.RequestURI() == "/blog?utm_source=a" {
			close(arrived)
			// Under way until the other link to the page has come up (asked when it was met
			// and when it came up: the twelfth question of the crawl), then failing.
			for i := 0; i < 500 && u.Stats().URLs < 12; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := colly.NewCollector(colly.Async(true))
	c.WithTransport(simsite.Transport(srv.Listener.Addr().String()))
	if u, err = Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	c.OnResponse(func(r *colly.Response) {
		if r.Request.URL.Path == "/story/1007" {
			r.Request.Visit("/blog?utm_source=a")
			select { // b after a is under way
			case <-arrived:
			case <-time.After(5 * time.Second):
			}
			r.Request.Visit("/blog?utm_source=b")
		}
	})
	for _, v := range []string{
		"https://www.dustshop.example/story/1000?utm_source=feed", // fetched
		"https://www.dustshop.example/story/1000?utm_source=mail", // same static key: aborted
		"https://www.dustshop.example/nothing?a=1",                // 404: an answer
		"https://www.dustshop.example/nothing?a=1&utm_medium=x",   // so this one is aborted
		"https://www.dustshop.example/story/1007",                 // links to one page twice
	} {
		c.Visit(v)
		c.Wait()
	}
	want := []string{"/story/1000?utm_source=feed", "/nothing?a=1", "/story/1007",
		"/blog?utm_source=a", "/blog?utm_source=b"}
	mu.Lock()
	got := strings.Join(fetched, " ")
	mu.Unlock()
	if got != strings.Join(want, " ") {
		t.Errorf("fetched %q, want %q", got, want)
	}
	// Three skips: the static duplicates of the first two, and the other link to the page,
	// counted once though asked twice before the page's fetch failed.
	if st := u.Stats(); st.Skip != 3 || st.Failed != 1 || st.Kept != 3 {
		t.Errorf("stats %+v", st)
	}
}

// A redirect to a URL of the same key as the URL redirected (a tracking parameter dropped) is
// followed: it is the page of that URL, which holds the key; not followed, the page would be
// lost, since colly counts the target visited. In an asynchronous collector it does not await
// the fetch it is part of.
func TestRedirectToOwnKey(t *testing.T) {
	for _, async := range []bool{false, true} {
		srv, hits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.RequestURI() {
			case "/post/1":
				fmt.Fprint(w, article)
			case "/post/1?utm_source=feed":
				http.Redirect(w, r, "/post/1", http.StatusMovedPermanently)
			default:
				http.NotFound(w, r)
			}
		})
		c := colly.NewCollector(colly.Async(async))
		c.SetRequestTimeout(30 * time.Second)
		u, err := Attach(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.Visit(srv.URL + "/post/1?utm_source=feed")
		c.Wait()
		if n := hits("/post/1"); n != 1 {
			t.Errorf("async %v: /post/1 fetched %d times, want 1", async, n)
		}
		if st := u.Stats(); st.Kept != 1 || st.Failed != 0 {
			t.Errorf("async %v: stats %+v", async, st)
		}
	}
}

// article is the page of a long article.
var article = "<html><body><main><p>" + strings.Repeat("A long article about lanterns and keepers. ", 20) + "</p></main></body></html>"

// A redirect to a page fetched before is not followed: the redirect is the answer.
func TestRedirectToKnownPage(t *testing.T) {
	for _, redirectHandler := range []bool{true, false} {
		srv, hits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/post/1":
				fmt.Fprint(w, article)
			case "/":
				// To the page under a tracking parameter: not the URL colly visited, the key.
				http.Redirect(w, r, "/post/1?utm_source="+r.URL.Query().Get("x"), http.StatusMovedPermanently)
			default:
				http.NotFound(w, r)
			}
		})
		c := colly.NewCollector()
		u, err := Attach(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !redirectHandler {
			c.SetRedirectHandler(func(*http.Request, []*http.Request) error { return nil })
		}
		c.Visit(srv.URL + "/?p=1") // followed: /post/1 is fetched through it
		c.Visit(srv.URL + "/post/1")
		c.Visit(srv.URL + "/?p=1&x=2") // /post/1 is known: not followed
		want := 1
		if !redirectHandler {
			want = 2
		}
		if got := hits("/post/1") + hits("/post/1?utm_source=") + hits("/post/1?utm_source=2"); got != want {
			t.Errorf("redirect handler %v: /post/1 fetched %d times, want %d", redirectHandler, got, want)
		}
		if st := u.Stats(); redirectHandler && st.Redirects != 2 {
			t.Errorf("stats %+v", st)
		}
	}
}
