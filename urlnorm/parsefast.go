package urlnorm

// The fast path of appendURL for the common shape of a crawled URL. It reads
// each byte of the input once, finding the parts and checking that they need
// no work at the same time, and hands anything unusual to appendURLSlow,
// which stays the reference (TestAppendURLFastMatchesSlow).

import (
	"bytes"
	"strings"
)

// Classes of a byte in the host, path and query scans of appendURLFast; 0 is
// a byte copied as it is.
const (
	fcEnd  = 1 + iota // ends the part: '/', '?' or '#' after a host, '?' or '#' after a path, '#' after a query
	fcWork            // needs the general code of its part: escaping, '%', '\'
	fcDot             // '.' in a path: maybe a dot segment
	fcDash            // '-' in a host ("--" may be an "xn--" label)
	fcSess            // ';' or '(' in a path: DropSessionIDs looks at the path; ';' in a query: SemicolonParams may read it as '&'
	fcAmp             // '&' in a query: the end of a parameter
	fcEq              // '=' in a query: maybe the end of a parameter's name
	fcSlow            // needs appendURLSlow: tab or newline (removed anywhere), or a host byte that is not plain
)

// fastHost classifies host bytes: those that appendHost copies as they are
// (with '.', whose places appendURLFast checks after the scan), the part's
// ends, '-', and everything else (upper case, '%', ':', '@', '\', forbidden
// and non-ASCII bytes) as fcSlow.
var fastHost = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '/' || c == '?' || c == '#':
			t[c] = fcEnd
		case c == '.':
		case c == '-':
			t[c] = fcDash
		case c >= 0x80 || hostClass[c] != hcOK:
			t[c] = fcSlow
		}
	}
	return t
}()

// fastPath[strict] classifies path bytes, and fastQuery[strict] query bytes,
// for EncodeStrict off and on.
var fastPath, fastQuery = func() (p, q [2][256]uint8) {
	for strict, sets := range [2][2]encodeSet{{setPath, setQuery}, {setPathStrict, setQueryStrict}} {
		for c := range 256 {
			switch {
			case c == '\t' || c == '\n' || c == '\r':
				p[strict][c], q[strict][c] = fcSlow, fcSlow
				continue
			case c == '?' || c == '#':
				p[strict][c] = fcEnd
			case c == '.':
				p[strict][c] = fcDot
			case c == ';' || c == '(':
				p[strict][c] = fcSess
			case pathStop[strict][c]:
				p[strict][c] = fcWork
			}
			switch {
			case c == '#':
				q[strict][c] = fcEnd
			case c == '&':
				q[strict][c] = fcAmp
			case c == ';':
				q[strict][c] = fcSess
			case c == '=':
				q[strict][c] = fcEq
			case encodeTable[c]&sets[1] != 0 || c == '%':
				q[strict][c] = fcWork
			}
		}
	}
	return p, q
}()

// appendURLFast is appendURL for a URL that starts with a lower-case
// "http://" or "https://" and a host of bytes that appendHost keeps as they
// are (lower-case letters, digits, '.', '-', ...), with no userinfo and no
// port, not ending in a dot or in a label that starts with a digit (which
// may be an IPv4 address) and without "--" (which may make an "xn--"
// label), with no tab or newline before the fragment, no fragment unless
// DropFragment drops it, and not ending in a space or control. It writes
// what appendURLSlow writes for such a URL; ok is false for any other
// input, and then the bytes of dst beyond its length may have changed.
func (n *Normalizer) appendURLFast(dst []byte, raw string, lay *layout, f Flags) (_ []byte, ok bool) {
	var kind schemeKind
	i := 0
	switch {
	case len(raw) > 7 && raw[:7] == "http://":
		kind, i = schemeHTTP, 7
	case len(raw) > 8 && raw[:8] == "https://":
		kind, i = schemeHTTPS, 8
	default:
		return dst, false
	}
	if raw[len(raw)-1] <= ' ' || len(raw) > 1<<30 {
		return dst, false // trimmed; too long for keyQuery's spans
	}

	// The host: the part of raw up to its end is written as it is.
	hs, dashes := i, false
	for {
		var c uint8
		if i, c = skipPlain(raw, i, &fastHost); c == 0 {
			break
		}
		switch c {
		case fcDash:
			dashes = dashes || raw[i-1] == '-'
			i++
			continue
		case fcEnd:
		default:
			return dst, false
		}
		break
	}
	last := hs + strings.LastIndexByte(raw[hs:i], '.') + 1 // the last label's start
	if last == i || isDigit(raw[last]) || dashes {
		return dst, false // empty, a trailing dot, maybe a number or an "xn--" label
	}
	start := len(dst)
	hostStart := start + hs
	// raw[:w] is written; the rest is copied as late as it can be, most
	// often in one go from the scheme to the end.
	w := 0

	// Host-specific exceptions may turn flags off.
	var ex *exception
	if n.hostEx != nil || n.domainEx != nil || f&FoldWWW != 0 {
		dst = append(dst, raw[:i]...)
		w = i
		if n.hostEx != nil || n.domainEx != nil {
			if ex = n.lookupException(dst[hostStart:]); ex != nil {
				f &^= ex.clear
			}
		}
		if f&FoldWWW != 0 {
			dst = foldWWW(dst, hostStart)
		}
	}
	strict := 0
	if f&EncodeStrict != 0 {
		strict = 1
	}

	// The path.
	ps := i
	plain, sess := true, false
	pt := &fastPath[strict]
	for {
		var c uint8
		if i, c = skipPlain(raw, i, pt); c == 0 {
			break
		}
		switch c {
		case fcDot:
			if raw[i-1] == '/' {
				plain = false // maybe a dot segment
			}
			i++
			continue
		case fcSess:
			sess = true
			i++
			continue
		case fcWork:
			plain = false
			i++
			continue
		case fcEnd:
		default:
			return dst, false
		}
		break
	}
	// A plain path is copied as it is, with the rest; another is written now.
	pathStart := len(dst) + ps - w
	if !plain || i == ps {
		dst = append(dst, raw[w:ps]...)
		if plain {
			dst = append(dst, '/')
		} else {
			dst = appendPath(dst, raw[ps:i], f, false)
			sess = bytes.IndexByte(dst[pathStart:], ';') >= 0 || bytes.IndexByte(dst[pathStart:], '(') >= 0
		}
		w = i
	}
	if f&(RemoveDuplicateSlashes|DropIndex|LowercasePath) != 0 || f&DropSessionIDs != 0 && sess {
		dst = append(dst, raw[w:i]...)
		w = i
		dst = n.keyPath(dst, pathStart, f)
	}
	// The rest of raw: the path if it is plain, then the query and the
	// fragment, which are cut below.
	pathEnd := len(dst) + i - w
	dst = append(dst, raw[w:]...)

	// The query. While checking that it needs no escaping, the scan splits
	// it into parameters for keyQuery's work.
	queryAt := -1
	if i < len(raw) && raw[i] == '?' {
		qStart := pathEnd + 1
		queryAt = qStart
		q := dst[qStart:]
		split := f&(SortQuery|DropEmptyParams|DropSessionIDs|DropTracking) != 0
		var stack [32]span
		ps, changed := stack[:0], false
		plain, semi := true, false
		qt := &fastQuery[strict]
		qr := raw[i+1:] // the bytes of q, read as a string
		a, eq, k := 0, -1, 0
		for {
			var c uint8
			if k, c = skipPlain(qr, k, qt); c != 0 {
				switch c {
				case fcEq:
					if eq < 0 {
						eq = k
					}
					k++
					continue
				case fcWork:
					plain = false
					k++
					continue
				case fcSess:
					semi = true
					k++
					continue
				case fcAmp, fcEnd:
				default:
					return dst, false
				}
			}
			// q[a:k] is a parameter.
			end := c != fcAmp
			if split && plain {
				if eq < 0 {
					eq = k
				}
				ps, changed = n.addParam(ps, changed, q, a, k, eq, end, f, ex)
			}
			if end {
				break
			}
			a, eq = k+1, -1
			k++
		}
		if semi && f&SemicolonParams != 0 && n.semicolonQuery(q[:k], f, ex) {
			return dst, false // parameters joined by ';': keyQuery's work
		}
		if lay != nil {
			// The summary of the kept parameters' names (KeyLayout.ParamNames), before
			// rewriteQuery moves them; a query that needs escaping or has none kept gets
			// none. Written out here: a call would cost more than the loop, for the values
			// live across it.
			m := ^uint64(0)
			if plain && len(ps) > 0 {
				m = 0
				for _, s := range ps {
					// The head of the name q[a:a+n]: its first two bytes, less the second
					// for a name of 1, 0 for an empty name (a, not negative, read as such:
					// one bounds test a load).
					a, n := int(uint32(s.a)), s.eq-s.a
					var h uint64
					if n >= 2 && a+1 < len(q) {
						h = uint64(q[a]) | uint64(q[a+1])<<8 | 3<<16
					} else if n == 1 && a < len(q) {
						h = uint64(q[a]) | 1<<16
					}
					m |= paramBit(h)
				}
			}
			lay.names = m
		}
		i += 1 + k
		dst = dst[:qStart+k]
		if !plain {
			set := setQuery
			if strict != 0 {
				set = setQueryStrict
			}
			dst = appendEscaped(dst[:qStart], raw[i-k:i], set, f)
			if split {
				dst = n.keyQuery(dst, qStart, f, ex)
			}
		} else if split {
			dst = n.rewriteQuery(dst, qStart, ps, changed, f)
		}
		if len(dst) == qStart && f&DropBareQuery != 0 {
			dst = dst[:qStart-1]
			queryAt = -1
			if lay != nil {
				lay.names = 0 // no query
			}
		}
	} else {
		dst = dst[:pathEnd] // without the fragment
	}
	if i < len(raw) && f&DropFragment == 0 {
		return dst, false // a fragment to write
	}
	dst, off, ok := n.finishURL(dst, start, kind, f)
	if lay != nil && ok {
		// The offsets in the result are those in dst less off (see layout).
		// Field by field: a literal would be built on the stack and copied.
		lay.auth, lay.host, lay.hostEnd, lay.path = hostStart, hostStart, pathStart, pathStart
		lay.query, lay.frag, lay.off = queryAt, -1, off
	}
	return dst, ok
}

// skipPlain returns the index of the first byte of s at or after i (i >= 0)
// whose class in t is not 0, and that class; len(s) and 0 if there is none.
// It is a function of its own, a leaf, so that its loop keeps everything in
// registers (in appendURLFast's body the loops reloaded spilled values on
// every byte), and it reads eight bytes per bounds check.
func skipPlain(s string, i int, t *[256]uint8) (int, uint8) {
	_ = t[0] // one nil check
	if i < 0 {
		return len(s), 0 // not reached; it tells the compiler that i+k >= 0
	}
	for ; i <= len(s)-8; i += 8 {
		w := s[i : i+8]
		if c := t[w[0]]; c != 0 {
			return i, c
		}
		if c := t[w[1]]; c != 0 {
			return i + 1, c
		}
		if c := t[w[2]]; c != 0 {
			return i + 2, c
		}
		if c := t[w[3]]; c != 0 {
			return i + 3, c
		}
		if c := t[w[4]]; c != 0 {
			return i + 4, c
		}
		if c := t[w[5]]; c != 0 {
			return i + 5, c
		}
		if c := t[w[6]]; c != 0 {
			return i + 6, c
		}
		if c := t[w[7]]; c != 0 {
			return i + 7, c
		}
	}
	for j := uint(i); j < uint(len(s)); j++ {
		if c := t[s[j]]; c != 0 {
			return int(j), c
		}
	}
	return len(s), 0
}
