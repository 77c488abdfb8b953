// Package casefold finds, from dup clusters, the hosts whose server ignores the case of the
// path (IIS: /Recipe/X/default.aspx = /RECIPE/x/DEFAULT.ASPX), for the learners of package
// learn and learn/align. Such a host gets one rule, "lowercase the whole path", instead of a
// literal rule per token and case variant.
//
// The evidence is the site's own: pairs of URLs of one cluster that are equal once their paths
// are lowercased and differ in the case of a letter that is not the first of its segment (a
// wiki ignores the case of a title's first letter only, and that is no evidence for the rest),
// against the URLs of different clusters that lowercasing would merge. A case-sensitive host
// (/docs/faq.html and /DOCS/FAQ.html different pages) shows the second and not the first.
package casefold

import (
	"strings"
)

// Options of Hosts. The zero value means the defaults.
type Options struct {
	// MinPairs is the number of supporting pairs a host needs (default 5).
	MinPairs int
	// MaxFalse is the largest share of merged URLs of different clusters, relative to the
	// supporting pairs, that a host may show (default 0.02: label noise merges a few).
	MaxFalse float64
}

// Evidence is what lowercasing the paths of one host does to its training URLs. It is a plain
// value.
type Evidence struct {
	Pairs   int // URLs of one cluster that meet another of it only once lowercased (beyond first letters)
	False   int // URLs that lowercasing puts together with a URL of another cluster
	Changed int // URLs whose path has an upper-case letter
}

// Hosts returns the evidence of every host of urls (Crawler keys of one site's training URLs,
// distinct) whose paths the evidence shows case-insensitive; cluster[i] is the cluster of
// urls[i]. It does not modify its arguments.
func Hosts(urls []string, cluster []int32, opt Options) map[string]Evidence {
	if opt.MinPairs <= 0 {
		opt.MinPairs = 5
	}
	if opt.MaxFalse == 0 {
		opt.MaxFalse = 0.02
	}
	type member struct {
		url     string
		cluster int32
	}
	groups := map[string][]member{}
	ev := map[string]*Evidence{}
	for i, u := range urls {
		h := host(u)
		e := ev[h]
		if e == nil {
			e = &Evidence{}
			ev[h] = e
		}
		lo := LowerPath(u)
		if lo != u {
			e.Changed++
		}
		groups[lo] = append(groups[lo], member{u, cluster[i]})
	}
	for lo, ms := range groups {
		if len(ms) < 2 {
			continue
		}
		e := ev[host(lo)]
		byCluster := map[int32]int{}
		for _, m := range ms {
			byCluster[m.cluster]++
		}
		if len(byCluster) > 1 {
			most := 0
			for _, n := range byCluster {
				most = max(most, n)
			}
			e.False += len(ms) - most
		}
		for i, a := range ms {
			for _, b := range ms[:i] {
				if a.cluster == b.cluster && beyondFirst(a.url, b.url) {
					e.Pairs++
					break
				}
			}
		}
	}
	out := map[string]Evidence{}
	for h, e := range ev {
		if e.Pairs >= opt.MinPairs && float64(e.False) <= opt.MaxFalse*float64(e.Pairs) {
			out[h] = *e
		}
	}
	return out
}

// beyondFirst reports whether a and b (equal but for case) differ in the case of a letter
// that is not the first of its path segment.
func beyondFirst(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && i > 0 && a[i-1] != '/' {
			return true
		}
	}
	return false
}

// host returns the authority of an absolute URL u.
func host(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// LowerPath returns u with the ASCII letters of its path lowercased, except in percent escapes
// (%C3 stays %C3): what the rule "path(-,-)=lower" does to a canonical URL.
func LowerPath(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	start := i + 3
	j := strings.IndexByte(u[start:], '/')
	if j < 0 {
		return u
	}
	start += j
	end := len(u)
	if k := strings.IndexAny(u[start:], "?#"); k >= 0 {
		end = start + k
	}
	var b []byte
	for p := start; p < end; p++ {
		c := u[p]
		if c == '%' {
			p += 2
			continue
		}
		if 'A' <= c && c <= 'Z' {
			if b == nil {
				b = []byte(u)
			}
			b[p] = c + 'a' - 'A'
		}
	}
	if b == nil {
		return u
	}
	return string(b)
}
