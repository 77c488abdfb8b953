//go:build linux

package urlnorm

import (
	"net/url"
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
	pairs, _ := loadHrefs(b)
	bases := make([]*url.URL, len(pairs))
	for i, p := range pairs {
		bases[i], _ = url.Parse(p.base)
	}
	n := New(Crawler)
	pbases := make([]*Base, len(pairs))
	for i, p := range pairs {
		pbases[i], _ = n.Base(p.base)
	}
	buf := make([]byte, 0, 4096)
	fs := []struct {
		name string
		f    func(i int)
	}{
		{"Resolve", func(i int) { n.Resolve(pairs[i].base, pairs[i].ref) }},
		{"ResolveKey", func(i int) { n.ResolveKey(pairs[i].base, pairs[i].ref) }},
		{"AppendResolveKey", func(i int) { buf, _ = n.AppendResolveKey(buf[:0], pairs[i].base, pairs[i].ref) }},
		{"BaseResolveKey", func(i int) { pbases[i].ResolveKey(pairs[i].ref) }},
		{"BaseAppendResolveKey", func(i int) { buf, _ = pbases[i].AppendResolveKey(buf[:0], pairs[i].ref) }},
		{"NetURL", func(i int) {
			if r, err := url.Parse(pairs[i].ref); err == nil {
				bases[i].ResolveReference(r)
			}
		}},
		{"NetURLString", func(i int) {
			if r, err := url.Parse(pairs[i].ref); err == nil {
				_ = bases[i].ResolveReference(r).String()
			}
		}},
	}
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
