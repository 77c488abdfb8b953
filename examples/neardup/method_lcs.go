package main

import (
	"crypto/md5"
	"fmt"
	"strings"

	"github.com/undust/undust/lcs"
)

// Length-variable feature codes (Guo, Chen, Xin and Wang): the paper's
// method and its baselines, all eliminators over the pages in id order
// (the arrival order), as in the paper's Tables II and IV:
//
//	lcs:title   Exp. I: pages with equal titles (non-empty) are duplicates
//	lcs:md5     Exp. II/III: MD5 of the text (paragraphs joined); on full
//	            text this is the page contents, on main text the purified page
//	lcs:exact   Exp. IV: equal feature codes
//	lcs:0.70 .. lcs:1.00
//	            Exp. V and Table IV: lcs.Eliminate with repeatability
//	            threshold δ; codes are processed longest first, and a page
//	            is dropped when a kept page's code covers at least δ of its
//	            own by one common substring
//
//	lcs-nocut:0.75
//	            the default row without Algorithm 2's cut of the text to its
//	            first 1000 characters: what the cut costs on contained pages
//
// The feature codes (lcs.Code of each page's paragraphs) are computed once
// per input and charged to the first row that needs them, lcs:exact. Pages
// without text (an empty code or an empty MD5 input) are never duplicates.
func init() {
	register(
		Method{Family: "lcs", Name: "lcs:title", Param: "title equal", Run: func(in *Input) Result {
			keys := make([]string, len(in.Docs))
			for i, d := range in.Docs {
				keys[i] = strings.TrimSpace(d.Title)
			}
			return lcsEliminateByKey(keys)
		}},
		Method{Family: "lcs", Name: "lcs:md5", Param: "MD5 equal", Run: func(in *Input) Result {
			keys := make([]string, len(in.Docs))
			parallel(len(in.Docs), func(i int) {
				if t := in.Docs[i].Text; strings.TrimSpace(t) != "" {
					sum := md5.Sum([]byte(t))
					keys[i] = string(sum[:])
				}
			})
			return lcsEliminateByKey(keys)
		}},
		Method{Family: "lcs", Name: "lcs:exact", Param: "code equal", Run: func(in *Input) Result {
			return lcsEliminateByKey(lcsCodes(in))
		}},
	)
	for _, delta := range []float64{0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 1.00} {
		register(Method{
			Family:  "lcs",
			Name:    fmt.Sprintf("lcs:%.2f", delta),
			Param:   fmt.Sprintf("S>=%.2f", delta),
			Default: delta == lcs.DefaultDelta,
			Run: func(in *Input) Result {
				return lcsEliminate(lcsCodes(in), delta)
			},
		})
	}
	register(Method{Family: "lcs-nocut", Name: "lcs-nocut:0.75", Param: "S>=0.75", Default: true, Run: func(in *Input) Result {
		x, err := lcs.NewExtractor(&lcs.Options{MaxChars: -1})
		if err != nil {
			panic(err) // constant, valid options
		}
		codes := make([]string, len(in.Docs))
		parallel(len(in.Docs), func(i int) { codes[i] = x.Code(in.Docs[i].Paragraphs) })
		return lcsEliminate(codes, lcs.DefaultDelta)
	}})
}

// lcsEliminate drops the duplicates lcs.Eliminate finds among codes.
func lcsEliminate(codes []string, delta float64) Result {
	res := Result{Removed: []Removal{}}
	for i, r := range lcs.Eliminate(codes, delta) {
		if r.Dup {
			res.Removed = append(res.Removed, Removal{Dropped: int32(i), Kept: int32(r.Of)})
		}
	}
	return res
}

// lcsCodes returns the feature code of every page, computed once per input.
func lcsCodes(in *Input) []string {
	return in.Cache("lcs:codes", func() any {
		codes := make([]string, len(in.Docs))
		parallel(len(in.Docs), func(i int) { codes[i] = lcs.Code(in.Docs[i].Paragraphs) })
		return codes
	}).([]string)
}

// lcsEliminateByKey keeps the first page of every non-empty key and drops
// the later ones as its duplicates.
func lcsEliminateByKey(keys []string) Result {
	res := Result{Removed: []Removal{}}
	first := map[string]int32{}
	for i, k := range keys {
		if k == "" {
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
