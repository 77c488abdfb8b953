//go:build race

package simhash

// raceEnabled: sync.Pool drops items at random under the race detector, so
// allocation counts of pooled paths are not meaningful.
const raceEnabled = true
