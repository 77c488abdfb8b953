package lcs

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// slowToken is one token of the reference tokenizer.
type slowToken struct {
	text   string // folded
	anchor bool
}

// symbol is the code symbol of a token.
func (t slowToken) symbol() rune {
	rs := []rune(t.text)
	if len(rs) == 1 {
		return rs[0]
	}
	h := uint64(fnvOffset)
	for _, r := range rs {
		h = fnvAdd(h, r)
	}
	return wordRune(h)
}

func slowInvisible(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

func slowCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func slowWordRune(r rune) bool {
	return !slowCJK(r) && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc))
}

// slowTokens tokenizes the first limit visible runes of p: one token per
// CJK character and per other non-word rune, one per run of word runes.
func slowTokens(p string, limit int, anchors map[string]bool) []slowToken {
	var toks []slowToken
	var word []rune
	endWord := func() {
		if len(word) > 0 {
			s := string(word)
			toks = append(toks, slowToken{s, anchors[s]})
			word = word[:0]
		}
	}
	seen := 0
	for _, r := range p {
		if seen == limit {
			break
		}
		if slowInvisible(r) {
			endWord()
			continue
		}
		seen++
		r = unicode.ToLower(r)
		if slowWordRune(r) {
			word = append(word, r)
			continue
		}
		endWord()
		toks = append(toks, slowToken{string(r), anchors[string(r)]})
	}
	endWord()
	return toks
}

// slowAnchorCode is the anchor-based extraction: the first and last token
// of every run of non-anchor tokens.
func slowAnchorCode(toks []slowToken) []rune {
	var code []rune
	var seg []slowToken
	end := func() {
		if len(seg) > 0 {
			code = append(code, seg[0].symbol())
		}
		if len(seg) > 1 {
			code = append(code, seg[len(seg)-1].symbol())
		}
		seg = seg[:0]
	}
	for _, t := range toks {
		if t.anchor {
			end()
		} else {
			seg = append(seg, t)
		}
	}
	end()
	return code
}

// slowCode is the reference for Extractor.Code, following Algorithm 2 line
// by line on token lists. o must have its defaults filled in.
func slowCode(paragraphs []string, o Options) string {
	anchors := map[string]bool{}
	for _, a := range o.Anchors {
		anchors[strings.Map(unicode.ToLower, a)] = true
	}
	// Steps 1 and 2: cut to the first MaxChars visible runes, drop empty
	// paragraphs.
	var paras [][]slowToken
	var lens []int
	left := o.MaxChars
	for _, p := range paragraphs {
		n := 0
		for _, r := range p {
			if !slowInvisible(r) {
				n++
			}
		}
		n = min(n, left)
		if n == 0 {
			continue
		}
		left -= n
		paras = append(paras, slowTokens(p, n, anchors))
		lens = append(lens, n)
	}
	total := 0
	for _, l := range lens {
		total += l
	}
	isUnit := func(l int) bool {
		return l >= o.UnitChars || float64(l) >= o.UnitShare*float64(total)
	}
	var code []rune
	units := 0
	for _, l := range lens {
		if isUnit(l) {
			units++
		}
	}
	switch {
	case units > 0: // Algorithm 1
		for k, l := range lens {
			if isUnit(l) {
				code = append(code, slowAnchorCode(paras[k])...)
			}
		}
	case len(paras) >= o.ManyParagraphs:
		for k, p := range paras {
			if k < o.EdgeParagraphs || k >= len(paras)-o.EdgeParagraphs && k >= o.EdgeParagraphs {
				var plain []slowToken
				for _, t := range p {
					if !t.anchor {
						plain = append(plain, t)
					}
				}
				if len(plain) > 0 {
					code = append(code, plain[0].symbol())
				}
				if len(plain) > 1 {
					code = append(code, plain[len(plain)-1].symbol())
				}
			}
		}
	default:
		var all []slowToken
		for _, p := range paras {
			all = append(all, p...)
		}
		code = slowAnchorCode(all)
	}
	if len(code) < o.MinCodeLen {
		code = code[:0]
		for _, p := range paras {
			for _, t := range p {
				if len(code) < 4*o.EdgeParagraphs {
					code = append(code, t.symbol())
				}
			}
		}
	}
	return string(code)
}

// filled returns o with its defaults filled in, as slowCode wants.
func filled(o Options) Options {
	if o.MaxChars == 0 {
		o.MaxChars = DefaultMaxChars
	} else if o.MaxChars < 0 {
		o.MaxChars = 1 << 62
	}
	if o.UnitChars == 0 {
		o.UnitChars = DefaultUnitChars
	} else if o.UnitChars < 0 {
		o.UnitChars = 0
	}
	if o.UnitShare == 0 {
		o.UnitShare = DefaultUnitShare
	}
	if o.ManyParagraphs == 0 {
		o.ManyParagraphs = DefaultManyParagraphs
	}
	if o.EdgeParagraphs == 0 {
		o.EdgeParagraphs = DefaultEdgeParagraphs
	}
	if o.MinCodeLen == 0 {
		o.MinCodeLen = DefaultMinCodeLen
	}
	if o.Anchors == nil {
		o.Anchors = DefaultAnchors()
	}
	return o
}

// The paper's §III.A example text, and the long text of §IV.A (its elided
// middle left out).
const (
	paperText = "系统采用的特征码提取算法是基于语法获取特征的方法。这种方法将网页内容看成字符流，以一些标点符号和常用汉字作为锚点，从网页内容中抽取文字作为网页特征码。"
	longText  = "在神七科研攻关中，哈尔滨工业大学承担着宇航员舱外宇航服的地面实验系统，学院气动技术中心课题组负责“水平舱环控系统改造”和“紧急复压系统”的研制。"
)

// word returns the code symbol of an English word, for expectations.
func word(w string) string {
	return string(slowToken{text: strings.ToLower(w)}.symbol())
}

func TestCode(t *testing.T) {
	long := strings.Repeat("这是一个很长的段落，", 40) // 400 visible runes
	tests := []struct {
		name  string
		opt   Options
		paras []string
		want  string
	}{
		{
			// §III.A: "系法这流以点从码". The example cuts at ， and 。 only
			// (with 的 as an anchor it would read 系用特征方法...).
			name:  "paper example with punctuation anchors",
			opt:   Options{Anchors: []string{"，", "。"}, MinCodeLen: 1},
			paras: []string{paperText},
			want:  "系法这流以点从码",
		},
		{
			// §IV.A, Table I, A2': the code starts 在中哈服地统学责水造和; 的
			// and the quotation marks are anchors there.
			name:  "paper long text with the default anchors",
			paras: []string{longText},
			want:  "在中哈服地统学责水造和紧统研制",
		},
		{
			name:  "anchors next to each other give no empty segment",
			opt:   Options{MinCodeLen: 1},
			paras: []string{"甲乙。。丙，，丁"},
			want:  "甲乙丙丁",
		},
		{
			name:  "invisible characters are removed before extraction", // step 2
			opt:   Options{MinCodeLen: 1},
			paras: []string{"系统\u200b采 用\n的\ufeff方法。"},
			want:  "系用方法",
		},
		{
			name:  "English: words are symbols, function words and punctuation anchors",
			opt:   Options{MinCodeLen: 1},
			paras: []string{"The quick brown fox jumps over the lazy dog. A DOG sleeps"},
			want:  word("quick") + word("over") + word("lazy") + word("dog") + word("dog") + word("sleeps"),
		},
		{
			name:  "one-character words stand for themselves",
			opt:   Options{MinCodeLen: 1},
			paras: []string{"x y, 3 z"},
			want:  "xy3z",
		},
		{
			name:  "IEU: only the long paragraph counts", // Definition 1, Algorithm 1
			paras: []string{"[1] [2] [3] [我来说两句]", "相关专题：法治在线节目实录", long, "版权所有"},
			want:  strings.Repeat("这长段落", 40),
		},
		{
			name:  "IEU by share: 75% of a short text", // δ_p
			opt:   Options{MinCodeLen: 1},
			paras: []string{"短，文", "这是一个主要的段落，它占了全文的大部分，其余都很短。这里再写一些，让它更长一些。"},
			want:  "这要段落它文大分其短这些让些",
		},
		{
			name:  "no IEU, many paragraphs: first and last N", // step 3b
			opt:   Options{EdgeParagraphs: 2, ManyParagraphs: 5, MinCodeLen: 1},
			paras: []string{"甲一乙", "丙二丁。", "戊", "己三庚", "辛四壬", "癸五子"},
			want:  "甲乙丙丁辛壬癸子",
		},
		{
			name:  "no IEU, few paragraphs: joined into one", // step 3c
			opt:   Options{MinCodeLen: 1},
			paras: []string{"一二三，四五", "六七。八九"},
			want:  "一三四七八九",
		},
		{
			name:  "a short code falls back to the first 4N symbols", // step 4
			opt:   Options{EdgeParagraphs: 2},
			paras: []string{"一二，三四五六", "七八九"},
			want:  "一二，三四五六七",
		},
		{
			name:  "the text is cut to its first MaxChars visible characters", // step 1
			opt:   Options{MaxChars: 6, MinCodeLen: 1},
			paras: []string{"一二，三", "四五六七八"},
			want:  "一二三五", // the paragraphs are joined (step 3c)
		},
		{
			name:  "no text, no code",
			paras: []string{"", " \n\t"},
			want:  "",
		},
	}
	for _, tt := range tests {
		x, err := NewExtractor(&tt.opt)
		if err != nil {
			t.Fatalf("%s: NewExtractor: %v", tt.name, err)
		}
		if got := x.Code(tt.paras); got != tt.want {
			t.Errorf("%s: Code(%q) = %q, want %q", tt.name, tt.paras, got, tt.want)
		}
		if got := slowCode(tt.paras, filled(tt.opt)); got != tt.want {
			t.Errorf("%s: slowCode(%q) = %q, want %q", tt.name, tt.paras, got, tt.want)
		}
	}
}

// TestCodeNoise checks Table I in spirit: a code from the important
// paragraphs does not change when short paragraphs are deleted, inserted or
// replaced, and changes when a long paragraph does.
func TestCodeNoise(t *testing.T) {
	body := strings.Repeat("国务院新闻办公室今天举行发布会，介绍了有关情况。记者从会上获悉的消息表明，各项工作进展顺利。", 5)
	page := []string{"[1] [2] [3] [我来说两句]", body, "“中国制造”由于毒奶事件而在全球声誉下挫。", "相关链接：新闻 评论 图片"}
	base := Code(page)
	tests := []struct {
		name  string
		paras []string
		want  float64 // repeatability of the variant over the page, and back
	}{
		{"delete the links at the end", page[:3], 1}, // A1'
		{"replace the second short paragraph", []string{page[0], body, "幸好还有“神七”成功飞天。", page[3]}, 1}, // A3'
		{"insert an ad before the body", append([]string{"广告：特价机票，点击这里"}, page...), 1},
		{"replace the body by another long text", []string{page[0], strings.Repeat(longText, 3), page[2]}, 0}, // A2'
	}
	for _, tt := range tests {
		c := Code(tt.paras)
		s1, s2 := Repeatability(base, c), Repeatability(c, base)
		if tt.want == 1 && (s1 != 1 || s2 != 1) || tt.want == 0 && (s1 > 0.2 || s2 > 0.2) {
			t.Errorf("%s: code %q vs %q: S = %.2f, %.2f, want about %v", tt.name, c, base, s1, s2, tt.want)
		}
	}
}

// randParagraphs returns random paragraphs mixing CJK, anchors, English
// words, digits, white space and invisible characters.
func randParagraphs(r *rand.Rand) []string {
	pieces := []string{"的", "。", "，", "甲", "乙", "丙", "丁", "“", "”", " ", "\n", "\u200b", "the", "The", "of",
		"fox", "Dog", "a", "x", "3", "42", ".", ",", "!", "$", "é", "ﬁ", "\U0001f600", "\U000f0001", "\xff", "가", "カ"}
	n := r.IntN(15)
	paras := make([]string, n)
	for i := range paras {
		var sb strings.Builder
		for range r.IntN(60) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		paras[i] = sb.String()
	}
	return paras
}

func randOptions(r *rand.Rand) Options {
	return Options{
		MaxChars:       []int{0, -1, 5, 40, 200}[r.IntN(5)],
		UnitChars:      []int{0, -1, 10, 30}[r.IntN(4)],
		UnitShare:      []float64{0, 0.3, 1}[r.IntN(3)],
		ManyParagraphs: r.IntN(8),
		EdgeParagraphs: r.IntN(4),
		MinCodeLen:     r.IntN(12),
		Anchors:        [][]string{nil, {"的", "。"}, {"the", ".", "x", "甲"}, {}}[r.IntN(4)],
	}
}

func TestCodeMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for range n {
		paras := randParagraphs(r)
		opt := randOptions(r)
		x, err := NewExtractor(&opt)
		if err != nil {
			t.Fatalf("NewExtractor(%+v): %v", opt, err)
		}
		if got, want := x.Code(paras), slowCode(paras, filled(opt)); got != want {
			t.Fatalf("Code(%q) with %+v = %q, want %q", paras, opt, got, want)
		}
	}
}

// TestClassesMatchSlow checks the fast paths of the rune classes against
// the unicode package, for every rune.
func TestClassesMatchSlow(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isInvisible(r), slowInvisible(r); got != want {
			t.Fatalf("isInvisible(%U) = %v, want %v", r, got, want)
		}
		want := classOther
		switch {
		case slowInvisible(r):
			want = classInvisible
		case slowCJK(r):
			want = classCJK
		case slowWordRune(r):
			want = classWord
		}
		if got := classify(r); got != want {
			t.Fatalf("classify(%U) = %d, want %d", r, got, want)
		}
	}
}

func TestNewExtractorErrors(t *testing.T) {
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{UnitShare: 1.5}, `lcs: invalid UnitShare 1.5 (want 0 to 1)`},       // δ_p <= 1
		{Options{UnitShare: -0.1}, `lcs: invalid UnitShare -0.1 (want 0 to 1)`},     // δ_p > 0
		{Options{ManyParagraphs: -1}, `lcs: invalid ManyParagraphs -1 (want >= 0)`}, // n_th
		{Options{EdgeParagraphs: -2}, `lcs: invalid EdgeParagraphs -2 (want >= 0)`}, // N
		{Options{MinCodeLen: -3}, `lcs: invalid MinCodeLen -3 (want >= 0)`},
		{Options{Anchors: []string{""}}, `lcs: invalid anchor "" (empty)`},
		{Options{Anchors: []string{" "}}, `lcs: invalid anchor " " (invisible)`},
		{Options{Anchors: []string{"\xff"}}, `lcs: invalid anchor "\xff" (not UTF-8)`},
		{Options{Anchors: []string{"我们"}}, `lcs: invalid anchor "我们" (a longer anchor must be one word of non-CJK letters and digits)`},
		{Options{Anchors: []string{"a b"}}, `lcs: invalid anchor "a b" (a longer anchor must be one word of non-CJK letters and digits)`},
	}
	for _, tt := range tests {
		_, err := NewExtractor(&tt.opt)
		if err == nil || err.Error() != tt.want {
			t.Errorf("NewExtractor(%+v) error = %v, want %s", tt.opt, err, tt.want)
		}
	}
}

func TestAppendCodeAllocs(t *testing.T) {
	paras := []string{"[1] [2]", strings.Repeat(paperText, 5), strings.Repeat("The quick brown fox, of course. ", 20)}
	dst := make([]byte, 0, 4096)
	x := defaultExtractor
	if n := testing.AllocsPerRun(100, func() { dst = x.AppendCode(dst[:0], paras) }); n != 0 {
		t.Errorf("AppendCode allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = x.Code(paras) }); n > 1 {
		t.Errorf("Code allocates %v times, want at most 1", n)
	}
}

func TestAppendCodeKeepsPrefix(t *testing.T) {
	paras := []string{paperText}
	got := string(defaultExtractor.AppendCode([]byte("prefix:"), paras))
	if want := "prefix:" + Code(paras); got != want {
		t.Errorf("AppendCode(%q, ...) = %q, want %q", "prefix:", got, want)
	}
}
