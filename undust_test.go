package undust

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/hrefs"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/simsite"
)

// A testCrawler is the smallest crawler: breadth first, one fetch at a time, Before when a link
// is found and again when it comes up, After for every fetch; it follows the links of pages that
// are not duplicates, within the site of its scope function.
type testCrawler struct {
	c      *Crawl
	client *http.Client
	inSite func(string) bool
	max    int
	follow bool // the client follows redirects
	lifo   bool // the queue is a stack, as katana's is

	queue   []string
	fetches []string
	log     []string // every decision, for comparisons
}

func newTestCrawler(t testing.TB, c *Crawl, h http.Handler, inSite func(string) bool) (*testCrawler, func()) {
	srv := httptest.NewServer(h)
	tc := &testCrawler{c: c, inSite: inSite, max: 100000,
		client: &http.Client{Transport: simsite.Transport(srv.Listener.Addr().String()),
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	return tc, srv.Close
}

func (tc *testCrawler) enqueue(u string) {
	d := tc.c.Before(u)
	tc.log = append(tc.log, fmt.Sprintf("enqueue %s: %v %s", u, d.Action, d.Of))
	if d.Action != Skip {
		tc.queue = append(tc.queue, u)
	}
}

// step fetches the next URL of the queue; it reports false when the queue is empty or the
// budget spent.
func (tc *testCrawler) step(t testing.TB) bool {
	if len(tc.queue) == 0 || len(tc.fetches) >= tc.max {
		return false
	}
	u := tc.queue[0]
	if tc.lifo {
		u = tc.queue[len(tc.queue)-1]
		tc.queue = tc.queue[:len(tc.queue)-1]
	} else {
		tc.queue = tc.queue[1:]
	}
	d := tc.c.Before(u)
	tc.log = append(tc.log, fmt.Sprintf("fetch? %s: %v %s", u, d.Action, d.Of))
	if d.Action == Skip {
		return true
	}
	r := tc.get(t, u)
	tc.fetches = append(tc.fetches, u)
	p := tc.c.After(r)
	tc.log = append(tc.log, fmt.Sprintf("after %s: %d id %d dup %v of %s failed %v", u, r.Status, p.ID, p.Duplicate, p.Of, p.Failed))
	for _, u := range p.Retry {
		tc.enqueue(u)
	}
	if r.Status/100 == 3 && r.Header.Get("Location") != "" {
		if l, err := url.Parse(r.Header.Get("Location")); err == nil {
			base, _ := url.Parse(u)
			if next := base.ResolveReference(l).String(); tc.inSite(next) {
				tc.enqueue(next)
			}
		}
	}
	if r.Status != 200 || p.Duplicate {
		return true
	}
	base := u
	if r.FinalURL != "" {
		base = r.FinalURL
	}
	for _, l := range links(base, r.Body) {
		if tc.inSite(l) {
			tc.enqueue(l)
		}
	}
	return true
}

func (tc *testCrawler) get(t testing.TB, u string) Response {
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := tc.client
	if tc.follow {
		cl := *client
		cl.CheckRedirect = nil
		client = &cl
	}
	resp, err := client.Do(req)
	if err != nil {
		return Response{URL: u, Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	r := Response{URL: u, Status: resp.StatusCode, Header: resp.Header, Body: body, Err: err}
	if f := resp.Request.URL.String(); f != u {
		r.FinalURL = f
	}
	return r
}

func (tc *testCrawler) run(t testing.TB, seed string) {
	tc.enqueue(seed)
	for tc.step(t) {
	}
}

// links returns the absolute http(s) URLs of the <a href> links of a page, without fragments.
func links(base string, body []byte) []string {
	ls := hrefs.Links(base, body)
	for i, l := range ls {
		ls[i], _, _ = strings.Cut(l, "#")
	}
	return ls
}

func mustNew(t testing.TB, o Options) *Crawl {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A handMade site serves pages from a map of path (with query) to HTML; anything else is 404.
type handMade struct {
	mu     sync.Mutex
	pages  map[string]string
	status map[string]int         // path -> status to answer instead
	header map[string]http.Header // path -> headers to add
	hits   map[string]int         // path -> requests
	fail   map[string]int         // path -> failures left to answer with 503
}

func (s *handMade) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := r.URL.RequestURI()
	if s.hits == nil {
		s.hits = map[string]int{}
	}
	s.hits[p]++
	if s.fail[p] > 0 {
		s.fail[p]--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	for k, v := range s.header[p] {
		w.Header()[k] = v
	}
	if st, ok := s.status[p]; ok {
		w.WriteHeader(st)
		return
	}
	body, ok := s.pages[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, body)
}

func page(title, text string, hrefs ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title></head><body><nav><a href=\"/\">Home</a></nav><main><h1>%s</h1><p>%s</p>", title, title, text)
	for _, h := range hrefs {
		fmt.Fprintf(&b, "<p><a href=%q>%s</a></p>", h, h)
	}
	b.WriteString("</main></body></html>")
	return b.String()
}

func words(seed int, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "w%dx%d ", (seed*7919+i*104729)%100003, i%7)
	}
	return b.String()
}

const testHost = "http://site.test"

func inTestHost(u string) bool { return strings.HasPrefix(u, testHost+"/") }

// A URL whose static key is held is skipped; the URL itself again is Seen.
func TestBeforeStaticKey(t *testing.T) {
	c := mustNew(t, Options{})
	for _, tc := range []struct {
		url    string
		action Action
		of     string
	}{
		{"http://site.test/a?id=1", Fetch, ""},
		{"http://site.test/a?id=1&utm_source=x", Skip, "http://site.test/a?id=1"}, // tracking parameter
		{"HTTP://SITE.TEST:80/a?id=1#top", Skip, "http://site.test/a?id=1"},       // case, default port, fragment
		{"http://site.test/a?id=1", Fetch, ""},                                    // let through, not fetched yet
		{"http://site.test/a?id=2", Fetch, ""},
		{"mailto:x@site.test", Fetch, ""}, // not keyable: fetch, as a crawler that cannot tell should
	} {
		d := c.Before(tc.url)
		if d.Action != tc.action || d.Of != tc.of {
			t.Errorf("Before(%q) = %v of %q, want %v of %q", tc.url, d.Action, d.Of, tc.action, tc.of)
		}
	}
	c.After(Response{URL: "http://site.test/a?id=1", Status: 200, Body: []byte(page("A", words(1, 50)))})
	if d := c.Before("http://site.test/a?id=1"); d.Action != Skip || d.Of != "http://site.test/a?id=1" {
		t.Errorf("Before of a fetched URL = %+v, want Skip of itself", d)
	}
	st := c.Stats()
	if st.URLs != 7 || st.Skip != 2 || st.Seen != 1 || st.KeyErrors != 1 || st.Pages != 1 || st.Kept != 1 {
		t.Errorf("stats %+v", st)
	}
}

// A failed fetch gives its key back: another URL of the page is fetched in its place.
func TestFailedFetchGivesKeyBack(t *testing.T) {
	site := &handMade{pages: map[string]string{
		"/":                    page("Home", words(1, 40), "/p?id=1&utm_source=a", "/p?id=1&utm_source=b"),
		"/p?id=1&utm_source=a": page("P", words(2, 40)),
		"/p?id=1&utm_source=b": page("P", words(2, 40)),
	}, fail: map[string]int{"/p?id=1&utm_source=a": 1}}
	c := mustNew(t, Options{})
	tc, done := newTestCrawler(t, c, site, inTestHost)
	defer done()
	tc.run(t, testHost+"/")
	if n := site.hits["/p?id=1&utm_source=b"]; n != 1 {
		t.Errorf("the other URL of the page was fetched %d times, want 1", n)
	}
	if st := c.Stats(); st.Failed != 1 || st.Kept != 2 || st.Skip != 1 {
		t.Errorf("stats %+v", st)
	}
}

// A duplicate of a URL not fetched yet, asked about twice (when a crawler finds it and when it
// comes up), is named once in Page.Retry when that URL's fetch fails.
func TestRetryNamesDuplicateOnce(t *testing.T) {
	c := mustNew(t, Options{})
	a, b := testHost+"/p?id=1&utm_source=a", testHost+"/p?id=1&utm_source=b"
	c.Before(a)
	for range 2 {
		if d := c.Before(b); d.Action != Skip || !d.Retry || d.Of != a {
			t.Fatalf("Before(%q) = %+v, want Skip of %q with Retry", b, d, a)
		}
	}
	if p := c.After(Response{URL: a, Status: 503}); fmt.Sprint(p.Retry) != "["+b+"]" {
		t.Errorf("Page.Retry = %q, want [%q]", p.Retry, b)
	}
}

// A failed fetch of a URL that no other URL waits on is given back once (Page.Retry holds the
// URL itself): a page that fails once is fetched on the second try, and a URL that fails every
// time is tried twice, not again and again.
func TestFailedFetchRetriedOnce(t *testing.T) {
	site := &handMade{pages: map[string]string{
		"/":       page("Home", words(1, 40), "/once", "/always"),
		"/once":   page("Once", words(2, 40)),
		"/always": page("Always", words(3, 40)),
	}, fail: map[string]int{"/once": 1, "/always": 1000}}
	c := mustNew(t, Options{})
	tc, done := newTestCrawler(t, c, site, inTestHost)
	defer done()
	tc.run(t, testHost+"/")
	if once, always := site.hits["/once"], site.hits["/always"]; once != 2 || always != 2 {
		t.Errorf("fetches: /once %d, /always %d; want 2 and 2", once, always)
	}
	if st := c.Stats(); st.Failed != 3 || st.Kept != 2 {
		t.Errorf("stats %+v: want 3 failed, 2 kept", st)
	}
}

// A page's canonical declaration holds the declared URL's key: links to it are skipped, after
// the first DeclaredFirst uses are verified. A site whose declarations a verification disproves
// (every page of a listing naming page 1) has them withdrawn, and its pages are fetched.
func TestCanonical(t *testing.T) {
	// /post/N is the page; /?p=N shows the same article and declares /post/N canonical (in the
	// head for odd N, in a Link header for even N). Each /?p=N is linked before /post/N.
	good := &handMade{pages: map[string]string{}, header: map[string]http.Header{}}
	var home []string
	for n := range 12 {
		post := fmt.Sprintf("/post/%d", n)
		short := fmt.Sprintf("/?p=%d", n)
		home = append(home, short)
		body := page(fmt.Sprintf("Post %d", n), words(n, 60), post)
		good.pages[post] = body
		if n%2 == 1 {
			good.pages[short] = strings.Replace(body, "</head>", `<link rel="canonical" href="`+testHost+post+`"></head>`, 1)
		} else {
			good.pages[short] = body
			good.header[short] = http.Header{"Link": {"<" + post + `>; rel="canonical"`}}
		}
	}
	good.pages["/"] = page("Home", words(100, 40), home...)
	for _, off := range []bool{false, true} {
		good.hits = nil
		c := mustNew(t, Options{NoDeclared: off, DeclaredFirst: 2, DeclaredEvery: 5})
		tc, done := newTestCrawler(t, c, good, inTestHost)
		tc.run(t, testHost+"/")
		done()
		fetchedPosts := 0
		for n := range 12 {
			fetchedPosts += good.hits[fmt.Sprintf("/post/%d", n)]
		}
		st := c.Stats()
		if off {
			// Without declarations, a post is skipped only once rules learned from content
			// map its URLs together: most are fetched.
			if fetchedPosts <= 6 {
				t.Errorf("NoDeclared: %d posts fetched, want most of the 12", fetchedPosts)
			}
			continue
		}
		// Verified: uses 1, 2 and 5, 10 of the site's declarations.
		if fetchedPosts != 4 || st.Declared != 12 || st.Withdrawn != 0 || st.Mismatches != 0 {
			t.Errorf("%d posts fetched (want 4 verifications), stats %+v", fetchedPosts, st)
		}
	}

	// A listing whose pages all name page 1: a verification finds page 2 differs.
	bad := &handMade{pages: map[string]string{}}
	var pages []string
	for n := 1; n <= 10; n++ {
		pages = append(pages, fmt.Sprintf("/list?page=%d", n))
	}
	for n := 1; n <= 10; n++ {
		body := page(fmt.Sprintf("List %d", n), words(200+n, 60), pages...)
		bad.pages[fmt.Sprintf("/list?page=%d", n)] = strings.Replace(body, "</head>", `<link rel="canonical" href="/list?page=1"></head>`, 1)
	}
	c := mustNew(t, Options{})
	tc, done := newTestCrawler(t, c, bad, inTestHost)
	defer done()
	tc.run(t, testHost+"/list?page=3")
	for n := 1; n <= 10; n++ {
		if h := bad.hits[fmt.Sprintf("/list?page=%d", n)]; h != 1 {
			t.Errorf("page %d fetched %d times, want 1", n, h)
		}
	}
	if st := c.Stats(); st.Withdrawn != 1 || st.Mismatches != 1 {
		// page 1 is declared by page 3 before it is met; every other page names page 1, whose
		// key is then held by page 3's declaration: the first use is verified, and page 1
		// differs from page 3.
		t.Errorf("stats %+v", st)
	}
}

// A redirect, followed by the client or not, is evidence: the target is fetched once and the
// learner sees both URLs as one page.
func TestRedirect(t *testing.T) {
	site := &handMade{pages: map[string]string{
		"/":      page("Home", words(1, 40), "/old/1", "/new/1"),
		"/new/1": page("One", words(2, 40)),
	}, status: map[string]int{"/old/1": 301}, header: map[string]http.Header{"/old/1": {"Location": {"/new/1"}}}}
	for _, follow := range []bool{false, true} {
		site.hits = nil
		c := mustNew(t, Options{})
		tc, done := newTestCrawler(t, c, site, inTestHost)
		tc.follow = follow
		tc.run(t, testHost+"/")
		done()
		if site.hits["/new/1"] != 1 || site.hits["/old/1"] != 1 {
			t.Errorf("follow %v: hits %v", follow, site.hits)
		}
		if st := c.Stats(); st.Redirects != 1 || st.Learner.URLs != 3 {
			t.Errorf("follow %v: stats %+v", follow, st)
		}
	}
}

// simsiteCrawl crawls a simulated site from its start URL and returns the crawler, the pages it
// kept by the site's truth and the distinct pages it fetched.
func simsiteCrawl(t testing.TB, s *simsite.Site, o Options, max int) (tc *testCrawler, kept, distinct map[simsite.Page]bool) {
	c := mustNew(t, o)
	tc, done := newTestCrawler(t, c, s, simsite.InSite)
	defer done()
	tc.max = max
	kept, distinct = map[simsite.Page]bool{}, map[simsite.Page]bool{}
	tc.enqueue(simsite.StartURL)
	for {
		n := len(tc.log)
		if !tc.step(t) {
			break
		}
		for _, l := range tc.log[n:] {
			if u, ok := strings.CutPrefix(l, "after "); ok {
				u = u[:strings.Index(u, ": ")]
				if p, _ := s.Page(u); p != "" {
					distinct[p] = true
					if !strings.Contains(l, "dup true") {
						kept[p] = true
					}
				}
			}
		}
	}
	return tc, kept, distinct
}

// On a simulated site with the duplicate mechanisms of real ones, a crawl that learns as it goes
// fetches far fewer URLs than one with the static key alone, and keeps every page.
func TestSimsite(t *testing.T) {
	s, err := simsite.New(120, 2)
	if err != nil {
		t.Fatal(err)
	}
	static, _, sd := simsiteCrawl(t, s, Options{NoLearning: true, NoContent: true}, 100000)
	online, kept, od := simsiteCrawl(t, s, Options{}, 100000)
	pages := len(s.Pages())
	if len(sd) != pages || len(od) != pages || len(kept) != pages {
		t.Errorf("pages: %d; static crawl found %d, online found %d and kept %d", pages, len(sd), len(od), len(kept))
	}
	fs, fo := len(static.fetches), len(online.fetches)
	t.Logf("%d pages: static %d fetches (%.2f a page), online %d (%.2f a page), %+v", pages, fs, float64(fs)/float64(pages), fo, float64(fo)/float64(pages), online.c.Stats())
	if fo*10 > fs*8 {
		t.Errorf("online crawl made %d fetches, static %d: want at most 80%%", fo, fs)
	}
}

// A crawl saved half-way and resumed from its saved state makes the same decisions as one that
// was not stopped.
func TestResume(t *testing.T) {
	s, err := simsite.New(60, 5)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	whole, _, _ := simsiteCrawl(t, s, o, 100000)
	total := len(whole.fetches)
	for _, cut := range []int{total / 3, total * 2 / 3} {
		first := mustNew(t, o)
		tc, done := newTestCrawler(t, first, s, simsite.InSite)
		tc.max = cut
		tc.run(t, simsite.StartURL)
		var b bytes.Buffer
		n, err := first.WriteTo(&b)
		if err != nil || n != int64(b.Len()) {
			t.Fatalf("WriteTo = %d, %v; wrote %d", n, err, b.Len())
		}
		second := mustNew(t, o)
		if m, err := second.ReadFrom(bytes.NewReader(b.Bytes())); err != nil || m != n {
			t.Fatalf("ReadFrom = %d, %v; want %d", m, err, n)
		}
		var again bytes.Buffer
		if _, err := second.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
			t.Errorf("cut %d: saving the loaded state gives other bytes (%v)", cut, err)
		}
		tc.c, tc.max = second, 100000
		for tc.step(t) {
		}
		done()
		if g, w := strings.Join(tc.log, "\n"), strings.Join(whole.log, "\n"); g != w {
			i := 0
			for i < len(tc.log) && i < len(whole.log) && tc.log[i] == whole.log[i] {
				i++
			}
			t.Errorf("cut %d of %d: decision %d differs:\nresumed: %s\nwhole:   %s", cut, total, i, at(tc.log, i), at(whole.log, i))
		}
		if g, w := second.Stats(), whole.c.Stats(); g != w {
			t.Errorf("cut %d: stats\n%+v, want\n%+v", cut, g, w)
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(end)"
}

// Before and After from many goroutines at once, as an asynchronous crawler calls them (run
// with -race): every URL is answered, each page is kept once per key, the state stays
// consistent.
func TestConcurrent(t *testing.T) {
	s, err := simsite.New(40, 3)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := &http.Client{Transport: simsite.Transport(srv.Listener.Addr().String()),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c := mustNew(t, Options{})
	var mu sync.Mutex
	seen := map[string]bool{simsite.StartURL: true}
	queue := make(chan string, 1<<16)
	queue <- simsite.StartURL
	var wg sync.WaitGroup
	wg.Add(1)
	var pending sync.WaitGroup
	pending.Add(1)
	for range 8 {
		go func() {
			for u := range queue {
				if d := c.Before(u); d.Action != Skip {
					tc := &testCrawler{client: client}
					r := tc.get(t, u)
					p := c.After(r)
					if r.Status == 200 && !p.Duplicate {
						for _, l := range links(u, r.Body) {
							mu.Lock()
							if simsite.InSite(l) && !seen[l] {
								seen[l] = true
								pending.Add(1)
								queue <- l
							}
							mu.Unlock()
						}
					}
				}
				pending.Done()
			}
		}()
	}
	go func() {
		pending.Wait()
		close(queue)
		wg.Done()
	}()
	wg.Wait()
	st := c.Stats()
	if st.Responses != st.Fetch+st.Verify || st.Pages != st.Kept+st.Duplicates {
		t.Errorf("stats do not add up: %+v", st)
	}
	if st.Kept < int64(s.NumPages()) {
		t.Errorf("kept %d pages of the site's %d", st.Kept, s.NumPages())
	}
}

// A truncated, corrupt or foreign state is an error, never a panic; a Crawl in use does not
// load.
func TestReadFromDamaged(t *testing.T) {
	s, err := simsite.New(20, 2)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	tc, _, _ := simsiteCrawl(t, s, o, 150)
	var b bytes.Buffer
	if _, err := tc.c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	step := max(1, len(data)/200)
	for n := 0; n < len(data); n += step {
		if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(data))
		}
	}
	for i := 0; i < len(data); i += step {
		d := bytes.Clone(data)
		d[i] ^= 0x5a
		if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(d)); err == nil {
			t.Fatalf("byte %d of %d changed: no error", i, len(data))
		}
	}
	if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(append(bytes.Clone(data), 0))); err == nil {
		t.Errorf("a byte after the state: no error")
	}
	if _, err := tc.c.ReadFrom(bytes.NewReader(data)); err == nil {
		t.Errorf("ReadFrom into a crawl in use: no error")
	}
	if _, err := mustNew(t, Options{NoTemplates: true, NoLearning: true}).ReadFrom(bytes.NewReader(data)); err == nil {
		t.Errorf("ReadFrom with other options: no error")
	}
}

func FuzzReadFrom(f *testing.F) {
	s, err := simsite.New(10, 1)
	if err != nil {
		f.Fatal(err)
	}
	o := Options{NoTemplates: true}
	tc, _, _ := simsiteCrawl(f, s, o, 40)
	var b bytes.Buffer
	tc.c.WriteTo(&b)
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		c := mustNew(t, o)
		if _, err := c.ReadFrom(bytes.NewReader(data)); err != nil {
			return
		}
		c.Before(simsite.StartURL)
		c.After(Response{URL: simsite.StartURL, Status: 200, Body: []byte(page("x", "y"))})
		if _, err := c.WriteTo(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// A check that Before asked for when a link was found, and that the checks made before the URL
// came up for fetching answered (learn.Online.Recheck), is not fetched: on the simulated site
// the crawl makes fewer verification fetches than one that fetches every check it asked for,
// and keeps every page.
func TestRecheckLapses(t *testing.T) {
	s, err := simsite.New(120, 2)
	if err != nil {
		t.Fatal(err)
	}
	crawl := func(noRecheck bool) (Stats, int, int) {
		defer func(v bool) { ablate.NoRecheck = v }(ablate.NoRecheck)
		ablate.NoRecheck = noRecheck
		tc, kept, _ := simsiteCrawl(t, s, Options{}, 100000)
		return tc.c.Stats(), len(tc.fetches), len(kept)
	}
	on, fon, kon := crawl(false)
	off, foff, _ := crawl(true)
	t.Logf("checks asked again and answered: %d; verification fetches %d, fetches %d (every check fetched: %d, %d)", on.Lapsed, on.Checked, fon, off.Checked, foff)
	if on.Lapsed == 0 || on.Checked >= off.Checked || kon != len(s.Pages()) {
		t.Errorf("%d checks answered before their fetch, %d verification fetches (%d when every check is fetched), %d of %d pages kept",
			on.Lapsed, on.Checked, off.Checked, kon, len(s.Pages()))
	}
}

// The crawl's learner chooses targets on the site's main origin (learn.Options.MainOrigin): of
// a shop linked on https://www.shop.example, the crawl fetched a quarter of the pages on the
// bare domain too and another quarter on http://; the rules it learns give the three URLs of
// a page one key.
func TestCrawlMainOrigin(t *testing.T) {
	c := mustNew(t, Options{})
	lr := c.Learner()
	for i := range 100 {
		lr.Observe(learn.URL{Raw: fmt.Sprintf("https://www.shop.example/item/%d", i)}, uint64(i+1))
		switch i % 4 {
		case 0:
			lr.Observe(learn.URL{Raw: fmt.Sprintf("https://shop.example/item/%d", i)}, uint64(i+1))
		case 1:
			lr.Observe(learn.URL{Raw: fmt.Sprintf("http://www.shop.example/item/%d", i)}, uint64(i+1))
		}
	}
	lr.RelearnAll()
	keys := map[string]bool{}
	for _, u := range []string{"https://www.shop.example/item/200", "https://shop.example/item/200", "http://www.shop.example/item/200"} {
		k, err := lr.Normalize(u)
		if err != nil {
			t.Fatal(err)
		}
		keys[k] = true
	}
	if len(keys) != 1 {
		t.Errorf("the URLs of one page have %d keys: %v", len(keys), keys)
	}
}
