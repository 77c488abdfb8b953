package main

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/shingle"
)

// Shingles + exact Jaccard (Broder 1997): every pair whose 5-shingle sets
// have resemblance J >= t. All pairs with J >= 0.5 are computed once per
// input by an inverted index over the shingle sets, then each threshold
// filters them.
func init() {
	for _, t := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		register(Method{
			Family:  "jaccard",
			Name:    fmt.Sprintf("jaccard:%.2f", t),
			Param:   fmt.Sprintf("J>=%.2f", t),
			Default: t == 0.8,
			Run: func(in *Input) Result {
				all := in.Cache("jaccard>=0.5", func() any { return allPairsJaccard(featureSets(in), 0.5) }).([]scoredPair)
				var res Result
				for _, p := range all {
					if p.J >= t {
						res.Pairs = append(res.Pairs, p.Pair)
					}
				}
				return res
			},
		})
	}
}

// scoredPair is a pair with its resemblance.
type scoredPair struct {
	Pair
	J float64
}

// allPairsJaccard returns every pair of non-empty sets with Jaccard >= min,
// exactly, in O(sum over shingles of df^2) time: for each page it counts
// the shared shingles with every later page through postings lists.
func allPairsJaccard(sets []shingle.Set, min float64) []scoredPair {
	type entry struct {
		h   uint64
		doc int32
	}
	var entries []entry
	for i, s := range sets {
		for _, h := range s {
			entries = append(entries, entry{h, int32(i)})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	})
	// postings: docs of each distinct hash, contiguous; groups[i] lists
	// the posting ranges of page i.
	docs := make([]int32, len(entries))
	type span struct{ lo, hi int32 }
	groups := make([][]span, len(sets))
	for lo := 0; lo < len(entries); {
		hi := lo
		for hi < len(entries) && entries[hi].h == entries[lo].h {
			docs[hi] = entries[hi].doc
			hi++
		}
		if hi-lo > 1 {
			for k := lo; k < hi; k++ {
				d := entries[k].doc
				groups[d] = append(groups[d], span{int32(lo), int32(hi)})
			}
		}
		lo = hi
	}
	count := make([]int32, len(sets))
	var touched []int32
	var out []scoredPair
	for i := range sets {
		for _, g := range groups[i] {
			post := docs[g.lo:g.hi]
			// Later pages only: the postings are sorted by page.
			k, _ := slices.BinarySearch(post, int32(i)+1)
			for _, j := range post[k:] {
				if count[j] == 0 {
					touched = append(touched, j)
				}
				count[j]++
			}
		}
		for _, j := range touched {
			c := int(count[j])
			count[j] = 0
			u := len(sets[i]) + len(sets[j]) - c
			if jac := float64(c) / float64(u); jac >= min {
				out = append(out, scoredPair{Pair{int32(i), j}, jac})
			}
		}
		touched = touched[:0]
	}
	return out
}

// jaccard+template:0.80 adds cross-page template learning: the paragraphs
// that repeat on at least half (and at least 3) of the pages of one host
// are learned with htmltext.Boilerplate and dropped before shingling.
func init() {
	register(Method{
		Family: "jaccard",
		Name:   "jaccard+template:0.80",
		Param:  "J>=0.80",
		Run: func(in *Input) Result {
			sets := in.Cache("template-sets", func() any { return templateSets(in) }).([]shingle.Set)
			var res Result
			for _, p := range allPairsJaccard(sets, 0.8) {
				res.Pairs = append(res.Pairs, p.Pair)
			}
			return res
		},
	})
}

// templateSets learns each host's template from its pages and returns the
// shingle sets of the pages without it.
func templateSets(in *Input) []shingle.Set {
	hosts := map[string]*htmltext.Boilerplate{}
	hostOf := make([]string, len(in.Docs))
	for i, d := range in.Docs {
		h := d.URL
		if u, err := url.Parse(d.URL); err == nil {
			h = u.Host
		}
		hostOf[i] = h
		if hosts[h] == nil {
			hosts[h] = &htmltext.Boilerplate{}
		}
		hosts[h].Add(htmltext.Text{Paragraphs: d.Paragraphs})
	}
	sets := make([]shingle.Set, len(in.Docs))
	parallel(len(in.Docs), func(i int) {
		t := hosts[hostOf[i]].Strip(htmltext.Text{Paragraphs: in.Docs[i].Paragraphs})
		sets[i] = shingle.NewSet(shingle.Hashes(t.String(), shingle.Options{}))
	})
	return sets
}

// jaccard-mod8:0.80 is the lecture notes' sampled variant: only shingle
// hashes that are 0 mod 8 are kept as fingerprints, and J of the samples
// stands for J of the sets. Pages with no sampled hash keep their whole set.
func init() {
	register(Method{
		Family: "jaccard",
		Name:   "jaccard-mod8:0.80",
		Param:  "J>=0.80",
		Run: func(in *Input) Result {
			sets := make([]shingle.Set, len(in.Sets))
			for i, s := range featureSets(in) {
				sets[i] = s.Sample(nil, 8)
				if len(sets[i]) == 0 {
					sets[i] = s
				}
			}
			var res Result
			for _, p := range allPairsJaccard(sets, 0.8) {
				res.Pairs = append(res.Pairs, p.Pair)
			}
			return res
		},
	})
}
