//go:build race

package rules

// raceEnabled is set when the race detector is on: it makes sync.Pool drop items, so
// allocation counts mean nothing.
const raceEnabled = true
