package urlnorm

import (
	"errors"
	"net/url"
	"sort"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	const base = "http://example.com/a/b?x=1#top"
	tests := []struct {
		base, ref string
		want      string // Resolve with whatwgFlags
		err       error
	}{
		{base, "c", "http://example.com/a/c", nil},                                          // path-relative: last segment replaced
		{base, "c/", "http://example.com/a/c/", nil},                                        // trailing slash kept
		{base, "./c", "http://example.com/a/c", nil},                                        // "." dropped
		{base, "../c", "http://example.com/c", nil},                                         // ".." pops a
		{base, "../../../c", "http://example.com/c", nil},                                   // never above the root
		{base, "..", "http://example.com/", nil},                                            // final ".." leaves a directory
		{base, "/c", "http://example.com/c", nil},                                           // path-absolute
		{base, `\c`, "http://example.com/c", nil},                                           // '\' is '/' in special URLs
		{base, "//cdn.example.com/c", "http://cdn.example.com/c", nil},                      // scheme-relative
		{base, `\\cdn.example.com\c`, "http://cdn.example.com/c", nil},                      // with backslashes
		{base, "?y=2", "http://example.com/a/b?y=2", nil},                                   // query replaced
		{base, "#f", "http://example.com/a/b?x=1#f", nil},                                   // fragment replaced
		{base, "", "http://example.com/a/b?x=1", nil},                                       // the base without its fragment
		{base, " \t c\n", "http://example.com/a/c", nil},                                    // spaces trimmed, tabs and newlines removed
		{base, "http:c", "http://example.com/a/c", nil},                                     // same scheme: relative (WHATWG)
		{base, "HTTP:/c", "http://example.com/c", nil},                                      // scheme compared case-insensitively
		{base, "https:c", "https://c/", nil},                                                // another special scheme: absolute
		{base, "https://o.com/p", "https://o.com/p", nil},                                   // absolute
		{base, "c d/é", "http://example.com/a/c%20d/%C3%A9", nil},                           // encoded as Canonical does
		{base, "mailto:a@b.com", "", ErrUnsupportedScheme},                                  // non-special ref
		{base, "javascript:void(0)", "", ErrUnsupportedScheme},                              // non-special ref
		{base, "//", "", ErrInvalidHost},                                                    // empty host
		{base, "http://a.com:99999/", "", ErrInvalidPort},                                   // errors of the absolute URL
		{"about:blank", "c", "", ErrUnsupportedScheme},                                      // base needed, not special
		{"about:blank", "https://a.com/", "https://a.com/", nil},                            // base not needed
		{"", "https://a.com/", "https://a.com/", nil},                                       // no base at all
		{"/a/b", "c", "", ErrNotAbsolute},                                                   // relative base
		{"http://u:p@h.com:81/a", "b", "http://u:p@h.com:81/b", nil},                        // userinfo and port stay
		{"http://h.com", "b", "http://h.com/b", nil},                                        // empty base path is "/"
		{"file:///C:/a/b", "/x", "file:///C:/x", nil},                                       // file: base lends its drive letter
		{"file:///C:/a/b", "/D:/x", "file:///D:/x", nil},                                    // unless the ref has one
		{"file:///C:/a/b", "D|/x", "file:///D:/x", nil},                                     // drive letter replaces the path
		{"file:///C:", "x", "file:///C:/x", nil},                                            // a lone drive letter is kept
		{"file:///C:/", "../../x", "file:///C:/x", nil},                                     // ".." never pops the drive letter
		{"file://host/a/b", "c", "file://host/a/c", nil},                                    // file host kept
		{"file:///a/b", "//h/c", "file://h/c", nil},                                         // file authority
		{"file:///a/b", "file:c", "file:///a/c", nil},                                       // file: ref against a file base is relative
		{"http://h.com/a/b", "file:c", "file:///c", nil},                                    // and absolute against another base
		{"http://h.com/a/%2e%2E/b/", "c", "http://h.com/b/c", nil},                          // base canonicalized first
		{"http://h.com/a/b", "%2e%2E/c", "http://h.com/c", nil},                             // escaped dots count
		{"http://h.com/a/b", "c?d#e", "http://h.com/a/c?d#e", nil},                          // query and fragment of the ref
		{"http://h.com/a/b", "c:d", "", ErrUnsupportedScheme},                               // "c:" is a scheme
		{"http://h.com/a/b", "./c:d", "http://h.com/a/c:d", nil},                            // unless after "./"
		{"http://h.com/a/b", "::23", "http://h.com/a/::23", nil},                            // not a scheme
		{"http://h.com/a/b", "/:@/www.example.com", "http://h.com/:@/www.example.com", nil}, // '@' in a path
	}
	n := New(whatwgFlags)
	for _, tt := range tests {
		got, err := n.Resolve(tt.base, tt.ref)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q, %v", tt.base, tt.ref, got, err, tt.want, tt.err)
			continue
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.URL != tt.ref && e.URL != tt.base) {
				t.Errorf("Resolve(%q, %q): error %v does not name its input", tt.base, tt.ref, err)
			}
		}
	}
}

func TestResolveKey(t *testing.T) {
	n := New(Aggressive)
	const base = "https://www.example.com/Shop/List.aspx?cat=2&sessionid=ab12cd34ef56gh78ij#top"
	tests := []struct{ ref, want string }{
		{"?page=2&utm_source=x", "http://example.com/shop/list.aspx?page=2"}, // tracking dropped, path lower-cased
		{"#reviews", "http://example.com/shop/list.aspx?cat=2"},              // the page itself
		{"", "http://example.com/shop/list.aspx?cat=2"},                      // the page itself
		{"Item.aspx?b=1&a=2", "http://example.com/shop/item.aspx?a=2&b=1"},   // query sorted
		{"../index.html", "http://example.com/"},                             // index file dropped
		{"//www.example.com/shop/", "http://example.com/shop/"},              // base scheme, www folded
	}
	for _, tt := range tests {
		got, err := n.ResolveKey(base, tt.ref)
		if got != tt.want || err != nil {
			t.Errorf("ResolveKey(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
		checkResolve(t, base, tt.ref)
	}
}

func TestGuessSchemeRefuses(t *testing.T) {
	n := New(Aggressive)
	tests := []struct {
		in   string
		want string // "" for an error wrapping ErrNotAbsolute
	}{
		{"/relative/path", ""}, // path-absolute reference
		{"./x", ""},            // path-relative
		{"../x", ""},           // path-relative
		{"?q", ""},             // query
		{"#f", ""},             // fragment
		{"x", ""},              // a bare word
		{"black-table", ""},    // a bare word
		{"index.php", ""},      // a file name: .php is no top-level domain
		{"page.html?a=1", ""},  // a file name
		{"a..com/x", ""},       // an empty label
		{".a.com/x", ""},       // a leading dot
		{"///a.com/x", ""},     // three slashes
		{"user@page.html", ""}, // a file name after userinfo
		{"example.com", "http://example.com/"},
		{"Example.COM./x", "http://example.com/x"},                    // upper case, trailing dot
		{"a.com:8080/x", "http://a.com:8080/x"},                       // with a port
		{"u@a.com/x", "http://a.com/x"},                               // userinfo (dropped by Aggressive)
		{"//cdn.a.com/x", "http://cdn.a.com/x"},                       // scheme-relative, host explicit
		{"localhost/x", "http://localhost/x"},                         // the one bare word
		{"127.0.0.1/x", "http://127.0.0.1/x"},                         // IPv4
		{"0x7f.1/x", "http://127.0.0.1/x"},                            // IPv4 in another form
		{"[::1]/x", "http://[::1]/x"},                                 // IPv6
		{"bücher.de/x", "http://xn--bcher-kva.de/x"},                  // IDN
		{"xn--bcher-kva.xn--p1ai/", "http://xn--bcher-kva.xn--p1ai/"}, // punycode TLD
		{"пример.рф/", "http://xn--e1afmkfd.xn--p1ai/"},               // Unicode TLD
		{"a.test/x", "http://a.test/x"},                               // RFC 6761 reserved name
		{"www.example.co.uk/", "http://example.co.uk/"},
	}
	for _, tt := range tests {
		got, err := n.Key(tt.in)
		if tt.want == "" {
			if err == nil || !errors.Is(err, ErrNotAbsolute) {
				t.Errorf("Key(%q) = %q, %v; want an ErrNotAbsolute error", tt.in, got, err)
			}
			continue
		}
		if got != tt.want || err != nil {
			t.Errorf("Key(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// checkResolve checks the properties of one resolution for the Safe,
// Crawler and Aggressive normalizers: typed errors that name their input;
// ResolveKey equals Key of Resolve; AppendResolve and AppendResolveKey agree
// with them and keep dst's prefix; the result is canonical, parses with
// net/url, and resolves to itself against the same base.
func checkResolve(t *testing.T, base, ref string) {
	t.Helper()
	for _, n := range []*Normalizer{fuzzSafe, fuzzCrawler, fuzzAggressive} {
		c, err := n.Resolve(base, ref)
		k, kerr := n.ResolveKey(base, ref)
		if (err == nil) != (kerr == nil) {
			t.Fatalf("%v: Resolve(%q, %q) = %q, %v but ResolveKey = %q, %v", n.Flags(), base, ref, c, err, k, kerr)
		}
		checkBase(t, n, base, ref, c, err, k)
		if err != nil {
			checkError(t, err)
			var e *Error
			if errors.As(err, &e); e.URL != ref && e.URL != base {
				t.Fatalf("Resolve(%q, %q): error %v names neither input", base, ref, err)
			}
			continue
		}
		checkOutput(t, ref, c)
		if c2, err := n.Canonical(c); err != nil || c2 != c {
			t.Fatalf("%v: Resolve(%q, %q) = %q is not canonical: %q, %v", n.Flags(), base, ref, c, c2, err)
		}
		if c2, err := n.Resolve(base, c); err != nil || c2 != c {
			t.Fatalf("%v: Resolve(%q, %q) = %q, but Resolve(base, that) = %q, %v", n.Flags(), base, ref, c, c2, err)
		}
		if want, err := n.Key(c); err != nil || k != want {
			t.Fatalf("%v: ResolveKey(%q, %q) = %q; Key(Resolve) = Key(%q) = %q, %v", n.Flags(), base, ref, k, c, want, err)
		}
		var buf [8]byte
		if b, err := n.AppendResolveKey(buf[:3], base, ref); err != nil || string(b[3:]) != k || string(b[:3]) != string(buf[:3]) {
			t.Fatalf("AppendResolveKey(%q, %q) = %q, %v; ResolveKey = %q", base, ref, b, err, k)
		}
		if b, err := n.AppendResolve(buf[:3], base, ref); err != nil || string(b[3:]) != c {
			t.Fatalf("AppendResolve(%q, %q) = %q, %v; Resolve = %q", base, ref, b, err, c)
		}
	}
	checkNetURLResolve(t, base, ref)
}

// checkBase checks that a Base made from base resolves ref to what the
// Normalizer's own methods gave (c, err; k), and that a base a Base rejects
// serves only absolute references.
func checkBase(t *testing.T, n *Normalizer, base, ref, c string, err error, k string) {
	t.Helper()
	b, berr := n.Base(base)
	if berr != nil {
		checkError(t, berr)
		if err != nil && !strings.HasPrefix(err.Error(), "urlnorm: resolve base ") {
			return // ref fails on its own
		}
		if err == nil {
			if _, abs, _ := n.readRef(ref, func() schemeKind { return schemeNone }, "resolve"); !abs {
				t.Fatalf("%v: Base(%q) fails (%v) but Resolve(base, %q) = %q", n.Flags(), base, berr, ref, c)
			}
		}
		return
	}
	bc, bcerr := b.Resolve(ref)
	bk, bkerr := b.ResolveKey(ref)
	if bc != c || (bcerr == nil) != (err == nil) || (err == nil && bk != k) || (bkerr == nil) != (err == nil) {
		t.Fatalf("%v: Base(%q).Resolve(%q) = %q, %v and ResolveKey = %q, %v; Normalizer gives %q, %v and %q",
			n.Flags(), base, ref, bc, bcerr, bk, bkerr, c, err, k)
	}
	var buf [8]byte
	if out, err := b.AppendResolveKey(buf[:3], ref); err == nil && (string(out[3:]) != bk || string(out[:3]) != string(buf[:3])) {
		t.Fatalf("Base(%q).AppendResolveKey(%q) = %q; ResolveKey = %q", base, ref, out, bk)
	}
	if out, err := b.AppendResolve(buf[:3], ref); err == nil && string(out[3:]) != bc {
		t.Fatalf("Base(%q).AppendResolve(%q) = %q; Resolve = %q", base, ref, out, bc)
	}
}

// checkNetURLResolve compares Resolve with net/url's RFC 3986 resolution
// (ResolveReference against the canonical base, then Canonical) where the
// two standards agree: the ref holds only unreserved characters, '/', '?',
// '#', '=' and '&', has no scheme and no authority.
func checkNetURLResolve(t *testing.T, base, ref string) {
	t.Helper()
	// net/url keeps the base's fragment for an empty ref, drops an empty
	// query or fragment, and after ".." drops the empty segments WHATWG
	// keeps ("..//" against /a/b/ is "//" in WHATWG, "/" in net/url).
	if ref == "" || strings.Contains(ref, "//") || strings.HasSuffix(ref, "?") || strings.HasSuffix(ref, "#") {
		return
	}
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if !(isAlpha(c) || isDigit(c) || strings.IndexByte("-._~/?#=&", c) >= 0) {
			return
		}
	}
	got, err := fuzzSafe.Resolve(base, ref)
	if err != nil {
		return
	}
	cb, err := fuzzSafe.Canonical(base)
	if err != nil || strings.HasPrefix(cb, "file:") {
		return
	}
	bu, err1 := url.Parse(cb)
	ru, err2 := url.Parse(ref)
	if err1 != nil || err2 != nil || bu.ForceQuery {
		return // net/url drops the base's empty query ("?") where WHATWG keeps it
	}
	want, err := fuzzSafe.Canonical(bu.ResolveReference(ru).String())
	if err != nil {
		t.Fatalf("Resolve(%q, %q) = %q; net/url gives %q, which fails: %v", base, ref, got, bu.ResolveReference(ru), err)
	}
	// The authority is the base's in both; net/url prints userinfo its own
	// way ("!" as %21), so only the path, query and fragment compare.
	if afterAuthority(got) != afterAuthority(want) {
		t.Fatalf("Resolve(%q, %q) = %q; net/url's ResolveReference, canonicalized, gives %q", base, ref, got, want)
	}
}

// afterAuthority returns what follows scheme://authority in u.
func afterAuthority(u string) string {
	i := strings.Index(u, "://") + 3
	return u[i+strings.IndexByte(u[i:], '/'):]
}

func TestResolveNetURL(t *testing.T) {
	bases := []string{"http://h.com", "http://h.com/", "http://h.com/a", "http://h.com/a/", "http://h.com/a/b/c?q#f",
		"https://u@h.com:8443/a/b/", "http://h.com/a//b"}
	refs := []string{"", "x", "x/", "./", ".", "..", "../", "../..", "../../x", "./x/../y", "x/./y/../../z",
		"/", "/x", "/x/../..", "?", "?y", "#", "#g", "x?y#z", "a/b/c/../../../../d", "...", ".x", "x..", "//"}
	for _, b := range bases {
		for _, r := range refs {
			checkResolve(t, b, r)
		}
	}
}

// wptResolveDeviations lists WPT cases with a base where the WHATWG-only
// flags do not give href, keyed by input and base, with the reason.
var wptResolveDeviations = map[[2]string]string{}

func loadWPTWithBase(t *testing.T) []wptCase { return loadWPTCases(t, true) }

// attributeResolve returns the flags of f (outside whatwgFlags) that, each
// removed alone, change what Resolve prints.
func attributeResolve(f Flags, base, in string) []string {
	want, _ := New(f).Resolve(base, in)
	var names []string
	for _, fn := range flagNames {
		if f&fn.f == 0 || whatwgFlags&fn.f != 0 {
			continue
		}
		if got, _ := New(f&^fn.f).Resolve(base, in); got != want {
			names = append(names, fn.name)
		}
	}
	return names
}

// TestWPTResolve runs every WPT urltestdata case with a base. Cases whose
// result has a special scheme, or that must fail, are in scope and must
// pass (exactly, or differing only by a named Safe flag). Cases whose
// result is a non-special URL (base or input mailto:, sc:, about:, data:
// and the like) are out of scope: Resolve must reject them with
// ErrUnsupportedScheme rather than print some other URL.
func TestWPTResolve(t *testing.T) {
	safe := New(Safe)
	whatwg := New(whatwgFlags)
	var total, failures, exact, byFlag, listed, nonSpecial int
	flagCount := map[string]int{}
	for _, c := range loadWPTWithBase(t) {
		base := *c.Base
		checkResolve(t, base, c.Input)
		got, err := safe.Resolve(base, c.Input)
		if !c.Failure && !isSpecialInput(c.Href) {
			nonSpecial++
			if !errors.Is(err, ErrUnsupportedScheme) {
				t.Errorf("Resolve(%q, %q) = %q, %v; want ErrUnsupportedScheme (WHATWG: non-special %q)", base, c.Input, got, err, c.Href)
			}
			continue
		}
		total++
		if c.Failure {
			failures++
			if err != nil {
				exact++
				continue
			}
			if reason, ok := wptResolveDeviations[[2]string{c.Input, base}]; ok {
				listed++
				t.Logf("deviation %q against %q: %s", c.Input, base, reason)
				continue
			}
			t.Errorf("Resolve(%q, %q) = %q, want an error", base, c.Input, got)
			continue
		}
		if err == nil && got == c.Href {
			exact++
			continue
		}
		w, werr := whatwg.Resolve(base, c.Input)
		if werr == nil && w == c.Href {
			byFlag++
			names := attributeResolve(Safe, base, c.Input)
			if len(names) == 0 {
				t.Errorf("Resolve(%q, %q) = %q, want %q and no flag explains it", base, c.Input, got, c.Href)
			}
			for _, n := range names {
				flagCount[n]++
			}
			continue
		}
		if reason, ok := wptResolveDeviations[[2]string{c.Input, base}]; ok {
			listed++
			t.Logf("deviation %q against %q: %s", c.Input, base, reason)
			continue
		}
		t.Errorf("Resolve(%q, %q) = %q, %v (WHATWG flags only: %q, %v); want %q", base, c.Input, got, err, w, werr, c.Href)
	}
	var fs []string
	for k, v := range flagCount {
		fs = append(fs, k+"="+itoa(v))
	}
	sort.Strings(fs)
	t.Logf("WPT urltestdata with a base, special-scheme result: %d cases (%d must fail); %d equal href or fail as required, %d differ only by a Safe flag beyond WHATWG (%s), %d listed deviations; %d non-special results rejected with ErrUnsupportedScheme",
		total, failures, exact, byFlag, strings.Join(fs, " "), listed, nonSpecial)
}

// ccResolveDeviations lists url-resolve.csv cases undust answers
// differently, keyed by input and base, with the reason.
var ccResolveDeviations = map[[2]string]string{}

func TestCrawlerCommonsResolve(t *testing.T) {
	n := New(whatwgFlags)
	var total, pass, listed int
	for _, rec := range readCSV(t, "testdata/crawler-commons/url-resolve.csv") {
		if len(rec) != 3 {
			t.Fatalf("bad record %q", rec)
		}
		// JUnit's CsvFileSource reads a field in double quotes after the
		// whitespace around it is trimmed.
		for i, f := range rec {
			if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
				rec[i] = f[1 : len(f)-1]
			}
		}
		in, base, want := rec[0], rec[1], rec[2]
		total++
		checkResolve(t, base, in)
		got, err := n.Resolve(base, in)
		if err == nil && got == want {
			pass++
			continue
		}
		if reason, ok := ccResolveDeviations[[2]string{in, base}]; ok {
			listed++
			t.Logf("deviation %q against %q -> %q, %v (crawler-commons %q): %s", in, base, got, err, want, reason)
			continue
		}
		t.Errorf("Resolve(%q, %q) = %q, %v; want %q", base, in, got, err, want)
	}
	t.Logf("crawler-commons url-resolve: %d/%d pass, %d listed deviations", pass, total, listed)
}

func TestResolveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	n := New(Crawler)
	buf := make([]byte, 0, 1024)
	for _, ref := range []string{"c.html?b=2&a=1", "../c", "/c?utm_source=x", "//o.com/c", "#f", "", "https://o.com/c?b&a", "http:c"} {
		const base = "https://example.com/a/b/index.html?x=1"
		b, err := n.Base(base)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(100, func() {
			buf, _ = n.AppendResolveKey(buf[:0], base, ref)
			buf, _ = n.AppendResolve(buf[:0], base, ref)
			buf, _ = b.AppendResolveKey(buf[:0], ref)
			buf, _ = b.AppendResolve(buf[:0], ref)
		})
		if allocs != 0 {
			t.Errorf("AppendResolveKey(%q, %q) allocates %.1f times", base, ref, allocs)
		}
	}
}
