//go:build !race

package undustcolly

const raceEnabled = false
