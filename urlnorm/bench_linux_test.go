//go:build linux

package urlnorm

import (
	"net/url"
	"runtime"
	"testing"
	"time"

	"github.com/undust/undust/internal/cpubench"
)

// BenchmarkCorpusCPU runs each function over the whole corpus per op and
// reports the thread CPU time per URL (cpu-ns/URL) beside the wall-clock
// ns/op. On a shared machine wall-clock time counts the time other
// processes hold the core; thread CPU time does not, so it compares the
// functions more fairly there. (It leaves out GC work done on other threads,
// which favours net/url.Parse's allocation slightly.)
func BenchmarkCorpusCPU(b *testing.B) {
	urls, _ := loadCorpus(b)
	n := New(Crawler)
	buf := make([]byte, 0, 4096)
	fs := []struct {
		name string
		f    func(string)
	}{
		{"Canonical", func(u string) { n.Canonical(u) }},
		{"Key", func(u string) { n.Key(u) }},
		{"AppendKey", func(u string) { buf, _ = n.AppendKey(buf[:0], u) }},
		{"NetURLParse", func(u string) { url.Parse(u) }},
	}
	for _, f := range fs {
		benchThreadCPU(b, f.name, len(urls), func(i int) { f.f(urls[i]) }, "cpu-ns/URL")
	}
}

// benchThreadCPU runs f(0) to f(n-1) per op, on a locked thread, as the sub-benchmark name, and
// reports the thread's CPU time per call as the metric unit.
func benchThreadCPU(b *testing.B, name string, n int, f func(int), unit string) {
	b.Run(name, func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var cpu time.Duration
		passes := 0
		for b.Loop() {
			t0 := cpubench.ThreadTime()
			for i := range n {
				f(i)
			}
			cpu += cpubench.ThreadTime() - t0
			passes++
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(passes*n), unit)
	})
}
