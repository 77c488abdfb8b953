package undust

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/internal/cpubench"
)

// The scale check of the crawl core: a synthetic crawl of many URLs and pages, with bodies
// generated and no network. It is opt-in (UNDUST_SCALE=URLS, e.g. UNDUST_SCALE=10000000) and
// needs memory: run it alone, without the race detector:
//
//	UNDUST_SCALE=10000000 go test -run TestScale -v -timeout 60m .
//
// One URL in ten is fetched and answered with a page of its own (kept); the others are fetched
// and answered 404 (they hold their keys, as every URL a crawler fetched does). Hosts have 500
// URLs each, each host a site of its own (UNDUST_SCALE_HOSTS_PER_SITE=N: N hosts to a site), and
// no duplicates, so no host has rules: the decision measured is that for a host without rules,
// against a Go map[string]struct{} of the same URL strings, the visited set a crawler keeps
// without undust. Timings are CPU time of the timing thread, the least of five rounds, the
// map's and the Crawl's in turn.
func TestScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("UNDUST_SCALE"))
	if n <= 0 {
		t.Skip("set UNDUST_SCALE=URLS to run the scale check (10000000 for the documented figures)")
	}
	const pageEvery, rounds = 10, 5

	// Probes, made as a crawler makes them (strings of their own, not the stored ones): URLs
	// held, spread over the crawl, and for each round URLs of the crawl's hosts not held yet.
	seen := make([]string, 1<<16)
	for j := range seen {
		seen[j] = scaleURL(int(uint64(j) * 0x9e3779b97f4a7c15 % uint64(n)))
	}
	fresh := make([][]string, rounds)
	for r := range fresh {
		fresh[r] = make([]string, len(seen))
		for j := range fresh[r] {
			fresh[r][j] = scaleURLOn(j*7919%((n+scalePerHost-1)/scalePerHost), n+r*len(seen)+j)
		}
	}

	// The yardstick: a crawler's own visited set of the URL strings.
	baseHeap := heap()
	visited := make(map[string]struct{})
	for i := range n {
		visited[scaleURL(i)] = struct{}{}
	}
	mapBytes := heap() - baseHeap

	c := mustNew(t, Options{})
	baseHeap = heap()
	start := time.Now()
	pages := 0
	for i := range n {
		u := scaleURL(i)
		if d := c.Before(u); d.Action != Fetch {
			t.Fatalf("Before(%q) = %+v", u, d)
		}
		r := Response{URL: u, Status: 404}
		if i%pageEvery == 0 {
			r.Status, r.Body = 200, scaleBody(i)
			pages++
		}
		c.After(r)
		if testing.Verbose() && i > 0 && i%(n/10) == 0 {
			t.Logf("%d URLs, %d pages, %v, heap %d MB", i, pages, time.Since(start).Round(time.Second), (heap()-baseHeap)>>20)
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
	t.Logf("the Crawl's own arrays: %s", c.arrayBytes())

	// The before-fetch decision for a URL of a host without rules: a URL fetched before (Skip,
	// Seen) against a hit in the visited set; a new URL (Fetch, held from then on) against a
	// miss and an insert.
	var each []string // every round's figure, for the log
	best := func(old *float64, v float64) {
		if *old == 0 || v < *old {
			*old = v
		}
		each = append(each, fmt.Sprintf("%.0f", v))
	}
	var mapHit, beforeSeen, mapNew, beforeNew float64
	for r := range rounds {
		best(&mapHit, timePerOp(len(seen), func(j int) {
			if _, ok := visited[seen[j]]; !ok {
				t.Fatal("probe not in the set")
			}
		}))
		best(&beforeSeen, timePerOp(len(seen), func(j int) {
			if d := c.Before(seen[j]); d.Action != Skip {
				t.Fatalf("Before(%q) = %+v", seen[j], d)
			}
		}))
		best(&mapNew, timePerOp(len(seen), func(j int) {
			u := fresh[r][j]
			if _, ok := visited[u]; !ok {
				visited[u] = struct{}{}
			}
		}))
		best(&beforeNew, timePerOp(len(seen), func(j int) {
			if d := c.Before(fresh[r][j]); d.Action != Fetch {
				t.Fatalf("Before(%q) = %+v", fresh[r][j], d)
			}
		}))
	}
	t.Logf("rounds (map hit, Before seen, map new, Before new) ns: %s", strings.Join(each, " "))
	ls := c.Stats().Learner
	if ls.Rules != 0 {
		t.Errorf("the learner learned %d rules: the decisions timed are not those for hosts without rules", ls.Rules)
	}
	each = nil
	visited = nil

	// After of a 50 KB page: pages of their own (kept, learned into their host's template) and
	// copies of a kept page (duplicates), against htmltext.Extract of the same pages.
	big := make([][][]byte, rounds+1)
	for r := range big {
		big[r] = make([][]byte, 200)
		for j := range big[r] {
			big[r][j] = scaleBigPage(r*len(big[r]) + j)
		}
	}
	bigURL := func(r, j int, kind string) string {
		return fmt.Sprintf("https://big.example.net/%s/%d/%d", kind, r, j)
	}
	for j, p := range big[0] { // the pages the copies are of
		c.Before(bigURL(0, j, "page"))
		c.After(Response{URL: bigURL(0, j, "page"), Status: 200, Body: p})
	}
	var extract, afterKept, afterDup float64
	for r := range rounds {
		best(&extract, timePerOp(len(big[0]), func(j int) { htmltext.Extract(big[0][j], htmltext.Options{MainContent: true}) }))
		best(&afterKept, timePerOp(len(big[0]), func(j int) {
			u := bigURL(r+1, j, "page")
			c.Before(u)
			if p := c.After(Response{URL: u, Status: 200, Body: big[r+1][j]}); p.Duplicate {
				t.Fatalf("big page %d of round %d is a duplicate of %s", j, r, p.Of)
			}
		}))
		best(&afterDup, timePerOp(len(big[0]), func(j int) {
			u := bigURL(r, j, "copy")
			c.Before(u)
			if p := c.After(Response{URL: u, Status: 200, Body: big[0][j]}); !p.Duplicate {
				t.Fatalf("copy of big page %d is no duplicate", j)
			}
		}))
	}
	t.Logf("rounds (Extract, After kept, After duplicate) ns: %s", strings.Join(each, " "))

	t.Logf("scale: %d URLs on %d hosts, %d kept pages, built in %v; learner: %d sites, %d URLs kept as evidence, %d rules", n, (n+scalePerHost-1)/scalePerHost, pages, build.Round(time.Second), ls.Sites, ls.URLs, ls.Rules)
	t.Logf("memory: %d MB in all: %.0f bytes a URL held (with the pages' share), %.0f a kept page (with the URLs' share); map[string]struct{} of the URLs: %d MB, %.0f bytes a URL",
		total>>20, float64(total)/float64(n), float64(total)/float64(pages), mapBytes>>20, float64(mapBytes)/float64(n))
	t.Logf("CPU time. Before, host without rules, URL fetched before: %.0f ns; map hit: %.0f ns; ratio %.2f", beforeSeen, mapHit, beforeSeen/mapHit)
	t.Logf("Before, host without rules, new URL: %.0f ns; map miss and insert: %.0f ns; ratio %.2f", beforeNew, mapNew, beforeNew/mapNew)
	t.Logf("After of a %d KB page: kept %.0f µs, duplicate %.0f µs; htmltext.Extract: %.0f µs; ratios %.2f and %.2f",
		len(big[0][0])>>10, afterKept/1e3, afterDup/1e3, extract/1e3, afterKept/extract, afterDup/extract)
}

// scalePerHost is the number of URLs of a host in the synthetic crawl.
const scalePerHost = 500

// scaleURL returns URL i of the synthetic crawl.
func scaleURL(i int) string { return scaleURLOn(i/scalePerHost, i) }

// scaleURLOn returns the URL of item i on host h: each host a site of its own, or with
// UNDUST_SCALE_HOSTS_PER_SITE=N, N hosts to a site (a registrable domain).
func scaleURLOn(h, i int) string {
	if n := scaleHostsPerSite(); n > 1 {
		return fmt.Sprintf("https://h%06d.s%06d.com/catalog/section-%d/item-%d?ref=r%d", h, h/n, i%7, i, i%13)
	}
	return fmt.Sprintf("https://www.h%06d.com/catalog/section-%d/item-%d?ref=r%d", h, i%7, i, i%13)
}

var scaleHostsPerSite = sync.OnceValue(func() int {
	n, _ := strconv.Atoi(os.Getenv("UNDUST_SCALE_HOSTS_PER_SITE"))
	return n
})

// scaleBody returns the page of URL i: about 2 KB, a header, four paragraphs of random words
// and a footer.
func scaleBody(i int) []byte {
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
	b.WriteString("</main><footer>Shop of this host</footer></body></html>")
	return []byte(b.String())
}

// scaleBigPage returns a page of 50 KB: scaleBody(i) and paragraphs of words of its own.
func scaleBigPage(i int) []byte {
	page := scaleBody(i)
	page = page[:len(page)-len("</main><footer>Shop of this host</footer></body></html>")]
	r := rand.New(rand.NewPCG(uint64(i), 11))
	for len(page) < 50<<10 {
		page = append(page, "<p>"...)
		for range 30 {
			page = fmt.Appendf(page, "v%d ", r.IntN(50000))
		}
		page = append(page, "</p>"...)
	}
	return append(page, "</main><footer>Shop of this host</footer></body></html>"...)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// timePerOp returns the CPU time of the calling thread per call of f(0..n-1), in nanoseconds:
// the machines these checks run on are shared, and wall-clock time would count the time other
// processes held the cores (see internal/cpubench).
func timePerOp(n int, f func(int)) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := cpubench.ThreadTime()
	for j := range n {
		f(j)
	}
	return float64((cpubench.ThreadTime() - t0).Nanoseconds()) / float64(n)
}

// arrayBytes sizes the Crawl's own arrays: the capacity of each, in MB (maps and templates not
// counted).
func (c *Crawl) arrayBytes() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	holders := 0
	for _, ch := range c.holders.chunks {
		holders += cap(ch) * int(unsafe.Sizeof(holder{}))
	}
	keys := len(c.keys.slots) * int(unsafe.Sizeof(keySlot{}))
	near, sims := 0, 0
	if x := c.pages.sims; x != nil {
		sims = len(x.fps)
		near = cap(x.fps)*8 + cap(x.pages)*4
		for _, t := range x.buckets {
			near += len(t) * int(unsafe.Sizeof([]uint64{}))
			for _, b := range t {
				near += cap(b) * 8
			}
		}
	}
	mb := func(n int) float64 { return float64(n) / (1 << 20) }
	return fmt.Sprintf("holders %.0f MB (%d), URL store %.0f MB, key table %.0f MB (%d slots for %d keys), SimHash index %.1f MB (%d SimHashes), page holders %.1f MB",
		mb(holders), c.holders.len(), mb(c.urls.bytes()), mb(keys), len(c.keys.slots), c.keys.n, mb(near), sims, mb(cap(c.pages.first)*4))
}
