package rules

import (
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/undust/undust/internal/cpubench"
)

// BenchmarkConcurrentLearned is "all" of BenchmarkLearned from GOMAXPROCS goroutines at once, one
// set, beside net/url.Parse of the same URLs the same way: what the calls cost when they share
// the set and its pool of scratches.
func BenchmarkConcurrentLearned(b *testing.B) {
	s := loadLearned(b)
	ls := loadDev(b, 0)
	all := make([]string, len(ls))
	for i, l := range ls {
		all[i] = l.URL
	}
	run := func(b *testing.B, f func(string)) {
		var next atomic.Uint64
		m := cpubench.Start(b)
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(7919))
			for pb.Next() {
				f(all[i%len(all)])
				i++
			}
		})
		m.Report(0)
	}
	b.Run("urlparse", func(b *testing.B) { run(b, func(u string) { _, _ = url.Parse(u) }) })
	b.Run("all", func(b *testing.B) { run(b, func(u string) { _, _ = s.Normalize(u) }) })
}
