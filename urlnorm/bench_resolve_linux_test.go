//go:build linux

package urlnorm

import "testing"

// BenchmarkResolveCPU runs each function over all (page, href) pairs of
// loadHrefs per op and reports the thread CPU time per pair (cpu-ns/href),
// which other processes on a shared machine do not inflate. NetURL is
// net/url's url.Parse(href) and base.ResolveReference with every base parsed
// beforehand, as the Base variants have every base made beforehand;
// NetURLString also prints the result.
func BenchmarkResolveCPU(b *testing.B) {
	pairs, fs := resolveFuncs(b)
	for _, f := range fs {
		benchThreadCPU(b, f.name, len(pairs), f.f, "cpu-ns/href")
	}
}
