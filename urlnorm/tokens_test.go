package urlnorm

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
)

func path(pos, rpos int16, v string) Token {
	return Token{Key: Key{Part: PartPath, Pos: pos, RPos: rpos}, Value: v}
}

func query(name string, pos int16, v string, bare bool) Token {
	return Token{Key: Key{Part: PartQuery, Name: name, Pos: pos}, Value: v, Bare: bare}
}

var (
	tokScheme = func(v string) Token { return Token{Key: Key{Part: PartScheme}, Value: v} }
	tokHost   = func(v string) Token { return Token{Key: Key{Part: PartHost}, Value: v} }
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []Token
	}{
		// The root path is one empty segment (WSDM'10 Definition 1 keys it k(1,1)).
		{"http://example.com/", []Token{tokScheme("http"), tokHost("example.com"), path(1, 1, "")}},
		// Segments carry positions from the start and from the end (the paper's ag.arizona.edu example).
		{"http://ag.arizona.edu/srnr/about/art/index.html", []Token{
			tokScheme("http"), tokHost("ag.arizona.edu"),
			path(1, 4, "srnr"), path(2, 3, "about"), path(3, 2, "art"), path(4, 1, "index.html")}},
		// A trailing slash is a last, empty segment.
		{"https://a.b/dir/", []Token{tokScheme("https"), tokHost("a.b"), path(1, 2, "dir"), path(2, 1, "")}},
		// Userinfo and port are parts of their own.
		{"http://u:p@h.example:8080/x", []Token{tokScheme("http"),
			{Key: Key{Part: PartUserinfo}, Value: "u:p"}, tokHost("h.example"),
			{Key: Key{Part: PartPort}, Value: "8080"}, path(1, 1, "x")}},
		// An IPv6 literal keeps its colons inside the brackets; the port follows them.
		{"http://[2001:db8::1]:81/", []Token{tokScheme("http"), tokHost("[2001:db8::1]"),
			{Key: Key{Part: PartPort}, Value: "81"}, path(1, 1, "")}},
		{"http://[::1]/", []Token{tokScheme("http"), tokHost("[::1]"), path(1, 1, "")}},
		// Query parameters keyed by name; a repeated name counts its occurrences.
		{"http://w.example/watch?v=S9_4KMVtgw0&feature=channel&v=2", []Token{
			tokScheme("http"), tokHost("w.example"), path(1, 1, "watch"),
			query("v", 1, "S9_4KMVtgw0", false), query("feature", 1, "channel", false), query("v", 2, "2", false)}},
		// Bare parameters, empty parameters and values with "=" in them.
		{"http://h/p?print&a=&&b=x=y", []Token{tokScheme("http"), tokHost("h"), path(1, 1, "p"),
			query("print", 1, "", true), query("a", 1, "", false), query("", 1, "", true), query("b", 1, "x=y", false)}},
		// A bare "?" is one empty bare parameter, so that it survives a round trip.
		{"http://h/?", []Token{tokScheme("http"), tokHost("h"), path(1, 1, ""), query("", 1, "", true)}},
		// The fragment, empty or not, is the last token; "?" inside it is not a query.
		{"http://h/a#", []Token{tokScheme("http"), tokHost("h"), path(1, 1, "a"), {Key: Key{Part: PartFragment}}}},
		{"http://h/a?q=1#f?x=y", []Token{tokScheme("http"), tokHost("h"), path(1, 1, "a"), query("q", 1, "1", false),
			{Key: Key{Part: PartFragment}, Value: "f?x=y"}}},
		// Path parameters and doubled slashes stay inside segments: ";jsessionid=" is part of "a;jsessionid=X".
		{"http://h/a;jsessionid=X//b", []Token{tokScheme("http"), tokHost("h"),
			path(1, 3, "a;jsessionid=X"), path(2, 2, ""), path(3, 1, "b")}},
		// An empty host (file URLs).
		{"file:///etc/hosts", []Token{tokScheme("file"), tokHost(""), path(1, 2, "etc"), path(2, 1, "hosts")}},
	}
	for _, tt := range tests {
		got, err := Tokenize(nil, tt.in)
		if err != nil {
			t.Errorf("Tokenize(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Tokenize(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
		if back := Join(got); back != tt.in {
			t.Errorf("Join(Tokenize(%q)) = %q", tt.in, back)
		}
	}
}

func TestTokenizeErrors(t *testing.T) {
	for _, in := range []string{
		"",                   // empty
		"mailto:a@b.example", // opaque: no "//"
		"//h/p",              // no scheme
		"http://h",           // no path (a normalizer always writes one)
		"http://h?q",         // query but no path
		"http:/h/p",          // one slash
	} {
		toks, err := Tokenize(make([]Token, 1, 4), in)
		if !errors.Is(err, ErrNotHierarchical) {
			t.Errorf("Tokenize(%q) error = %v, want ErrNotHierarchical", in, err)
		}
		var e *Error
		if !errors.As(err, &e) || e.Op != "tokenize" || e.URL != in {
			t.Errorf("Tokenize(%q) error = %#v, want *Error with Op and URL", in, err)
		}
		if len(toks) != 1 {
			t.Errorf("Tokenize(%q) on error returned %d tokens, want dst unchanged (1)", in, len(toks))
		}
	}
	long := "http://h/" + strings.Repeat("a/", maxTokens+1)
	if _, err := Tokenize(nil, long); !errors.Is(err, ErrTooManyTokens) {
		t.Errorf("Tokenize(%d segments) error = %v, want ErrTooManyTokens", maxTokens+2, err)
	}
	longq := "http://h/?" + strings.Repeat("a&", maxTokens+1)
	if _, err := Tokenize(nil, longq); !errors.Is(err, ErrTooManyTokens) {
		t.Errorf("Tokenize(%d parameters) error = %v, want ErrTooManyTokens", maxTokens+2, err)
	}
}

func TestTokenizeAppends(t *testing.T) {
	// Tokenize appends: a second URL goes after the first one's tokens.
	toks, _ := Tokenize(nil, "http://a/x")
	toks, _ = Tokenize(toks, "http://b/y?q=1")
	if got := Join(toks[:3]); got != "http://a/x" {
		t.Errorf("first URL joined = %q", got)
	}
	if got := Join(toks[3:]); got != "http://b/y?q=1" {
		t.Errorf("second URL joined = %q", got)
	}
}

func TestJoinOrder(t *testing.T) {
	// Join groups by part in URL order and ignores positions, so a rule may append tokens
	// anywhere and delete tokens without renumbering.
	toks := []Token{
		query("b", 9, "2", false),
		path(0, 0, "x"),
		tokHost("h.example"),
		{Key: Key{Part: PartFragment}, Value: "top"},
		query("a", 0, "1", false),
		tokScheme("https"),
		path(7, 7, "y"),
	}
	if got, want := Join(toks), "https://h.example/x/y?b=2&a=1#top"; got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	// No path token: the path is "/".
	if got, want := Join([]Token{tokScheme("http"), tokHost("h"), query("q", 1, "", true)}), "http://h/?q"; got != want {
		t.Errorf("Join without path = %q, want %q", got, want)
	}
}

func TestKeyString(t *testing.T) {
	tests := []struct {
		k    Key
		want string
	}{
		{Key{Part: PartScheme}, "scheme"},
		{Key{Part: PartHost}, "host"},
		{Key{Part: PartPath, Pos: 2, RPos: 1}, "path(2,1)"},                      // k(2,1)
		{Key{Part: PartPath, Pos: 3}, "path(3,-)"},                               // k(3,-)
		{Key{Part: PartPath, RPos: 1}, "path(-,1)"},                              // k(-,1)
		{Key{Part: PartPath, Pos: 3, RPos: 1, Sub: 2, RSub: 1}, "path(3.2,1.1)"}, // deep token k(3_2,1_1)
		{Key{Part: PartQuery, Name: "id", Pos: 1}, "query(id)"},
		{Key{Part: PartQuery, Name: "id", Pos: 2}, "query(id#2)"},
		{Key{Part: PartQuery, Name: "id", Pos: 1, Sub: 1, RSub: 3}, "query(id)[1,3]"},
		{Key{Part: 99}, "Part(99)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.k, got, tt.want)
		}
	}
}

func TestTokenizeAllocs(t *testing.T) {
	const u = "https://www.example.com/a/b/c.html?x=1&y=2&x=3#frag"
	buf := make([]Token, 0, 32)
	out := make([]byte, 0, 128)
	allocs := testing.AllocsPerRun(100, func() {
		buf, _ = Tokenize(buf[:0], u)
		out = AppendJoin(out[:0], buf)
	})
	if allocs != 0 {
		t.Errorf("Tokenize + AppendJoin into reused buffers: %v allocs, want 0", allocs)
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "http://u:p@h:1/a//b/?x=1&&y#f", "http://[::1]:8/?", "file:///x",
		"http://h/a;jsessionid=1?q=a=b&q", "x://@/", "a://:/", "h://[/", "h://]:/",
		hostile.QueryParams(500, false), hostile.QueryParams(500, true),
		hostile.RepeatedSegments("/", 2000), hostile.PercentEscapes(100),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := Tokenize(nil, s)
		if want, ok := tokenizeRef(s); ok != (err == nil) || ok && !cmp.Equal(want, toks) {
			t.Fatalf("Tokenize(%q) = %v; tokenizeRef gives ok %v (-want +got):\n%s", s, err, ok, cmp.Diff(want, toks))
		}
		if err != nil {
			return
		}
		// Lossless: joining the tokens gives the input back.
		if back := Join(toks); back != s {
			t.Fatalf("Join(Tokenize(%q)) = %q", s, back)
		}
		// Positions are consistent: path segments count 1..n from the start and n..1 from the end.
		var segs []Token
		for _, tk := range toks {
			if tk.Part == PartPath {
				segs = append(segs, tk)
			}
		}
		for i, tk := range segs {
			if int(tk.Pos) != i+1 || int(tk.RPos) != len(segs)-i {
				t.Fatalf("Tokenize(%q): segment %d has key %v", s, i, tk.Key)
			}
		}
	})
}

func TestJoinDeepTokens(t *testing.T) {
	deep := func(part Part, name string, sub, rsub int16, v string) Token {
		return Token{Key: Key{Part: part, Name: name, Sub: sub, RSub: rsub}, Value: v}
	}
	toks := []Token{
		tokScheme("http"), tokHost("www.imdb.com"),
		path(1, 3, "title"),
		// k(2_1,2_2) = tt and k(2_2,2_1) = 0810900 join back into one segment.
		deep(PartPath, "", 1, 2, "tt"), deep(PartPath, "", 2, 1, "0810900"),
		// A deleted deep token keeps its place with an empty value.
		deep(PartPath, "", 1, 3, "friends"), deep(PartPath, "", 2, 2, ""), deep(PartPath, "", 3, 1, ""),
		// Deep tokens of a query value continue the value, not the name.
		deep(PartQuery, "item", 1, 2, "W0QQ"), deep(PartQuery, "item", 2, 1, "Z1"),
		query("x", 1, "", true),
	}
	if got, want := Join(toks), "http://www.imdb.com/title/tt0810900/friends?item=W0QQZ1&x"; got != want {
		t.Errorf("Join(deep tokens) = %q, want %q", got, want)
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		e    *Error
		want string
	}{
		{&Error{Op: "key", URL: "http://[x", Err: ErrInvalidHost}, `urlnorm: key "http://[x": ` + ErrInvalidHost.Error()},
		// A zero Error still prints.
		{&Error{}, `urlnorm:  "": unknown error`},
		// Long inputs are cut at a rune boundary.
		{&Error{Op: "key", URL: strings.Repeat("a", 199) + "é" + "tail", Err: ErrTooLong},
			`urlnorm: key "` + strings.Repeat("a", 199) + `...": ` + ErrTooLong.Error()},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// appendJoinSlow is AppendJoin as the definition reads: a pass over the tokens per part, in URL
// order. It is the reference of AppendJoin's one-pass writing of tokens in order.
func appendJoinSlow(dst []byte, toks []Token) []byte {
	for p := PartScheme; p <= PartFragment; p++ {
		n := 0
		for _, t := range toks {
			if t.Part != p {
				continue
			}
			if t.Sub > 1 && n > 0 {
				dst = append(dst, t.Value...)
				continue
			}
			switch p {
			case PartScheme:
				dst = append(append(dst, t.Value...), "://"...)
			case PartUserinfo:
				dst = append(append(dst, t.Value...), '@')
			case PartHost:
				dst = append(dst, t.Value...)
			case PartPort:
				dst = append(append(dst, ':'), t.Value...)
			case PartPath:
				dst = append(append(dst, '/'), t.Value...)
			case PartQuery:
				if n == 0 {
					dst = append(dst, '?')
				} else {
					dst = append(dst, '&')
				}
				dst = append(dst, t.Name...)
				if !t.Bare {
					dst = append(append(dst, '='), t.Value...)
				}
			case PartFragment:
				dst = append(append(dst, '#'), t.Value...)
			}
			n++
		}
		if p == PartPath && n == 0 {
			dst = append(dst, '/')
		}
	}
	return dst
}

// TestAppendJoinSlow checks AppendJoin against appendJoinSlow on the tokens of corpus URLs
// edited at random: tokens deleted (Part 0), moved, given a part out of range, split into deep
// tokens, and added at the end.
func TestAppendJoinSlow(t *testing.T) {
	urls, _ := loadCorpus(t)
	if testing.Short() {
		urls = urls[:2000]
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := New(Crawler &^ DropFragment &^ DropUserinfo)
	var toks []Token
	var buf []byte
	for _, u := range urls {
		var err error
		if buf, toks, err = appendKeyTokens(n, buf[:0], toks[:0], u); err != nil {
			continue
		}
		for range 4 {
			ed := slices.Clone(toks)
			for k := r.IntN(4); k > 0 && len(ed) > 0; k-- {
				i := r.IntN(len(ed))
				switch r.IntN(6) {
				case 0:
					ed[i].Part = 0 // deleted
				case 1:
					j := r.IntN(len(ed))
					ed[i], ed[j] = ed[j], ed[i] // out of order
				case 2:
					ed = append(ed, Token{Key: Key{Part: Part(1 + r.IntN(7))}, Value: "new"}) // added at the end
				case 3:
					ed[i].Part = 8 // no part AppendJoin knows
				case 4:
					ed = slices.Insert(ed, i+1, Token{Key: Key{Part: ed[i].Part, Sub: 2}, Value: "deep"}) // a deep token
					ed[i].Sub = 1
				case 5:
					ed = ed[:i] // cut
				}
			}
			want := string(appendJoinSlow([]byte("x"), ed))
			if got := string(AppendJoin([]byte("x"), ed)); got != want {
				t.Fatalf("AppendJoin(%+v) = %q, want %q", ed, got, want)
			}
		}
	}
	if got := string(AppendJoin(nil, nil)); got != "/" {
		t.Errorf("AppendJoin(nil) = %q, want \"/\"", got)
	}
}
