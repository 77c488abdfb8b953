package shingle

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Case says how letters are case-normalized before tokens are compared.
type Case uint8

const (
	// Lower maps every letter to lower case with unicode.ToLower, one
	// rune at a time ("Straße" -> "straße"). It is the default and what
	// the neardup corpus uses.
	Lower Case = iota
	// Keep leaves case alone ("Sam" and "sam" differ), which the lecture
	// notes mention as a way to tell proper nouns apart.
	Keep
	// Fold applies full Unicode case folding ("Straße" -> "strasse").
	Fold
)

// Unit is what a shingle is made of.
type Unit uint8

const (
	// Words makes tokens of words: runs of letters and digits, with every
	// CJK ideograph a token of its own. It is the default.
	Words Unit = iota
	// Chars makes a token of every letter or digit, with a single space
	// token between words, so that w-shingles are character w-grams of
	// the normalized text ("a rose" -> "a", " ", "r", "o", "s", "e").
	Chars
)

// Options are the tokenization and shingling choices the lecture notes
// list. The zero value means the defaults, which reproduce the neardup
// corpus: NFKC, lower case, words, CJK ideographs as single tokens,
// punctuation and stop words dropped, w = 5. Options is a plain value,
// safe to share.
type Options struct {
	// Width is w, the number of tokens in a shingle; 0 means 5.
	Width int
	// Case is the case normalization.
	Case Case
	// Unit selects word or character shingles.
	Unit Unit
	// NoNFKC skips Unicode NFKC normalization (full-width "Ａ" then
	// differs from "A", and ligatures stay whole).
	NoNFKC bool
	// Punct keeps every punctuation or symbol rune as a token of its own.
	Punct bool
	// StopWords drops English stop words (see [IsStopWord]). Words only.
	StopWords bool
}

// DefaultWidth is the shingle width w used when Options.Width is 0.
const DefaultWidth = 5

func (o Options) width() int {
	if o.Width <= 0 {
		return DefaultWidth
	}
	return o.Width
}

// tokenizer turns text into a byte buffer holding the tokens separated by
// single spaces, with the end offset of each token. It is reused between
// calls; its zero value is ready.
type tokenizer struct {
	opt       Options
	buf       []byte  // tokens joined by ' '
	starts    []int32 // start offset of each token in buf
	inTok     bool    // a token is open at the end of buf
	wantSpace bool    // Chars mode: a space token is due before the next rune
	tokBeg    int
	iter      norm.Iter
	folder    cases.Caser
	hasFold   bool
	noWords   bool // tests: scan without its fast path words
}

func (t *tokenizer) reset(o Options) {
	t.opt = o
	t.buf = t.buf[:0]
	t.starts = t.starts[:0]
	t.inTok = false
	t.wantSpace = false
	if o.Case == Fold && !t.hasFold {
		t.folder = cases.Fold()
		t.hasFold = true
	}
}

// tokenize fills buf and starts with the tokens of s.
func (t *tokenizer) tokenize(s string, o Options) {
	t.reset(o)
	if o.NoNFKC {
		t.scan(s, false)
		t.endToken()
		return
	}
	// Scan runs of runes that need no normalization in one pass. A run
	// stops before a rune that does; if that rune has a normalization
	// boundary before it, the run is final and the rest is normalized
	// from there. Otherwise (a combining mark after a letter, say) the
	// run's last rune may compose with it, and the text is tokenized
	// again by tokenizeRuns, which hands that rune to the normalizer.
	whole := s
	for len(s) > 0 {
		n := t.scan(s, true)
		if n == len(s) {
			break
		}
		if n > 0 {
			if p := norm.NFKC.PropertiesString(s[n:]); !p.BoundaryBefore() || p.CCC() != 0 || p.LeadCCC() != 0 {
				t.reset(o)
				t.tokenizeRuns(whole, o)
				return
			}
		}
		end := otherRun(s, n, !o.Punct)
		t.normalize(s[n:end])
		s = s[end:]
	}
	t.endToken()
}

// tokenizeRuns fills buf and starts with the tokens of s under NFKC,
// finding each run of runes that need no normalization before scanning it.
// t must be reset.
func (t *tokenizer) tokenizeRuns(s string, o Options) {
	for len(s) > 0 {
		// ASCII and CJK Unified Ideographs are NFKC-stable starters
		// that never compose with what precedes them, so a run of them
		// is scanned as is. The run's last rune may compose with a
		// following combining mark, so it goes to the normalizer with
		// the other runes.
		n, last := fastPrefix(s, !o.Punct)
		if n == len(s) {
			t.scan(s, false)
			break
		}
		if r, size := utf8.DecodeRuneInString(s[n:]); r == utf8.RuneError && size == 1 {
			// An invalid byte reads as U+FFFD, a starter that composes
			// with nothing, so it is a boundary on both sides. (The
			// normalizer itself may swallow the runes after an invalid
			// byte unnormalized.)
			t.scan(s[:n+1], false)
			s = s[n+1:]
			continue
		}
		t.scan(s[:last], false)
		s = s[last:]
		// s[:end] holds that rune and the following run of other runes;
		// a boundary is always before the next fast rune.
		end := otherRun(s, n-last, !o.Punct)
		t.normalize(s[:end])
		s = s[end:]
	}
	t.endToken()
}

// startsWithMark reports whether s starts with a combining mark.
func startsWithMark(s string) bool {
	if s == "" || s[0] < utf8.RuneSelf {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.Is(unicode.M, r)
}

// fastPrefix returns the length n of the longest prefix of s made of runes
// that need no normalization in context (ASCII, CJK Unified Ideographs and,
// when sep is set, the punctuation in sepRunes), and the start of its last
// rune (0 if the prefix is empty).
func fastPrefix(s string, sep bool) (n, last int) {
	i, l := 0, 0
	for i < len(s) {
		b := s[i]
		if b < utf8.RuneSelf {
			// Eight ASCII bytes at a time: most text, Chinese
			// included, is mostly ASCII.
			for i+8 <= len(s) && load64(s[i:i+8])&0x8080808080808080 == 0 {
				i += 8
			}
			for i < len(s) && s[i] < utf8.RuneSelf {
				i++
			}
			l = i - 1
			continue
		}
		if b >= 0xE0 && b <= 0xEF && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			r := rune(b&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			if r >= 0x800 && (0x4E00 <= r && r <= 0x9FFF || sep && sepRunes[r>>6]&(1<<(r&63)) != 0) {
				l = i
				i += 3
				continue
			}
		}
		break
	}
	return i, l
}

// startsFast reports whether s starts with a rune fastPrefix takes, that
// is whether fastPrefix(s, sep) is not empty, without scanning the run.
func startsFast(s string, sep bool) bool {
	if s == "" {
		return false
	}
	b := s[0]
	if b < utf8.RuneSelf {
		return true
	}
	if b >= 0xE0 && b <= 0xEF && len(s) > 2 && s[1]&0xC0 == 0x80 && s[2]&0xC0 == 0x80 {
		r := rune(b&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)
		return r >= 0x800 && (0x4E00 <= r && r <= 0x9FFF || sep && sepRunes[r>>6]&(1<<(r&63)) != 0)
	}
	return false
}

// sepRunes is a bitmap of the three-byte-encoded punctuation runes whose
// NFKC form has no letter or number and that are starters with a boundary
// before them (the CJK and full-width punctuation of Chinese text among
// them). When punctuation is not kept they only separate tokens, before
// and after normalization alike, so they need not be normalized.
var sepRunes = func() (bits [0x10000 / 64]uint64) {
	for r := rune(0x800); r < 0x10000; r++ {
		if !unicode.IsPunct(r) || 0xD800 <= r && r < 0xE000 {
			continue
		}
		s := string(r)
		p := norm.NFKC.PropertiesString(s)
		if p.CCC() != 0 || !p.BoundaryBefore() {
			continue
		}
		ok := true
		for _, q := range norm.NFKC.String(s) {
			if unicode.IsLetter(q) || unicode.IsNumber(q) || isHan(q) {
				ok = false
			}
		}
		if ok {
			bits[r>>6] |= 1 << (r & 63)
		}
	}
	return bits
}()

// otherRun returns the end of the run of non-fast runes that starts at
// s[from:].
// It also ends before an invalid byte.
func otherRun(s string, from int, sep bool) int {
	i := from
	for i < len(s) {
		if startsFast(s[i:], sep) {
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return i
}

// normalize scans s after NFKC normalization. s must start and end at
// normalization boundaries.
func (t *tokenizer) normalize(s string) {
	for len(s) > 0 {
		n := norm.NFKC.QuickSpanString(s)
		if n > 0 {
			t.scan(s[:n], false)
			s = s[n:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		if 0xFF01 <= r && r <= 0xFF5E && !startsWithMark(s[size:]) {
			// Full-width ASCII variants (common in CJK text) are
			// <wide> compatibility forms of ASCII 0x21-0x7E: map them
			// directly unless a combining mark follows, which could
			// compose with the result.
			var one [1]byte
			one[0] = byte(r - 0xFEE0)
			t.scan(unsafeString(one[:]), false)
			s = s[size:]
			continue
		}
		m := norm.NFKC.NextBoundaryInString(s, true)
		if m <= 0 {
			m = len(s)
		}
		// norm.Iter normalizes segment by segment into its own buffer;
		// Form.AppendString would allocate.
		t.iter.InitString(norm.NFKC, s[:m])
		for !t.iter.Done() {
			t.scanBytes(t.iter.Next())
		}
		s = s[m:]
	}
}

// asciiClass: 1 for letters and digits, 2 for upper-case letters, 3 for
// white space, 0 for punctuation and symbols.
var asciiClass = func() (c [utf8.RuneSelf]byte) {
	for b := 'a'; b <= 'z'; b++ {
		c[b] = 1
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = 1
	}
	for b := 'A'; b <= 'Z'; b++ {
		c[b] = 2
	}
	for _, b := range " \t\n\r\f\v" {
		c[b] = 3
	}
	for b := 0; b < 0x20; b++ {
		if c[b] == 0 {
			c[b] = 3 // control characters separate like white space
		}
	}
	c[0x7f] = 3
	return c
}()

func (t *tokenizer) scanBytes(s []byte) {
	// The segment buffer is only read while it is not reused.
	t.scan(unsafeString(s), false)
}

// scan adds the tokens of s. With stop, it stops before the first rune
// that is not in a run fastPrefix would return (invalid bytes, which read
// as U+FFFD, are scanned) and returns where it stopped; else it returns
// len(s).
func (t *tokenizer) scan(s string, stop bool) int {
	chars := t.opt.Unit == Chars
	keep := t.opt.Case == Keep
	fast := !chars && !t.opt.Punct && !t.opt.StopWords && !t.noWords
	for i := 0; i < len(s); {
		if fast {
			if i = t.words(s, i, keep); i == len(s) {
				break
			}
		}
		b := s[i]
		if b < utf8.RuneSelf {
			switch asciiClass[b] {
			case 1, 2:
				if chars {
					if !keep {
						b = lowerASCII[b]
					}
					t.letter(b, true)
					i++
					continue
				}
				// A run of ASCII letters and digits in one go.
				t.openToken()
				i = t.asciiWord(s, i, keep)
				continue
			case 3:
				t.space()
			default:
				t.space()
				if t.opt.Punct {
					t.single(rune(b))
				}
			}
			i++
			continue
		}
		// Three-byte runes (CJK text) decoded inline: CJK Unified
		// Ideographs are tokens, and without Punct the punctuation in
		// sepRunes only separates.
		if b >= 0xE0 && b <= 0xEF && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			r := rune(b&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			if r >= 0x800 && !(0xD800 <= r && r < 0xE000) {
				if 0x4E00 <= r && r <= 0x9FFF {
					t.endToken()
					t.wantSpace = false
					t.openToken()
					t.buf = append(t.buf, s[i:i+3]...)
					t.inTok = false
					i = t.ideographs(s, i+3)
					continue
				}
				if !t.opt.Punct && sepRunes[r>>6]&(1<<(r&63)) != 0 {
					t.space()
					i += 3
					continue
				}
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if stop && size > 1 {
			return i
		}
		switch {
		case isHan(r):
			t.endToken()
			t.single(r)
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			t.letterRune(r, chars)
		case unicode.IsSpace(r):
			t.space()
		default:
			t.space()
			if t.opt.Punct && (unicode.IsPunct(r) || unicode.IsSymbol(r)) {
				t.single(r)
			}
		}
		i += size
	}
	return len(s)
}

// words adds the tokens of the run of ASCII, CJK Unified Ideographs and
// sepRunes punctuation that starts at s[i], in Words mode without Punct
// and StopWords, and returns the end of the run. It is scan's fast path:
// the state lives in locals, pure ASCII goes 64 bytes a step, other ASCII
// eight (a word and the separators after it a step), and runs of
// ideographs a token each without leaving their loop. Its output is
// scan's, which tests check.
func (t *tokenizer) words(s string, i int, keep bool) int {
	buf, starts, inTok := t.buf, t.starts, t.inTok
	n := len(buf)
	buf = buf[:cap(buf)]
	for i < len(s) {
		// Room for the words of 64 bytes, each stored eight bytes at a
		// time.
		if len(buf)-n < 80 {
			buf = slices.Grow(buf[:n], len(s)-i+80)
			buf = buf[:cap(buf)]
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if i+72 <= len(s) && load64(s[i:i+8])&highBits == 0 {
				// Sixty-four bytes a step, up to the first
				// multi-byte rune: one bit a byte for letters and
				// digits, then a word a run of ones. Nothing
				// carries from one word to the next but the
				// output length, so words do not wait for each
				// other.
				var alnum, multi uint64
				for k := 0; k < 64; k += 8 {
					x := load64(s[i+k : i+k+8])
					word, _ := alnum8(x)
					alnum |= pack8(word) << k
					multi |= pack8(x&highBits) << k
				}
				limit := bits.TrailingZeros64(multi) // 64 if none
				if limit < 64 {
					alnum &= 1<<limit - 1
				}
				pos := 0 // end of the last word
				for alnum != 0 {
					st := bits.TrailingZeros64(alnum)
					ln := bits.TrailingZeros64(^(alnum >> st))
					alnum &= alnum + alnum&-alnum // clear the run
					if st > pos {
						inTok = false
					}
					if !inTok {
						if n > 0 {
							buf[n] = ' '
							n++
						}
						starts = append(starts, int32(n))
						inTok = true
					}
					p := i + st
					for c := 0; c < ln; c += 8 {
						x := load64(s[p+c : p+c+8])
						if !keep {
							// Letters have 0x40 set, digits
							// not; lower case adds 0x20.
							x |= x & (0x40 * lowBits) >> 1
						}
						binary.LittleEndian.PutUint64(buf[n+c:n+c+8], x)
					}
					n += ln
					pos = st + ln
				}
				if limit > pos {
					inTok = false
				}
				i += limit
				continue
			}
			var x uint64
			if i+8 <= len(s) {
				x = load64(s[i : i+8])
			} else {
				// Past the end reads as NUL, a separator.
				for k := len(s) - 1; k >= i; k-- {
					x = x<<8 | uint64(s[k])
				}
			}
			word, upper := alnum8(x)
			if word&0x80 == 0 {
				// ASCII separators, up to a letter, a digit or a
				// multi-byte rune.
				k := bits.TrailingZeros64(word|x&highBits) >> 3
				i = min(i+k, len(s))
				inTok = false
				continue
			}
			if !inTok {
				if n > 0 {
					buf[n] = ' '
					n++
				}
				starts = append(starts, int32(n))
				inTok = true
			}
			if !keep {
				x |= upper >> 2 // 0x80 to 0x20: 'A' to 'a'
			}
			binary.LittleEndian.PutUint64(buf[n:n+8], x)
			k := bits.TrailingZeros64(^word&highBits) >> 3
			n += k
			if k == 8 {
				i += 8
				continue
			}
			// The separators after the word, if any, in the same step.
			// (Not into the NULs past the end: the token stays open
			// for the next piece of normalized text.)
			stop := (word | x&highBits) >> (8 * k)
			if sep := min(bits.TrailingZeros64(stop)>>3, 8-k, len(s)-i-k); sep > 0 {
				inTok = false
				k += sep
			}
			i += k
			continue
		}
		if i+3 >= len(s) {
			break
		}
		// A run of ideographs, a token each. x holds the rune's three
		// bytes; E4 B8 80 is U+4E00, E9 BF BF is U+9FFF.
		x := load32(s[i : i+4])
		if isIdeograph(x) {
			if n > 0 {
				buf[n] = ' '
				n++
			}
			for {
				starts = append(starts, int32(n))
				binary.LittleEndian.PutUint32(buf[n:n+4], x&0xFFFFFF|' '<<24)
				n += 4
				i += 3
				if i+3 >= len(s) || len(buf)-n < 8 {
					break
				}
				if x = load32(s[i : i+4]); !isIdeograph(x) {
					break
				}
			}
			n-- // the space after the last ideograph
			inTok = false
			continue
		}
		b1, b2 := s[i+1], s[i+2]
		if b >= 0xE0 && b <= 0xEF && b1&0xC0 == 0x80 && b2&0xC0 == 0x80 {
			r := rune(b&0x0F)<<12 | rune(b1&0x3F)<<6 | rune(b2&0x3F)
			if r >= 0x800 && sepRunes[r>>6]&(1<<(r&63)) != 0 {
				i += 3
				inTok = false
				continue
			}
		}
		break
	}
	t.buf, t.starts, t.inTok = buf[:n], starts, inTok
	return i
}

// ideographs adds the run of CJK Unified Ideographs (U+4E00 to U+9FFF)
// that starts at s[i], each a token, as the three-byte case of scan does
// after a first ideograph: no token is open and no space token is due. It
// returns the end of the run. Chinese text is mostly such runs, one token
// per three bytes, so they skip scan's general path.
func (t *tokenizer) ideographs(s string, i int) int {
	buf, starts := t.buf, t.starts
	for i+2 < len(s) {
		b0, b1, b2 := s[i], s[i+1], s[i+2]
		// E4 B8 80 is U+4E00, E9 BF BF is U+9FFF.
		if b0 < 0xE4 || b0 > 0xE9 || b1&0xC0 != 0x80 || b2&0xC0 != 0x80 || b0 == 0xE4 && b1 < 0xB8 {
			break
		}
		starts = append(starts, int32(len(buf)+1))
		buf = append(buf, ' ', b0, b1, b2)
		i += 3
	}
	t.buf, t.starts = buf, starts
	return i
}

// asciiWord appends the run of ASCII letters and digits that starts at
// s[i] to the open token, lower-cased unless keep, and returns the end of
// the run. It works eight bytes at a time: English words are mostly
// shorter than that, so a word costs one step and one predictable branch.
func (t *tokenizer) asciiWord(s string, i int, keep bool) int {
	// The word is at most the rest of s; each step stores eight bytes.
	buf := t.buf
	if cap(buf)-len(buf) < len(s)-i+8 {
		buf = slices.Grow(buf, len(s)-i+8)
	}
	n := len(buf)
	buf = buf[:cap(buf)]
	for i+8 <= len(s) && n+8 <= len(buf) {
		x := load64(s[i : i+8])
		word, upper := alnum8(x)
		if !keep {
			x |= upper >> 2 // 0x80 to 0x20: 'A' to 'a'
		}
		binary.LittleEndian.PutUint64(buf[n:n+8], x)
		k := bits.TrailingZeros64(^word&highBits) >> 3
		n += k
		i += k
		if k < 8 {
			t.buf = buf[:n]
			return i
		}
	}
	table := &lowerWord
	if keep {
		table = &keepWord
	}
	for i < len(s) && n < len(buf) {
		c := table[s[i]]
		if c == 0 {
			break
		}
		buf[n] = c
		n++
		i++
	}
	t.buf = buf[:n]
	return i
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// pack8 gathers the high bits of the eight bytes of m, which has no other
// bits set, into the low eight bits, byte i to bit i.
func pack8(m uint64) uint64 {
	return (m >> 7) * 0x0102040810204080 >> 56
}

// alnum8 returns, for the eight bytes of x, 0x80 in each byte that is an
// ASCII letter or digit (word) and in each that is an ASCII upper-case
// letter (upper), and 0 in the others.
func alnum8(x uint64) (word, upper uint64) {
	// With the high bits cleared, adding a byte constant below 0x80
	// carries into no other byte; the high bit of y+(0x80-lo) is set
	// when y >= lo, that of y+(0x7f-hi) when y > hi.
	y := x &^ highBits
	l := y | 0x20*lowBits // letters to lower case, digits unchanged
	alpha := (l + (0x80-'a')*lowBits) &^ (l + (0x7f-'z')*lowBits)
	digit := (y + (0x80-'0')*lowBits) &^ (y + (0x7f-'9')*lowBits)
	up := (y + (0x80-'A')*lowBits) &^ (y + (0x7f-'Z')*lowBits)
	return (alpha | digit) &^ x & highBits, up &^ x & highBits
}

// isHan reports whether r is a CJK ideograph (script Han), checking the
// CJK Unified Ideographs block before the full table.
func isHan(r rune) bool {
	if 0x4E00 <= r && r <= 0x9FFF {
		return true
	}
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r)
}

// lowerWord maps the ASCII letters and digits to their lower case and
// every other byte to 0.
var lowerWord = func() (t [256]byte) {
	for b := range utf8.RuneSelf {
		if c := asciiClass[b]; c == 1 || c == 2 {
			t[b] = lowerASCII[b]
		}
	}
	return t
}()

// keepWord maps the ASCII letters and digits to themselves and every
// other byte to 0.
var keepWord = func() (t [256]byte) {
	for b := range utf8.RuneSelf {
		if c := asciiClass[b]; c == 1 || c == 2 {
			t[b] = byte(b)
		}
	}
	return t
}()

var lowerASCII = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// letter adds an ASCII letter or digit.
func (t *tokenizer) letter(b byte, chars bool) {
	if chars {
		t.spaceToken()
		t.openToken()
		t.buf = append(t.buf, b)
		t.endToken()
		return
	}
	t.openToken()
	t.buf = append(t.buf, b)
}

func (t *tokenizer) letterRune(r rune, chars bool) {
	switch t.opt.Case {
	case Lower:
		r = unicode.ToLower(r)
	case Fold:
		if chars {
			t.spaceToken()
		}
		t.openToken()
		var tmp [utf8.UTFMax]byte
		n := utf8.EncodeRune(tmp[:], r)
		t.buf = append(t.buf, t.folder.String(string(tmp[:n]))...)
		if chars {
			t.endToken()
		}
		return
	}
	if chars {
		t.spaceToken()
		t.openToken()
		t.buf = utf8.AppendRune(t.buf, r)
		t.endToken()
		return
	}
	t.openToken()
	t.buf = utf8.AppendRune(t.buf, r)
}

// space ends a word. In Chars mode it asks for one space token before the
// next character.
func (t *tokenizer) space() {
	t.endToken()
	if t.opt.Unit == Chars && len(t.starts) > 0 {
		t.wantSpace = true
	}
}

// spaceToken emits the space token that space asked for.
func (t *tokenizer) spaceToken() {
	if !t.wantSpace {
		return
	}
	t.wantSpace = false
	t.openToken()
	t.buf = append(t.buf, ' ')
	t.inTok = false
}

func (t *tokenizer) openToken() {
	if t.inTok {
		return
	}
	if len(t.buf) > 0 {
		t.buf = append(t.buf, ' ')
	}
	t.starts = append(t.starts, int32(len(t.buf)))
	t.tokBeg = len(t.buf)
	t.inTok = true
}

func (t *tokenizer) endToken() {
	if !t.inTok {
		return
	}
	t.inTok = false
	if t.opt.StopWords && t.opt.Unit == Words && IsStopWord(unsafeString(t.buf[t.tokBeg:])) {
		t.starts = t.starts[:len(t.starts)-1]
		t.buf = t.buf[:max(t.tokBeg-1, 0)]
	}
}

// single adds a one-rune token (a CJK ideograph or a punctuation mark).
// In Chars mode no space token goes before it: CJK text has no spaces.
func (t *tokenizer) single(r rune) {
	t.wantSpace = false
	t.openToken()
	t.buf = utf8.AppendRune(t.buf, r)
	t.inTok = false
}

// isIdeograph reports whether the first three bytes of x, little-endian,
// encode a CJK Unified Ideograph (U+4E00 to U+9FFF, E4 B8 80 to E9 BF BF).
func isIdeograph(x uint32) bool {
	b0, b1 := x&0xFF, x>>8&0xFF
	return b0-0xE4 <= 0xE9-0xE4 && x&0xC0C000 == 0x808000 && (b0 != 0xE4 || b1 >= 0xB8)
}

// load32 reads the first 4 bytes of s little-endian (one load on amd64).
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load64 reads the first 8 bytes of s little-endian (one load on amd64).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
