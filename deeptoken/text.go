package deeptoken

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// maxParseDepth bounds the depth of a parsed tree.
const maxParseDepth = 1000

// ErrSyntax is wrapped by the *ParseError that ParsePatterns returns for malformed text.
var ErrSyntax = errors.New("syntax error")

// A ParseError reports a malformed line of a patterns text.
type ParseError struct {
	Line int    // 1-based line number
	Text string // the line, without its "\n"
	Msg  string // what is wrong with it
}

func (e *ParseError) Error() string {
	t := e.Text
	if len(t) > 100 {
		t = t[:100] + "..."
	}
	return "deeptoken: line " + strconv.Itoa(e.Line) + ": " + e.Msg + ": " + strconv.Quote(t)
}

// Unwrap returns ErrSyntax.
func (e *ParseError) Unwrap() error { return ErrSyntax }

func needsEscape(c byte) bool {
	return c <= ' ' || c >= 0x7f || c == '%' || c == '*' || c == '^' || c == '$' || c == '~'
}

func appendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape(c) {
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func unescape(s string) (string, bool) {
	if !strings.ContainsAny(s, "%*^$~") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			if needsEscape(c) {
				return "", false
			}
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		h, ok1 := unhex(s[i+1])
		l, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b.WriteByte(h<<4 | l)
		i += 2
	}
	return b.String(), true
}

func appendDelim(dst []byte, d delim) []byte {
	switch d {
	case delimStart:
		return append(dst, '^')
	case delimEnd:
		return append(dst, '$')
	case delimChange:
		return append(dst, '~')
	}
	return appendEscaped(dst, d.text())
}

// appendSpans appends the text of the pattern that the alignment spans of s spells.
func appendSpans(dst []byte, s string, us []unit, spans []span) []byte {
	for i, sp := range spans {
		if i > 0 {
			dst = append(dst, ' ')
		}
		if sp.star {
			dst = append(dst, '*')
		} else {
			dst = appendEscaped(dst, s[us[sp.a].start:us[sp.a].end])
		}
	}
	return dst
}

func appendElems(dst []byte, elems []elem) []byte {
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ' ')
		}
		if e.star {
			dst = append(dst, '*')
		} else {
			dst = appendEscaped(dst, e.lit)
		}
	}
	return dst
}

func (k treeKey) compare(o treeKey) int {
	return cmp.Or(cmp.Compare(k.part, o.part), cmp.Compare(k.pos, o.pos), strings.Compare(k.name, o.name))
}

// AppendText appends the text form of p to dst and returns the extended buffer: lines ending
// in "\n", none empty and none starting with "#", in a deterministic order, so that the same
// patterns give byte-identical text. A nil or empty Patterns appends nothing. [ParsePatterns]
// reads the text back. The lines are statements with fields separated by one space:
//
//	key path 2                 the tree of path segment 2 (urlnorm.Key.Pos) follows
//	node 0 *                   its root pattern, at depth 0, always "*"
//	anchor 0 1 ^ - friends     an anchor that refines the node above: its star (from 0), its
//	                           position among the star's candidates (0 anywhere, 1 the first,
//	                           -1 the last), start and end delimiters, value
//	node 1 friends - *         a child pattern of the last node of depth 0
//	key query =_nkw            the tree of query parameter "_nkw" follows ("=" then the name)
//
// Pattern elements are "*" or a literal unit. Delimiters are "^" (start of the token), "$"
// (end), "~" (a unit change) or the delimiter character. Text escapes the bytes " ", "%", "*",
// "^", "$", "~", control bytes and bytes >= 0x7f as %XX. Keys come sorted (path by position,
// then query by name), nodes in pre-order with children sorted by their text, anchors sorted.
func (p *Patterns) AppendText(dst []byte) []byte {
	if p == nil {
		return dst
	}
	keys := make([]treeKey, 0, len(p.trees))
	for k := range p.trees {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, treeKey.compare)
	for _, k := range keys {
		dst = append(dst, "key "...)
		if k.part == urlnorm.PartPath {
			dst = append(dst, "path "...)
			dst = strconv.AppendInt(dst, int64(k.pos), 10)
		} else {
			dst = append(dst, "query ="...)
			dst = appendEscaped(dst, k.name)
		}
		dst = append(dst, '\n')
		dst = appendNode(dst, p.trees[k], 0)
	}
	return dst
}

func appendNode(dst []byte, n *node, depth int) []byte {
	dst = append(dst, "node "...)
	dst = strconv.AppendInt(dst, int64(depth), 10)
	dst = append(dst, ' ')
	dst = appendElems(dst, n.elems)
	dst = append(dst, '\n')
	lines := make([][]byte, 0, len(n.sel))
	for a := range n.sel {
		l := append([]byte("anchor "), strconv.Itoa(int(a.gap))...)
		l = append(l, ' ')
		l = strconv.AppendInt(l, int64(a.pos), 10)
		l = append(l, ' ')
		l = appendDelim(l, a.pre)
		l = append(l, ' ')
		l = appendDelim(l, a.post)
		l = append(l, ' ')
		l = appendEscaped(l, a.value)
		lines = append(lines, append(l, '\n'))
	}
	slices.SortFunc(lines, bytes.Compare)
	for _, l := range lines {
		dst = append(dst, l...)
	}
	kids := slices.Clone(n.kids)
	texts := make(map[*node]string, len(kids))
	for _, k := range kids {
		texts[k] = string(appendElems(nil, k.elems))
	}
	slices.SortStableFunc(kids, func(a, b *node) int { return strings.Compare(texts[a], texts[b]) })
	for _, k := range kids {
		dst = appendNode(dst, k, depth+1)
	}
	return dst
}

// String returns the text form of p, AppendText(nil) as a string.
func (p *Patterns) String() string { return string(p.AppendText(nil)) }

// ParsePatterns parses the text form that [Patterns.AppendText] writes. It returns a
// *ParseError, which wraps [ErrSyntax] and names the line, for malformed text. The text is not
// kept.
func ParsePatterns(text []byte) (*Patterns, error) {
	p := &Patterns{trees: make(map[treeKey]*node)}
	var (
		key     treeKey
		haveKey bool
		stack   []*node // stack[d] is the last node of depth d of the current tree
	)
	closeKey := func() bool {
		if haveKey && len(stack) == 0 {
			return false
		}
		return true
	}
	line := 0
	for len(text) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			l, text = text, nil
		}
		s := string(l)
		fail := func(msg string) (*Patterns, error) {
			return nil, &ParseError{Line: line, Text: s, Msg: msg}
		}
		f := strings.Split(s, " ")
		switch f[0] {
		case "key":
			if !closeKey() {
				return nil, &ParseError{Line: line - 1, Text: "", Msg: "key without patterns"}
			}
			if len(f) != 3 {
				return fail("want \"key path N\" or \"key query =NAME\"")
			}
			switch f[1] {
			case "path":
				n, err := strconv.Atoi(f[2])
				if err != nil || n < 1 || n > maxSub || strconv.Itoa(n) != f[2] {
					return fail("bad path position")
				}
				key = treeKey{part: urlnorm.PartPath, pos: int16(n)}
			case "query":
				name, ok := strings.CutPrefix(f[2], "=")
				if !ok {
					return fail("query name must start with \"=\"")
				}
				if name, ok = unescape(name); !ok {
					return fail("bad escape in query name")
				}
				key = treeKey{part: urlnorm.PartQuery, name: name}
			default:
				return fail("unknown key part")
			}
			if p.trees[key] != nil {
				return fail("duplicate key")
			}
			haveKey, stack = true, stack[:0]
		case "node":
			if !haveKey {
				return fail("node before key")
			}
			if len(f) < 3 {
				return fail("want \"node DEPTH ELEMENT...\"")
			}
			d, err := strconv.Atoi(f[1])
			if err != nil || d < 0 || d > len(stack) || d > maxParseDepth || strconv.Itoa(d) != f[1] {
				return fail("bad depth")
			}
			if (d == 0) != (len(stack) == 0) {
				return fail("one root per key")
			}
			n := &node{elems: make([]elem, 0, len(f)-2)}
			for _, e := range f[2:] {
				if e == "*" {
					if len(n.elems) > 0 && n.elems[len(n.elems)-1].star {
						return fail("two stars in a row")
					}
					n.elems = append(n.elems, elem{star: true})
					continue
				}
				lit, ok := unescape(e)
				if !ok {
					return fail("bad escape in pattern")
				}
				if len(appendUnits(nil, lit)) != 1 {
					return fail("pattern literal is not one unit")
				}
				n.elems = append(n.elems, elem{lit: lit})
			}
			if d == 0 {
				if len(n.elems) != 1 || !n.elems[0].star {
					return fail("root pattern must be \"*\"")
				}
				p.trees[key] = n
			} else {
				parent := stack[d-1]
				parent.kids = append(parent.kids, n)
			}
			stack = append(stack[:d], n)
		case "anchor":
			if len(stack) == 0 {
				return fail("anchor before node")
			}
			if len(f) != 6 {
				return fail("want \"anchor GAP POS PRE POST VALUE\"")
			}
			gap, err := strconv.Atoi(f[1])
			if err != nil || gap < 0 || gap > maxSub || strconv.Itoa(gap) != f[1] {
				return fail("bad gap")
			}
			pos, err := strconv.Atoi(f[2])
			if err != nil || pos < -maxOrd || pos > maxOrd || strconv.Itoa(pos) != f[2] {
				return fail("bad position")
			}
			pre, ok1 := parseDelim(f[3], delimStart)
			post, ok2 := parseDelim(f[4], delimEnd)
			if !ok1 || !ok2 {
				return fail("bad delimiter")
			}
			v, ok := unescape(f[5])
			if !ok {
				return fail("bad escape in anchor")
			}
			us := appendUnits(nil, v)
			if len(us) != 1 || us[0].kind == kindDelim {
				return fail("anchor is not one alphanumeric unit")
			}
			stack[len(stack)-1].addAnchor(anchorKey{gap: int32(gap), pos: int16(pos), pre: pre, post: post, num: us[0].numeric(), value: v})
		default:
			return fail("unknown statement")
		}
	}
	if !closeKey() {
		return nil, &ParseError{Line: line, Msg: "key without patterns"}
	}
	p.finish()
	return p, nil
}

// parseDelim parses a delimiter field; edge is the token edge ("^" or "$") allowed there.
func parseDelim(s string, edge delim) (delim, bool) {
	switch s {
	case "^":
		return delimStart, edge == delimStart
	case "$":
		return delimEnd, edge == delimEnd
	case "~":
		return delimChange, true
	}
	t, ok := unescape(s)
	if !ok {
		return 0, false
	}
	us := appendUnits(nil, t)
	if len(us) != 1 || us[0].kind != kindDelim {
		return 0, false
	}
	return charDelim(t), true
}
