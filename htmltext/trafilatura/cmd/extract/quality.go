package main

import (
	"slices"

	"github.com/undust/undust/shingle"
)

// quality is how close extracted texts are to reference main texts.
type quality struct {
	Pages     int     // pages compared: those with a reference text
	MedianJ   float64 // median resemblance of 5-shingle sets
	ShareGE90 float64 // share of pages with J >= 0.9
	Empty     int     // pages whose extracted text is empty and reference is not
}

// compare scores recs against the reference texts truth (by id). Pages
// without a reference are left out. A page whose extracted and reference
// texts both have no shingles counts as J = 1 (the extractor was right
// that there is no text); shingle.Set.Jaccard gives 0 there.
func compare(recs []record, truth map[string]string) quality {
	var js []float64
	var q quality
	for _, r := range recs {
		want, ok := truth[r.ID]
		if !ok {
			continue
		}
		a := shingle.NewSet(shingle.Hashes(r.Main, shingle.Options{}))
		b := shingle.NewSet(shingle.Hashes(want, shingle.Options{}))
		j := a.Jaccard(b)
		if len(a) == 0 && len(b) == 0 {
			j = 1
		}
		if len(a) == 0 && len(b) > 0 {
			q.Empty++
		}
		js = append(js, j)
	}
	q.Pages = len(js)
	if len(js) == 0 {
		return q
	}
	slices.Sort(js)
	if n := len(js); n%2 == 1 {
		q.MedianJ = js[n/2]
	} else {
		q.MedianJ = (js[n/2-1] + js[n/2]) / 2
	}
	ge := 0
	for _, j := range js {
		if j >= 0.9 {
			ge++
		}
	}
	q.ShareGE90 = float64(ge) / float64(len(js))
	return q
}
