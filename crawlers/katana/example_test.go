package undustkatana_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/projectdiscovery/gologger"
	"github.com/projectdiscovery/gologger/levels"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"

	undustkatana "github.com/undust/undust/crawlers/katana"
)

// quiet is katana's output in the example: nothing.
type quiet struct{}

func (quiet) Close() error                 { return nil }
func (quiet) Write(*output.Result) error   { return nil }
func (quiet) WriteErr(*output.Error) error { return nil }

// New replaces katana's standard engine: the same crawler options, with undust deciding for
// each request. Here a small site links one article under a tracking parameter and through a
// print view.
func Example() {
	gologger.DefaultLogger.SetMaxLevel(levels.LevelSilent)
	article := "<p>" + strings.Repeat("The lantern was lit at dusk by a keeper who never asked who the light was for. ", 8) + "</p>"
	pages := map[string]string{
		"/":                        `<a href="/story/1?utm_source=home">story</a> <a href="/story/1">story</a> <a href="/print/1">print</a>`,
		"/story/1?utm_source=home": `<nav><a href="/">home</a></nav>` + article,
		"/story/1":                 `<nav><a href="/">home</a></nav>` + article,
		"/print/1":                 article,
	}
	fetched := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched++
		fmt.Fprint(w, "<html><body>"+pages[r.URL.RequestURI()]+"</body></html>")
	}))
	defer srv.Close()

	co, err := types.NewCrawlerOptions(&types.Options{MaxDepth: 3, FieldScope: "fqdn", Timeout: 2,
		Concurrency: 1, Parallelism: 1, RateLimit: 1000, Strategy: "breadth-first", BodyReadSize: 1 << 20})
	if err != nil {
		panic(err)
	}
	co.OutputWriter = quiet{}
	defer co.Close()
	crawler, err := undustkatana.New(co, undustkatana.Options{}) // instead of standard.New(co)
	if err != nil {
		panic(err)
	}
	if err := crawler.Crawl(srv.URL + "/"); err != nil {
		panic(err)
	}
	st := crawler.Stats()
	fmt.Printf("fetched %d URLs; %d skipped before fetching; %d pages kept, %d duplicates\n", fetched, st.Skip, st.Kept, st.Duplicates)
	// Output:
	// fetched 3 URLs; 1 skipped before fetching; 2 pages kept, 1 duplicates
}
