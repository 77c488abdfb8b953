package undustkatana_test

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/projectdiscovery/katana/pkg/navigation"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"

	undustkatana "github.com/undust/undust/crawlers/katana"
)

// The filter as katana's standard engine calls it: UniqueURL before enqueueing a link,
// UniqueContent with a fetched body, then the result written on the same goroutine.
func Example() {
	f, err := undustkatana.New(undustkatana.Options{})
	if err != nil {
		panic(err)
	}
	defer f.Close()

	// Before fetching: the static key drops tracking parameters, default ports and fragments.
	fmt.Println(f.UniqueURL("https://shop.example.com/item?id=1&utm_source=feed"))
	fmt.Println(f.UniqueURL("https://shop.example.com:443/item?id=1#reviews"))

	// After fetching: a body whose main text was seen is a duplicate, whatever its template.
	article := `<p>The lantern was lit at dusk, as it had been every evening for forty years,
		by a keeper who never once asked who the light was for.</p>`
	for _, body := range []string{
		`<nav><a href="/">Home</a></nav>` + article,
		`<nav><a href="/?s=9f3a">Home</a> <a href="/cart">Cart</a></nav>` + article,
	} {
		unique := f.UniqueContent([]byte(body))
		resp := &navigation.Response{} // what katana writes for a duplicate
		if unique {
			resp = &navigation.Response{Resp: &http.Response{StatusCode: 200}, StatusCode: 200, Body: body}
		}
		f.Result(&output.Result{Request: &navigation.Request{Method: "GET", URL: "https://shop.example.com/item?id=1"}, Response: resp})
		fmt.Println(unique)
	}
	st := f.Stats()
	fmt.Printf("%d pages, %d exact duplicates, %d URLs observed\n", st.Pages, st.Exact, st.Observed)
	// Output:
	// true
	// false
	// true
	// false
	// 1 pages, 1 exact duplicates, 2 URLs observed
}

// Attach replaces katana's default filter and rejects options under which katana would not
// show the filter the crawl's URLs and bodies.
func ExampleFilter_Attach() {
	f, err := undustkatana.New(undustkatana.Options{})
	if err != nil {
		panic(err)
	}
	co, err := types.NewCrawlerOptions(&types.Options{MaxDepth: 3, FieldScope: "rdn", Timeout: 10,
		Concurrency: 10, Parallelism: 10, RateLimit: 150, Strategy: "breadth-first", FilterSimilar: true})
	if err != nil {
		panic(err)
	}
	defer co.Close() // closes f
	err = f.Attach(co)
	fmt.Println(errors.Is(err, undustkatana.ErrFilterSimilar))

	co.Options.FilterSimilar = false
	// Then crawl: crawler, err := standard.New(co); ...; crawler.Crawl(seed).
	fmt.Println(f.Attach(co), co.UniqueFilter == f)
	// Output:
	// true
	// <nil> true
}
