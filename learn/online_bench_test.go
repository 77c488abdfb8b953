package learn

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/undust/undust/internal/cpubench"
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
