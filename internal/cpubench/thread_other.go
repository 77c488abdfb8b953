//go:build !linux

package cpubench

import "time"

// ThreadTime returns 0: the CPU time of a thread is only measured on Linux.
func ThreadTime() time.Duration { return 0 }
