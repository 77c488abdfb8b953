package htmltext

import (
	"testing"
	"time"
)

// reportCPU adds cpu-ns/op and, when bytes > 0, cpu-MB/s (bytes per op
// over CPU time) to a benchmark that ran b.N ops since start.
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	d := cpuTime() - start
	if d <= 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
	}
}
