package urlnorm

import "unsafe"

// A Base is a base URL parsed once, for resolving the many references found
// on one page without parsing the page's URL again for each: b.ResolveKey(ref)
// is n.ResolveKey(base, ref) for the Normalizer n and the base that made b.
// Create it with [Normalizer.Base]; the zero value is not usable. A Base is
// immutable and safe for concurrent use; it keeps a canonical copy of the
// base URL, not the string it was given.
type Base struct {
	n     *Normalizer
	canon []byte // the canonical base without its fragment (appendBase)
	kind  schemeKind
}

// Base canonicalizes the absolute URL base for resolving references against
// it (see Resolve). It fails, with Op "resolve base", where Resolve would
// fail for a reference that needs the base: no scheme, a scheme other than
// http, https, ws, wss, ftp and file, a bad host or port, or too long.
func (n *Normalizer) Base(base string) (*Base, error) {
	b, err := n.appendBase(nil, base)
	if err != nil {
		return nil, err
	}
	sch, _, _ := splitScheme(string(b))
	return &Base{n: n, canon: b, kind: lookupScheme(sch)}, nil
}

// String returns the base URL as references are resolved against it: its
// canonical URL without the fragment.
func (b *Base) String() string { return string(b.canon) }

// Resolve is [Normalizer.Resolve] against b.
func (b *Base) Resolve(ref string) (string, error) {
	var buf [512]byte
	out, err := b.appendResolved(buf[:0], ref, b.n.flags&CanonicalFlags, "resolve")
	return b.str(out, ref, err)
}

// AppendResolve is [Normalizer.AppendResolve] against b.
func (b *Base) AppendResolve(dst []byte, ref string) ([]byte, error) {
	return b.appendResolved(dst, ref, b.n.flags&CanonicalFlags, "resolve")
}

// ResolveKey is [Normalizer.ResolveKey] against b.
func (b *Base) ResolveKey(ref string) (string, error) {
	var buf [512]byte
	out, err := b.appendResolved(buf[:0], ref, b.n.flags, "resolve key")
	return b.str(out, ref, err)
}

// AppendResolveKey is [Normalizer.AppendResolveKey] against b.
func (b *Base) AppendResolveKey(dst []byte, ref string) ([]byte, error) {
	return b.appendResolved(dst, ref, b.n.flags, "resolve key")
}

func (b *Base) str(out []byte, ref string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if string(out) == ref {
		return ref, nil
	}
	return string(out), nil
}

func (b *Base) appendResolved(dst []byte, ref string, f Flags, op string) ([]byte, error) {
	n := b.n
	f &^= GuessScheme
	r, abs, err := n.readRef(ref, func() schemeKind { return b.kind }, op)
	if err != nil || abs {
		return n.rewrap(dst, r, ref, f, op, err)
	}
	jp := joinPool.Get().(*[]byte)
	defer putJoin(jp)
	j := joinRef((*jp)[:0], b.canon, r)
	*jp = j[:0]
	return n.rewrap(dst, unsafe.String(unsafe.SliceData(j), len(j)), ref, f, op, nil)
}
