package learn

import (
	"github.com/undust/undust/internal/ablate"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/internal/hashid"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// opKind is what a transformation writes for one token of the target URL. The zero value is
// no operation (in edit.PathCase: no conversion).
type opKind uint8

// The kinds of a transformation's operations (Koppula et al. Definition 2 and Algorithm 3).
const (
	opLiteral    opKind = iota + 1 // a fixed value
	opRef                          // the value of another key of the source URL (key reference)
	opLower                        // the lowercased value of a key of the source (value conversion)
	opUpper                        // the uppercased value of a key of the source (value conversion)
	opLowerFirst                   // the value with its first letter lowercased (value conversion)
	opUpperFirst                   // the value with its first letter uppercased, as wikis do
	opPrefix                       // the first N bytes of a hash-like value (an abbreviation of a hash)
	opHead                         // the leading run of letters and digits of a value, its slug cut (rules.Head)
)

// conversions are the value conversions in the order derive tries them: the narrower first, so
// that a pair differing in the first letter only is learned as such (on a wiki, where only the
// first letter is case-insensitive, lowercasing the whole title would merge different pages).
var conversions = [...]opKind{opLowerFirst, opUpperFirst, opLower, opUpper}

var opNames = [...]string{opLower: "lower", opUpper: "upper", opLowerFirst: "lowerfirst", opUpperFirst: "upperfirst", opHead: "head"}

// An vop computes one value of the target URL. It is a plain value, safe to copy and share.
type vop struct {
	Kind opKind
	Ref  urlnorm.Key // the source key read by opRef, the conversions, opPrefix, opHead
	Lit  string      // the value written by opLiteral
	Bare bool        // a query parameter written without "=" (opLiteral only)
	N    int         // the length of an opPrefix
}

func (o vop) String() string {
	switch o.Kind {
	case opLiteral:
		if o.Bare {
			return "bare"
		}
		return strconv.Quote(o.Lit)
	case opRef:
		return o.Ref.String()
	case opLower, opUpper, opLowerFirst, opUpperFirst, opHead:
		return opNames[o.Kind] + "(" + o.Ref.String() + ")"
	case opPrefix:
		return "prefix" + strconv.Itoa(o.N) + "(" + o.Ref.String() + ")"
	}
	return "op(" + strconv.Itoa(int(o.Kind)) + ")"
}

// A queryOp sets or deletes one query parameter of the target. It is a plain value, safe to
// copy and share.
type queryOp struct {
	Name   string
	Delete bool // the parameter is removed (the paper's ⊥)
	vop    vop  // otherwise the parameter is set to this
}

// A edit turns a source URL into its target (the paper's transformation t). Unlike the
// paper, which keys every target value by position, the path is described as an edit of the
// source path: optional case conversion of every segment, then a window of Del segments, Skip
// segments from the start (or from the end when FromEnd is set), replaced by the values of Ins.
// So "drop the last segment index.html" is one transformation at every depth (the paper's
// ag.arizona.edu example), and "drop the slug before /dp/ID" is one for every product. Path
// references in Ins address source segments from the anchored side (Pos from the start, RPos
// from the end). Query parameters are set or deleted by name.
//
// The zero edit is the identity. A edit is a value: safe to copy and share.
type edit struct {
	Scheme   *vop   // nil keeps the scheme
	Host     *vop   // nil keeps the host
	PathCase opKind // 0 or a value conversion, applied to every path segment first
	FromEnd  bool
	Skip     int
	Del      int
	Ins      []vop
	Query    []queryOp // sorted by name
}

// isIdentity reports whether t changes nothing.
func (t *edit) isIdentity() bool {
	return t.Scheme == nil && t.Host == nil && t.PathCase == 0 && t.Del == 0 && len(t.Ins) == 0 && len(t.Query) == 0
}

// String returns a canonical text form of t: equal transforms have equal strings. It is the
// "transformation" half of a line of the rules text format, e.g.
// `path[-0-1+""] query[-sid]` for "at the end, delete one segment and insert the empty segment;
// delete sid".
func (t *edit) String() string {
	if t.isIdentity() {
		return "identity"
	}
	var b strings.Builder
	sp := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
	}
	if t.Scheme != nil {
		b.WriteString("scheme=" + t.Scheme.String())
	}
	if t.Host != nil {
		sp()
		b.WriteString("host=" + t.Host.String())
	}
	if t.PathCase != 0 {
		sp()
		b.WriteString("path=" + opNames[t.PathCase])
	}
	if t.Del != 0 || len(t.Ins) != 0 {
		sp()
		b.WriteString("path[")
		if t.FromEnd {
			b.WriteByte('-')
		} else {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(t.Skip))
		b.WriteString("-" + strconv.Itoa(t.Del))
		for _, o := range t.Ins {
			b.WriteString("+" + o.String())
		}
		b.WriteByte(']')
	}
	if len(t.Query) != 0 {
		sp()
		b.WriteString("query[")
		for i, q := range t.Query {
			if i > 0 {
				b.WriteByte(',')
			}
			if q.Delete {
				b.WriteString("-" + q.Name)
			} else {
				b.WriteString(q.Name + "=" + q.vop.String())
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}

// parsed is a prepared URL split into the parts a edit works on.
type parsed struct {
	scheme, host string // host is the whole authority: userinfo, host name and port
	path         []string
	query        []urlnorm.Token // PartQuery tokens, sorted by name (Prepare sorts them)
	deep         []urlnorm.Token // deep tokens of path segments and query values (Sub > 0)
}

// hostName returns the host name of p, without user information and port.
func (p *parsed) hostName() string {
	h, _, _ := splitAuthority(p.host)
	return h
}

// splitDeep sets p.deep to the deep tokens that pt splits the tokens of prep (p's text) into.
func (p *parsed) splitDeep(pt *deeptoken.Patterns, prep string) {
	toks, err := urlnorm.Tokenize(nil, prep)
	if err != nil {
		return
	}
	p.deep = nil
	for _, t := range pt.AppendSplit(nil, toks) {
		if t.Sub != 0 {
			p.deep = append(p.deep, t)
		}
	}
}

func parse(prepared string, buf []urlnorm.Token) (parsed, []urlnorm.Token, bool) {
	toks, err := urlnorm.Tokenize(buf[:0], prepared)
	if err != nil {
		return parsed{}, toks, false
	}
	var p parsed
	for _, t := range toks {
		switch t.Part {
		case urlnorm.PartScheme:
			p.scheme = t.Value
		case urlnorm.PartHost:
			p.host += t.Value
		case urlnorm.PartUserinfo:
			p.host = t.Value + "@" + p.host
		case urlnorm.PartPort:
			p.host += ":" + t.Value
		case urlnorm.PartPath:
			p.path = append(p.path, t.Value)
		case urlnorm.PartQuery:
			p.query = append(p.query, t)
		}
	}
	return p, toks, true
}

func (p *parsed) String() string {
	var b strings.Builder
	b.WriteString(p.scheme)
	b.WriteString("://")
	b.WriteString(p.host)
	for _, s := range p.path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	if len(p.path) == 0 {
		b.WriteByte('/')
	}
	for i, q := range p.query {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(q.Name)
		if !q.Bare {
			b.WriteByte('=')
			b.WriteString(q.Value)
		}
	}
	return b.String()
}

// lookup returns the value of key k in p.
func (p *parsed) lookup(k urlnorm.Key) (string, bool) {
	if k.Sub != 0 || k.RSub != 0 {
		for _, t := range p.deep {
			if t.Part == k.Part && (k.Sub == 0 || t.Sub == k.Sub) && (k.RSub == 0 || t.RSub == k.RSub) &&
				(k.Part != urlnorm.PartPath || (k.Pos == 0 || t.Pos == k.Pos) && (k.RPos == 0 || t.RPos == k.RPos)) &&
				(k.Part != urlnorm.PartQuery || t.Name == k.Name && t.Pos == max(k.Pos, 1)) {
				return t.Value, true
			}
		}
		return "", false
	}
	switch k.Part {
	case urlnorm.PartScheme:
		return p.scheme, true
	case urlnorm.PartHost:
		return p.host, true
	case urlnorm.PartPath:
		n := len(p.path)
		if k.Pos > 0 && int(k.Pos) <= n {
			return p.path[k.Pos-1], true
		}
		if k.Pos == 0 && k.RPos > 0 && int(k.RPos) <= n {
			return p.path[n-int(k.RPos)], true
		}
	case urlnorm.PartQuery:
		n := int16(0)
		for _, q := range p.query {
			if q.Name == k.Name {
				if n++; n >= k.Pos {
					return q.Value, true
				}
			}
		}
	}
	return "", false
}

// derive computes the pairwise transformation from src to tgt: Koppula et al. Algorithm 3
// (GeneratePairwiseRule), lines 2-11, in this package's edit form. For each target value it
// tries, in the paper's order, a key reference (the same value under another source key), a value
// conversion (lowercase, uppercase), then a literal; source keys absent from the target are
// deleted.
func derive(src, tgt *parsed) edit {
	var t edit
	if src.scheme != tgt.scheme {
		t.Scheme = &vop{Kind: opLiteral, Lit: tgt.scheme}
	}
	if src.host != tgt.host {
		t.Host = &vop{Kind: opLiteral, Lit: tgt.host}
	}

	// Path: try no conversion, lowercase, uppercase; keep the one with the smallest window.
	sp := src.path
	best, bestCase := window(sp, tgt.path), opKind(0)
	for _, c := range conversions {
		conv := convertAll(sp, c)
		if slices.Equal(conv, sp) {
			continue
		}
		if w := window(conv, tgt.path); w.cost() < best.cost() {
			best, bestCase = w, c
		}
	}
	t.PathCase = bestCase
	if bestCase != 0 {
		sp = convertAll(sp, bestCase)
	}
	w := best
	t.FromEnd, t.Skip, t.Del = w.fromEnd, w.skip, w.del
	if w.del == 0 && len(w.ins) == 0 {
		t.FromEnd, t.Skip = false, 0
	}
	cs := *src
	cs.path = sp
	for _, v := range w.ins {
		t.Ins = append(t.Ins, valueOp(&cs, v, w.fromEnd, false))
	}

	// Query, by name: a name whose values (in order) differ is deleted, or set to the target's
	// values, one op per occurrence.
	names := make([]string, 0, len(src.query)+len(tgt.query))
	for _, q := range src.query {
		names = append(names, q.Name)
	}
	for _, q := range tgt.query {
		names = append(names, q.Name)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		sv, tv := queryValues(src.query, name), queryValues(tgt.query, name)
		if slices.Equal(sv, tv) {
			continue
		}
		if len(tv) == 0 {
			t.Query = append(t.Query, queryOp{Name: name, Delete: true})
			continue
		}
		for _, q := range tgt.query {
			if q.Name == name {
				t.Query = append(t.Query, queryOp{Name: name, vop: valueOp(src, q.Value, false, q.Bare)})
			}
		}
	}
	slices.SortStableFunc(t.Query, func(a, b queryOp) int { return strings.Compare(a.Name, b.Name) })
	return t
}

// valueOp finds how the target value v can be computed from src: key reference, value
// conversion, prefix of a hash-like value (see prefixOp) or literal. Empty values and bare
// parameters are always literal: a reference to an empty segment would tie the rule to an
// accident of the source.
func valueOp(src *parsed, v string, fromEnd, bare bool) vop {
	if bare || v == "" {
		return vop{Kind: opLiteral, Lit: v, Bare: bare}
	}
	n := len(src.path)
	pathKey := func(i int) urlnorm.Key {
		if fromEnd {
			return urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(n - i)}
		}
		return urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(i + 1)}
	}
	for _, kind := range []opKind{opRef, opLowerFirst, opUpperFirst, opLower, opUpper} {
		conv := func(s string) string { return convert(s, kind) }
		for i, s := range src.path {
			if conv(s) == v && (kind == opRef || s != v) {
				return vop{Kind: kind, Ref: pathKey(i)}
			}
		}
		for _, q := range src.query {
			if !q.Bare && conv(q.Value) == v && (kind == opRef || q.Value != v) {
				k := urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
				if q.Pos > 1 {
					k.Pos = q.Pos
				}
				return vop{Kind: kind, Ref: k}
			}
		}
		if kind != opRef {
			continue
		}
		// A deep token of the source (a part of a segment or a value): "friends" of
		// "friends-xyz", the id of "3263-slug".
		for _, t := range src.deep {
			if t.Value != v {
				continue
			}
			k := urlnorm.Key{Part: t.Part, Sub: t.Sub}
			switch {
			case t.Part == urlnorm.PartQuery:
				k.Name = t.Name
				if t.Pos > 1 {
					k.Pos = t.Pos
				}
			case fromEnd:
				k.RPos = t.RPos
			default:
				k.Pos = t.Pos
			}
			return vop{Kind: kind, Ref: k}
		}
	}
	if o, ok := prefixOp(src, v, pathKey); ok && !ablate.NoHashPrefix {
		return o
	}
	if o, ok := headOp(src, v, pathKey); ok && !ablate.NoHead {
		return o
	}
	return vop{Kind: opLiteral, Lit: v}
}

// headOp returns the op that computes v as the head of a longer value of src (a path segment
// or a query value): its leading run of letters and digits, the rest cut from the first other
// byte on (rules.Head). Applications that name a record by its id and a slug or alias they
// ignore link it with the slug and without (/threads/5000-stone-ember and /threads/5000,
// id=12:welcome and id=12); the slug differs for every record, so that neither a literal nor a
// deep token (the site's slugs share no anchor) writes the id, and the pairs of every record
// are one transformation only through the head. In a path segment v must be an identifier,
// with a digit in it: a word cut from a longer segment (story from story.php) is a literal that
// generalizes as it is. In a query value a word is a head too: a search for a person linked by
// name and by e-mail address (s=grace and s=grace@example.org) writes another name for every
// person, so that as a literal each person's pairs would be a transformation of their own.
func headOp(src *parsed, v string, pathKey func(int) urlnorm.Key) (vop, bool) {
	if v == "" || rules.Head.Apply(v) != v {
		return vop{}, false
	}
	of := func(s string) bool { return len(s) > len(v) && rules.Head.Apply(s) == v }
	if strings.ContainsAny(v, "0123456789") {
		for i, s := range src.path {
			if of(s) {
				return vop{Kind: opHead, Ref: pathKey(i)}, true
			}
		}
	} else if ablate.NoQueryHead {
		return vop{}, false
	}
	for _, q := range src.query {
		if !q.Bare && of(q.Value) {
			k := urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
			if q.Pos > 1 {
				k.Pos = q.Pos
			}
			return vop{Kind: opHead, Ref: k}, true
		}
	}
	return vop{}, false
}

// prefixOp returns the op that computes v as the first len(v) bytes of a longer value of src
// (a path segment or a query value), when both look like hashes (hashid.Like):
// a content-addressed store links one object by abbreviations of its hash of several lengths
// (Fossil's /info/bb8308f9454618b1 and /info/bb8308f9454618b1c3689c6b1c76...). The target
// selection's preference for shorter URLs makes the shortest abbreviation of a cluster its
// target, so the learned op cuts every longer form to it and keeps a shorter value as it is.
func prefixOp(src *parsed, v string, pathKey func(int) urlnorm.Key) (vop, bool) {
	if len(v) > rules.MaxPrefix || !hashid.Like(v) {
		return vop{}, false
	}
	of := func(s string) bool { return len(s) > len(v) && strings.HasPrefix(s, v) && hashid.Like(s) }
	for i, s := range src.path {
		if of(s) {
			return vop{Kind: opPrefix, Ref: pathKey(i), N: len(v)}, true
		}
	}
	for _, q := range src.query {
		if !q.Bare && of(q.Value) {
			k := urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
			if q.Pos > 1 {
				k.Pos = q.Pos
			}
			return vop{Kind: opPrefix, Ref: k, N: len(v)}, true
		}
	}
	return vop{}, false
}

func convert(s string, k opKind) string {
	switch k {
	case opHead:
		return rules.Head.Apply(s)
	case opLower:
		return strings.ToLower(s)
	case opUpper:
		return strings.ToUpper(s)
	case opLowerFirst, opUpperFirst:
		if s == "" {
			return s
		}
		r, n := utf8.DecodeRuneInString(s)
		if k == opLowerFirst {
			r = unicode.ToLower(r)
		} else {
			r = unicode.ToUpper(r)
		}
		if r == utf8.RuneError {
			return s
		}
		return string(r) + s[n:]
	}
	return s
}

func convertAll(p []string, k opKind) []string {
	out := make([]string, len(p))
	for i, s := range p {
		out[i] = convert(s, k)
	}
	return out
}

type pathWindow struct {
	fromEnd   bool
	skip, del int
	ins       []string
}

func (w pathWindow) cost() int { return w.del + len(w.ins) }

// window finds the smallest replaced window between source and target paths: the longest
// common prefix and suffix are kept. The edit is anchored on the side with the shorter kept run,
// so that what it counts does not depend on the depth of the other side.
func window(s, t []string) pathWindow {
	p := 0
	for p < len(s) && p < len(t) && s[p] == t[p] {
		p++
	}
	q := 0
	for q < len(s)-p && q < len(t)-p && s[len(s)-1-q] == t[len(t)-1-q] {
		q++
	}
	w := pathWindow{del: len(s) - p - q, ins: t[p : len(t)-q]}
	if q < p {
		w.fromEnd, w.skip = true, q
	} else {
		w.skip = p
	}
	return w
}

// apply applies t to src and reports whether it could: a reference to a key the source lacks
// or a window beyond the source's path makes it inapplicable.
func (t *edit) apply(src *parsed) (parsed, bool) {
	out := parsed{scheme: src.scheme, host: src.host}
	sp := src.path
	if t.PathCase != 0 {
		sp = convertAll(sp, t.PathCase)
	}
	if t.Scheme != nil {
		v, ok := t.Scheme.eval(src, sp, t.PathCase)
		if !ok {
			return out, false
		}
		out.scheme = v
	}
	if t.Host != nil {
		v, ok := t.Host.eval(src, sp, t.PathCase)
		if !ok {
			return out, false
		}
		out.host = v
	}
	n := len(sp)
	if t.Skip+t.Del > n {
		return out, false
	}
	start := t.Skip
	if t.FromEnd {
		start = n - t.Skip - t.Del
	}
	out.path = make([]string, 0, n-t.Del+len(t.Ins))
	out.path = append(out.path, sp[:start]...)
	for _, o := range t.Ins {
		v, ok := o.eval(src, sp, t.PathCase)
		if !ok {
			return out, false
		}
		out.path = append(out.path, v)
	}
	out.path = append(out.path, sp[start+t.Del:]...)
	if len(out.path) == 0 {
		// A URL always has a path: the empty path is the single empty segment of "/".
		out.path = append(out.path, "")
	}

	out.query = make([]urlnorm.Token, 0, len(src.query)+len(t.Query))
	for _, q := range src.query {
		if !slices.ContainsFunc(t.Query, func(o queryOp) bool { return o.Name == q.Name }) {
			out.query = append(out.query, q)
		}
	}
	for _, o := range t.Query {
		if o.Delete {
			continue
		}
		v, ok := o.vop.eval(src, sp, t.PathCase)
		if !ok {
			return out, false
		}
		out.query = append(out.query, urlnorm.Token{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: o.Name}, Value: v, Bare: o.vop.Bare})
	}
	slices.SortStableFunc(out.query, func(a, b urlnorm.Token) int { return strings.Compare(a.Name, b.Name) })
	return out, true
}

// eval computes an op's value; path references read the source path converted by pc (sp is
// the converted path).
func (o *vop) eval(src *parsed, sp []string, pc opKind) (string, bool) {
	if o.Kind == opLiteral {
		return o.Lit, true
	}
	if o.Kind == opPrefix {
		v, ok := src.lookup(o.Ref)
		if !ok {
			return "", false
		}
		if o.Ref.Part == urlnorm.PartPath && o.Ref.Sub == 0 && o.Ref.RSub == 0 {
			v, ok = (&parsed{path: sp}).lookup(o.Ref)
		}
		return v[:min(len(v), o.N)], ok
	}
	var v string
	var ok bool
	if o.Ref.Part == urlnorm.PartPath && o.Ref.Sub == 0 && o.Ref.RSub == 0 {
		tmp := parsed{path: sp}
		v, ok = tmp.lookup(o.Ref)
	} else {
		v, ok = src.lookup(o.Ref)
		if ok && o.Ref.Part == urlnorm.PartPath {
			v = convert(v, pc) // a deep token of a segment is converted with its segment
		}
	}
	if !ok {
		return "", false
	}
	return convert(v, o.Kind), true
}

// queryValues returns the values of the parameters named name, in order; a bare parameter
// counts as the value "\x00" so that ?a and ?a= differ.
func queryValues(q []urlnorm.Token, name string) []string {
	var out []string
	for _, t := range q {
		if t.Name == name {
			if t.Bare {
				out = append(out, "\x00")
			} else {
				out = append(out, t.Value)
			}
		}
	}
	return out
}
