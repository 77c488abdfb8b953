// Package hrefs finds the links of a page for the crawl loops of the examples and tests: the
// absolute http(s) URLs of its <a href> elements.
package hrefs

import (
	"bytes"
	"net/url"

	"golang.org/x/net/html"
)

// Links returns the http(s) URLs of the <a href> links of the page body, resolved against base,
// in document order, fragments kept; nil if base does not parse.
func Links(base string, body []byte) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			name, more := z.TagName()
			if string(name) != "a" {
				continue
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) != "href" {
					continue
				}
				if ref, err := url.Parse(string(v)); err == nil {
					if abs := b.ResolveReference(ref); abs.Scheme == "http" || abs.Scheme == "https" {
						out = append(out, abs.String())
					}
				}
			}
		}
	}
}
