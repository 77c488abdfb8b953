package casefold

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
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

// clustered is the input of Hosts: URLs and the cluster of each.
type clustered struct {
	urls []string
	cl   []int32
}

// add puts the URLs us in cluster c.
func (in *clustered) add(c int, us ...string) {
	for _, u := range us {
		in.urls = append(in.urls, u)
		in.cl = append(in.cl, int32(c))
	}
}

func TestHosts(t *testing.T) {
	var in clustered
	add := in.add
	for i := range 8 {
		// IIS: case variants of one page.
		add(i, fmt.Sprintf("http://iis.example/Recipe/R%d/default.aspx", i), fmt.Sprintf("http://iis.example/RECIPE/r%d/DEFAULT.ASPX", i))
		// A wiki: only the first letter varies; and a case-sensitive trap.
		add(100+i, fmt.Sprintf("http://wiki.example/wiki/Page%d", i), fmt.Sprintf("http://wiki.example/wiki/page%d", i))
		add(200+i, fmt.Sprintf("http://docs.example/faq%d.html", i))
		add(300+i, fmt.Sprintf("http://docs.example/FAQ%d.html", i))
	}
	// The docs host also has case variants of a few pages in its /x/ tree: they are evidence
	// for that tree alone, its root files (faq0.html, FAQ0.html) are different pages.
	for i := range 5 {
		add(400+i, fmt.Sprintf("http://docs.example/x/Guide%d", i), fmt.Sprintf("http://docs.example/x/GUIDE%d", i))
	}
	got := Hosts(in.urls, in.cl, Options{})
	if len(got) != 2 || got["iis.example"].Pairs != 8 {
		t.Errorf("Hosts = %+v, want iis.example with 8 pairs and docs.example", got)
	}
	docs := got["docs.example"]
	if docs.Lowers("http://docs.example/FAQ1.html") || !docs.Lowers("http://docs.example/X/Guide9") {
		t.Errorf("docs.example lowercased in trees %+v, want /x/ only", docs.Trees)
	}
}

// TestHostsTrees: a host that ignores case in its /Recipe/ tree and not in its /go/ short links
// is lowercased under the first only, whatever the spelling of its first segment.
func TestHostsTrees(t *testing.T) {
	var in clustered
	add := in.add
	for i := range 40 {
		add(i, fmt.Sprintf("http://iis.example/Recipe/R%d/default.aspx", i), fmt.Sprintf("http://iis.example/RECIPE/r%d/DEFAULT.ASPX", i))
	}
	for i := range 6 {
		// Short links: codes that differ in case only are different pages.
		add(100+i, fmt.Sprintf("http://iis.example/go/aB%dx", i))
		add(200+i, fmt.Sprintf("http://iis.example/go/Ab%dX", i))
	}
	got := Hosts(in.urls, in.cl, Options{})
	ev, ok := got["iis.example"]
	if !ok {
		t.Fatalf("Hosts = %+v, want iis.example", got)
	}
	want := []Tree{{First: "recipe", Pairs: 40, Changed: 80}}
	if fmt.Sprint(ev.Trees) != fmt.Sprint(want) {
		t.Errorf("Trees = %+v, want %+v", ev.Trees, want)
	}
	for u, want := range map[string]bool{
		"http://iis.example/Recipe/R1/Default.aspx": true,
		"http://iis.example/go/aB1x":                false,
		"http://iis.example/rECipe/r1/default.aspx": true, // a spelling no URL showed
		"http://iis.example/Recipe":                 false,
	} {
		if got := ev.Lowers(u); got != want {
			t.Errorf("Lowers(%q) = %v, want %v", u, got, want)
		}
	}
}

// TestHostsFirstLetters: a host whose /Docs/ tree ignores case (an IIS application) and whose
// /wiki/ tree shows case variants in first letters only (a wiki's titles) is lowercased in the
// first tree only, though no false merge was seen in the second: a crawl that lowercased the
// wiki's paths would skip /wiki/AMBER as /wiki/Amber and never see that they differ.
func TestHostsFirstLetters(t *testing.T) {
	var in clustered
	add := in.add
	for i := range 10 {
		add(i, fmt.Sprintf("http://shop.example/Docs/Amber%d/", i), fmt.Sprintf("http://shop.example/DOCS/AMBER%d/", i))
	}
	for i := range 6 {
		add(100+i, fmt.Sprintf("http://shop.example/wiki/Title%d", i), fmt.Sprintf("http://shop.example/wiki/title%d", i))
	}
	for _, off := range []bool{false, true} {
		ablate.NoFirstLetters = off
		ev := Hosts(in.urls, in.cl, Options{})["shop.example"]
		ablate.NoFirstLetters = false
		if got := ev.Lowers("http://shop.example/Docs/X/"); !got {
			t.Errorf("NoFirstLetters=%v: /Docs/X/ not lowercased (trees %+v)", off, ev.Trees)
		}
		if got := ev.Lowers("http://shop.example/wiki/AMBER"); got != off {
			t.Errorf("NoFirstLetters=%v: Lowers(/wiki/AMBER) = %v, want %v (trees %+v)", off, got, off, ev.Trees)
		}
	}
}
