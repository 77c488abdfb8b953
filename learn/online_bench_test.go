package learn

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/simsite"
)

// BenchmarkOnlineNormalize measures Online.Normalize on the sample's URLs after the sample was
// learned, idle and while another goroutine keeps relearning a site of the sample (observing
// new URLs and relearning it, over and over). thread-cpu-ns/op is the CPU time of the
// benchmark's own thread, which leaves out the relearning goroutine; compare it between the two
// sub-benchmarks: publication through atomic pointers should cost Normalize nothing measurable.
func BenchmarkOnlineNormalize(b *testing.B) {
	for _, relearning := range []bool{false, true} {
		name := "idle"
		if relearning {
			name = "relearning"
		}
		b.Run(name, func(b *testing.B) {
			o := NewOnline(OnlineOptions{MaxClusterURLs: 1 << 20})
			var urls []string
			for i, c := range loadSample(b) {
				for _, u := range c.URLs {
					o.Observe(u, uint64(i+1))
					urls = append(urls, u.Raw)
				}
			}
			o.RelearnAll()
			stop := make(chan struct{})
			var wg sync.WaitGroup
			if relearning {
				wg.Go(func() {
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						// New evidence for the sample's largest site, then its relearn.
						for j := range 8 {
							o.Observe(URL{Raw: fmt.Sprintf("http://www.extra-%d.vistamesa.com.br/p/%d", i, j)}, uint64(1<<40+i*8+j))
						}
						o.RelearnAll()
					}
				})
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			m := cpubench.Start(b)
			t0 := cpubench.ThreadTime()
			i := 0
			for b.Loop() {
				o.Normalize(urls[i%len(urls)])
				i++
			}
			if t := cpubench.ThreadTime() - t0; t > 0 {
				b.ReportMetric(float64(t.Nanoseconds())/float64(b.N), "thread-cpu-ns/op")
			}
			m.Report(0)
			close(stop)
			wg.Wait()
			if relearning && o.Stats().Relearns < 2 {
				b.Log("the relearning goroutine did not relearn during the benchmark")
			}
		})
	}
}

// BenchmarkPairwiseOnline measures the online learner's pairwise stage on the simulated site of
// package simsite (300 pages, seed 1), each page's cluster holding every third of the URLs the
// site links it by (a crawl's clusters hold the variants it happened to fetch): with the
// navigation parameters and the rounds of the origin map, case lowering and token parameters
// (default), and without both (once).
func BenchmarkPairwiseOnline(b *testing.B) {
	site, err := simsite.New(300, 1)
	if err != nil {
		b.Fatal(err)
	}
	var cls []*Cluster
	for i, p := range site.Pages() {
		c := &Cluster{ID: fmt.Sprintf("s-%d", i), Site: "s"}
		for j, u := range site.Links(p) {
			if j%3 == i%3 {
				c.URLs = append(c.URLs, URL{Raw: u})
			}
		}
		cls = append(cls, c)
	}
	opt := Options{MinPrecision: 0.9}.withDefaults()
	opt.online = true
	for _, c := range []struct {
		name string
		off  bool
	}{{"default", false}, {"once", true}} {
		b.Run(c.name, func(b *testing.B) {
			ablate.NoRounds, ablate.NoNavParams = c.off, c.off
			defer func() { ablate.NoRounds, ablate.NoNavParams = false, false }()
			b.ReportAllocs()
			for b.Loop() {
				pairwise(cls, opt)
			}
		})
	}
}
