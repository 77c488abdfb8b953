//go:build !unix

package htmltext

import "time"

// cpuTime is not available here; the CPU metrics then read 0.
func cpuTime() time.Duration { return 0 }
