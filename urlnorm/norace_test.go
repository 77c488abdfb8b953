//go:build !race

package urlnorm

const raceEnabled = false
