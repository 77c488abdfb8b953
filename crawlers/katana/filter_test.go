package undustkatana

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/projectdiscovery/katana/pkg/navigation"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"
	"github.com/projectdiscovery/katana/pkg/utils/filters"

	"github.com/undust/undust/learn"
)

var _ filters.Filter = (*Filter)(nil)

// fetch does what katana's standard engine does with one response, on the calling goroutine:
// UniqueContent with the body, then the result written with the response, or with an empty
// response if the body was a duplicate. It returns UniqueContent's answer.
func fetch(f *Filter, u string, status int, body string) bool {
	unique := f.UniqueContent([]byte(body))
	resp := &navigation.Response{}
	if unique {
		resp = &navigation.Response{Resp: &http.Response{StatusCode: status}, StatusCode: status, Body: body}
	}
	f.Result(&output.Result{Request: &navigation.Request{Method: "GET", URL: u}, Response: resp})
	return unique
}

func page(title string, words int, seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title></head><body><ul class=nav><li><a href=/>home</a></li></ul>", title)
	b.WriteString("<div class=article><p>")
	for i := range words {
		fmt.Fprintf(&b, "w%d ", (i*7919+seed*104729)%100003)
	}
	b.WriteString("</p></div></body></html>")
	return b.String()
}

func newFilter(t *testing.T, opt Options) *Filter {
	t.Helper()
	f, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		ok   bool
	}{
		{"zero value: the defaults", Options{}, true},
		{"exact digests only", Options{NearK: -1}, true},
		{"the widest SimHash index", Options{NearK: 31}, true},
		{"beyond the index's range", Options{NearK: 32}, false},
		{"negative growth", Options{Online: learn.OnlineOptions{Growth: -1}}, false},
	}
	for _, tc := range tests {
		f, err := New(tc.opt)
		if (err == nil) != tc.ok {
			t.Errorf("%s: New(%+v) error %v, want ok=%v", tc.name, tc.opt, err, tc.ok)
		}
		if err == nil {
			f.Close()
			f.Close() // twice is fine
		} else if !strings.HasPrefix(err.Error(), "undustkatana: ") {
			t.Errorf("%s: error %q lacks the package prefix", tc.name, err)
		}
	}
}

type nopWriter struct{ n int }

func (w *nopWriter) Close() error                 { return nil }
func (w *nopWriter) Write(*output.Result) error   { w.n++; return nil }
func (w *nopWriter) WriteErr(*output.Error) error { return nil }

type closeCounter struct {
	filters.Filter
	closed int
}

func (c *closeCounter) Close() { c.closed++ }

func TestAttach(t *testing.T) {
	tests := []struct {
		name string
		set  func(*types.Options)
		want error
	}{
		{"standard engine, defaults", func(*types.Options) {}, nil},
		{"headless engine", func(o *types.Options) { o.Headless = true }, ErrHeadless},
		{"-fsu", func(o *types.Options) { o.FilterSimilar = true }, ErrFilterSimilar},
		{"-iqp", func(o *types.Options) { o.IgnoreQueryParams = true }, ErrIgnoreQuery},
		{"-duf", func(o *types.Options) { o.DisableUniqueFilter = true }, ErrNoUniqueFilter},
	}
	for _, tc := range tests {
		f := newFilter(t, Options{})
		o := &types.Options{}
		tc.set(o)
		old := &closeCounter{}
		inner := &nopWriter{}
		co := &types.CrawlerOptions{Options: o, OutputWriter: inner, UniqueFilter: old}
		err := f.Attach(co)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Attach error %v, want %v", tc.name, err, tc.want)
		}
		if err != nil {
			if co.UniqueFilter != filters.Filter(old) || old.closed != 0 {
				t.Errorf("%s: a failed Attach changed the options", tc.name)
			}
			continue
		}
		if co.UniqueFilter != filters.Filter(f) || old.closed != 1 {
			t.Errorf("%s: UniqueFilter not replaced, or the old one not closed (%d)", tc.name, old.closed)
		}
		if err := f.Attach(co); err != nil {
			t.Errorf("%s: second Attach: %v", tc.name, err)
		}
		co.OutputWriter.Write(&output.Result{Request: &navigation.Request{URL: "https://a.example/"}})
		if inner.n != 1 {
			t.Errorf("%s: katana's writer saw %d results through the wrapped writer, want 1 (wrapped once)", tc.name, inner.n)
		}
	}
	f := newFilter(t, Options{})
	for _, co := range []*types.CrawlerOptions{nil, {}, {Options: &types.Options{}}} {
		if err := f.Attach(co); err == nil {
			t.Errorf("Attach(%+v) = nil, want an error", co)
		}
	}
}

func TestIsCycle(t *testing.T) {
	f := newFilter(t, Options{})
	tests := []struct {
		url  string
		want bool
	}{
		{"https://a.example/", false},
		{"https://a.example/a/b/c/d?x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1&x=1", false},                    // the query is not a path
		{"https://a.example/" + strings.Repeat("a/b/", 9) + "c", false},                                 // 9 repetitions
		{"https://a.example/" + strings.Repeat("a/b/", 10) + "c", true},                                 // 10: katana's MaxSequenceCount
		{"https://a.example/" + strings.Repeat("x", filters.MaxChromeURLLength), true},                  // over Chrome's limit
		{"https://a.example/" + strings.Repeat("docs/", 5) + strings.Repeat("img/", 10) + "?q=1", true}, // one segment 10 times
	}
	for _, tc := range tests {
		if got := f.IsCycle(tc.url); got != tc.want {
			t.Errorf("IsCycle(%.80q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

func TestUniqueURL(t *testing.T) {
	f := newFilter(t, Options{})
	tests := []struct {
		url  string
		want bool
	}{
		{"https://a.example/item?id=1", true},
		{"https://a.example/item?id=1", false},                         // the same string
		{"https://a.example/item?utm_source=feed&id=1", false},         // the static key drops tracking parameters
		{"HTTPS://A.EXAMPLE:443/item?id=1#top", false},                 // case, default port, fragment
		{"https://a.example/item?id=2", true},                          // another page
		{"mailto:someone@a.example", true},                             // not an http(s) URL: keyed by itself
		{"mailto:someone@a.example", false},                            //
		{"https://a.example/item;jsessionid=0A1B2C3D4E5F?id=2", false}, // a known session id
	}
	for _, tc := range tests {
		if got := f.UniqueURL(tc.url); got != tc.want {
			t.Errorf("UniqueURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

func TestUniqueContent(t *testing.T) {
	article := page("story", 400, 1)
	edited := strings.Replace(article, "<p>", "<p>Updated. ", 1) // one word more in 400: near
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"a page", article, true},
		{"the same bytes", article, false},
		{"the same main text in another template", strings.Replace(article, "<li><a href=/>home</a></li>", "<li><a href=/?s=1>start</a></li>", 1), false},
		{"a near duplicate", edited, false},
		{"another page", page("story", 400, 2), true},
		{"a body without text", "<html><body><img src=a.png></body></html>", true},
		{"the same bytes again", "<html><body><img src=a.png></body></html>", false},
		{"other bytes without text", "<html><body><img src=b.png></body></html>", true},
	}
	f := newFilter(t, Options{})
	for _, tc := range tests {
		if got := f.UniqueContent([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: UniqueContent = %v, want %v", tc.name, got, tc.want)
		}
	}
	st := f.Stats()
	if st.Bodies != len(tests) || st.Pages != 4 || st.Exact != 3 || st.Near != 1 {
		t.Errorf("Stats = %+v, want 8 bodies, 4 pages, 3 exact and 1 near duplicates", st)
	}
	// Exact digests only: the edited article is a page of its own.
	g := newFilter(t, Options{NearK: -1})
	for _, b := range []string{article, edited} {
		if !g.UniqueContent([]byte(b)) {
			t.Errorf("NearK -1: UniqueContent(%.20q...) = false, want true", b)
		}
	}
}

// TestPairing runs the engine's calling order on many goroutines at once and checks that every
// URL is paired with its own body's page.
func TestPairing(t *testing.T) {
	f := newFilter(t, Options{})
	const pages, copies = 40, 5
	var wg sync.WaitGroup
	for p := range pages {
		for c := range copies {
			wg.Go(func() {
				fetch(f, fmt.Sprintf("https://a.example/p%d?copy=%d", p, c), http.StatusOK, page("p", 200, p))
			})
		}
	}
	wg.Wait()
	st := f.Stats()
	if st.Observed != pages*copies || st.Unpaired != 0 || st.Pages != pages {
		t.Fatalf("Stats = %+v, want %d observed, 0 unpaired, %d pages", st, pages*copies, pages)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for p := range pages {
		first := f.pageOf[fmt.Sprintf("https://a.example/p%d?copy=0", p)]
		for c := range copies {
			u := fmt.Sprintf("https://a.example/p%d?copy=%d", p, c)
			if got, ok := f.pageOf[u]; !ok || got != first {
				t.Errorf("page of %s = %d (%v), want %d, that of copy 0", u, got, ok, first)
			}
		}
	}
}

func TestResultUnpaired(t *testing.T) {
	f := newFilter(t, Options{})
	// A result without a body before it (a failed request) teaches nothing.
	f.Result(&output.Result{Request: &navigation.Request{URL: "https://a.example/x"}, Response: &navigation.Response{Resp: &http.Response{StatusCode: 200}, Body: "x"}})
	// A unique body paired with another body.
	f.UniqueContent([]byte(page("a", 100, 1)))
	f.Result(&output.Result{Request: &navigation.Request{URL: "https://a.example/y"}, Response: &navigation.Response{Resp: &http.Response{StatusCode: 200}, Body: page("b", 100, 2)}})
	// Not 200: paired, not observed; a duplicate of it is not observed either.
	fetch(f, "https://a.example/missing", http.StatusNotFound, "<p>not found</p>")
	fetch(f, "https://a.example/gone", http.StatusOK, "<p>not found</p>")
	if st := f.Stats(); st.Unpaired != 2 || st.Observed != 0 {
		t.Errorf("Stats = %+v, want 2 unpaired, 0 observed", st)
	}
	if f.Result(nil); f.Stats().Unpaired != 2 {
		t.Errorf("Result(nil) counted")
	}
}

// TestLearnedRules feeds the Filter a crawl of a shop whose item pages carry a referrer
// parameter, relearns, and checks that a new variant is verified once, then skipped. The site
// is relearned only when the test says (MinURLs is out of reach), so the test is deterministic.
func TestLearnedRules(t *testing.T) {
	f := newFilter(t, Options{Online: learn.OnlineOptions{MinURLs: 1 << 20}})
	for i := range 30 {
		body := page(fmt.Sprintf("item %d", i), 120, i)
		for _, u := range []string{
			fmt.Sprintf("http://shop.example.com/item?id=%d", i),
			fmt.Sprintf("http://shop.example.com/item?id=%d&ref=%d", i, 9000+13*i),
		} {
			if !f.UniqueURL(u) {
				t.Fatalf("UniqueURL(%q) = false before any rule", u)
			}
			fetch(f, u, http.StatusOK, body)
		}
	}
	f.Learner().RelearnAll()
	tests := []struct {
		url  string
		want bool
	}{
		{"http://shop.example.com/item?id=7&ref=1", true},  // the rule's first use: verified by fetching
		{"http://shop.example.com/item?id=8&ref=2", false}, // then trusted
		{"http://shop.example.com/item?id=99&ref=3", true}, // a page not fetched yet
	}
	for _, tc := range tests {
		if got := f.UniqueURL(tc.url); got != tc.want {
			t.Errorf("UniqueURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
		if tc.want {
			fetch(f, tc.url, http.StatusOK, page("item 7", 120, 7))
		}
	}
	st := f.Stats()
	if st.Verified != 1 || st.Mismatches != 0 || st.Online.Confirmed != 1 {
		t.Errorf("Stats = %+v, want 1 verification, confirmed", st)
	}
}
