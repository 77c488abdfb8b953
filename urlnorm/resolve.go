package urlnorm

// Resolution of a reference (an href) against a base URL, the WHATWG way.
//
// The base is canonicalized first; the reference is then joined to the
// parts of the canonical base it keeps (the WHATWG relative, relative slash
// and file states decide which), and the joined text goes through the same
// parser as Canonical and Key. Joining text rather than parsed parts keeps
// one parser for everything: dot segments, percent-encoding, hosts and the
// key flags behave in a resolved URL exactly as in an absolute one.

import (
	"sync"
	"unsafe"
)

// Resolve resolves the reference ref (an href: absolute, scheme-relative
// "//host/p", path-absolute "/p", path-relative "p", "../p", query "?q" or
// fragment "#f") against the absolute URL base and returns the canonical
// URL of the result, as Canonical would print it. It follows the WHATWG URL
// Standard's basic URL parser with a base URL, so the result is the URL a
// browser would follow; for example, against http://example.com/a/b?x,
// "c" is http://example.com/a/c, "../c" is http://example.com/c, "?y" is
// http://example.com/a/b?y and "//cdn.example.com/c" is
// http://cdn.example.com/c.
//
// Base and ref are read as a browser reads them, whatever n's flags:
// GuessScheme plays no part (a reference without a scheme is relative by
// definition). Base must be an absolute URL with a special scheme; it is
// needed only when ref has no scheme of its own or the scheme of base (then
// WHATWG reads "http:x" against an http base as the relative "x"), and its
// fragment never survives. A ref with another scheme than http, https, ws,
// wss, ftp and file (mailto:, javascript:, data:) fails with
// ErrUnsupportedScheme. The resolved URL must fit in Options.MaxLength.
//
// Errors are *Error values with Op "resolve" and URL ref, or Op
// "resolve base" and URL base when base is at fault. The cost is linear in
// len(base)+len(ref).
func (n *Normalizer) Resolve(base, ref string) (string, error) {
	return n.resolveStr(base, ref, n.flags&CanonicalFlags, "resolve")
}

// AppendResolve appends the canonical URL of ref resolved against base (see
// Resolve) to dst and returns the extended slice. Once warm it does not
// allocate when dst has room and base and ref have no tab or newline
// inside. On error dst is returned unchanged.
func (n *Normalizer) AppendResolve(dst []byte, base, ref string) ([]byte, error) {
	return n.appendResolved(dst, base, ref, n.flags&CanonicalFlags, "resolve")
}

// ResolveKey resolves ref against base as Resolve does and returns the dedup
// key of the result: ResolveKey(base, ref) equals Key(Resolve(base, ref)).
// This is the key a crawler wants for an href found on the page at base.
func (n *Normalizer) ResolveKey(base, ref string) (string, error) {
	return n.resolveStr(base, ref, n.flags, "resolve key")
}

// AppendResolveKey appends ResolveKey(base, ref) to dst and returns the
// extended slice. Once warm it does not allocate when dst has room and base
// and ref have no tab or newline inside. On error dst is returned unchanged.
func (n *Normalizer) AppendResolveKey(dst []byte, base, ref string) ([]byte, error) {
	return n.appendResolved(dst, base, ref, n.flags, "resolve key")
}

func (n *Normalizer) resolveStr(base, ref string, f Flags, op string) (string, error) {
	var buf [512]byte
	b, err := n.appendResolved(buf[:0], base, ref, f, op)
	if err != nil {
		return "", err
	}
	if string(b) == ref {
		return ref, nil
	}
	return string(b), nil
}

// joinPool holds scratch buffers for the canonical base and the joined text.
var joinPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendResolved is Resolve and ResolveKey: f selects the output.
func (n *Normalizer) appendResolved(dst []byte, base, ref string, f Flags, op string) ([]byte, error) {
	f &^= GuessScheme
	r, abs, err := n.readRef(ref, func() schemeKind {
		sch, _, ok := splitScheme(removeTabNewline(trimControlSpace(base)))
		if !ok {
			return schemeNone
		}
		return lookupScheme(sch)
	}, op)
	if err != nil || abs {
		return n.rewrap(dst, r, ref, f, op, err)
	}
	bp := joinPool.Get().(*[]byte)
	defer putJoin(bp)
	b, err := n.appendBase((*bp)[:0], base)
	*bp = b[:0]
	if err != nil {
		return dst, err
	}
	j := joinRef(b, b, r)
	*bp = j[:0]
	joined := j[len(b):]
	return n.rewrap(dst, unsafe.String(unsafe.SliceData(joined), len(joined)), ref, f, op, nil)
}

func putJoin(bp *[]byte) {
	if cap(*bp) <= 64<<10 {
		joinPool.Put(bp)
	}
}

// readRef trims ref the WHATWG way and decides whether it is absolute,
// asking baseKind for the base's scheme only when ref has a special scheme
// of its own. A relative r has the scheme cut off ("http:x" against an http
// base is the relative "x").
func (n *Normalizer) readRef(ref string, baseKind func() schemeKind, op string) (r string, abs bool, err error) {
	if len(ref) > n.maxLen {
		return "", false, &Error{Op: op, URL: ref, Err: ErrTooLong}
	}
	r = removeTabNewline(trimControlSpace(ref))
	sch, rest, hasScheme := splitScheme(r)
	if !hasScheme {
		return r, false, nil
	}
	kind := lookupScheme(sch)
	if kind == schemeNone {
		return "", false, &Error{Op: op, URL: ref, Err: ErrUnsupportedScheme}
	}
	if len(rest) >= 2 && isSlash(rest[0]) && isSlash(rest[1]) || baseKind() != kind {
		return r, true, nil // base plays no part
	}
	return rest, false, nil
}

// appendBase appends the canonical form of base that references are joined
// to: its path, query and userinfo as Canonical prints them (only the
// canonical-class flags: a key's dropped segments or sorted query would
// change what a relative reference means), never its fragment.
func (n *Normalizer) appendBase(dst []byte, base string) ([]byte, error) {
	b, err := n.appendURL(dst, base, nil, n.flags&CanonicalFlags|DropFragment, "resolve base")
	if err != nil {
		if e, ok := err.(*Error); ok {
			return b, &Error{Op: "resolve base", URL: base, Err: e.Err}
		}
	}
	return b, err
}

// joinRef appends to j the text of the relative reference r joined to the
// canonical base b, scheme://[userinfo@]host[:port]/path[?query], and
// returns the extended slice.
func joinRef(j, b []byte, r string) []byte {
	if r == "" {
		return append(j, b...) // the base itself, without its fragment
	}
	schemeEnd := 0
	for b[schemeEnd] != ':' {
		schemeEnd++
	}
	authEnd := schemeEnd + 3
	for authEnd < len(b) && b[authEnd] != '/' {
		authEnd++
	}
	pathEnd := authEnd
	for pathEnd < len(b) && b[pathEnd] != '?' {
		pathEnd++
	}
	file := string(b[:schemeEnd]) == "file"

	switch c := r[0]; {
	case isSlash(c) && len(r) >= 2 && isSlash(r[1]):
		// Scheme-relative: only the scheme of base stays.
		j = append(j, b[:schemeEnd+1]...)
	case isSlash(c):
		// Path-absolute: the authority stays; a file base also lends its
		// drive letter to a path that has none (WHATWG file slash state).
		j = append(j, b[:authEnd]...)
		if file && !startsWithDriveLetter(r[1:]) && baseDrive(b[authEnd:pathEnd]) {
			j = append(j, b[authEnd:authEnd+3]...)
		}
	case c == '?':
		j = append(j, b[:pathEnd]...)
	case c == '#':
		j = append(j, b...)
	case file && startsWithDriveLetter(r):
		// A drive letter replaces the whole path of a file base.
		j = append(j, b[:authEnd]...)
		j = append(j, '/')
	case file && pathEnd-authEnd == 3 && baseDrive(b[authEnd:pathEnd]):
		// A file path that is only a drive letter keeps it.
		j = append(j, b[:pathEnd]...)
		j = append(j, '/')
	default:
		// Path-relative: the base path without its last segment.
		k := pathEnd - 1
		for b[k] != '/' {
			k--
		}
		j = append(j, b[:k+1]...)
	}
	return append(j, r...)
}

// rewrap parses the joined text s with flags f (unless err is already set),
// and reports an error against ref, the caller's input (s may live in a
// pooled buffer). On error dst is returned unchanged.
func (n *Normalizer) rewrap(dst []byte, s, ref string, f Flags, op string, err error) ([]byte, error) {
	if err != nil {
		return dst, err
	}
	out, err := n.appendURL(dst, s, nil, f, op)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return dst, &Error{Op: op, URL: ref, Err: e.Err}
		}
		return dst, err
	}
	return out, nil
}

// startsWithDriveLetter is the WHATWG "starts with a Windows drive letter":
// a letter, ':' or '|', then the end or one of / \ ? #.
func startsWithDriveLetter(s string) bool {
	if len(s) < 2 || !isAlpha(s[0]) || s[1] != ':' && s[1] != '|' {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// baseDrive reports whether a canonical file path starts with a normalized
// drive letter segment: "/C:" or "/C:/...".
func baseDrive(p []byte) bool {
	return len(p) >= 3 && isNormDriveLetter(p[1:3]) && (len(p) == 3 || p[3] == '/')
}
