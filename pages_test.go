package undust

import (
	"math/bits"
	"math/rand/v2"
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
