package simhash

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/shingle"
)

// cpuMBs is the name simhash's benchmarks have always given the bytes per
// CPU second (cpubench.Meter.Report calls it "cpu-MB/s").
const cpuMBs = "cpuMB/s"

func BenchmarkSum64(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		hs := make([]uint64, n)
		r := rand.New(rand.NewPCG(1, uint64(n)))
		for i := range hs {
			hs[i] = r.Uint64()
		}
		b.Run(fmt.Sprintf("features=%d", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			var sink uint64
			cpu := cpubench.Start(b)
			for b.Loop() {
				sink += Sum64(hs)
			}
			cpu.ReportAs(int64(8*n), cpuMBs)
			_ = sink
		})
	}
}

func BenchmarkSum64Weighted(b *testing.B) {
	const n = 1000
	hs := make([]uint64, n)
	ws := make([]float64, n)
	r := rand.New(rand.NewPCG(2, 3))
	for i := range hs {
		hs[i] = r.Uint64()
		ws[i] = r.Float64() * 5
	}
	b.SetBytes(8 * n)
	b.ReportAllocs()
	var sink uint64
	for b.Loop() {
		sink += Sum64Weighted(hs, ws)
	}
	_ = sink
}

// benchIndex builds an index of n fingerprints: clusters of near duplicates
// (as a crawl has) and unrelated pages. It returns the index, the
// fingerprints and the heap bytes the index holds.
func benchIndex(n, k, tables int) (*Index, []uint64, uint64) {
	r := rand.New(rand.NewPCG(42, uint64(n)))
	fps := make([]uint64, n)
	for i := range fps {
		if i%4 == 0 {
			fps[i] = r.Uint64()
		} else {
			fps[i] = flip(r, fps[i-i%4], r.IntN(k+1))
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := NewIndex(k, &IndexOptions{Tables: tables})
	for i, fp := range fps {
		x.Insert(uint64(i), fp)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	return x, fps, after.HeapAlloc - before.HeapAlloc
}

// queries returns q query fingerprints: half near stored ones, half random.
func queries(r *rand.Rand, fps []uint64, q, k int) []uint64 {
	qs := make([]uint64, q)
	for i := range qs {
		if i%2 == 0 {
			qs[i] = flip(r, fps[r.IntN(len(fps))], r.IntN(k+1))
		} else {
			qs[i] = r.Uint64()
		}
	}
	return qs
}

// reportLatency reports the median and 99th percentile of sampled latencies.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

func indexSizes() []int {
	if testing.Short() {
		return []int{100_000}
	}
	return []int{1_000_000}
}

func BenchmarkIndexQuery(b *testing.B) {
	for _, n := range indexSizes() {
		for _, tables := range []int{0, 10, 20} {
			x, fps, heap := benchIndex(n, 3, tables)
			b.Run(fmt.Sprintf("n=%d/k=3/tables=%d", n, x.Tables()), func(b *testing.B) {
				r := rand.New(rand.NewPCG(7, 7))
				qs := queries(r, fps, 1<<16, 3)
				var dst []Match
				lat := make([]time.Duration, 0, 1<<16)
				b.ReportAllocs()
				i := 0
				cpu := cpubench.Start(b)
				for b.Loop() {
					q := qs[i&(len(qs)-1)]
					if i&15 == 0 && len(lat) < cap(lat) {
						t0 := time.Now()
						dst = x.AppendNear(dst[:0], q, 3)
						lat = append(lat, time.Since(t0))
					} else {
						dst = x.AppendNear(dst[:0], q, 3)
					}
					i++
				}
				cpu.Report(0)
				reportLatency(b, lat)
				b.ReportMetric(float64(heap)/float64(n), "heapB/fp")
				b.ReportMetric(float64(heap)/float64(n)/float64(x.Tables()), "heapB/fp/table")
			})
		}
	}
}

func BenchmarkIndexInsert(b *testing.B) {
	for _, n := range indexSizes() {
		for _, tables := range []int{0, 10} {
			x, fps, _ := benchIndex(n, 3, tables)
			b.Run(fmt.Sprintf("n=%d/k=3/tables=%d", n, x.Tables()), func(b *testing.B) {
				r := rand.New(rand.NewPCG(8, 8))
				qs := queries(r, fps, 1<<16, 3)
				lat := make([]time.Duration, 0, 1<<16)
				b.ReportAllocs()
				i := 0
				cpu := cpubench.Start(b)
				for b.Loop() {
					// Insert a new id, then delete an old one, so the index
					// stays at n fingerprints whatever b.N is.
					id := uint64(n + i)
					if i&15 == 0 && len(lat) < cap(lat) {
						t0 := time.Now()
						x.Insert(id, qs[i&(len(qs)-1)])
						lat = append(lat, time.Since(t0))
					} else {
						x.Insert(id, qs[i&(len(qs)-1)])
					}
					x.Delete(uint64(i))
					i++
				}
				cpu.Report(0)
				reportLatency(b, lat)
			})
		}
	}
}

// BenchmarkIndexMemory10M builds the 10-million fingerprint index of the
// task's memory goal; it needs UNDUST_LONG=1 (about a minute and 1-2 GB).
func BenchmarkIndexMemory10M(b *testing.B) {
	if !tier.Long() {
		b.Skip("set UNDUST_LONG=1 to build a 10M-fingerprint index")
	}
	for b.Loop() {
		x, _, heap := benchIndex(10_000_000, 3, 0)
		b.ReportMetric(float64(heap)/1e6, "heapMB")
		b.ReportMetric(float64(heap)/1e7, "heapB/fp")
		b.ReportMetric(float64(heap)/1e7/float64(x.Tables()), "heapB/fp/table")
		runtime.KeepAlive(x)
	}
}

func BenchmarkFindPairs(b *testing.B) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	r := rand.New(rand.NewPCG(9, 9))
	fps := clustered(r, n, 3)
	for _, o := range []BatchOptions{{Rotations: 64, Window: 1}, {Rotations: 8, Window: 8, Step: 8}} {
		b.Run(fmt.Sprintf("n=%d/rot=%d/win=%d/step=%d", n, o.Rotations, o.Window, o.Step), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FindPairs(fps, 3, &o)
			}
		})
	}
	b.Run(fmt.Sprintf("n=%d/exact", n), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			FindPairsExact(fps, 3)
		}
	})
}

// BenchmarkSumText is the task's text fingerprinting figure: tokenize,
// shingle, hash and accumulate, in bytes of text per second.
func BenchmarkSumText(b *testing.B) {
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10} {
		text := benchText(size, 1)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var sink uint64
			cpu := cpubench.Start(b)
			for b.Loop() {
				sink += SumText(text, shingle.Options{})
			}
			cpu.ReportAs(int64(len(text)), cpuMBs)
			_ = sink
		})
	}
}

// BenchmarkSumTextCorpus fingerprints the main texts of the neardup corpus
// in the directory named by UNDUST_NEARDUP (skipped without it).
func BenchmarkSumTextCorpus(b *testing.B) {
	texts := corpus.MainTexts(b, 0)
	var n int64
	for _, t := range texts {
		n += int64(len(t))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	var sink uint64
	cpu := cpubench.Start(b)
	for b.Loop() {
		for _, t := range texts {
			sink += SumText(t, shingle.Options{})
		}
	}
	cpu.ReportAs(n, cpuMBs)
	_ = sink
}

// BenchmarkReadFromLayouts loads saved indexes of 10,000 entries in the
// default layout (4 tables) and in one of 55 tables.
func BenchmarkReadFromLayouts(b *testing.B) {
	for _, l := range []struct{ k, blocks int }{{3, 4}, {2, 11}} {
		file := hostile.SimhashIndex(l.k, l.blocks, 10000)
		b.Run(fmt.Sprintf("k=%d/blocks=%d", l.k, l.blocks), func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			b.ReportAllocs()
			for b.Loop() {
				var x Index
				if _, err := x.ReadFrom(bytes.NewReader(file)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
