//go:build !unix

package lcs

import "time"

const haveCPUTime = false

// cpuTime is not measured here; the benchmarks report wall-clock time only.
func cpuTime() time.Duration { return 0 }
