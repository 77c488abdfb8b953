package htmltext

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// isVoid reports elements that never have content.
func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr, atom.Keygen:
		return true
	}
	return false
}

// isBlock reports elements whose boundaries end a paragraph.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Br,
		atom.Caption, atom.Center, atom.Dd, atom.Details, atom.Dialog, atom.Dir, atom.Div,
		atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup,
		atom.Hr, atom.Html, atom.Legend, atom.Li, atom.Listing, atom.Main, atom.Menu, atom.Nav,
		atom.Ol, atom.Option, atom.P, atom.Plaintext, atom.Pre, atom.Section, atom.Summary,
		atom.Table, atom.Tbody, atom.Td, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead,
		atom.Tr, atom.Ul, atom.Button, atom.Select, atom.Iframe, atom.Video, atom.Audio,
		atom.Canvas, atom.Noscript, atom.Object, atom.Frameset, atom.Frame:
		return true
	}
	return false
}

// boilerContains are name parts that mark template blocks wherever they
// occur in a part ("navheader", "site-menu", "leftsidebar").
var boilerContains = [][]byte{
	[]byte("nav"), []byte("menu"), []byte("sidebar"), []byte("footer"), []byte("breadcrumb"),
	[]byte("comment"), []byte("advert"), []byte("banner"), []byte("popular"),
	[]byte("sponsor"), []byte("social"), []byte("cookie"), []byte("widget"),
}

// boilerEquals are name parts that mark template blocks only as a whole
// part ("ad" but not "head", "share" but not "shared").
var boilerEquals = [][]byte{
	[]byte("ad"), []byte("ads"), []byte("header"), []byte("masthead"), []byte("toolbar"),
	[]byte("pager"), []byte("pagination"), []byte("versions"), []byte("skip"), []byte("share"),
	[]byte("sharing"), []byte("promo"), []byte("disqus"), []byte("related"), []byte("relatedposts"),
}

// boilerName reports whether a class or id value names a template block.
func boilerName(v []byte) bool {
	var buf [64]byte
	for part := range nameParts(v, buf[:0]) {
		for _, w := range boilerContains {
			if bytes.Contains(part, w) {
				return true
			}
		}
		for _, w := range boilerEquals {
			if bytes.Equal(part, w) {
				return true
			}
		}
	}
	return false
}

// isTOCName reports a table-of-contents container.
func isTOCName(v []byte) bool {
	var buf [64]byte
	for part := range nameParts(v, buf[:0]) {
		if bytes.Equal(part, []byte("toc")) {
			return true
		}
	}
	return false
}

// nameParts yields the lower-cased parts of a class or id value split at
// anything that is not an ASCII letter or digit. Parts longer than the
// buffer are cut; the buffer is reused between parts.
func nameParts(v []byte, buf []byte) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		part := buf[:0]
		for i := 0; i <= len(v); i++ {
			var c byte
			if i < len(v) {
				c = v[i]
			}
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				if len(part) > 0 && !yield(part) {
					return
				}
				part = part[:0]
				continue
			}
			if len(part) < cap(buf) {
				part = append(part, c)
			}
		}
	}
}

// boilerRole reports ARIA landmark roles that are not main content.
func boilerRole(v []byte) bool {
	switch string(bytes.ToLower(bytes.TrimSpace(v))) {
	case "navigation", "banner", "complementary", "contentinfo", "search":
		return true
	}
	return false
}

// displayNone reports an inline style that hides the element.
func displayNone(v []byte) bool {
	var b [128]byte
	n := 0
	for _, c := range v {
		if c == ' ' || c == '\t' || c == '\n' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if n == len(b) {
			break
		}
		b[n] = c
		n++
	}
	return bytes.Contains(b[:n], []byte("display:none")) || bytes.Contains(b[:n], []byte("visibility:hidden"))
}
