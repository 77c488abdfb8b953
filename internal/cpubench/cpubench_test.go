package cpubench

import (
	"flag"
	"hash/crc32"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestMain runs the benchmarks the tests start with testing.Benchmark a
// fixed 200 times instead of for a second each.
func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("test.benchtime", "200x"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

var sink uint32

// work uses some CPU on the calling goroutine.
func work() {
	buf := make([]byte, 64<<10)
	for i := range buf {
		buf[i] = byte(i)
	}
	sink += crc32.ChecksumIEEE(buf)
}

// spinUntil calls work until clock moves past t0, and fails the test if it
// does not within 1e6 calls (seconds of CPU time).
func spinUntil(t *testing.T, clock func() time.Duration, t0 time.Duration) time.Duration {
	t.Helper()
	for range 1_000_000 {
		work()
		if now := clock(); now != t0 {
			return now
		}
	}
	t.Fatalf("clock still reads %v after 1e6 calls of work", t0)
	return 0
}

func TestProcessTime(t *testing.T) {
	t0 := ProcessTime()
	if t0 == 0 {
		if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("ProcessTime() = 0 on %s, a unix system", runtime.GOOS)
		}
		t.Skip("no process CPU time on", runtime.GOOS)
	}
	if t1 := spinUntil(t, ProcessTime, t0); t1 < t0 {
		t.Errorf("ProcessTime went back from %v to %v", t0, t1)
	}
}

func TestThreadTime(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := ThreadTime()
	if t0 == 0 {
		if runtime.GOOS == "linux" {
			t.Fatal("ThreadTime() = 0 on linux")
		}
		t.Skip("no thread CPU time on", runtime.GOOS)
	}
	if t1 := spinUntil(t, ThreadTime, t0); t1 < t0 {
		t.Errorf("ThreadTime went back from %v to %v", t0, t1)
	}
	// A thread's CPU time never exceeds its process's.
	if th, pr := ThreadTime(), ProcessTime(); pr != 0 && th > pr {
		t.Errorf("ThreadTime() = %v > ProcessTime() = %v", th, pr)
	}
}

func TestMeterReport(t *testing.T) {
	if ProcessTime() == 0 {
		t.Skip("no process CPU time on", runtime.GOOS)
	}
	tests := []struct {
		name   string
		bytes  int64
		mbUnit string // "" for Report
		want   []string
	}{
		{"no bytes", 0, "", []string{"cpu-ns/op"}},                         // throughput only with bytes
		{"bytes", 64 << 10, "", []string{"cpu-ns/op", "cpu-MB/s"}},         // Report's names
		{"renamed", 64 << 10, "cpuMB/s", []string{"cpu-ns/op", "cpuMB/s"}}, // ReportAs's name
		{"renamed, no bytes", 0, "cpuMB/s", []string{"cpu-ns/op"}},         // ReportAs without bytes
	}
	for _, tt := range tests {
		r := testing.Benchmark(func(b *testing.B) {
			m := Start(b)
			for b.Loop() {
				work()
			}
			if tt.mbUnit == "" {
				m.Report(tt.bytes)
			} else {
				m.ReportAs(tt.bytes, tt.mbUnit)
			}
		})
		if len(r.Extra) != len(tt.want) {
			t.Errorf("%s: metrics %v, want %q", tt.name, r.Extra, tt.want)
		}
		for _, unit := range tt.want {
			if v, ok := r.Extra[unit]; !ok || v <= 0 {
				t.Errorf("%s: %s = %v (reported: %v), want > 0", tt.name, unit, v, ok)
			}
		}
		// Both metrics describe the same CPU time: MB/s = bytes*1e3 / ns.
		unit := tt.mbUnit
		if unit == "" {
			unit = "cpu-MB/s"
		}
		if mb, ok := r.Extra[unit]; ok {
			want := float64(tt.bytes) * 1e3 / r.Extra["cpu-ns/op"]
			if d := mb/want - 1; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s: %s = %v, want %v from cpu-ns/op", tt.name, unit, mb, want)
			}
		}
	}
}
