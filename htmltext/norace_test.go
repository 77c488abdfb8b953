//go:build !race

package htmltext

const raceEnabled = false
