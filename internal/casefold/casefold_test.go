package casefold

import (
	"fmt"
	"testing"
)

func TestLowerPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://H.example/Recipe/X/DEFAULT.ASPX?Q=A", "http://H.example/recipe/x/default.aspx?Q=A"},
		{"http://h.example/%C3%A9T%C3", "http://h.example/%C3%A9t%C3"},
		{"http://h.example", "http://h.example"},
		{"http://h.example/a/b", "http://h.example/a/b"},
	}
	for _, tt := range tests {
		if got := LowerPath(tt.in); got != tt.want {
			t.Errorf("LowerPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHosts(t *testing.T) {
	var urls []string
	var cl []int32
	add := func(c int, us ...string) {
		for _, u := range us {
			urls = append(urls, u)
			cl = append(cl, int32(c))
		}
	}
	for i := range 8 {
		// IIS: case variants of one page.
		add(i, fmt.Sprintf("http://iis.example/Recipe/R%d/default.aspx", i), fmt.Sprintf("http://iis.example/RECIPE/r%d/DEFAULT.ASPX", i))
		// A wiki: only the first letter varies; and a case-sensitive trap.
		add(100+i, fmt.Sprintf("http://wiki.example/wiki/Page%d", i), fmt.Sprintf("http://wiki.example/wiki/page%d", i))
		add(200+i, fmt.Sprintf("http://docs.example/faq%d.html", i))
		add(300+i, fmt.Sprintf("http://docs.example/FAQ%d.html", i))
	}
	// The docs host also has case variants of a few pages: its false merges outweigh them.
	for i := range 5 {
		add(400+i, fmt.Sprintf("http://docs.example/x/Guide%d", i), fmt.Sprintf("http://docs.example/x/GUIDE%d", i))
	}
	got := Hosts(urls, cl, Options{})
	if len(got) != 1 || got["iis.example"].Pairs != 8 {
		t.Errorf("Hosts = %+v, want iis.example alone with 8 pairs", got)
	}
}
