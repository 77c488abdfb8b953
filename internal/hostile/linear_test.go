package hostile

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// fakeTB records failures instead of failing the test, so that the checker's
// own verdicts can be tested.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Error(args ...any) { f.failed = true }

func TestLinearAcceptsLinear(t *testing.T) {
	sink := 0
	f := &fakeTB{TB: t}
	Linear(f, Growth{Sizes: []int{1 << 16, 1 << 17, 1 << 18}}, func(n int) int {
		b := make([]byte, n*8) // linear bytes
		for i := range b {
			b[i] = byte(i)
			sink += int(b[i])
		}
		return n // linear steps
	})
	if f.failed {
		t.Fatal("Linear rejected a linear function")
	}
	_ = sink
}

func TestLinearRejectsQuadratic(t *testing.T) {
	cases := []struct {
		name string
		run  func(n int) int
	}{
		{"bytes", func(n int) int { // quadratic allocation
			var keep [][]byte
			for i := 0; i < n/64; i++ {
				keep = append(keep, make([]byte, n))
			}
			return len(keep)
		}},
		{"steps", func(n int) int { return n * n }},
		{"cpu", func(n int) int { // quadratic time, constant bytes, no steps
			x := uint64(n)
			for i := 0; i < n*n/8; i++ {
				x = x*6364136223846793005 + 1442695040888963407
			}
			return int(x & 0) // no step count
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if raceEnabled && c.name != "steps" {
				t.Skip("bytes and CPU time are not checked under the race detector (race.go)")
			}
			f := &fakeTB{TB: t}
			g := Growth{Sizes: []int{1 << 12, 1 << 13, 1 << 14}, MaxCPURatio: -1}
			if c.name == "cpu" {
				g.MaxCPURatio = 0
			}
			Linear(f, g, c.run)
			if !f.failed {
				t.Fatal("Linear accepted a quadratic function")
			}
		})
	}
}

// Measure holds the collector off while f runs, so that a cycle starting in a
// run of one size and not of the next does not skew their CPU times, and
// restores it after.
func TestMeasureHoldsCollectorOff(t *testing.T) {
	var during runtime.MemStats
	var cycles uint32
	Measure(func() int {
		var start runtime.MemStats
		runtime.ReadMemStats(&start)
		var keep [][]byte
		for i := 0; i < 64; i++ { // 64 MiB, past the default collector's first goal
			keep = append(keep, make([]byte, 1<<20))
			keep = keep[len(keep)-1:]
		}
		runtime.ReadMemStats(&during)
		cycles = during.NumGC - start.NumGC
		return len(keep)
	})
	if cycles != 0 {
		t.Errorf("%d collections ran inside Measure, want none", cycles)
	}
	if p := debug.SetGCPercent(100); p < 0 {
		t.Errorf("the collector is still off after Measure (GOGC %d)", p)
	}
}
