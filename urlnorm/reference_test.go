package urlnorm

// Slow, obviously correct references for the fast paths, written from the
// specifications with the standard library's string functions, and tests
// that compare them with the fast code.

import (
	"fmt"
	"net/netip"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// refConnect returns the host and port a WHATWG parser would connect to for
// an http, https, ws, wss or ftp URL: the host as ASCII (IPv6 in brackets)
// and the port ("" for the default). ok is false when the URL has another
// scheme or fails to parse.
func refConnect(raw string) (host, port string, ok bool) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r >= 0 && r <= ' ' })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	scheme, rest, found := strings.Cut(s, ":")
	if !found || !schemeRE.MatchString(scheme) {
		return "", "", false
	}
	scheme = strings.ToLower(scheme)
	defaults := map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}
	def, special := defaults[scheme]
	if !special {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, `/\`)
	if i := strings.IndexAny(rest, `/\?#`); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	// The host state: a ':' outside brackets starts the port.
	hostText, portText := rest, ""
	depth := false
	for i, c := range []byte(rest) {
		if c == '[' {
			depth = true
		} else if c == ']' {
			depth = false
		} else if c == ':' && !depth {
			hostText, portText = rest[:i], rest[i+1:]
			break
		}
	}
	if portText != "" {
		if strings.Trim(portText, "0123456789") != "" {
			return "", "", false
		}
		p, err := strconv.ParseUint(portText, 10, 64)
		if err != nil || p > 65535 {
			return "", "", false
		}
		if port = strconv.FormatUint(p, 10); port == def {
			port = ""
		}
	}
	host, ok = refHost(hostText)
	return host, port, ok
}

// refHost is the WHATWG host parser for special schemes, with
// RemoveTrailingDot applied and EncodeStrict's rejection of ` { }.
func refHost(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") || strings.Contains(h, "%") {
			return "", false
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() {
			return "", false
		}
		return "[" + a.String() + "]", true
	}
	var d []byte
	for i := 0; i < len(h); i++ {
		if h[i] == '%' && i+2 < len(h) {
			if v, err := strconv.ParseUint(h[i+1:i+3], 16, 8); err == nil {
				d = append(d, byte(v))
				i += 2
				continue
			}
		}
		d = append(d, h[i])
	}
	if !utf8.Valid(d) {
		return "", false
	}
	a, err := whatwgIDNA.ToASCII(string(d))
	if err != nil || a == "" {
		return "", false
	}
	for _, r := range a {
		if r < 0x20 || r >= 0x7f || strings.ContainsRune(" #%/:<>?@[\\]^|`{}", r) {
			return "", false
		}
	}
	a = strings.ToLower(a)
	parts := strings.Split(a, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if last := parts[len(parts)-1]; last != "" {
		if _, isNum := refIPv4Number(last); isNum || strings.Trim(last, "0123456789") == "" {
			v, ok := refIPv4(parts)
			if !ok {
				return "", false
			}
			return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String(), true
		}
	}
	if len(a) > 1 && strings.HasSuffix(a, ".") && !strings.HasSuffix(a, "..") {
		a = a[:len(a)-1]
	}
	return a, true
}

func refIPv4Number(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	digits := map[int]string{8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}[base]
	if strings.Trim(p, digits) != "" {
		return 0, false // (ParseUint may report overflow before a bad digit)
	}
	v, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true
		}
		return 0, false
	}
	return v, true
}

func refIPv4(parts []string) (uint32, bool) {
	if len(parts) > 4 {
		return 0, false
	}
	var nums []uint64
	for _, p := range parts {
		v, ok := refIPv4Number(p)
		if !ok {
			return 0, false
		}
		nums = append(nums, v)
	}
	for _, v := range nums[:len(nums)-1] {
		if v > 255 {
			return 0, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return 0, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), true
}

var (
	jsessionRE = regexp.MustCompile(`(?i);jsessionid=[^;/]*`)
	aspnetRE   = regexp.MustCompile(`^\((?:[A-Za-z]\([A-Za-z0-9_-]+\))+\)$|^\([a-z0-9]{24}\)$`)
)

// refCrawlerKey derives the Crawler key from the canonical URL c (fragment
// already dropped) with string functions: path session ids, then the query.
func refCrawlerKey(n *Normalizer, c string) string {
	base, query, hasQuery := strings.Cut(c, "?")
	i := strings.Index(base, "://")
	j := strings.IndexByte(base[i+3:], '/') + i + 3
	var segs []string
	parts := strings.Split(base[j+1:], "/")
	for k, seg := range parts {
		if aspnetRE.MatchString(seg) {
			if k == len(parts)-1 {
				segs = append(segs, "")
			}
			continue
		}
		segs = append(segs, jsessionRE.ReplaceAllString(seg, ""))
	}
	out := base[:j] + "/" + strings.Join(segs, "/")
	if !hasQuery {
		return out
	}
	if n.flags&DecodeQuery != 0 {
		query = refDecodeQuery(query, n.flags&EncodeStrict != 0)
	}
	if n.flags&SemicolonParams != 0 {
		// The one '&' piece the key keeps, if it is name=value pairs joined by ';'.
		pieces := strings.Split(query, "&")
		semi := -1
		for i, piece := range pieces {
			name, value, _ := strings.Cut(piece, "=")
			if piece == "" || strings.HasPrefix(piece, "=") || strings.Contains(piece, "=") &&
				(matchParam(n.session, []byte(name), []byte(value)) || matchParam(n.tracking, []byte(name), []byte(value))) {
				continue // dropped
			}
			if semi >= 0 || !strings.Contains(piece, ";") || slices.ContainsFunc(strings.Split(piece, ";"), func(p string) bool { return strings.Index(p, "=") <= 0 }) {
				semi = -1
				break
			}
			semi = i
		}
		if semi >= 0 {
			pieces[semi] = strings.ReplaceAll(pieces[semi], ";", "&")
			query = strings.Join(pieces, "&")
		}
	}
	type param struct{ name, value, text string }
	var ps []param
	for _, p := range strings.Split(query, "&") {
		name, value, hasEq := strings.Cut(p, "=")
		if name == "" {
			continue
		}
		if hasEq && value == "" {
			p, hasEq = name, false
		}
		if matchParam(n.session, []byte(name), []byte(value)) || matchParam(n.tracking, []byte(name), []byte(value)) {
			continue
		}
		eqValue := ""
		if hasEq {
			eqValue = "=" + value
		}
		ps = append(ps, param{name, eqValue, p})
	}
	slices.SortStableFunc(ps, func(x, y param) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		return strings.Compare(x.value, y.value)
	})
	var texts []string
	for _, p := range ps {
		texts = append(texts, p.text)
	}
	if len(texts) == 0 {
		return out
	}
	return out + "?" + strings.Join(texts, "&")
}

// refDecodeQuery decodes, in the query q of a canonical URL (escapes valid and upper-case), the
// escapes of the bytes that refFormSame accepts.
func refDecodeQuery(q string, strict bool) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '%' && i+2 < len(q) {
			if v, err := strconv.ParseUint(q[i+1:i+3], 16, 8); err == nil && refFormSame(byte(v), strict) {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// refFormSame reports whether DecodeQuery decodes the escape of byte c: the WHATWG URL parser
// leaves c raw in the query of a special URL (c is printable ASCII, not in the special-query
// percent-encode set, https://url.spec.whatwg.org/#special-query-percent-encode-set, nor, with
// strict, in what EncodeStrict adds to it), and form decoding (net/url.ParseQuery) reads c and
// its escape the same, in a name and in a value, without an error.
func refFormSame(c byte, strict bool) bool {
	if c <= ' ' || c >= 0x7f || strings.IndexByte(`"#<>'`, c) >= 0 || strict && strings.IndexByte("`{}|[]^\\", c) >= 0 {
		return false
	}
	form := func(x string) url.Values {
		v, err := url.ParseQuery("a" + x + "b=c" + x + "d")
		if err != nil {
			return nil
		}
		return v
	}
	raw, esc := form(string(c)), form(fmt.Sprintf("%%%02X", c))
	return raw != nil && reflect.DeepEqual(raw, esc)
}

func TestIPv4MatchesReference(t *testing.T) {
	hosts := []string{
		"0", "0x", "0x0", "0xffffffff", "0x100000000", "4294967295", "4294967296",
		"1.2.3.4", "1.2.3.4.", "1.2.3.4.5", "01.02.03.04", "08.1.1.1", "0x1.0x2.0x3.0x4",
		"1.0xffffff", "1.0x1000000", "1.2.65535", "1.2.65536", "1.2.3.256", "99999999999999999999",
		"0000000000000000000000000000000000001", "0x00000000000000000000000000001",
	}
	for _, h := range hosts {
		want, wok := refIPv4(strings.Split(strings.TrimSuffix(h, "."), "."))
		got, ok := parseIPv4([]byte(h))
		if ok != wok || got != want {
			t.Errorf("parseIPv4(%q) = %d, %v; reference %d, %v", h, got, ok, want, wok)
		}
	}
}

func TestIPv6MatchesNetip(t *testing.T) {
	addrs := []string{
		"::", "::1", "1::", "1:0:0:2:0:0:0:3", "1:0:0:2:0:0:3:4", "0:0:1:0:0:1:0:0",
		"2001:db8::1", "2001:DB8:0:0:8:800:200C:417A", "fe80::1:2:3:4", "1:2:3:4:5:6:7:8",
		"1:2:3:4:5:6:7:0", "0:2:3:4:5:6:7:8",
	}
	for _, s := range addrs {
		got, err := appendIPv6(nil, s)
		want := "[" + netip.MustParseAddr(s).String() + "]"
		if err != nil || string(got) != want {
			t.Errorf("appendIPv6(%q) = %q, %v; netip says %q", s, got, err, want)
		}
	}
}

// TestPlainPathFastPath checks appendPath's fast path for paths already in
// normal form against the segment-by-segment code, over the corpus paths and
// some dot-segment shapes.
func TestPlainPathFastPath(t *testing.T) {
	urls, _ := loadCorpus(t)
	if testing.Short() {
		urls = urls[:2000]
	}
	paths := []string{"/", "/.", "/..", "/./", "/../", "/a/.", "/a/..", "/a/.b", "/a/..b", "/.a/", "/a//b", "/a%2e", "/a\\b", "/a b"}
	for _, u := range urls {
		if i := strings.Index(u, "://"); i >= 0 {
			p := u[i+3:]
			if j := strings.IndexByte(p, '/'); j >= 0 {
				p, _, _ = strings.Cut(p[j:], "?")
				p, _, _ = strings.Cut(p, "#")
				paths = append(paths, p)
			}
		}
	}
	for _, f := range []Flags{Safe, Safe &^ EncodeStrict, 0} {
		for _, p := range paths {
			got := appendPath(nil, p, f, false)
			want := appendPathSegments(nil, p, f, false)
			if string(got) != string(want) {
				t.Errorf("appendPath(%q, %v) = %q, segment by segment %q", p, f, got, want)
			}
		}
	}
}
