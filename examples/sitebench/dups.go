package main

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// A patterner generalizes URLs into patterns by what the URLs of one log show: a value at a
// place (a path segment's position under its first segment, a query parameter's name) is kept
// when it is common there, in at least 1% of the URLs and 5 of them (an action, a view), and
// is "*" otherwise (a page's name, a date); digits are N and hexadecimal ids H wherever they
// stand.
type patterner struct {
	count  map[[2]string]int // place, value -> URLs with that value there
	common int               // the count at which a value is kept
}

// parts splits a URL into its places and values: path segments, then query parameters, which
// may be separated by & or ; (as gitweb does).
func parts(raw string) (path []string, query [][2]string) {
	u, err := url.Parse(raw)
	if err != nil {
		return []string{raw}, nil
	}
	path = strings.Split(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
	for _, kv := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		query = append(query, [2]string{k, v})
	}
	return path, query
}

func pathPlace(path []string, i int) string {
	if i == 0 {
		return "p0"
	}
	return "p" + strconv.Itoa(i) + "/" + path[0]
}

func newPatterner(urls []string) *patterner {
	p := &patterner{count: map[[2]string]int{}, common: max(5, len(urls)/100)}
	for _, u := range urls {
		path, query := parts(u)
		for i, s := range path {
			p.count[[2]string{pathPlace(path, i), s}]++
		}
		for _, kv := range query {
			p.count[[2]string{"q" + kv[0], kv[1]}]++
		}
	}
	return p
}

func (p *patterner) value(place, v string) string {
	switch {
	case v == "":
		return ""
	case isDigits(v):
		return "N"
	case len(v) >= 6 && isHexID(v):
		return "H"
	case p.count[[2]string{place, v}] < p.common:
		return "*"
	}
	return v
}

// pattern returns the pattern of raw, without scheme and host.
func (p *patterner) pattern(raw string) string {
	path, query := parts(raw)
	var b strings.Builder
	for i, s := range path {
		b.WriteByte('/')
		b.WriteString(p.value(pathPlace(path, i), s))
	}
	for i, kv := range query {
		b.WriteByte("?&"[min(i, 1)])
		b.WriteString(kv[0])
		b.WriteByte('=')
		b.WriteString(p.value("q"+kv[0], kv[1]))
	}
	return b.String()
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isHexID reports whether s is lowercase hexadecimal with at least one digit and one letter.
func isHexID(s string) bool {
	digit, letter := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// writeDups prints the fetches of an already-fetched page grouped by the pattern of their URL
// and that of the URL which first fetched the page, the largest groups first.
func writeDups(w io.Writer, fetches []loggedFetch, top int) {
	urls := make([]string, len(fetches))
	for i, f := range fetches {
		urls[i] = f.url
	}
	p := newPatterner(urls)
	type group struct {
		dup, first     string // patterns
		n              int
		exDup, exFirst string // an example
	}
	first := map[string]string{} // truth -> the URL that first fetched it
	groups := map[[2]string]*group{}
	again, ok := 0, 0
	for _, f := range fetches {
		if f.truth == "-" {
			continue
		}
		ok++
		orig, seen := first[f.truth]
		if !seen {
			first[f.truth] = f.url
			continue
		}
		again++
		k := [2]string{p.pattern(f.url), p.pattern(orig)}
		if f.url == orig {
			// The crawler asked for the URL again, with another fragment perhaps: the
			// proxy sees none.
			k[1] = "(the same URL)"
		}
		g := groups[k]
		if g == nil {
			g = &group{dup: k[0], first: k[1], exDup: f.url, exFirst: orig}
			groups[k] = g
		}
		g.n++
	}
	list := make([]*group, 0, len(groups))
	for _, g := range groups {
		list = append(list, g)
	}
	slices.SortFunc(list, func(a, b *group) int {
		return cmp.Or(b.n-a.n, strings.Compare(a.dup, b.dup), strings.Compare(a.first, b.first))
	})
	fmt.Fprintf(w, "%d fetches, %d with status 200, %d of an already-fetched page, in %d groups by URL pattern\n\n",
		len(fetches), ok, again, len(list))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "count\tshare\tURL pattern\tpage first fetched as\texample\tfirst fetched as")
	for i, g := range list {
		if i == top {
			rest := 0
			for _, g := range list[top:] {
				rest += g.n
			}
			fmt.Fprintf(tw, "%d\t%.1f%%\t(%d more groups)\t\t\t\n", rest, 100*float64(rest)/float64(again), len(list)-top)
			break
		}
		fmt.Fprintf(tw, "%d\t%.1f%%\t%s\t%s\t%s\t%s\n", g.n, 100*float64(g.n)/float64(again), g.dup, g.first, g.exDup, g.exFirst)
	}
	tw.Flush()
}
