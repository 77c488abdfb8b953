//go:build linux

package urlnorm

import (
	"runtime"
	"testing"
	"time"

	"github.com/undust/undust/internal/cpubench"
)

// BenchmarkResolveCPU runs each function over all (page, href) pairs of
// loadHrefs per op and reports the thread CPU time per pair (cpu-ns/href),
// which other processes on a shared machine do not inflate. NetURL is
// net/url's url.Parse(href) and base.ResolveReference with every base parsed
// beforehand, as the Base variants have every base made beforehand;
// NetURLString also prints the result.
func BenchmarkResolveCPU(b *testing.B) {
	pairs, fs := resolveFuncs(b)
	for _, f := range fs {
		b.Run(f.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			passes := 0
			for b.Loop() {
				t0 := cpubench.ThreadTime()
				for i := range pairs {
					f.f(i)
				}
				cpu += cpubench.ThreadTime() - t0
				passes++
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(passes*len(pairs)), "cpu-ns/href")
		})
	}
}
