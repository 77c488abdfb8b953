//go:build unix

package cpubench

import (
	"syscall"
	"time"
)

// ProcessTime returns the CPU time, user plus system, the process has used
// so far (getrusage RUSAGE_SELF), or 0 if the system cannot say.
func ProcessTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
