package htmltext

import "github.com/cespare/xxhash/v2"

// Boilerplate learns the paragraphs that repeat across the pages of one
// site (a page template: menus, footers, banners) and drops them from pages.
// Feed it pages of one host with Add, then call Strip.
//
// A paragraph is template when it occurs in at least MinPages pages and in
// at least MinFraction of the pages added. Both bounds matter: a sentence
// shared by two copies of one article is content, not template, and in a
// large site a block that a handful of pages share (a "see also" list of a
// section) need not be template either.
//
// The zero value is ready to use with the defaults. A Boilerplate is not
// safe for concurrent use. It keeps 8 bytes per distinct paragraph and no
// text; it never modifies the Text values it is given.
type Boilerplate struct {
	// MinPages is the least number of pages a template paragraph occurs
	// in; 0 means 3.
	MinPages int
	// MinFraction is the least fraction of the added pages a template
	// paragraph occurs in; 0 means 0.5.
	MinFraction float64

	pages int
	count map[uint64]int
}

// Add counts the distinct paragraphs of one page of the site.
func (b *Boilerplate) Add(t Text) {
	if b.count == nil {
		b.count = make(map[uint64]int)
	}
	b.pages++
	seen := make(map[uint64]struct{}, len(t.Paragraphs))
	for _, p := range t.Paragraphs {
		h := xxhash.Sum64String(p)
		if _, ok := seen[h]; ok {
			continue
		}
		seen[h] = struct{}{}
		b.count[h]++
	}
}

// Pages returns the number of pages added.
func (b *Boilerplate) Pages() int { return b.pages }

// IsTemplate reports whether paragraph p is template under the pages seen
// so far.
func (b *Boilerplate) IsTemplate(p string) bool {
	n := b.count[xxhash.Sum64String(p)]
	minPages := b.MinPages
	if minPages <= 0 {
		minPages = 3
	}
	frac := b.MinFraction
	if frac <= 0 {
		frac = 0.5
	}
	return n >= minPages && float64(n) >= frac*float64(b.pages)
}

// Strip returns t without its template paragraphs. If every paragraph is
// template it returns t unchanged, so that a page is never emptied. The
// returned Text does not share its Paragraphs slice with t.
func (b *Boilerplate) Strip(t Text) Text {
	out := Text{Title: t.Title}
	for _, p := range t.Paragraphs {
		if !b.IsTemplate(p) {
			out.Paragraphs = append(out.Paragraphs, p)
		}
	}
	if len(out.Paragraphs) == 0 {
		out.Paragraphs = append([]string(nil), t.Paragraphs...)
	}
	return out
}
