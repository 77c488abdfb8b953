package undustcolly

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocolly/colly/v2"
)

// A crawl stopped by its context (a budget spent) asks undust nothing about the requests that
// colly still runs through OnRequestHeaders and fails unsent: undust is asked about each
// request once when colly takes it, and once more only for the requests sent. Asked again
// there, every queued URL would be counted after the crawl's end (let through, skipped, or a
// check asked for and answered), and each URL let through would be sent again to fail again.
func TestStoppedCrawlAsksNothing(t *testing.T) {
	var sent atomic.Int64
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		// Each page links to 20 pages of its own: colly's queue grows 20 requests a page.
		path := strings.TrimSuffix(r.URL.Path, "/")
		var b strings.Builder
		fmt.Fprintf(&b, `<html><body><main><p>The page %s.</p>`, r.URL.Path)
		for i := range 20 {
			fmt.Fprintf(&b, `<a href="%s/%d">%d</a> `, path, i, i)
		}
		b.WriteString(`</main></body></html>`)
		fmt.Fprint(w, b.String())
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := asyncCollector(t, colly.StdlibContext(ctx))
	u, err := Attach(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	requests, responses := 0, 0
	c.OnRequest(func(*colly.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
	})
	c.OnResponse(func(*colly.Response) {
		mu.Lock()
		defer mu.Unlock()
		if responses++; responses == 4 {
			cancel() // the budget is spent
		}
	})
	crawlFromStart(c, srv)
	asked := u.Stats().URLs
	// Asked once a request, and once more for each request sent or about to be when the
	// crawl stopped (the collector's two slots).
	if limit := int64(requests) + sent.Load() + 2; asked > limit {
		t.Errorf("undust was asked about %d URLs for %d requests of which %d were sent; want at most %d",
			asked, requests, sent.Load(), limit)
	}
	t.Logf("%d requests, %d sent, %d answered, %d URLs asked about", requests, sent.Load(), responses, asked)
}
