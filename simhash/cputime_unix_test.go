//go:build unix

package simhash

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used. The
// benchmarks report throughput per CPU second beside the wall-clock figure,
// because the machines they run on are shared: wall-clock time there counts
// the time other processes held the CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
