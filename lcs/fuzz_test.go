package lcs

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/undust/undust/internal/hostile"
)

// FuzzCode checks that the extractor equals the slow reference, for the
// input split into paragraphs at "\n\n" and options taken from two bytes.
func FuzzCode(f *testing.F) {
	f.Add(paperText, uint8(0), uint8(0))
	f.Add(longText+"\n\n"+paperText, uint8(1), uint8(7))
	f.Add("The quick brown fox.\n\nA DOG sleeps, of course!", uint8(2), uint8(3))
	f.Add("[1] [2]\n\n相关专题：法治在线\n\n"+strings.Repeat("这是一个很长的段落，", 40), uint8(3), uint8(200))
	f.Add("甲一乙\n\n丙二丁。\n\n戊\n\n己三庚\n\n辛四壬\n\n癸五子", uint8(4), uint8(9))
	f.Add("\xff\xfe\u200b x\n\n\U000f0001 é ﬁ", uint8(5), uint8(1))
	// Large inputs: many paragraphs, one long line, many empty paragraphs.
	f.Add(strings.Join(hostile.Paragraphs(300, 8), "\n\n"), uint8(0x05), uint8(0x0a))
	f.Add(hostile.LongLine(20000), uint8(0x01), uint8(0))
	f.Add(strings.Repeat("\n\n", 2000)+"的。", uint8(0x45), uint8(0x33))
	f.Fuzz(func(t *testing.T, text string, o1, o2 uint8) {
		paras := strings.Split(text, "\n\n")
		opt := Options{
			MaxChars:       []int{0, -1, 7, 60}[o1&3],
			UnitChars:      []int{0, -1, 5, 40}[o1>>2&3],
			UnitShare:      []float64{0, 0.3, 1, 0.75}[o1>>4&3],
			ManyParagraphs: int(o2 & 7),
			EdgeParagraphs: int(o2 >> 3 & 3),
			MinCodeLen:     int(o2 >> 5),
			Anchors:        [][]string{nil, {"的", "。"}, {"the", ".", "x", "甲"}, {}}[o1>>6],
		}
		x, err := NewExtractor(&opt)
		if err != nil {
			t.Fatalf("NewExtractor(%+v): %v", opt, err)
		}
		got := x.Code(paras)
		if want := slowCode(paras, filled(opt)); got != want {
			t.Fatalf("Code(%q) with %+v = %q, want %q", paras, opt, got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Code(%q) = %q, not UTF-8", paras, got)
		}
		if again := x.Code(paras); again != got {
			t.Fatalf("Code(%q) not deterministic: %q then %q", paras, got, again)
		}
	})
}

// FuzzLongest checks Longest against the dynamic-programming reference.
func FuzzLongest(f *testing.F) {
	f.Add("banana", "ananas")
	f.Add("系法这流以点从码", "这流以点")
	f.Add("\xe4\xb8x", "\xff\xfex")
	f.Add("", "abc")
	f.Add("aaaa", "aaa")
	f.Add(hostile.LongLine(2000), hostile.LongLine(1500)[500:])
	f.Add(strings.Repeat("ab", 1000), strings.Repeat("ba", 999))
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 2000 || len(b) > 2000 {
			return // the reference is quadratic
		}
		checkLongest(t, a, b)
	})
}

// FuzzEliminate checks Eliminate and Check against the pairwise
// reference, on codes split from the input at '|'.
func FuzzEliminate(f *testing.F) {
	f.Add("abcdef|abcdef|abcdef", uint8(75))
	f.Add("cdef|abcdefgh", uint8(75))
	f.Add("xxxxabcyyyy|abcz", uint8(80))
	f.Add("aaaabbbb|bbbbcc|bbcccc", uint8(50))
	f.Add("|abc||王示一差站高只事就示对题最机给害严府形象|差站高只事就示对题最", uint8(100))
	f.Add(strings.ReplaceAll(strings.Join(hostile.Paragraphs(60, 12), "|"), " ", ""), uint8(40))
	f.Add(strings.Repeat(hostile.LongLine(60)+"|", 60), uint8(90))
	f.Add(hostile.LongLine(1900)+"|"+hostile.LongLine(2000)[900:], uint8(30))
	f.Fuzz(func(t *testing.T, s string, d uint8) {
		codes := strings.Split(s, "|")
		if len(codes) > 64 || len(s) > 4000 {
			return
		}
		delta := float64(d%101) / 100
		got := Eliminate(codes, delta)
		if delta == 0 {
			delta = DefaultDelta
		}
		want := slowEliminate(codes, delta)
		for i := range codes {
			g, w := got[i], want[i]
			if g.Dup != w.Dup || w.Dup && (g.Common != w.Common || g.Score != w.Score) ||
				!w.Dup && (g.Common > w.Common || g.Score >= delta) {
				t.Fatalf("Eliminate(%q, %v)[%d] = %+v, want %+v", codes, delta, i, g, w)
			}
			checkOf(t, codes, i, g, got)
		}
		// Check is exact: against the codes kept, the longest common
		// substring over all of them.
		e := NewEliminator(delta)
		var kept []string
		for _, c := range codes {
			want := 0
			for _, k := range kept {
				want = max(want, slowLongest(k, c))
			}
			if r := e.Check(c); r.Common != want {
				t.Fatalf("Check(%q) after keeping %q: Common = %d, want %d", c, kept, r.Common, want)
			}
			if _, r := e.Add(c); !r.Dup {
				kept = append(kept, c)
			}
		}
	})
}
