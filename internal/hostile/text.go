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

// MixedText returns n bytes of text, or a few more, for tokenizers, made to hit the
// edges of fast paths that read eight bytes at a time or decode runes
// inline: ASCII words of 1 to 20 letters and digits in mixed case,
// separator runs of 1 to 12 bytes (spaces, punctuation, control bytes,
// NUL), runs of CJK ideographs with the first and last of the block and
// their neighbours outside it, CJK and full-width punctuation, full-width
// letters, combining marks, Latin letters outside ASCII, other scripts,
// no-break spaces and invalid or truncated UTF-8. The same n and seed
// give the same text.
func MixedText(n int, seed uint64) string {
	pieces := []string{
		"一", "鿿", "丁", "中文", "汉字测试", "㐀", "ꀀ", "䷿", // ideographs, U+3400, U+A000, U+4DFF
		"、", "。", "「", "」", "（", "）", "，", "：", "…", "—", // CJK punctuation
		"Ａ", "ｂ", "１", "！", "＄", // full-width forms
		"\u0301", "e\u0301", "é", "ß", "Straße", "ﬁ", "İ", // marks, Latin
		"привет", "٣٤", "ελληνικά", "\u00a0", "\u3000", "\u200b",
		"\xff", "\xe4\xb8", "\xe4", "\xc3", "\xed\xa0\x80", "\xef\xbf\xbd", // invalid
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const seps = " \t\n.,;:!?-_()[]{}<>/\\'\"@#$%^&*+=|~`\x00\x01\x1f\x7f"
	var b strings.Builder
	for i := uint64(0); b.Len() < n; i++ {
		r := mix(seed<<32 | i)
		switch r % 4 {
		case 0, 1:
			for k := range r>>8%20 + 1 {
				b.WriteByte(letters[mix(r+k)%uint64(len(letters))])
			}
		case 2:
			for k := range r>>8%12 + 1 {
				b.WriteByte(seps[mix(r+k)%uint64(len(seps))])
			}
		default:
			for k := range r>>8%3 + 1 {
				b.WriteString(pieces[mix(r^k)%uint64(len(pieces))])
			}
		}
	}
	return b.String()
}
