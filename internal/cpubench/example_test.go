//go:build unix

package cpubench_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/cpubench"
)

// A benchmark measures its CPU time from just before the loop and reports
// it, per op and per byte, right after.
func ExampleMeter_Report() {
	text := strings.Repeat("the quick brown fox ", 500)
	r := testing.Benchmark(func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		m := cpubench.Start(b)
		for b.Loop() {
			strings.Fields(text)
		}
		m.Report(int64(len(text)))
	})
	fmt.Println(slices.Sorted(maps.Keys(r.Extra)))
	// Output: [cpu-MB/s cpu-ns/op]
}
