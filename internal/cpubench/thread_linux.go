//go:build linux

package cpubench

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID of <time.h>.
const clockThreadCPUTimeID = 3

// ThreadTime returns the CPU time the calling OS thread has used so far
// (clock_gettime CLOCK_THREAD_CPUTIME_ID), or 0 if the system cannot say.
// Lock the goroutine to its thread (runtime.LockOSThread) for as long as
// readings are compared.
func ThreadTime() time.Duration {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
