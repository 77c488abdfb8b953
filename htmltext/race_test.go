//go:build race

package htmltext

// raceEnabled: the race detector's instrumentation costs CPU time unevenly
// across code paths, so CPU time comparisons are not the program's own there.
const raceEnabled = true
