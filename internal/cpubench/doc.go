// Package cpubench adds CPU-time metrics to benchmarks.
//
// The machines undust's benchmarks run on are shared, so wall-clock time per
// op (ns/op, MB/s) also counts the time other processes held the cores. CPU
// time does not (it still feels their cache and memory traffic), so the
// benchmarks report it beside the wall-clock figures and the CPU figures are
// the ones to compare.
//
// Two clocks are offered. [ProcessTime] is the user plus system CPU time of
// the whole process (getrusage RUSAGE_SELF): it includes the garbage
// collector's work on other threads and anything else the process runs
// meanwhile, such as the testing package's own goroutines. [ThreadTime] is
// the CPU time of the calling OS thread (CLOCK_THREAD_CPUTIME_ID, Linux only):
// it leaves out the collector's background work, which suits comparing
// functions that allocate differently only when that is said. A [Meter]
// measures process CPU time.
//
// Where a clock is not available (ProcessTime outside unix, ThreadTime outside
// Linux) it reads 0, and a Meter then reports nothing.
package cpubench
