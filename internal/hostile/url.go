package hostile

import (
	"strconv"
	"strings"
)

// RepeatedLabels returns "http://" followed by n copies of label and then
// "a.com/": RepeatedLabels("www.", 3) is "http://www.www.www.a.com/". Labels
// such as "www." (folded one by one), "." (empty labels) and "xn--a." (IDNA)
// stress host parsing.
func RepeatedLabels(label string, n int) string {
	return "http://" + strings.Repeat(label, max(n, 0)) + "a.com/"
}

// RepeatedSegments returns "http://a.com/" followed by n copies of seg and
// then "x": RepeatedSegments("../", 2) is "http://a.com/../../x". Segments
// such as "../", "./", "/" (empty segments) and "%2e%2e/" stress path
// resolution.
func RepeatedSegments(seg string, n int) string {
	return "http://a.com/" + strings.Repeat(seg, max(n, 0)) + "x"
}

// QueryParams returns "http://a.com/p?" followed by n parameters joined by
// '&'. With distinct they are k0=v&k1=v&...; without, every parameter is
// named k, with values n-1 down to 0, so that sorting has work to do.
func QueryParams(n int, distinct bool) string {
	var b strings.Builder
	b.WriteString("http://a.com/p?")
	for i := range max(n, 0) {
		if i > 0 {
			b.WriteByte('&')
		}
		if distinct {
			b.WriteString("k")
			b.WriteString(strconv.Itoa(i))
			b.WriteString("=v")
		} else {
			b.WriteString("k=")
			b.WriteString(strconv.Itoa(n - 1 - i))
		}
	}
	return b.String()
}

// escapeRun is one round of PercentEscapes: an unreserved letter escaped, a
// lower-case escape, a UTF-8 escape sequence, a stray '%' and a '%' followed
// by only one hex digit.
const escapeRun = "%41%7e%E2%80%9C%zz%4"

// PercentEscapes returns a URL whose path and query each hold n rounds of
// percent escapes of every kind a normalizer treats differently: escaped
// unreserved bytes to decode, lower-case hex to upper-case, escaped UTF-8 to
// keep, and stray or short '%' to escape.
func PercentEscapes(n int) string {
	run := strings.Repeat(escapeRun, max(n, 0))
	return "http://a.com/" + run + "?q=" + run
}

// LeadingInvisible returns url preceded by the UTF-8 encoding of each of
// U+FEFF (byte-order mark), U+200B (zero-width space) and U+00A0 (no-break
// space), the characters that copying a URL out of a document or a
// spreadsheet leaves in front of it.
func LeadingInvisible(url string) string {
	return "\ufeff\u200b\u00a0" + url
}

// RelativeRef returns a relative reference (an href without a scheme): n
// copies of seg and then "x". RelativeRef("../", 2) is "../../x". Segments
// such as "../" (above the root of any base), "./", "%2e%2E/" and "/" stress
// the resolution of a reference against a base URL.
func RelativeRef(seg string, n int) string {
	return strings.Repeat(seg, max(n, 0)) + "x"
}
