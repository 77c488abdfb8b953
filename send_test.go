package undust

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/simsite"
)

// A queueCrawler is a crawler as colly with undust's adapter is one: it asks Before when it
// finds a link (a URL string once, as colly's visited set lets it), keeps a duplicate of a page
// not fetched yet in its queue (Decision.Retry), asks BeforeSend when a URL comes up and when
// its client follows a redirect, remembers a duplicate skipped then to send it again, and sends
// again the URLs of Page.Retry: at the back of the queue, or, for one still queued, by asking
// Before now. It fetches at most max URLs.
type queueCrawler struct {
	c      *Crawl
	client *http.Client
	max    int
	lifo   bool // the queue is a stack

	queue   []string
	seen    map[string]bool // URLs found before
	aborted map[string]bool // URLs skipped when they came up, as duplicates of a page not fetched yet
	fetches []string
	got     map[string]bool // URLs whose page came with status 200 (the final URL of a redirect)
}

func newQueueCrawler(t testing.TB, c *Crawl, h http.Handler, max int, lifo bool) (*queueCrawler, func()) {
	srv := httptest.NewServer(h)
	qc := &queueCrawler{c: c, max: max, lifo: lifo, seen: map[string]bool{}, aborted: map[string]bool{},
		got: map[string]bool{}}
	qc.client = &http.Client{Transport: simsite.Transport(srv.Listener.Addr().String()),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if qc.c.BeforeSend(req.URL.String()).Action == Skip {
				return http.ErrUseLastResponse
			}
			return nil
		}}
	return qc, srv.Close
}

func (qc *queueCrawler) find(u string) {
	if qc.seen[u] {
		return
	}
	qc.seen[u] = true
	if d := qc.c.Before(u); d.Action != Skip || d.Retry {
		qc.queue = append(qc.queue, u)
	}
}

func (qc *queueCrawler) step(t testing.TB) bool {
	if len(qc.queue) == 0 || len(qc.fetches) >= qc.max {
		return false
	}
	var u string
	if qc.lifo {
		u, qc.queue = qc.queue[len(qc.queue)-1], qc.queue[:len(qc.queue)-1]
	} else {
		u, qc.queue = qc.queue[0], qc.queue[1:]
	}
	if d := qc.c.BeforeSend(u); d.Action == Skip {
		if d.Retry {
			qc.aborted[u] = true
		}
		return true
	}
	qc.fetches = append(qc.fetches, u)
	r := (&testCrawler{client: qc.client}).get(t, u)
	p := qc.c.After(r)
	for _, w := range p.Retry {
		switch {
		case w == u || qc.aborted[w]:
			delete(qc.aborted, w)
			qc.queue = append(qc.queue, w)
		case slices.Contains(qc.queue, w):
			qc.c.Before(w)
		}
	}
	if r.Status/100 == 3 {
		if l, err := url.Parse(r.Header.Get("Location")); err == nil {
			base, _ := url.Parse(u)
			qc.find(base.ResolveReference(l).String())
		}
	}
	base := u
	if r.FinalURL != "" {
		base = r.FinalURL
	}
	if r.Status != 200 || p.Failed {
		return true
	}
	qc.got[base] = true
	if p.Duplicate {
		return true
	}
	for _, l := range links(base, r.Body) {
		if inTestHost(l) {
			qc.find(l)
		}
	}
	return true
}

// fetched reports whether the crawl fetched the page of one of the paths.
func (qc *queueCrawler) fetched(paths ...string) bool {
	for _, p := range paths {
		if qc.got[testHost+p] {
			return true
		}
	}
	return false
}

// TestFirstToComeUpFetched checks BeforeSend: of a page's URLs, the first to come up is fetched,
// though another one was found first and holds the key. The queue is a stack: the article
// /a?utm_source=home is found first, on the home page, and comes up after the pages of /more;
// /a, found on a list page, comes up after three leaves, with one fetch of the budget left.
// Skipped as a duplicate of a URL still queued, /a would leave the article to
// /a?utm_source=home, which the budget never reaches; the same holds of /r, which redirects to
// /a. A crawl without undust fetches the article there.
func TestFirstToComeUpFetched(t *testing.T) {
	article := page("Article", words(7, 80))
	for _, tc := range []struct {
		name   string
		list   string // the list page's link to the article
		fail   int    // failures of /a before it answers
		budget int
		want   map[bool]bool // BeforeSend takes the key -> article fetched
	}{
		{"link", "/a", 0, 6, map[bool]bool{true: true, false: false}},     // home, list, 3 leaves, /a
		{"redirect", "/r", 0, 6, map[bool]bool{true: true, false: false}}, // /r followed to /a
		// /a fails: /a?utm_source=home, whose key it took, is fetched in its place.
		{"failed", "/a", 1, 100, map[bool]bool{true: true, false: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, take := range []bool{true, false} {
				site := &handMade{pages: map[string]string{
					"/":                  page("Home", words(1, 40), "/a?utm_source=home", "/more", "/list"),
					"/more":              page("More", words(3, 40), "/leaf/4"),
					"/list":              page("List", words(2, 40), tc.list, "/leaf/1", "/leaf/2", "/leaf/3"),
					"/a":                 article,
					"/a?utm_source=home": article,
					"/leaf/1":            page("Leaf 1", words(11, 40)),
					"/leaf/2":            page("Leaf 2", words(12, 40)),
					"/leaf/3":            page("Leaf 3", words(13, 40)),
					"/leaf/4":            page("Leaf 4", words(14, 40)),
				}, status: map[string]int{"/r": http.StatusFound},
					header: map[string]http.Header{"/r": {"Location": {"/a"}}},
					fail:   map[string]int{"/a": tc.fail}}
				ablate.NoTake = !take
				c := mustNew(t, Options{})
				qc, done := newQueueCrawler(t, c, site, tc.budget, true)
				qc.find(testHost + "/")
				for qc.step(t) {
				}
				done()
				ablate.NoTake = false
				if got := qc.fetched("/a", "/a?utm_source=home"); got != tc.want[take] {
					t.Errorf("take %v: article fetched %v, want %v; fetches %q", take, got, tc.want[take], qc.fetches)
				}
				if st := c.Stats(); take && tc.budget < 100 && st.Taken != 1 {
					t.Errorf("Stats.Taken = %d, want 1", st.Taken)
				}
			}
		})
	}
}

// TestWaitingUnbounded checks that every duplicate of a page found while its URL is not fetched
// yet is remembered, each once, and counted once in Stats.Skip however often it is asked about:
// the page's URL and its first four duplicates fail (each twice), and the fifth duplicate is
// fetched in their place. Remembering four (as a bound did), the fifth and sixth were skipped
// for good and the page lost.
func TestWaitingUnbounded(t *testing.T) {
	article := page("Article", words(7, 80))
	site := &handMade{pages: map[string]string{}, fail: map[string]int{}}
	var home []string
	for i := range 7 {
		p := fmt.Sprintf("/a?utm_source=%d", i)
		home = append(home, p)
		site.pages[p] = article
		if i < 5 {
			site.fail[p] = 2 // the failed URL itself, fetched again (Page.Retry), fails too
		}
	}
	site.pages["/"] = page("Home", words(1, 40), home...)
	c := mustNew(t, Options{})
	qc, done := newQueueCrawler(t, c, site, 100, false)
	defer done()
	qc.find(testHost + "/")
	for qc.step(t) {
	}
	if !qc.fetched(home...) {
		t.Errorf("article not fetched; fetches %q", qc.fetches)
	}
	if got := strings.Join(qc.fetches[1:], " "); !strings.HasSuffix(got, "utm_source=5") {
		t.Errorf("fetches %q, want the 5 failing URLs, then utm_source=5", qc.fetches)
	}
	// The six duplicates, each asked when found and when it came up; then, after the failure
	// of the URL holding the key, the one that takes it has the others as duplicates anew.
	if st := c.Stats(); st.Skip != 6 {
		t.Errorf("Stats.Skip = %d, want 6 (each duplicate counted once)", st.Skip)
	}
}

// TestFailedRedirectTargetReleased checks that a redirect followed to a URL that BeforeSend let
// through, whose fetch fails, gives that URL's key back: another link to its page is fetched.
// Here /r redirects to /a, which fails twice (when /r is fetched, and when it is fetched again
// after that failure); holding its key, /a would make /a?utm_source=list its duplicate.
func TestFailedRedirectTargetReleased(t *testing.T) {
	article := page("Article", words(7, 80))
	site := &handMade{pages: map[string]string{
		"/":                  page("Home", words(1, 40), "/r", "/list"),
		"/list":              page("List", words(2, 40), "/a?utm_source=list"),
		"/a":                 article,
		"/a?utm_source=list": article,
	}, status: map[string]int{"/r": http.StatusFound},
		header: map[string]http.Header{"/r": {"Location": {"/a"}}},
		fail:   map[string]int{"/a": 2}}
	c := mustNew(t, Options{})
	qc, done := newQueueCrawler(t, c, site, 100, false)
	defer done()
	qc.find(testHost + "/")
	for qc.step(t) {
	}
	if !qc.fetched("/a", "/a?utm_source=list") {
		t.Errorf("article not fetched; fetches %q, hits %v", qc.fetches, site.hits)
	}
}
