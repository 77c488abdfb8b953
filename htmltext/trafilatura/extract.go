package trafilatura

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	gotrafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/undust/undust/htmltext"
)

// DefaultMaxBytes is the page size limit of an [Extractor] whose MaxBytes
// is 0.
const DefaultMaxBytes = 16 << 20

// DefaultMaxElements is the element count limit of an [Extractor] whose
// MaxElements is 0. go-trafilatura's time grows faster than linearly in
// the number of elements: a page of 20,000 sibling links took 2.5 s on
// one core where 10,000 took 0.8 s.
const DefaultMaxElements = 20000

// ErrTooLarge is returned (wrapped) for a page larger than a limit.
var ErrTooLarge = errors.New("trafilatura: page too large")

// Extractor extracts the main content of a page with go-trafilatura. The
// zero value is ready to use with the defaults. An Extractor is a plain
// value, safe for concurrent use by many goroutines (go-trafilatura keeps
// no shared mutable state; the tests run it concurrently under the race
// detector).
type Extractor struct {
	// Fallback also runs go-readability and DOM Distiller on the page and
	// keeps whichever result go-trafilatura judges best (its
	// EnableFallback). It costs about twice the time.
	Fallback bool
	// MaxBytes bounds the page size; 0 means DefaultMaxBytes. Larger
	// pages are rejected with an error wrapping ErrTooLarge.
	MaxBytes int
	// MaxElements bounds the number of elements of the parsed page; 0
	// means DefaultMaxElements. Larger pages are rejected with an error
	// wrapping ErrTooLarge.
	MaxElements int
}

// Check that an Extractor is an htmltext.Extractor.
var _ htmltext.Extractor = Extractor{}

// PanicError reports a panic inside go-trafilatura or a library it uses,
// recovered by ExtractText.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("trafilatura: extractor panicked: %v", e.Value)
}

// noText is the start of the error go-trafilatura returns for a page with
// neither main text nor comments; the adapter returns an empty Text for it,
// as htmltext does for a page without text.
const noText = "text and comments are not long enough"

// ExtractText returns the title and main-content paragraphs of page (see
// the package documentation for their shape). A page without main content
// gives an empty Text and no error. It fails for a page larger than the
// limits, for markup the HTML parser rejects (nesting deeper than 512
// elements) and when the extractor panics. It does not keep or modify page.
func (e Extractor) ExtractText(page []byte) (t htmltext.Text, err error) {
	limit := e.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if len(page) > limit {
		return htmltext.Text{}, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(page), limit)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return htmltext.Text{}, fmt.Errorf("trafilatura: parse: %w", err)
	}
	maxElems := e.MaxElements
	if maxElems <= 0 {
		maxElems = DefaultMaxElements
	}
	if n := countElements(doc, maxElems); n > maxElems {
		return htmltext.Text{}, fmt.Errorf("%w: more than %d elements", ErrTooLarge, maxElems)
	}
	defer func() {
		if v := recover(); v != nil {
			t, err = htmltext.Text{}, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	res, err := extractDocument(doc, gotrafilatura.Options{
		EnableFallback: e.Fallback,
		// Dates are not wanted; Disabled skips scanning the page for them.
		HtmlDateMode: gotrafilatura.Disabled,
	})
	if err != nil {
		if strings.HasPrefix(err.Error(), noText) {
			return htmltext.Text{}, nil
		}
		return htmltext.Text{}, fmt.Errorf("trafilatura: %w", err)
	}
	t.Title = collapse(res.Metadata.Title)
	if res.ContentNode != nil {
		var w walker
		w.node(res.ContentNode)
		w.flush()
		t.Paragraphs = w.paras
	}
	return t, nil
}

// extractDocument is go-trafilatura's entry point; tests replace it.
var extractDocument = gotrafilatura.ExtractDocument

// countElements returns the number of element nodes under n, counting no
// further than limit+1. It walks without recursion.
func countElements(n *html.Node, limit int) int {
	count := 0
	for c := n; c != nil; {
		if c.Type == html.ElementNode {
			if count++; count > limit {
				return count
			}
		}
		if c.FirstChild != nil {
			c = c.FirstChild
			continue
		}
		for c != n && c.NextSibling == nil {
			c = c.Parent
		}
		if c == n {
			break
		}
		c = c.NextSibling
	}
	return count
}

// walker collects the paragraphs of a DOM tree.
type walker struct {
	buf   strings.Builder
	paras []string
	pre   int // depth of open pre elements
}

// inline are the elements that do not end a paragraph; every other element
// does, before and after its content.
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Cite: true, atom.Code: true, atom.Data: true, atom.Del: true, atom.Dfn: true,
	atom.Em: true, atom.Font: true, atom.I: true, atom.Img: true, atom.Ins: true,
	atom.Kbd: true, atom.Label: true, atom.Mark: true, atom.Q: true, atom.Rp: true,
	atom.Rt: true, atom.Ruby: true, atom.S: true, atom.Samp: true, atom.Small: true,
	atom.Span: true, atom.Strike: true, atom.Strong: true, atom.Sub: true, atom.Sup: true,
	atom.Time: true, atom.Tt: true, atom.U: true, atom.Var: true, atom.Wbr: true,
}

// skip are elements whose text is not shown.
var skip = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Head: true, atom.Title: true,
}

func (w *walker) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
	default:
		return // comments, doctype
	}
	if n.Type == html.ElementNode {
		if skip[n.DataAtom] {
			return
		}
		if !inline[n.DataAtom] {
			w.flush()
			defer w.flush()
		}
		if n.DataAtom == atom.Pre {
			w.pre++
			defer func() { w.pre-- }()
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// text adds s to the open paragraph; inside pre a blank line ends it.
func (w *walker) text(s string) {
	if w.pre == 0 {
		w.buf.WriteString(s)
		return
	}
	for {
		i := blankLine(s)
		if i < 0 {
			w.buf.WriteString(s)
			return
		}
		w.buf.WriteString(s[:i])
		w.flush()
		s = s[i+1:]
	}
}

// blankLine returns the index of the line break that starts a blank line
// in s (a line break followed by only spaces and another line break), or
// -1.
func blankLine(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' {
			continue
		}
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\n' {
				return i
			}
			if s[j] != ' ' && s[j] != '\t' && s[j] != '\r' {
				break
			}
		}
	}
	return -1
}

// flush ends the open paragraph.
func (w *walker) flush() {
	if w.buf.Len() == 0 {
		return
	}
	if p := collapse(w.buf.String()); p != "" {
		w.paras = append(w.paras, p)
	}
	w.buf.Reset()
}

// collapse returns s with white space runs replaced by one space, trimmed.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
