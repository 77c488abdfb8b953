package undust

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// nearScan is nearIndex.near by a linear scan: the closest stored SimHash within k bits, of
// equally close ones the first stored.
func nearScan(fps []uint64, pages []uint32, k int, fp uint64) (uint32, bool) {
	best, bestD := -1, k+1
	for e, f := range fps {
		if d := bits.OnesCount64(f ^ fp); d < bestD {
			best, bestD = e, d
		}
	}
	if best < 0 {
		return 0, false
	}
	return pages[best], true
}

// nearIndex finds what a linear scan finds, for every K, through the growth of its directory,
// on queries near stored SimHashes (flips of up to K+1 bits, so that some are just out of
// reach) and far from them.
func TestNearIndex(t *testing.T) {
	for _, k := range []int{1, 2, 3, 4, 7, 31} {
		r := rand.New(rand.NewPCG(uint64(k), 1))
		x := newNearIndex(k)
		var fps []uint64
		var pages []uint32
		flip := func(fp uint64, n int) uint64 {
			for range n {
				fp ^= 1 << r.IntN(64)
			}
			return fp
		}
		for i := range 3000 {
			// Pages of one or two SimHashes; some close to earlier ones, so that ties and
			// several candidates occur.
			page := uint32(i/2 + 1)
			fp := r.Uint64()
			if i > 0 && r.IntN(4) == 0 {
				fp = flip(fps[r.IntN(len(fps))], k+2)
			}
			x.insert(page, fp)
			fps, pages = append(fps, fp), append(pages, page)
			for range 3 {
				q := r.Uint64()
				if r.IntN(3) > 0 {
					q = flip(fps[r.IntN(len(fps))], r.IntN(k+2))
				}
				gp, gok := x.near(q)
				wp, wok := nearScan(fps, pages, k, q)
				if gp != wp || gok != wok {
					t.Fatalf("K %d, %d stored: near(%016x) = %d, %v; the scan finds %d, %v", k, len(fps), q, gp, gok, wp, wok)
				}
			}
		}
	}
}

// A match in which a template text takes part counts only when the two pages' own texts are
// near duplicates; a page that matches two kept pages makes them one page, of the earlier id.
func TestPageIndexTemplateMatch(t *testing.T) {
	const (
		ownA, ownB, ownC, tplT = 0xa1, 0xb1, 0xc1, 0x71 // digests
		simA                   = uint64(0x0123456789abcdef)
	)
	near := simA ^ 0xff            // 8 bits from simA: the same text but for a line of chrome
	far := simA ^ 0xffff_ffff_ffff // 48 bits away: another text
	own := func(d, sim uint64) print { return print{n: 1, digest: [2]uint64{d}, sim: [2]uint64{sim}, own: sim} }
	withTpl := func(d, sim, tpl uint64) print {
		return print{n: 2, digest: [2]uint64{d, tpl}, sim: [2]uint64{sim, 0}, tpl: [2]bool{false, true}, own: sim}
	}
	for _, tc := range []struct {
		name   string
		pages  []print
		want   []uint64 // the id lookup or add gives each page
		joined []uint32 // the ids lookup reports joined into an earlier one
	}{
		// A listing's page 2 whose template text is its page 1's heading: another page.
		{"listing pages", []print{withTpl(ownA, simA, tplT), withTpl(ownB, far, tplT)}, []uint64{1, 2}, nil},
		// Per-page chrome in the own text, the same template text: one page.
		{"chrome", []print{withTpl(ownA, simA, tplT), withTpl(ownB, near, tplT)}, []uint64{1, 1}, nil},
		// A kept page's own text is the template text of a later page far from it.
		{"own against template", []print{own(tplT, simA), withTpl(ownB, far, tplT)}, []uint64{1, 2}, nil},
		// A print view (own text A) kept after its page (own text C, A and a print link); then
		// the page again, whose template text is A: the two are one page, and the print
		// view's URLs get the page's id from then on.
		{"print view", []print{own(ownC, near), own(ownA, simA), withTpl(ownC, near, ownA), own(ownA, simA)}, []uint64{1, 2, 1, 1}, []uint32{2}},
	} {
		x := newPageIndex(0)
		var joined []uint32
		for i, p := range tc.pages {
			var id uint64
			var dup bool
			id, dup, joined = x.lookup(p, joined)
			if !dup {
				id = x.add(p, noHolder, "u", maxHolders)
			}
			if id != tc.want[i] {
				t.Errorf("%s: page %d: id %d, want %d", tc.name, i, id, tc.want[i])
			}
		}
		if !slices.Equal(joined, tc.joined) {
			t.Errorf("%s: joined %v, want %v", tc.name, joined, tc.joined)
		}
	}
}
