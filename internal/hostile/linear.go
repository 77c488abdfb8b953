package hostile

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/undust/undust/internal/cpubench"
)

// Cost is what one call of a function under test used.
type Cost struct {
	Bytes  uint64        // bytes allocated on the heap (runtime.MemStats.TotalAlloc)
	Allocs uint64        // heap allocations (runtime.MemStats.Mallocs)
	CPU    time.Duration // process CPU time, user plus system; 0 where unknown
	Steps  int           // a count the function reports itself, when it has one
}

// Measure runs f once and returns what it used. f may return a step count of
// its own (loop iterations, bytes scanned), or 0.
//
// The byte and allocation counts are exact for the calling goroutine only when
// nothing else allocates meanwhile; tests that use them must not run in
// parallel with others.
//
// The garbage collector is held off while f runs, up to a heap of
// measureHeapLimit: how much CPU time a collection costs f (its assists, its
// workers) depends on whether a cycle happens to start within f and on how
// much of the machine other processes leave it, so with it on, a small
// input's time can come out a few times smaller than twice that of one half
// its size, linear work or not. What f allocates is counted the same either way.
func Measure(f func() int) Cost {
	var before, after runtime.MemStats
	runtime.GC()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(measureHeapLimit))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.ReadMemStats(&before)
	t0 := cpubench.ProcessTime()
	steps := f()
	cpu := cpubench.ProcessTime() - t0
	runtime.ReadMemStats(&after)
	return Cost{
		Bytes:  after.TotalAlloc - before.TotalAlloc,
		Allocs: after.Mallocs - before.Mallocs,
		CPU:    cpu,
		Steps:  steps,
	}
}

// measureHeapLimit is the heap at which a collection runs during Measure even
// though the collector is off: past it, Measure's CPU times include collections.
const measureHeapLimit = 1 << 30

// Growth says how a cost may grow when the input doubles.
type Growth struct {
	// Sizes are the input sizes to try, each about twice the one before.
	// At least two are needed.
	Sizes []int
	// MaxBytesRatio bounds Bytes(2n)/Bytes(n); 0 means 2.5.
	MaxBytesRatio float64
	// MaxCPURatio bounds CPU(2n)/CPU(n) on the fastest of the runs; 0 means
	// 3, generous so that the check holds on a loaded machine. A negative
	// value skips the CPU check (for functions whose other measures suffice).
	MaxCPURatio float64
	// MaxStepsRatio bounds Steps(2n)/Steps(n) when steps are reported; 0
	// means 2.2.
	MaxStepsRatio float64
	// Repeat is how many times each size is run; the least of each cost
	// over the runs counts, to shed the noise of other processes. 0 means 3.
	// Under the race detector each size runs once (see Linear).
	Repeat int
	// MinBytes: byte counts below it are too small to compare and are
	// raised to it; 0 means 64 KiB.
	MinBytes uint64
	// MinCPU: CPU times below it are raised to it; 0 means 2 ms.
	MinCPU time.Duration
}

// retries is how many more rounds of Repeat runs a pair of sizes gets when
// one of its costs is over its bound, before Linear reports it.
const retries = 4

// Linear checks that run(n), called at each of g.Sizes, allocates, spends CPU
// time and counts steps at most linearly in n: from one size to the next, each
// cost may grow by at most its ratio in g. It fails t with every size's costs
// when one does not. run returns the step count it measured, or 0. Under the
// race detector only steps are checked: its instrumentation distorts bytes
// allocated and CPU time. There each size runs once, steps being counts and
// not timings, and when run reports no steps only the first size runs: it
// still meets the race detector, and there is nothing to compare.
//
// Typical use doubles an adversarial input a few times:
//
//	hostile.Linear(t, hostile.Growth{Sizes: []int{1 << 12, 1 << 13, 1 << 14}},
//		func(n int) int { Extract(hostile.NestedTags("pre", n), opts); return 0 })
func Linear(t testing.TB, g Growth, run func(n int) int) {
	t.Helper()
	if len(g.Sizes) < 2 {
		panic("hostile: Linear needs at least two sizes")
	}
	def := func(v, d float64) float64 {
		if v == 0 {
			return d
		}
		return v
	}
	maxB, maxC, maxS := def(g.MaxBytesRatio, 2.5), def(g.MaxCPURatio, 3), def(g.MaxStepsRatio, 2.2)
	repeat := g.Repeat
	if repeat <= 0 {
		repeat = 3
	}
	if raceEnabled {
		repeat = 1
	}
	minB := g.MinBytes
	if minB == 0 {
		minB = 64 << 10
	}
	minC := g.MinCPU
	if minC == 0 {
		minC = 2 * time.Millisecond
	}
	costs := make([]Cost, len(g.Sizes))
	measured := make([]bool, len(g.Sizes))
	// measure runs size i repeat more times and keeps the least of each
	// cost over all its runs.
	measure := func(i int) {
		for r := 0; r < repeat; r++ {
			c := Measure(func() int { return run(g.Sizes[i]) })
			if !measured[i] {
				costs[i], measured[i] = c, true
				continue
			}
			p := &costs[i]
			p.Bytes, p.Allocs = min(p.Bytes, c.Bytes), min(p.Allocs, c.Allocs)
			p.CPU, p.Steps = min(p.CPU, c.CPU), min(p.Steps, c.Steps)
		}
	}
	for i := range g.Sizes {
		measure(i)
		if raceEnabled && costs[0].Steps == 0 {
			return
		}
	}
	// over returns which cost of size i grew past its bound from size i-1,
	// or "".
	over := func(i int) string {
		scale := float64(g.Sizes[i]) / float64(g.Sizes[i-1]) / 2 // bounds are per doubling
		a, b := costs[i-1], costs[i]
		switch {
		case a.Steps > 0 && float64(b.Steps)/float64(a.Steps) > maxS*scale:
			return "steps"
		case raceEnabled:
			return ""
		case float64(max(b.Bytes, minB))/float64(max(a.Bytes, minB)) > maxB*scale:
			return "bytes allocated"
		case maxC > 0 && a.CPU > 0 && float64(max(b.CPU, minC))/float64(max(a.CPU, minC)) > maxC*scale:
			return "CPU time"
		}
		return ""
	}
	report := func(what string, i int) {
		t.Helper()
		msg := fmt.Sprintf("%s grows faster than linearly from n=%d to n=%d (ratio of sizes %.2f):\n",
			what, g.Sizes[i-1], g.Sizes[i], float64(g.Sizes[i])/float64(g.Sizes[i-1]))
		for j, c := range costs {
			msg += fmt.Sprintf("  n=%-10d bytes=%-12d allocs=%-10d cpu=%-12v steps=%d\n",
				g.Sizes[j], c.Bytes, c.Allocs, c.CPU, c.Steps)
		}
		t.Error(msg)
	}
	for i := 1; i < len(costs); i++ {
		// A pause of the whole process (another process, a collection
		// started by other tests) can inflate one size's fastest run, and
		// what a run allocates can change with the random order of map
		// iteration; superlinear work shows in every run. So a pair over a bound is measured again,
		// both sizes, a few rounds before it fails.
		for round := 0; round < retries && over(i) != ""; round++ {
			measure(i - 1)
			measure(i)
		}
		if what := over(i); what != "" {
			report(what, i)
		}
	}
}
