//go:build unix

package shingle

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used. The
// machine the benchmarks run on is shared, so wall-clock time per op says
// more about the neighbours than about the code; benchmarks also report
// CPU time per op (which includes the garbage collector's share).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
