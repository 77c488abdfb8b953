package undustcolly_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/gocolly/colly/v2"

	"github.com/undust/undust"
	"github.com/undust/undust/crawlers/colly"
	"github.com/undust/undust/simsite"
)

// Attach undust to a collector before registering the crawler's own callbacks. Here the
// collector crawls a simulated site, served on loopback, that links each of its pages through
// several URLs.
func Example() {
	site, _ := simsite.New(10, 1)
	srv := httptest.NewServer(site)
	defer srv.Close()

	c := colly.NewCollector(colly.AllowedDomains(simsite.Host, simsite.BareHost, simsite.MirrorHost))
	c.WithTransport(simsite.Transport(srv.Listener.Addr().String()))
	u, err := undustcolly.Attach(c, undustcolly.Options{})
	if err != nil {
		panic(err)
	}
	kept := map[simsite.Page]bool{}
	c.OnHTML("html", func(e *colly.HTMLElement) {
		p, _ := site.Page(e.Request.URL.String())
		kept[p] = true
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.Visit(simsite.StartURL)

	st := u.Stats()
	fmt.Printf("distinct pages kept: %d of %d\n", len(kept), site.NumPages())
	fmt.Printf("pages fetched: %d, duplicates dropped after fetching: %d\n", st.Pages, st.Duplicates)
	fmt.Printf("requests aborted before fetching: %d\n", st.Skip+st.Seen)
	// Output:
	// distinct pages kept: 36 of 36
	// pages fetched: 117, duplicates dropped after fetching: 81
	// requests aborted before fetching: 80
}

// DuplicateOf tells a crawler's OnResponse callback that undust dropped the page.
func ExampleDuplicateOf() {
	site, _ := simsite.New(10, 1)
	srv := httptest.NewServer(site)
	defer srv.Close()

	c := colly.NewCollector()
	c.WithTransport(simsite.Transport(srv.Listener.Addr().String()))
	if _, err := undustcolly.Attach(c, undustcolly.Options{}); err != nil {
		panic(err)
	}
	c.OnResponse(func(r *colly.Response) {
		if of := undustcolly.DuplicateOf(r); of != "" {
			fmt.Printf("%s duplicates %s\n", r.Request.URL, of)
			return
		}
		fmt.Printf("%s kept, %d bytes\n", r.Request.URL, len(r.Body))
	})
	c.Visit("https://www.dustshop.example/story/1000")
	c.Visit("https://www.dustshop.example/story/1000?s=9f3a") // the site's own session id
	// Output:
	// https://www.dustshop.example/story/1000 kept, 2560 bytes
	// https://www.dustshop.example/story/1000?s=9f3a duplicates https://www.dustshop.example/story/1000
}

// Attach checks its options.
func ExampleAttach_error() {
	_, err := undustcolly.Attach(colly.NewCollector(), undustcolly.Options{Options: undust.Options{NearK: 40}})
	fmt.Println(err)
	// Output:
	// undustcolly: undust: NearK 40 out of range [0, 31]
}
