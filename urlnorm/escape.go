package urlnorm

// Percent-encode sets, one bit each in encodeTable. The WHATWG sets
// (https://url.spec.whatwg.org/#percent-encoded-bytes) plus strict variants
// that also encode what RFC 3986 section 2 never allows raw.
type encodeSet uint8

const (
	setPath encodeSet = 1 << iota
	setPathStrict
	setQuery // special-query percent-encode set
	setQueryStrict
	setFragment
	setFragmentStrict
	setUserinfo
)

// encodeTable[c]&set != 0 means byte c is percent-encoded in set.
var encodeTable = func() (t [256]encodeSet) {
	all := setPath | setPathStrict | setQuery | setQueryStrict | setFragment | setFragmentStrict | setUserinfo
	for c := 0; c < 0x20; c++ {
		t[c] = all
	}
	for c := 0x7f; c < 0x100; c++ {
		t[c] = all
	}
	add := func(set encodeSet, chars string) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= set
		}
	}
	add(setFragment|setFragmentStrict, " \"<>`")
	add(setFragmentStrict, "#{}|[]^\\")
	add(setQuery|setQueryStrict, " \"#<>'")
	add(setQueryStrict, "`{}|[]^\\")
	add(setPath|setPathStrict|setUserinfo, " \"#<>?`{}^")
	add(setPathStrict, "|[]")
	add(setUserinfo, "/:;=@[\\]|")
	return t
}()

// unreserved reports RFC 3986 unreserved characters.
var unreserved = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['-'], t['.'], t['_'], t['~'] = true, true, true, true
	return t
}()

// formDelim marks the bytes whose escapes DecodeQuery keeps although the
// query percent-encode sets leave them raw: application/x-www-form-urlencoded
// reads them otherwise when raw ('&' and ';' separate parameters, '=' ends a
// name, '+' is a space, '%' starts an escape).
var formDelim = [256]bool{'%': true, '&': true, '+': true, ';': true, '=': true}

const upperHex = "0123456789ABCDEF"

// appendEscaped appends s percent-encoded with set, normalizing existing
// escapes as the flags say. Bytes >= 0x80 are encoded byte by byte, so
// invalid UTF-8 survives as escapes rather than as U+FFFD. DecodeQuery acts
// only with a query set: it decodes the escape of a byte that set leaves raw,
// but for formDelim.
func appendEscaped(dst []byte, s string, set encodeSet, f Flags) []byte {
	// Fast path: copy the run that needs no work in one go.
	i := 0
	for i < len(s) && encodeTable[s[i]]&set == 0 && s[i] != '%' {
		i++
	}
	dst = append(dst, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				v := unhex(s[i+1])<<4 | unhex(s[i+2])
				if f&DecodeUnreserved != 0 && unreserved[v] ||
					f&DecodeQuery != 0 && set&(setQuery|setQueryStrict) != 0 && encodeTable[v]&set == 0 && !formDelim[v] {
					dst = append(dst, v)
				} else if f&UppercaseEscapes != 0 {
					dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
				} else {
					dst = append(dst, s[i:i+3]...)
				}
				i += 2
			} else if f&EscapeStrayPercent != 0 {
				dst = append(dst, "%25"...)
			} else {
				dst = append(dst, '%')
			}
		case encodeTable[c]&set != 0:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
