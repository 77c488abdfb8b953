package urlnorm

import (
	"net/url"
	"strings"
	"testing"
)

// hrefPair is a page URL and an href found on it.
type hrefPair struct{ base, ref string }

// loadHrefs derives realistic (page, href) pairs from the corpus of real
// URLs (testdata/kasztp.txt): each URL is a page that links to the next URL
// of the same host in the list, written the way pages write links: the bare
// name within the page's directory ("rfc2616.html"), a root-relative path
// with its query on the same host ("/wiki/Main_Page?action=raw"), and an
// absolute URL for a host with one URL in the list (to the next URL of the
// list). Pairs net/url cannot parse are left out, so both sides of the
// comparison get the same work.
func loadHrefs(tb testing.TB) (pairs []hrefPair, kinds map[string]int) {
	tb.Helper()
	urls, _ := loadCorpus(tb)
	type parsed struct {
		raw string
		u   *url.URL
	}
	var ps []parsed
	byHost := map[string][]int{}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		byHost[u.Host] = append(byHost[u.Host], len(ps))
		ps = append(ps, parsed{raw, u})
	}
	next := map[int]int{}
	for _, idx := range byHost {
		for k, i := range idx {
			next[i] = idx[(k+1)%len(idx)]
		}
	}
	kinds = map[string]int{}
	for i, p := range ps {
		j := next[i]
		var ref, kind string
		v := ps[j].u
		switch {
		case j == i:
			ref, kind = ps[(i+1)%len(ps)].raw, "absolute"
		case dirOf(v.EscapedPath()) == dirOf(p.u.EscapedPath()) && nameOf(v.EscapedPath()) != "" &&
			!strings.Contains(nameOf(v.EscapedPath()), ":"):
			ref, kind = nameOf(v.EscapedPath()), "name"
		default:
			ref, kind = v.EscapedPath(), "root-relative"
			if ref == "" {
				ref = "/"
			}
		}
		if kind != "absolute" && v.RawQuery != "" {
			ref += "?" + v.RawQuery
		}
		if _, err := url.Parse(ref); err != nil {
			continue
		}
		kinds[kind]++
		pairs = append(pairs, hrefPair{p.raw, ref})
	}
	return pairs, kinds
}

// dirOf returns p up to its last '/', nameOf what follows it.
func dirOf(p string) string  { return p[:strings.LastIndexByte(p, '/')+1] }
func nameOf(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// resolveFunc is one function the resolve benchmarks time, on pair i.
type resolveFunc struct {
	name string
	f    func(i int)
}

// resolveFuncs returns the (page, href) pairs of loadHrefs and the functions
// the resolve benchmarks compare on them: undust's resolvers, and net/url's
// url.Parse(href) with base.ResolveReference, every base parsed beforehand as
// the Base variants have every Base made beforehand (NetURLString also
// prints the result, as Resolve does).
func resolveFuncs(b *testing.B) ([]hrefPair, []resolveFunc) {
	pairs, _ := loadHrefs(b)
	bases := make([]*url.URL, len(pairs))
	for i, p := range pairs {
		bases[i], _ = url.Parse(p.base)
	}
	n := New(Crawler)
	pbases := make([]*Base, len(pairs))
	for i, p := range pairs {
		pbases[i], _ = n.Base(p.base)
	}
	buf := make([]byte, 0, 4096)
	return pairs, []resolveFunc{
		{"Resolve", func(i int) { n.Resolve(pairs[i].base, pairs[i].ref) }},
		{"ResolveKey", func(i int) { n.ResolveKey(pairs[i].base, pairs[i].ref) }},
		{"AppendResolveKey", func(i int) { buf, _ = n.AppendResolveKey(buf[:0], pairs[i].base, pairs[i].ref) }},
		{"BaseResolveKey", func(i int) { pbases[i].ResolveKey(pairs[i].ref) }},
		{"BaseAppendResolveKey", func(i int) { buf, _ = pbases[i].AppendResolveKey(buf[:0], pairs[i].ref) }},
		{"NetURL", func(i int) {
			if r, err := url.Parse(pairs[i].ref); err == nil {
				bases[i].ResolveReference(r)
			}
		}},
		{"NetURLString", func(i int) {
			if r, err := url.Parse(pairs[i].ref); err == nil {
				_ = bases[i].ResolveReference(r).String()
			}
		}},
	}
}

// BenchmarkResolve runs each function of resolveFuncs over the (page, href)
// pairs in turn, one pair per op; NetURL is the yardstick.
func BenchmarkResolve(b *testing.B) {
	pairs, fs := resolveFuncs(b)
	for _, f := range fs {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f.f(i)
				if i++; i == len(pairs) {
					i = 0
				}
			}
		})
	}
}

// TestHrefPairs runs the resolution properties over every 8th of the
// benchmark's pairs (every 64th with -short).
func TestHrefPairs(t *testing.T) {
	pairs, kinds := loadHrefs(t)
	t.Logf("%d pairs: %v", len(pairs), kinds)
	step := 8
	if testing.Short() {
		step = 64
	}
	for i := 0; i < len(pairs); i += step {
		checkResolve(t, pairs[i].base, pairs[i].ref)
	}
}
