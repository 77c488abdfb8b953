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
)

// A request that waits for colly's LimitRule is asked about again when it is about to be sent.
// A shop's items are fetched; then each item is visited under a session id, and every one of
// these requests passes OnRequest while nothing says that zs does not matter. While they wait
// for the one connection the LimitRule allows, another worker of the crawler fetches other
// items with and without zs, and the learner learns to delete it. Asked again in
// OnRequestHeaders, the waiting requests are aborted but for the first uses of the rule, which
// are verified. (Asked only in OnRequest, every one is fetched.)
func TestRulesLearnedWhileWaiting(t *testing.T) {
	const n, taught = 40, 30
	body := func(i int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>Item %d</title></head><body><main><h1>Item %d</h1><p>", i, i)
		for j := range 60 {
			fmt.Fprintf(&b, "w%dx%d ", (i*7919+j*104729)%100003, j%7)
		}
		b.WriteString("</p></main></body></html>")
		return b.String()
	}
	sid := func(i int) string { return fmt.Sprintf("%x", 0x5eed0000+7919*i) }
	var passed atomic.Int64 // session URLs past OnRequest
	learned := make(chan struct{})
	var mu sync.Mutex
	var hits []string // session URLs fetched
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("zs") != "" {
			mu.Lock()
			hits = append(hits, r.URL.RequestURI())
			mu.Unlock()
			select { // the first is under way until the rule is learned
			case <-learned:
			case <-time.After(5 * time.Second):
			}
		}
		var i int
		fmt.Sscan(r.URL.Query().Get("id"), &i)
		fmt.Fprint(w, body(i))
	}))
	defer srv.Close()
	c := colly.NewCollector(colly.Async(true))
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	u, err := Attach(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.OnRequest(func(r *colly.Request) {
		if r.URL.Query().Get("zs") != "" {
			passed.Add(1)
		}
	})
	for i := range n {
		c.Visit(fmt.Sprintf("%s/item?id=%d", srv.URL, i))
	}
	c.Wait()
	for i := range n {
		c.Visit(fmt.Sprintf("%s/item?id=%d&zs=%s", srv.URL, i, sid(i)))
	}
	for i := 0; i < 500 && passed.Load() < n; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if passed.Load() != n {
		t.Fatalf("%d of %d session URLs passed OnRequest", passed.Load(), n)
	}
	// The other worker.
	crawl := u.Crawl()
	for i := 1000; i < 1000+taught; i++ {
		for _, v := range []string{fmt.Sprintf("%s/item?id=%d", srv.URL, i), fmt.Sprintf("%s/item?id=%d&zs=%s", srv.URL, i, sid(i))} {
			if d := crawl.Before(v); d.Action != undust.Skip {
				crawl.After(undust.Response{URL: v, Status: 200, Body: []byte(body(i))})
			}
		}
	}
	close(learned)
	c.Wait()
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%d of %d session URLs fetched, stats %+v", len(hits), n, u.Stats())
	if len(hits) > n/4 {
		t.Errorf("%d of %d session URLs fetched, want at most %d: %q", len(hits), n, n/4, hits)
	}
}

// A duplicate waits for a check of the rule that made it one: a repository browser's blobs are
// one page at every commit (/F/blob?hb=C), and the crawl learns to delete hb from the first
// files; then a log page links one file's history at 8 commits (/F/history?hb=C), each another
// page. A history is fetched to check the rule and finds another page; the others, found
// together and sent two at a time, are duplicates while the check is under way. Aborted then,
// they would be lost; they await the check (undust's Decision.Await), or, found before it, stay
// queued, and are fetched once it has failed.
func TestDuplicateAwaitsCheck(t *testing.T) {
	commit := func(j int) string { return fmt.Sprintf("%08x", 0x9e3779b1*uint32(j+1)) }
	page := func(title string, seed int, hrefs ...string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>%s</title></head><body><main><h1>%s</h1><p>", title, title)
		for i := range 40 {
			fmt.Fprintf(&b, "w%dx%d ", (seed*7919+i*104729)%100003, i%7)
		}
		b.WriteString("</p>")
		for _, h := range hrefs {
			fmt.Fprintf(&b, "<p><a href=%q>%s</a></p>", h, h)
		}
		b.WriteString("</main></body></html>")
		return b.String()
	}
	pages := map[string]string{}
	var home, hists []string
	for i := range 12 {
		for j := range 3 {
			u := fmt.Sprintf("/f%d.txt/blob?hb=%s", i, commit(j))
			pages[u] = page(fmt.Sprintf("Blob f%d.txt", i), 900+i)
			home = append(home, u)
		}
	}
	for j := range 8 {
		u := fmt.Sprintf("/f0.txt/history?hb=%s", commit(j))
		pages[u] = page("History of f0.txt", 50+j)
		hists = append(hists, u)
	}
	pages["/"] = page("Home", 3, append(home, "/log")...)
	pages["/log"] = page("Log", 4, hists...)
	// The order of two requests at a time varies from crawl to crawl: a few crawls meet the
	// check under way in the ways it can be met (found during it, coming up during it).
	for crawl := range 4 {
		srv, hits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
			if b, ok := pages[r.URL.RequestURI()]; ok {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, b)
				return
			}
			http.NotFound(w, r)
		})
		c := asyncCollector(t)
		u, err := Attach(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		crawlFromStart(c, srv)
		for _, h := range hists {
			if hits(h) == 0 {
				t.Errorf("crawl %d: history %s never fetched (%+v)", crawl, h, u.Stats())
			}
		}
	}
}
