//go:build race

package hostile

// raceEnabled is set under the race detector. Its instrumentation makes
// sync.Pool drop items at random and costs CPU time unevenly across sizes, so
// bytes allocated and CPU time are not the program's own: Linear then checks
// steps only. .ci/run also runs the tests without the race detector, where
// every measure is checked.
const raceEnabled = true
