package undust

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/internal/cpubench"
)

// benchState is a warm Crawl for BenchmarkBefore: the URLs of the synthetic crawl of TestScale
// let through and fetched (one in ten a page of its own), and the visited set a crawler keeps
// without undust, a map[string]struct{} of the same URL strings. It is made once per process:
// UNDUST_BENCH_URLS URLs (default 1,000,000).
var benchState = sync.OnceValues(func() (*Crawl, map[string]struct{}) {
	n := 1000000
	if v, err := strconv.Atoi(os.Getenv("UNDUST_BENCH_URLS")); err == nil && v > 0 {
		n = v
	}
	c, err := New(Options{})
	if err != nil {
		panic(err)
	}
	visited := make(map[string]struct{}, n)
	for i := range n {
		u := scaleURL(i)
		c.Before(u)
		r := Response{URL: u, Status: 404}
		if i%10 == 0 {
			r.Status, r.Body = 200, scaleBody(i)
		}
		c.After(r)
		visited[scaleURL(i)] = struct{}{}
	}
	return c, visited
})

// BenchmarkBefore is the before-fetch decision for URLs of hosts without rules on a warm Crawl
// (by=undust), against the visited set a crawler keeps without undust (by=map), in the same run:
//
//	url=seen  Before of a URL fetched before (Skip, itself); the map: a hit
//	url=new   Before of a URL not seen before (Fetch; it is held from then on); the map: a miss
//	          and an insert
//
// The probes are strings of their own, as a crawler's links are. Compare with
// benchstat -col /by over -count 10; the cpu-ns/op figures are the ones to compare on a shared
// machine.
func BenchmarkBefore(b *testing.B) {
	c, visited := benchState()
	n := len(visited)
	seen := make([]string, 1<<16)
	for j := range seen {
		seen[j] = scaleURL(int(uint64(j) * 0x9e3779b97f4a7c15 % uint64(n)))
	}
	hosts := (n + scalePerHost - 1) / scalePerHost
	next := n // the next new URL's item number, over every run
	newURLs := func(dst []string) {
		for j := range dst {
			dst[j] = scaleURLOn(next%hosts, n+next)
			next++
		}
	}

	b.Run("url=seen/by=undust", func(b *testing.B) {
		b.ReportAllocs()
		m := cpubench.Start(b)
		j := 0
		for b.Loop() {
			if d := c.Before(seen[j]); d.Action != Skip {
				b.Fatalf("Before(%q) = %+v", seen[j], d)
			}
			j = (j + 1) % len(seen)
		}
		m.Report(0)
	})
	b.Run("url=seen/by=map", func(b *testing.B) {
		b.ReportAllocs()
		m := cpubench.Start(b)
		j := 0
		for b.Loop() {
			if _, ok := visited[seen[j]]; !ok {
				b.Fatalf("%q not in the set", seen[j])
			}
			j = (j + 1) % len(seen)
		}
		m.Report(0)
	})
	fresh := make([]string, 1<<16)
	// overNew runs op on new URLs, made in batches outside the timer and the CPU time counted.
	overNew := func(b *testing.B, op func(u string)) {
		b.ReportAllocs()
		newURLs(fresh)
		cpu0, paused := cpubench.ProcessTime(), time.Duration(0)
		j := 0
		for b.Loop() {
			if j == len(fresh) {
				b.StopTimer()
				p0 := cpubench.ProcessTime()
				newURLs(fresh)
				paused += cpubench.ProcessTime() - p0
				j = 0
				b.StartTimer()
			}
			op(fresh[j])
			j++
		}
		b.ReportMetric(float64((cpubench.ProcessTime()-cpu0-paused).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.Run("url=new/by=undust", func(b *testing.B) {
		overNew(b, func(u string) {
			if d := c.Before(u); d.Action != Fetch {
				b.Fatalf("Before(%q) = %+v", u, d)
			}
		})
	})
	b.Run("url=new/by=map", func(b *testing.B) {
		overNew(b, func(u string) {
			if _, ok := visited[u]; !ok {
				visited[u] = struct{}{}
			}
		})
	})
}

// BenchmarkAfter is the after-fetch work for a 50 KB page, against htmltext.Extract of the same
// pages (MainContent) in the same run:
//
//	page=kept       a page of its own: identified, kept, learned into its host's template
//	page=duplicate  a copy of a kept page under another URL
//	by=Extract      htmltext.Extract
//
// Each op of After is a Before and an After of a new URL on one host of a fresh Crawl. Compare
// with benchstat over -count 10, by cpu-ns/op.
func BenchmarkAfter(b *testing.B) {
	pool := make([][]byte, 64)
	for j := range pool {
		pool[j] = scaleBigPage(j)
	}
	b.Run("page=kept/by=After", func(b *testing.B) {
		c, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(pool[0])))
		cpu0, paused := cpubench.ProcessTime(), time.Duration(0)
		page := pool[0]
		i := 0
		for b.Loop() {
			b.StopTimer()
			p0 := cpubench.ProcessTime()
			page = scaleBigPage(len(pool) + i)
			paused += cpubench.ProcessTime() - p0
			b.StartTimer()
			u := fmt.Sprintf("https://big.example.net/page/%d", i)
			c.Before(u)
			if p := c.After(Response{URL: u, Status: 200, Body: page}); p.Duplicate {
				b.Fatalf("page %d is a duplicate of %s", i, p.Of)
			}
			i++
		}
		b.ReportMetric(float64((cpubench.ProcessTime()-cpu0-paused).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("page=duplicate/by=After", func(b *testing.B) {
		c, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		for j, p := range pool {
			u := fmt.Sprintf("https://big.example.net/page/%d", j)
			c.Before(u)
			c.After(Response{URL: u, Status: 200, Body: p})
		}
		b.SetBytes(int64(len(pool[0])))
		m := cpubench.Start(b)
		i := 0
		for b.Loop() {
			u := fmt.Sprintf("https://big.example.net/copy/%d", i)
			c.Before(u)
			if p := c.After(Response{URL: u, Status: 200, Body: pool[i%len(pool)]}); !p.Duplicate {
				b.Fatalf("copy %d is no duplicate", i)
			}
			i++
		}
		m.Report(0)
	})
	b.Run("page=any/by=Extract", func(b *testing.B) {
		b.SetBytes(int64(len(pool[0])))
		m := cpubench.Start(b)
		i := 0
		for b.Loop() {
			htmltext.Extract(pool[i%len(pool)], htmltext.Options{MainContent: true})
			i++
		}
		m.Report(0)
	})
}
