package main

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"github.com/cespare/xxhash/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/undust/undust/htmltext"
)

// A truth is the identity of a page for scoring: the xxhash of its normalized main text. It
// does not use what is measured (undust's keys and fingerprints): two fetches are the same page
// exactly when their truths are equal.
type truth uint64

// How a truth was taken, the first byte hashed, so that truths of different kinds never meet.
const (
	kindElement = 'e' // the text of the elements the selector matched
	kindPage    = 'p' // an HTML page the selector matched nothing in: its whole text
	kindRaw     = 'r' // a body that is not HTML: its bytes
)

// A truther takes the truth of response bodies: the normalized visible text of the elements
// that a CSS selector matches (the outermost ones, text nodes in document order, without
// script, style, noscript and template elements and without the elements that the ignore
// selector matches), or with undust set, the main content that htmltext.Extract finds. A page
// that the selector matches nothing in is scored by its whole text, and counted (nomatch), so
// that a user can tell a wrong selector. It is safe for concurrent use.
type truther struct {
	sel    cascadia.Selector // nil with undust
	ignore cascadia.Selector // nil for none
	undust bool
}

// newTruther parses the -truth flag, a CSS selector or "undust", and the -ignore flag, a CSS
// selector of elements whose text is left out ("" for none).
func newTruther(spec, ignore string) (*truther, error) {
	t := &truther{}
	if ignore != "" {
		ig, err := cascadia.Compile(ignore)
		if err != nil {
			return nil, fmt.Errorf("-ignore %q: %w", ignore, err)
		}
		t.ignore = ig
	}
	if spec == "undust" {
		if ignore != "" {
			return nil, errors.New("-ignore applies to a -truth selector, not to undust")
		}
		t.undust = true
		return t, nil
	}
	if strings.TrimSpace(spec) == "" {
		return nil, errors.New("empty -truth selector")
	}
	sel, err := cascadia.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("-truth %q: %w", spec, err)
	}
	t.sel = sel
	return t, nil
}

// of returns the truth of a body served with the given Content-Type, and whether the selector
// matched nothing in it (an HTML page scored by its whole text).
func (t *truther) of(contentType string, body []byte) (tr truth, nomatch bool) {
	tr, _, nomatch = t.text(contentType, body)
	return tr, nomatch
}

// text is of with the normalized text the truth was taken from.
func (t *truther) text(contentType string, body []byte) (truth, string, bool) {
	if !isHTML(contentType, body) {
		return sum(kindRaw, string(body)), "", false
	}
	if t.undust {
		txt, err := htmltext.Extract(body, htmltext.Options{MainContent: true})
		if err != nil {
			return sum(kindRaw, string(body)), "", false
		}
		s := normalize(txt.String())
		return sum(kindElement, s), s, false
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return sum(kindRaw, string(body)), "", false
	}
	if m := doc.FindMatcher(t.sel); m.Length() > 0 {
		// An element inside another matched one is in that one's text already.
		m = m.FilterFunction(func(_ int, s *goquery.Selection) bool {
			return s.ParentsMatcher(t.sel).Length() == 0
		})
		s := t.visible(m)
		return sum(kindElement, s), s, false
	}
	s := t.visible(doc.Find("body"))
	return sum(kindPage, s), s, true
}

// visible returns the normalized visible text of the selection's elements.
func (t *truther) visible(sel *goquery.Selection) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			}
			if t.ignore != nil && t.ignore.Match(n) {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range sel.Nodes {
		walk(n)
		b.WriteByte(' ')
	}
	return normalize(b.String())
}

func isHTML(contentType string, body []byte) bool {
	if contentType == "" {
		return bytes.Contains(bytes.ToLower(body[:min(len(body), 512)]), []byte("<html"))
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

// normalize collapses runs of white space to one space and trims the ends.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

func sum(kind byte, s string) truth {
	h := xxhash.New()
	h.Write([]byte{kind})
	h.WriteString(s)
	return truth(h.Sum64())
}

// parseHTTP parses an absolute http or https URL.
func parseHTTP(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an absolute http(s) URL", raw)
	}
	return u, nil
}
