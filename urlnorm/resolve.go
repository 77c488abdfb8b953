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
	start := len(dst)
	if len(ref) > n.maxLen {
		return dst, &Error{Op: op, URL: ref, Err: ErrTooLong}
	}
	r := removeTabNewline(trimControlSpace(ref))
	sch, rest, hasScheme := splitScheme(r)
	kind := schemeNone
	if hasScheme {
		if kind = lookupScheme(sch); kind == schemeNone {
			return dst, &Error{Op: op, URL: ref, Err: ErrUnsupportedScheme}
		}
		bsch, _, ok := splitScheme(removeTabNewline(trimControlSpace(base)))
		if !ok || lookupScheme(bsch) != kind ||
			len(rest) >= 2 && isSlash(rest[0]) && isSlash(rest[1]) {
			// Absolute: base plays no part.
			return n.rewrap(dst, start, r, ref, f, op)
		}
		r = rest // "http:x" against an http base is the relative "x"
	}

	bp := joinPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			joinPool.Put(bp)
		}
	}()
	// The base keeps its path, query and userinfo as Canonical prints them
	// (only the canonical-class flags: a key's dropped segments or sorted
	// query would change what a relative reference means), never its
	// fragment.
	b, err := n.appendURL((*bp)[:0], base, f&CanonicalFlags|DropFragment, "resolve base")
	*bp = b[:0]
	if err != nil {
		if e, ok := err.(*Error); ok {
			return dst, &Error{Op: "resolve base", URL: base, Err: e.Err}
		}
		return dst, err
	}
	if r == "" {
		// The base itself, without its fragment.
		j := append(b, b...)
		*bp = j[:0]
		return n.rewrap(dst, start, unsafe.String(unsafe.SliceData(j[len(b):]), len(b)), ref, f, op)
	}

	// b is scheme://[userinfo@]host[:port]/path[?query].
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

	j := b
	switch c := r[0]; {
	case isSlash(c) && len(r) >= 2 && isSlash(r[1]):
		// Scheme-relative: only the scheme of base stays.
		j = append(j, b[:schemeEnd+1]...)
		j = append(j, r...)
	case isSlash(c):
		// Path-absolute: the authority stays; a file base also lends its
		// drive letter to a path that has none (WHATWG file slash state).
		j = append(j, b[:authEnd]...)
		if file && !startsWithDriveLetter(r[1:]) && baseDrive(b[authEnd:pathEnd]) {
			j = append(j, b[authEnd:authEnd+3]...)
		}
		j = append(j, r...)
	case c == '?':
		j = append(j, b[:pathEnd]...)
		j = append(j, r...)
	case c == '#':
		j = append(j, b...)
		j = append(j, r...)
	case file && startsWithDriveLetter(r):
		// A drive letter replaces the whole path of a file base.
		j = append(j, b[:authEnd]...)
		j = append(j, '/')
		j = append(j, r...)
	default:
		// Path-relative: the base path without its last segment, except
		// that a file path that is only a drive letter keeps it.
		k := pathEnd - 1
		if file && pathEnd-authEnd == 3 && baseDrive(b[authEnd:pathEnd]) {
			j = append(j, b[:pathEnd]...)
			j = append(j, '/')
		} else {
			for b[k] != '/' {
				k--
			}
			j = append(j, b[:k+1]...)
		}
		j = append(j, r...)
	}
	*bp = j[:0]
	joined := j[len(b):]
	return n.rewrap(dst, start, unsafe.String(unsafe.SliceData(joined), len(joined)), ref, f, op)
}

// rewrap parses the joined text s with flags f, and reports an error
// against ref, the caller's input (s may live in a pooled buffer).
func (n *Normalizer) rewrap(dst []byte, start int, s, ref string, f Flags, op string) ([]byte, error) {
	out, err := n.appendURL(dst, s, f, op)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return dst[:start], &Error{Op: op, URL: ref, Err: e.Err}
		}
		return dst[:start], err
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
