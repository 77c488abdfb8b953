package main

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/shingle"
	"golang.org/x/net/html"
)

// visibleText is the visible text of an HTML fragment or page, its
// paragraphs (as package htmltext splits them) joined by single spaces.
// The page title is not part of it.
func visibleText(b []byte) string {
	t, err := htmltext.Extract(b, htmltext.Options{})
	if err != nil {
		return ""
	}
	return strings.Join(t.Paragraphs, " ")
}

// pageTitle is the content of a page's title element.
func pageTitle(b []byte) string {
	t, err := htmltext.Extract(b, htmltext.Options{})
	if err != nil {
		return ""
	}
	return t.Title
}

// render serializes n.
func render(n *html.Node) []byte {
	var buf bytes.Buffer
	html.Render(&buf, n)
	return buf.Bytes()
}

// renderChildren serializes the children of n.
func renderChildren(n *html.Node) string {
	var buf bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		html.Render(&buf, c)
	}
	return buf.String()
}

// mainElement parses page and returns its document and its main element
// with the doc set's drop elements removed from it, or nil when the page
// has no element matching the content selector.
func mainElement(page []byte, d *docSet) (*html.Node, *html.Node) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil
	}
	m := find(doc, d.Content)
	if m == nil {
		return doc, nil
	}
	for _, s := range d.Drop {
		for _, n := range findAll(m, s, nil) {
			if n != m && n.Parent != nil {
				n.Parent.RemoveChild(n)
			}
		}
	}
	return doc, m
}

// mainText is the true main text of a page of doc set d: the visible text
// of its content element minus its drop elements; ok is false when the
// page has no content element.
func mainText(page []byte, d *docSet) (text string, ok bool) {
	_, m := mainElement(page, d)
	if m == nil {
		return "", false
	}
	return visibleText(render(m)), true
}

// isHan reports whether the token is one CJK ideograph.
func isHan(tok string) bool {
	r, n := utf8.DecodeRuneInString(tok)
	return n == len(tok) && unicode.Is(unicode.Han, r)
}

// contentLang is "zh" when CJK ideographs are at least 30% of the tokens
// of text, else "en".
func contentLang(text string) string {
	toks := shingle.Tokens(text, shingle.Options{})
	han := 0
	for _, t := range toks {
		if isHan(t) {
			han++
		}
	}
	if len(toks) > 0 && float64(han) >= 0.3*float64(len(toks)) {
		return "zh"
	}
	return "en"
}

// countTokens is the number of tokens of text.
func countTokens(text string) int { return len(shingle.Tokens(text, shingle.Options{})) }

// truncateTokens returns the longest prefix of text, cut at a rune
// boundary, with at most n tokens, without a trailing partial token.
func truncateTokens(text string, n int) string {
	if countTokens(text) <= n {
		return text
	}
	// Cut at white space when the text has it, else (Chinese) at runes.
	var cuts []int
	for i, r := range text {
		if unicode.IsSpace(r) || isHan(string(r)) {
			cuts = append(cuts, i)
		}
	}
	lo, hi := 0, len(cuts)-1
	best := ""
	for lo <= hi {
		mid := (lo + hi) / 2
		s := strings.TrimSpace(text[:cuts[mid]])
		if countTokens(s) <= n {
			best = s
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	return best
}

// sentences splits a paragraph into rough sentences.
func sentences(p string) []string {
	var out []string
	start := 0
	for i, r := range p {
		end := -1
		switch r {
		case '.', '!', '?':
			if i+1 == len(p) || p[i+1] == ' ' {
				end = i + 1
			}
		case '。', '！', '？':
			end = i + utf8.RuneLen(r)
		}
		if end > 0 {
			if s := strings.TrimSpace(p[start:end]); s != "" {
				out = append(out, s)
			}
			start = end
		}
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		out = append(out, s)
	}
	return out
}
