package shingle

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/cespare/xxhash/v2"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// slowTokens is the reference tokenizer: normalize the whole text, then
// walk it rune by rune building strings.
func slowTokens(text string, o Options) []string {
	// Invalid UTF-8 bytes read as U+FFFD before normalization.
	var valid strings.Builder
	for _, r := range text {
		valid.WriteRune(r)
	}
	text = valid.String()
	if !o.NoNFKC {
		text = norm.NFKC.String(text)
	}
	var toks []string
	var cur []rune
	space := false
	end := func() {
		if len(cur) > 0 {
			w := string(cur)
			if !(o.StopWords && o.Unit == Words && IsStopWord(w)) {
				toks = append(toks, w)
			}
			cur = cur[:0]
		}
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			end()
			toks = append(toks, string(r))
			space = false
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			var s string
			switch o.Case {
			case Lower:
				s = string(unicode.ToLower(r))
			case Keep:
				s = string(r)
			case Fold:
				s = cases.Fold().String(string(r))
			}
			if o.Unit == Chars {
				if space {
					toks = append(toks, " ")
					space = false
				}
				toks = append(toks, s)
			} else {
				cur = append(cur, []rune(s)...)
			}
		default:
			end()
			if o.Unit == Chars && len(toks) > 0 {
				space = true
			}
			if o.Punct && (unicode.IsPunct(r) || unicode.IsSymbol(r)) {
				toks = append(toks, string(r))
				space = false
			}
		}
	}
	end()
	return toks
}

func slowHashes(text string, o Options) []uint64 {
	toks := slowTokens(text, o)
	w := o.width()
	if len(toks) == 0 {
		return nil
	}
	if len(toks) < w {
		return []uint64{xxhash.Sum64String(strings.Join(toks, " "))}
	}
	var hs []uint64
	for i := 0; i+w <= len(toks); i++ {
		hs = append(hs, xxhash.Sum64String(strings.Join(toks[i:i+w], " ")))
	}
	return hs
}

var tokenTests = []struct {
	in   string
	o    Options
	want []string
}{
	// Default: words lower-cased, punctuation dropped.
	{"Hello, World! It's 2024.", Options{}, []string{"hello", "world", "it", "s", "2024"}},
	// CJK ideographs are single tokens, mixed text works.
	{"Hello, 世界 World2", Options{}, []string{"hello", "世", "界", "world2"}},
	// NFKC: full-width letters and the fi ligature become ASCII.
	{"ＡＢＣ ﬁle", Options{}, []string{"abc", "file"}},
	// NoNFKC keeps full-width letters (lower-cased) and the ligature.
	{"ＡＢＣ ﬁle", Options{NoNFKC: true}, []string{"ａｂｃ", "ﬁle"}},
	// Keep leaves case.
	{"Sam sam", Options{Case: Keep}, []string{"Sam", "sam"}},
	// Fold applies full case folding.
	{"Straße STRASSE", Options{Case: Fold}, []string{"strasse", "strasse"}},
	// Lower maps rune by rune (ß stays).
	{"Straße", Options{}, []string{"straße"}},
	// Punct keeps punctuation and symbols as tokens.
	{"a, b+c", Options{Punct: true}, []string{"a", ",", "b", "+", "c"}},
	// StopWords drops English stop words.
	{"The cat is on the mat", Options{StopWords: true}, []string{"cat", "mat"}},
	// Chars: letters with one space token between words.
	{"a rose, is", Options{Unit: Chars}, []string{"a", " ", "r", "o", "s", "e", " ", "i", "s"}},
	// Chars: CJK has no space tokens.
	{"中文 字", Options{Unit: Chars}, []string{"中", "文", "字"}},
	// Digits of other scripts and accented letters are word characters.
	{"café ٣٤ naïve", Options{}, []string{"café", "٣٤", "naïve"}},
	// Combining marks (after NFKC they compose) and separators.
	{"e\u0301t\u00e9\tx_y", Options{}, []string{"été", "x", "y"}},
	// Empty and punctuation-only texts have no tokens.
	{"", Options{}, nil},
	{" ,.;!? ", Options{}, nil},
}

func TestTokens(t *testing.T) {
	for _, tt := range tokenTests {
		got := Tokens(tt.in, tt.o)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Tokens(%q, %+v) mismatch (-want +got):\n%s", tt.in, tt.o, diff)
		}
		if diff := cmp.Diff(slowTokens(tt.in, tt.o), got); diff != "" {
			t.Errorf("Tokens(%q, %+v) differs from reference (-slow +fast):\n%s", tt.in, tt.o, diff)
		}
	}
}

func TestShingles(t *testing.T) {
	tests := []struct {
		in   string
		o    Options
		want []string
	}{
		// The lecture's 4-shingles of "a rose is a rose is a rose", duplicates kept.
		{"a rose is a rose is a rose", Options{Width: 4}, []string{
			"a rose is a", "rose is a rose", "is a rose is", "a rose is a", "rose is a rose"}},
		// A text shorter than w is one shingle.
		{"tiny text", Options{}, []string{"tiny text"}},
		// A text of exactly w tokens is one shingle.
		{"one two three four five", Options{}, []string{"one two three four five"}},
		// No tokens, no shingles.
		{"...", Options{}, nil},
		// Character 3-shingles.
		{"ab c", Options{Unit: Chars, Width: 3}, []string{"a b  ", "b   c"}},
	}
	for _, tt := range tests {
		got := Shingles(tt.in, tt.o)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Shingles(%q, %+v) mismatch (-want +got):\n%s", tt.in, tt.o, diff)
		}
		hs := Hashes(tt.in, tt.o)
		if len(hs) != len(got) {
			t.Fatalf("Hashes(%q) has %d values, Shingles %d", tt.in, len(hs), len(got))
		}
		for i, s := range got {
			if hs[i] != xxhash.Sum64String(s) {
				t.Errorf("Hashes(%q)[%d] = %#x, want xxhash(%q) = %#x", tt.in, i, hs[i], s, xxhash.Sum64String(s))
			}
		}
	}
}

func TestHashesMatchReference(t *testing.T) {
	texts := []string{
		"The quick brown fox jumps over the lazy dog. The quick brown fox!",
		"LibreOffice 帮助：插入图片，您可以从文件中插入图片。 Choose Insert - Image.",
		strings.Repeat("Ｆｕｌｌ－ｗｉｄｔｈ ﬁne café ", 20),
		"x",
	}
	for _, tt := range tokenTests {
		texts = append(texts, tt.in)
	}
	opts := []Options{{}, {Width: 1}, {Width: 3, Case: Keep}, {Unit: Chars}, {Punct: true, StopWords: true}, {NoNFKC: true}, {Case: Fold}}
	for _, s := range texts {
		for _, o := range opts {
			if diff := cmp.Diff(slowHashes(s, o), Hashes(s, o)); diff != "" {
				t.Errorf("Hashes(%q, %+v) differs from reference (-slow +fast):\n%s", s, o, diff)
			}
		}
	}
}

func TestAppendHashesAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool is randomized under -race")
	}
	text := strings.Repeat("Words and 汉字 in a sentence, ﬁne Ｘ. ", 50)
	dst := make([]uint64, 0, 1000)
	AppendHashes(dst, text, Options{}) // warm the pool
	if n := testing.AllocsPerRun(100, func() { dst = AppendHashes(dst[:0], text, Options{}) }); n != 0 {
		t.Errorf("AppendHashes allocates %v times per call, want 0", n)
	}
}

func TestSum64(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for n := range 80 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := sum64(b), xxhash.Sum64(b); got != want {
			t.Errorf("sum64 of %d bytes = %#x, xxhash %#x", n, got, want)
		}
	}
}

// TestHashesEveryLength checks the hashing written out in AppendHashes
// against xxhash on shingles of every length from 1 to 100 bytes, each a
// single word (w = 1).
func TestHashesEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var words []string
	for n := 1; n <= 100; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)]
		}
		words = append(words, string(b))
	}
	got := Hashes(strings.Join(words, " "), Options{Width: 1})
	if len(got) != len(words) {
		t.Fatalf("Hashes gave %d hashes, want %d", len(got), len(words))
	}
	for i, w := range words {
		if want := xxhash.Sum64String(w); got[i] != want {
			t.Errorf("hash of %q (%d bytes) = %#x, want %#x", w, len(w), got[i], want)
		}
	}
}
