package urlnorm

import (
	"errors"
	"strings"
	"testing"

	"github.com/undust/undust/internal/tier"
)

// fastFlags are the flag sets appendURLFast is checked under: the presets,
// none, and sets that turn on the flags the fast path hands on to shared code
// (keyPath, keyQuery, foldWWW, HTTPSToHTTP) one at a time.
var fastFlags = []Flags{
	0, Safe, Crawler, Aggressive, CanonicalFlags, Crawler &^ EncodeStrict, Safe &^ DropFragment,
	Crawler | HTTPSToHTTP, Crawler | FoldWWW, Crawler | LowercasePath, Crawler | DropIndex,
	Crawler | RemoveDuplicateSlashes, Aggressive &^ (UppercaseEscapes | DecodeUnreserved),
	DropSessionIDs, DropTracking, SortQuery | DropEmptyParams,
	Crawler &^ DecodeQuery, DecodeQuery, DecodeQuery | SortQuery | EncodeStrict,
}

// fastNormalizers returns Normalizers for fastFlags, and for some of them
// one with exceptions and a short length cap.
func fastNormalizers(t testing.TB) []*Normalizer {
	var ns []*Normalizer
	for _, f := range fastFlags {
		ns = append(ns, New(f))
	}
	for _, f := range []Flags{Crawler, Aggressive} {
		n, err := NewOptions(f, Options{
			Exceptions: []Exception{
				{Host: "www.example.com", Keep: []string{"utm_source"}, Clear: EncodeStrict | SortQuery},
				{Domain: "example.org", Clear: DropFragment | DropSessionIDs},
			},
			SessionParams:  []ParamRule{{Name: "*", IDValue: true}, {Name: "S"}},
			TrackingParams: []ParamRule{{Name: "ref"}, {Name: "x*"}},
			MaxLength:      60,
		})
		if err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	return ns
}

// fastVariants returns u with the changes that each send it, or part of it,
// off the fast path: what appendURLFast checks, one at a time.
func fastVariants(u string) []string {
	out := []string{u}
	i := strings.Index(u, "://")
	if i < 0 {
		return out
	}
	h := i + 3
	he := h + strings.IndexAny(u[h:]+"/", "/?#")
	rest := u[he:]
	host := u[h:he]
	out = append(out,
		strings.ToUpper(u[:1])+u[1:],                // scheme case
		u[:h]+strings.ToUpper(host)+rest,            // host case
		u[:h]+"xn--"+host+rest,                      // an ACE label
		u[:h]+"a--b."+host+rest,                     // "--" without "xn"
		u[:he]+"."+rest,                             // a root dot
		u[:he]+".."+rest,                            // an empty last label
		u[:he]+".0x1f"+rest,                         // a number label
		u[:he]+".9a"+rest,                           // a label starting with a digit
		u[:he]+":80"+rest,                           // a default port
		u[:he]+":8080"+rest,                         // a port
		u[:h]+"u:p@"+u[h:],                          // userinfo
		u[:h]+"www."+u[h:],                          // FoldWWW
		u[:h]+"/"+u[h:],                             // an extra slash
		u[:h]+"%41"+u[h:],                           // an escape in the host
		u[:h]+"\t"+u[h:],                            // a tab in the host
		u[:he]+"\n"+rest,                            // a newline after it
		u[:he]+"/a/./b/../c/"+rest,                  // dot segments
		u[:he]+"/a/.b/..c/.."+rest,                  // dots that are and are not segments
		u[:he]+"/A/B%2e/%7e%c3%a9/Index.html"+rest,  // escapes, index file, case
		u[:he]+"//a//b;jsessionid=1/(S(ab))/c"+rest, // session ids, duplicate slashes
		u[:he]+"/a\\b/c d|e"+rest,                   // backslash, bytes to escape
		u+"?",                                       // a bare query
		u+"?b=2&a=1&&c=&=d&utm_source=x&s=ab&ref=1&x_y=2&PHPSESSID=9682993c8daa2c54&sid=0123456789abcdefXYZ",
		u+"?a=%41%zz&b=c d|\x01\x7f\xff",                             // escapes and bytes to escape in a query
		u+"?c=12%3a00%3A00&%24t=%2F%26%3D%2B%25%3B%23%27%20%5B%60&z", // escapes DecodeQuery decodes and keeps
		u+"?a=1\r&b=2",                         // a CR in the query
		u+"#frag",                              // a fragment
		u+"#fr\tag",                            // a tab in it
		u+"?q#f?x",                             // query and fragment
		u+" ",                                  // trailing space
		" "+u,                                  // leading space
		u+"\x00",                               // trailing control
		strings.Replace(u, "http", "https", 1), // https for HTTPSToHTTP
		u+strings.Repeat("a", 40),              // near the length cap
	)
	return out
}

// checkFastMatchesSlow compares appendURL (fast path first) with
// appendURLSlow: the same bytes, error and layout, after a prefix in dst.
// It reports whether the fast path took raw.
func checkFastMatchesSlow(t *testing.T, n *Normalizer, raw string) bool {
	t.Helper()
	prefix := []byte("pre")
	var lg, lw layout
	got, gerr := n.appendURL(prefix, raw, &lg, n.flags, "key")
	want, werr := n.appendURLSlow(prefix, raw, &lw, n.flags, "key")
	if string(got) != string(want) || (gerr == nil) != (werr == nil) ||
		gerr != nil && (gerr.Error() != werr.Error() || !errors.Is(gerr, errors.Unwrap(werr))) {
		t.Errorf("flags %v: appendURL(%q) = %q, %v; appendURLSlow %q, %v", n.flags, clip(raw), got, gerr, want, werr)
		return false
	}
	if gerr == nil {
		checkParamNames(t, string(got[len(prefix):]), &KeyLayout{lg})
		// The slow path makes no summary: all bits, or none without a query.
		checkParamNames(t, string(want[len(prefix):]), &KeyLayout{lw})
		lg.names = lw.names
		if lg != lw {
			t.Errorf("flags %v: appendURL(%q) layout %+v; appendURLSlow %+v", n.flags, clip(raw), lg, lw)
		}
	}
	_, fast := n.appendURLFast(prefix, raw, nil, n.flags)
	return fast
}

// checkParamNames checks that the summary of parameter names of the layout l of key has the bit
// of the name of each parameter that Tokenize finds in key, and none if key has no query.
func checkParamNames(t *testing.T, key string, l *KeyLayout) {
	t.Helper()
	toks, err := Tokenize(nil, key)
	if err != nil {
		return
	}
	names, query := l.ParamNames(), false
	for _, tok := range toks {
		if tok.Part == PartQuery {
			query = true
			if names&ParamNameBit(tok.Name) == 0 {
				t.Errorf("ParamNames of %q = %#x, without the bit %#x of %q", clip(key), names, ParamNameBit(tok.Name), clip(tok.Name))
			}
		}
	}
	if !query && names != 0 {
		t.Errorf("ParamNames of %q = %#x, want 0: no query", clip(key), names)
	}
}

// TestAppendURLFastMatchesSlow checks appendURLFast against appendURLSlow
// on the URLs of testdata (conformance suites, and every 20th URL of
// kasztp's corpus, tier.Step) and on variants of every 100th corpus URL
// that each break one condition of the fast path, under several flag sets,
// and that the fast path takes most of those corpus URLs.
func TestAppendURLFastMatchesSlow(t *testing.T) {
	step, vstep := tier.Step(20), tier.Step(100)
	in := keyTokensInputs(t, step)
	all, _ := loadCorpus(t)
	var urls []string
	for k := 0; k < len(all); k += step {
		urls = append(urls, all[k])
	}
	for k := 0; k < len(all); k += vstep {
		in = append(in, fastVariants(all[k])...)
	}
	in = append(in, fastVariants("http://a.com")...)
	in = append(in, fastVariants("https://www.example.com/x?utm_source=1&a=2")...)
	in = append(in, fastVariants("http://b.example.org/p;jsessionid=2?sid=0123456789abcdefXYZ#f")...)
	for _, n := range fastNormalizers(t) {
		for _, raw := range in {
			checkFastMatchesSlow(t, n, raw)
		}
	}
	// The fast path must not be dead code: it takes most of the corpus.
	// The fast path must not be dead code: it takes most of the corpus, and
	// most of its URLs with a query.
	n := New(Crawler)
	fast, queries, fastQueries := 0, 0, 0
	for _, u := range urls {
		ok := checkFastMatchesSlow(t, n, u)
		if ok {
			fast++
		}
		if strings.Contains(u, "?") {
			queries++
			if ok {
				fastQueries++
			}
		}
	}
	if fast < len(urls)*9/10 || fastQueries < queries*9/10 {
		t.Errorf("the fast path took %d of %d corpus URLs and %d of the %d with a query, want 90%% or more", fast, len(urls), fastQueries, queries)
	}
}

func FuzzAppendURLFast(f *testing.F) {
	seedCorpus(f)
	for _, u := range fastVariants("https://www.example.com/a/b.html?x=1&utm_source=y#z") {
		f.Add(u)
	}
	ns := fastNormalizers(f)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, n := range ns {
			checkFastMatchesSlow(t, n, raw)
		}
	})
}

// matchParamLinear is matchParam without the grouping by first letter: every
// rule in turn. An empty name matches nothing.
func matchParamLinear(set *ruleSet, name, value []byte) bool {
	if len(name) == 0 {
		return false
	}
	for _, r := range set.rules {
		if r.prefix {
			if len(name) < len(r.name) || !equalFoldASCII(name[:len(r.name)], r.name) {
				continue
			}
		} else if !equalFoldASCII(name, r.name) {
			continue
		}
		if r.idValue && !looksLikeID(value) {
			continue
		}
		return true
	}
	return false
}

// TestMatchParamGroups checks matchParam's grouping by first letter against
// a scan of every rule, for the default lists and lists with a "*" rule and
// names that start with a non-letter.
func TestMatchParamGroups(t *testing.T) {
	sets := []*ruleSet{
		compileRules(DefaultSessionParams()),
		compileRules(DefaultTrackingParams()),
		compileRules([]ParamRule{{Name: "*", IDValue: true}, {Name: "Ab"}, {Name: "_x*"}, {Name: "9"}, {Name: "\xff*"}}),
		compileRules([]ParamRule{{Name: ""}, {Name: "*"}}),
		compileRules([]ParamRule{{Name: strings.Repeat("l", 62) + "*"}, {Name: strings.Repeat("m", 63)}, {Name: strings.Repeat("n", 70)}, {Name: "o" + strings.Repeat("b", 64) + "*"}}),
		compileRules(nil),
	}
	var names []string
	for _, r := range append(DefaultSessionParams(), DefaultTrackingParams()...) {
		nm := strings.TrimSuffix(r.Name, "*")
		names = append(names, nm, strings.ToUpper(nm), nm+"x", nm[:len(nm)-1], "x"+nm)
	}
	names = append(names, "", "a", "ab", "AB", "aB", "_x", "_X1", "9", "99", "\xff", "\xffa", "[", "{", "@")
	for _, c := range "lmno" {
		for _, n := range []int{1, 61, 62, 63, 64, 65, 66, 69, 70, 71, 90} {
			names = append(names, string(c)+strings.Repeat("b", n-1), strings.Repeat(string(c), n))
		}
	}
	values := []string{"", "42", "0123456789abcdefXYZ", "0123456789abcdef", "abcdefghijklmnopq1"}
	for si, set := range sets {
		for _, nm := range names {
			for _, v := range values {
				got := matchParam(set, []byte(nm), []byte(v))
				if got && !set.mayMatch(nm[0], len(nm)) {
					t.Errorf("set %d: matchParam(%q, %q) is true, but mayMatch rejects the name", si, nm, v)
				}
				want := matchParamLinear(set, []byte(nm), []byte(v))
				if got != want {
					t.Errorf("set %d: matchParam(%q, %q) = %v, every rule in turn says %v", si, nm, v, got, want)
				}
			}
		}
	}
}

// TestSkipPlain checks skipPlain against a byte-by-byte reading, with each
// class table of appendURLFast, on runs of plain bytes of every length up
// to 25 with a byte of each class (or none) at every offset, from every
// start.
func TestSkipPlain(t *testing.T) {
	tables := []*[256]uint8{&fastHost, &fastPath[0], &fastPath[1], &fastQuery[0], &fastQuery[1]}
	for ti, tab := range tables {
		var plain, stops []byte
		seen := map[uint8]bool{}
		for c := range 256 {
			if tab[c] == 0 {
				plain = append(plain, byte(c))
			} else if !seen[tab[c]] || c >= 0x80 {
				seen[tab[c]] = true
				stops = append(stops, byte(c))
			}
		}
		for n := range 26 {
			run := make([]byte, n)
			for k := range run {
				run[k] = plain[(k*7+ti)%len(plain)]
			}
			for at := 0; at <= n; at++ {
				for _, stop := range append([]byte{0}, stops...) {
					b := append([]byte(nil), run...)
					if at < n && stop != 0 {
						b[at] = stop
					}
					s := string(b)
					for i := 0; i <= n; i++ {
						want, wc := len(s), uint8(0)
						for k := i; k < len(s); k++ {
							if tab[s[k]] != 0 {
								want, wc = k, tab[s[k]]
								break
							}
						}
						if got, gc := skipPlain(s, i, tab); got != want || gc != wc {
							t.Fatalf("table %d: skipPlain(%q, %d) = %d, %d; want %d, %d", ti, s, i, got, gc, want, wc)
						}
					}
				}
			}
		}
	}
}
