package rules

import (
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/internal/tier"
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

// TestConcurrentLearned checks Normalize of the learned set (with a Key) called from several
// goroutines at once against the reference path. The calls share the set's spare scratch and its
// pool, so that a scratch goes from one goroutine to another between calls; each goroutine meets,
// in an order of its own, dev URLs, their variants on a host without rules (given back without
// the scratch's matcher) and URLs that the key writer refuses.
func TestConcurrentLearned(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	step := tier.Step(30)
	var urls []string
	for i := 0; i < len(ls); i += step {
		urls = append(urls, ls[i].URL, noRulesURL(ls[i].URL))
	}
	urls = append(urls, "http://[::1/a", "http://h.example:99999/", "no scheme")
	type result struct{ out, err string }
	want := make([]result, len(urls))
	refused := 0
	for i, u := range urls {
		out, err := s.normalizeRef(u)
		want[i] = result{out, fmt.Sprint(err)}
		if err != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no URL refused: the test does not check the error path")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range urls {
				j := (i + g*len(urls)/4) % len(urls)
				if i%2 == 1 {
					j = len(urls) - 1 - j // every other call from the other end
				}
				out, err := s.Normalize(urls[j])
				if got := (result{out, fmt.Sprint(err)}); got != want[j] {
					t.Errorf("concurrent Normalize(%q) = %q, %s; reference %q, %s", urls[j], got.out, got.err, want[j].out, want[j].err)
					return
				}
			}
		})
	}
	wg.Wait()
}
