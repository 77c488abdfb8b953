package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/undust/undust"
)

// The page identity of the crawl core: every page of the corpus is given
// to undust.Crawl.After as the response of a fetch (status 200, its URL,
// its HTML), one at a time, in an order shuffled by the row's seed, as a
// crawl meets the pages of a site. The crawl's own identity decides:
// per host an htmltext.Site that learns from the pages the crawl keeps,
// two texts per page (the main content by the page's markup, and the
// main content without the template learned so far), and a page
// duplicates a kept page when a digest of either text matches or its
// SimHash is within 3 bits of a kept page's. Two pages are called
// near-duplicates when After gives them the same page id. Online rule
// learning and what sites declare are off (Options.NoLearning,
// NoDeclared): only the content identity is measured. The texts of the
// variant being evaluated are not used, nor is -templates: the crawl
// extracts from the HTML itself; the rows are the same for either
// variant.
func init() {
	for _, seed := range []uint64{1, 2, 3} {
		register(Method{
			Family:  "crawl",
			Name:    fmt.Sprintf("crawl:s%d", seed),
			Param:   fmt.Sprintf("seed %d", seed),
			Default: seed == 1,
			Run:     func(in *Input) Result { return crawlIdentity(in.Pages, seed) },
		})
	}
}

// crawlIdentity feeds pages to a new Crawl in the order of seed and
// returns the pairs of pages that get the same page id.
func crawlIdentity(pages []Page, seed uint64) Result {
	c, err := undust.New(undust.Options{NoLearning: true, NoDeclared: true})
	if err != nil {
		panic(err) // the options are constant and valid
	}
	order := rand.New(rand.NewPCG(seed, 0x6372617766)).Perm(len(pages))
	byID := map[uint64][]int{}
	for _, i := range order {
		p := c.After(undust.Response{URL: pages[i].URL, Status: 200, Body: []byte(pages[i].HTML)})
		if p.ID != 0 {
			byID[p.ID] = append(byID[p.ID], i)
		}
	}
	var res Result
	res.Pairs = []Pair{}
	for _, idx := range byID {
		for a := range idx {
			for b := a + 1; b < len(idx); b++ {
				res.Pairs = append(res.Pairs, MakePair(idx[a], idx[b]))
			}
		}
	}
	return res
}
