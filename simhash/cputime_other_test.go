//go:build !unix

package simhash

import "time"

// cpuTime is not measured on this system; benchmarks then report no CPU
// figures.
func cpuTime() time.Duration { return 0 }
