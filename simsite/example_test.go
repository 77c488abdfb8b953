package simsite_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/undust/undust/simsite"
)

// A crawler test serves the site on loopback, fetches through Transport, and asks the site
// which page each URL served.
func Example() {
	site, err := simsite.New(50, 1)
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	client := &http.Client{Transport: simsite.Transport(srv.Listener.Addr().String())}

	pages := map[simsite.Page]bool{}
	urls := []string{
		simsite.StartURL,
		"http://dustshop.example/index.html",
		"https://www.dustshop.example/blog/?utm_source=feed",
	}
	for _, u := range urls {
		resp, err := client.Get(u)
		if err != nil {
			panic(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		p, _ := site.Page(u)
		pages[p] = true
		fmt.Println(resp.StatusCode, p)
	}
	fmt.Printf("%d fetches, %d distinct pages of %d\n", len(urls), len(pages), site.NumPages())
	// Output:
	// 200 home
	// 200 home
	// 200 blog
	// 3 fetches, 2 distinct pages of 68
}

// Page says which URLs are one page; Links lists the URLs through which the site links to a
// page.
func ExampleSite_Page() {
	site, _ := simsite.New(50, 1)
	for _, u := range site.Links("blog") {
		p, print := site.Page(u)
		fmt.Println(u, p, print)
	}
	p, _ := site.Page("https://www.dustshop.example/story/1")
	fmt.Printf("%q\n", p)
	// Output:
	// https://www.dustshop.example/blog/?from=related blog false
	// https://www.dustshop.example/blog/?s=13d8b72f4736 blog false
	// https://www.dustshop.example/blog blog false
	// https://www.dustshop.example/blog/?utm_source=social&utm_medium=link blog false
	// https://www.dustshop.example/blog/ blog false
	// https://www.dustshop.example/blog/index.html?s=4a687105a3a0 blog false
	// https://www.dustshop.example/blog/index.html blog false
	// ""
}
