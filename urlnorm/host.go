package urlnorm

import (
	"bytes"
	"net/netip"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// whatwgIDNA is UTS #46 ToASCII with the WHATWG URL Standard's parameters
// (domain to ASCII with beStrict false): non-transitional, CheckBidi and
// CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off.
var whatwgIDNA = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// hostClass classifies ASCII host bytes.
const (
	hcOK        = iota // allowed as is
	hcUpper            // A-Z, lower-cased
	hcForbidden        // forbidden domain code point
	hcStrict           // allowed by WHATWG, rejected by RFC 3986 (` { })
	hcPercent          // '%', needs decoding
)

var hostClass = func() (t [128]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = hcForbidden
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = hcUpper
	}
	for _, c := range " #/:<>?@[\\]^|\x7f" {
		t[c] = hcForbidden
	}
	t['`'], t['{'], t['}'] = hcStrict, hcStrict, hcStrict
	t['%'] = hcPercent
	return t
}()

// appendHost appends the canonical host for the raw host text h.
func appendHost(dst []byte, h string, f Flags) ([]byte, error) {
	if h[0] == '[' {
		if len(h) < 2 || h[len(h)-1] != ']' {
			return dst, ErrInvalidHost
		}
		return appendIPv6(dst, h[1:len(h)-1])
	}
	start := len(dst)
	slow := false
	plain := true
	for i := 0; i < len(h); i++ {
		if c := h[i]; c >= 0x80 || hostClass[c] != hcOK {
			plain = false
			break
		}
	}
	if plain {
		dst = append(dst, h...)
	}
	for i := 0; !plain && i < len(h); i++ {
		c := h[i]
		if c >= 0x80 {
			slow = true
			break
		}
		switch hostClass[c] {
		case hcUpper:
			c += 'a' - 'A'
		case hcForbidden:
			return dst[:start], ErrInvalidHost
		case hcStrict:
			if f&EncodeStrict != 0 {
				return dst[:start], ErrInvalidHost
			}
		case hcPercent:
			slow = true
		}
		if slow {
			break
		}
		dst = append(dst, c)
	}
	if !slow && hasACEPrefix(dst[start:]) {
		slow = true
	}
	if slow {
		dst = dst[:start]
		a, err := domainToASCII(h)
		if err != nil {
			return dst, err
		}
		for i := 0; i < len(a); i++ {
			c := a[i]
			if c >= 0x80 || hostClass[c] == hcForbidden || hostClass[c] == hcPercent ||
				(hostClass[c] == hcStrict && f&EncodeStrict != 0) {
				return dst, ErrInvalidHost
			}
		}
		dst = append(dst, a...)
	}
	if endsInNumber(dst[start:]) {
		v, ok := parseIPv4(dst[start:])
		if !ok {
			return dst[:start], ErrInvalidHost
		}
		return appendIPv4(dst[:start], v), nil
	}
	// Only a single root dot goes: "a.09.." is a domain, but "a.09." would
	// end in a number and parse as an (invalid) IPv4 address.
	if h := dst[start:]; f&RemoveTrailingDot != 0 && len(h) > 1 && h[len(h)-1] == '.' && h[len(h)-2] != '.' {
		dst = dst[:len(dst)-1]
	}
	return dst, nil
}

// hasACEPrefix reports whether a label starts with "xn--" (already lower-case).
func hasACEPrefix(h []byte) bool {
	if bytes.Index(h, []byte("xn--")) < 0 {
		return false
	}
	for i := 0; i+4 <= len(h); i++ {
		if (i == 0 || h[i-1] == '.') && h[i] == 'x' && h[i+1] == 'n' && h[i+2] == '-' && h[i+3] == '-' {
			return true
		}
	}
	return false
}

// domainToASCII percent-decodes h and runs UTS #46 ToASCII on it.
func domainToASCII(h string) (string, error) {
	var buf [256]byte
	d := buf[:0]
	for i := 0; i < len(h); i++ {
		if h[i] == '%' && i+2 < len(h) && isHex(h[i+1]) && isHex(h[i+2]) {
			d = append(d, unhex(h[i+1])<<4|unhex(h[i+2]))
			i += 2
		} else {
			d = append(d, h[i])
		}
	}
	if !utf8.Valid(d) {
		return "", ErrInvalidHost
	}
	a, err := whatwgIDNA.ToASCII(string(d))
	if err != nil || a == "" {
		return "", ErrInvalidHost
	}
	return a, nil
}

// endsInNumber is the WHATWG "ends in a number checker".
func endsInNumber(h []byte) bool {
	if len(h) > 0 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
		if len(h) == 0 {
			return false
		}
	}
	i := len(h)
	for i > 0 && h[i-1] != '.' {
		i--
	}
	last := h[i:]
	if len(last) == 0 {
		return false
	}
	allDigits := true
	for _, c := range last {
		if !isDigit(c) {
			allDigits = false
			break
		}
	}
	if allDigits {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Number parses one part: 0x-prefixed hex, 0-prefixed octal or
// decimal. Values above 2^32 saturate (they fail later anyway).
func parseIPv4Number(p []byte) (uint64, bool) {
	if len(p) == 0 {
		return 0, false
	}
	base := uint64(10)
	if len(p) >= 2 && p[0] == '0' && p[1]|0x20 == 'x' {
		p, base = p[2:], 16
	} else if len(p) >= 2 && p[0] == '0' {
		p, base = p[1:], 8
	}
	var v uint64
	for _, c := range p {
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case base == 16 && isHex(c):
			d = uint64(unhex(c))
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		if v <= 1<<32 {
			v = v*base + d
		}
	}
	return v, true
}

// parseIPv4 is the WHATWG IPv4 parser.
func parseIPv4(h []byte) (uint32, bool) {
	if len(h) > 0 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
	}
	var nums [4]uint64
	n := 0
	for {
		i := 0
		for i < len(h) && h[i] != '.' {
			i++
		}
		if n == 4 {
			return 0, false
		}
		v, ok := parseIPv4Number(h[:i])
		if !ok {
			return 0, false
		}
		nums[n] = v
		n++
		if i == len(h) {
			break
		}
		h = h[i+1:]
	}
	for i := 0; i < n-1; i++ {
		if nums[i] > 255 {
			return 0, false
		}
	}
	if nums[n-1] >= 1<<(8*(5-n)) {
		return 0, false
	}
	v := nums[n-1]
	for i := 0; i < n-1; i++ {
		v += nums[i] << (8 * (3 - i))
	}
	return uint32(v), true
}

func appendIPv4(dst []byte, v uint32) []byte {
	for i := 3; i >= 0; i-- {
		dst = appendInt(dst, int(v>>(8*i)&255))
		if i > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}

// appendIPv6 parses the text between brackets and writes the WHATWG
// serialization: lower-case hex, the first longest run of two or more zero
// pieces compressed, embedded IPv4 printed as hex pieces.
func appendIPv6(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			return dst, ErrInvalidHost // no zones in URLs
		}
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is6() {
		return dst, ErrInvalidHost
	}
	b := a.As16()
	var p [8]uint16
	for i := range p {
		p[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	bestStart, bestLen := -1, 1
	for i := 0; i < 8; {
		if p[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && p[j] == 0 {
			j++
		}
		if j-i > bestLen {
			bestStart, bestLen = i, j-i
		}
		i = j
	}
	dst = append(dst, '[')
	for i := 0; i < 8; i++ {
		if i == bestStart {
			dst = append(dst, "::"...)
			i += bestLen - 1
			continue
		}
		if i > 0 && i != bestStart+bestLen {
			dst = append(dst, ':')
		}
		dst = appendHex16(dst, p[i])
	}
	return append(dst, ']'), nil
}

func appendHex16(dst []byte, v uint16) []byte {
	const digits = "0123456789abcdef"
	started := false
	for sh := 12; sh >= 0; sh -= 4 {
		d := v >> sh & 15
		if d != 0 || started || sh == 0 {
			dst = append(dst, digits[d])
			started = true
		}
	}
	return dst
}

// foldWWW removes leading "www", "www2", "www12"... labels from the host at
// the end of dst, as long as what is left is neither empty, nor starts with
// an empty label, nor is an IPv4-like or public-suffix name. It repeats, so
// that the key of a key is the key itself: www.www.a.com -> a.com.
func foldWWW(dst []byte, hostStart int) []byte {
	h := dst[hostStart:]
	// The labels are removed together at the end, and the public suffix
	// list is asked only about rests that can be a public suffix: a suffix
	// of h is never longer than h's own public suffix (the list's lookup of
	// a suffix walks a prefix of the labels it walks for h), so there are
	// at most as many lookups as the list's rules have labels, and folding
	// costs time linear in the host however many www labels it has.
	cut := 0
	psLen := -1     // length of h's public suffix, looked up once
	number := false // whether h ends in a number, looked up once
	for {
		r := h[cut:]
		if len(r) < 4 || string(r[:3]) != "www" {
			break
		}
		i := 3
		for i < len(r) && isDigit(r[i]) {
			i++
		}
		if i+1 >= len(r) || r[i] != '.' || r[i+1] == '.' {
			break
		}
		rest := r[i+1:]
		if psLen < 0 {
			// Every rest ends with h's last label.
			number = endsInNumber(rest)
			ps, _ := publicsuffix.PublicSuffix(string(h))
			psLen = len(ps)
		}
		if number {
			break
		}
		if len(rest) <= psLen {
			if ps, _ := publicsuffix.PublicSuffix(string(rest)); ps == string(rest) {
				break
			}
		}
		cut += i + 1
	}
	if cut == 0 {
		return dst
	}
	copy(h, h[cut:])
	return dst[:len(dst)-cut]
}
