package rules

import (
	"testing"

	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/urlnorm"
)

// BenchmarkMayMatch is mayMatch alone on the keys of the dev URLs moved to a host without rules
// (noRulesURL), the test that Normalize makes of a URL after its key; "key" is AppendKey of the
// same URLs, the yardstick.
func BenchmarkMayMatch(b *testing.B) {
	s := loadLearned(b)
	key := urlnorm.New(urlnorm.Crawler)
	var urls, keys []string
	for _, l := range loadDev(b, 0) {
		u := noRulesURL(l.URL)
		if k, err := key.Key(u); err == nil && !s.mayMatch(k) {
			urls, keys = append(urls, u), append(keys, k)
		}
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			i := 0
			cpu := cpubench.Start(b)
			for b.Loop() {
				f(i)
				if i++; i == len(keys) {
					i = 0
				}
			}
			cpu.Report(0)
		})
	}
	var buf []byte
	run("key", func(i int) { buf, _ = key.AppendKey(buf[:0], urls[i]) })
	run("mayMatch", func(i int) { s.mayMatch(keys[i]) })
}
