package urlnorm

import (
	"errors"
	"testing"
)

func TestCanonical(t *testing.T) {
	n := New(Safe)
	tests := []struct {
		in, want string
	}{
		{"HTTP://Example.COM/", "http://example.com/"},                               // lower-case scheme and host
		{"http://example.com", "http://example.com/"},                                // empty path is /
		{"http://example.com:80/a", "http://example.com/a"},                          // default port
		{"https://example.com:443/a", "https://example.com/a"},                       // default port https
		{"http://example.com:8080/a", "http://example.com:8080/a"},                   // other port kept
		{"http://example.com:0080/a", "http://example.com/a"},                        // leading zeros in port
		{"http://example.com:/a", "http://example.com/a"},                            // empty port separator
		{"http://example.com./a", "http://example.com/a"},                            // trailing dot
		{"http://0x7f.1/", "http://127.0.0.1/"},                                      // hex IPv4, two parts
		{"http://017700000001/", "http://127.0.0.1/"},                                // octal IPv4, one part
		{"http://2130706433/", "http://127.0.0.1/"},                                  // decimal IPv4, one part
		{"http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"},                               // IPv6 compressed
		{"http://[2001:DB8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]/"},            // first longest zero run, lower-case
		{"http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"},                     // embedded IPv4 as hex pieces
		{"http://bücher.de/", "http://xn--bcher-kva.de/"},                            // IDNA
		{"http://B%C3%BCcher.de/", "http://xn--bcher-kva.de/"},                       // percent-encoded IDNA
		{"http://faß.de/", "http://xn--fa-hia.de/"},                                  // non-transitional: ß kept
		{"http://a.com/b/./c/../d", "http://a.com/b/d"},                              // dot segments
		{"http://a.com/b/%2e/c/%2E%2e/d", "http://a.com/b/d"},                        // %2e dot segments
		{"http://a.com/b/..", "http://a.com/"},                                       // trailing .. keeps slash
		{"http://a.com/../../x", "http://a.com/x"},                                   // .. above root
		{"http://a.com/%7euser/%41%2f%3F", "http://a.com/~user/A%2F%3F"},             // unreserved decoded, reserved kept and upper-cased
		{"http://a.com/%2F%3F%23%25%5C%26%3D", "http://a.com/%2F%3F%23%25%5C%26%3D"}, // reserved never decoded
		{"http://a.com/a b|c^{}", "http://a.com/a%20b%7Cc%5E%7B%7D"},                 // must-encode characters
		{"http://a.com/90%+off%zz", "http://a.com/90%25+off%25zz"},                   // stray percent
		{"http://a.com/?q=a b&x[0]=`'", "http://a.com/?q=a%20b&x%5B0%5D=%60%27"},     // query encoding
		{"http://a.com/#a b#c", "http://a.com/#a%20b%23c"},                           // fragment kept and encoded
		{" \thttp://a.com/\r\na\tb ", "http://a.com/ab"},                             // tab/CR/LF and outer spaces stripped
		{"http://u:p@a.com/", "http://u:p@a.com/"},                                   // userinfo kept
		{"http://:@a.com/", "http://a.com/"},                                         // empty userinfo dropped
		{"http://a@b@c.com/", "http://a%40b@c.com/"},                                 // last @ separates userinfo
		{"http:\\\\a.com\\b\\c", "http://a.com/b/c"},                                 // backslashes are slashes
		{"http:a.com/b", "http://a.com/b"},                                           // missing slashes
		{"http://a.com\\@b.com/", "http://a.com/@b.com/"},                            // backslash ends authority
		{"http://a.com/é", "http://a.com/%C3%A9"},                                    // non-ASCII path
		{"http://a.com/?", "http://a.com/?"},                                         // bare ? kept by Safe
		{"ws://a.com:80/", "ws://a.com/"},                                            // ws default port
		{"ftp://a.com:21/x", "ftp://a.com/x"},                                        // ftp default port
		{"file:///C:/x/../..", "file:///C:/"},                                        // drive letter not popped
		{"file://localhost/etc", "file:///etc"},                                      // localhost file host
	}
	for _, tc := range tests {
		got, err := n.Canonical(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCanonicalErrors(t *testing.T) {
	n := New(Safe)
	tests := []struct {
		in   string
		want error
	}{
		{"a.com/b", ErrNotAbsolute},                  // no scheme
		{"mailto:a@b.c", ErrUnsupportedScheme},       // non-special scheme
		{"http://", ErrInvalidHost},                  // empty host
		{"http://u@/", ErrInvalidHost},               // userinfo without host
		{"http://a.com:x/", ErrInvalidPort},          // non-digit port
		{"http://a.com:65536/", ErrInvalidPort},      // port too large
		{"http://a b.com/", ErrInvalidHost},          // space in host
		{"http://a{b}.com/", ErrInvalidHost},         // RFC 3986 forbids braces in host
		{"http://1.2.3.4.5/", ErrInvalidHost},        // IPv4 with five parts
		{"http://256.0.0.1/", ErrInvalidHost},        // IPv4 part too large
		{"http://[::1/", ErrInvalidHost},             // unclosed bracket
		{"http://[fe80::1%25eth0]/", ErrInvalidHost}, // zone id
		{"http://example%2Xcom/", ErrInvalidHost},    // bad escape in host
		{"http://abc%FEdef.org/", ErrInvalidHost},    // invalid UTF-8 in host
		{"http://xn--a.com/", ErrInvalidHost},        // invalid punycode
	}
	for _, tc := range tests {
		got, err := n.Canonical(tc.in)
		if !errors.Is(err, tc.want) {
			t.Errorf("Canonical(%q) = %q, %v; want error %v", tc.in, got, err, tc.want)
		}
	}
}

func TestAllocs(t *testing.T) {
	n := New(Crawler)
	canonical := "http://example.com/a/b?a=1&b=2"
	messy := "HTTP://Example.com:80/a/./b?b=2&a=1#f"
	buf := make([]byte, 0, 256)
	tests := []struct {
		name string
		max  float64
		f    func()
	}{
		{"AppendKey canonical input", 0, func() { buf, _ = n.AppendKey(buf[:0], canonical) }},
		{"AppendKey messy input", 0, func() { buf, _ = n.AppendKey(buf[:0], messy) }},
		{"AppendCanonical messy input", 0, func() { buf, _ = n.AppendCanonical(buf[:0], messy) }},
		{"Key canonical input", 0, func() { n.Key(canonical) }},
		{"Key messy input", 1, func() { n.Key(messy) }},
		{"Canonical messy input", 1, func() { n.Canonical(messy) }},
	}
	withEx, err := NewOptions(Crawler, Options{Exceptions: []Exception{{Domain: "slashdot.org", Keep: []string{"sid"}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct {
		name string
		max  float64
		f    func()
	}{"AppendKey with a domain exception", 0, func() { buf, _ = withEx.AppendKey(buf[:0], "http://news.slashdot.org/a?sid=1") }})
	for _, tc := range tests {
		if got := testing.AllocsPerRun(100, tc.f); got > tc.max {
			t.Errorf("%s: %v allocs, want at most %v", tc.name, got, tc.max)
		}
	}
}
