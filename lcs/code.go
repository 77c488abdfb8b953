package lcs

import (
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"
)

// The paper's thresholds (Guo et al., §IV: L_pth = 300, δ_p = 0.75) and
// Algorithm 2's constants. n_th, N and the step 4 threshold are not given in
// the paper; the values here are this package's choice (see the package doc).
const (
	DefaultMaxChars       = 1000 // Algorithm 2 step 1
	DefaultUnitChars      = 300  // L_pth of Definition 1
	DefaultUnitShare      = 0.75 // δ_p of Definition 1
	DefaultManyParagraphs = 10   // n_th of Algorithm 2 step 3
	DefaultEdgeParagraphs = 5    // N of Algorithm 2 step 3b and step 4
	DefaultMinCodeLen     = 10   // step 4: shorter codes fall back to the first 4N symbols
)

// DefaultAnchors returns the anchors used when [Options].Anchors is nil: the
// paper's 的 and Chinese sentence punctuation (the paper's examples also cut
// at ， and quotation marks), ASCII punctuation, and a few of the most common
// English function words, which play the role 的 plays in Chinese. The
// returned slice is a fresh copy.
func DefaultAnchors() []string {
	return []string{
		// Chinese: the paper names 的, 。 and ？; its examples also cut at ， and “ ”.
		"的", "。", "，", "、", "；", "：", "？", "！", "“", "”", "‘", "’",
		"「", "」", "『", "』", "（", "）", "《", "》", "【", "】", "…",
		// ASCII punctuation, used by English and often inside Chinese text.
		".", ",", ";", ":", "?", "!", "\"", "(", ")",
		// English function words: the analogue of 的 (the most frequent words).
		"the", "a", "an", "of", "and", "or", "to", "in", "is",
	}
}

// Options configures an [Extractor]. The zero value means the defaults: every
// zero field takes the Default constant of the same name.
type Options struct {
	// MaxChars is the number of visible characters of the text that are
	// looked at (Algorithm 2 step 1: the first 1000). Negative means no limit.
	MaxChars int
	// UnitChars is L_pth: a paragraph with at least this many visible
	// characters is an Independent Extraction Unit. Negative means 0, which
	// makes every paragraph a unit.
	UnitChars int
	// UnitShare is δ_p: a paragraph holding at least this share of the
	// visible characters of the text is an Independent Extraction Unit. It
	// must be in [0, 1]; 0 means the default 0.75.
	UnitShare float64
	// ManyParagraphs is n_th: without any unit, a text with at least this
	// many paragraphs takes its code from its first and last EdgeParagraphs
	// paragraphs (step 3b); a text with fewer is joined into one (step 3c).
	ManyParagraphs int
	// EdgeParagraphs is N of steps 3b and 4.
	EdgeParagraphs int
	// MinCodeLen is step 4's threshold: a code with fewer symbols is
	// replaced by the first 4N symbols of the text.
	MinCodeLen int
	// Anchors lists the anchors. An entry of one character is matched
	// against one-character tokens: a CJK character, a punctuation mark or
	// a one-letter word. A longer entry is a word of non-CJK letters and
	// digits, matched without regard to case. Nil means [DefaultAnchors].
	Anchors []string
}

// An Extractor computes length-variable feature codes (Guo et al.,
// Algorithms 1 and 2). Its zero value is not usable; make one with
// [NewExtractor]. It is immutable after construction and safe for concurrent
// use. It does not keep or modify the paragraphs it is given.
type Extractor struct {
	maxChars   int // math.MaxInt when unlimited
	unitChars  int
	unitShare  float64
	many, edge int
	minCode    int

	bmp    *[1 << 16 / 64]uint64 // rune anchors below U+10000
	astral map[rune]struct{}     // rune anchors from U+10000
	words  map[uint64]struct{}   // wordHash of multi-rune word anchors
}

// NewExtractor returns an Extractor for opt; nil means the defaults. It
// copies what it needs from opt. It reports an error for an invalid option.
func NewExtractor(opt *Options) (*Extractor, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	x := &Extractor{
		maxChars:  o.MaxChars,
		unitChars: o.UnitChars,
		unitShare: o.UnitShare,
		many:      o.ManyParagraphs,
		edge:      o.EdgeParagraphs,
		minCode:   o.MinCodeLen,
		bmp:       new([1 << 16 / 64]uint64),
		astral:    map[rune]struct{}{},
		words:     map[uint64]struct{}{},
	}
	switch {
	case x.maxChars == 0:
		x.maxChars = DefaultMaxChars
	case x.maxChars < 0:
		x.maxChars = math.MaxInt
	}
	switch {
	case x.unitChars == 0:
		x.unitChars = DefaultUnitChars
	case x.unitChars < 0:
		x.unitChars = 0
	}
	if math.IsNaN(x.unitShare) || x.unitShare < 0 || x.unitShare > 1 {
		return nil, fmt.Errorf("lcs: invalid UnitShare %v (want 0 to 1)", o.UnitShare)
	}
	if x.unitShare == 0 {
		x.unitShare = DefaultUnitShare
	}
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{
		{"ManyParagraphs", &x.many, DefaultManyParagraphs},
		{"EdgeParagraphs", &x.edge, DefaultEdgeParagraphs},
		{"MinCodeLen", &x.minCode, DefaultMinCodeLen},
	} {
		if *f.v < 0 {
			return nil, fmt.Errorf("lcs: invalid %s %d (want >= 0)", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	anchors := o.Anchors
	if anchors == nil {
		anchors = DefaultAnchors()
	}
	for _, a := range anchors {
		if err := x.addAnchor(a); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (x *Extractor) addAnchor(a string) error {
	if !utf8.ValidString(a) {
		return fmt.Errorf("lcs: invalid anchor %q (not UTF-8)", a)
	}
	n := utf8.RuneCountInString(a)
	if n == 1 {
		r, _ := utf8.DecodeRuneInString(a)
		if isInvisible(r) {
			return fmt.Errorf("lcs: invalid anchor %q (invisible)", a)
		}
		r = fold(r)
		if r < 1<<16 {
			x.bmp[r>>6] |= 1 << (r & 63)
		} else {
			x.astral[r] = struct{}{}
		}
		return nil
	}
	if n == 0 {
		return fmt.Errorf("lcs: invalid anchor %q (empty)", a)
	}
	h := uint64(fnvOffset)
	for _, r := range a {
		if classify(r) != classWord {
			return fmt.Errorf("lcs: invalid anchor %q (a longer anchor must be one word of non-CJK letters and digits)", a)
		}
		h = fnvAdd(h, fold(r))
	}
	x.words[h] = struct{}{}
	return nil
}

func (x *Extractor) isRuneAnchor(r rune) bool {
	if r < 1<<16 {
		return x.bmp[r>>6]&(1<<(r&63)) != 0
	}
	_, ok := x.astral[r]
	return ok
}

var defaultExtractor = func() *Extractor {
	x, err := NewExtractor(nil)
	if err != nil {
		panic(err) // the defaults are valid; a failure here is a bug in this file
	}
	return x
}()

// Code returns the feature code of a text given as paragraphs, with the
// default options. It is equivalent to NewExtractor(nil) followed by
// [Extractor.Code].
func Code(paragraphs []string) string {
	return defaultExtractor.Code(paragraphs)
}

// Code returns the feature code of a text given as its paragraphs, in order
// (Algorithm 2). Each symbol of the code is one rune: a CJK character or a
// one-character token stands for itself, a longer word for a rune of the
// supplementary private use planes chosen by a hash of the lower-cased word.
func (x *Extractor) Code(paragraphs []string) string {
	var buf [512]byte
	return string(x.AppendCode(buf[:0], paragraphs))
}

// AppendCode appends the feature code of paragraphs, UTF-8 encoded, to dst
// and returns the extended buffer. It is the append-style twin of
// [Extractor.Code]. It does not allocate when dst has room for the code and
// the cut text has at most 64 non-empty paragraphs.
func (x *Extractor) AppendCode(dst []byte, paragraphs []string) []byte {
	// Step 1 and 2: the visible length of each paragraph within the first
	// maxChars visible characters. Empty paragraphs do not count.
	var lensBuf [64]int
	lens := lensBuf[:0]
	var idxBuf [64]int
	idx := idxBuf[:0] // paragraph index of each entry of lens
	total := 0
	for i, p := range paragraphs {
		if total >= x.maxChars {
			break
		}
		n := visibleLen(p, x.maxChars-total)
		if n == 0 {
			continue
		}
		lens = append(lens, n)
		idx = append(idx, i)
		total += n
	}
	start := len(dst)
	units := 0
	for _, l := range lens {
		if x.isUnit(l, total) {
			units++
		}
	}
	switch {
	case units > 0: // step 3a: Algorithm 1
		for k, l := range lens {
			if x.isUnit(l, total) {
				e := emitter{mode: modeAnchor}
				dst = x.scan(dst, paragraphs[idx[k]], l, &e)
				dst = e.flush(dst)
			}
		}
	case len(lens) >= x.many: // step 3b: first and last N paragraphs
		first := min(x.edge, len(lens))
		last := min(x.edge, len(lens)-first) // non-overlapping
		for k := range len(lens) {
			if k < first || k >= len(lens)-last {
				e := emitter{mode: modeEdge}
				dst = x.scan(dst, paragraphs[idx[k]], lens[k], &e)
				dst = e.flush(dst)
			}
		}
	default: // step 3c: all paragraphs joined into one
		e := emitter{mode: modeAnchor}
		for k, l := range lens {
			dst = x.scan(dst, paragraphs[idx[k]], l, &e)
		}
		dst = e.flush(dst)
	}
	if runeCount(dst[start:]) >= x.minCode {
		return dst
	}
	// Step 4: the first 4N symbols of the text, anchors included.
	dst = dst[:start]
	e := emitter{mode: modePrefix, left: 4 * x.edge}
	for k, l := range lens {
		if e.left == 0 {
			break
		}
		dst = x.scan(dst, paragraphs[idx[k]], l, &e)
	}
	return dst
}

func (x *Extractor) isUnit(l, total int) bool {
	return l >= x.unitChars || float64(l) >= x.unitShare*float64(total)
}

// emitter receives the tokens of a text in order and appends the symbols
// of its mode to dst. It is a concrete type, not an interface, so that the
// hot loop neither allocates nor calls through a table.
type emitter struct {
	mode  int
	last  rune // last token of the open segment or paragraph
	open  bool // a segment is open and its first token emitted
	more  bool // the open segment has more than one token
	count int  // non-anchor tokens seen (modeEdge)
	left  int  // symbols still to emit (modePrefix)
}

const (
	// modeAnchor implements the anchor-based extraction: the text is cut at
	// anchors into segments, and each segment contributes its first and
	// last token (one symbol for a one-token segment). The start and end of
	// the text act as anchors, which reproduces the paper's §III.A example.
	modeAnchor = iota
	// modeEdge emits the first and last non-anchor token of a paragraph
	// (step 3b's "beginning and end characters").
	modeEdge
	// modePrefix emits the first left tokens, anchors included (step 4).
	modePrefix
)

func (e *emitter) token(dst []byte, sym rune, anchor bool) []byte {
	switch e.mode {
	case modeAnchor:
		if anchor {
			return e.flush(dst)
		}
		if !e.open {
			e.open, e.more = true, false
			return utf8.AppendRune(dst, sym)
		}
		e.last, e.more = sym, true
	case modeEdge:
		if anchor {
			return dst
		}
		if e.count == 0 {
			dst = utf8.AppendRune(dst, sym)
		}
		e.last = sym
		e.count++
	case modePrefix:
		if e.left > 0 {
			e.left--
			dst = utf8.AppendRune(dst, sym)
		}
	}
	return dst
}

// flush ends the open segment (modeAnchor) or paragraph (modeEdge).
func (e *emitter) flush(dst []byte) []byte {
	switch e.mode {
	case modeAnchor:
		if e.open && e.more {
			dst = utf8.AppendRune(dst, e.last)
		}
		e.open, e.more = false, false
	case modeEdge:
		if e.count > 1 {
			dst = utf8.AppendRune(dst, e.last)
		}
		e.count = 0
	}
	return dst
}

// Token classes.
const (
	classInvisible = iota // white space, control and format characters
	classCJK              // one character, one token
	classWord             // letters, digits and marks: runs form one token
	classOther            // punctuation and symbols: one character, one token
)

func classify(r rune) int {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	if r >= 0x4e00 && r <= 0x9fff { // CJK Unified Ideographs, the common case
		return classCJK
	}
	switch {
	case isInvisible(r):
		return classInvisible
	case isCJK(r):
		return classCJK
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
		return classWord
	}
	return classOther
}

var asciiClass = func() (t [utf8.RuneSelf]int) {
	for r := range rune(utf8.RuneSelf) {
		switch {
		case r <= ' ' || r == 0x7f:
			t[r] = classInvisible
		case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			t[r] = classWord
		default:
			t[r] = classOther
		}
	}
	return t
}()

// isInvisible reports the characters that Algorithm 2 step 2 removes: white
// space, control and format characters (such as U+200B and U+FEFF), and
// U+FFFD, which is also what an invalid UTF-8 byte decodes to.
func isInvisible(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7f
	}
	if r > 0x3000 && r < 0xfeff {
		// CJK punctuation, kana, ideographs, Hangul, compatibility forms:
		// no space, control or format character lies in this range.
		return false
	}
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

func isCJK(r rune) bool {
	// Fast path for the CJK Unified Ideographs block.
	if r >= 0x4e00 && r <= 0x9fff {
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// visibleLen returns the number of visible characters of p, at most limit.
func visibleLen(p string, limit int) int {
	n := 0
	for i := 0; i < len(p) && n < limit; {
		c := p[i]
		if c < utf8.RuneSelf {
			if c > ' ' && c != 0x7f {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		i += size
		if !isInvisible(r) {
			n++
		}
	}
	return n
}

// fold lower-cases r for matching.
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvAdd adds one rune to a 64-bit FNV-1a hash (the rune's four bytes,
// little-endian).
func fnvAdd(h uint64, r rune) uint64 {
	u := uint32(r)
	h = (h ^ uint64(u&0xff)) * fnvPrime
	h = (h ^ uint64(u>>8&0xff)) * fnvPrime
	h = (h ^ uint64(u>>16&0xff)) * fnvPrime
	h = (h ^ uint64(u>>24)) * fnvPrime
	return h
}

// The supplementary private use planes 15 and 16, minus their last two
// (noncharacter) code points each: the runes that stand for words.
const (
	planeSize = 0xfffe
	wordRunes = 2 * planeSize
)

// wordRune maps the hash of a word of two or more runes to its code symbol.
func wordRune(h uint64) rune {
	v := rune(h % wordRunes)
	if v < planeSize {
		return 0xf0000 + v
	}
	return 0x100000 + v - planeSize
}

// scan tokenizes the first limit visible characters of p and passes each
// token to e.
func (x *Extractor) scan(dst []byte, p string, limit int, e *emitter) []byte {
	seen := 0
	inWord := false
	var wh uint64   // hash of the current word
	var wfirst rune // its first rune, folded
	var wlen int    // its length in runes
	for i := 0; i < len(p) && seen < limit; {
		r := rune(p[i])
		size := 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(p[i:])
		}
		i += size
		c := classify(r)
		if c == classInvisible {
			if inWord {
				dst = x.word(dst, e, wh, wfirst, wlen)
				inWord = false
			}
			continue
		}
		seen++
		if c == classWord {
			f := fold(r)
			if !inWord {
				inWord, wh, wfirst, wlen = true, fnvOffset, f, 0
			}
			wh = fnvAdd(wh, f)
			wlen++
			continue
		}
		if inWord {
			dst = x.word(dst, e, wh, wfirst, wlen)
			inWord = false
		}
		if c == classOther {
			r = fold(r)
		}
		dst = e.token(dst, r, x.isRuneAnchor(r))
	}
	if inWord {
		dst = x.word(dst, e, wh, wfirst, wlen)
	}
	return dst
}

// word passes one finished word token to e.
func (x *Extractor) word(dst []byte, e *emitter, h uint64, first rune, n int) []byte {
	if n == 1 {
		return e.token(dst, first, x.isRuneAnchor(first))
	}
	_, anchor := x.words[h]
	return e.token(dst, wordRune(h), anchor)
}

// runeCount counts the runes of valid UTF-8 (utf8.RuneCount allocates in
// this Go release).
func runeCount(p []byte) int {
	n := 0
	for _, c := range p {
		if c&0xc0 != 0x80 {
			n++
		}
	}
	return n
}
