// Package tier tells tests which tier of the suite runs.
//
// The default tier, go test ./... with or without -race, checks every
// behaviour on small inputs and finishes in minutes on a loaded 2-core
// machine: fast paths against their references on a fixed sample of each
// corpus, growth on sizes that take seconds, the fuzz seeds. The exhaustive
// tier, which the environment variable UNDUST_LONG=1 asks for, checks the
// same on everything: every item of each corpus, the larger sizes. With
// go test -short the default tier shrinks further.
//
// It is for _test.go files only: it imports package testing.
package tier

import (
	"os"
	"testing"
)

// Long reports whether the exhaustive tier runs: UNDUST_LONG is set to
// anything but "" or "0".
func Long() bool {
	v := os.Getenv("UNDUST_LONG")
	return v != "" && v != "0"
}

// Step returns the step of a test that samples a corpus by taking every
// n-th item, in the corpus's order: 1, every item, in the exhaustive tier;
// n by default; 10n with go test -short. Call it from a test, after the
// flags are parsed.
func Step(n int) int {
	switch {
	case Long():
		return 1
	case testing.Short():
		return 10 * n
	}
	return n
}
