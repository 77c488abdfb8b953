package undustcolly

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

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
