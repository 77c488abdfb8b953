package urlnorm

// Key-class transformations, applied in place on the serialized URL.

import (
	"bytes"
	"slices"
)

// keyPath rewrites the path dst[start:] (which starts with '/') for the
// path-level key flags.
func (n *Normalizer) keyPath(dst []byte, start int, f Flags) []byte {
	p := dst[start:]
	w := 0
	for r := 0; r < len(p); {
		e := r + 1
		for e < len(p) && p[e] != '/' {
			e++
		}
		seg := p[r+1 : e]
		last := e == len(p)
		if f&DropSessionIDs != 0 {
			if isASPNETSession(seg) {
				if last {
					p[w] = '/'
					w++
				}
				r = e
				continue
			}
			seg = seg[:cutJSessionID(seg)]
		}
		if f&RemoveDuplicateSlashes != 0 && len(seg) == 0 && !last {
			r = e
			continue
		}
		p[w] = '/'
		w++
		w += copy(p[w:], seg)
		r = e
	}
	if w == 0 {
		p[0] = '/'
		w = 1
	}
	p = p[:w]
	if f&DropIndex != 0 {
		k := len(p)
		for k > 0 && p[k-1] != '/' {
			k--
		}
		if k < len(p) {
			for _, name := range n.index {
				if equalFoldASCII(p[k:], name) {
					p = p[:k]
					break
				}
			}
		}
	}
	if f&LowercasePath != 0 {
		for i := 0; i < len(p); i++ {
			if c := p[i]; c == '%' {
				i += 2 // escapes keep upper-case hex
			} else if 'A' <= c && c <= 'Z' {
				p[i] = c + 'a' - 'A'
			}
		}
	}
	return dst[:start+len(p)]
}

// isASPNETSession reports an ASP.NET cookieless session segment:
// "(S(id))", "(a(id)S(id)f(id))" or the ASP.NET 1.x form "(id)" with a
// 24-character lower-case id.
func isASPNETSession(seg []byte) bool {
	if len(seg) < 3 || seg[0] != '(' || seg[len(seg)-1] != ')' {
		return false
	}
	in := seg[1 : len(seg)-1]
	if len(in) == 24 {
		ok := true
		for _, c := range in {
			if !('a' <= c && c <= 'z' || isDigit(c)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	n := 0
	for len(in) > 0 {
		if len(in) < 4 || !isAlpha(in[0]) || in[1] != '(' {
			return false
		}
		j := 2
		for j < len(in) && in[j] != ')' {
			c := in[j]
			if !(isAlpha(c) || isDigit(c) || c == '-' || c == '_') {
				return false
			}
			j++
		}
		if j == len(in) || j == 2 {
			return false
		}
		in = in[j+1:]
		n++
	}
	return n > 0
}

// cutJSessionID removes every ";jsessionid=value" (the value running to the
// next ';' or the end) from a path segment in place and returns the new
// length. Removing them all, in one pass, keeps the key of a key the key
// itself: /a;jsessionid=1;jsessionid=2 -> /a.
func cutJSessionID(seg []byte) int {
	const key = ";jsessionid="
	w := 0
	for i := 0; i < len(seg); {
		// seg[i:j] is one part: the text before the first ';', or ";name=value".
		j := len(seg)
		if k := bytes.IndexByte(seg[i+1:], ';'); k >= 0 {
			j = i + 1 + k
		}
		if !(seg[i] == ';' && j-i >= len(key) && equalFoldASCII(seg[i:i+len(key)], key)) {
			w += copy(seg[w:], seg[i:j])
		}
		i = j
	}
	return w
}

type span struct{ a, b, eq int32 } // parameter q[a:b], name q[a:eq]

// keyQuery rewrites the query dst[qStart:] (without its '?') for the
// query-level key flags.
func (n *Normalizer) keyQuery(dst []byte, qStart int, f Flags, ex *exception) []byte {
	q := dst[qStart:]
	if len(q) > 1<<30 {
		return dst
	}
	if f&SemicolonParams != 0 {
		n.semicolonsToAmps(q, f, ex)
	}
	var stack [32]span
	ps := stack[:0]
	changed := false
	for a := 0; a <= len(q); {
		b := a
		for b < len(q) && q[b] != '&' {
			b++
		}
		eq := a
		for eq < b && q[eq] != '=' {
			eq++
		}
		ps, changed = n.addParam(ps, changed, q, a, b, eq, b == len(q), f, ex)
		a = b + 1
	}
	return n.rewriteQuery(dst, qStart, ps, changed, f)
}

// semicolonsToAmps writes '&' for each ';' of the query q when q is
// semicolon-separated (SemicolonParams; see semicolonQuery).
func (n *Normalizer) semicolonsToAmps(q []byte, f Flags, ex *exception) {
	a, b := n.semicolonPiece(q, f, ex)
	for i := a; i < b; i++ {
		if q[i] == ';' {
			q[i] = '&'
		}
	}
}

// semicolonQuery reports whether the query q is read with ';' as '&' (see
// semicolonPiece).
func (n *Normalizer) semicolonQuery(q []byte, f Flags, ex *exception) bool {
	a, b := n.semicolonPiece(q, f, ex)
	return a < b
}

// semicolonPiece returns the part q[a:b] of the query q that is read with
// ';' as '&', or a == b: the one part between '&'s that the flags f keep
// when it is two or more name=value pairs, each with a name, joined by ';'.
// The other parts are parameters that f drop (session ids or tracking
// parameters that a tracker or a share button appended to a CGI link:
// ?p=a.git;a=tree&utm_source=x), or none. Any other kept part already
// separates the parameters with '&' (?a=1&b=2;c=3 stays). Deciding on the
// kept parts keeps the key idempotent: a key reads as its URL did.
func (n *Normalizer) semicolonPiece(q []byte, f Flags, ex *exception) (int, int) {
	if bytes.IndexByte(q, ';') < 0 {
		return 0, 0
	}
	pa, pb := 0, 0
	for a := 0; a <= len(q); {
		b := a + bytes.IndexByte(q[a:], '&')
		if b < a {
			b = len(q)
		}
		switch piece := q[a:b]; {
		case n.dropsParam(piece, f, ex):
		case pa < pb || !semicolonPairs(piece):
			return 0, 0
		default:
			pa, pb = a, b
		}
		a = b + 1
	}
	return pa, pb
}

// semicolonPairs reports whether p is two or more name=value pairs, each
// with a name, joined by ';'.
func semicolonPairs(p []byte) bool {
	if bytes.IndexByte(p, ';') < 0 {
		return false
	}
	for a := 0; a <= len(p); {
		b := a + bytes.IndexByte(p[a:], ';')
		if b < a {
			b = len(p)
		}
		if bytes.IndexByte(p[a:b], '=') <= 0 {
			return false // a piece without a name or without a value
		}
		a = b + 1
	}
	return true
}

// dropsParam reports whether the flags f drop the parameter p (name=value)
// from the key, as addParam does: an empty one, a session id or a tracking
// parameter.
func (n *Normalizer) dropsParam(p []byte, f Flags, ex *exception) bool {
	eq := bytes.IndexByte(p, '=')
	if f&DropEmptyParams != 0 && (len(p) == 0 || eq == 0) {
		return true
	}
	if eq <= 0 {
		return false
	}
	name, value := p[:eq], p[eq+1:]
	return (f&DropSessionIDs != 0 && matchParam(n.session, name, value) || f&DropTracking != 0 && matchParam(n.tracking, name, value)) && !ex.keeps(name)
}

// addParam appends the parameter q[a:b], with its name q[a:eq], to ps unless
// the flags drop it; changed reports whether the query changed so far. The
// last parameter (last) is not kept when it is the only one and empty: the
// query "" has no parameter.
func (n *Normalizer) addParam(ps []span, changed bool, q []byte, a, b, eq int, last bool, f Flags, ex *exception) ([]span, bool) {
	s := span{int32(a), int32(b), int32(eq)}
	drop := false
	if f&DropEmptyParams != 0 {
		if a == b || eq == a {
			drop = true
		} else if eq == b-1 {
			s.b-- // "name=" -> "name"
			changed = true
		}
	}
	if !drop && f&(DropSessionIDs|DropTracking) != 0 && eq > a {
		// The first byte and the length of the name, looked up here, spare
		// most parameters the calls.
		c, l := q[a], eq-a
		if f&DropSessionIDs != 0 && n.session.mayMatch(c, l) || f&DropTracking != 0 && n.tracking.mayMatch(c, l) {
			name, value := q[a:eq], q[min(eq+1, b):b]
			if (f&DropSessionIDs != 0 && matchParam(n.session, name, value)) ||
				(f&DropTracking != 0 && matchParam(n.tracking, name, value)) {
				drop = !ex.keeps(name)
			}
		}
	}
	if drop {
		changed = true
	} else if a != b || !last || len(ps) > 0 {
		ps = append(ps, s)
	}
	return ps, changed
}

// rewriteQuery sorts the parameters ps of the query q = dst[qStart:] for
// SortQuery and, if that or dropping parameters changed the query, writes
// them in place of it.
func (n *Normalizer) rewriteQuery(dst []byte, qStart int, ps []span, changed bool, f Flags) []byte {
	q := dst[qStart:]
	if f&SortQuery != 0 {
		for i := 1; i < len(ps); i++ {
			if paramCompare(q, ps[i-1], ps[i]) <= 0 {
				continue
			}
			// ps[:i] is sorted. Few parameters are sorted by insertion,
			// many by SortStableFunc (allocation-free, O(n log² n)).
			if len(ps) > 12 {
				slices.SortStableFunc(ps, func(x, y span) int { return paramCompare(q, x, y) })
			} else {
				for ; i < len(ps); i++ {
					for j := i; j > 0 && paramCompare(q, ps[j-1], ps[j]) > 0; j-- {
						ps[j-1], ps[j] = ps[j], ps[j-1]
					}
				}
			}
			changed = true
			break
		}
	}
	if !changed {
		return dst
	}
	// Write the result after the end of dst, then move it into place.
	end := len(dst)
	for i, s := range ps {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, dst[qStart+int(s.a):qStart+int(s.b)]...)
	}
	k := copy(dst[qStart:], dst[end:])
	return dst[:qStart+k]
}

// paramCompare orders parameters by name, then by value.
func paramCompare(q []byte, x, y span) int {
	if x.a < x.eq && y.a < y.eq && q[x.a] != q[y.a] {
		return int(q[x.a]) - int(q[y.a]) // most names differ in their first byte
	}
	if c := bytes.Compare(q[x.a:x.eq], q[y.a:y.eq]); c != 0 {
		return c
	}
	return bytes.Compare(q[x.eq:x.b], q[y.eq:y.b])
}
