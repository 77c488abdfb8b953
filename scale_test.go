package undust

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/undust/undust/htmltext"
)

// The scale check of the crawl core: a synthetic crawl of many URLs and pages, with bodies
// generated and no network. It is opt-in (UNDUST_SCALE=URLS, e.g. UNDUST_SCALE=10000000) and
// needs memory: run it alone, without the race detector:
//
//	UNDUST_SCALE=10000000 go test -run TestScale -v -timeout 60m .
//
// One URL in ten is fetched and answered with a page of its own (kept); the others are fetched
// and answered 404 (they hold their keys, as every URL a crawler fetched does). Hosts have 500
// URLs each and no duplicates, so no host has rules: the decision measured is that for a host
// without rules, against a lookup in a Go map[string]struct{} of the same URL strings, the
// visited set a crawler keeps without undust.
func TestScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("UNDUST_SCALE"))
	if n <= 0 {
		t.Skip("set UNDUST_SCALE=URLS to run the scale check (10000000 for the documented figures)")
	}
	const perHost, pageEvery = 500, 10
	url := func(i int) string {
		return fmt.Sprintf("https://h%06d.example.org/catalog/section-%d/item-%d?ref=r%d", i/perHost, i%7, i, i%13)
	}
	body := func(i int) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>Item %d</title></head><body><nav><a href=/>Home</a> <a href=/catalog>Catalog</a></nav><main><h1>Item %d</h1>", i, i)
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for p := range 4 {
			b.WriteString("<p>")
			for range 40 {
				fmt.Fprintf(&b, "w%d ", r.IntN(50000))
			}
			fmt.Fprintf(&b, "paragraph %d</p>", p)
		}
		b.WriteString("</main><footer>Shop of h.example.org</footer></body></html>")
		return []byte(b.String())
	}

	// The yardstick: a crawler's own visited set of the URL strings.
	probes := make([]string, 1<<16)
	for i := range probes {
		probes[i] = url(n + i) // URLs of the crawl's hosts, not in the set
	}
	baseHeap := heap()
	visited := make(map[string]struct{})
	for i := range n {
		visited[url(i)] = struct{}{}
	}
	mapBytes := heap() - baseHeap
	mapNs := timePerOp(len(probes), func(j int) {
		_, ok := visited[probes[j%len(probes)]]
		if ok {
			t.Fatal("probe in the set")
		}
	})
	visited = nil

	c := mustNew(t, Options{})
	baseHeap = heap()
	start := time.Now()
	pages := 0
	for i := range n {
		u := url(i)
		if d := c.Before(u); d.Action != Fetch {
			t.Fatalf("Before(%q) = %+v", u, d)
		}
		r := Response{URL: u, Status: 404}
		if i%pageEvery == 0 {
			r.Status, r.Body = 200, body(i)
			pages++
		}
		c.After(r)
		if testing.Verbose() && i > 0 && i%(n/10) == 0 {
			t.Logf("%d URLs, %d pages, %v, heap %d MB", i, pages, time.Since(start).Round(time.Second), heap()>>20)
		}
	}
	build := time.Since(start)
	total := heap() - baseHeap
	if path := os.Getenv("UNDUST_SCALE_HEAP"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		pprof.WriteHeapProfile(f)
		f.Close()
	}
	st := c.Stats()
	if st.Kept != int64(pages) || st.Held != n {
		t.Fatalf("stats %+v", st)
	}
	// The before-fetch decision for a URL of a host without rules: a new URL (Fetch), then
	// the same URL again (Seen), averaged.
	beforeNs := timePerOp(len(probes), func(j int) { c.Before(probes[j%len(probes)]) })

	page := body(1)
	for len(page) < 50<<10 {
		page = append(page[:len(page)-len("</body></html>")], []byte(strings.Repeat("<p>more text of the page, and more words in it</p>", 40)+"</body></html>")...)
	}
	extractNs := timePerOp(200, func(int) { htmltext.Extract(page, htmltext.Options{MainContent: true}) })
	k := 0
	afterNs := timePerOp(200, func(j int) {
		u := fmt.Sprintf("https://big.example.org/page/%d", k)
		k++
		c.Before(u)
		c.After(Response{URL: u, Status: 200, Body: page})
	})

	t.Logf("scale: %d URLs on %d hosts, %d kept pages, built in %v", n, n/perHost, pages, build.Round(time.Second))
	t.Logf("memory: %d MB in all; %.0f bytes a URL held (with the pages' share), map[string]struct{} of the URLs: %d MB, %.0f bytes a URL",
		total>>20, float64(total)/float64(n), mapBytes>>20, float64(mapBytes)/float64(n))
	t.Logf("Before, host without rules: %.0f ns; map lookup: %.0f ns; ratio %.2f", beforeNs, mapNs, beforeNs/mapNs)
	t.Logf("After of a %d KB page: %.0f µs; htmltext.Extract: %.0f µs; ratio %.2f", len(page)>>10, afterNs/1e3, extractNs/1e3, afterNs/extractNs)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// timePerOp returns the least of five runs' time per call of f(0..n-1), in nanoseconds.
func timePerOp(n int, f func(int)) float64 {
	best := 0.0
	for range 5 {
		t0 := time.Now()
		for j := range n {
			f(j)
		}
		ns := float64(time.Since(t0).Nanoseconds()) / float64(n)
		if best == 0 || ns < best {
			best = ns
		}
	}
	return best
}
