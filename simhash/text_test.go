package simhash

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/shingle"
)

func TestSumText(t *testing.T) {
	long := benchText(50_000, 3)
	tests := []struct {
		name string
		text string
		o    shingle.Options
	}{
		{"empty", "", shingle.Options{}},                                                 // no tokens: fingerprint 0
		{"punctuation only", "!!! ... ???", shingle.Options{}},                           // no tokens either
		{"short", "Hello, 世界 World2", shingle.Options{}},                                 // fewer than 5 tokens: one shingle
		{"sentence", "the printer is set up once on the main server", shingle.Options{}}, // several shingles
		{"width 2", "a rose is a rose is a rose", shingle.Options{Width: 2}},             // repeated shingles count twice
		{"characters", "您可以从文件中插入图片。", shingle.Options{Unit: shingle.Chars}},             // character shingles
		{"long", long, shingle.Options{}},                                                // many features, flushes
	}
	for _, tt := range tests {
		want := slowSum(shingle.AppendHashes(nil, tt.text, tt.o), nil, TieZero)
		if got := SumText(tt.text, tt.o); got != want {
			t.Errorf("%s: SumText = %#x, want %#x", tt.name, got, want)
		}
	}
	if SumText("", shingle.Options{}) != 0 {
		t.Error("SumText of empty text is not 0")
	}
	// Near-duplicate texts are close, unrelated ones are not.
	edited := strings.Replace(long, "printer", "printers", 1)
	if d := Distance(SumText(long, shingle.Options{}), SumText(edited, shingle.Options{})); d > 3 {
		t.Errorf("one-word edit of a long text: distance %d, want <= 3", d)
	}
	// The same text backwards shares no shingle with it. (Two texts from
	// benchText with different seeds are not unrelated: its few Chinese
	// sentences repeat, and their shingles' counts dominate both.)
	rs := []rune(long)
	slices.Reverse(rs)
	if d := Distance(SumText(long, shingle.Options{}), SumText(string(rs), shingle.Options{})); d < 10 {
		t.Errorf("unrelated texts: distance %d, want >= 10", d)
	}
}

func TestSumTextAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops buffers at random under -race")
	}
	text := benchText(10_000, 5)
	SumText(text, shingle.Options{})
	if n := testing.AllocsPerRun(50, func() { SumText(text, shingle.Options{}) }); n > 0 {
		t.Errorf("SumText allocates %v times per run, want 0", n)
	}
}

// benchText returns about n bytes of documentation-like text: English words,
// punctuation and some Chinese sentences.
func benchText(n int, seed uint64) string {
	words := strings.Fields(`the printer is set up once on the main server and then shared with every
		workstation choose format conditional condition dialog cells value average total numbers
		function returns date time string characters package upload release changelog kernel module
		install configure network user password backup restore service file directory option
		select insert table chart formula sheet document page style paragraph font edit view`)
	zh := []string{"您可以从文件中插入图片。", "选择「插入 - 图像」，然后选择文件。", "此函数返回绝对值。"}
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for b.Len() < n {
		if r.IntN(12) == 0 {
			b.WriteString(zh[r.IntN(len(zh))])
			continue
		}
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(12) {
		case 0:
			b.WriteString(". ")
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}
