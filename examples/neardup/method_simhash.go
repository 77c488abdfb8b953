package main

import (
	"fmt"

	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
)

// SimHash (Charikar, STOC 2002; Manku, Jain and Das Sarma, WWW 2007): a
// 64-bit fingerprint of each page's 5-word shingles (the corpus
// tokenization), weighted by their counts, and every pair of pages whose
// fingerprints differ in at most k bits. The fingerprints and all pairs
// within the largest k are computed once per input (charged to the first
// row, k = 0) with the exact index finder; each row filters them. Pages
// without shingles are never duplicates: their fingerprints are all 0.
//
// Two more rows at Manku's k = 3: "simhash-set" weighs every distinct
// shingle once (the shingle set), and "simhash-batch" finds the pairs with
// the lecture notes' batch method (64 rotations, adjacent entries) instead
// of the exact finder.
func init() {
	const maxK = 6
	for k := 0; k <= maxK; k++ {
		register(Method{
			Family:  "simhash",
			Name:    fmt.Sprintf("simhash:k%d", k),
			Param:   fmt.Sprintf("d<=%d", k),
			Default: k == simhash.DefaultK,
			Run: func(in *Input) Result {
				all := in.Cache("simhash:pairs", func() any {
					fps, idx := simhashCounts(in)
					return simhashPairs(simhash.FindPairsExact(fps, maxK), idx)
				}).([]distPair)
				var res Result
				for _, p := range all {
					if p.d <= k {
						res.Pairs = append(res.Pairs, p.Pair)
					}
				}
				return res
			},
		})
	}
	register(
		Method{Family: "simhash-set", Name: "simhash-set:k3", Param: "d<=3", Default: true, Run: func(in *Input) Result {
			var fps []uint64
			var idx []int
			for i, s := range featureSets(in) {
				if len(s) > 0 {
					fps = append(fps, simhash.Sum64(s))
					idx = append(idx, i)
				}
			}
			return simhashResult(simhashPairs(simhash.FindPairsExact(fps, 3), idx))
		}},
		Method{Family: "simhash-batch", Name: "simhash-batch:k3", Param: "d<=3 rot=64 win=1", Default: true, Run: func(in *Input) Result {
			fps, idx := simhashCounts(in)
			return simhashResult(simhashPairs(simhash.FindPairs(fps, 3, nil), idx))
		}},
	)
}

// distPair is a pair of pages with the Hamming distance of their
// fingerprints.
type distPair struct {
	Pair
	d int
}

// simhashCounts returns the count-weighted fingerprints of the pages that
// have shingles, and their indices in in.Docs.
func simhashCounts(in *Input) ([]uint64, []int) {
	all := make([]uint64, len(in.Docs))
	if templates.on {
		t := shingleTemplates(in)
		parallel(len(in.Docs), func(i int) {
			hs := shingle.Hashes(in.Docs[i].Text, shingle.Options{})
			all[i] = simhash.Sum64(t.keep(in.Docs[i].URL, hs))
		})
	} else {
		parallel(len(in.Docs), func(i int) { all[i] = simhash.SumText(in.Docs[i].Text, shingle.Options{}) })
	}
	var fps []uint64
	var idx []int
	for i, fp := range all {
		if len(in.Sets[i]) > 0 {
			fps = append(fps, fp)
			idx = append(idx, i)
		}
	}
	return fps, idx
}

// simhashPairs maps pairs of positions in a fingerprint slice back to pages.
func simhashPairs(ps []simhash.Pair, idx []int) []distPair {
	out := make([]distPair, len(ps))
	for i, p := range ps {
		out[i] = distPair{MakePair(idx[p.I], idx[p.J]), p.Distance}
	}
	return out
}

func simhashResult(ps []distPair) Result {
	res := Result{Pairs: make([]Pair, len(ps))}
	for i, p := range ps {
		res.Pairs[i] = p.Pair
	}
	return res
}
