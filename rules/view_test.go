package rules

import (
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// placeInputs returns URLs for the view tests: every 10th dev URL (tier.Step) and its
// noRulesURL variant, and hostile ones (many labels, segments, parameters, escapes; userinfo,
// ports, IPv6, fragments, empty paths and queries).
func placeInputs(t *testing.T) []string {
	var in []string
	ls, step := loadDev(t, 0), tier.Step(10)
	for i := 0; i < len(ls); i += step {
		in = append(in, ls[i].URL, noRulesURL(ls[i].URL))
	}
	for _, n := range []int{0, 1, 2, 17, 300} {
		in = append(in,
			hostile.RepeatedLabels("www.", n), hostile.RepeatedLabels(".", n),
			hostile.RepeatedSegments("/", n), hostile.RepeatedSegments("a/", n), hostile.RepeatedSegments("../", n),
			hostile.QueryParams(n, true), hostile.QueryParams(n, false), hostile.PercentEscapes(n),
			hostile.DistinctKeyURL(n), hostile.DistinctSegmentURL(n),
			"http://h.example/?"+strings.Repeat("&", n), "http://h.example/"+strings.Repeat("?", n)+"#"+strings.Repeat("#", n),
		)
	}
	return append(in,
		"http://u:p@h.example:8080/a/b?x=1#f", // every part
		"https://@h.example:/?",               // empty userinfo and port, a bare query
		"http://[::1]:81/#",                   // IPv6, an empty fragment, no query
		"http://[::1]/a//b/?x&&y=&x=2",        // empty segments and parameters
		"ftp://h/a/", "file:///C:/x", "http://h", "http://h?q", "http://h#f",
	)
}

// TestPlaceTokens checks that place, which finds the host, the path and the query of tokens
// from their shape, finds what scan finds in a pass over them, for the tokens of every input
// that urlnorm.Tokenize gives and that the learned set's key writer gives with a key
// (KeyLayout.AppendTokens); and that indexTokens, which scans the tokens that place turns
// away, gives scan's positions for tokens out of that shape.
func TestPlaceTokens(t *testing.T) {
	s := loadLearned(t)
	safe := urlnorm.New(urlnorm.Safe)
	var buf []byte
	var v, w view
	check := func(u string, toks []urlnorm.Token) {
		t.Helper()
		v.whole, w.whole = toks, toks
		w.scan()
		if !v.place() {
			t.Fatalf("place turns away the tokens of %.200q: %+v", u, toks)
		}
		if v.host != w.host || v.hostAt != w.hostAt || v.pathStart != w.pathStart || v.nseg != w.nseg || v.queryAt != w.queryAt {
			t.Fatalf("place of %.200q: host %q at %d, path at %d (%d segments), query at %d; scan: %q at %d, %d (%d), %d",
				u, v.host, v.hostAt, v.pathStart, v.nseg, v.queryAt, w.host, w.hostAt, w.pathStart, w.nseg, w.queryAt)
		}
	}
	checked := 0
	for _, u := range placeInputs(t) {
		if toks, err := urlnorm.Tokenize(nil, u); err == nil {
			check(u, toks)
			checked++
		}
		for _, n := range []*urlnorm.Normalizer{s.keyer, safe} {
			var l urlnorm.KeyLayout
			var err error
			if buf, err = n.AppendKeyLayout(buf[:0], u, &l); err != nil {
				continue
			}
			k := string(buf)
			toks, err := l.AppendTokens(nil, k)
			if err != nil {
				continue
			}
			check(k, toks)
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("%d token lists checked", checked)
	}

	// Tokens out of the shape, each broken where place looks.
	tok := func(p urlnorm.Part, v string) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: p}, Value: v}
	}
	seg := func(pos, rpos int16, v string) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: pos, RPos: rpos}, Value: v}
	}
	par := tok(urlnorm.PartQuery, "1")
	par.Name = "x"
	scheme, host := tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h")
	for _, tt := range []struct {
		name string
		toks []urlnorm.Token
	}{
		{"empty", nil},
		{"no scheme", []urlnorm.Token{host, seg(1, 1, "a")}},
		{"no host", []urlnorm.Token{scheme, seg(1, 1, "a")}},
		{"no path", []urlnorm.Token{scheme, host, par}},
		{"host only", []urlnorm.Token{scheme, host}},
		{"port, no path", []urlnorm.Token{scheme, host, tok(urlnorm.PartPort, "81")}},
		{"first segment not 1", []urlnorm.Token{scheme, host, seg(2, 1, "a"), par}},
		{"RPos too large", []urlnorm.Token{scheme, host, seg(1, 3, "a"), seg(2, 2, "b")}},
		{"RPos too small", []urlnorm.Token{scheme, host, seg(1, 1, "a"), seg(2, 1, "b"), par}},
		{"RPos 0", []urlnorm.Token{scheme, host, seg(1, 0, "a"), par}},
		{"last segment misnumbered", []urlnorm.Token{scheme, host, seg(1, 2, "a"), seg(3, 1, "b")}},
		{"not the last segment", []urlnorm.Token{scheme, host, seg(1, 2, "a"), seg(2, 2, "b"), par}},
		{"deleted token after the path", []urlnorm.Token{scheme, host, seg(1, 1, "a"), {}, par}},
		{"deleted host", []urlnorm.Token{scheme, {}, seg(1, 1, "a")}},
	} {
		v.whole, w.whole = tt.toks, tt.toks
		if v.place() {
			t.Errorf("place(%s) = true, want false: the tokens are out of shape", tt.name)
		}
		v.indexTokens(s)
		w.index(s)
		if !sameView(&v, &w) {
			t.Errorf("indexTokens(%s): host %q at %d, path at %d (%d segments), query at %d; index: %q at %d, %d (%d), %d",
				tt.name, v.host, v.hostAt, v.pathStart, v.nseg, v.queryAt, w.host, w.hostAt, w.pathStart, w.nseg, w.queryAt)
		}
	}
}

// TestReadFromScratch checks that a set read again with ReadFrom forgets the index trees that
// the views of its earlier calls keep for the next URL of their host (view.treesHost): the
// trees of the content before would not reach the rules of the content after.
func TestReadFromScratch(t *testing.T) {
	file := func(lines ...string) string {
		var b strings.Builder
		if _, err := mustSet(t, &Options{Key: urlnorm.Crawler}, lines...).WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	before := file(`host=h.example cov=1 prec=1 sup=1 if path(1,-)="a" then path(1,-)="b"`)
	after := file(
		`host=h.example cov=9 prec=1 sup=1 if path(1,-)="x" then path(1,-)="y"`,
		`host=h.example cov=1 prec=1 sup=1 if query("q")=* then query("q")=-`,
	)
	s, err := Load(strings.NewReader(before), nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if got, _ := s.Normalize("http://h.example/a?q=1"); got != "http://h.example/b?q=1" {
			t.Fatalf("Normalize before ReadFrom = %q, want http://h.example/b?q=1", got)
		}
	}
	if _, err := s.ReadFrom(strings.NewReader(after)); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if got, _ := s.Normalize("http://h.example/a?q=1"); got != "http://h.example/a" {
			t.Errorf("Normalize after ReadFrom = %q, want http://h.example/a", got)
		}
	}
}
