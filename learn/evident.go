package learn

import (
	"strings"

	"github.com/undust/undust/internal/hashid"
)

// hashAbbrev reports whether URLs a and b, observed as one page, are one URL but for one token
// (a path segment, a query name or value) whose two forms both look like hashes (hashid.Like)
// and one of which begins the other: a content-addressed store linking an object under two
// abbreviations of its hash (Fossil's /info/bb8308f9454618b1 and /info/bb8308f945). Two random
// identifiers share a prefix of hashid.MinLen characters about once in 16^8 pairs, so such a
// pair shows the site's abbreviations by itself, where any other duplicate pair may be a
// coincidence of the page's content. It costs one pass over the two URLs; Online asks it of a
// URL observed against each URL of its page (at most OnlineOptions.MaxClusterURLs).
func hashAbbrev(a, b string) bool {
	if len(a) == len(b) {
		return false
	}
	diff := -1
	for {
		ta, ra, oka := nextToken(a)
		tb, rb, okb := nextToken(b)
		if oka != okb || len(ra) == 0 != (len(rb) == 0) || len(ra) > 0 && ra[0] != rb[0] {
			return false
		}
		if !oka {
			break
		}
		if ta != tb {
			if diff >= 0 {
				return false
			}
			short, long := ta, tb
			if len(short) > len(long) {
				short, long = long, short
			}
			if !strings.HasPrefix(long, short) || !hashid.Like(short) || !hashid.Like(long) {
				return false
			}
			diff = 1
		}
		a, b = ra, rb
	}
	return diff >= 0
}

// nextToken returns the token that s begins with, up to a delimiter of URL parts (/ ? & = ; #),
// and s from that delimiter on, after it if it is s's first byte; ok is false for an empty s.
func nextToken(s string) (tok, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	if strings.IndexByte("/?&=;#", s[0]) >= 0 {
		s = s[1:]
	}
	i := strings.IndexAny(s, "/?&=;#")
	if i < 0 {
		return s, "", true
	}
	return s[:i], s[i:], true
}
