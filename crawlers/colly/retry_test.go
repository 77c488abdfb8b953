package undustcolly

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
)

// A page whose one URL fails once (a 503) is fetched again: undust gives the URL back
// (undust.Page.Retry) and the adapter sends the request past colly's visited-URL check. A URL
// that fails every time is sent twice, not again and again.
func TestFailedFetchRetried(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		n := hits[r.URL.Path]
		mu.Unlock()
		switch {
		case r.URL.Path == "/":
			fmt.Fprint(w, `<html><body><main><p>Home of the shop.</p><a href="/once">once</a> <a href="/always">always</a></main></body></html>`)
		case r.URL.Path == "/once" && n > 1:
			fmt.Fprint(w, `<html><body><main><p>The page that failed once, on its second fetch.</p></main></body></html>`)
		default:
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	c := colly.NewCollector()
	if _, err := Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.OnResponse(func(r *colly.Response) { got = append(got, r.Request.URL.Path) })
	c.Visit(srv.URL + "/")
	c.Wait()
	mu.Lock()
	defer mu.Unlock()
	if hits["/once"] != 2 || hits["/always"] != 2 {
		t.Errorf("fetches: /once %d, /always %d; want 2 and 2", hits["/once"], hits["/always"])
	}
	if fmt.Sprint(got) != "[/ /once]" {
		t.Errorf("pages seen by the crawler's callbacks: %v, want [/ /once]", got)
	}
}

// A page with two URLs, h and d (its query in another order: one key for undust, two URLs for
// colly), linked from a start page, h directly and d from a page p. Its fetch through h fails
// (a 503); through d it succeeds.
const (
	failingURL = "/h?a=1&b=2"
	otherURL   = "/h?b=2&a=1"
)

func twoURLSite(t *testing.T, serve func(w http.ResponseWriter, r *http.Request)) (srv *httptest.Server, hits func(uri string) int) {
	t.Helper()
	return countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		serve(w, r)
		switch r.URL.RequestURI() {
		case "/":
			fmt.Fprintf(w, `<html><body><main><p>Start.</p><a href="%s">h</a> <a href="/p">p</a></main></body></html>`, failingURL)
		case "/p":
			fmt.Fprintf(w, `<html><body><main><p>A page that links to h again.</p><a href="%s">h</a></main></body></html>`, otherURL)
		case failingURL:
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
		case otherURL:
			fmt.Fprint(w, `<html><body><main><p>The page of h.</p></main></body></html>`)
		}
	})
}

// countingServer starts a server of serve, closed when the test ends, and returns it with the
// count of the requests it has answered for a request URI.
func countingServer(t *testing.T, serve http.HandlerFunc) (srv *httptest.Server, hits func(uri string) int) {
	t.Helper()
	var mu sync.Mutex
	count := map[string]int{}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		count[r.URL.RequestURI()]++
		mu.Unlock()
		serve(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func(uri string) int {
		mu.Lock()
		defer mu.Unlock()
		return count[uri]
	}
}

// asyncCollector returns an asynchronous collector with options, that sends two requests at a
// time.
func asyncCollector(t *testing.T, options ...colly.CollectorOption) *colly.Collector {
	t.Helper()
	c := colly.NewCollector(append([]colly.CollectorOption{colly.Async(true)}, options...)...)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 2}); err != nil {
		t.Fatal(err)
	}
	return c
}

// crawlFromStart crawls srv with c from its start page, following every link, to the end.
func crawlFromStart(c *colly.Collector, srv *httptest.Server) {
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.Visit(srv.URL + "/")
	c.Wait()
}

// wait waits for ch to be closed; the bound only keeps a broken test from hanging.
func wait(ch <-chan struct{}) {
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
	}
}

// A duplicate met while its page's first URL is not fetched yet stays in colly's queue, and
// when that fetch has failed by the time the duplicate comes up, it is fetched in its place.
// Here d is met while h is under way, and comes up once h has failed. Aborted when it was met
// and sent again when h failed (Request.Retry), it would wait behind every request queued
// since: here it is never sent, as colly's budget of requests (MaxRequests) is spent.
func TestDuplicateOfFailedFetchStaysQueued(t *testing.T) {
	hSent, dMet, hFailed := make(chan struct{}), make(chan struct{}), make(chan struct{})
	srv, hits := twoURLSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.RequestURI() {
		case failingURL:
			close(hSent)
			wait(dMet) // under way until d is met
		case "/p":
			wait(hSent)
		}
	})
	c := asyncCollector(t)
	c.MaxRequests = 4 // the start page, h, p and d
	d := srv.URL + otherURL
	c.OnRequestHeaders(func(r *colly.Request) { // before Attach's: d comes up once h has failed
		if r.URL.String() == d {
			wait(hFailed)
		}
	})
	if _, err := Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	c.OnRequest(func(r *colly.Request) {
		if r.URL.String() == d {
			close(dMet)
		}
	})
	c.OnError(func(r *colly.Response, _ error) {
		if r.Request.URL.String() == srv.URL+failingURL {
			close(hFailed)
		}
	})
	crawlFromStart(c, srv)
	if hits(failingURL) != 1 || hits(otherURL) != 1 {
		t.Errorf("fetches: h %d, d %d; want 1 and 1", hits(failingURL), hits(otherURL))
	}
}

// A URL sent again after its fetch failed is asked about when it comes up, not when it is
// sent again: while it waits behind the requests queued before it, it does not hold its page's
// key, and another URL of the page met meanwhile is fetched where it stands in the queue. Here
// h fails and is sent again; d is met while h waits, and the crawl ends (its budget spent)
// before h comes up.
func TestURLOfFailedPageMetWhileRetryWaits(t *testing.T) {
	hAgain, dDone := make(chan struct{}), make(chan struct{})
	srv, hits := twoURLSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RequestURI() == "/p" {
			wait(hAgain) // d is met once h was sent again
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := asyncCollector(t, colly.StdlibContext(ctx))
	h, d := srv.URL+failingURL, srv.URL+otherURL
	var once sync.Once
	c.OnRequestHeaders(func(r *colly.Request) { // before Attach's
		if r.URL.String() == h && hits(failingURL) > 0 {
			wait(dDone)
			cancel() // the budget is spent before h comes up again
		}
	})
	if _, err := Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	hRequests := 0
	c.OnRequest(func(r *colly.Request) {
		switch r.URL.String() {
		case h:
			if hRequests++; hRequests == 2 {
				close(hAgain)
			}
		case d:
			if r.IsAbort() {
				once.Do(func() { close(dDone) })
			}
		}
	})
	done := func(r *colly.Request) {
		if r.URL.String() == d {
			once.Do(func() { close(dDone) })
		}
	}
	c.OnResponse(func(r *colly.Response) { done(r.Request) })
	c.OnError(func(r *colly.Response, _ error) { done(r.Request) })
	crawlFromStart(c, srv)
	if hits(failingURL) != 1 || hits(otherURL) != 1 {
		t.Errorf("fetches: h %d, d %d; want 1 and 1", hits(failingURL), hits(otherURL))
	}
}

// A duplicate left in colly's queue takes its page's key when the fetch it duplicates fails,
// before the URLs of the page met after the failure, which stand behind it in the queue: it is
// fetched when it comes up, not skipped as their duplicate. Here h fails; d was met before,
// e (a third URL of the page, with a tracking parameter) after; d comes up once e is met, and
// the crawl ends (its budget spent) before e comes up.
func TestQueuedDuplicateTakesFailedPage(t *testing.T) {
	const thirdURL = "/h?a=1&b=2&utm_source=q"
	var mu sync.Mutex
	count := map[string]int{}
	hits := func(uri string) int {
		mu.Lock()
		defer mu.Unlock()
		return count[uri]
	}
	hSent, dMet, hFailed, eMet, dDone := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		count[r.URL.RequestURI()]++
		mu.Unlock()
		switch r.URL.RequestURI() {
		case "/":
			fmt.Fprintf(w, `<html><body><main><p>Start.</p><a href="%s">h</a> <a href="/p">p</a></main></body></html>`, failingURL)
		case "/p":
			wait(hSent)
			fmt.Fprintf(w, `<html><body><main><p>Links to h again and to q.</p><a href="%s">h</a> <a href="/q">q</a></main></body></html>`, otherURL)
		case "/q":
			wait(hFailed)
			fmt.Fprintf(w, `<html><body><main><p>Links to h a third time.</p><a href="%s">h</a></main></body></html>`, thirdURL)
		case failingURL:
			close(hSent)
			wait(dMet)
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
		default:
			fmt.Fprint(w, `<html><body><main><p>The page of h.</p></main></body></html>`)
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := asyncCollector(t, colly.StdlibContext(ctx))
	h, d, e := srv.URL+failingURL, srv.URL+otherURL, srv.URL+thirdURL
	c.OnRequestHeaders(func(r *colly.Request) { // before Attach's
		switch r.URL.String() {
		case d:
			wait(eMet)
		case e:
			wait(dDone)
			cancel()
		}
	})
	if _, err := Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	var dOnce sync.Once
	c.OnRequest(func(r *colly.Request) {
		switch r.URL.String() {
		case d:
			dOnce.Do(func() { close(dMet) })
		case e:
			close(eMet)
		}
	})
	var doneOnce, hOnce sync.Once
	c.OnResponse(func(r *colly.Response) {
		if r.Request.URL.String() == d {
			doneOnce.Do(func() { close(dDone) })
		}
	})
	c.OnError(func(r *colly.Response, _ error) {
		switch r.Request.URL.String() {
		case h:
			hOnce.Do(func() { close(hFailed) })
		case d:
			doneOnce.Do(func() { close(dDone) })
		}
	})
	crawlFromStart(c, srv)
	if hits(otherURL) != 1 || hits(thirdURL) != 0 {
		t.Errorf("fetches: d %d, e %d; want 1 and 0", hits(otherURL), hits(thirdURL))
	}
}

// A duplicate that comes up while the fetch it duplicates is being sent awaits that fetch's
// outcome, holding its slot, and is fetched in its place when it fails. Here h is being sent
// when d comes up, and fails once d is skipped as its duplicate. Aborted then and sent again
// when h failed (Request.Retry), d would wait behind every request queued since: here it is
// never sent, as colly's budget of requests (MaxRequests) is spent.
func TestDuplicateAwaitsFetchBeingSent(t *testing.T) {
	var u *Undust
	hSent := make(chan struct{})
	srv, hits := twoURLSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.RequestURI() {
		case failingURL:
			close(hSent)
			// Under way until d, come up, is skipped as its duplicate (Before's second Skip
			// of d: the first was when it was met). Polled: Before has no hook.
			for end := time.Now().Add(5 * time.Second); u.Stats().Skip < 2 && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
		case "/p":
			wait(hSent)
		}
	})
	c := asyncCollector(t)
	c.MaxRequests = 4 // the start page, h, p and d
	var err error
	if u, err = Attach(c, Options{}); err != nil {
		t.Fatal(err)
	}
	d := srv.URL + otherURL
	var mu sync.Mutex
	var kept []string
	c.OnResponse(func(r *colly.Response) {
		if DuplicateOf(r) == "" {
			mu.Lock()
			kept = append(kept, r.Request.URL.RequestURI())
			mu.Unlock()
		}
	})
	crawlFromStart(c, srv)
	if hits(failingURL) != 1 || hits(otherURL) != 1 {
		t.Errorf("fetches: h %d, d %d; want 1 and 1", hits(failingURL), hits(otherURL))
	}
	if !slices.Contains(kept, otherURL) {
		t.Errorf("pages kept: %v; want %s among them", kept, d)
	}
}
