package undust_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/undust/undust"
)

// A crawler's loop: Before when a URL comes up, the fetch, After with what came back. Here a
// small site links one article under a tracking parameter, under a session id of its own and
// through a redirect from its short link.
func Example() {
	article := "<html><body><nav><a href=/>Home</a></nav><main><p>" +
		strings.Repeat("The lantern was lit at dusk by a keeper who never asked who the light was for. ", 5) +
		"</p></main></body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/story/7":
			fmt.Fprint(w, article)
		case "/s/7":
			http.Redirect(w, r, "/story/7", http.StatusMovedPermanently)
		}
	}))
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	c, err := undust.New(undust.Options{})
	if err != nil {
		panic(err)
	}
	for _, path := range []string{"/story/7", "/story/7?utm_source=feed", "/story/7?sid=A1B2", "/s/7"} {
		u := srv.URL + path
		d := c.Before(u)
		if d.Action == undust.Skip {
			fmt.Printf("%-25s skip: a duplicate of %s\n", path, strings.TrimPrefix(d.Of, srv.URL))
			continue
		}
		resp, err := client.Get(u)
		if err != nil {
			c.After(undust.Response{URL: u, Err: err})
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		p := c.After(undust.Response{URL: u, Status: resp.StatusCode, Header: resp.Header, Body: body, Err: err})
		switch {
		case p.Duplicate:
			fmt.Printf("%-25s fetched: a duplicate of %s\n", path, strings.TrimPrefix(p.Of, srv.URL))
		case p.ID != 0:
			fmt.Printf("%-25s fetched: page %d, kept\n", path, p.ID)
		default:
			fmt.Printf("%-25s fetched: status %d\n", path, resp.StatusCode)
		}
	}
	// Output:
	// /story/7                  fetched: page 1, kept
	// /story/7?utm_source=feed  skip: a duplicate of /story/7
	// /story/7?sid=A1B2         fetched: a duplicate of /story/7
	// /s/7                      fetched: status 301
}

// A crawl saved and loaded into a new Crawl goes on where it stopped.
func ExampleCrawl_WriteTo() {
	c, _ := undust.New(undust.Options{})
	c.Before("https://example.com/a?id=1")
	c.After(undust.Response{URL: "https://example.com/a?id=1", Status: 200,
		Body: []byte("<p>A page of its own, with enough words to be a page.</p>")})

	var saved bytes.Buffer
	if _, err := c.WriteTo(&saved); err != nil {
		panic(err)
	}
	resumed, _ := undust.New(undust.Options{})
	if _, err := resumed.ReadFrom(&saved); err != nil {
		panic(err)
	}
	fmt.Println(resumed.Before("https://example.com/a?id=1&utm_medium=mail").Action)
	// Output:
	// skip
}
