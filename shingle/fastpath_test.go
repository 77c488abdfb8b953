package shingle

import (
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// generalHashes is AppendHashes through scan's general loop only, without
// its fast path words: the tokenizer as it was before that path.
func generalHashes(text string, o Options) []uint64 {
	t := &tokenizer{noWords: true}
	return t.appendHashes(nil, text, o)
}

// fastPathTexts are texts at the edges of the fast paths: words and
// separator runs across the eight-byte steps, ideograph runs that end at
// the end of the text or need the buffer to grow, pieces of normalized
// text that continue a word.
func fastPathTexts() []string {
	texts := []string{
		"", "a", "A", " ", "中", "中a", "a中", "。", "a。b", "\xe4\xb8", "ab\xe4\xb8",
		"urlclsc f", "abcdefg h", "abcdefgh i", "abcdefghi j", "a       b", "a        b",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcｄｅｆ", "abcé", "abc\u0301def", "ａbc", "x\u00a0y",
		"中文。中文", "一鿿丁㐀ꀀ䷿", "中\u0301文", "中ﬁ", "a中b文c", "1.2.3", "a\x00b\x7fc",
		strings.Repeat("汉字", 3000), strings.Repeat("ab", 5000), strings.Repeat(" ,", 5000),
		strings.Repeat("word ", 2000) + strings.Repeat("字", 2000), hostile.LongLine(20000),
	}
	for n := 1; n <= 24; n++ {
		w := strings.Repeat("Ab1", 8)[:n]
		for sep := 1; sep <= 10; sep++ {
			texts = append(texts, strings.Repeat(w+strings.Repeat(" ", sep), 3), strings.Repeat(w+strings.Repeat("字", sep), 3))
		}
	}
	for seed := range uint64(40) {
		texts = append(texts, hostile.MixedText(int(seed)*37, seed))
	}
	return texts
}

var fastPathOptions = []Options{{}, {Width: 1}, {Width: 3, Case: Keep}, {Case: Fold}, {NoNFKC: true}, {Width: 7}, {Unit: Chars}, {Punct: true}, {StopWords: true}}

// TestFastPathMatchReference checks AppendHashes and Tokens against the
// reference and against scan's general loop on texts made for the edges
// of the fast paths, whole and, when short, cut at each of their first
// and last 64 bytes. Each whole text is checked under every option; each
// cut under one, the options in turn, and under every option in the
// exhaustive tier (tier.Long).
func TestFastPathMatchReference(t *testing.T) {
	every := tier.Long()
	for _, text := range fastPathTexts() {
		pieces := []string{text}
		for i := 1; i < min(len(text), 64) && len(text) < 1000; i++ {
			pieces = append(pieces, text[i:], text[:len(text)-i])
		}
		for p, s := range pieces {
			for k, o := range fastPathOptions {
				if p > 0 && !every && (p+k)%len(fastPathOptions) != 0 {
					continue
				}
				want := slowHashes(s, o)
				if got := Hashes(s, o); !slices.Equal(got, want) {
					t.Fatalf("Hashes(%q, %+v) = %x, reference %x", s, o, got, want)
				}
				if got := generalHashes(s, o); !slices.Equal(got, want) {
					t.Fatalf("general Hashes(%q, %+v) = %x, reference %x", s, o, got, want)
				}
				if got, want := Tokens(s, o), slowTokens(s, o); !slices.Equal(got, want) {
					t.Fatalf("Tokens(%q, %+v) = %q, reference %q", s, o, got, want)
				}
			}
		}
	}
}

// TestAppendHashesLinear: time and memory grow linearly in the text for
// the shapes each fast path takes and for the slow ones.
func TestAppendHashesLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	shapes := []struct {
		name string
		gen  func(n int) string
	}{
		{"one word", func(n int) string { return strings.Repeat("a", n) }},
		{"ideographs", func(n int) string { return strings.Repeat("字", n/3) }},
		{"separators", func(n int) string { return strings.Repeat(" ", n) }},
		{"mixed", func(n int) string { return hostile.MixedText(n, 1) }},
		{"long line", hostile.LongLine},
		{"marks", func(n int) string { return strings.Repeat("e\u0301", n/3) }},
	}
	sizes := []int{1 << 15, 1 << 16, 1 << 17, 1 << 18}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			in := map[int]string{}
			for _, n := range sizes {
				in[n] = sh.gen(n)
			}
			var dst []uint64
			// A new tokenizer each run, not AppendHashes's pooled one: whether
			// the pool hands back a tokenizer whose buffers already fit
			// depends on the garbage collector, which made the bytes
			// allocated jump between sizes.
			hostile.Linear(t, hostile.Growth{Sizes: sizes, Repeat: 3}, func(n int) int {
				dst = new(tokenizer).appendHashes(dst[:0], in[n], Options{})
				return len(dst)
			})
		})
	}
}

// TestStartsFast checks startsFast against fastPrefix at every byte of
// mixed text.
func TestStartsFast(t *testing.T) {
	for seed := range uint64(20) {
		s := hostile.MixedText(500, seed)
		for i := range len(s) + 1 {
			for _, sep := range []bool{false, true} {
				n, _ := fastPrefix(s[i:], sep)
				if got := startsFast(s[i:], sep); got != (n > 0) {
					t.Fatalf("startsFast(%q, %v) = %v, fastPrefix %d", s[i:min(i+8, len(s))], sep, got, n)
				}
			}
		}
	}
}
