package main

import (
	"fmt"

	"github.com/undust/undust/shingle"
)

// SpotSigs (Theobald et al., SIGIR 2008) and SizeSpotSigs (Mao et al.,
// PAKDD 2011): spot signatures anchored at stop words (d = 1, c = 2),
// weighted Jaccard, all pairs above the threshold by the size-partitioned
// search of shingle.SpotPairs. SizeSpotSigs represents pages with fewer
// than 10 spots by their 5-shingles instead.
func init() {
	for _, t := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		register(Method{
			Family:  "spotsigs",
			Name:    fmt.Sprintf("spotsigs:%.2f", t),
			Param:   fmt.Sprintf("sim>=%.2f", t),
			Default: t == 0.8,
			Run: func(in *Input) Result {
				return spotPairs(in, "spots", t, func(text string) shingle.Spots {
					return shingle.SpotSignatures(text, shingle.SpotOptions{})
				})
			},
		})
	}
	for _, t := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		register(Method{
			Family:  "sizespotsigs",
			Name:    fmt.Sprintf("sizespotsigs:%.2f", t),
			Param:   fmt.Sprintf("sim>=%.2f", t),
			Default: t == 0.8,
			Run: func(in *Input) Result {
				return spotPairs(in, "sizespots", t, func(text string) shingle.Spots {
					return shingle.SizeSpots(text, shingle.SizeSpotOptions{})
				})
			},
		})
	}
}

// spotPairs extracts features once per input (cached under key) and
// returns the pairs with similarity >= t.
func spotPairs(in *Input, key string, t float64, features func(string) shingle.Spots) Result {
	docs := in.Cache(key, func() any {
		docs := make([]shingle.Spots, len(in.Docs))
		parallel(len(in.Docs), func(i int) { docs[i] = features(in.Docs[i].Text) })
		return filterSpots(in, docs)
	}).([]shingle.Spots)
	var res Result
	for _, p := range shingle.SpotPairs(docs, t) {
		res.Pairs = append(res.Pairs, MakePair(p.A, p.B))
	}
	return res
}
