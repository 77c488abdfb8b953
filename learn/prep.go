package learn

import (
	"net/url"
	"slices"
	"strings"
)

// Prepare returns the form of raw that the learner tokenizes: a stand-in for urlnorm's Crawler
// key until that lands in main. It makes only changes no site can tell apart (lowercase scheme
// and host, default port, fragment) and two that crawlers make everywhere: it drops empty query
// parameters (the bare "?" and the trailing "&") and sorts the query parameters (stably, by
// name), so that rules need not learn parameter order. It returns false for a string that is not
// an absolute http(s) URL with a host.
func Prepare(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host := strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, ":")
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if strings.ContainsAny(path, "?#") || strings.ContainsAny(host, "/?#") {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(raw))
	b.WriteString(scheme)
	b.WriteString("://")
	if u.User != nil {
		b.WriteString(u.User.String())
		b.WriteByte('@')
	}
	b.WriteString(host)
	b.WriteString(path)
	if q := u.RawQuery; q != "" {
		params := strings.Split(q, "&")
		params = slices.DeleteFunc(params, func(p string) bool { return p == "" })
		slices.SortStableFunc(params, func(a, b string) int {
			return strings.Compare(paramName(a), paramName(b))
		})
		for i, p := range params {
			if i == 0 {
				b.WriteByte('?')
			} else {
				b.WriteByte('&')
			}
			b.WriteString(p)
		}
	}
	return b.String(), true
}

func paramName(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		return p[:i]
	}
	return p
}
