//go:build race

package undustcolly

// raceEnabled is true under the race detector, which makes the crawls of TestSimsite several
// times slower: it then crawls one site.
const raceEnabled = true
