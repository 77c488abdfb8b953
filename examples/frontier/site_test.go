package main

import (
	"net/http/httptest"
	"testing"

	"github.com/undust/undust"
	"github.com/undust/undust/simsite"
)

// The crawler fetches through the loopback transport, keeps to the site, stops at its budget,
// and with a budget large enough ends when the site's finite URL space is exhausted.
func TestCrawlBudget(t *testing.T) {
	s, err := simsite.New(60, 3)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	urls := 0
	for _, p := range s.Pages() {
		urls += len(s.Links(p))
	}
	for _, budget := range []int{150, 100000} {
		d, err := undust.New(undust.Options{NoLearning: true, NoContent: true})
		if err != nil {
			t.Fatal(err)
		}
		c := &crawl{name: "test", client: httpClient(srv.Listener.Addr().String()), dedup: d, maxFetches: budget}
		if err := c.run(simsite.StartURL); err != nil {
			t.Fatal(err)
		}
		if want := min(budget, urls+1); len(c.fetches) > want || budget < urls && len(c.fetches) != budget {
			t.Errorf("budget %d: crawl made %d fetches; the site has %d URLs", budget, len(c.fetches), urls)
		}
		for _, f := range c.fetches {
			if id, _ := s.Page(f.url); (id != "") != (f.status == 200) {
				t.Errorf("fetch %q: status %d, page %q", f.url, f.status, id)
			}
		}
	}
}
