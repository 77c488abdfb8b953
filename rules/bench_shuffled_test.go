package rules

import (
	"math/rand/v2"
	"net/url"
	"testing"
)

// BenchmarkLearnedShuffled is BenchmarkLearned's "all" on the dev URLs in an order shuffled once
// (with a fixed seed), beside "urlparse" of the same URLs: the dev URLs come in site order, in
// which each URL's host is nearly always that of the URL before, and what a scratch keeps of the
// last host (view.treesHost) is met far more often than in a queue of many sites.
func BenchmarkLearnedShuffled(b *testing.B) {
	s := loadLearned(b)
	var all []string
	for _, l := range loadDev(b, 0) {
		all = append(all, l.URL)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	benchURLs(b, "urlparse", all, func(u string) { url.Parse(u) })
	benchURLs(b, "all", all, func(u string) { s.Normalize(u) })
}
