package htmltext

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzExtract checks properties on any input: no failure, paragraphs are
// trimmed and non-empty, main content is a subsequence of the full text,
// and extracting the rendered paragraphs of the full text again as
// paragraphs gives the same words.
func FuzzExtract(f *testing.F) {
	for _, s := range wellFormed {
		f.Add([]byte(s))
	}
	f.Add([]byte(`<div><p>a<p>b<li>c</span></div>d</b>`))
	f.Add([]byte("<pre>a\n\n b</pre><textarea>x</textarea>"))
	f.Add([]byte(`<nav class="x"><ul><li><a href=1>1</a><li><a href=2>2</a><li><a href=3>3</a></ul></nav>`))
	for _, b := range readTestdata(f) {
		f.Add(b)
	}
	// Hostile shapes, a few KiB each: deep nesting past the stack limit,
	// open list items, stray end tags, bad bytes.
	for _, h := range hostilePages {
		f.Add(h.gen(8 << 10))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		full, err := Extract(in, Options{})
		if err != nil {
			t.Fatalf("Extract error: %v", err)
		}
		main, err := Extract(in, Options{MainContent: true})
		if err != nil {
			t.Fatalf("Extract main error: %v", err)
		}
		if !utf8.ValidString(full.Title) || strings.IndexByte(full.Title, 0) >= 0 {
			t.Fatalf("title %q is not valid UTF-8 without NUL", full.Title)
		}
		for _, p := range full.Paragraphs {
			if p == "" || strings.TrimSpace(p) != p {
				t.Fatalf("paragraph %q not trimmed or empty", p)
			}
			if !utf8.ValidString(p) || strings.IndexByte(p, 0) >= 0 {
				t.Fatalf("paragraph %q is not valid UTF-8 without NUL", p)
			}
			if !strings.Contains(p, "\n") && strings.Contains(p, "  ") {
				t.Fatalf("paragraph %q has uncollapsed space", p)
			}
		}
		i := 0
		for _, p := range main.Paragraphs {
			for i < len(full.Paragraphs) && full.Paragraphs[i] != p {
				i++
			}
			if i == len(full.Paragraphs) {
				t.Fatalf("main paragraphs %q not a subsequence of full %q", main.Paragraphs, full.Paragraphs)
			}
			i++
		}
		if main.Title != full.Title {
			t.Fatalf("title differs: %q vs %q", main.Title, full.Title)
		}
	})
}

// FuzzSite checks a Site on any page: Add and Extract do not fail for a
// URL with a host; the extracted paragraphs are a subsequence of the full
// text's (learning only drops paragraphs); and learning from the fuzzed
// page and a fixed page of the same site gives the same result in either
// order.
func FuzzSite(f *testing.F) {
	var fixed []byte
	for _, p := range manualSite(f)[:4] {
		f.Add(p.html)
		fixed = p.html
	}
	for _, p := range manSite(f)[:2] {
		f.Add(p.html)
	}
	f.Add([]byte(`<ul class="toc"><li><a href=1>1</a><li><a href=2>2</a><li><a href=3>3</a></ul><p>x 1</p>`))
	for _, p := range translatedSite(f)[:3] {
		f.Add(p.html)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		const u1, u2 = "https://docs.example/m/a.html", "https://docs.example/m/b.html"
		var ab, ba Site
		for _, s := range []*Site{&ab, &ba} {
			s.MinPages = 1 // learn from two pages
		}
		if err := ab.Add(u1, in); err != nil {
			t.Fatalf("Add: %v", err)
		}
		ab.Add(u2, fixed)
		ba.Add(u2, fixed)
		ba.Add(u1, in)
		got, err := ab.Extract(u1, in)
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		other, _ := ba.Extract(u1, in)
		if !slices.Equal(got.Paragraphs, other.Paragraphs) {
			t.Fatalf("order matters: %q vs %q", got.Paragraphs, other.Paragraphs)
		}
		full, _ := Extract(in, Options{})
		i := 0
		for _, p := range got.Paragraphs {
			for i < len(full.Paragraphs) && full.Paragraphs[i] != p {
				i++
			}
			if i == len(full.Paragraphs) {
				t.Fatalf("Site paragraphs %q not a subsequence of full %q", got.Paragraphs, full.Paragraphs)
			}
			i++
		}
	})
}

// FuzzLinkSkeleton checks the link skeletons Site reads from a page: one
// per paragraph, the text outside links of each a subsequence of the
// paragraph, and linkSkeleton idempotent with ok only for a skeleton with
// a mark and a letter.
func FuzzLinkSkeleton(f *testing.F) {
	for _, p := range translatedSite(f)[:3] {
		f.Add(p.html)
	}
	f.Add([]byte(`<p>See <a href=1>one</a>, <a href=2>two</a> and more.</p><pre>a <a href=x>b</a>\n\nc</pre>`))
	f.Add([]byte("<p><a href=1>\x00</a>x\xff<a href=2> </a></p>"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &collector{}
		if _, err := Extract(in, Options{MainContent: true, collect: c}); err != nil {
			t.Fatalf("Extract: %v", err)
		}
		if len(c.skels) != len(c.paras) {
			t.Fatalf("%d skeletons for %d paragraphs", len(c.skels), len(c.paras))
		}
		for i, p := range c.paras {
			text := c.all[p.start : p.start+p.bytes]
			if strings.IndexByte(text, linkMark) >= 0 {
				t.Fatalf("paragraph %q holds the link mark", text)
			}
			outside := strings.TrimSpace(strings.ReplaceAll(c.skels[i], string(rune(linkMark)), ""))
			if !subsequence(outside, text) {
				t.Fatalf("text outside links %q not in paragraph %q", outside, text)
			}
			sk, ok := linkSkeleton(c.skels[i])
			again, ok2 := linkSkeleton(sk)
			if again != sk || ok2 != ok {
				t.Fatalf("linkSkeleton(%q) = %q, %v; again %q, %v", c.skels[i], sk, ok, again, ok2)
			}
			if ok && (strings.IndexByte(sk, linkMark) < 0 || !strings.ContainsFunc(sk, unicode.IsLetter)) {
				t.Fatalf("linkSkeleton(%q) = %q, ok without a mark or a letter", c.skels[i], sk)
			}
		}
	})
}

// subsequence reports whether the bytes of s occur in t in order.
func subsequence(s, t string) bool {
	i := 0
	for j := 0; i < len(s) && j < len(t); j++ {
		if s[i] == t[j] {
			i++
		}
	}
	return i == len(s)
}
