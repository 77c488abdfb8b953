//go:build race

package urlnorm

// raceEnabled is set when the race detector is on. Its instrumentation does
// not cost the same per byte at every size, so CPU-time ratios in the
// linear-growth tests mean nothing then; bytes and steps still do.
const raceEnabled = true
