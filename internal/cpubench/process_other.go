//go:build !unix

package cpubench

import "time"

// ProcessTime returns 0: the process CPU time is not measured on this
// system, and a [Meter] then reports nothing.
func ProcessTime() time.Duration { return 0 }
