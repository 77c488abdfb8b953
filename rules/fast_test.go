package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// checkMayMatch fails t if mayMatch (mayMatchKey if key) turns u away while a rule of s
// matches it (the reference matcher), or if key and gateLayout of u, keyed again with its
// layout, differs from mayMatchKey. It returns whether u was turned away.
func checkMayMatch(t *testing.T, s *Set, u string, key bool) bool {
	t.Helper()
	may := s.mayMatch(u)
	if key {
		may = s.mayMatchKey(u)
		var l urlnorm.KeyLayout
		if b, err := s.keyer.AppendKeyLayout(nil, u, &l); err == nil && string(b) == u {
			w, got := s.gateLayout(u, &l)
			if got != may {
				t.Fatalf("gateLayout(%q) = %v, mayMatchKey %v", u, got, may)
			}
			// What it learned of the host, view.index takes for the host's trees.
			if i, j := l.Host(); w.ok {
				e, doms := s.hosts.treesOf(w.e, w.whole, nil)
				e2, doms2 := hostTrees(s, u[i:j], nil)
				if e != e2 || !slices.Equal(doms, doms2) {
					t.Fatalf("gateLayout(%q): the walk gives other trees than find(%q)", u, u[i:j])
				}
			}
		} else {
			t.Fatalf("the key %q keyed again: %q, %v", u, b, err)
		}
	}
	if may {
		return false
	}
	var v view
	if v.load(u, s) == nil {
		if i := s.matchSlow(&v, 0); i >= 0 {
			t.Fatalf("mayMatch(%q) (key %v) = false, but rule %v matches it", u, key, s.Rule(i))
		}
	}
	return true
}

// variants are URLs made from u: with a userinfo, a port, a fragment, a '#' before the query,
// a query parameter of every host added, the host upper-cased, a trailing dot, and each of
// these moved to a host without rules (noRulesURL).
func variants(u string) []string {
	i := strings.Index(u, "://")
	if i < 0 {
		return []string{u}
	}
	a := i + 3
	e := a + strings.IndexAny(u[a:], "/?#")
	if e < a {
		e = len(u)
	}
	q := "?"
	if strings.Contains(u, "?") {
		q = "&"
	}
	out := []string{
		u,
		u[:a] + "user:pw@" + u[a:],
		u[:a] + "a.b@" + u[a:],
		u[:e] + ":8080" + u[e:],
		u[:e] + ":1234567890" + u[e:],
		u[:e] + ":" + u[e:],
		u[:a] + "user@" + u[a:e] + ":81" + u[e:],
		u + "#frag",
		u + "#x" + q + "highlight=1",
		u + q + "highlight=1",
		u + q + "ref_",
		u + q + "replytocom=5#f",
		u[:a] + strings.ToUpper(u[a:e]) + u[e:],
		u[:e] + "." + u[e:],
	}
	for _, v := range out[:len(out):len(out)] {
		out = append(out, noRulesURL(v))
	}
	return out
}

// TestMayMatchLearned checks that mayMatch and mayMatchKey never turn away a URL that a rule
// matches, on the dev URLs, their variants and their keys, with the learned rules.
func TestMayMatchLearned(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	step := tier.Step(100)
	n, away := 0, 0
	for i := 0; i < len(ls); i += step {
		for _, u := range variants(ls[i].URL) {
			n++
			if checkMayMatch(t, s, u, false) {
				away++
			}
			if k, err := s.keyer.Key(u); err == nil {
				n++
				if checkMayMatch(t, s, k, true) {
					away++
				}
			}
		}
	}
	t.Logf("%d URLs, %d turned away", n, away)
	if away == 0 || away == n {
		t.Errorf("%d of %d URLs turned away: the test checks nothing", away, n)
	}
}

// mayMatchRules are rules whose scopes test the filters' edges: a domain that is a top-level
// registrable domain, a short host (a short tail), an IPv6 literal, and rules of every
// host that require a parameter, the empty one among them.
const mayMatchRules = `
rule domain=ab.io cov=0 prec=1 sup=1 if query("a")=* then query("a")=-
rule host=b.cd cov=0 prec=1 sup=1 if path(1,1)="x" then path(1,1)=-
rule domain=example.co.uk cov=0 prec=1 sup=1 if query("s")=* then query("s")=-
rule host=example.com cov=0 prec=1 sup=1 if query("t")=* then query("t")=-
rule host=[::1] cov=0 prec=1 sup=1 if query("v")=* then query("v")=-
rule host=* cov=0 prec=1 sup=1 if query("highlight")=* then query("highlight")=-
rule host=* cov=0 prec=1 sup=1 if query("")=* then query("")=-
`

// TestMayMatchEdges checks mayMatch and mayMatchKey against the reference matcher on hosts at
// the edges of the filters: in and out of the domains, short, with userinfo, ports, IPv6
// literals, and parameters of every host before and after a fragment.
func TestMayMatchEdges(t *testing.T) {
	var rs []Rule
	for _, l := range strings.Split(strings.TrimSpace(mayMatchRules), "\n") {
		r, err := ParseRule(strings.TrimPrefix(l, "rule "))
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	s, err := NewSet(rs, &Options{Key: urlnorm.Crawler})
	if err != nil {
		t.Fatal(err)
	}
	hosts := []string{
		"io", "ab.io", "x.ab.io", "a.b.ab.io", "xab.io", "b.io", "b.cd", "ab.cd", "a.b.cd", "cd", "example.com",
		"www.example.com", "example.co.uk", "a.example.co.uk", "xexample.co.uk", "co.uk",
		"[::1]", "[::2]", "127.0.0.1", "*", "other.org", "c.d",
	}
	queries := []string{"", "?a=1", "?s", "?t=2", "?v", "?highlight", "?x=1&highlight=2", "?=1",
		"?&", "?x#highlight", "?highlight#f", "?y=1&highlight#f", "?x=1#&highlight", "#?a=1", "?x=1&y=2", "?highlightx=1"}
	n, away, matched := 0, 0, 0
	for _, h := range hosts {
		for _, auth := range []string{h, "u@" + h, "u:p@" + h, h + ":8080", "u@" + h + ":1", h + ":123456789"} {
			for _, q := range queries {
				u := "http://" + auth + "/x" + q
				n++
				if checkMayMatch(t, s, u, false) {
					away++
				}
				if out, _ := s.normalizeSlow(u); out != u {
					matched++
				}
				if k, err := s.keyer.Key(u); err == nil && checkMayMatch(t, s, k, true) {
					away++
				}
			}
		}
	}
	t.Logf("%d URLs, %d turned away, %d rewritten", n, away, matched)
	if away == 0 || matched == 0 {
		t.Errorf("%d URLs, %d turned away, %d rewritten: the test checks nothing", n, away, matched)
	}
}

// TestHostFilter checks mayHave and mayEndIn against a reference, the maps of Set.matchFrom:
// a host that has rules or is in a domain with rules must never be turned away.
func TestHostFilter(t *testing.T) {
	s := loadLearned(t)
	ref := func(h string) bool {
		if s.exact[h] != nil || s.domain[h] != nil || s.opts.Patterns[h] != nil {
			return true
		}
		for i := 0; i < len(h); i++ {
			if h[i] == '.' && s.domain[h[i+1:]] != nil {
				return true
			}
		}
		return false
	}
	var hosts []string
	for h := range s.exact {
		hosts = append(hosts, h)
	}
	for h := range s.domain {
		hosts = append(hosts, h, "www."+h, "a.b."+h, "x"+h, h+".example", h[1:])
	}
	for h := range s.opts.Patterns {
		hosts = append(hosts, h, "m."+h)
	}
	hosts = append(hosts, "", ".", "a", "com", "co.uk", "example", "a..b")
	yes, no := 0, 0
	for _, h := range hosts {
		have, end := s.hosts.mayHave(h), s.hosts.mayEndIn(h)
		if ref(h) {
			yes++
			if !have || !end {
				t.Errorf("host %q has rules: mayHave %v, mayEndIn %v", h, have, end)
			}
			for _, a := range []string{"u@" + h, "u:p@" + h, "a.b.c@" + h} {
				if !s.hosts.mayEndIn(a) {
					t.Errorf("host %q has rules: mayEndIn(%q) = false", h, a)
				}
			}
		} else if !end {
			no++
		}
	}
	if yes == 0 || no == 0 {
		t.Errorf("%d hosts with rules, %d turned away: the test checks nothing", yes, no)
	}
}

// TestMayMatchKeyPort checks what mayMatchKey relies on: in a key of a urlnorm.Normalizer, a
// port is a number of at most five digits, so that the ':' after the host is among the last
// six bytes of the authority.
func TestMayMatchKeyPort(t *testing.T) {
	ports := []string{"", ":", ":0", ":80", ":443", ":8080", ":65535", ":65536", ":000000000080",
		":123456789", ":8o", ":+1", ": 1"}
	auths := []string{"example.com", "user:pw@example.com", "a.b", "[::1]", "[2001:db8::1]", "127.0.0.1"}
	n := 0
	for _, flags := range []urlnorm.Flags{urlnorm.Safe, urlnorm.Crawler, urlnorm.Aggressive} {
		key := urlnorm.New(flags)
		for _, a := range auths {
			for _, p := range ports {
				k, err := key.Key("http://" + a + p + "/x?y=1")
				if err != nil {
					continue
				}
				n++
				rest := k[strings.Index(k, "://")+3:]
				auth := rest[:strings.IndexByte(rest, '/')]
				auth = auth[strings.LastIndexByte(auth, '@')+1:]
				if c := strings.LastIndexByte(auth, ':'); c >= 0 && strings.IndexByte(auth[c:], ']') < 0 && c < len(auth)-6 {
					t.Errorf("Key(%q) = %q: port %q longer than five digits", "http://"+a+p+"/x?y=1", k, auth[c+1:])
				}
			}
		}
	}
	if n == 0 {
		t.Error("no key made: the test checks nothing")
	}
}

// BenchmarkMayMatch is mayMatchKey alone on the keys of the dev URLs moved to a host without
// rules (noRulesURL), the test that Normalize makes of a URL after its key; "key" is AppendKey
// of the same URLs, the yardstick.
func BenchmarkMayMatch(b *testing.B) {
	s := loadLearned(b)
	key := urlnorm.New(urlnorm.Crawler)
	var urls, keys []string
	for _, l := range loadDev(b, 0) {
		u := noRulesURL(l.URL)
		if k, err := key.Key(u); err == nil && !s.mayMatchKey(k) {
			urls, keys = append(urls, u), append(keys, k)
		}
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			i := 0
			cpu := cpubench.Start(b)
			for b.Loop() {
				f(i)
				if i++; i == len(keys) {
					i = 0
				}
			}
			cpu.Report(0)
		})
	}
	var buf []byte
	run("key", func(i int) { buf, _ = key.AppendKey(buf[:0], urls[i]) })
	run("mayMatch", func(i int) { s.mayMatchKey(keys[i]) })
}

// hostTreesRef is hostTrees by the maps of Set.matchFrom: the host's own tree and
// patterns (has: it has either), and the trees of the domains among the host and its suffixes
// after a dot, longest first.
func hostTreesRef(s *Set, h string) (tree *node, pat Patterns, has bool, doms []*node) {
	if t, ok := s.exact[h]; ok {
		tree, has = t, true
	}
	if p, ok := s.opts.Patterns[h]; ok {
		pat, has = p, true
	}
	if t := s.domain[h]; t != nil {
		doms = append(doms, t)
	}
	for i := 0; i < len(h); i++ {
		if h[i] == '.' {
			if t := s.domain[h[i+1:]]; t != nil {
				doms = append(doms, t)
			}
		}
	}
	return tree, pat, has, doms
}

// hostTrees is what view.findTrees makes of host without a walk: the host's entry (nil if it has
// neither rules nor patterns of its own) and the trees of its domains appended to doms, by
// hostFilter.find and treesOf.
func hostTrees(s *Set, host string, doms []*node) (*hostEnt, []*node) {
	e, whole := s.hosts.find(host)
	return s.hosts.treesOf(e, whole, doms)
}

// hostileHosts are hosts at the edges of hostFilter's scans, made from the names of s: many
// labels, long labels, empty labels, IPv6 literals, ports and userinfo left in, trailing dots,
// AllHosts, lengths around a word.
func hostileHosts(s *Set) []string {
	hs := []string{"", ".", "..", "*", "*.com", "a.*", "[::1]", "[2001:db8::1]", "[::1]:80", "u@a.com",
		"a.com:8080", "com", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "a..b", ".com", "com.",
		strings.Repeat("a.", 200) + "com", strings.Repeat("x", 300), strings.Repeat(".", 100),
		strings.Repeat("abcdefgh.", 40), strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + ".com"}
	var names []string
	for h := range s.exact {
		names = append(names, h)
	}
	for h := range s.domain {
		names = append(names, h)
	}
	for h := range s.opts.Patterns {
		names = append(names, h)
	}
	slices.Sort(names) // the order of the tests that run over the hosts one after another
	for _, h := range names {
		hs = append(hs, h, "www."+h, "a.b."+h, "x"+h, h+".", "."+h, h+".example", h[1:], h[:len(h)-1],
			"u@"+h, h+":80", "[::1]."+h, strings.Repeat("a.", 100)+h, strings.Repeat("x", 70)+"."+h,
			strings.Repeat("abcdefgh", 40)+h, strings.ToUpper(h))
		if i := strings.IndexByte(h, '.'); i >= 0 {
			hs = append(hs, h[i:], h[i+1:], h[:i], h[:i]+"."+h)
		}
	}
	return hs
}

// TestHostTreesRef checks hostFilter.find with treesOf (hostTrees), mayHave and mayEndIn against
// the maps (hostTreesRef)
// on the hosts of the dev URLs' keys and of their variants (moved to a host without rules among
// them), and on hostile hosts, with the learned rules and with the rules of TestMayMatchEdges.
// On URLs of the hostile hosts, it checks the filter (checkMayMatch), and Normalize and
// AppendNormalize against the reference path (checkFastSeq: the references first, then each fast
// function over the URLs back to back).
func TestHostTreesRef(t *testing.T) {
	var rs []Rule
	for _, l := range strings.Split(strings.TrimSpace(mayMatchRules), "\n") {
		r, err := ParseRule(strings.TrimPrefix(l, "rule "))
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	edges, err := NewSet(rs, &Options{Key: urlnorm.Crawler, Patterns: map[string]Patterns{"p.ab.io": &splitter{seps: "-"}}})
	if err != nil {
		t.Fatal(err)
	}
	learned := loadLearned(t)
	var dev []string
	seen := map[string]bool{}
	ls := loadDev(t, 0)
	step := tier.Step(30)
	for n := 0; n < len(ls); n += step {
		for _, u := range variants(ls[n].URL) {
			var lay urlnorm.KeyLayout
			k, err := learned.keyer.AppendKeyLayout(nil, u, &lay)
			if err != nil {
				continue
			}
			i, j := lay.Host()
			if h := string(k[i:j]); !seen[h] {
				seen[h] = true
				dev = append(dev, h)
			}
		}
	}
	for _, s := range []*Set{learned, edges} {
		hosts := append(hostileHosts(s), dev...)
		yes, no := 0, 0
		var doms []*node
		for _, h := range hosts {
			tree, pat, has, want := hostTreesRef(s, h)
			var e *hostEnt
			e, doms = hostTrees(s, h, doms[:0])
			if got := e != nil; got != has || has && (e.tree != tree || e.pat != pat) {
				t.Fatalf("trees of %q: entry %v, want own rules or patterns %v", h, e, has)
			}
			if !slices.Equal(doms, want) {
				t.Fatalf("trees of %q: %d domain trees %p, want %d %p", h, len(doms), doms, len(want), want)
			}
			some := has || len(want) > 0
			var w hostWalk
			if s.hosts.mayHave(h) != some || s.hosts.mayHaveWalk(h, &w) != some {
				t.Fatalf("mayHave(%q) = %v, want %v", h, !some, some)
			}
			e2, doms2 := s.hosts.treesOf(w.e, w.whole, nil)
			if e2 != e || !slices.Equal(doms2, doms) {
				t.Fatalf("the trees of mayHaveWalk(%q)'s walk differ from find's", h)
			}
			if some && !s.hosts.mayEndIn(h) {
				t.Fatalf("mayEndIn(%q) = false, but it has rules", h)
			}
			if some {
				yes++
			} else {
				no++
			}
		}
		t.Logf("%d hosts: %d with rules, %d without", len(hosts), yes, no)
		if yes == 0 || no == 0 {
			t.Errorf("%d hosts with rules, %d without: the test checks nothing", yes, no)
		}
		// The hostile hosts in URLs: the filter (mayMatch, mayMatchKey and gateLayout)
		// never turns away a URL that a rule matches, and Normalize and AppendNormalize, each
		// over the URLs back to back (hosts that differ in a byte, one after the other), give
		// what the reference path gives.
		var seq []string
		for _, h := range hostileHosts(s) {
			for _, q := range []string{"", "?a=1", "?highlight=1&s", "?x=1#f"} {
				u := "http://" + h + "/x" + q
				checkMayMatch(t, s, u, false)
				if k, err := s.keyer.Key(u); err == nil {
					checkMayMatch(t, s, k, true)
				}
				seq = append(seq, u)
			}
		}
		want := refResults(seq, s.normalizeRef)
		checkFastSeq(t, "hostile hosts", s, seq, want, s.normalizeRef)
	}
}

// everyFilters are filters of names at the edges of queryMayHave's heads: the names of the learned
// set's rules of every host, the empty name, names of one and two bytes, names that are prefixes
// of others, more than maxKids names (a map), and none.
func everyFilters(s *Set) []everyHostFilter {
	set := func(names ...string) everyHostFilter {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return everyFilterOf(m)
	}
	var many []string
	for i := 0; i < 3*maxKids; i++ {
		many = append(many, "p"+strings.Repeat("x", i%9)+string(rune('a'+i%26)))
	}
	return []everyHostFilter{s.every, set(""), set("a"), set("", "a", "ab", "abc"), set("id", "i", "ref", "ref_", "highlight"),
		set("abcdefgh", "abcdefghi", "abcdefg"), set(append(many, "q", "")...), set()}
}

// queryCases are queries at the edges of queryMayHave's word-at-a-time scan, made from the names
// of the filters: empty parameters, names at each offset of a word, at the end, cut short or
// followed by more bytes, with long values.
func queryCases(fs []everyHostFilter) []string {
	qs := []string{"", "&", "&&", "=", "=&", "&=", "a", "a&", "&a", "a=", "=a", "ab", "ab=1&", "a&b&c",
		"x=1&&y=2", "x=1&", strings.Repeat("&", 17), strings.Repeat("a=1&", 20), "a=" + strings.Repeat("&", 9)}
	for _, f := range fs {
		names := f.names
		for n := range f.set {
			names = append(names, n)
		}
		for _, n := range names {
			for _, pad := range []int{0, 1, 5, 6, 7, 8, 9, 15, 16} {
				junk := strings.Repeat("z", pad)
				for _, q := range []string{n, n + "=", n + "=1", n + "&", n + "&x", n + "x", n + "=" + junk} {
					qs = append(qs, q, junk+"&"+q, junk+"="+junk+"&"+q, q+"&"+junk, "&"+q)
					if len(n) > 0 {
						qs = append(qs, junk+"&"+n[:len(n)-1], junk+"&"+n[1:])
					}
				}
			}
		}
	}
	return qs
}

// checkQueryMayHave fails t if queryMayHave of the query q, in a key at each of a few offsets,
// differs from queryMayMatch, its reference. It returns whether q may match.
func checkQueryMayHave(t *testing.T, f *everyHostFilter, q string) bool {
	t.Helper()
	want := f.queryMayMatch(q)
	for _, pre := range []string{"http://h/?", "https://a.example.com/x/y?"} {
		if got := f.queryMayHave(pre+q, len(pre)); got != want {
			t.Fatalf("queryMayHave(%q) = %v, queryMayMatch %v (names %q %d)", q, got, want, f.names, len(f.set))
		}
	}
	return want
}

// TestQueryMayHave checks queryMayHave against queryMayMatch on the queries of the keys of the dev
// URLs and of their variants, and on queries made to hit the edges, with filters of several name
// sets.
func TestQueryMayHave(t *testing.T) {
	s := loadLearned(t)
	fs := everyFilters(s)
	qs := queryCases(fs)
	seen := map[string]bool{}
	ls := loadDev(t, 0)
	step := tier.Step(30)
	for i := 0; i < len(ls); i += step {
		for _, u := range variants(ls[i].URL) {
			var lay urlnorm.KeyLayout
			k, err := s.keyer.AppendKeyLayout(nil, u, &lay)
			if err != nil {
				continue
			}
			if a, b := lay.Query(string(k)); a >= 0 && !seen[string(k[a:b])] {
				seen[string(k[a:b])] = true
				qs = append(qs, string(k[a:b]))
			}
		}
	}
	for i := range fs {
		yes := 0
		for _, q := range qs {
			if checkQueryMayHave(t, &fs[i], q) {
				yes++
			}
		}
		if i > 0 && i < len(fs)-1 && (yes == 0 || yes == len(qs)) {
			t.Errorf("filter %d: %d of %d queries may match: the test checks nothing", i, yes, len(qs))
		}
	}
}

// FuzzQueryMayHave compares queryMayHave with queryMayMatch on a query (without '#', which a key's
// query has not) and names separated by ','.
func FuzzQueryMayHave(f *testing.F) {
	f.Add("a=1&b=2&highlight", "highlight,a")
	f.Add("&&=x&ab", ",ab")
	f.Add("abcdefgh=1&abcdefghi", "abcdefghi,x")
	f.Fuzz(func(t *testing.T, q, names string) {
		if strings.Contains(q, "#") {
			return
		}
		m := map[string]bool{}
		for _, n := range strings.Split(names, ",") {
			m[n] = true
		}
		e := everyFilterOf(m)
		checkQueryMayHave(t, &e, q)
	})
}

// TestSameName checks sameName against == on names of 0 to 25 bytes that differ in one byte at
// each place, or in length.
func TestSameName(t *testing.T) {
	n, same := 0, 0
	for l := 0; l <= 25; l++ {
		a := strings.Repeat("ab.", 9)[:l]
		for i := 0; i <= l; i++ {
			bs := []string{a + "x", a[:max(l-1, 0)]}
			if i < l {
				bs = append(bs, a[:i]+"z"+a[i+1:], a[:i]+a[i:])
			}
			for _, b := range bs {
				n++
				if a == b {
					same++
				}
				if sameName(a, b) != (a == b) || sameName(b, a) != (a == b) {
					t.Fatalf("sameName(%q, %q) = %v", a, b, !(a == b))
				}
			}
		}
	}
	if same == 0 || same == n {
		t.Errorf("%d of %d pairs equal: the test checks nothing", same, n)
	}
}

// TestHostFilterWords checks hostFilter.lookup on names that share most of the words a slot
// keeps (hostWords): names of 0 to 40 bytes that differ from one another in one byte, in
// length, or only in the bytes that sameName compares (past the first 16 and before the last 8
// of a name longer than 24), looked up whole and as a suffix after a label, and so do hosts
// that differ from them in the same way. Many such names fill the table, so that a probe meets
// slots whose words are those of the host looked up.
func TestHostFilterWords(t *testing.T) {
	exact := map[string]*node{}
	var hosts []string
	for l := 0; l <= 40; l++ {
		a := strings.Repeat("ab.cdefg", 6)[:l]
		exact[a] = &node{}
		hosts = append(hosts, a, a+"x", a[:max(l-1, 0)])
		for i := 0; i < l; i++ {
			for c := byte('a'); c <= 'z'; c += 5 {
				exact[a[:i]+string(c)+a[i+1:]] = &node{}
				hosts = append(hosts, a[:i]+string(c)+a[i+1:], a[:i]+string(c-'a'+'A')+a[i+1:])
			}
		}
	}
	f := newHostFilter(exact, nil, nil)
	yes, no := 0, 0
	for _, h := range hosts {
		for _, p := range []string{"", "w.", "www.example."} {
			e := f.lookup(p+h, len(p))
			if want := exact[h]; e == nil && want != nil || e != nil && (e.name != h || e.tree != want) {
				t.Fatalf("lookup(%q, %d) = %v, want the entry of %q: %v", p+h, len(p), e, h, want != nil)
			}
			if e != nil {
				yes++
			} else {
				no++
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Errorf("%d hosts found, %d not: the test checks nothing", yes, no)
	}
}

// FuzzSameName compares sameName with ==.
func FuzzSameName(f *testing.F) {
	f.Add("www.example.com", "www.example.con")
	f.Add("abcdefghi", "bbcdefghi")
	f.Fuzz(func(t *testing.T, a, b string) {
		if sameName(a, b) != (a == b) {
			t.Fatalf("sameName(%q, %q) = %v", a, b, a != b)
		}
		if !sameName(a, strings.Clone(a)) {
			t.Fatalf("sameName(%q, itself) = false", a)
		}
	})
}

// TestLinearHostFilter checks that finding a host's trees costs at most linearly in the host's
// length when the names with rules are as long as the host and it has many labels whose suffixes
// all start with the first word of a name: only the suffixes of a name's length are hashed
// whole.
func TestLinearHostFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	var rs []Rule
	for _, k := range []int{3, 100, 20000} {
		r, err := ParseRule("host=" + strings.Repeat("ab.", k) + "com cov=0 prec=1 sup=1 if query(\"a\")=* then query(\"a\")=-")
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	s, err := NewSet(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[int]string{}
	sizes := []int{1 << 12, 1 << 13, 1 << 14}
	for _, n := range sizes {
		hosts[n] = "x" + strings.Repeat(".ab", n/3) + ".org"
	}
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		for range 20 {
			if e, doms := hostTrees(s, hosts[n], nil); e != nil || len(doms) != 0 {
				t.Fatalf("trees of a host in no domain: %v, %d domains", e, len(doms))
			}
		}
		return 0
	})
}

// paramNameCases are queries at the edges of the key writer's summary of parameter names
// (urlnorm.KeyLayout.ParamNames), for the names of fs: each name alone, among many parameters and
// after a long value; names whose summary bit is that of a name of fs but which are not (they
// collide); empty and one-byte names; parameters that the key drops or that need escaping (for
// which the writer makes no summary), after ones for which it makes one.
func paramNameCases(fs []everyHostFilter) []string {
	qs := []string{"", "&", "=", "=1", "a", "a=", "&a", "a&&b", "x=1&=2", "%41=1", "a%20b=1", "é=1",
		strings.Repeat("a=1&", 3000) + "b", strings.Repeat("&", 500), "v=" + strings.Repeat("x", 20000)}
	// Names of one and two bytes whose bits are those of names of fs, and are none of them.
	bits := map[uint64]string{}
	for c := byte('!'); c < 0x7f; c++ {
		for _, n := range []string{string(c), string(c) + "z", string(c) + "q_long_name"} {
			bits[urlnorm.ParamNameBit(n)] = n
		}
	}
	for _, f := range fs {
		names := f.names
		for n := range f.set {
			names = append(names, n)
		}
		for _, n := range names {
			twin := bits[urlnorm.ParamNameBit(n)]
			for _, q := range []string{n, n + "=1", n + "=", "utm_source=1&" + n, strings.Repeat("p=1&", 40) + n + "=2", twin + "=1", twin, "utm_source=1", n + "=a%20b", "utm_source=1", n + "=é"} {
				qs = append(qs, q)
			}
		}
	}
	return qs
}

// TestParamNamesGate checks the gate that the summary of a key's parameter names makes for the
// rules of every host (KeyLayout.ParamNames against everyHostFilter.params) against the exact
// answer, whether a parameter of the key has one of the filter's names: the gate may let a key
// through wrongly, never turn one away wrongly. The keys are those of the dev URLs and of their
// variants, and of URLs with the queries of paramNameCases, all written into one KeyLayout one
// after another (the summary is state that a call must not leave to the next). It also checks
// that the gate turns most keys away, and that Normalize and AppendNormalize of every 7th URL give
// what the reference path gives (checkFastSeq: the references first, then each fast function over
// those URLs back to back).
func TestParamNamesGate(t *testing.T) {
	s := loadLearned(t)
	fs := everyFilters(s)
	var urls []string
	ls := loadDev(t, 0)
	step := tier.Step(30)
	for i := 0; i < len(ls); i += step {
		urls = append(urls, variants(ls[i].URL)...)
	}
	for _, q := range paramNameCases(fs) {
		urls = append(urls, "http://a.example/p?"+q, "https://www.b.example/p/q?"+q+"#f", "http://c.example/x?"+q+"&a=b")
	}
	var lay urlnorm.KeyLayout
	var seq []string // every 7th URL, for checkFastSeq
	checked, away := 0, 0
	for n, u := range urls {
		k, err := s.keyer.AppendKeyLayout(nil, u, &lay)
		if err != nil {
			continue
		}
		toks, err := urlnorm.Tokenize(nil, string(k))
		if err != nil {
			continue
		}
		names := lay.ParamNames()
		for i := range fs {
			f := &fs[i]
			want := false
			for _, tok := range toks {
				if tok.Part == urlnorm.PartQuery && f.has(tok.Name) {
					want = true
				}
			}
			if !f.ok {
				continue
			}
			checked++
			if got := names&f.params != 0; !got {
				away++
				if want {
					t.Fatalf("key %q: ParamNames %#x & params %#x of filter %d = 0, but a parameter has one of its names", clip(string(k)), names, f.params, i)
				}
			}
		}
		if n%7 == 0 {
			seq = append(seq, u)
		}
	}
	want := refResults(seq, s.normalizeRef)
	checkFastSeq(t, "every 7th key", s, seq, want, s.normalizeRef)
	t.Logf("%d keys, %d checks, %d turned away", len(urls), checked, away)
	if away < checked/2 {
		t.Errorf("%d of %d checks turned away: the gate does little", away, checked)
	}
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
