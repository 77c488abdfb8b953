package cpubench

import (
	"testing"
	"time"
)

// Meter measures the process CPU time a benchmark uses from [Start] to
// [Meter.Report]. Its zero value is not usable; make one with Start. A Meter
// is a value: copying it is fine, and it is safe for concurrent use as far as
// its [testing.B] is. It keeps the *testing.B it is given.
type Meter struct {
	b     *testing.B
	start time.Duration
}

// Start starts measuring the process CPU time of b. Call it just before the
// benchmark loop, after any setup.
func Start(b *testing.B) Meter {
	return Meter{b: b, start: ProcessTime()}
}

// Elapsed returns the process CPU time used since Start, or 0 where
// ProcessTime is not available.
func (m Meter) Elapsed() time.Duration {
	return ProcessTime() - m.start
}

// Report adds to the benchmark the CPU time per op, "cpu-ns/op", and, when
// bytesPerOp > 0, the bytes per op over CPU time in 1e6 bytes a second,
// "cpu-MB/s" (as MB/s is for SetBytes). It reports nothing when no CPU time
// was measured. Call it once, right after the benchmark loop.
func (m Meter) Report(bytesPerOp int64) {
	m.ReportAs(bytesPerOp, "cpu-MB/s")
}

// ReportAs is [Meter.Report] with mbUnit as the name of the throughput
// metric, for benchmarks whose reports have long used another name.
func (m Meter) ReportAs(bytesPerOp int64, mbUnit string) {
	d := m.Elapsed()
	if d <= 0 || m.b.N == 0 {
		return
	}
	m.b.ReportMetric(float64(d.Nanoseconds())/float64(m.b.N), "cpu-ns/op")
	if bytesPerOp > 0 {
		m.b.ReportMetric(float64(bytesPerOp)*float64(m.b.N)/d.Seconds()/1e6, mbUnit)
	}
}
