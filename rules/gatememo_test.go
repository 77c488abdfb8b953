package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/internal/tier"
)

// TestNormalizeAfterSameLengthHost normalizes every 10th dev URL (tier.Step), then a dev URL of
// another host of the same length that the rules rewrite, then the URL on hosts of the same
// length that differ from its host in one byte (the first, one in the middle, the last before
// the top-level domain, the last), each followed by the URL again, one after the other on one
// set, and compares every result with the reference: Normalize takes the find answer of the host
// of the scratch's last view (view.treesOf) for a key of that host, which must not be taken for
// another host.
func TestNormalizeAfterSameLengthHost(t *testing.T) {
	s := loadLearned(t)
	step := tier.Step(10)
	hostOf := func(u string) (a, e int) {
		a = strings.Index(u, "://") + 3
		return a, a + strings.IndexAny(u[a:], ":/?#")
	}
	// The first dev URL of each host that the rules rewrite, by the host's length.
	byLen := map[int][]string{}
	seen := map[string]bool{}
	ls := loadDev(t, 0)
	for _, l := range ls {
		a, e := hostOf(l.URL)
		if a < 3 || e <= a || seen[l.URL[a:e]] {
			continue
		}
		k, err := s.keyer.Key(l.URL)
		if out, _ := s.normalizeRef(l.URL); err == nil && out != k {
			seen[l.URL[a:e]] = true
			byLen[e-a] = append(byLen[e-a], l.URL)
		}
	}
	var seq []string
	changed, other := 0, 0
	for i, l := range ls {
		if i%step != 0 {
			continue
		}
		u := l.URL
		a, e := hostOf(u)
		if a < 3 || e <= a+2 {
			continue
		}
		urls := []string{u}
		if same := byLen[e-a]; len(same) > 1 {
			w := same[i%len(same)]
			if wa, we := hostOf(w); w[wa:we] == u[a:e] {
				w = same[(i+1)%len(same)]
			}
			urls = append(urls, w, u)
			other++
		}
		for _, p := range []int{a, (a + e) / 2, strings.LastIndexByte(u[:e], '.') - 1, e - 1} {
			if p < a || u[p] == '.' {
				continue
			}
			c := byte('q')
			if u[p] == c {
				c = 'x'
			}
			urls = append(urls, u[:p]+string(c)+u[p+1:], u)
		}
		seq = append(seq, urls...)
	}
	// The references first: the reference path puts its scratch back cleared (putScratch), and
	// would make every Normalize below start afresh.
	type result struct{ out, err string }
	want := make([]result, len(seq))
	for i, v := range seq {
		out, err := s.normalizeRef(v)
		want[i] = result{out, fmt.Sprint(err)}
		if k, err := s.keyer.Key(v); err == nil && k != out {
			changed++
		}
	}
	for i, v := range seq {
		out, err := s.Normalize(v)
		if got := (result{out, fmt.Sprint(err)}); got != want[i] {
			t.Fatalf("after %q: Normalize(%q) = %q, %s; reference %q, %s", seq[max(i-1, 0)], v, got.out, got.err, want[i].out, want[i].err)
		}
	}
	n := len(seq)
	if n == 0 || changed == 0 || other == 0 {
		t.Errorf("%d URLs, %d rewritten, %d after another host: the test checks nothing", n, changed, other)
	}
}

// FuzzHostFilterLookup compares hostFilter.lookup with a map of the names, on a filter of the
// comma-separated names and a host looked up whole and after each dot.
func FuzzHostFilterLookup(f *testing.F) {
	f.Add("www.example.com,example.com,abcdefghijklmnopqrstuvwxyz.org", "www.example.con")
	f.Add("abcdefghijklmnop.qrstuvwx,abcdefghijklmnop.qrstuvwy", "a.abcdefghijklmnop.qrstuvwy")
	f.Add("a,,ab.cd", "x.ab.cd.")
	f.Fuzz(func(t *testing.T, names, host string) {
		exact := map[string]*node{}
		for _, n := range strings.Split(names, ",") {
			exact[n] = &node{}
		}
		fl := newHostFilter(exact, nil, nil)
		for p := 0; p <= len(host); p++ {
			if p > 0 && host[p-1] != '.' {
				continue
			}
			e := fl.lookup(host, p)
			if want := exact[host[p:]]; e == nil && want != nil || e != nil && (e.name != host[p:] || e.tree != want) {
				t.Fatalf("lookup(%q, %d) = %v, want the entry of %q: %v", host, p, e, host[p:], want != nil)
			}
		}
	})
}
