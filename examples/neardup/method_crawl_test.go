package main

import (
	"slices"
	"testing"
)

// TestEvalCrawl checks the crawl rows on the synthetic corpus: the two
// exact copies of an article get one page id whatever the order, the
// template traps never do, and a seed gives the same pairs every time.
func TestEvalCrawl(t *testing.T) {
	rows := evalRows(t, "-method", "crawl", "-text", "main")
	for _, key := range []string{"crawl:s1/main", "crawl:s2/main", "crawl:s3/main"} {
		r, ok := rows[key]
		if !ok {
			t.Errorf("no row %s", key)
			continue
		}
		if r.TruePos < 2 || r.TrapFP != 0 {
			t.Errorf("%s: %d true pairs, %d trap pairs; want at least 2 and 0", key, r.TruePos, r.TrapFP)
		}
	}
	c, err := loadCorpus("testdata")
	if err != nil {
		t.Fatal(err)
	}
	sorted := func(r Result) []Pair {
		slices.SortFunc(r.Pairs, func(a, b Pair) int {
			if a.A != b.A {
				return int(a.A - b.A)
			}
			return int(a.B - b.B)
		})
		return r.Pairs
	}
	if a, b := sorted(crawlIdentity(c.Pages, 7)), sorted(crawlIdentity(c.Pages, 7)); !slices.Equal(a, b) {
		t.Errorf("seed 7 gave pairs %v, then %v", a, b)
	}
}
