//go:build unix

package deeptoken

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system. Benchmarks report it per
// operation beside the wall time because the machines they run on are shared.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
