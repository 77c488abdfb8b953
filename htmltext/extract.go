package htmltext

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Options selects what [Extract] keeps. The zero value extracts the full
// visible text.
type Options struct {
	// MainContent drops navigation, sidebars, ads, comments, related-link
	// lists and other template blocks by their block features (see the
	// package documentation).
	MainContent bool
	// DropHidden drops elements with the hidden attribute or an inline
	// style "display:none" or "visibility:hidden". It is off by default
	// because pages commonly reveal such text with script (LibreOffice
	// help keeps its per-platform instructions in hidden spans), so a
	// reader sees it.
	DropHidden bool

	collect *collector // set by Site: keep every paragraph with its features
	// MaxBytes is the most bytes of a page Extract reads: a longer page is
	// cut there, as a crawler cuts a long download, and extracted as if it
	// ended there. 0 means DefaultMaxBytes; a negative value means no
	// limit. Extract's time and memory are linear in the bytes it reads.
	MaxBytes int
}

// DefaultMaxBytes is the page size Extract reads when Options.MaxBytes is 0:
// 16 MiB, a little above the 15 MB of a page that Googlebot reads, far above
// the HTML of nearly every real page.
const DefaultMaxBytes = 16 << 20

// Text is the visible text of a page. The zero value is an empty text. A
// Text is a plain value: it keeps nothing of the input it was extracted from.
type Text struct {
	// Title is the content of the first title element, white space
	// collapsed; it is not repeated in Paragraphs.
	Title string
	// Paragraphs are the text blocks in document order, each trimmed and
	// never empty.
	Paragraphs []string
}

// String returns the paragraphs joined by blank lines, the form that the
// shingle, simhash and lcs packages take as input.
func (t Text) String() string { return strings.Join(t.Paragraphs, "\n\n") }

// maxDepth bounds the element stack; deeper elements are still scanned for
// text but do not change the context, so hostile nesting cannot take
// unbounded memory.
const maxDepth = 512

// shallow is the part of the element stack that an end tag may scan for its
// start tag; deeper frames are counted per element in extractor.deep (and
// unknown elements at every depth in extractor.names), so that an end tag
// whose element is not open deeper down skips them. An end tag thus costs at
// most shallow steps plus the frames it closes, and a page costs time linear
// in its length however deep it nests.
const shallow = 64

// frame is one open element.
type frame struct {
	a      atom.Atom
	name   string // tag name when a == 0
	hidden bool   // invisible subtree
	boiler bool   // template subtree (main-content mode)
	aside  bool   // marked by its tag as beside the content: nav, aside, footer, form, menu, dialog
	link   bool   // a with href
	pre    bool
	toc    bool
	list   int   // list id when this element is ul, ol, dl or menu
	track  int8  // index in extractor.inner of a, 0 when a is not tracked
	under  int32 // extractor.inner[track] before this frame was pushed
}

// para is a paragraph with the block features main-content selection uses.
type para struct {
	start  int // text is out[start:start+bytes]
	bytes  int // length of the collapsed text
	link   int // bytes of it inside links
	boiler bool
	list   int // innermost list, 0 if none
	toc    bool
}

type extractor struct {
	opt   Options
	stack []frame
	over  int // elements not pushed because of maxDepth

	hidden, boiler, link, pre, toc int // depth counters
	article                        int // open article and main elements

	// inner[t] is 1 + the stack index of the innermost open element of
	// tracked kind t (see trackOf), 0 if none: implicitClose compares them
	// instead of scanning the stack.
	inner [numTracked]int32
	// deep counts the open elements at stack index shallow or more by
	// atom; names counts the open unknown elements at any depth by name
	// (rare on real pages, so counting them all costs little).
	deep     map[atom.Atom]int32
	names    map[string]int32
	lists    []int
	nextList int

	cur      []byte
	out      []byte // text of all paragraphs, back to back
	curLink  int
	curSpace bool // last byte of cur is a collapsed space
	paras    []para
	title    string
	inTitle  bool
	hasBody  bool
}

// Extract returns the visible text of the HTML page html. Broken markup is
// read the way the tokenizer of golang.org/x/net/html reads it; Extract
// never fails on bad HTML, and the error is reserved for a failure of the
// tokenizer itself. It does not keep or modify html.
//
// Extract reads at most Options.MaxBytes of html (DefaultMaxBytes by
// default) and takes time and memory linear in what it reads, however deep
// the elements nest. The title and paragraphs are valid UTF-8 without NUL
// bytes: NUL is dropped, as browsers drop it from text, and every run of
// bytes that is not UTF-8 becomes U+FFFD, so the text is at most three
// times as long as the bytes read.
func Extract(htmlBytes []byte, o Options) (Text, error) {
	limit := o.MaxBytes
	if limit == 0 {
		limit = DefaultMaxBytes
	}
	if limit > 0 && len(htmlBytes) > limit {
		htmlBytes = htmlBytes[:limit]
	}
	e := extractor{opt: o}
	z := html.NewTokenizer(bytes.NewReader(htmlBytes))
	var nameBuf [32]byte
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return Text{}, &Error{Err: err}
			}
			e.flush()
			return e.result(), nil
		case html.TextToken:
			if e.inTitle {
				if e.title == "" {
					e.title = collapse(clean(z.Text()))
				}
				continue
			}
			if e.hidden > 0 {
				continue
			}
			e.text(clean(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			raw := z.Raw()
			name, i := rawTagName(raw, nameBuf[:0])
			e.start(raw, i, atom.Lookup(name), name, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			name, _ := rawTagName(z.Raw(), nameBuf[:0])
			e.end(atom.Lookup(name), name)
		}
	}
}

// Error reports a tokenizer failure.
type Error struct {
	Err error
}

func (e *Error) Error() string { return "htmltext: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func (e *extractor) start(raw []byte, at int, a atom.Atom, name []byte, selfClosing bool) {
	e.inTitle = false
	switch a {
	case atom.Title:
		if e.title == "" && !e.hasBody {
			e.inTitle = true
		}
		return
	case atom.Body:
		e.hasBody = true
	case atom.Br, atom.Hr:
		e.flush()
		return
	}
	if isVoid(a) {
		if isBlock(a) {
			e.flush()
		}
		return
	}
	e.implicitClose(a)
	f := frame{a: a}
	if a == 0 {
		f.name = string(name)
	}
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe,
		atom.Noembed, atom.Noframes, atom.Head, atom.Object, atom.Select:
		f.hidden = true
	case atom.Pre, atom.Textarea, atom.Listing, atom.Plaintext:
		f.pre = true
	case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
		e.nextList++
		f.list = e.nextList
	}
	if e.opt.MainContent {
		switch a {
		case atom.Nav, atom.Aside, atom.Footer, atom.Form, atom.Menu, atom.Dialog:
			f.boiler, f.aside = true, true
		case atom.Header:
			f.boiler = e.article == 0
		}
	}
	var id []byte
	for {
		k, v, next, ok := nextAttr(raw, at)
		if !ok {
			break
		}
		at = next
		if e.opt.collect != nil && keyIs(k, "id") && a != atom.Html && a != atom.Body {
			// html and body are once per page: their attributes name
			// the page or its kind ("page-id-42"), not where a block
			// lies on it.
			id = v
		}
		switch {
		case keyIs(k, "hidden"):
			f.hidden = f.hidden || e.opt.DropHidden
		case keyIs(k, "style"):
			if e.opt.DropHidden && displayNone(v) {
				f.hidden = true
			}
		case keyIs(k, "href"):
			if a == atom.A {
				f.link = true
			}
		case keyIs(k, "class") || keyIs(k, "id"):
			if !e.opt.MainContent || !isBlock(a) {
				continue
			}
			if boilerName(v) {
				f.boiler = true
			}
			if isTOCName(v) {
				f.toc = true
			}
		case keyIs(k, "role"):
			if e.opt.MainContent && isBlock(a) && boilerRole(v) {
				f.boiler = true
			}
		}
	}
	if e.opt.collect != nil {
		e.opt.collect.next = e.opt.collect.childPath(a, name, id)
	}
	if selfClosing && a != 0 {
		// <div/> in HTML is an open tag, but a self-closing foreign
		// element has no content; treat unknown ones as empty.
		if isBlock(a) {
			e.flush()
		}
		return
	}
	if isBlock(a) {
		e.flush()
	}
	if len(e.stack) >= maxDepth {
		e.over++
		return
	}
	e.push(f)
}

func (e *extractor) push(f frame) {
	if t := trackOf(f.a); t != 0 {
		f.track, f.under = t, e.inner[t]
		e.inner[t] = int32(len(e.stack) + 1)
	}
	if f.a == 0 {
		if e.names == nil {
			e.names = make(map[string]int32)
		}
		e.names[f.name]++
	} else if len(e.stack) >= shallow {
		if e.deep == nil {
			e.deep = make(map[atom.Atom]int32)
		}
		e.deep[f.a]++
	}
	if f.a == atom.Article || f.a == atom.Main {
		e.article++
	}
	e.stack = append(e.stack, f)
	if e.opt.collect != nil {
		e.opt.collect.push(f.boiler, f.aside, f.a == atom.H1)
	}
	if f.hidden {
		e.hidden++
	}
	if f.boiler {
		e.boiler++
	}
	if f.link {
		e.link++
	}
	if f.pre {
		e.pre++
	}
	if f.toc {
		e.toc++
	}
	if f.list != 0 {
		e.lists = append(e.lists, f.list)
	}
}

func (e *extractor) pop() {
	f := e.stack[len(e.stack)-1]
	e.stack = e.stack[:len(e.stack)-1]
	if e.opt.collect != nil {
		e.opt.collect.pop()
	}
	if f.track != 0 {
		e.inner[f.track] = f.under
	}
	if f.a == 0 {
		if e.names[f.name]--; e.names[f.name] == 0 {
			delete(e.names, f.name) // names are unbounded; atoms are not
		}
	} else if len(e.stack) >= shallow {
		e.deep[f.a]--
	}
	if f.a == atom.Article || f.a == atom.Main {
		e.article--
	}
	if isBlock(f.a) {
		e.flush()
	}
	if f.hidden {
		e.hidden--
	}
	if f.boiler {
		e.boiler--
	}
	if f.link {
		e.link--
	}
	if f.pre {
		e.pre--
	}
	if f.toc {
		e.toc--
	}
	if f.list != 0 {
		e.lists = e.lists[:len(e.lists)-1]
	}
}

func (e *extractor) end(a atom.Atom, name []byte) {
	e.inTitle = false
	if a == atom.Br {
		e.flush() // </br> is read as <br>
		return
	}
	if isVoid(a) || a == atom.Title {
		return
	}
	top := len(e.stack) - 1
	switch {
	case a == 0 && e.names[string(name)] == 0:
		top = -1 // no such unknown element is open
	case a != 0 && top >= shallow && e.deep[a] == 0:
		top = shallow - 1 // not open in the deep part: skip it
	}
	for i := top; i >= 0; i-- {
		f := &e.stack[i]
		if f.a == a && (a != 0 || f.name == string(name)) {
			for len(e.stack) > i {
				e.pop()
			}
			return
		}
	}
	if e.over > 0 {
		e.over--
		return
	}
	if isBlock(a) {
		e.flush() // a stray </p> or </div> still ends a paragraph
	}
}

// implicitClose closes an open p, li, dt, dd, td, th, tr or option that the
// start tag a ends, as the HTML parser does, so that unclosed list items do
// not nest: the innermost open element of the kinds a closes, unless an
// element of the kinds that stop the search is open inside it.
func (e *extractor) implicitClose(a atom.Atom) {
	in := &e.inner
	var same, stop int32 // 1 + stack index of the innermost of each, 0 if none
	switch a {
	case atom.Li:
		same, stop = in[tLi], max(in[tUl], in[tOl], in[tMenu])
	case atom.Dt, atom.Dd:
		same, stop = max(in[tDt], in[tDd]), in[tDl]
	case atom.Td, atom.Th:
		same, stop = max(in[tTd], in[tTh]), max(in[tTr], in[tTable])
	case atom.Tr:
		same, stop = in[tTr], in[tTable]
	case atom.Option:
		same, stop = in[tOption], in[tSelect]
	case atom.P, atom.Div, atom.Ul, atom.Ol, atom.Dl, atom.Table, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Pre, atom.Blockquote, atom.Section, atom.Article:
		same = in[tP]
		stop = max(in[tDiv], in[tTd], in[tTh], in[tLi], in[tBody], in[tSection], in[tArticle],
			in[tBlockquote], in[tTable], in[tButton])
	default:
		return
	}
	if same > stop {
		for len(e.stack) >= int(same) {
			e.pop()
		}
	}
}

// The element kinds implicitClose looks for, with their index in
// extractor.inner.
const (
	tNone = iota
	tLi
	tUl
	tOl
	tMenu
	tDt
	tDd
	tDl
	tTd
	tTh
	tTr
	tTable
	tOption
	tSelect
	tP
	tDiv
	tBody
	tSection
	tArticle
	tBlockquote
	tButton
	numTracked
)

func trackOf(a atom.Atom) int8 {
	switch a {
	case atom.Li:
		return tLi
	case atom.Ul:
		return tUl
	case atom.Ol:
		return tOl
	case atom.Menu:
		return tMenu
	case atom.Dt:
		return tDt
	case atom.Dd:
		return tDd
	case atom.Dl:
		return tDl
	case atom.Td:
		return tTd
	case atom.Th:
		return tTh
	case atom.Tr:
		return tTr
	case atom.Table:
		return tTable
	case atom.Option:
		return tOption
	case atom.Select:
		return tSelect
	case atom.P:
		return tP
	case atom.Div:
		return tDiv
	case atom.Body:
		return tBody
	case atom.Section:
		return tSection
	case atom.Article:
		return tArticle
	case atom.Blockquote:
		return tBlockquote
	case atom.Button:
		return tButton
	}
	return tNone
}

// clean returns t without NUL bytes and with every run of bytes that is not
// valid UTF-8 replaced by U+FFFD, so that extracted text is always valid
// UTF-8 free of NUL; t itself when it already is.
func clean(t []byte) []byte {
	if bytes.IndexByte(t, 0) < 0 && utf8.Valid(t) {
		return t
	}
	return bytes.ReplaceAll(bytes.ToValidUTF8(t, []byte("\uFFFD")), []byte{0}, nil)
}

// text appends decoded text to the current paragraph, collapsing white
// space outside pre.
func (e *extractor) text(t []byte) {
	before := len(e.cur)
	if e.pre > 0 {
		e.cur = append(e.cur, t...)
		e.curSpace = false
	} else {
		for _, c := range t {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				if !e.curSpace && len(e.cur) > 0 {
					e.cur = append(e.cur, ' ')
					e.curSpace = true
				}
				continue
			}
			e.cur = append(e.cur, c)
			e.curSpace = false
		}
	}
	if e.link > 0 {
		e.curLink += len(e.cur) - before
	}
	if e.opt.collect != nil {
		e.opt.collect.residue(e.cur[before:], e.link > 0)
	}
}

// flush ends the current paragraph.
func (e *extractor) flush() {
	if len(e.cur) == 0 {
		return
	}
	p := para{boiler: e.boiler > 0, toc: e.toc > 0, link: e.curLink}
	n := len(e.paras)
	if e.opt.collect != nil {
		e.opt.collect.chain(n)
	}
	if len(e.lists) > 0 {
		p.list = e.lists[len(e.lists)-1]
	}
	split := bytes.IndexByte(e.cur, '\n') >= 0
	if split { // only text inside pre keeps newlines
		for _, s := range splitBlank(string(e.cur)) {
			q := p
			q.start, q.bytes = len(e.out), len(s)
			e.out = append(e.out, s...)
			e.addPara(q)
		}
	} else if s := bytes.TrimSpace(e.cur); len(s) > 0 {
		p.start, p.bytes = len(e.out), len(s)
		e.out = append(e.out, s...)
		e.addPara(p)
	}
	if e.opt.collect != nil {
		e.opt.collect.endResidue(len(e.paras)-n, split)
	}
	e.cur = e.cur[:0]
	e.curLink = 0
	e.curSpace = false
}

// addPara appends p to e.paras, doubling the slice when it is full: append
// grows large slices by a quarter, which for a page of a million short
// paragraphs allocates five times their final size.
func (e *extractor) addPara(p para) {
	if len(e.paras) == cap(e.paras) {
		e.paras = slices.Grow(e.paras, max(len(e.paras), 16))
	}
	e.paras = append(e.paras, p)
}

// splitBlank splits preformatted text into paragraphs at blank lines and
// trims trailing white space of every line.
func splitBlank(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, t)
		}
		b.Reset()
	}
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(line, " \t\r\f")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	flush()
	return out
}

func (e *extractor) result() Text {
	t := Text{Title: e.title}
	all := string(e.out) // one allocation for the text of every paragraph
	text := func(p para) string { return all[p.start : p.start+p.bytes] }
	if e.opt.collect != nil {
		e.opt.collect.take(all, e.paras)
	}
	if !e.opt.MainContent {
		t.Paragraphs = make([]string, 0, len(e.paras))
		for _, p := range e.paras {
			t.Paragraphs = append(t.Paragraphs, text(p))
		}
		if len(t.Paragraphs) == 0 {
			t.Paragraphs = nil
		}
		return t
	}
	// Menus of links: list items that are mostly link text, in a list with
	// at least three of them.
	linky := func(p para) bool { return p.list != 0 && !p.toc && p.link > 0 && 3*p.link >= 2*p.bytes }
	count := map[int]int{}
	for _, p := range e.paras {
		if !p.boiler && linky(p) {
			count[p.list]++
		}
	}
	for _, p := range e.paras {
		if p.boiler || linky(p) && count[p.list] >= 3 {
			continue
		}
		t.Paragraphs = append(t.Paragraphs, text(p))
	}
	if len(t.Paragraphs) == 0 {
		for _, p := range e.paras {
			t.Paragraphs = append(t.Paragraphs, text(p))
		}
	}
	return t
}

// collapse returns s with white space runs replaced by one space, trimmed.
func collapse(s []byte) string {
	return strings.Join(strings.Fields(string(s)), " ")
}
