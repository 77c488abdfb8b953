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
