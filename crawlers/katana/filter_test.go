package undustkatana

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"
	"github.com/projectdiscovery/katana/pkg/utils/filters"

	"github.com/undust/undust"
)

func crawlerOptions(t *testing.T, proxy string, mod func(*types.Options)) *types.CrawlerOptions {
	t.Helper()
	opts := &types.Options{
		MaxDepth:     1 << 20, // the whole site: the crawl ends when the frontier is empty
		FieldScope:   "rdn",
		BodyReadSize: 1 << 20,
		Timeout:      5, // also how long katana waits on an empty queue before it stops
		Concurrency:  4,
		RateLimit:    100000, // katana needs a limiter; this one never waits on loopback
		Parallelism:  1,
		Strategy:     "breadth-first",
		Proxy:        proxy,
		Silent:       true,
		NoColors:     true,
	}
	if mod != nil {
		mod(opts)
	}
	co, err := types.NewCrawlerOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	return co
}

// crawlHandMade crawls a hand-made site from its home page with katana and a Crawler of
// default Options (mod, if not nil, changes katana's options first), and returns the Crawler.
func crawlHandMade(t *testing.T, site *handMade, mod func(*types.Options)) *Crawler {
	t.Helper()
	p := newSiteProxy(t, site)
	co := crawlerOptions(t, p.proxy.URL, mod)
	co.OutputWriter = &results{}
	c, err := New(co, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Crawl("http://site.example/"); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*types.Options)
		o    Options
		want error // nil: no error
	}{
		{"defaults", nil, Options{}, nil},
		{"-fsu", func(o *types.Options) { o.FilterSimilar = true }, Options{}, ErrFilterSimilar},
		{"-iqp", func(o *types.Options) { o.IgnoreQueryParams = true }, Options{}, ErrIgnoreQuery},
		{"-duf", func(o *types.Options) { o.DisableUniqueFilter = true }, Options{}, ErrNoUniqueFilter},
		{"headless", func(o *types.Options) { o.Headless = true }, Options{}, ErrHeadless},
	}
	for _, tc := range tests {
		co := crawlerOptions(t, "", tc.mod)
		c, err := New(co, tc.o)
		if !errors.Is(err, tc.want) || (err == nil) != (c != nil) {
			t.Errorf("%s: New = %v, %v; want error %v", tc.name, c, err, tc.want)
		}
	}
	if _, err := New(crawlerOptions(t, "", nil), Options{Options: undust.Options{NearK: 40}}); err == nil ||
		!strings.HasPrefix(err.Error(), "undustkatana: ") || !strings.Contains(err.Error(), "NearK 40") {
		t.Errorf("NearK 40: %v", err)
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Errorf("nil options: no error")
	}
}

func TestIsCycle(t *testing.T) {
	f := &filter{}
	tests := []struct {
		url  string
		want bool
	}{
		{"https://a.example/", false},
		{"https://a.example/a/b/c/d?x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1", false},                    // the query is not a path
		{"https://a.example/" + strings.Repeat("a/b/", 9) + "c", false},                                 // 9 repetitions
		{"https://a.example/" + strings.Repeat("a/b/", 10) + "c", true},                                 // 10: katana's MaxSequenceCount
		{"https://a.example/" + strings.Repeat("x", filters.MaxChromeURLLength), true},                  // over Chrome's limit
		{"https://a.example/" + strings.Repeat("docs/", 5) + strings.Repeat("img/", 10) + "?q=1", true}, // one segment 10 times
	}
	for _, tc := range tests {
		if got := f.IsCycle(tc.url); got != tc.want {
			t.Errorf("IsCycle(%.80q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

// TestUniqueURLOnce checks that a link found twice before its first copy is fetched is queued
// once (Before answers Fetch to both: the URL holds its key and is not fetched yet), and that a
// duplicate of a queued URL is not queued.
func TestUniqueURLOnce(t *testing.T) {
	crawl, err := undust.New(undust.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &filter{crawl: crawl}
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://a.example/p?id=1", true},
		{"https://a.example/p?id=1", false},              // found again on another page
		{"https://a.example/p?id=1#top", false},          // the same key, held by the first
		{"https://a.example/p?id=2", true},               // another page
		{"https://a.example/p?utm_source=x&id=2", false}, // a duplicate by the static key
	} {
		if got := f.UniqueURL(tc.url); got != tc.want {
			t.Errorf("UniqueURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

// handMade serves pages from a map; paths in fail answer 502 as many times as they say, and
// paths in redirect answer 301 to their value.
type handMade struct {
	mu       sync.Mutex
	pages    map[string]string
	fail     map[string]int
	redirect map[string]string
	hits     map[string]int
}

func (s *handMade) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	p := r.URL.RequestURI()
	s.hits[p]++
	fail := s.fail[p] > 0
	if fail {
		s.fail[p]--
	}
	body, ok := s.pages[p]
	to, moved := s.redirect[p]
	s.mu.Unlock()
	switch {
	case fail:
		w.WriteHeader(http.StatusBadGateway)
	case moved:
		http.Redirect(w, r, to, http.StatusMovedPermanently)
	case !ok:
		http.NotFound(w, r)
	default:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, body)
	}
}

func page(title string, words int, seed int, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title></head><body><ul class=nav><li><a href=/>home</a></li></ul>", title)
	b.WriteString("<div class=article><p>")
	for i := range words {
		fmt.Fprintf(&b, "w%d ", (i*7919+seed*104729)%100003)
	}
	b.WriteString("</p>")
	for _, l := range links {
		fmt.Fprintf(&b, "<p><a href=%q>%s</a></p>", l, l)
	}
	b.WriteString("</div></body></html>")
	return b.String()
}

// results records katana's output.
type results struct {
	mu   sync.Mutex
	urls []string
}

func (r *results) Close() error                 { return nil }
func (r *results) WriteErr(*output.Error) error { return nil }
func (r *results) Write(res *output.Result) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if res.Response != nil && res.Response.Resp != nil {
		r.urls = append(r.urls, res.Request.URL)
	}
	return nil
}

// The Crawler decides when a request is about to be sent: a link queued before a rule or a key
// made it a duplicate is skipped then; a page whose main text was seen is not followed; a
// request that fails gives its key back and a link dropped as its duplicate is queued again.
func TestCrawler(t *testing.T) {
	site := &handMade{hits: map[string]int{}, pages: map[string]string{
		"/":               page("home", 60, 1, "/a?utm_source=x", "/a?utm_source=y", "/copy", "/b"),
		"/a?utm_source=x": page("a", 60, 2),
		"/a?utm_source=y": page("a", 60, 2),
		// The home page's main text under another navigation bar: not followed.
		"/copy": strings.Replace(page("home", 60, 1, "/a?utm_source=x", "/a?utm_source=y", "/copy", "/b"),
			"<li><a href=/>home</a></li>", "<li><a href=/c>c</a></li>", 1),
		"/b": page("b", 60, 3),
		"/c": page("c", 60, 4),
	}, fail: map[string]int{"/a?utm_source=x": 1}}
	c := crawlHandMade(t, site, nil)
	site.mu.Lock()
	defer site.mu.Unlock()
	if site.hits["/a?utm_source=y"] != 1 || site.hits["/c"] != 0 || site.hits["/b"] != 1 || site.hits["/copy"] != 1 {
		t.Errorf("hits %v: want /a?utm_source=y fetched after the failure of x, /copy once, /c never", site.hits)
	}
	st := c.Stats()
	if st.Failed != 1 || st.Duplicates != 1 || st.Kept != 3 {
		t.Errorf("stats %+v", st)
	}
}

// A redirect to a URL of the same key as the URL redirected (a tracking parameter dropped) is
// followed: it is that URL's page, which holds the key.
func TestRedirectToOwnKey(t *testing.T) {
	site := &handMade{hits: map[string]int{}, pages: map[string]string{
		"/":  page("home", 60, 1, "/a?utm_source=x"),
		"/a": page("a", 60, 2),
	}, redirect: map[string]string{"/a?utm_source=x": "/a"}}
	crawlHandMade(t, site, nil)
	site.mu.Lock()
	defer site.mu.Unlock()
	if site.hits["/a"] != 1 {
		t.Errorf("hits %v: want /a fetched once, through the redirect", site.hits)
	}
}
