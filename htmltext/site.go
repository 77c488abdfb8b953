package htmltext

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/net/html/atom"
)

// Site learns the template of one web site from its pages and extracts
// their main content without it: blocks that repeat across the pages of a
// template are dropped whatever their tag, class or link density, so main
// content extraction holds on page templates nobody wrote a rule for.
//
// # What is learned
//
// A block is a paragraph (see [Extract]) keyed by its text and by its
// structural path: the tags and ids of the elements that enclose it, from
// the root, with the digits of an id read as 0 ("post-42" is "post-00").
// Class names are not part of the path: a class marks an element's state
// as often as its place ("current", "active", "even-row-color"), and a
// navigation tree whose entry for the page itself is marked "current"
// would otherwise have other paths on every page. The same sentence in the
// article and in a sidebar are different blocks when a tag or an id tells
// their places apart. A block with links and a label (text with a letter
// outside its links) is also counted by its link skeleton: its path and
// its text with every run of links and the separators between them read
// as one mark, so "Languages: en | fr" and "Languages: de | en | ja" are
// one block, as are "Next: Install" and "Next: Usage" (not in a page's h1,
// whose label and link are its title). A short block (at most 96 bytes) is
// also counted folded, with its digits read as 0 and the words of its
// page's URL and title read as one mark, and by its folded text up to its first
// digit: "intro.txt · Last modified: 2024/01/02 by alice" on the page
// ?id=intro is the same line on every page. A block is template when its
// text or its skeleton is.
//
// Pages are grouped, and each page is counted in several groups at once:
// its host; its host and each of its first 8 directories (one manual of a
// site that serves several, however deep its tree); and its skeleton, a
// hash of the structural paths of the page's shallow blocks (the pages of
// one template, wherever their URLs are). A block is template when, in
// some group of the page, it occurs on at least MinPages of the group's
// pages and on at least MinFraction of them. Grouping is what finds the
// table of contents of one manual among the ten manuals a host serves:
// the TOC repeats on every page of its manual, a small fraction of the
// host.
//
// # What is dropped
//
// Repetition alone would also drop what the pages of a chapter share in
// their articles: a "Syntax:" label, a note, the inherited members an API
// page lists. So [Site.Extract] weighs where a block lies on the page. The
// content root is the deepest element (an element of this page, not a
// path: a sibling sidebar of the same tags is not in it) that holds at
// least 90% of the page's prose (blocks that are neither marked as
// furniture, nor template, nor entries of a list of links; text outside
// links) and that is not just a paragraph's own element, raised to its
// ancestors while what they add is neither template, nor a list of links,
// nor marked by a tag, nor marked by a name below it (a short article's
// header and summary above its body, where the body alone holds 90% of
// the prose). An article begins with its name: when a prose block whose
// text is the page's title
// (or the part of it after a separator) lies outside that element, the
// root is the deepest element that holds both, unless that is the whole
// page (a module's header with its name and fields above the synopsis
// and the documentation of an API page, where the documentation alone
// holds 90% of the prose); a block of nothing but links before the name
// (a bar of links to the page's sections) stays outside. Then:
//
//   - inside the content root a block must repeat on 90% of a group's
//     pages, not MinFraction, to be template; a short one of text
//     followed by a content block in the same element is a field's label
//     and stays with its value ("Copyright" beside "(c) 2001 The
//     University" in a row of the article's header);
//   - a run of fewer than 3 template blocks with the page's own text on
//     both sides is an island in the article and stays, and so does a
//     longer one amid the prose of a content root that is not the whole
//     page; furniture lies at the edges (a sidebar, a colophon) or outside
//     the article in longer runs (a header of several lines, a table of
//     contents);
//   - a short block whose folded text is template, between template
//     blocks or after them at the end of the page, goes with them
//     ("Updated: 2023-06-01" between a converter's header lines), unless
//     it is the page's name; outside a content root apart from the page's
//     furniture, such a block goes wherever it lies (the id of the object
//     a repository browser shows, in a bar between the site's menus and
//     the file); and a page whose own text is nothing but such
//     blocks (a login or history page a wiki has for every page id) keeps
//     its template text without them, the same on every page of its kind;
//   - a template block with a link skeleton that the island rule keeps
//     goes when the same text is dropped elsewhere on the page: a bar of
//     links above the article, between its title and its text, whose
//     copy below the article lies at the edge;
//   - a short block of the content root that is template by its text or
//     its folded text and occurs at least twice amid the page's own text
//     is a widget of the article ("expand", "[-]", "3 replies" after each
//     paragraph of a post): it stays wherever it lies among the article's
//     blocks, in runs too, and right after the article's last block;
//   - the first or last run of content blocks goes when at least 3 dropped
//     blocks cut it off from the rest of the content and each of its
//     blocks says what a dropped block of the page says: a title bar
//     above a sidebar that echoes the sidebar's heading (a manual's name
//     on its front page, a module's name listed in the navigation), unless
//     the page's text would be nothing but such runs (an index page that
//     is its menu).
//
// Blocks that main-content mode drops by tag, class or role are dropped
// too, except under an element marked by a name, a role or a header tag
// that holds at least 80% of the page's text outside links, its first h1
// or the block that names it (part of its title): a body of class
// "no-sidebar" names a layout, and a div "header" around the title and
// summary of a reference page holds the page's own text (a nav, aside,
// footer, form, menu or dialog tag is never so misread); and except
// amid the prose of the content root (a "code-header" of every member of
// an API page, an article's list of its sections of class "menu"), or,
// for a mark by a name, a role or a header tag, at the top of the content
// root before its prose (the article's own header, under another site's
// title on a copy of the article). A list
// of links (at least 3 entries that are mostly link text, in a container
// named "toc" or not) outside the content root is a menu; at the root's
// edges it is one when some entry of it is template, or before the site
// is learned (a group of at least MinPages pages) unless it is named
// "toc"; amid the root's prose it stays. A page whose text would be empty
// keeps its main content as [Extract] gives it.
//
// # Incremental and batch
//
// Counts depend only on the set of pages added, never on their order, and
// adding a page (by URL) a second time changes nothing: a crawler that
// calls Add as pages arrive and a batch job that adds them all get the
// same Site, and so the same Extract results, from the same pages.
// [Site.WriteTo] and [Site.ReadFrom] save and restore what a Site has
// learned.
//
// # Memory
//
// Each group keeps a sample of at most SamplePages pages: those with the
// smallest hash of their URL, a choice that does not depend on the order
// of arrival. For each sampled page it keeps the hashes of its distinct
// blocks, skeletons and folded lines (at most 16,384, those with the
// smallest hashes), and a group that extraction uses (not one that
// samples the same pages as the group above it) keeps a count per
// distinct hash, about 16 bytes per key of a sampled page in all. A page
// is sampled in at most 10 groups (its host, up to 8 directories, its
// skeleton), 3 or 4 on a shallow site, and a Site keeps at most MaxGroups
// groups, those with the smallest hash of their key (again independent of
// order). So a host of 1,000 pages of 200 blocks, two directories deep,
// takes at most
// 1,000 * 4 * 200 * 16 bytes = 13 MB however many pages follow (each
// group keeps 128 pages at most); and no Site holds more than MaxGroups *
// SamplePages sampled pages, the bound a hostile site can push towards:
// with the defaults and pages of 200 blocks, 4096 * 128 * 200 * 16 bytes
// = 1.7 GB. A crawler of many or untrusted hosts keeps one Site per host
// and lowers both: MaxGroups 64 and SamplePages 32 bound a host at
// 64 * 32 * 200 * 16 bytes = 6.6 MB for such pages, and at 64 * 32 *
// 16,384 * 16 bytes = 0.5 GB for pages of 16,384 distinct blocks or
// more. Adding a page costs time linear in its size plus
// O(log SamplePages) per group, so learning a host is linear in its pages.
//
// The zero value is ready to use with the defaults and extracts with
// Options{MainContent: true}. A Site is not safe for concurrent use. It
// keeps no page text and never modifies the pages it is given.
type Site struct {
	// MinPages is the least number of pages of a group a template block
	// occurs in; 0 means 3.
	MinPages int
	// MinFraction is the least fraction of a group's pages a template
	// block occurs in; 0 means 0.5.
	MinFraction float64
	// SamplePages bounds the pages a group keeps; 0 means 128.
	SamplePages int
	// MaxGroups bounds the groups a Site keeps; 0 means 4096.
	MaxGroups int
	// Options are the extraction options; MainContent is always on.
	Options Options

	groups map[uint64]*group
	// ranks holds the kept group keys' hashes as a max-heap, to evict the
	// largest when there are more than MaxGroups.
	ranks rankHeap
}

// maxBlocks bounds the distinct blocks of one page that are learned; the
// rest of a huge page is ignored by learning (not by extraction).
const maxBlocks = 16384

// ErrURL reports a page URL that Site cannot group (no host); the error
// Add and Extract return wraps it with the URL.
var ErrURL = errors.New("htmltext: page url without host")

// group is the sample of one group's pages and the counts of their blocks.
type group struct {
	pages  pageHeap            // max-heap by URL hash: the sample
	blocks map[uint64][]uint64 // URL hash -> distinct block keys, for each page of the sample
	// counts holds, per block key, the sampled pages with it; nil until
	// a page is extracted with the group (see counted), so that the
	// groups that hold the same pages as the group above them (the deep
	// directories of a tree that all lie under one path) are never
	// counted.
	counts map[uint64]int32
	// version changes with the sample; same caches whether the sample
	// equals that of the group above, for the versions in sameAt.
	version uint64
	same    bool
	above   *group
	sameAt  [2]uint64
}

// Add learns from page, fetched from pageURL. It returns an error only for
// a URL without a host or a tokenizer failure.
func (s *Site) Add(pageURL string, page []byte) error {
	pg, err := s.read(pageURL, page)
	if err != nil {
		return err
	}
	s.add(pg)
	return nil
}

// Extract returns the main content of page, fetched from pageURL, without
// the blocks learned as template so far. It does not learn from page; call
// Add first to let the page count too.
func (s *Site) Extract(pageURL string, page []byte) (Text, error) {
	pg, err := s.read(pageURL, page)
	if err != nil {
		return Text{}, err
	}
	return s.strip(pg), nil
}

// ExtractSettled is Extract, and also reports whether the page's kind is learned in full: the
// group of the pages of its skeleton (see Site) holds SamplePages pages. Until then, a page of
// its kind added later can still change what Extract drops from this page: a crawler that
// compares the text of a page extracted early with the text of another page extracted later
// can extract the first again to compare them under the same template.
func (s *Site) ExtractSettled(pageURL string, page []byte) (Text, bool, error) {
	pg, err := s.read(pageURL, page)
	if err != nil {
		return Text{}, false, err
	}
	g := s.groups[pg.groups[len(pg.groups)-1]]
	return s.strip(pg), g != nil && len(g.pages) >= s.samplePages(), nil
}

// Pages returns the number of distinct pages learned in the group of the
// whole host of pageURL (at most SamplePages), 0 if none.
func (s *Site) Pages(pageURL string) int {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return 0
	}
	g := s.groups[groupKey('h', strings.ToLower(u.Host))]
	if g == nil {
		return 0
	}
	return len(g.pages)
}

// block is one paragraph of a page with what the site decision needs.
type block struct {
	text   string
	key    uint64
	own    int  // bytes of text outside links, 0 when that has no letter or digit
	boiler bool // template by tag, class or role
	linky  bool // a list entry that is mostly link text, in a toc or not
	toc    bool // inside a table-of-contents container
	list   int  // innermost list, 0 if none
	path   uint64
	anc    []uint64 // paths of the enclosing elements, outermost first
	ids    []int32  // numbers of the elements of anc, unique in the page
	marks  []byte   // how each of ids is marked as template (see mark)
	h1     bool     // inside an h1
	folded uint64   // key of a short block with its variable parts read as one (see fold); else 0
	prefix uint64   // key of the folded text up to its first digit; else 0
	skel   uint64   // key of the link skeleton (see linkSkeleton); else 0
}

// foldSeed keeps the keys of folded blocks apart from those of the blocks
// whose text is the folded text; skelSeed does the same for link
// skeletons.
const (
	foldSeed   = 0x9e3779b97f4a7c15
	skelSeed   = 0xc2b2ae3d27d4eb4f
	prefixSeed = 0x165667b19e3779f9
)

// linkSkeleton returns the link skeleton of a block from its residue (the
// text outside links, a linkMark for each run of link text; see
// collector.residue): every run of link text and of the punctuation and
// spaces around it becomes one linkMark, so "Languages: en | fr" and
// "Languages: de | en | ja | ko" are both "Languages" and a mark. A
// block whose links change from page to page (a bar of the languages one
// page is translated into, "Next: <title>") thus has a key that repeats
// across the pages of its template. ok is false for a block without a link
// or without a letter outside its links: a list entry that is one link, a
// breadcrumb, whose skeleton says nothing about the page's template.
func linkSkeleton(residue string) (skel string, ok bool) {
	var b strings.Builder
	letter, mark := false, false
	run, runMark := -1, false // start of the pending run of non-word bytes
	for i, r := range residue {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word {
			if run < 0 {
				run, runMark = i, false
			}
			if r == linkMark {
				runMark, mark = true, true
			}
			continue
		}
		if run >= 0 {
			if runMark {
				b.WriteByte(linkMark)
			} else {
				b.WriteString(residue[run:i])
			}
			run = -1
		}
		letter = letter || unicode.IsLetter(r)
		b.WriteRune(r)
	}
	if run >= 0 {
		if runMark {
			b.WriteByte(linkMark)
		} else {
			b.WriteString(residue[run:])
		}
	}
	return b.String(), letter && mark
}

// sitePage is a page read for learning or extraction.
type sitePage struct {
	urlHash uint64
	groups  []uint64
	title   string
	blocks  []block
	main    []string // Extract's main content, the fallback
}

// collector receives the paragraphs of one extraction.
type collector struct {
	all   string
	paras []para
	// The ancestors' paths of the paragraphs from paras[first[k]] on are
	// paths[at[k]:at[k+1]] (the last up to len(paths)), outermost first.
	first, at []int
	paths     []uint64
	// marked[k] is whether the element of paths[k] is template by its
	// tag, class, id or role (a frame's boiler).
	marked []byte
	// ids[k] numbers the element of paths[k] in the order elements
	// open: two sibling divs share a path, never a number.
	ids []int32
	// heading[k] is whether the paragraphs of flush k are inside an h1.
	heading []bool
	// stack holds the paths of the open elements and marks whether each
	// is template by tag, class, id or role; next is the path of the
	// element being opened.
	stack []uint64
	marks []byte
	h1    []bool  // whether each open element is an h1
	inH1  int     // open h1 elements
	open  []int32 // the numbers of the open elements
	count int32   // elements opened
	// closed is the element popped last while no text or element start
	// came since: the extractor ends the paragraph of an element after
	// popping it, so that paragraph lies in it too. closedOK is false
	// when there is none.
	closed   closedElem
	closedOK bool
	// last[k] is the element that flush k ended, if any (see closed).
	last []closedElem
	next uint64
	// skels holds the link skeleton of each paragraph (see residue), ""
	// for one inside pre; cur is that of the paragraph being read.
	skels []string
	cur   []byte
}

// linkMark stands for a run of link text in a link skeleton.
const linkMark = 0

// residue appends text t of the paragraph being read to its link
// skeleton: t itself outside links, one linkMark for a run of link text.
func (c *collector) residue(t []byte, link bool) {
	c.closedOK = false
	switch {
	case len(t) == 0:
	case !link:
		c.cur = append(c.cur, t...)
	case len(c.cur) == 0 || c.cur[len(c.cur)-1] != linkMark:
		c.cur = append(c.cur, linkMark)
	}
}

// endResidue records the link skeleton of the n paragraphs a flush made:
// the skeleton of one paragraph, "" for each paragraph of pre text with
// line breaks (split is true), which is split and trimmed line by line.
func (c *collector) endResidue(n int, split bool) {
	if n == 1 && !split {
		c.skels = append(c.skels, string(c.cur))
	} else {
		for range n {
			c.skels = append(c.skels, "")
		}
	}
	c.cur = c.cur[:0]
}

// chain records the open elements' paths for the paragraphs that a flush
// starting at paragraph n appends.
func (c *collector) chain(n int) {
	c.first = append(c.first, n)
	c.at = append(c.at, len(c.paths))
	c.paths = append(c.paths, c.stack...)
	c.marked = append(c.marked, c.marks...)
	c.ids = append(c.ids, c.open...)
	c.heading = append(c.heading, c.inH1 > 0 || c.closedOK && c.closed.h1)
	if c.closedOK {
		c.last = append(c.last, c.closed)
	} else {
		c.last = append(c.last, closedElem{})
	}
	c.closedOK = false
}

// push and pop follow the extractor's stack of open elements; push adds
// the path of the element start computed last (next), whether the
// element is template by tag, class, id or role, and whether it is an h1.
func (c *collector) push(boiler, aside, h1 bool) {
	c.stack = append(c.stack, c.next)
	m := markNone
	switch {
	case aside:
		m = markTag
	case boiler:
		m = markName
	}
	c.marks = append(c.marks, m)
	c.h1 = append(c.h1, h1)
	if h1 {
		c.inH1++
	}
	c.count++
	c.open = append(c.open, c.count)
	c.closedOK = false
}

func (c *collector) pop() {
	n := len(c.stack) - 1
	c.closed, c.closedOK = closedElem{id: c.open[n], path: c.stack[n], mark: c.marks[n], h1: c.h1[n]}, true
	if c.h1[n] {
		c.inH1--
	}
	c.stack = c.stack[:len(c.stack)-1]
	c.marks = c.marks[:len(c.marks)-1]
	c.h1 = c.h1[:len(c.h1)-1]
	c.open = c.open[:len(c.open)-1]
}

// closedElem is an element whose end flushed a paragraph: its number,
// whether it is template by tag, class, id or role, and whether it is an
// h1. The zero value is no element.
type closedElem struct {
	id   int32
	path uint64
	mark byte
	h1   bool
}

// How an element is marked as template: not at all, by its class, id,
// role or a header tag, or by a tag that says it is beside the content
// (nav, aside, footer, form, menu, dialog), which no reading of a name
// can have got wrong.
const (
	markNone byte = iota
	markName
	markTag
)

// ancestors returns the paths of the elements enclosing paragraph i,
// their numbers, whether each is template by tag, class, id or role, and
// whether the paragraph is inside an h1. The element whose end ended the
// paragraph is not among the paths (a block's path is that of the element
// around it); last returns it.
func (c *collector) ancestors(i int) ([]uint64, []int32, []byte, bool) {
	k, _ := slices.BinarySearch(c.first, i+1)
	k-- // the last flush that started at or before i
	if k < 0 {
		return nil, nil, nil, false
	}
	end := len(c.paths)
	if k+1 < len(c.at) {
		end = c.at[k+1]
	}
	return c.paths[c.at[k]:end], c.ids[c.at[k]:end], c.marked[c.at[k]:end], c.heading[k]
}

// lastOf returns the element whose end ended paragraph i (see closed), the
// zero closedElem if none.
func (c *collector) lastOf(i int) closedElem {
	k, _ := slices.BinarySearch(c.first, i+1)
	if k--; k < 0 {
		return closedElem{}
	}
	return c.last[k]
}

func (c *collector) take(all string, paras []para) {
	c.all, c.paras = all, paras
}

// childPath is the structural path of an element a, named name when a is
// 0, with id attribute id, opened inside the current top of stack. Class
// names are not part of it: a class marks the state of an element as
// often as its place ("current", "active", "even-row-color"), and one entry
// of a navigation tree marked as the current page would change the path of
// everything under it from page to page. An id names a place ("sidebar",
// "content") and keeps an article's own list apart from a sidebar of the
// same text; its digits are read as 0, so that a numbered id ("post-42")
// is one place on every page.
func (c *collector) childPath(a atom.Atom, name, id []byte) uint64 {
	var d xxhash.Digest
	d.Reset()
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], c.topPath())
	binary.LittleEndian.PutUint32(b[8:], uint32(a))
	d.Write(b[:])
	if a == 0 {
		d.Write(name)
	}
	d.Write([]byte{0})
	for _, ch := range id {
		if '0' <= ch && ch <= '9' {
			ch = '0'
		}
		d.Write([]byte{ch})
	}
	return d.Sum64()
}

// topPath is the structural path of the innermost open element.
func (c *collector) topPath() uint64 {
	if len(c.stack) == 0 {
		return 0
	}
	return c.stack[len(c.stack)-1]
}

// skeletonDepth is the deepest stack at which a block's path counts
// toward the page's skeleton: the page frame, not the article's own
// structure.
const skeletonDepth = 5

// maxDirs is the deepest directory of a page's URL that makes a group.
const maxDirs = 8

// read extracts page and computes its groups and block keys.
func (s *Site) read(pageURL string, page []byte) (*sitePage, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: %q", ErrURL, pageURL)
	}
	c := &collector{}
	o := s.Options
	o.MainContent = true
	o.collect = c
	t, err := Extract(page, o)
	if err != nil {
		return nil, err
	}
	pg := &sitePage{urlHash: xxhash.Sum64String(u.Host + u.EscapedPath() + "?" + u.RawQuery), title: t.Title, main: t.Paragraphs}
	words := pageWords(u, t.Title)
	pg.blocks = make([]block, 0, len(c.paras))
	var skel []uint64
	var buf []byte
	for i, p := range c.paras {
		text := c.all[p.start : p.start+p.bytes]
		anc, ids, marks, h1 := c.ancestors(i)
		path, depth := uint64(0), len(anc)
		if depth > 0 {
			path = anc[depth-1]
		}
		if l := c.lastOf(i); l.id != 0 {
			// The element that this paragraph ended holds it too.
			anc = append(anc[:len(anc):len(anc)], l.path)
			ids = append(ids[:len(ids):len(ids)], l.id)
			marks = append(marks[:len(marks):len(marks)], l.mark)
		}
		buf = binary.LittleEndian.AppendUint64(buf[:0], path)
		buf = append(buf, text...)
		b := block{text: text, key: xxhash.Sum64(buf), own: p.bytes - p.link, boiler: p.boiler,
			linky: p.list != 0 && p.link > 0 && 3*p.link >= 2*p.bytes, toc: p.toc, list: p.list,
			path: path, anc: anc, ids: ids, marks: marks, h1: h1}
		if len(text) <= chromeBlock {
			// The same line with other numbers or another page's name:
			// "Updated: 2023-06-01", "intro.txt · Last modified:
			// 2024/01/02 by alice".
			buf = binary.LittleEndian.AppendUint64(buf[:0], path^foldSeed)
			var pre int
			var ok bool
			if buf, pre, ok = appendFold(buf, text, &words); ok {
				b.folded = xxhash.Sum64(buf)
				if pre > 0 {
					binary.LittleEndian.PutUint64(buf, path^prefixSeed)
					b.prefix = xxhash.Sum64(buf[:8+pre])
				}
			}
		}
		if i < len(c.skels) && c.skels[i] != "" && strings.IndexFunc(c.skels[i], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			b.own = 0 // links and separators: "Apache > HTTP Server > Docs"
		}
		if i < len(c.skels) && !h1 && strings.IndexByte(c.skels[i], linkMark) >= 0 {
			// A heading is the page's own: "Class Foo" is not a
			// label and a link.
			if sk, ok := linkSkeleton(c.skels[i]); ok {
				buf = binary.LittleEndian.AppendUint64(buf[:0], path^skelSeed)
				buf = append(buf, sk...)
				b.skel = xxhash.Sum64(buf)
			}
		}
		pg.blocks = append(pg.blocks, b)
		if depth <= skeletonDepth {
			skel = append(skel, path)
		}
	}
	host := strings.ToLower(u.Host)
	pg.groups = append(pg.groups, groupKey('h', host))
	dirs := strings.Split(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
	dirs = dirs[:len(dirs)-1] // the last part is the file
	for n := 1; n <= maxDirs && n <= len(dirs); n++ {
		pg.groups = append(pg.groups, groupKey('d', host+"/"+strings.Join(dirs[:n], "/")))
	}
	slices.Sort(skel)
	skel = slices.Compact(skel)
	var b []byte
	for _, p := range skel {
		b = binary.LittleEndian.AppendUint64(b, p)
	}
	pg.groups = append(pg.groups, groupKey('s', host+"\x00"+string(b)))
	return pg, nil
}

// chromeBlock is the most bytes of a block that is read for per-page
// chrome: a line that carries the page's name, a date, a user or a
// counter in a fixed frame.
const chromeBlock = 96

// pageWords returns the lower-cased words (runs of letters and digits) of
// at least 2 bytes in the path and query of u and in the page's title: the
// names a page carries for itself ("intro" in /wiki/doku.php?id=intro,
// "Query Wizard" of a page of that title).
func pageWords(u *url.URL, title string) wordSet {
	w := wordSet{m: map[string]bool{}}
	for _, part := range []string{u.Path, u.RawQuery, title} {
		if q, err := url.QueryUnescape(part); err == nil {
			part = q
		}
		for _, f := range strings.FieldsFunc(string(asciiLower(nil, part)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(f) >= 2 {
				w.m[f] = true
				b := wordBit(f)
				w.bits[b/64] |= 1 << (b % 64)
			}
		}
	}
	return w
}

// A wordSet is a set of lower-cased words with a filter that rules out
// most other words before the map is asked: the words of a page's name
// are few, and the short blocks that are folded are many.
type wordSet struct {
	m    map[string]bool
	bits [4]uint64
}

// has reports whether the set holds w, read with its ASCII letters
// lower-cased.
func (ws *wordSet) has(w string) bool {
	var lower [64]byte
	if len(w) > len(lower) {
		return false
	}
	if b := wordBit(w); ws.bits[b/64]&(1<<(b%64)) == 0 {
		return false
	}
	return ws.m[string(asciiLower(lower[:0], w))]
}

// wordBit returns the filter bit of a word: its length and its first and
// last bytes, ASCII letters lower-cased.
func wordBit(w string) uint {
	lo := func(c byte) uint {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return uint(c)
	}
	return (uint(len(w))*131 + lo(w[0])*31 + lo(w[len(w)-1])) % 256
}

// appendFold appends to dst text with its variable parts read as one:
// every digit as 0 and every run of words that are also words of the
// page's URL or title (words), with what separates them, as one mark. It returns the extended slice, the length of the folded
// text up to its first digit when there is a digit and a letter before it
// (pre, "Last modified: " of "Last modified: 2024/01/02 by alice", whatever
// the user), 0 otherwise, and ok false when nothing in text varies.
func appendFold(dst []byte, text string, words *wordSet) (out []byte, pre int, ok bool) {
	start, first, mark := len(dst), -1, -1 // mark: end of the last mark written
	for i := 0; i < len(text); {
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(text[i:])
			dst = append(dst, text[i:i+n]...)
			i += n
			continue
		}
		w := text[i:j]
		if words.has(w) {
			if mark >= 0 && !bytes.ContainsFunc(dst[mark:], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				dst = dst[:mark] // "Query Wizard - Field Selection" is one name
			} else {
				dst = append(dst, linkMark+1)
			}
			mark, ok = len(dst), true
		} else {
			for k := 0; k < len(w); k++ {
				c := w[k]
				if '0' <= c && c <= '9' {
					if first < 0 {
						first = len(dst)
					}
					c, ok = '0', true
				}
				dst = append(dst, c)
			}
		}
		i = j
	}
	if first > start && bytes.IndexFunc(dst[start:first], unicode.IsLetter) >= 0 {
		pre = first - start
	}
	return dst, pre, ok
}

// asciiLower appends s to dst with ASCII letters lower-cased.
func asciiLower(dst []byte, s string) []byte {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// groupKey hashes a group's kind and name.
func groupKey(kind byte, name string) uint64 {
	return xxhash.Sum64String(string(kind) + name)
}

// linkLists reports the entries of lists of links: blocks that are
// mostly link text in a list with at least 3 such entries (the rule of
// extractor.result, whatever their container's name), not counting
// blocks marked as template by tag, class or role.
func linkLists(blocks []block, boiler []bool) []bool {
	count := map[int]int{}
	for i, b := range blocks {
		if !boiler[i] && b.linky {
			count[b.list]++
		}
	}
	out := make([]bool, len(blocks))
	for i, b := range blocks {
		out[i] = !boiler[i] && b.linky && count[b.list] >= 3
	}
	return out
}

// marked reports the blocks that are template by tag, class or role, not
// counting the marks by a name, a role or a header tag (markName) of an
// element that holds at least rootShare of the
// page's text outside links, nor those of an element that holds the
// page's first h1 or its longest block that names the page (see names,
// pageTitle is the page's title): furniture is a part of a page and does
// not carry its title, so a mark on the element that wraps nearly all of
// its prose (a body of class "no-sidebar") or on the one that holds its
// heading (a div "header" with the title and a one-line summary, a
// "module-header" with the module's name) is a misreading of a name, not
// a verdict on the page. Link text does not count towards the
// share, so a huge navigation beside a short article keeps its mark.
// Furniture beside the heading (a site header with the site's name in an
// h1) is left to the learned template.
func marked(blocks []block, pageTitle string) []bool {
	total, top := 0, int32(0)
	h1, named := -1, -1
	parts := titleParts(pageTitle)
	for i, b := range blocks {
		total += b.own
		if len(b.ids) > 0 {
			top = max(top, b.ids[len(b.ids)-1])
		}
		if b.h1 && h1 < 0 {
			h1 = i
		}
		if (named < 0 || len(b.text) > len(blocks[named].text)) && names(b.text, pageTitle, parts) {
			named = i
		}
	}
	own := make([]int, top+1)
	title := make([]bool, top+1) // the elements enclosing the page's headings
	for _, k := range []int{h1, named} {
		if k >= 0 {
			for _, id := range blocks[k].ids {
				title[id] = true
			}
		}
	}
	for _, b := range blocks {
		if !b.boiler {
			continue
		}
		for d, m := range b.marks {
			if m != markNone {
				own[b.ids[d]] += b.own
			}
		}
	}
	out := make([]bool, len(blocks))
	for i, b := range blocks {
		if !b.boiler {
			continue
		}
		for d, m := range b.marks {
			if id := b.ids[d]; m == markTag || m == markName && !title[id] && float64(own[id]) < rootShare*float64(total) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// names reports whether a block's text names the page: it is part of the
// page's title ("GHC.ByteOrder", "cstring File Reference" of
// "libstdc++: cstring File Reference"), or it ends in a part of the title
// after a separator ("std::vector Member List" of "libstdc++: Member
// List"), of at least 6 bytes (parts, from titleParts).
func names(text, title string, parts []string) bool {
	if len(text) >= 3 && strings.Contains(title, text) {
		return true
	}
	for _, p := range parts {
		if strings.HasSuffix(text, p) {
			return true
		}
	}
	return false
}

// titleParts returns the parts of a page title after its first separator
// that have at least 6 bytes.
func titleParts(title string) []string {
	var parts []string
	for _, sep := range []string{": ", " - ", " | ", " — ", " · "} {
		if _, after, ok := strings.Cut(title, sep); ok && len(after) >= 6 {
			parts = append(parts, after)
		}
	}
	return parts
}

func (s *Site) minPages() int {
	if s.MinPages > 0 {
		return s.MinPages
	}
	return 3
}

func (s *Site) minFraction() float64 {
	if s.MinFraction > 0 {
		return s.MinFraction
	}
	return 0.5
}

func (s *Site) samplePages() int {
	if s.SamplePages > 0 {
		return s.SamplePages
	}
	return 128
}

func (s *Site) maxGroups() int {
	if s.MaxGroups > 0 {
		return s.MaxGroups
	}
	return 4096
}

// add counts a read page in each of its groups.
func (s *Site) add(pg *sitePage) {
	if s.groups == nil {
		s.groups = map[uint64]*group{}
	}
	keys := make([]uint64, 0, len(pg.blocks))
	for _, b := range pg.blocks {
		keys = append(keys, b.key)
		if b.folded != 0 {
			keys = append(keys, b.folded)
		}
		if b.prefix != 0 {
			keys = append(keys, b.prefix)
		}
		if b.skel != 0 {
			keys = append(keys, b.skel)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if len(keys) > maxBlocks {
		keys = keys[:maxBlocks]
	}
	for _, gk := range pg.groups {
		g := s.groups[gk]
		if g == nil {
			if len(s.ranks) >= s.maxGroups() {
				if gk > s.ranks[0] {
					continue // ranks after every kept group
				}
				delete(s.groups, heap.Pop(&s.ranks).(uint64))
			}
			g = &group{blocks: map[uint64][]uint64{}}
			s.groups[gk] = g
			heap.Push(&s.ranks, gk)
		}
		g.add(pg.urlHash, keys, s.samplePages())
	}
}

// add puts a page in the sample if it ranks among the smallest URL hashes.
func (g *group) add(urlHash uint64, keys []uint64, k int) {
	if _, ok := g.blocks[urlHash]; ok {
		return
	}
	if len(g.pages) >= k {
		if urlHash > g.pages[0] {
			return
		}
		old := heap.Pop(&g.pages).(uint64)
		if g.counts != nil {
			for _, b := range g.blocks[old] {
				if g.counts[b]--; g.counts[b] == 0 {
					delete(g.counts, b)
				}
			}
		}
		delete(g.blocks, old)
	}
	heap.Push(&g.pages, urlHash)
	g.blocks[urlHash] = keys
	g.version++
	if g.counts != nil {
		for _, b := range keys {
			g.counts[b]++
		}
	}
}

// counted returns g with the counts of its blocks.
func (g *group) counted() *group {
	if g.counts == nil {
		n := 0
		for _, keys := range g.blocks {
			n = max(n, len(keys))
		}
		g.counts = make(map[uint64]int32, 2*n)
		for _, keys := range g.blocks {
			for _, b := range keys {
				g.counts[b]++
			}
		}
	}
	return g
}

// sameAs reports whether g samples the same pages as up.
func (g *group) sameAs(up *group) bool {
	if len(g.pages) != len(up.pages) {
		return false
	}
	if g.above != up || g.sameAt != [2]uint64{g.version, up.version} {
		g.above, g.sameAt, g.same = up, [2]uint64{g.version, up.version}, true
		for _, p := range g.pages {
			if _, ok := up.blocks[p]; !ok {
				g.same = false
				break
			}
		}
	}
	return g.same
}

// groupsOf returns the groups of pg that can make a block template: those
// with at least MinPages pages, less a directory that samples the same
// pages as the group above it (its parent directory, or the host), which
// gives the same answers (the deep directories of a tree whose pages all
// lie under one path).
func (s *Site) groupsOf(pg *sitePage) []*group {
	out := make([]*group, 0, len(pg.groups))
	var above *group // the group above, if kept and large enough
	for k, gk := range pg.groups {
		g := s.groups[gk]
		if g == nil || len(g.pages) < s.minPages() {
			above = nil
			continue
		}
		skel := k == len(pg.groups)-1
		if !skel && above != nil && g.sameAs(above) {
			continue // above stays the group with these pages
		}
		above = g
		out = append(out, g.counted())
	}
	return out
}

// template returns the largest fraction of the pages of a group of gs
// that block key is on, counting only groups where it is on MinPages
// pages or more.
func (s *Site) template(gs []*group, key uint64) float64 {
	best := 0.0
	for _, g := range gs {
		n := int(g.counts[key])
		if n >= s.minPages() {
			best = max(best, float64(n)/float64(len(g.pages)))
		}
	}
	return best
}

// strip returns the main content of a read page without template blocks.
func (s *Site) strip(pg *sitePage) Text {
	t := Text{Title: pg.title}
	n := len(pg.blocks)
	gs := s.groupsOf(pg)
	tmpl := make([]bool, n)
	frac := make([]float64, n)
	menus := map[int]bool{} // lists with a template entry of links
	for i, b := range pg.blocks {
		frac[i] = s.template(gs, b.key)
		if b.skel != 0 {
			frac[i] = max(frac[i], s.template(gs, b.skel))
		}
		tmpl[i] = frac[i] >= s.minFraction()-1e-9
		if tmpl[i] && b.list != 0 && b.linky {
			menus[b.list] = true
		}
	}
	learned := len(gs) > 0 // some group is large enough to tell template from content
	boiler := marked(pg.blocks, pg.title)
	lists := linkLists(pg.blocks, boiler)
	// The content root is found from the page's prose: blocks that no
	// signal calls furniture, lists of links aside.
	prose := make([]bool, n)
	for i := range pg.blocks {
		prose[i] = !boiler[i] && !tmpl[i] && !lists[i]
	}
	root0 := contentRoot(pg.blocks, prose)
	root := root0
	if len(gs) > 0 {
		root = climb(pg.blocks, root, tmpl, boiler, lists)
	}
	root = withName(pg.blocks, prose, pg.title, root)
	// The first block of text (not just links) that the root gained by
	// being raised or by the page's name: the blocks of nothing but links
	// before it stay outside (a bar of links to the sections of an API
	// page above its title).
	lead := -1
	for i, b := range pg.blocks {
		if root != root0 && b.own > 0 && slices.Contains(b.ids, root) && !slices.Contains(b.ids, root0) {
			lead = i
			break
		}
	}
	in := make([]bool, n) // inside the content root
	for i, b := range pg.blocks {
		in[i] = root != 0 && slices.Contains(b.ids, root)
	}
	first, last := n, -1 // the first and last prose blocks in the root
	for i := range pg.blocks {
		if prose[i] && in[i] {
			first, last = min(first, i), max(last, i)
		}
	}
	// Amid the article's prose, what is marked or repeats is the
	// article's, when the content root is an element apart from the
	// page's furniture (not one that holds every block, as a page
	// without markup for its parts has).
	all := !slices.Contains(in, false)
	amid := func(i int) bool { return !all && first < i && i < last && in[i] }
	// A block marked by tag, class or role inside the content root, with
	// the page's prose before and after it there, is the article's: a
	// "table-header" or "code-header" of each member of an API page, a
	// list of the article's sections of class "menu". So is one marked by
	// a name alone at the top of the content root, before its prose: the
	// article's own header (a "module-header" with an API module's
	// copyright, stability and name). Furniture lies at the other edge of
	// the article, or outside it, or is marked by its tag.
	unmarked := false
	for i := range pg.blocks {
		if boiler[i] && (amid(i) || !all && in[i] && i < first && namedOnly(pg.blocks[i])) {
			boiler[i], unmarked = false, true
		}
	}
	if unmarked {
		lists = linkLists(pg.blocks, boiler)
	}
	// state: 0 content, 1 template, 2 dropped by the rules.
	state := make([]byte, n)
	for i, b := range pg.blocks {
		// A list of links is a menu when it lies outside the article,
		// or at its edges when some entry repeats across the site; one
		// that is the article's own (cross-references, a chapter's
		// contents, the members an API page inherits) lies amid its
		// prose or at its edges without template, once the site is
		// known well enough to tell, and a table of contents stays
		// before that.
		switch {
		case boiler[i]:
			state[i] = 2
		case lists[i] && !amid(i) && (menus[b.list] || !in[i] || !learned && !b.toc):
			state[i] = 2
		case root != 0 && b.own <= 0 && (!in[i] || i < lead && !slices.Contains(b.ids, root0)):
			// Nothing but links, outside the article, or before the
			// first text of the part it gained (see lead).
			state[i] = 2
		case tmpl[i]:
			state[i] = 1
		}
	}
	// Inside the element that holds the page's own text, a block must
	// repeat on nearly every page of a group to be template: there, a
	// heading or a note shared by many pages of a chapter is the article's.
	for i := range pg.blocks {
		if state[i] == 1 && frac[i] < rootFraction-1e-9 && in[i] {
			state[i] = 0
		}
	}
	// A list of links beyond the article's prose, headed by a template
	// block, goes with it: "Popular pages" and its entries, which change
	// from page to page.
	for i := range pg.blocks {
		if !lists[i] || state[i] != 0 || i > first && i < last {
			continue
		}
		l, k := pg.blocks[i].list, i-1
		for k >= 0 && (pg.blocks[k].list == l && lists[k] || state[k] == 2) {
			k--
		}
		if i > last && k >= 0 && state[k] == 1 {
			state[i] = 2
		}
	}
	// Per-page chrome: a short block that is template once its variable
	// parts (digits, the page's own name) are read as one.
	chrome := make([]bool, n)
	onlyChrome, own := true, false
	for i, b := range pg.blocks {
		chrome[i] = !tmpl[i] && (b.folded != 0 && s.template(gs, b.folded) >= s.minFraction()-1e-9 ||
			b.prefix != 0 && s.template(gs, b.prefix) >= s.minFraction()-1e-9)
		if state[i] == 0 && !tmpl[i] {
			own = true
			onlyChrome = onlyChrome && chrome[i]
		}
	}
	if learned && own && onlyChrome {
		// A page of one kind that the site has for every name (a login
		// or history page): its own text is chrome only, so its
		// content is the template's text without the chrome, the same
		// on every page of the kind.
		for i, b := range pg.blocks {
			if state[i] != 2 && !chrome[i] {
				t.Paragraphs = append(t.Paragraphs, b.text)
			}
		}
		if len(t.Paragraphs) > 0 {
			return t
		}
	}
	repeated := slices.Clone(state)
	// A short template block of text (not links) in a content root apart
	// from the page's furniture (in a page of nothing but paragraphs,
	// every block has the same parent), followed by a content block in
	// the same element, is the label of a field and stays with its value:
	// "Copyright" and "(c) The University", the cells of a row of the
	// article's header, at its top edge too.
	for i := 0; i+1 < n; i++ {
		a := pg.blocks[i]
		if state[i] == 1 && state[i+1] == 0 && in[i] && !all && a.own > 0 && len(a.text) <= shortBlock && field(pg.blocks, i) {
			state[i] = 0
		}
	}
	title := strings.TrimSpace(pg.title)
	parts := titleParts(title)
	absorb := make([]bool, n)
	interior := make([]bool, n)
	for i, b := range pg.blocks {
		absorb[i] = chrome[i] && !b.h1 && !isName(b.text, title, parts) // a title that names the page is its own
		interior[i] = amid(i)
		// Outside an article apart from the page's furniture, per-page chrome is furniture
		// wherever it lies: the id of the object a page shows, in a bar above the article
		// after the site's header and menus, which are dropped as marked.
		if absorb[i] && state[i] == 0 && !in[i] && !all && root != 0 {
			state[i] = 2
		}
	}
	keepIslands(state, absorb, interior)
	keepWidgets(pg.blocks, state, tmpl, chrome, in)
	dropRepeats(pg.blocks, state, repeated)
	dropEchoes(pg.blocks, state)
	for i, b := range pg.blocks {
		if state[i] == 0 {
			t.Paragraphs = append(t.Paragraphs, b.text)
		}
	}
	if len(t.Paragraphs) == 0 {
		t.Paragraphs = pg.main
	}
	return t
}

// rootFraction is the least fraction of a group's pages a block inside
// the page's content root must occur on to be template.
const rootFraction = 0.9

// rootShare is the share of the page's text outside links that an element
// marked as furniture must hold to be read as the page itself.
const rootShare = 0.8

// contentShare is the share of the page's prose (bytes outside links) that
// the content root holds.
const contentShare = 0.9

// contentRoot returns the number of the deepest element that encloses at
// least contentShare of the bytes of the prose blocks outside their links
// and that is not just a paragraph's own element (it encloses an element
// of a block), 0 if there is no prose. It is an element, not a path: a sidebar that is a
// sibling of the article with the same tags is not inside it.
func contentRoot(blocks []block, prose []bool) int32 {
	top := int32(0) // the largest element number
	for _, b := range blocks {
		for _, id := range b.ids {
			top = max(top, id)
		}
	}
	bytes := make([]int, top+1)
	depth := make([]int32, top+1)
	holds := make([]bool, top+1) // encloses a block of any kind
	total := 0
	for i, b := range blocks {
		for _, id := range b.ids[:max(len(b.ids)-1, 0)] {
			holds[id] = true
		}
		if !prose[i] {
			continue
		}
		total += b.own
		for d, id := range b.ids {
			bytes[id] += b.own
			depth[id] = int32(d)
		}
	}
	if total == 0 {
		return 0
	}
	best, bestDepth := int32(0), int32(-1)
	for id, n := range bytes {
		if !holds[id] || n == 0 {
			continue // a paragraph's own element, not a container
		}
		if float64(n) >= contentShare*float64(total) && depth[id] > bestDepth {
			best, bestDepth = int32(id), depth[id]
		}
	}
	return best
}

// withName returns the content root extended to the deepest element that
// also encloses a prose block that names the page (its whole title, or a
// part of it after a separator): an article begins with its name, so a
// header with the name beside the article's body is the article's
// ("GHC.Clock" with the module's copyright and stability above its
// synopsis and its documentation, where the documentation alone holds 90%
// of the prose). Of several such blocks, the one nearest the root counts.
// The root stays when it encloses such a block already, when there is
// none, or when the element would hold every block of the page (the name
// is in the site's header, not beside the article).
func withName(blocks []block, prose []bool, title string, root int32) int32 {
	if root == 0 {
		return 0
	}
	title = strings.TrimSpace(title)
	parts := titleParts(title)
	var chain []int32 // the root and its ancestors, outermost first
	for _, b := range blocks {
		if k := slices.Index(b.ids, root); k >= 0 {
			chain = b.ids[:k+1]
			break
		}
	}
	best := -1 // depth in chain of the deepest common ancestor found
	for i, b := range blocks {
		if !prose[i] || !isName(b.text, title, parts) {
			continue
		}
		d := 0
		for d < len(chain) && d < len(b.ids) && chain[d] == b.ids[d] {
			d++
		}
		if d == len(chain) {
			return root // the root holds the page's name
		}
		best = max(best, d-1)
	}
	if best < 0 {
		return root
	}
	for _, b := range blocks {
		if len(b.ids) <= best || b.ids[best] != chain[best] {
			return chain[best]
		}
	}
	return root // the element holds the whole page
}

// field reports whether blocks i and i+1 lie in the same element, each in
// an element of its own: the cells of a row, a term and its definition.
func field(blocks []block, i int) bool {
	a, b := blocks[i], blocks[i+1]
	k := len(a.ids)
	return k >= 2 && len(b.ids) == k && a.ids[k-2] == b.ids[k-2] && a.ids[k-1] != b.ids[k-1]
}

// namedOnly reports whether a block is marked as template (by main-content
// mode) and only by names: a class, an id, a role or a header tag, no nav,
// aside, footer, form, menu or dialog tag.
func namedOnly(b block) bool {
	if !b.boiler {
		return false
	}
	for _, m := range b.marks {
		if m == markTag {
			return false
		}
	}
	return true
}

// climb returns the content root raised to its ancestors while what an
// ancestor adds is the article's: no block of it template, a list of
// links, marked by a tag, or marked by a name after the root (a list of
// related pages, an advertisement below the article). So an article's
// header and summary above its body join the body, where the body alone
// holds 90% of a short article's prose (a module's fields and its
// synopsis above its documentation, copied into another site's page whose
// title does not name it). Until the site is learned nothing is template,
// so the root is not raised.
func climb(blocks []block, root int32, tmpl, boiler, lists []bool) int32 {
	if root == 0 {
		return 0
	}
	var chain []int32
	for _, b := range blocks {
		if k := slices.Index(b.ids, root); k >= 0 {
			chain = b.ids[:k+1]
			break
		}
	}
	last := -1 // the root's last block
	for i, b := range blocks {
		if slices.Contains(b.ids, root) {
			last = i
		}
	}
	for d := len(chain) - 2; d >= 0; d-- {
		up, ok, all := chain[d], true, true
		for i, b := range blocks {
			in := len(b.ids) > d && b.ids[d] == up
			if !in {
				all = false
				continue
			}
			if slices.Contains(b.ids, root) {
				continue
			}
			if tmpl[i] || lists[i] || boiler[i] && (!namedOnly(b) || i > last) {
				ok = false
				break
			}
		}
		if !ok || all {
			break
		}
		root = up
	}
	return root
}

// isName reports whether text is the page's title or a part of it after a
// separator (parts, from titleParts).
func isName(text, title string, parts []string) bool {
	return text == title || slices.Contains(parts, text)
}

// minRun is the least number of consecutive template blocks inside the
// content that are dropped.
const minRun = 3

// shortBlock is the most bytes of a block that is absorbed into the
// template around it: a field that changes from page to page ("Updated:
// 2023-06-01", "Time: 12:04:05 GMT") amid template lines.
const shortBlock = 48

// keepIslands decides the template blocks (state 1) by where they lie.
// Blocks dropped by the rules (state 2) neither end nor count in a run.
//
// A short content block (at most shortBlock bytes) with digits in it that
// is template once its digits are read as 0 (folded is true), with
// template before it and template or the page's end after it, joins the
// template around it: page furniture often carries a date, a time or a
// version that changes from page to page.
//
// A run of fewer than minRun template blocks with content on both sides
// is an island in the article and turns back into content: a "Syntax:" or "Parameters:" label of a
// reference page, a note that every page of a chapter carries. So is a
// longer run amid the prose of the content root (amid is true for each
// of its blocks): the section headings and inherited-member lists that
// every page of an API reference has. Page furniture lies at the edges of
// the content, outside the content root or in longer runs (a sidebar, a
// header of several lines) and stays dropped.
func keepIslands(state []byte, folded, amid []bool) {
	const absorbed = 3
	for i := range state {
		if state[i] != 0 || !folded[i] {
			continue
		}
		prev, next := i-1, i+1
		for prev >= 0 && state[prev] == 2 {
			prev--
		}
		for next < len(state) && state[next] == 2 {
			next++
		}
		tPrev := prev >= 0 && state[prev] == 1
		tNext := next < len(state) && state[next] == 1
		if tPrev && (tNext || next == len(state)) {
			state[i] = absorbed
		}
	}
	first, last := -1, -1
	for i, st := range state {
		if st == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := 0; i < len(state); {
		if state[i] == 0 {
			i++
			continue
		}
		j, n, mid := i, 0, true // the run is state[i:j], n template blocks
		for j < len(state) && state[j] != 0 {
			if state[j] != 2 {
				n++
				mid = mid && amid[j]
			}
			j++
		}
		keep := (n < minRun || mid) && i > first && j <= last
		for k := i; k < j; k++ {
			switch {
			case state[k] == 2:
			case keep:
				state[k] = 0
			default:
				state[k] = 1
			}
		}
		i = j
	}
}

// keepWidgets keeps the small widgets of an article: a short block in the
// content root, template by its text or by its folded text (tmpl, chrome),
// that occurs at least twice between the page's first and last content
// blocks ("expand", "[-]", "3 replies" after each paragraph of a post, a
// counter that differs by its digits) is the article's wherever it lies
// among them, in runs of any length and on a page without an element
// apart for the article, and so are its copies right after the last
// content block or before the first. The true text of the article keeps
// them; dropping some would change the words where they were and the
// shingles around them.
func keepWidgets(blocks []block, state []byte, tmpl, chrome, in []bool) {
	first, last := -1, -1
	for i := range blocks {
		if state[i] == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return
	}
	key := func(b block) uint64 {
		if b.folded != 0 {
			return b.folded
		}
		return b.key
	}
	small := func(i int) bool {
		return (tmpl[i] || chrome[i]) && in[i] && len(blocks[i].text) <= shortBlock
	}
	var amid map[uint64]int // occurrences between the content's first and last blocks
	for i := first + 1; i < last; i++ {
		if small(i) {
			if amid == nil {
				amid = map[uint64]int{}
			}
			amid[key(blocks[i])]++
		}
	}
	if amid == nil {
		return
	}
	widget := func(i int) bool { return state[i] == 1 && small(i) && amid[key(blocks[i])] >= 2 }
	for i := first + 1; i < last; i++ {
		if widget(i) {
			state[i] = 0
		}
	}
	for i := last + 1; i < len(blocks) && widget(i); i++ {
		state[i] = 0
	}
	for i := first - 1; i >= 0 && widget(i); i-- {
		state[i] = 0
	}
}

// dropRepeats drops again a template block with a link skeleton (a label
// and links) that keepIslands kept as an island when the same text is
// dropped elsewhere on the page: a bar of links a page carries above and
// below its article (the languages it is translated into) lies between
// the title and the text at the top, but its copy at the bottom is at the
// edge of the content, and one copy shows what both are. A heading whose
// text is also an entry of the page's dropped table of contents has no
// link skeleton and stays. before is the state before keepIslands.
func dropRepeats(blocks []block, state, before []byte) {
	var gone map[string]bool
	for i, b := range blocks {
		if state[i] == 1 {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[b.text] = true
		}
	}
	for i, b := range blocks {
		if state[i] == 0 && before[i] == 1 && b.skel != 0 && gone[b.text] {
			state[i] = 1
		}
	}
}

// dropEchoes drops the first or the last run of content blocks of a page
// when furniture (at least minRun dropped blocks) cuts it off from the rest
// of the content and each of its blocks repeats the text of a block the
// page drops: a title bar above a sidebar that echoes the sidebar's
// heading (the manual's name on the manual's front page).
func dropEchoes(blocks []block, state []byte) {
	type run struct{ from, to int } // content blocks[from:to]
	var cut []run                   // edge runs that furniture cuts off from the rest
	// The first run, and the gap after it.
	i := 0
	for i < len(state) && state[i] != 0 {
		i++
	}
	j := i
	for j < len(state) && state[j] == 0 {
		j++
	}
	k := j
	for k < len(state) && state[k] != 0 {
		k++
	}
	if k < len(state) && k-j >= minRun {
		cut = append(cut, run{i, j})
	}
	// The last run, and the gap before it.
	j = len(state)
	for j > 0 && state[j-1] != 0 {
		j--
	}
	i = j
	for i > 0 && state[i-1] == 0 {
		i--
	}
	k = i
	for k > 0 && state[k-1] != 0 {
		k--
	}
	if k > 0 && i-k >= minRun {
		cut = append(cut, run{i, j})
	}
	if len(cut) == 0 {
		return
	}
	gone := map[string]bool{}
	for i, b := range blocks {
		if state[i] != 0 {
			gone[b.text] = true
		}
	}
	var echoes []run
	left := 0 // content blocks that stay
	for _, st := range state {
		if st == 0 {
			left++
		}
	}
	for _, r := range cut {
		echo := true
		for i := r.from; i < r.to && echo; i++ {
			echo = gone[blocks[i].text]
		}
		if echo {
			echoes = append(echoes, r)
			left -= r.to - r.from
		}
	}
	if left == 0 {
		return // the page's text is what its furniture says (an index page that is its menu)
	}
	for _, r := range echoes {
		for i := r.from; i < r.to; i++ {
			state[i] = 1
		}
	}
}

// pageHeap and rankHeap are max-heaps of hashes.
type pageHeap []uint64

func (h pageHeap) Len() int           { return len(h) }
func (h pageHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h pageHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pageHeap) Push(x any)        { *h = append(*h, x.(uint64)) }
func (h *pageHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type rankHeap = pageHeap
