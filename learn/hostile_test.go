package learn

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// The readers' costs grow at most linearly with their input (hostile.Linear: bytes allocated
// and CPU time per doubling): long lines, lines of many fields, many clusters, deep JSON.

// linearGrowth allows bytes to grow by 3.2 per doubling, for the jitter of slices that double
// their capacity (quadratic growth is 4), and CPU time by 4, generous for a loaded machine:
// the bytes are the exact measure.
func linearGrowth(sizes ...int) hostile.Growth {
	return hostile.Growth{Sizes: sizes, MaxBytesRatio: 3.2, MaxCPURatio: 4, Repeat: 5}
}

func readTSVAll(t *testing.T, in string, opt ReaderOptions) int {
	t.Helper()
	r := NewTSVReader(strings.NewReader(in), opt)
	n := 0
	for r.Next() {
		n++
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return n
}

func readCDXAll(t *testing.T, in string, opt ReaderOptions) int {
	t.Helper()
	r := NewCDXReader(strings.NewReader(in), opt)
	n := 0
	for r.Next() {
		n++
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return n
}

func TestLinearReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	big := ReaderOptions{MaxLineBytes: 1 << 24}
	skip := ReaderOptions{SkipBad: true}
	for _, tc := range []struct {
		name  string
		sizes []int
		gen   func(n int) string
		read  func(t *testing.T, in string) int
		want  func(n int) int // records read, or -1 not to check
	}{
		{"tsv long url", []int{1 << 18, 1 << 19, 1 << 20}, func(n int) string { return strings.Repeat(hostile.TSVLongURL(n), 4) },
			func(t *testing.T, in string) int { return readTSVAll(t, in, big) }, func(int) int { return 4 }},
		// Over the default limit of 1 MiB: skipped, in memory bounded by the limit.
		{"tsv line over the limit", []int{1 << 21, 1 << 22, 1 << 23}, hostile.TSVLongURL,
			func(t *testing.T, in string) int { return readTSVAll(t, in, skip) }, func(int) int { return 0 }},
		{"tsv many fields", []int{1 << 17, 1 << 18, 1 << 19}, func(n int) string { return strings.Repeat(hostile.TSVManyFields(n), 4) },
			func(t *testing.T, in string) int {
				return readTSVAll(t, in, ReaderOptions{SkipBad: true, MaxLineBytes: 1 << 24})
			}, func(int) int { return 0 }},
		{"tsv many clusters", []int{1 << 12, 1 << 13, 1 << 14}, hostile.TSVManyClusters,
			func(t *testing.T, in string) int {
				cls, _, err := ReadClusters(strings.NewReader(in), ReaderOptions{})
				if err != nil {
					t.Fatal(err)
				}
				return len(cls)
			}, func(n int) int { return n }},
		{"cdx long url", []int{1 << 18, 1 << 19, 1 << 20}, func(n int) string { return strings.Repeat(hostile.CDXLongURL(n), 4) },
			func(t *testing.T, in string) int { return readCDXAll(t, in, big) }, func(int) int { return 4 }},
		{"cdx many fields", []int{1 << 15, 1 << 16, 1 << 17}, hostile.CDXManyFields,
			func(t *testing.T, in string) int { return readCDXAll(t, in, big) }, func(int) int { return 1 }},
		{"cdx many captures", []int{1 << 12, 1 << 13, 1 << 14}, hostile.CDXManyCaptures,
			func(t *testing.T, in string) int {
				cls, err := CaptureClusters(NewCDXReader(strings.NewReader(in), ReaderOptions{}), ByHost)
				if err != nil {
					t.Fatal(err)
				}
				return len(cls)
			}, func(n int) int { return n - n/4 }},
		{"cdxj nested", []int{1 << 11, 1 << 12, 1 << 13}, hostile.CDXJNested,
			func(t *testing.T, in string) int { return readCDXAll(t, in, big) }, func(int) int { return 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inputs := map[int]string{}
			for _, n := range tc.sizes {
				inputs[n] = tc.gen(n)
			}
			noGC(t)
			hostile.Linear(t, linearGrowth(tc.sizes...), func(n int) int {
				if got, want := tc.read(t, inputs[n]), tc.want(n); want >= 0 && got != want {
					t.Fatalf("read %d records of size %d, want %d", got, n, want)
				}
				return 0
			})
		})
	}
}

// noGC turns the collector off for the rest of the test, so that the CPU time measured is the
// function's own, not that of collections its allocations trigger at sizes that vary from run
// to run (Measure collects before each run).
func noGC(t *testing.T) {
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
