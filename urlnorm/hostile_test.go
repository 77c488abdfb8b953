package urlnorm

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"github.com/undust/undust/internal/hostile"
)

// slowFoldWWW is the obviously correct foldWWW: remove one www label at a
// time, asking the public suffix list about the whole rest each time.
func slowFoldWWW(dst []byte, hostStart int) []byte {
	for {
		h := dst[hostStart:]
		if len(h) < 4 || string(h[:3]) != "www" {
			return dst
		}
		i := 3
		for i < len(h) && isDigit(h[i]) {
			i++
		}
		if i+1 >= len(h) || h[i] != '.' || h[i+1] == '.' || endsInNumber(h[i+1:]) {
			return dst
		}
		rest := string(h[i+1:])
		if ps, _ := publicsuffix.PublicSuffix(rest); ps == rest {
			return dst
		}
		copy(h, h[i+1:])
		dst = dst[:len(dst)-(i+1)]
	}
}

func TestFoldWWWReference(t *testing.T) {
	var hosts []string
	// Public suffixes of every shape: plain, multi-label, wildcard
	// (*.kawasaki.jp, *.ck), exception (!www.ck, !city.kawasaki.jp),
	// private (blogspot.com, github.io), unlisted, numeric.
	tails := []string{"a.com", "com", "co.uk", "a.co.uk", "ck", "www.ck", "a.www.ck", "kawasaki.jp",
		"x.kawasaki.jp", "city.kawasaki.jp", "a.city.kawasaki.jp", "blogspot.com", "a.blogspot.com",
		"github.io", "x.github.io", "unlisted", "a.unlisted", "1.2.3.4", "a.0x1f", "a.com.", "co.uk.",
		"", ".", "..a", "www", "www2", "www.", "wwwx.com", "www1a.com", "a", "s3.amazonaws.com",
		"x.s3.amazonaws.com", "compute.amazonaws.com", "x.compute.amazonaws.com", "bd", "x.bd", "a.x.bd"}
	prefixes := []string{"", "www.", "www2.", "www12.", "www.www.", "www.www2.www.", "www..", "www3.www.", "wwwa."}
	for _, p := range prefixes {
		for _, tl := range tails {
			hosts = append(hosts, p+tl)
		}
	}
	hosts = append(hosts, strings.Repeat("www.", 300)+"a.com", strings.Repeat("www.", 300)+"co.uk",
		strings.Repeat("www.", 30)+"x.kawasaki.jp", strings.Repeat("www.", 30)+"ck", strings.Repeat("www.", 30)+"7")
	for _, h := range hosts {
		buf := []byte("http://" + h)
		want := string(slowFoldWWW([]byte(string(buf)), 7))
		got := string(foldWWW(buf, 7))
		if got != want {
			t.Errorf("foldWWW(%q) = %q, want %q (reference)", h, got, want)
		}
	}
}

// TestFoldWWWLinear: every www label removed used to copy the rest of the
// host and ask the public suffix list about it, quadratic in the labels.
func TestFoldWWWLinear(t *testing.T) {
	n, err := NewOptions(Aggressive, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := n.Key(hostile.RepeatedLabels("www.", 3)); got != "http://a.com/" || err != nil {
		t.Fatalf("Key(www.www.www.a.com) = %q, %v", got, err)
	}
	hostile.Linear(t, hostile.Growth{Sizes: []int{1 << 11, 1 << 12, 1 << 13, 1 << 14}}, func(k int) int {
		if _, err := n.Key(hostile.RepeatedLabels("www.", k)); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}

func TestGuessSchemeInvisible(t *testing.T) {
	key := New(Aggressive)
	tests := []struct {
		in      string
		key     string
		keyErr  error
		canonOK bool // whether Canonical accepts it
	}{
		// Leading invisible characters: stripped by GuessScheme only.
		{"\ufeffhttps://www.sec.gov/edgar.shtml", "http://sec.gov/edgar.shtml", nil, false},
		{"\u200bhttp://a.com/x", "http://a.com/x", nil, false},
		{"\u200e\u00a0 \u2060http://a.com/x", "http://a.com/x", nil, false},
		{hostile.LeadingInvisible("https://a.com/"), "http://a.com/", nil, false},
		{"\ufeffa.com/x", "http://a.com/x", nil, false},
		{"\u00adhttp://a.com/", "http://a.com/", nil, false},
		// Not invisible: kept, so the input is no URL with a scheme.
		{"\u00e9http://a.com/", "", ErrUnsupportedScheme, false},
		// An invisible character inside the scheme: never a host "https".
		{"h\ufeffttps://a.com/", "", ErrUnsupportedScheme, false},
		{"ht\u200btp://a.com/", "", ErrUnsupportedScheme, false},
		{"a.b://c.com/", "", ErrUnsupportedScheme, false},
		{"\ufeffmailto:a@b.com", "", ErrUnsupportedScheme, false},
		// Unchanged: guessing still works for hosts and host:port.
		{"a.com/b", "http://a.com/b", nil, false},
		{"a.com:8080", "http://a.com:8080/", nil, false},
		{"a.com:8080/x", "http://a.com:8080/x", nil, false},
		{"https://a.com/", "http://a.com/", nil, true},
	}
	for _, tt := range tests {
		got, err := key.Key(tt.in)
		if got != tt.key || !errors.Is(err, tt.keyErr) {
			t.Errorf("Key(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.key, tt.keyErr)
		}
		if err == nil {
			if again, err := key.Key(got); again != got || err != nil {
				t.Errorf("Key(Key(%q)) = %q, %v; want %q", tt.in, again, err, got)
			}
			if strings.Contains(got, "//https") || strings.Contains(got, "//http/") {
				t.Errorf("Key(%q) = %q puts the scheme in the host", tt.in, got)
			}
		}
		_, err = New(Safe).Canonical(tt.in)
		if (err == nil) != tt.canonOK {
			t.Errorf("Canonical(%q) error = %v, want ok=%v", tt.in, err, tt.canonOK)
		}
		// Without GuessScheme, a leading invisible character leaves the
		// input without a scheme, as WHATWG reads it.
		if tt.in[0] >= utf8.RuneSelf && !errors.Is(err, ErrNotAbsolute) {
			t.Errorf("Canonical(%q) error = %v, want ErrNotAbsolute", tt.in, err)
		}
	}
}

// hostileURLs are the adversarial URL shapes of the linearity tests, each of
// about n bytes or more.
var hostileURLs = []struct {
	name string
	gen  func(n int) string
}{
	{"www-labels", func(n int) string { return hostile.RepeatedLabels("www.", n/4) }},
	{"www2-labels", func(n int) string { return hostile.RepeatedLabels("www2.", n/5) }},
	{"empty-labels", func(n int) string { return hostile.RepeatedLabels(".", n) }},
	{"labels", func(n int) string { return hostile.RepeatedLabels("a.", n/2) }},
	{"idna-labels", func(n int) string { return hostile.RepeatedLabels("é.", n/3) }},
	{"dotdot", func(n int) string { return hostile.RepeatedSegments("../", n/3) }},
	{"dot", func(n int) string { return hostile.RepeatedSegments("./", n/2) }},
	{"escaped-dotdot", func(n int) string { return hostile.RepeatedSegments("%2e%2E/", n/7) }},
	{"segments", func(n int) string { return hostile.RepeatedSegments("a/", n/2) }},
	{"slashes", func(n int) string { return hostile.RepeatedSegments("/", n) }},
	{"sessions", func(n int) string { return hostile.RepeatedSegments(";jsessionid=1/", n/14) }},
	{"distinct-params", func(n int) string { return hostile.QueryParams(n/6, true) }},
	{"same-params", func(n int) string { return hostile.QueryParams(n/6, false) }},
	{"empty-params", func(n int) string { return "http://a.com/?" + strings.Repeat("&", n) }},
	{"escapes", func(n int) string { return hostile.PercentEscapes(n / 40) }},
	{"invisible", func(n int) string { return strings.Repeat("\u200b", n/3) + "http://a.com/" }},
}

// TestHostileLinear checks that Key, Canonical and Tokenize cost at most
// linear bytes, CPU time and output in the input for every hostile shape.
func TestHostileLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	n, err := NewOptions(Aggressive, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewOptions(Safe, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// Key grows its buffer by append, whose size classes let the bytes of
	// one doubling grow by up to 3 without anything quadratic.
	sizes := hostile.Growth{Sizes: []int{1 << 12, 1 << 13, 1 << 14, 1 << 15}, MaxBytesRatio: 3, Repeat: 5}
	if raceEnabled {
		sizes.MaxCPURatio = -1 // see race_test.go: bytes allocated still bound the work
	}
	for _, h := range hostileURLs {
		t.Run(h.name, func(t *testing.T) {
			in := map[int]string{}
			for _, k := range sizes.Sizes {
				in[k] = h.gen(k)
			}
			for _, f := range []struct {
				name string
				run  func(string) (string, error)
			}{{"Key", n.Key}, {"Canonical", c.Canonical}} {
				run := func(k int) int {
					out, _ := f.run(in[k])
					toks, _ := Tokenize(nil, out)
					return len(out) + len(toks)
				}
				run(sizes.Sizes[0]) // first use initializes tables
				hostile.Linear(t, sizes, run)
			}
		})
	}
}

// TestTokenizeManyParams checks the map that numbers parameters past
// scanParams against the scan.
func TestTokenizeManyParams(t *testing.T) {
	for _, q := range []string{hostile.QueryParams(100, false), hostile.QueryParams(100, true),
		"http://a.com/?" + strings.Repeat("a&b=1&a=2&", 20)} {
		toks, err := Tokenize(nil, q)
		if err != nil {
			t.Fatal(err)
		}
		for i, tok := range toks {
			if tok.Part != PartQuery {
				continue
			}
			want := int16(1)
			for _, u := range toks[:i] {
				if u.Part == PartQuery && u.Name == tok.Name {
					want++
				}
			}
			if tok.Pos != want {
				t.Fatalf("Tokenize(%q): parameter %d %q has Pos %d, want %d", q, i, tok.Name, tok.Pos, want)
			}
		}
	}
}
