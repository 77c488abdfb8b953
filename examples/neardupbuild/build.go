package main

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// The share of excerpts among reprints and the shape of the trap groups.
const (
	excerptShare   = 0.12 // of reprints
	trapGroupSize  = 6
	templateGroups = 8 // same-template groups, 20-150 token articles
	shortGroups    = 4 // short-page groups, 3-15 token articles
	skeletonPairs  = 25
	skeletonScored = 3000
	maxFamilies    = 4
	minFamily      = 20
)

// page is one page of the corpus being built.
type page struct {
	ID, URL, Lang, Origin, Docset, Package string
	Parent                                 int // index of the source page, or -1
	TemplateDocset, TrapGroup, Note        string

	HTML        []byte
	Title, Main string
	Full        string // visible text of the whole page

	set     *docSet // doc set (shipped pages and edits)
	rel     string  // path in the doc set's dir
	article string  // main element's children after the drops (shipped pages)
	blocks  []string

	main, full textSets
}

// trapPair is one line of traps.tsv, as page indexes.
type trapPair struct {
	A, B int
	Type string
}

// corpus is a built corpus.
type corpus struct {
	sets    []docSet
	pages   []page // sorted by ID after finish
	pairs   []scored
	traps   []trapPair
	skipped map[string]int // doc set -> pages without a content element or not UTF-8
	seed    uint64
	shares  shares
	secs    map[string]float64
}

// builder holds the state of one build.
type builder struct {
	c      *corpus
	r      *rand.Rand
	log    io.Writer
	titles []string // titles of shipped pages
	sents  []string // sentences of shipped pages' main text
	words  []string // words of shipped pages' main text
	hanr   []rune   // CJK ideographs of shipped pages
	nextA  int      // counter of /a/NNN.html URLs
}

// shares are the numbers of reprints and edits relative to the number of
// shipped pages.
type shares struct{ Reprint, Edit float64 }

// build reads the doc sets and makes the corpus.
func build(sets []docSet, seed uint64, sh shares, log io.Writer) (*corpus, error) {
	b := &builder{
		c:   &corpus{sets: sets, skipped: map[string]int{}, seed: seed, shares: sh, secs: map[string]float64{}},
		r:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		log: log,
	}
	t0 := time.Now()
	for i := range sets {
		if err := b.readDocSet(&sets[i]); err != nil {
			return nil, err
		}
	}
	if len(b.c.pages) == 0 {
		return nil, fmt.Errorf("neardupbuild: no pages with a content element")
	}
	b.pools()
	b.c.secs["real"] = time.Since(t0).Seconds()
	t0 = time.Now()
	shipped := len(b.c.pages)
	b.reprints(int(math.Round(sh.Reprint * float64(shipped))))
	b.edits(int(math.Round(sh.Edit * float64(shipped))))
	b.trapGroups()
	b.c.secs["gen"] = time.Since(t0).Seconds()
	t0 = time.Now()
	b.finish()
	b.c.secs["truth"] = time.Since(t0).Seconds()
	return b.c, nil
}

// readDocSet adds the (sampled) shipped pages of d.
func (b *builder) readDocSet(d *docSet) error {
	var rels []string
	err := filepath.WalkDir(d.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() {
			rel, _ := filepath.Rel(d.Dir, p)
			rel = filepath.ToSlash(rel)
			if d.included(rel) {
				rels = append(rels, rel)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("neardupbuild: docset %q: %v", d.Name, err)
	}
	slices.Sort(rels)
	if d.Max > 0 && len(rels) > d.Max {
		b.r.Shuffle(len(rels), func(i, j int) { rels[i], rels[j] = rels[j], rels[i] })
		rels = rels[:d.Max]
		slices.Sort(rels)
	}
	if len(rels) == 0 {
		return fmt.Errorf("neardupbuild: docset %q: no files match %q in %s", d.Name, strings.Join(d.Include, ","), d.Dir)
	}
	pages := make([]page, len(rels))
	ok := make([]bool, len(rels))
	errs := make([]error, len(rels))
	parallelFor(len(rels), func(i int) {
		raw, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(rels[i])))
		if err != nil {
			errs[i] = err
			return
		}
		if !utf8.Valid(raw) {
			if raw = toUTF8(raw); raw == nil {
				return
			}
		}
		doc, m := mainElement(raw, d)
		if m == nil {
			return
		}
		p := page{
			URL: "https://" + d.Host + "/" + rels[i], Origin: "shipped", Docset: d.Name, Package: d.Package,
			Parent: -1, HTML: raw, Title: pageTitle(raw), Main: visibleText(render(m)), Full: visibleText(raw),
			set: d, rel: rels[i], article: renderChildren(m), blocks: topBlocks(m),
		}
		_ = doc
		pages[i], ok[i] = p, true
	})
	n := 0
	for i := range pages {
		if errs[i] != nil {
			return fmt.Errorf("neardupbuild: docset %q: %v", d.Name, errs[i])
		}
		if !ok[i] {
			b.c.skipped[d.Name]++
			continue
		}
		b.c.pages = append(b.c.pages, pages[i])
		n++
	}
	if n == 0 {
		return fmt.Errorf("neardupbuild: docset %q: no page of %d has an element %q (or is readable as text)", d.Name, len(rels), d.Content)
	}
	fmt.Fprintf(b.log, "neardupbuild: %s: %d pages (%d skipped)\n", d.Name, n, b.c.skipped[d.Name])
	return nil
}

// toUTF8 decodes a page in the charset it declares (or that its bytes
// suggest, windows-1252 by default) to UTF-8, or returns nil.
func toUTF8(raw []byte) []byte {
	enc, _, _ := charset.DetermineEncoding(raw, "text/html")
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil || !utf8.Valid(out) {
		return nil
	}
	return out
}

// topBlocks returns the rendered top-level blocks of a main element: the
// children of the first element, going down from m through elements with
// a single element child, that has several.
func topBlocks(m *nethtml.Node) []string {
	n := m
	for {
		var only *nethtml.Node
		count := 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == nethtml.ElementNode {
				only = c
				count++
			} else if c.Type == nethtml.TextNode && strings.TrimSpace(c.Data) != "" {
				count += 2
			}
		}
		if count != 1 {
			break
		}
		n = only
	}
	var out []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == nethtml.ElementNode || c.Type == nethtml.TextNode && strings.TrimSpace(c.Data) != "" {
			out = append(out, string(render(c)))
		}
	}
	return out
}

// pools collects the titles, sentences, words and ideographs that portal
// blocks and edits draw from, in page order.
func (b *builder) pools() {
	for _, p := range b.c.pages {
		if p.Title != "" {
			b.titles = append(b.titles, p.Title)
		}
		for _, s := range sentences(p.Main) {
			if n := countTokens(s); n >= 6 && n <= 40 {
				b.sents = append(b.sents, s)
			}
		}
		for _, w := range strings.Fields(p.Main) {
			if len(w) >= 3 && len(w) <= 12 && isWord(w) {
				b.words = append(b.words, w)
			}
			for _, r := range w {
				if isHan(string(r)) {
					b.hanr = append(b.hanr, r)
				}
			}
		}
	}
	if len(b.titles) == 0 {
		b.titles = []string{"Home"}
	}
	if len(b.sents) == 0 {
		b.sents = []string{"Read more about it in the manual."}
	}
	if len(b.words) == 0 {
		b.words = []string{"manual"}
	}
}

// isWord reports whether w is all ASCII letters.
func isWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func (b *builder) pick(s []string) string { return s[b.r.IntN(len(s))] }

// links is a list of n links to made-up pages titled after real ones.
func (b *builder) links(n int, tag string) string {
	var sb strings.Builder
	sb.WriteString("<" + tag + ">")
	for range n {
		fmt.Fprintf(&sb, `<li><a href="/p/%d.html">%s</a></li>`, b.r.IntN(100000), html.EscapeString(b.pick(b.titles)))
	}
	sb.WriteString("</" + tag + ">")
	return sb.String()
}

// portal returns one portal block of the given kind with real text.
func (b *builder) portal(kind string) string {
	switch kind {
	case "menu":
		return `<div class="top-menu">` + b.links(5+b.r.IntN(4), "ul") + `</div>`
	case "popular":
		return `<div class="popular-pages"><h3>Popular pages</h3>` + b.links(5, "ol") + `</div>`
	case "ad":
		return `<div class="ad-slot"><p>Sponsored</p><p>` + html.EscapeString(b.pick(b.sents)) + `</p></div>`
	case "related":
		return `<div class="related-links"><h3>Related</h3>` + b.links(4, "ul") + `</div>`
	}
	var sb strings.Builder
	sb.WriteString(`<div class="comments"><h3>Comments</h3>`)
	for range 2 + b.r.IntN(3) {
		fmt.Fprintf(&sb, `<div class="comment"><p class="author">user%d</p><p>%s</p></div>`, b.r.IntN(1000), html.EscapeString(b.pick(b.sents)))
	}
	sb.WriteString(`</div>`)
	return sb.String()
}

// portals returns random portal blocks for the start and the end of an article.
func (b *builder) portals() (start, end string) {
	for _, k := range b.subset([]string{"menu", "popular", "ad"}, 1+b.r.IntN(2)) {
		start += b.portal(k)
	}
	for _, k := range b.subset([]string{"related", "comments", "ad", "popular"}, 1+b.r.IntN(3)) {
		end += b.portal(k)
	}
	return start, end
}

// subset returns n random elements of s in their order.
func (b *builder) subset(s []string, n int) []string {
	idx := b.r.Perm(len(s))[:n]
	slices.Sort(idx)
	out := make([]string, n)
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// wrap puts article between the portal blocks start and end in place of
// the main element of template page t, and returns the new page and the
// text of the article as it reads there.
func wrap(t *page, start, article, end string) ([]byte, string, error) {
	doc, m := mainElementKeep(t.HTML, t.set)
	if m == nil {
		return nil, "", fmt.Errorf("template %s lost its main element", t.URL)
	}
	frag := start + `<div class="article-body">` + article + `</div>` + end
	ctx := m.Parent
	if m.Data == "body" || ctx == nil {
		// The main element is the body: keep the body, replace what the
		// drop selectors do not protect.
		ctx = m
		var keep []*nethtml.Node
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			keep = append(keep, c)
		}
		nodes, err := nethtml.ParseFragment(strings.NewReader(frag), m)
		if err != nil {
			return nil, "", err
		}
		var first, last []*nethtml.Node // drop elements at the start and the end stay
		i := 0
		for i < len(keep) && isDropped(keep[i], t.set) {
			first = append(first, keep[i])
			i++
		}
		j := len(keep)
		for j > i && isDropped(keep[j-1], t.set) {
			j--
		}
		last = keep[j:]
		for _, c := range keep {
			m.RemoveChild(c)
		}
		for _, c := range first {
			m.AppendChild(c)
		}
		for _, n := range nodes {
			m.AppendChild(n)
		}
		for _, c := range last {
			m.AppendChild(c)
		}
	} else {
		nodes, err := nethtml.ParseFragment(strings.NewReader(frag), ctx)
		if err != nil {
			return nil, "", err
		}
		for _, n := range nodes {
			ctx.InsertBefore(n, m)
		}
		ctx.RemoveChild(m)
	}
	out := render(doc)
	doc2, err := nethtml.Parse(bytes.NewReader(out))
	if err != nil {
		return nil, "", err
	}
	a := find(doc2, selector{Tag: "div", Class: "article-body"})
	if a == nil {
		return nil, "", fmt.Errorf("article lost in template %s", t.URL)
	}
	return out, visibleText(render(a)), nil
}

// isDropped reports whether n is (or is blank text beside) a drop element of d.
func isDropped(n *nethtml.Node, d *docSet) bool {
	if n.Type == nethtml.TextNode && strings.TrimSpace(n.Data) == "" {
		return true
	}
	for _, s := range d.Drop {
		if s.matches(n) {
			return true
		}
	}
	return false
}

// mainElementKeep parses page and returns its document and main element
// without removing the drop elements.
func mainElementKeep(page []byte, d *docSet) (*nethtml.Node, *nethtml.Node) {
	doc, err := nethtml.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil
	}
	return doc, find(doc, d.Content)
}

// sources are the shipped pages with at least minTokens of main text.
func (b *builder) sources(minTokens int) []int {
	var out []int
	for i := range b.c.pages {
		p := &b.c.pages[i]
		if p.Origin == "shipped" && countTokens(p.Main) >= minTokens {
			out = append(out, i)
		}
	}
	return out
}

// templatesFor are the shipped pages of doc sets other than s's in s's language.
func (b *builder) templatesFor(s *page) []int {
	var out []int
	for i := range b.c.pages {
		p := &b.c.pages[i]
		if p.Origin == "shipped" && p.Docset != s.Docset && p.set.Lang == s.set.Lang {
			out = append(out, i)
		}
	}
	return out
}

// reprints adds n reprints of shipped pages in other doc sets' chrome.
func (b *builder) reprints(n int) {
	src := b.sources(20)
	if len(src) == 0 {
		return
	}
	made := 0
	for try := 0; made < n && try < 4*n; try++ {
		si := src[b.r.IntN(len(src))]
		s := &b.c.pages[si]
		tpl := b.templatesFor(s)
		if len(tpl) == 0 {
			continue
		}
		ti := tpl[b.r.IntN(len(tpl))]
		t := &b.c.pages[ti]
		article, note := s.article, "reprint"
		if b.r.Float64() < excerptShare && len(s.blocks) >= 3 {
			frac := 0.55 + 0.25*b.r.Float64()
			k := int(math.Ceil(frac * float64(len(s.blocks))))
			if k < len(s.blocks) {
				article = strings.Join(s.blocks[:k], "")
				note = fmt.Sprintf("excerpt %d/%d blocks", k, len(s.blocks))
			}
		}
		start, end := b.portals()
		out, main, err := wrap(t, start, article, end)
		if err != nil || countTokens(main) == 0 {
			continue
		}
		b.add(page{
			URL: b.aURL(t), Origin: "reprint", Docset: s.Docset, Package: s.Package, Parent: si,
			TemplateDocset: t.Docset, Note: note, HTML: out, Main: main, Title: s.Title,
		})
		made++
	}
}

// aURL is a new /a/NNN.html URL on t's host.
func (b *builder) aURL(t *page) string {
	b.nextA++
	return fmt.Sprintf("https://%s/a/%03d.html", t.set.Host, b.nextA)
}

// add appends a generated page, filling in its full text.
func (b *builder) add(p page) {
	p.Full = visibleText(p.HTML)
	if p.Title == "" {
		p.Title = pageTitle(p.HTML)
	}
	b.c.pages = append(b.c.pages, p)
}

// edits adds n edited copies of shipped pages in their own chrome.
func (b *builder) edits(n int) {
	src := b.sources(20)
	if len(src) == 0 {
		return
	}
	ops := []string{"words", "drop", "append"}
	made := 0
	for try := 0; made < n && try < 4*n; try++ {
		si := src[b.r.IntN(len(src))]
		s := &b.c.pages[si]
		doc, m := mainElementKeep(s.HTML, s.set)
		if m == nil {
			continue
		}
		var done []string
		for _, op := range b.subset(ops, 1+b.r.IntN(2)) {
			if d := b.edit(op, m, s.set); d != "" {
				done = append(done, d)
			}
		}
		if len(done) == 0 {
			continue
		}
		out := render(doc)
		main, ok := mainText(out, s.set)
		if !ok || main == s.Main {
			continue
		}
		u := strings.Replace(s.URL, "https://", fmt.Sprintf("https://mirror%d.", 1+b.r.IntN(3)), 1)
		b.add(page{
			URL: u, Origin: "edit", Docset: s.Docset, Package: s.Package, Parent: si,
			Note: strings.Join(done, "; "), HTML: out, Main: main, Title: s.Title, set: s.set, rel: s.rel,
		})
		made++
	}
}

// editable reports whether n lies outside the drop elements and code.
func editable(n *nethtml.Node, m *nethtml.Node, d *docSet) bool {
	for p := n; p != nil && p != m; p = p.Parent {
		if p.Type == nethtml.ElementNode {
			switch p.Data {
			case "script", "style", "pre", "code":
				return false
			}
			for _, s := range d.Drop {
				if s.matches(p) {
					return false
				}
			}
		}
	}
	return true
}

// walk calls f for every node under n.
func walk(n *nethtml.Node, f func(*nethtml.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

// edit applies one edit to main element m and describes it, or returns "".
func (b *builder) edit(op string, m *nethtml.Node, d *docSet) string {
	switch op {
	case "words":
		var texts []*nethtml.Node
		walk(m, func(n *nethtml.Node) {
			if n.Type == nethtml.TextNode && countTokens(n.Data) > 0 && editable(n, m, d) {
				texts = append(texts, n)
			}
		})
		if len(texts) == 0 {
			return ""
		}
		k := 1 + b.r.IntN(8)
		for range k {
			t := texts[b.r.IntN(len(texts))]
			t.Data = b.changeWord(t.Data)
		}
		return fmt.Sprintf("%d words changed", k)
	case "drop":
		var ps []*nethtml.Node
		walk(m, func(n *nethtml.Node) {
			if n.Type == nethtml.ElementNode && (n.Data == "p" || n.Data == "dd") && n != m && editable(n, m, d) && countTokens(visibleText(render(n))) > 0 {
				ps = append(ps, n)
			}
		})
		if len(ps) < 2 {
			return ""
		}
		p := ps[b.r.IntN(len(ps))]
		p.Parent.RemoveChild(p)
		return "paragraph dropped"
	case "append":
		p := &nethtml.Node{Type: nethtml.ElementNode, Data: "p"}
		p.AppendChild(&nethtml.Node{Type: nethtml.TextNode, Data: b.pick(b.sents)})
		// Before the trailing drop elements (a DocBook footer), so the
		// sentence is part of the main text.
		var at *nethtml.Node
		for c := m.LastChild; c != nil && isDropped(c, d); c = c.PrevSibling {
			at = c
		}
		m.InsertBefore(p, at)
		return "sentence appended"
	}
	return ""
}

// changeWord replaces one word of s (one or two ideographs in Chinese).
func (b *builder) changeWord(s string) string {
	f := strings.Fields(s)
	var cand []int
	for i, w := range f {
		if countTokens(w) > 0 {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return s
	}
	i := cand[b.r.IntN(len(cand))]
	w := []rune(f[i])
	var han []int
	for j, r := range w {
		if isHan(string(r)) {
			han = append(han, j)
		}
	}
	switch {
	case len(han) > 0 && len(b.hanr) > 0:
		for range 1 + b.r.IntN(2) {
			w[han[b.r.IntN(len(han))]] = b.hanr[b.r.IntN(len(b.hanr))]
		}
		f[i] = string(w)
	default:
		f[i] = b.pick(b.words)
	}
	lead := s[:len(s)-len(strings.TrimLeft(s, " \t\r\n"))]
	trail := s[len(strings.TrimRight(s, " \t\r\n")):]
	return lead + strings.Join(f, " ") + trail
}

// shortArticle is HTML of the first paragraphs of text, cut to at most
// budget tokens.
func shortArticle(paras []string, budget int) (string, int) {
	var sb strings.Builder
	used := 0
	for _, p := range paras {
		n := countTokens(p)
		if used+n > budget {
			p = truncateTokens(p, budget-used)
			n = countTokens(p)
		}
		if n == 0 {
			break
		}
		sb.WriteString("<p>" + html.EscapeString(p) + "</p>")
		used += n
		if used >= budget {
			break
		}
	}
	return sb.String(), used
}

// paragraphs of a shipped page's main element.
func paragraphsOf(p *page) []string {
	var out []string
	for _, blk := range p.blocks {
		if t := visibleText([]byte(blk)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// trapGroups adds the same-template and short-page trap groups.
func (b *builder) trapGroups() {
	for g := range templateGroups + shortGroups {
		kind, lo, hi := "same-template", 20, 150
		if g >= templateGroups {
			kind, lo, hi = "short-page", 3, 15
		}
		b.trapGroup(fmt.Sprintf("%s-%d", kind, g+1), kind, lo, hi)
	}
}

// trapGroup adds one group of trap pages: short articles of different
// pages in one heavy template with one fixed set of portal blocks.
func (b *builder) trapGroup(name, kind string, lo, hi int) {
	// The template: one of the pages with the most chrome.
	var heavy []int
	for i := range b.c.pages {
		if b.c.pages[i].Origin == "shipped" {
			heavy = append(heavy, i)
		}
	}
	chrome := func(i int) int {
		p := &b.c.pages[i]
		return countTokens(p.Full) - countTokens(p.Main)
	}
	sample := b.r.Perm(len(heavy))
	if len(sample) > 40 {
		sample = sample[:40]
	}
	ti := heavy[sample[0]]
	for _, k := range sample {
		if chrome(heavy[k]) > chrome(ti) {
			ti = heavy[k]
		}
	}
	t := &b.c.pages[ti]
	start, end := b.portals()
	src := b.sources(lo)
	b.r.Shuffle(len(src), func(i, j int) { src[i], src[j] = src[j], src[i] })
	var members []int
	var sets []textSets
	for _, si := range src {
		if len(members) == trapGroupSize {
			break
		}
		s := &b.c.pages[si]
		if s.set.Lang != t.set.Lang {
			continue
		}
		art, n := shortArticle(paragraphsOf(s), lo+b.r.IntN(hi-lo+1))
		if n < lo {
			continue
		}
		out, main, err := wrap(t, start, art, end)
		if err != nil {
			continue
		}
		ms := newTextSets(main)
		clash := false
		for _, o := range sets {
			if j, _, _ := score(ms.s5, o.s5); j >= 0.1 {
				clash = true
				break
			}
		}
		if clash {
			continue
		}
		b.add(page{
			URL: b.aURL(t), Origin: "trap", Docset: s.Docset, Package: s.Package, Parent: si,
			TemplateDocset: t.Docset, TrapGroup: name, HTML: out, Main: main, Title: s.Title,
		})
		members = append(members, len(b.c.pages)-1)
		sets = append(sets, ms)
	}
	for i := range members {
		for j := i + 1; j < len(members); j++ {
			b.c.traps = append(b.c.traps, trapPair{members[i], members[j], kind})
		}
	}
}

// familyKey groups pages of one URL pattern within a doc set: the
// directory and the file name up to its first '-' or '_'.
func familyKey(p *page) string {
	dir, file := path.Split(p.rel)
	if i := strings.IndexAny(file, "-_"); i > 0 {
		return p.Docset + ":" + dir + file[:i+1] + "*"
	}
	return p.Docset + ":" + dir + "*"
}

// skeletonTraps adds same-skeleton traps: pairs of real pages of one
// family with low main-text similarity, those with the largest gap
// between full-page and main-text resemblance.
func (b *builder) skeletonTraps() {
	fam := map[string][]int{}
	for i := range b.c.pages {
		if p := &b.c.pages[i]; p.Origin == "shipped" && p.main.tokens > 0 {
			fam[familyKey(p)] = append(fam[familyKey(p)], i)
		}
	}
	var keys []string
	for k, v := range fam {
		if len(v) >= minFamily {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(-cmp.Compare(len(fam[x]), len(fam[y])), cmp.Compare(x, y)) })
	if len(keys) > maxFamilies {
		keys = keys[:maxFamilies]
	}
	slices.Sort(keys)
	for _, k := range keys {
		m := fam[k]
		type cand struct {
			a, b int
			gap  float64
		}
		var cs []cand
		seen := map[[2]int]bool{}
		for range skeletonScored {
			x, y := m[b.r.IntN(len(m))], m[b.r.IntN(len(m))]
			if x == y {
				continue
			}
			if x > y {
				x, y = y, x
			}
			if seen[[2]int{x, y}] {
				continue
			}
			seen[[2]int{x, y}] = true
			pa, pb := &b.c.pages[x], &b.c.pages[y]
			j, ca, cb := score(pa.main.s5, pb.main.s5)
			if j >= 0.3 || ca >= 0.5 || cb >= 0.5 {
				continue
			}
			fj, _, _ := score(pa.full.s5, pb.full.s5)
			cs = append(cs, cand{x, y, fj - j})
		}
		slices.SortFunc(cs, func(p, q cand) int {
			return cmp.Or(-cmp.Compare(p.gap, q.gap), cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b))
		})
		for _, c := range cs[:min(skeletonPairs, len(cs))] {
			b.c.traps = append(b.c.traps, trapPair{c.a, c.b, "same-skeleton/" + k})
		}
	}
}

// finish computes text sets, languages, ids, traps and truth pairs.
func (b *builder) finish() {
	c := b.c
	parallelFor(len(c.pages), func(i int) {
		p := &c.pages[i]
		p.main = newTextSets(p.Main)
		p.full = newTextSets(p.Full)
		p.Lang = contentLang(p.Main)
	})
	b.skeletonTraps()
	// Ids in a random order, so that id order says nothing about origin.
	perm := b.r.Perm(len(c.pages))
	for i := range c.pages {
		c.pages[i].ID = fmt.Sprintf("p%05d", perm[i])
	}
	// Sort pages by id, remapping indexes.
	order := make([]int, len(c.pages))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(c.pages[x].ID, c.pages[y].ID) })
	newIdx := make([]int, len(order))
	for ni, oi := range order {
		newIdx[oi] = ni
	}
	pages := make([]page, len(order))
	for ni, oi := range order {
		pages[ni] = c.pages[oi]
		if pages[ni].Parent >= 0 {
			pages[ni].Parent = newIdx[pages[ni].Parent]
		}
	}
	c.pages = pages
	for i := range c.traps {
		t := &c.traps[i]
		t.A, t.B = newIdx[t.A], newIdx[t.B]
		if t.A > t.B {
			t.A, t.B = t.B, t.A
		}
	}
	slices.SortFunc(c.traps, func(p, q trapPair) int { return cmp.Or(cmp.Compare(p.A, q.A), cmp.Compare(p.B, q.B)) })
	c.traps = slices.CompactFunc(c.traps, func(p, q trapPair) bool { return p.A == q.A && p.B == q.B })
	docs := make([]textSets, len(c.pages))
	for i := range c.pages {
		docs[i] = c.pages[i].main
	}
	c.pairs = truthPairs(docs)
}

// kind labels a truth pair (see README.md).
func (c *corpus) kind(a, b int, traps map[[2]int]bool) string {
	pa, pb := &c.pages[a], &c.pages[b]
	switch {
	case traps[[2]int{a, b}]:
		return "trap"
	case pa.Origin == "shipped" && pb.Origin == "shipped":
		return "natural"
	case pa.Parent == b:
		return genKind(pa.Origin)
	case pb.Parent == a:
		return genKind(pb.Origin)
	case pa.Parent >= 0 && pa.Parent == pb.Parent && genKind(pa.Origin) == genKind(pb.Origin):
		return genKind(pa.Origin)
	}
	return "other"
}

// genKind is the pair kind of a generated page's origin: a trap page is
// also a reprint of its source.
func genKind(origin string) string {
	if origin == "trap" {
		return "reprint"
	}
	return origin
}
