package main

import (
	"github.com/undust/undust/shingle"
)

// Exact duplicates: a digest of the normalized text (tokens joined by
// spaces), as the lecture notes' "compute the cryptographic hash of each
// web page". An eliminator: the first page (in id order) with a digest is
// kept, later ones are dropped as its duplicates.
func init() {
	register(
		Method{Family: "digest", Name: "digest:sha256", Param: "equal", Default: true, Run: func(in *Input) Result {
			return eliminateByKey(in, func(text string) any { return shingle.Digest(text, shingle.Options{}) })
		}},
		Method{Family: "digest", Name: "digest:xxh64", Param: "equal", Run: func(in *Input) Result {
			return eliminateByKey(in, func(text string) any { return shingle.Digest64(text, shingle.Options{}) })
		}},
	)
}

// eliminateByKey keeps the first page of every key and drops the rest.
// Pages without tokens are never duplicates.
func eliminateByKey(in *Input, key func(string) any) Result {
	keys := make([]any, len(in.Docs))
	parallel(len(in.Docs), func(i int) { keys[i] = key(in.Docs[i].Text) })
	first := map[any]int32{}
	var res Result
	res.Removed = []Removal{}
	for i, k := range keys {
		if len(in.Sets[i]) == 0 {
			continue
		}
		if j, ok := first[k]; ok {
			res.Removed = append(res.Removed, Removal{Dropped: int32(i), Kept: j})
			continue
		}
		first[k] = int32(i)
	}
	return res
}
