package hostile

import "bytes"

// NestedTags returns n start tags of the element tag, each followed by one
// word of text, and then the n end tags: NestedTags("div", 2) is
// "<div>w0 <div>w1 </div></div>". Deep nesting of pre, div, table, li and
// unknown elements stresses an HTML reader's stack of open elements.
func NestedTags(tag string, n int) []byte {
	var b bytes.Buffer
	b.Grow(max(n, 0) * (2*len(tag) + 10))
	for i := range max(n, 0) {
		b.WriteByte('<')
		b.WriteString(tag)
		b.WriteString(">w")
		b.WriteByte(byte('0' + i%10))
		b.WriteByte(' ')
	}
	for range max(n, 0) {
		b.WriteString("</")
		b.WriteString(tag)
		b.WriteByte('>')
	}
	return b.Bytes()
}

// Repeated returns n copies of unit: Repeated("w<br>", n) is a page of n
// one-word paragraphs, Repeated("<li>a", n) a list whose items are never
// closed, Repeated("a", n) one long line.
func Repeated(unit string, n int) []byte {
	return bytes.Repeat([]byte(unit), max(n, 0))
}

// StrayEndTags returns depth open div elements and then n end tags that match
// none of them: "<div><div>...</span></span>...". A reader that looks for
// the matching start tag through the whole stack pays depth steps per end
// tag.
func StrayEndTags(depth, n int) []byte {
	b := bytes.Repeat([]byte("<div>x"), max(depth, 0))
	return append(b, bytes.Repeat([]byte("</span>"), max(n, 0))...)
}

// BadBytes returns a page whose text holds n rounds of the bytes a text
// extractor must not pass on: NUL, a lone continuation byte, a truncated
// three-byte sequence, an overlong encoding and a UTF-16 surrogate in
// UTF-8, each between words and around a <br>.
func BadBytes(n int) []byte {
	return bytes.Repeat([]byte("a\x00b \x80 c\xe2\x82 d\xc0\xaf e\xed\xa0\x80<br>\x00 \xff f "), max(n, 0))
}
