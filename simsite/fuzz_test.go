package simsite

import (
	"slices"
	"testing"
)

// FuzzPage: Page never panics, and a page it names is one of Pages, served by the site under
// one of its Links' forms or an alias the server accepts.
func FuzzPage(f *testing.F) {
	s, err := New(60, 1)
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range s.Pages() {
		for _, u := range s.Links(p) {
			f.Add(u)
		}
	}
	f.Add("https://www.dustshop.example/story/+1000")
	f.Add("https://www.dustshop.example/2011/03/-1000.html")
	f.Add("https://www.dustshop.example/w/index.php?title=%00")
	f.Add("https://mirror.dustshop.example/archive/;jsessionid=")
	pages := s.Pages()
	f.Fuzz(func(t *testing.T, raw string) {
		p, _ := s.Page(raw)
		if p != "" && !slices.Contains(pages, p) {
			t.Errorf("Page(%q) = %q, not a page of the site", raw, p)
		}
	})
}
