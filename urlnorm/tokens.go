package urlnorm

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Part names the part of a URL that a token comes from.
type Part uint8

// The parts of a URL, in the order they appear in it.
const (
	PartScheme   Part = iota + 1 // "http"
	PartUserinfo                 // "user:pass" (without the "@")
	PartHost                     // "example.com", "192.0.2.1", "[2001:db8::1]"
	PartPort                     // "8080" (absent when the port is the scheme's default)
	PartPath                     // one path segment, "" for the empty segment of "/" or "/a/"
	PartQuery                    // one query parameter, name and value
	PartFragment                 // the fragment, without the "#"
)

var partNames = [...]string{
	PartScheme:   "scheme",
	PartUserinfo: "userinfo",
	PartHost:     "host",
	PartPort:     "port",
	PartPath:     "path",
	PartQuery:    "query",
	PartFragment: "fragment",
}

// String returns the part's name: "scheme", "host", "path", ...
func (p Part) String() string {
	if int(p) < len(partNames) && partNames[p] != "" {
		return partNames[p]
	}
	return "Part(" + strconv.Itoa(int(p)) + ")"
}

// A Key addresses a token of a URL, after Koppula et al. (WSDM 2010) Definition 1, where a key
// k(x_i, y_j) is a position x from the start and y from the end, and a deep-token index i from the
// start and j from the end within the token.
//
// Path segments are addressed by Pos (1-based from the first segment) and RPos (1-based from the
// last segment), so that both /a/b/index.html and /index.html have index.html at RPos 1. Query
// parameters are addressed by Name, and by Pos, the occurrence of that name (1 for the first
// ?a=..., 2 for a second a=...); their RPos is 0. Scheme, userinfo, host, port and fragment have
// Pos and RPos 0. Unlike the paper, scheme and host do not take positions 1 and 2: they are parts
// of their own, so a path segment's key does not change when a URL gains a port or a userinfo.
//
// Sub and RSub index a deep token within its token (1-based from the start and from the end); both
// are 0 for a whole token, which is all that [Tokenize] produces. Package deeptoken splits tokens
// into deep tokens and sets them.
//
// A zero position means "not given": package rules uses keys with Pos or RPos 0 as the paper's
// k(x,-) and k(-,y). Key is comparable, so it can be a map key.
type Key struct {
	Part      Part
	Pos, RPos int16
	Sub, RSub int16
	Name      string // the parameter name of a PartQuery key, as written in the canonical URL
}

// String returns the key in the paper's notation: "scheme", "host", "path(2,1)" for the second
// segment that is also the last, "path(2,-)" and "path(-,1)" for keys that give one position
// only, "query(id)" or "query(id#2)" for the second id parameter. Deep-token indexes follow a dot
// on a path position, "path(3.2,1.2)", and come in brackets after other keys: "query(id)[2,1]".
func (k Key) String() string {
	var b strings.Builder
	b.WriteString(k.Part.String())
	switch k.Part {
	case PartPath:
		b.WriteByte('(')
		writePos(&b, k.Pos, k.Sub)
		b.WriteByte(',')
		writePos(&b, k.RPos, k.RSub)
		b.WriteByte(')')
		return b.String()
	case PartQuery:
		b.WriteByte('(')
		b.WriteString(k.Name)
		if k.Pos > 1 {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(int(k.Pos)))
		}
		b.WriteByte(')')
	}
	if k.Sub != 0 || k.RSub != 0 {
		b.WriteByte('[')
		writePos(&b, k.Sub, 0)
		b.WriteByte(',')
		writePos(&b, k.RSub, 0)
		b.WriteByte(']')
	}
	return b.String()
}

func writePos(b *strings.Builder, pos, sub int16) {
	if pos == 0 {
		b.WriteByte('-')
	} else {
		b.WriteString(strconv.Itoa(int(pos)))
	}
	if sub != 0 {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(int(sub)))
	}
}

// A Token is one keyed value of a URL: its scheme, userinfo, host, port, a path segment, a query
// parameter or the fragment. Values are written as in the canonical URL (percent-encoded where
// it is); Tokenize takes them from the input without copying.
type Token struct {
	Key
	// Value is the token's text: for a query parameter the part after the first "=".
	Value string
	// Bare is set on a query parameter written without "=", as in ?print or the empty parameter
	// of a bare "?"; Value is then "".
	Bare bool
}

// ErrNotHierarchical is returned (wrapped in an *Error) by [Tokenize] for a string that does not
// have the form scheme://authority/path of the URLs that [Normalizer] returns.
var ErrNotHierarchical = errors.New("not a hierarchical URL")

// maxTokens bounds the positions of path segments and parameters so that they fit in a Key.
const maxTokens = 1<<15 - 1

// Tokenize appends the tokens of the URL s to dst and returns the extended slice. s must have the
// shape of the URLs that [Normalizer.Canonical] and [Normalizer.Key] return:
// scheme://[userinfo@]host[:port]/path[?query][#fragment], with no "?" or "#" in the path and no
// "#" in the query. Tokenize does not canonicalize: give it a normalizer's output.
//
// Tokens come in URL order: scheme, userinfo (if any), host, port (if any), path segments, query
// parameters, fragment (if any). The path "/" is one empty segment and "/a/" is "a" and "".
// A query "?" with nothing after it is one bare parameter with an empty name; "a=1&&b" is a=1, an
// empty bare parameter, and bare b. Values are substrings of s; with enough capacity in dst and
// at most 32 query parameters, Tokenize does not allocate. It takes time linear in len(s).
// Tokenization is lossless: [AppendJoin] of the tokens gives s back.
func Tokenize(dst []Token, s string) ([]Token, error) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return dst, &Error{Op: "tokenize", URL: s, Err: ErrNotHierarchical}
	}
	// The layout of s, as the key writer records it (see layout), for appendTokens.
	lay := layout{layoutAt: layoutAt{auth: i + 3, query: -1, frag: -1}}
	// The authority ends at the first "/" (the path is not optional in a normalizer's output).
	end := strings.IndexByte(s[lay.auth:], '/')
	if end < 0 {
		return dst, &Error{Op: "tokenize", URL: s, Err: ErrNotHierarchical}
	}
	lay.path = lay.auth + end
	auth := s[lay.auth:lay.path]
	lay.host, lay.hostEnd = lay.auth, lay.path
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		lay.host = lay.auth + at + 1
	}
	if _, _, hasPort := splitHostPort(s[lay.host:lay.path]); hasPort {
		lay.hostEnd = lay.auth + strings.LastIndexByte(auth, ':')
	}
	rest := s[lay.path:]
	if h := strings.IndexByte(rest, '#'); h >= 0 {
		lay.frag = lay.path + h + 1
		rest = rest[:h]
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		lay.query = lay.path + q + 1
	}
	return lay.appendTokens(dst, s)
}

// countByte returns the number of bytes c in s[from:to], which it reads eight bytes at a time
// (byteMask): the last word of s[from:to], if it is shorter than a word, is read as the top
// bytes of the word of s that ends at to (whose bytes before from are outside the count), and
// byte by byte only if s has fewer than eight bytes up to to.
func countByte(s string, from, to int, c byte) int {
	n, i := 0, from
	for ; i+8 <= to; i += 8 {
		n += bits.OnesCount64(byteMask(load64(s, i), c))
	}
	if r := to - i; r > 0 {
		if to >= 8 {
			n += bits.OnesCount64(byteMask(load64(s, to-8), c) >> (64 - 8*r))
		} else {
			for ; i < to; i++ {
				if s[i] == c {
					n++
				}
			}
		}
	}
	return n
}

// putParam sets *t to the parameter s[start:end], whose first '=' is at eq (none if eq <
// start), with Pos 1.
func putParam(t *Token, s string, start, eq, end int) {
	if eq < start {
		name := s[start:end]
		*t = Token{Key: Key{Part: PartQuery, Pos: 1, Name: name}}
		t.Bare = true
		return
	}
	name, value := s[start:eq], s[eq+1:end]
	*t = Token{Key: Key{Part: PartQuery, Pos: 1, Name: name}}
	t.Value = value
}

// numberParams sets the Pos of each parameter of params to its name's occurrence: a scan of the
// names before it, or, past scanParams parameters, a count in a map, so that a query of many
// parameters costs linear time.
func numberParams(params []Token) {
	if len(params) <= scanParams {
		for k := 1; k < len(params); k++ {
			t := &params[k]
			for h := range params[:k] {
				if params[h].Name == t.Name {
					t.Pos++
				}
			}
		}
		return
	}
	seen := make(map[string]int16)
	for k := range params {
		t := &params[k]
		seen[t.Name]++
		t.Pos = seen[t.Name]
	}
}

// lowBytes has the low bit of each byte set: c*lowBytes is the word of eight bytes c.
const lowBytes = 0x0101010101010101

// byteMask returns the word with the high bit set of each byte of w that is c, and no other bit
// (the exact form of the zero-byte test: no carry crosses a byte).
func byteMask(w uint64, c byte) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	w ^= uint64(c) * lowBytes
	return ^((w&low7 + low7) | w | low7)
}

// load64 is the little-endian word of the eight bytes of s at i.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// A KeyLayout says where the parts of a key that [Normalizer.AppendKeyLayout] wrote are, as
// offsets from the key's first byte, so that a caller can read the key's host and query, or
// make its tokens, without reading the key again. It is a small value, safe to copy; its zero
// value is the layout of no key, which a caller must not use.
type KeyLayout struct {
	lay layout
}

// AppendKeyLayout is [Normalizer.AppendKey] that also sets *l to the layout of the key it
// appended (offsets from len(dst)); on error it returns the error of AppendKey and leaves *l
// unusable. It does not keep l, and does not allocate when dst has room.
func (n *Normalizer) AppendKeyLayout(dst []byte, raw string, l *KeyLayout) ([]byte, error) {
	// appendURL, written out: the key writer records the layout in dst, with the offset of the
	// key in it (layout.off), and the summary of its parameter names if it makes one. A call
	// of appendURL would pass more than the registers hold and keep them all for the slow path.
	l.lay.names = 0
	if len(raw) <= n.maxLen {
		if out, ok := n.appendURLFast(dst, raw, &l.lay, n.flags); ok {
			return out, nil
		}
	}
	return n.appendURLSlow(dst, raw, &l.lay, n.flags, "key")
}

// Host returns the offsets in the key of its host, without the userinfo and the port: the host
// is key[start:end].
func (l *KeyLayout) Host() (start, end int) {
	o := l.lay.off
	return l.lay.host - o, l.lay.hostEnd - o
}

// Query returns the offsets in the key of its query, without the '?' and the fragment: the query
// is key[start:end]. A key without a query has start < 0.
func (l *KeyLayout) Query(key string) (start, end int) {
	if l.lay.query < 0 {
		return -1, -1
	}
	end = len(key)
	if l.lay.frag >= 0 {
		end = l.lay.frag - 1 - l.lay.off
	}
	return l.lay.query - l.lay.off, end
}

// ParamNames returns a summary of the names of the parameters of the key's query, so that a
// caller can learn, most often with one test, that the key has no parameter of some names: the
// bit [ParamNameBit] of each name is set, and perhaps others; all bits are set when the key
// writer made no summary (it makes one for most keys), none for a key without a query.
func (l *KeyLayout) ParamNames() uint64 {
	return l.lay.names
}

// ParamNameBit returns the bit of a query parameter's name in [KeyLayout.ParamNames]: one of 64,
// of the name's first two bytes and whether it has fewer.
func ParamNameBit(name string) uint64 {
	var h uint64
	if len(name) > 0 {
		h = uint64(name[0]) | 1<<16
		if len(name) > 1 {
			h |= uint64(name[1])<<8 | 1<<17
		}
	}
	return paramBit(h)
}

// paramBit is the bit of the head h of a name: its first two bytes, and bits 16 and 17 set if it
// has one or two. The product is of 32 bits, whose constant an instruction holds.
func paramBit(h uint64) uint64 { return 1 << ((uint32(h) * 0x9e3779b1) >> 26) }

// AppendTokens appends to toks the tokens of key, the key whose layout l is (the bytes that
// AppendKeyLayout appended, as a string), as [Tokenize] of the key would give them, and returns
// the extended slice. The tokens' Values point into key, without copying. For a key of more
// than 32767 path segments or query parameters it returns toks unchanged and an *Error of Op
// "tokenize" wrapping [ErrTooManyTokens]. It does not allocate when toks has room (and the
// query has at most 32 parameters).
func (l *KeyLayout) AppendTokens(toks []Token, key string) ([]Token, error) {
	// A call to a method of l's address, small enough to inline: the caller's layout is not
	// copied to the stack twice, unless its offsets need making relative to the key.
	if l.lay.off != 0 {
		lay := l.lay.relative()
		return lay.appendTokens(toks, key)
	}
	return l.lay.appendTokens(toks, key)
}

// appendTokens is AppendTokens of the key s whose layout lay is, lay.off being 0. It makes
// room for the tokens first, so that it writes each in place, with no check of room per token,
// and finds the '/'s of the path and the '&'s and '='s of the query eight bytes at a time
// (byteMask), with no call per token.
func (lay *layout) appendTokens(toks []Token, s string) ([]Token, error) {
	end := len(s)
	if lay.frag >= 0 {
		end = lay.frag - 1
	}
	pathEnd := end
	if lay.query >= 0 {
		pathEnd = lay.query - 1
	}
	// Room for the tokens: a path and query have at most as many segments and parameters as
	// bytes, after their first '/', and 5 tokens come from the other parts. That bound, for
	// a short key, costs no pass over it; a longer key counts its '/'s and '&'s, so that its
	// tokens take no more room than they need.
	need := end - lay.path + 5
	if need > shortTokens {
		nseg, npar := 1+countByte(s, lay.path+1, pathEnd, '/'), 0
		if lay.query >= 0 {
			npar = 1 + countByte(s, lay.query, end, '&')
		}
		if nseg > maxTokens || npar > maxTokens {
			return toks, &Error{Op: "tokenize", URL: strings.Clone(s), Err: ErrTooManyTokens}
		}
		need = nseg + npar + 5
	}
	t0 := len(toks)
	toks = slices.Grow(toks, need)
	out := toks[t0 : t0+need]

	scheme := s[:lay.auth-3]
	out[0] = Token{Key: Key{Part: PartScheme}, Value: scheme}
	k := 1
	// A userinfo ends with the '@' before the host, a port starts after the ':' after it.
	hostAt, hostEnd := lay.host, lay.hostEnd
	if hostAt != lay.auth {
		user := s[lay.auth : hostAt-1]
		out[k] = Token{Key: Key{Part: PartUserinfo}, Value: user}
		k++
	}
	host := s[hostAt:hostEnd]
	out[k] = Token{Key: Key{Part: PartHost}, Value: host}
	k++
	if hostEnd != lay.path {
		port := s[hostEnd+1 : lay.path]
		out[k] = Token{Key: Key{Part: PartPort}, Value: port}
		k++
	}

	// The path's segments, numbered from the start as they come, then from the end.
	seg0, start, i := k, lay.path+1, lay.path+1
	for ; i+8 <= pathEnd; i += 8 {
		for m := byteMask(load64(s, i), '/'); m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			v := s[start:j]
			out[k] = Token{Key: Key{Part: PartPath, Pos: int16(k - seg0 + 1)}, Value: v}
			k, start = k+1, j+1
		}
	}
	if r := pathEnd - i; r > 0 && pathEnd >= 8 {
		// The last r bytes, as the top bytes of the word of s that ends with them.
		for m := byteMask(load64(s, pathEnd-8), '/') >> (64 - 8*r); m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			v := s[start:j]
			out[k] = Token{Key: Key{Part: PartPath, Pos: int16(k - seg0 + 1)}, Value: v}
			k, start = k+1, j+1
		}
	} else {
		for ; i < pathEnd; i++ {
			if s[i] == '/' {
				v := s[start:i]
				out[k] = Token{Key: Key{Part: PartPath, Pos: int16(k - seg0 + 1)}, Value: v}
				k, start = k+1, i+1
			}
		}
	}
	v := s[start:pathEnd]
	out[k] = Token{Key: Key{Part: PartPath, Pos: int16(k - seg0 + 1)}, Value: v}
	k++
	for h := seg0; h < k; h++ {
		out[h].RPos = int16(k - h)
	}

	if lay.query >= 0 {
		// The parameters: each ends at a '&', its name at its first '='.
		par0, start, eq, i := k, lay.query, -1, lay.query
		for ; i+8 <= end; i += 8 {
			w := load64(s, i)
			amp := byteMask(w, '&')
			for m := amp | byteMask(w, '='); m != 0; m &= m - 1 {
				j := i + bits.TrailingZeros64(m)>>3
				if amp&m&-m == 0 {
					if eq < start { // the parameter's first '='
						eq = j
					}
					continue
				}
				putParam(&out[k], s, start, eq, j)
				k, start = k+1, j+1
			}
		}
		if r := end - i; r > 0 && end >= 8 {
			w := load64(s, end-8)
			amp := byteMask(w, '&') >> (64 - 8*r)
			for m := amp | byteMask(w, '=')>>(64-8*r); m != 0; m &= m - 1 {
				j := i + bits.TrailingZeros64(m)>>3
				if amp&m&-m == 0 {
					if eq < start {
						eq = j
					}
					continue
				}
				putParam(&out[k], s, start, eq, j)
				k, start = k+1, j+1
			}
		} else {
			for ; i < end; i++ {
				switch s[i] {
				case '=':
					if eq < start {
						eq = i
					}
				case '&':
					putParam(&out[k], s, start, eq, i)
					k, start = k+1, i+1
				}
			}
		}
		putParam(&out[k], s, start, eq, end)
		k++
		if k-par0 > 1 {
			numberParams(out[par0:k])
		}
	}
	if lay.frag >= 0 {
		frag := s[lay.frag:]
		out[k] = Token{Key: Key{Part: PartFragment}, Value: frag}
		k++
	}
	return toks[:t0+k], nil
}

// shortTokens is the room for tokens up to which appendTokens takes a bound on the number of
// a key's path segments and query parameters, its length, instead of counting them.
const shortTokens = 96

// scanParams is how many query parameters Tokenize numbers by scanning the
// ones before; past it, it counts names in a map.
const scanParams = 32

// ErrTooManyTokens is returned (wrapped in an *Error) by [Tokenize] for a URL with more than
// 32767 path segments or query parameters.
var ErrTooManyTokens = errors.New("too many path segments or query parameters")

// splitHostPort splits an authority without userinfo into host and port. An IPv6 literal keeps
// its brackets; a colon inside them is not a port separator.
func splitHostPort(auth string) (host, port string, hasPort bool) {
	i := strings.LastIndexByte(auth, ':')
	if i < 0 || strings.IndexByte(auth[i:], ']') >= 0 {
		return auth, "", false
	}
	return auth[:i], auth[i+1:], true
}

// AppendJoin appends to dst the URL that the tokens spell and returns the extended buffer: the
// inverse of [Tokenize]. Tokens are written grouped by part, in URL order (scheme, userinfo, host,
// port, path, query, fragment), keeping their order in toks within a part; Pos, RPos and RSub are
// ignored, so a caller that inserts, deletes or reorders tokens need not renumber them. A URL
// with no path token gets the path "/". Join does not escape: values are written as they are.
//
// Deep tokens join back into their token: a token with Sub > 1 continues the token before it in
// its part, with no separator, so the deep tokens "tt" (Sub 1) and "0810900" (Sub 2) of a path
// segment write "/tt0810900", and those of a query value write "id=" then both values. To delete
// a deep token, set its Value to "" rather than removing it.
func AppendJoin(dst []byte, toks []Token) []byte {
	// Tokens in URL order (as Tokenize gives them, and as most edits leave them) are written in
	// one pass; others in a pass per part.
	last := Part(0)
	for i := range toks {
		if p := toks[i].Part; p != 0 && p <= PartFragment {
			if p < last {
				last = 0
				break
			}
			last = p
		}
	}
	if last != 0 || len(toks) == 0 {
		var j joinState
		for i := range toks {
			if p := toks[i].Part; p != 0 && p <= PartFragment {
				dst = j.add(dst, &toks[i])
			}
		}
		if j.last < PartPath {
			dst = append(dst, '/')
		}
		return dst
	}
	for p := PartScheme; p <= PartFragment; p++ {
		j := joinState{last: p}
		for i := range toks {
			if toks[i].Part == p {
				dst = j.add(dst, &toks[i])
			}
		}
		if p == PartPath && j.n == 0 {
			dst = append(dst, '/')
		}
	}
	return dst
}

// joinState is what AppendJoin knows of the tokens written so far: the part of the last one,
// and how many tokens of that part it wrote.
type joinState struct {
	last Part
	n    int
}

// add appends token t, of a part not before j.last, to dst.
func (j *joinState) add(dst []byte, t *Token) []byte {
	p := t.Part
	if p != j.last {
		if j.last < PartPath && p > PartPath {
			dst = append(dst, '/') // no path token: the path "/"
		}
		j.last, j.n = p, 0
	}
	n := j.n
	j.n++
	if t.Sub > 1 && n > 0 {
		// A deep token after the first continues its token: no separator.
		return append(dst, t.Value...)
	}
	switch p {
	case PartScheme:
		dst = append(dst, t.Value...)
		dst = append(dst, "://"...)
	case PartUserinfo:
		dst = append(dst, t.Value...)
		dst = append(dst, '@')
	case PartHost:
		dst = append(dst, t.Value...)
	case PartPort:
		dst = append(dst, ':')
		dst = append(dst, t.Value...)
	case PartPath:
		dst = append(dst, '/')
		dst = append(dst, t.Value...)
	case PartQuery:
		if n == 0 {
			dst = append(dst, '?')
		} else {
			dst = append(dst, '&')
		}
		dst = append(dst, t.Name...)
		if !t.Bare {
			dst = append(dst, '=')
			dst = append(dst, t.Value...)
		}
	case PartFragment:
		dst = append(dst, '#')
		dst = append(dst, t.Value...)
	}
	return dst
}

// Join returns the URL that the tokens spell; it is AppendJoin(nil, toks) as a string.
func Join(toks []Token) string {
	return string(AppendJoin(nil, toks))
}
