package hostile

import "strings"

// Paragraphs returns n paragraphs of words words each, every paragraph
// distinct and its words drawn from a small vocabulary of Latin and Han
// words, for the fingerprinting packages (lcs, shingle).
func Paragraphs(n, words int) []string {
	vocab := []string{"the", "quick", "brown", "fox", "的", "。", "这是", "段落", "jumps", "over"}
	out := make([]string, max(n, 0))
	var b strings.Builder
	for i := range out {
		b.Reset()
		for j := range max(words, 1) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[mix(uint64(i)<<20|uint64(j))%uint64(len(vocab))])
		}
		out[i] = b.String()
	}
	return out
}

// LongLine returns one paragraph of n bytes without white space or
// punctuation, cycling through Latin and Han letters.
func LongLine(n int) string {
	const unit = "ab这是cd段落ef"
	s := strings.Repeat(unit, max(n, 0)/len(unit)+1)
	for n < len(s) && n > 0 && s[n]&0xc0 == 0x80 {
		n-- // cut at a character boundary
	}
	return s[:max(n, 0)]
}
