package learn

import (
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Hosts with ports. A site served on a port that is not its scheme's default
// (http://127.0.0.1:8080/) is a site of its own: another port of the same host name is another
// server, and a rule learned on one must not rewrite the URLs of the other. So the learner
// names hosts by their host name and port ("127.0.0.1:8080"; the default port is left out by
// urlnorm's Crawler key), and a rule of package rules, whose scope is a host name, carries the
// port as a condition of its context (port = "8080"). Deep-token patterns are kept by host name,
// as package rules looks them up.

// splitAuthority splits an authority of Prepare's form, [userinfo@]host[:port], into its host
// name and port ("" for none), and reports whether it has user information.
func splitAuthority(a string) (host, port string, user bool) {
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a, user = a[i+1:], true
	}
	if i := strings.LastIndexByte(a, ':'); i >= 0 && !strings.HasSuffix(a, "]") {
		return a[:i], a[i+1:], user
	}
	return a, "", user
}

// joinHostPort is the inverse of splitAuthority without user information.
func joinHostPort(host, port string) string {
	if port == "" {
		return host
	}
	return host + ":" + port
}

// hostPort returns the lowercased host name of u with its port when the port is not the
// scheme's default ("127.0.0.1:8080", "example.com"), or "" when u has no host.
func hostPort(u *url.URL) string {
	h := strings.ToLower(u.Hostname())
	if h == "" {
		return ""
	}
	if strings.IndexByte(h, ':') >= 0 { // an IPv6 literal, bracketed again
		h = "[" + h + "]"
	}
	p := u.Port()
	if p == "" || p == "80" && strings.EqualFold(u.Scheme, "http") || p == "443" && strings.EqualFold(u.Scheme, "https") {
		return h
	}
	return h + ":" + p
}

// registrableDomain returns the registrable domain (public suffix + 1) of a host name, with the
// port of hp if it has one ("www.example.co.uk:8080" -> "example.co.uk:8080"), or hp itself
// when the host has none (an IP address, a bare public suffix).
func registrableDomain(hp string) string {
	h, p, _ := splitAuthority(hp)
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return joinHostPort(d, p)
	}
	return hp
}
