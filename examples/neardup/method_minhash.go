package main

import (
	"fmt"

	"github.com/undust/undust/shingle"
)

// MinHash + LSH: 128-value signatures of the 5-shingle sets, an LSH index
// that proposes candidates, and the candidates kept when the signatures
// agree in at least a fraction t of positions (the MinHash estimate of J).
// The index is built for shingle.CandidateThreshold(t), below t, so that the
// estimate rather than the bands' S-curve decides the pairs near t. Pages are
// inserted in id order and each queries the pages before it, as a crawler
// would.
func init() {
	for _, t := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		register(Method{
			Family:  "minhash",
			Name:    fmt.Sprintf("minhash:%.2f", t),
			Param:   fmt.Sprintf("est>=%.2f", t),
			Default: t == 0.8,
			Run:     func(in *Input) Result { return minhashLSH(in, t) },
		})
	}
}

func minhashLSH(in *Input, t float64) Result {
	sigs := signatures(in)
	sets := featureSets(in)
	index := shingle.NewLSH(128, shingle.CandidateThreshold(t))
	var res Result
	var cands []uint64
	for i, sig := range sigs {
		if len(sets[i]) == 0 {
			continue
		}
		cands, _ = index.AppendQuery(cands[:0], sig)
		for _, c := range cands {
			if shingle.Estimate(sig, sigs[c]) >= t {
				res.Pairs = append(res.Pairs, MakePair(int(c), i))
			}
		}
		index.Insert(uint64(i), sig)
	}
	return res
}

// minhash+verify: the same LSH index proposes candidates, and the exact
// Jaccard of the shingle sets decides, which is what a crawler that keeps
// shingle sets of recent pages can afford.
func init() {
	register(Method{
		Family:  "minhash",
		Name:    "minhash+verify:0.80",
		Param:   "J>=0.80",
		Default: false,
		Run: func(in *Input) Result {
			sigs := signatures(in)
			sets := featureSets(in)
			index := shingle.NewLSH(128, shingle.CandidateThreshold(0.8))
			var res Result
			var cands []uint64
			for i, sig := range sigs {
				if len(sets[i]) == 0 {
					continue
				}
				cands, _ = index.AppendQuery(cands[:0], sig)
				for _, c := range cands {
					if sets[i].Jaccard(sets[c]) >= 0.8 {
						res.Pairs = append(res.Pairs, MakePair(int(c), i))
					}
				}
				index.Insert(uint64(i), sig)
			}
			return res
		},
	})
}

// signatures returns the 128-value MinHash signature of every page's
// shingle set (seed 1), computed once per input.
func signatures(in *Input) [][]uint64 {
	return in.Cache("minhash128", func() any {
		m := shingle.NewMinHasher(128, 1)
		sets := featureSets(in)
		sigs := make([][]uint64, len(sets))
		parallel(len(sets), func(i int) { sigs[i] = m.Signature(sets[i]) })
		return sigs
	}).([][]uint64)
}
