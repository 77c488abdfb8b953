package htmltext

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/undust/undust/internal/hostile"
)

// hostilePages are the adversarial page shapes, each about n bytes or more.
var hostilePages = []struct {
	name string
	gen  func(n int) []byte
}{
	{"nested pre", func(n int) []byte { return hostile.NestedTags("pre", n/14) }},
	{"nested div", func(n int) []byte { return hostile.NestedTags("div", n/14) }},
	{"nested table", func(n int) []byte { return hostile.NestedTags("table", n/18) }},
	{"nested li", func(n int) []byte { return hostile.NestedTags("li", n/12) }},
	{"nested unknown", func(n int) []byte { return hostile.NestedTags("x-y", n/14) }},
	{"nested article header", func(n int) []byte {
		return append(hostile.NestedTags("section", n/40), hostile.Repeated("<header>h</header>", n/36)...)
	}},
	{"open li", func(n int) []byte { return hostile.Repeated("<ul><li>w", n/9) }},
	{"open td", func(n int) []byte { return hostile.Repeated("<table><tr><td>w", n/16) }},
	{"br run", func(n int) []byte { return hostile.Repeated("w<br>", n/5) }},
	{"stray end tags", func(n int) []byte { return hostile.StrayEndTags(600, n/7) }},
	{"stray unknown end tags", func(n int) []byte {
		return append(hostile.NestedTags("x-y", 600)[:600*8], hostile.Repeated("</x-z>", n/6)...)
	}},
	{"long line", func(n int) []byte { return hostile.Repeated("a", n) }},
	{"long pre line", func(n int) []byte { return append([]byte("<pre>"), hostile.Repeated("a \n", n/3)...) }},
	{"bad bytes", func(n int) []byte { return hostile.BadBytes(n / 40) }},
}

// TestHostileLinear checks that Extract allocates linear memory in the page
// for every hostile shape, in both modes.
func TestHostileLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	// Bytes only: CPU time ratios of single runs are noise on a loaded
	// machine. TestDeepNestingCost checks time, against a flat page
	// measured at the same moment.
	sizes := hostile.Growth{Sizes: []int{1 << 15, 1 << 16, 1 << 17, 1 << 18}, MaxCPURatio: -1}
	for _, h := range hostilePages {
		t.Run(h.name, func(t *testing.T) {
			in := map[int][]byte{}
			for _, n := range sizes.Sizes {
				in[n] = h.gen(n)
			}
			for _, main := range []bool{false, true} {
				run := func(n int) int {
					txt, err := Extract(in[n], Options{MainContent: main})
					if err != nil {
						t.Fatal(err)
					}
					return len(txt.Paragraphs)
				}
				run(sizes.Sizes[0])
				hostile.Linear(t, sizes, run)
			}
		})
	}
}

// TestDeepNestingCost: every block start tag used to scan the whole stack of
// up to 512 open elements, and every end tag of an element not open too, so
// that nested pre cost 8 times and stray end tags of unknown elements 11
// times as much as flat paragraphs of the same size (measured on
// MainContent, 1 MiB pages). Every shape must now cost at most 4 times the
// flat page (they cost at most 1.5).
func TestDeepNestingCost(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if raceEnabled {
		t.Skip("compares CPU times, which the race detector distorts")
	}
	const n = 1 << 20
	cpu := func(page []byte) time.Duration {
		best := time.Duration(0)
		for r := range 3 {
			c := hostile.Measure(func() int { Extract(page, Options{MainContent: true}); return 0 })
			if r == 0 || c.CPU < best {
				best = c.CPU
			}
		}
		return max(best, time.Millisecond)
	}
	flatPage := hostile.Repeated("<p>w0 </p>", n/10)
	flat := cpu(flatPage)
	for _, h := range hostilePages {
		page := h.gen(n)
		c := cpu(page)
		// Another process can slow every run of one measure, but a cost
		// that grows with the stack shows in every run: a shape over the
		// bound is measured again, with the flat page, before it fails.
		for round := 0; round < 3 && c > 4*flat; round++ {
			flat, c = min(flat, cpu(flatPage)), min(c, cpu(page))
		}
		t.Logf("%s: %.1f", h.name, float64(c)/float64(flat))
		if c > 4*flat {
			t.Errorf("%s: %v for %d bytes, more than 4 times the %v of flat paragraphs", h.name, c, n, flat)
		}
	}
}

// TestMaxBytes: a page is cut at Options.MaxBytes, by default at
// DefaultMaxBytes.
func TestMaxBytes(t *testing.T) {
	page := hostile.Repeated("w<br>", 100)
	for _, tt := range []struct {
		max   int
		paras int
	}{
		{0, 100},   // default: all of it
		{-1, 100},  // no limit
		{50, 10},   // 10 whole "w<br>"
		{52, 11},   // "w<" is a word and a lone '<'
		{500, 100}, // exactly the page
	} {
		txt, err := Extract(page, Options{MaxBytes: tt.max})
		if err != nil || len(txt.Paragraphs) != tt.paras {
			t.Errorf("MaxBytes %d: %d paragraphs, %v; want %d", tt.max, len(txt.Paragraphs), err, tt.paras)
		}
	}
}

// TestCleanText: extracted text is valid UTF-8 without NUL, in the title,
// in text, in preformatted text and from character references.
func TestCleanText(t *testing.T) {
	tests := []struct {
		in    string
		title string
		paras []string
	}{
		// The tokenizer itself turns NUL in a title into U+FFFD.
		{"<title>a\x00b\xffc</title><p>d\x00e", "a\ufffdb\ufffdc", []string{"de"}},
		{"<p>\xe2\x82 x\xc0\xaf\xed\xa0\x80y", "", []string{"\ufffd x\ufffdy"}},
		{"<pre>a\x00\n\n\xff</pre>", "", []string{"a", "\ufffd"}},
		{"<p>&#0;&#xD800;z", "", []string{"\ufffd\ufffdz"}},
		{"<p>ok é 中文", "", []string{"ok é 中文"}},
	}
	for _, tt := range tests {
		txt, err := Extract([]byte(tt.in), Options{})
		if err != nil || txt.Title != tt.title || !slicesEqual(txt.Paragraphs, tt.paras) {
			t.Errorf("Extract(%q) = %q %q, %v; want %q %q", tt.in, txt.Title, txt.Paragraphs, err, tt.title, tt.paras)
		}
	}
	txt, _ := Extract(hostile.BadBytes(100), Options{})
	for _, p := range append(txt.Paragraphs, txt.Title) {
		if !utf8.ValidString(p) || strings.IndexByte(p, 0) >= 0 {
			t.Fatalf("paragraph %q is not valid UTF-8 without NUL", p)
		}
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDeepStack checks the stack bookkeeping where it changes strategy: end
// tags and implicitly closed elements on both sides of the shallow part and
// past maxDepth, against what the structure says.
func TestDeepStack(t *testing.T) {
	for _, depth := range []int{shallow - 2, shallow, shallow + 3, maxDepth - 1, maxDepth + 5} {
		open := strings.Repeat("<div>", depth)
		tests := []struct {
			in   string
			want []string
		}{
			// An unknown element closed from deep inside closes all it holds.
			{"<x-a>a" + open + "b</x-a>c", []string{"a", "b", "c"}},
			// A p opened outside the divs is not closed by a p inside them.
			{"<p>a" + open + "<p>b<p>c", []string{"a", "b", "c"}},
			// A li inside nested divs does not close the outer li.
			{"<ul><li>a" + open + "<li>b</ul>c", []string{"a", "b", "c"}},
			// Stray end tags change nothing.
			{open + "a" + strings.Repeat("</span></x-b>", 3) + "b", []string{"ab"}},
			// header inside article is content, even deep down.
			{"<article>" + open + "<header>h</header><p>t", []string{"h", "t"}},
		}
		for _, tt := range tests {
			got, err := Extract([]byte(tt.in), Options{MainContent: true})
			if err != nil || !slicesEqual(got.Paragraphs, tt.want) {
				t.Errorf("depth %d: Extract(%.60q...) = %q, %v; want %q", depth, tt.in, got.Paragraphs, err, tt.want)
			}
		}
	}
	// The nested shapes give one paragraph per level, whatever the depth.
	for _, tag := range []string{"pre", "div", "p", "li", "x-y"} {
		got, _ := Extract(hostile.NestedTags(tag, 2000), Options{})
		want := 2000
		if tag == "x-y" {
			want = 1 // inline: one line of words
		}
		if len(got.Paragraphs) != want {
			t.Errorf("NestedTags(%q, 2000): %d paragraphs, want %d", tag, len(got.Paragraphs), want)
		}
	}
}
