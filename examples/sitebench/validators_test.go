package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validatorSite serves /a/N, /a/N?ref=x and /print/N as one page N. With byPage its ETag
// names the page and its Last-Modified is the page's date; otherwise its ETag is a hash of the
// URL, as servers that fold the request into their validator give it, and it sends no date.
type validatorSite struct{ byPage bool }

func (s validatorSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	if s.byPage {
		w.Header().Set("ETag", `"page-`+n+`"`)
		w.Header().Set("Last-Modified", fmt.Sprintf("Mon, 0%s Jan 2024 00:00:00 GMT", n))
	} else {
		w.Header().Set("ETag", fmt.Sprintf(`"%x"`, r.URL.String()))
	}
	body := "<html><body><main>page " + n + "</main></body></html>"
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method != http.MethodHead {
		fmt.Fprint(w, body)
	}
}

// validatorLog writes a fetch log of a crawl of the site at root: pages 1 to 5, each under
// its three URLs.
func validatorLog(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	i := 0
	for _, form := range []string{"%s/a/%d", "%s/a/%d?ref=x", "%s/print/%d"} {
		for n := 1; n <= 5; n++ {
			i++
			fmt.Fprintf(&b, "%d\t1\t200\t\tt%d\t"+form+"\t\n", i, n, root, n)
		}
	}
	f := filepath.Join(t.TempDir(), "fetches.tsv")
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestValidators(t *testing.T) {
	for _, tc := range []struct {
		byPage bool
		want   []string // lines of the table, spaces squeezed
	}{
		{true, []string{
			"15 URLs, 10 pairs of one page, 4 pairs of two pages of one type (every response 200)",
			"ETag 100.0% 100.0% 0.0%",
			"Last-Modified 100.0% 100.0% 0.0%",
			"identical body (GET, the yardstick) 100.0% 100.0% 0.0%",
		}},
		{false, []string{
			"ETag 100.0% 0.0% 0.0%",
			"Last-Modified 0.0% 0.0% 0.0%",
			// pages 1 to 5 have bodies of one length: it confirms pairs of two pages
			"Content-Length 100.0% 100.0% 100.0%",
		}},
	} {
		srv := httptest.NewServer(validatorSite{tc.byPage})
		var out bytes.Buffer
		if code := run([]string{"validators", "-log", validatorLog(t, srv.URL)}, &out, nil); code != 0 {
			t.Fatalf("byPage %v: exit %d", tc.byPage, code)
		}
		srv.Close()
		got := map[string]bool{}
		for _, l := range strings.Split(out.String(), "\n") {
			got[strings.Join(strings.Fields(l), " ")] = true
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("byPage %v: no line %q in\n%s", tc.byPage, w, out.String())
			}
		}
	}
}

func TestValidatorPairs(t *testing.T) {
	fetches := []loggedFetch{
		{"http://x/a/1", "p1"}, {"http://x/a/2", "p2"}, {"http://x/a/1?s=1", "p1"},
		{"http://x/a/1", "p1"}, {"http://x/gone", "-"}, {"http://x/a/3", "p3"},
	}
	same, other := validatorPairs(fetches, 10)
	if want := [][2]string{{"http://x/a/1", "http://x/a/1?s=1"}}; fmt.Sprint(same) != fmt.Sprint(want) {
		t.Errorf("pairs of one page %v, want %v (a URL fetched again is not a pair)", same, want)
	}
	if want := [][2]string{{"http://x/a/1", "http://x/a/2"}, {"http://x/a/2", "http://x/a/3"}}; fmt.Sprint(other) != fmt.Sprint(want) {
		t.Errorf("pairs of two pages %v, want %v", other, want)
	}
	if got := spread([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 5); fmt.Sprint(got) != "[0 2 4 6 8]" {
		t.Errorf("spread = %v", got)
	}
}
