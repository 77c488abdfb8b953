package urlnorm

// The single-pass parser and serializer. It follows the WHATWG URL Standard's
// basic URL parser for special schemes without a base URL, writing the
// serialization straight into dst, and applies the flags on the way.

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

type schemeKind uint8

const (
	schemeNone schemeKind = iota
	schemeHTTP
	schemeHTTPS
	schemeWS
	schemeWSS
	schemeFTP
	schemeFile
)

var schemeNames = [...]string{"", "http", "https", "ws", "wss", "ftp", "file"}
var defaultPorts = [...]int{-1, 80, 443, 80, 443, 21, -1}

// lookupScheme maps a scheme, in any case, to its kind.
func lookupScheme(s string) schemeKind {
	if len(s) < 2 || len(s) > 5 {
		return schemeNone
	}
	var b [5]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	switch string(b[:len(s)]) {
	case "http":
		return schemeHTTP
	case "https":
		return schemeHTTPS
	case "ws":
		return schemeWS
	case "wss":
		return schemeWSS
	case "ftp":
		return schemeFTP
	case "file":
		return schemeFile
	}
	return schemeNone
}

// splitScheme splits "scheme:rest". ok is false if s does not start with a
// syntactically valid scheme followed by ':'.
func splitScheme(s string) (scheme, rest string, ok bool) {
	if len(s) == 0 || !isAlpha(s[0]) {
		return "", s, false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.':
		case c == ':':
			return s[:i], s[i+1:], true
		default:
			return "", s, false
		}
	}
	return "", s, false
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
func isSlash(c byte) bool { return c == '/' || c == '\\' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// trimControlSpace removes leading and trailing C0 controls and spaces.
func trimControlSpace(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// trimInvisible removes leading Unicode white space and format characters
// (category Cf: U+FEFF byte-order mark, U+200B zero-width space, U+200E
// left-to-right mark, U+00AD soft hyphen...) together with C0 controls and
// spaces between them. Copying a URL out of a document often leaves them in
// front; they are invisible, so whoever wrote the URL did not mean them.
func trimInvisible(s string) string {
	for len(s) > 0 {
		if s[0] <= ' ' {
			s = s[1:]
			continue
		}
		if s[0] < utf8.RuneSelf {
			return s
		}
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError || !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) {
			return s
		}
		s = s[size:]
	}
	return s
}

// hasSchemeSlashes reports whether s starts like "name://": a name (no '/',
// '?', '#', '\\' or '@') followed by ':' and two slashes. GuessScheme never
// reads such a name as a host, so that no key carries a scheme in its host.
func hasSchemeSlashes(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			return len(s) >= i+3 && isSlash(s[i+1]) && isSlash(s[i+2])
		case '/', '\\', '?', '#', '@':
			return false
		}
	}
	return false
}

// removeTabNewline removes ASCII tab, LF and CR anywhere, as WHATWG does.
func removeTabNewline(s string) string {
	k := strings.IndexByte(s, '\t')
	if k < 0 {
		k = strings.IndexByte(s, '\n')
	}
	if k < 0 {
		k = strings.IndexByte(s, '\r')
	}
	if k < 0 {
		return s
	}
	for i := 0; i < k; i++ {
		if c := s[i]; c == '\n' || c == '\r' {
			k = i
			break
		}
	}
	b := make([]byte, k, len(s))
	copy(b, s[:k])
	for ; k < len(s); k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	return string(b)
}

// appendURL is the whole pipeline: parse, serialize with the canonical-class
// flags, then apply the key-class flags in place.
//
// With lay not nil, it records there where the parts of the result are, for
// AppendKeyLayout. The three take their arguments in the same order, lay
// before f and op, so that each passes them on in the registers they came
// in, and AppendKeyLayout its KeyLayout's address as it came.
func (n *Normalizer) appendURL(dst []byte, raw string, lay *layout, f Flags, op string) ([]byte, error) {
	if len(raw) <= n.maxLen {
		if out, ok := n.appendURLFast(dst, raw, lay, f); ok {
			return out, nil
		}
	}
	return n.appendURLSlow(dst, raw, lay, f, op)
}

// appendURLSlow is appendURL for every input: the general parser, and the
// reference appendURLFast is tested against.
func (n *Normalizer) appendURLSlow(dst []byte, raw string, lay *layout, f Flags, op string) ([]byte, error) {
	start := len(dst)
	if lay != nil {
		lay.names = 0 // no summary, whatever the fast path made before it gave up
	}
	if len(raw) > n.maxLen {
		return n.fail(dst, start, op, raw, ErrTooLong)
	}
	s := removeTabNewline(trimControlSpace(raw))
	if f&GuessScheme != 0 {
		s = trimInvisible(s)
	}

	sch, rest, ok := splitScheme(s)
	kind := schemeNone
	if ok {
		kind = lookupScheme(sch)
	}
	if kind == schemeNone {
		if f&GuessScheme == 0 || (ok && !containsByte(sch, '.')) {
			if ok {
				return n.fail(dst, start, op, raw, ErrUnsupportedScheme)
			}
			return n.fail(dst, start, op, raw, ErrNotAbsolute)
		}
		if hasSchemeSlashes(s) {
			return n.fail(dst, start, op, raw, ErrUnsupportedScheme)
		}
		if !guessable(s) {
			return n.fail(dst, start, op, raw, errNoHost)
		}
		kind, rest = schemeHTTP, s
	}

	var (
		userinfo string
		hasUser  bool
		hostStr  string
		portStr  string
		hasPort  bool
	)
	if kind == schemeFile {
		// file: an authority only after two slashes; never userinfo or port.
		if len(rest) >= 2 && isSlash(rest[0]) && isSlash(rest[1]) {
			rest = rest[2:]
			e := authorityEnd(rest)
			hostStr = rest[:e]
			if isDriveLetter(hostStr) {
				hostStr = "" // file://C:/x names a path, not a host
			} else {
				rest = rest[e:]
			}
		}
	} else {
		i := 0
		for i < len(rest) && isSlash(rest[i]) {
			i++
		}
		rest = rest[i:]
		var auth string
		auth, userinfo, hasUser, rest = splitAuthority(rest)
		hostStr, portStr, hasPort = splitHostPortWHATWG(auth)
		if hostStr == "" {
			return n.fail(dst, start, op, raw, ErrInvalidHost)
		}
	}

	port := -1
	if hasPort && portStr != "" {
		port = 0
		for i := 0; i < len(portStr); i++ {
			c := portStr[i]
			if !isDigit(c) {
				return n.fail(dst, start, op, raw, ErrInvalidPort)
			}
			port = port*10 + int(c-'0')
			if port > 65535 {
				return n.fail(dst, start, op, raw, ErrInvalidPort)
			}
		}
	} else if hasPort {
		for i := 0; i < len(portStr); i++ {
			if !isDigit(portStr[i]) {
				return n.fail(dst, start, op, raw, ErrInvalidPort)
			}
		}
	}

	dst = append(dst, schemeNames[kind]...)
	dst = append(dst, "://"...)
	hostStart := len(dst)
	var err error
	if hostStr != "" {
		dst, err = appendHost(dst, hostStr, f)
		if err != nil {
			return n.fail(dst, start, op, raw, err)
		}
		if kind == schemeFile && string(dst[hostStart:]) == "localhost" {
			dst = dst[:hostStart]
		}
	}
	if kind != schemeFile && len(dst) == hostStart {
		return n.fail(dst, start, op, raw, ErrInvalidHost)
	}

	// Host-specific exceptions may turn flags off.
	var ex *exception
	if n.hostEx != nil || n.domainEx != nil {
		if ex = n.lookupException(dst[hostStart:]); ex != nil {
			f &^= ex.clear
		}
	}
	if f&FoldWWW != 0 {
		dst = foldWWW(dst, hostStart)
	}
	userAt := -1 // the '@' after the userinfo
	if hasUser && f&DropUserinfo == 0 {
		hostEnd := len(dst)
		dst = insertUserinfo(dst, hostStart, userinfo, f)
		if len(dst) > hostEnd {
			userAt = hostStart + len(dst) - hostEnd - 1
		}
	}
	if port >= 0 && f&RemoveDefaultPort != 0 {
		// With HTTPSToHTTP, https://a:80/ becomes http://a/: the key must be
		// its own key.
		if port == defaultPorts[kind] ||
			f&HTTPSToHTTP != 0 && (kind == schemeHTTPS || kind == schemeWSS) && port == 80 {
			port = -1
		}
	}
	portAt := -1
	if port >= 0 {
		portAt = len(dst) + 1
		dst = append(dst, ':')
		dst = appendInt(dst, port)
	}

	// Path, then query, then fragment.
	pe := strings.IndexByte(rest, '#')
	if pe < 0 {
		pe = len(rest)
	}
	if q := strings.IndexByte(rest[:pe], '?'); q >= 0 {
		pe = q
	}
	pathStart := len(dst)
	queryAt, fragAt := -1, -1
	dst = appendPath(dst, rest[:pe], f, kind == schemeFile)
	if f&(RemoveDuplicateSlashes|DropIndex|LowercasePath) != 0 ||
		f&DropSessionIDs != 0 && (bytes.IndexByte(dst[pathStart:], ';') >= 0 || bytes.IndexByte(dst[pathStart:], '(') >= 0) {
		dst = n.keyPath(dst, pathStart, f)
	}
	rest = rest[pe:]
	if len(rest) > 0 && rest[0] == '?' {
		qe := strings.IndexByte(rest, '#')
		if qe < 0 {
			qe = len(rest)
		}
		dst = append(dst, '?')
		qStart := len(dst)
		queryAt = qStart
		set := setQuery
		if f&EncodeStrict != 0 {
			set = setQueryStrict
		}
		dst = appendEscaped(dst, rest[1:qe], set, f)
		if f&(SortQuery|DropEmptyParams|DropSessionIDs|DropTracking|SemicolonParams) != 0 {
			dst = n.keyQuery(dst, qStart, f, ex)
		}
		if len(dst) == qStart && f&DropBareQuery != 0 {
			dst = dst[:qStart-1]
			queryAt = -1
		}
		rest = rest[qe:]
	}
	if len(rest) > 0 && rest[0] == '#' && f&DropFragment == 0 {
		dst = append(dst, '#')
		fragAt = len(dst)
		set := setFragment
		if f&EncodeStrict != 0 {
			set = setFragmentStrict
		}
		dst = appendEscaped(dst, rest[1:], set, f)
	}

	dst, off, ok := n.finishURL(dst, start, kind, f)
	if !ok {
		return n.fail(dst, start, op, raw, ErrTooLong)
	}
	if lay != nil {
		auth := start + len(schemeNames[kind]) + 3
		host, hostEnd := auth, pathStart
		if userAt >= 0 {
			host = userAt + 1
		}
		if portAt >= 0 {
			hostEnd = portAt - 1
		}
		lay.auth, lay.host, lay.hostEnd, lay.path = auth, host, hostEnd, pathStart
		lay.query, lay.frag, lay.off = queryAt, fragAt, off
		if queryAt >= 0 {
			lay.names = ^uint64(0) // a query without a summary
		}
	}
	return dst, nil
}

// finishURL ends appendURL: it folds a secure scheme for HTTPSToHTTP and caps
// the length of the result dst[start:]. off is the layout's off (see layout)
// for the indexes in dst recorded before the folding: start, and one more if
// it folded. ok is false when the result is too long; the caller then records
// no layout.
func (n *Normalizer) finishURL(dst []byte, start int, kind schemeKind, f Flags) (_ []byte, off int, ok bool) {
	// Every part after the scheme moves back a byte if HTTPSToHTTP shortens it.
	off = start
	if f&HTTPSToHTTP != 0 && (kind == schemeHTTPS || kind == schemeWSS) {
		// "https://..." -> "http://...", "wss://..." -> "ws://...".
		i := start + len(schemeNames[kind]) - 1
		copy(dst[i:], dst[i+1:])
		dst = dst[:len(dst)-1]
		off++
	}
	if len(dst)-start > n.maxLen {
		// Escaping can triple the length; capping the output too keeps every
		// result a valid input.
		return dst, off, false
	}
	return dst, off, true
}

// layout says where the parts of a URL that appendURL wrote are: auth after
// the "://", host at the host's first byte (after the userinfo's '@', if
// any), hostEnd after its last (at the port's ':', if any), path at its
// first '/', query after its '?', frag after its '#'; -1 for a query or
// fragment that is absent. The host's bounds are kept, rather than those of
// the userinfo and the port, which most URLs lack, so that reading the host
// costs no test. A part starts at its field less off
// from the URL's first byte: appendURL records the indexes in its dst as it
// writes them, with off the index of the result's first byte (and one more
// for a scheme that HTTPSToHTTP shortened), so that recording a layout costs
// a few stores.
//
// names is the summary of the query's parameter names that KeyLayout.ParamNames
// returns: the ParamNameBit of each, every bit if the writer did not make it,
// 0 if there is no query. AppendKeyLayout and the slow path clear it, and the
// writer sets it when it writes a query: the fast path before it records the
// rest (layoutAt) as it ends, so that reading it costs no test.
type layout struct {
	layoutAt
	names uint64
}

// layoutAt is the part of a layout that appendURL records as it ends, after finishURL.
type layoutAt struct {
	auth, host, hostEnd, path, query, frag int
	off                                    int
}

// relative returns lay with off 0: the same layout, its fields the parts'
// offsets from the URL's first byte.
func (lay *layout) relative() layout {
	o := lay.off
	rel := func(x int) int {
		if x < 0 {
			return -1
		}
		return x - o
	}
	return layout{layoutAt: layoutAt{auth: lay.auth - o, host: lay.host - o, hostEnd: lay.hostEnd - o, path: lay.path - o, query: rel(lay.query), frag: rel(lay.frag)}}
}

func containsByte(s string, c byte) bool { return strings.IndexByte(s, c) >= 0 }

// authorityByte marks the bytes splitAuthority stops at.
var authorityByte = [256]bool{'/': true, '\\': true, '?': true, '#': true, '@': true}

// splitAuthority splits s, which starts after the scheme's slashes, into the
// host and port text, the userinfo (before the last '@') and the rest.
func splitAuthority(s string) (hostport, userinfo string, hasUser bool, rest string) {
	at := -1
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; authorityByte[c] {
			if c != '@' {
				break
			}
			at = i
		}
	}
	hostport, rest = s[:i], s[i:]
	if at >= 0 {
		userinfo, hasUser, hostport = hostport[:at], true, hostport[at+1:]
	}
	return hostport, userinfo, hasUser, rest
}

// authorityEnd returns the index of the first '/', '\', '?' or '#'.
func authorityEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/', '\\', '?', '#':
			return i
		}
	}
	return len(s)
}

// splitHostPortWHATWG splits at the first ':' outside brackets (WHATWG host
// state); tokens.go's splitHostPort serves already normalized URLs.
func splitHostPortWHATWG(s string) (host, port string, hasPort bool) {
	k := strings.IndexByte(s, ':')
	if k < 0 {
		return s, "", false
	}
	if strings.IndexByte(s[:k], '[') < 0 {
		return s[:k], s[k+1:], true
	}
	inBracket := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			inBracket = true
		case ']':
			inBracket = false
		case ':':
			if !inBracket {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

func isDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

func appendInt(dst []byte, v int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, tmp[i:]...)
}

// insertUserinfo writes "user[:password]@" in front of the host that starts
// at hostStart and runs to the end of dst. Empty user and password print
// nothing, as in WHATWG serialization.
func insertUserinfo(dst []byte, hostStart int, userinfo string, f Flags) []byte {
	if userinfo == "" || userinfo == ":" {
		return dst
	}
	user, pass := userinfo, ""
	hasPass := false
	for i := 0; i < len(userinfo); i++ {
		if userinfo[i] == ':' {
			user, pass, hasPass = userinfo[:i], userinfo[i+1:], true
			break
		}
	}
	hostEnd := len(dst)
	dst = appendEscaped(dst, user, setUserinfo, f)
	if hasPass && pass != "" {
		dst = append(dst, ':')
		dst = appendEscaped(dst, pass, setUserinfo, f)
	}
	if len(dst) == hostEnd {
		return dst
	}
	dst = append(dst, '@')
	// Rotate host|userinfo@ into userinfo@|host.
	reverse(dst[hostStart:hostEnd])
	reverse(dst[hostEnd:])
	reverse(dst[hostStart:])
	return dst
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

// appendPath writes the path: '/'-separated segments ('\' counts as '/'),
// each percent-encoded, with dot segments resolved when the flag says so.
// The result always starts with '/'.
func appendPath(dst []byte, p string, f Flags, file bool) []byte {
	if p == "" {
		return append(dst, '/')
	}
	if !file && isPlainPath(p, f&EncodeStrict != 0) {
		return append(dst, p...)
	}
	return appendPathSegments(dst, p, f, file)
}

// appendPathSegments is the general case of appendPath, segment by segment.
func appendPathSegments(dst []byte, p string, f Flags, file bool) []byte {
	pathStart := len(dst)
	set := setPath
	if f&EncodeStrict != 0 {
		set = setPathStrict
	}
	if p == "" {
		return append(dst, '/')
	}
	i := 0
	if isSlash(p[0]) {
		i = 1
	}
	first := true
	backslash := strings.IndexByte(p, '\\') >= 0
	for {
		var e int
		if backslash {
			e = i
			for e < len(p) && !isSlash(p[e]) {
				e++
			}
		} else if e = strings.IndexByte(p[i:], '/'); e < 0 {
			e = len(p)
		} else {
			e += i
		}
		seg := p[i:e]
		last := e == len(p)
		if f&RemoveDotSegments != 0 {
			if d := dotSegment(seg); d > 0 {
				if d == 2 {
					// Pop the last segment, but not a file drive letter.
					if k := lastSlash(dst, pathStart); k >= 0 &&
						!(file && k == pathStart && isNormDriveLetter(dst[k+1:])) {
						dst = dst[:k]
					}
				}
				if last {
					dst = append(dst, '/')
					break
				}
				i = e + 1
				first = false
				continue
			}
		}
		dst = append(dst, '/')
		if file && first && isDriveLetter(seg) {
			dst = append(dst, seg[0], ':')
		} else {
			dst = appendEscaped(dst, seg, set, f)
		}
		first = false
		if last {
			break
		}
		i = e + 1
	}
	if len(dst) == pathStart {
		dst = append(dst, '/')
	}
	return dst
}

// pathStop[strict][c] marks bytes that need work in a path: escapes,
// backslashes and bytes of the percent-encode set.
var pathStop = func() (t [2][256]bool) {
	for c := range 256 {
		t[0][c] = encodeTable[c]&setPath != 0 || c == '%' || c == '\\'
		t[1][c] = encodeTable[c]&setPathStrict != 0 || c == '%' || c == '\\'
	}
	return t
}()

// isPlainPath reports whether p is already in normal form: it starts with
// '/', needs no escaping and has no dot segments.
func isPlainPath(p string, strict bool) bool {
	if p[0] != '/' {
		return false
	}
	stop := &pathStop[0]
	if strict {
		stop = &pathStop[1]
	}
	for i := 0; i < len(p); i++ {
		if stop[p[i]] {
			return false
		}
	}
	for i := 0; ; {
		k := strings.Index(p[i:], "/.")
		if k < 0 {
			return true
		}
		i += k + 2
		if i == len(p) || p[i] == '/' || p[i] == '.' && (i+1 == len(p) || p[i+1] == '/') {
			return false
		}
	}
}

func isNormDriveLetter(b []byte) bool {
	return len(b) == 2 && isAlpha(b[0]) && b[1] == ':'
}

// lastSlash returns the index of the last '/' in dst at or after start, or -1.
func lastSlash(dst []byte, start int) int {
	for k := len(dst) - 1; k >= start; k-- {
		if dst[k] == '/' {
			return k
		}
	}
	return -1
}

// dotSegment returns 1 for ".", 2 for "..", 0 otherwise; "%2e" in either
// case counts as a dot.
func dotSegment(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == '.' {
			i++
		} else if i+2 < len(s) && s[i] == '%' && s[i+1] == '2' && s[i+2]|0x20 == 'e' {
			i += 3
		} else {
			return 0
		}
		n++
		if n > 2 {
			return 0
		}
	}
	return n
}
