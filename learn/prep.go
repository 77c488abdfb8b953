package learn

import (
	"strings"

	"github.com/undust/undust/urlnorm"
)

// crawler computes the dedup key the learner starts from.
var crawler = urlnorm.New(urlnorm.Crawler)

// Prepare returns the form of raw that the learner tokenizes and that rules rewrite: urlnorm's
// Crawler dedup key (lowercase scheme and host, no default port or fragment, query sorted,
// empty parameters, session ids and tracking parameters dropped; see urlnorm.Crawler). It returns
// false for a string that is not an absolute http or https URL, or whose key urlnorm.Tokenize
// does not accept.
func Prepare(raw string) (string, bool) {
	k, err := crawler.Key(raw)
	if err != nil || !(strings.HasPrefix(k, "http://") || strings.HasPrefix(k, "https://")) {
		return "", false
	}
	return k, true
}

// finalize brings a rewritten URL back to Prepare's form, as package rules does with every URL
// it rewrites: a rule's output and a URL prepared directly then compare equal.
func finalize(s string) string {
	if k, ok := Prepare(s); ok {
		return k
	}
	return s
}
