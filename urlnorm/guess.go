package urlnorm

// What GuessScheme accepts as a host.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// errNoHost is the cause GuessScheme gives for input that does not start
// with a host. It wraps ErrNotAbsolute: like any input without a scheme, it
// needs a base URL (ResolveKey).
var errNoHost = fmt.Errorf("%w, and no host to guess http for (resolve a relative reference against its base URL)", ErrNotAbsolute)

// guessable reports whether s, input without a scheme, starts with
// something that looks like a host, so that GuessScheme may read it as
// http://s. An optional "//" (or backslashes) may come first; userinfo and
// a port may surround the host. Everything else is a relative reference an
// href can hold ("/a", "./a", "../a", "?q", "#f", "page", "page.html") and
// is refused: reading its first segment as a host makes a key for a site
// that does not exist.
func guessable(s string) bool {
	if len(s) >= 2 && isSlash(s[0]) && isSlash(s[1]) {
		s = s[2:]
	}
	a := s[:authorityEnd(s)]
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		a = a[at+1:]
	}
	host, _, _ := splitHostPortWHATWG(a)
	return looksLikeHost(host)
}

// looksLikeHost reports whether h (as written, before any normalization) is
// an IPv6 literal, "localhost", or a dotted name whose last label is a
// number (an IPv4 address, checked later), non-ASCII or escaped (an
// internationalized top-level domain, checked later by IDNA), a top-level
// domain of the ICANN section of the public suffix list, or one of the
// top-level names RFC 6761 reserves (test, example, invalid, localhost).
// "index.php" and "page.html" are not hosts; "readme.md" is (.md is
// Moldova's), which only a base URL can settle.
func looksLikeHost(h string) bool {
	if h == "" {
		return false
	}
	if h[0] == '[' {
		return true
	}
	if h[len(h)-1] == '.' {
		h = h[:len(h)-1] // a fully qualified name
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	dot := strings.LastIndexByte(h, '.')
	if dot <= 0 || dot == len(h)-1 || h[0] == '.' || strings.Contains(h, "..") {
		return false
	}
	tld := h[dot+1:]
	if len(tld) > 63 {
		return false
	}
	var buf [63]byte
	digits := true
	for i := 0; i < len(tld); i++ {
		c := tld[i]
		if c >= utf8.RuneSelf || c == '%' {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !isDigit(c) {
			digits = false
		}
		buf[i] = c
	}
	t := string(buf[:len(tld)])
	if digits || strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "xn--") {
		return true
	}
	switch t {
	case "test", "example", "invalid", "localhost":
		return true
	}
	_, icann := publicsuffix.PublicSuffix(t)
	return icann
}
