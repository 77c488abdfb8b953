package roles

import (
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/urlnorm"
)

// parse returns what roles reads of u (a key: query sorted, no fragment).
func parse(t *testing.T, raw string) URL {
	toks, err := urlnorm.Tokenize(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	u := URL{Text: raw}
	for _, tk := range toks {
		switch tk.Part {
		case urlnorm.PartPath:
			u.Path = append(u.Path, tk.Value)
		case urlnorm.PartQuery:
			u.Query = append(u.Query, tk)
		}
	}
	return u
}

// learnOf learns the roles of clusters given as URL strings; every path segment counts as a
// literal.
func learnOf(t *testing.T, clusters [][]string) *Roles {
	byCluster := make([][]URL, len(clusters))
	common := map[string]int{}
	for i, c := range clusters {
		for _, raw := range c {
			byCluster[i] = append(byCluster[i], parse(t, raw))
		}
	}
	for _, c := range byCluster {
		for _, u := range c {
			for _, s := range u.Path {
				common[s] = 3
			}
		}
	}
	return Learn(byCluster, common, 3)
}

// TestIdentifies checks the roles of parameters on small sites, each case commented with the
// evidence it rests on.
func TestIdentifies(t *testing.T) {
	for _, tc := range []struct {
		name     string
		clusters []string // URLs of one cluster, space-separated
		url      string
		param    string
		want     bool
	}{
		// Stable within clusters, two values: it names the pages.
		{"stable", []string{"/v?t=1&s=a /v?t=1&s=b", "/v?t=2&s=c /v?t=2&s=d"}, "/v?t=9", "t", true},
		// Differs within clusters: a session.
		{"differs", []string{"/v?t=1&s=a /v?t=1&s=b", "/v?t=2&s=c /v?t=2&s=d"}, "/v?t=9&s=x", "s", false},
		// Dropped by a URL of a cluster: a decoration of some links.
		{"dropped", []string{"/v?t=1 /v?f=3&t=1", "/v?f=3&t=2", "/v?f=4&t=5"}, "/v?f=3&t=9", "f", false},
		// Moved, not dropped: ?t=1627 and ?1627-title keep the topic.
		{"moved", []string{"/v?t=1627 /v?1627-some-title", "/v?t=1700&x=1 /v?t=1700&x=2"}, "/v?t=9", "t", true},
		// A copy, not a move: fp repeats f's value in its own URL (gitweb's blobdiff), and a
		// URL of the page that lacks fp holds the value only in f, which both URLs have.
		{"copy", []string{"/d?f=a.txt&fp=a.txt&h=1 /d?f=a.txt&h=1", "/d?f=b.txt&fp=b.txt&h=2 /d?f=b.txt&h=2", "/d?f=c.txt&fp=c.txt&h=3"},
			"/d?f=x.txt&fp=x.txt&h=9", "fp", false},
		// The parameter it repeats still names the pages.
		{"copied", []string{"/d?f=a.txt&fp=a.txt&h=1 /d?f=a.txt&h=1", "/d?f=b.txt&fp=b.txt&h=2 /d?f=b.txt&h=2", "/d?f=c.txt&fp=c.txt&h=3"},
			"/d?f=x.txt&h=9", "f", true},
		// No cluster of two URLs: two values that nothing shows redundant identify pages.
		{"vacuous", []string{"/l?cat=1&start=0", "/l?cat=2&start=60"}, "/l?cat=1&start=20", "cat", true},
		// One value only: nothing to tell pages apart by.
		{"one value", []string{"/l?cat=1&start=0", "/l?cat=1&start=60"}, "/l?cat=1", "cat", false},
		// Determined by t, which identifies the pages too: t=1, 2 and 3 each go with one f
		// on the topic pages and the print views (phpBB's f= on view=print, which some links
		// of a topic drop).
		{"determined", []string{"/v?f=1&t=1 /v?t=1", "/p?f=1&t=1", "/v?f=1&t=2 /v?t=2", "/p?f=1&t=2", "/v?f=2&t=3 /v?t=3", "/p?f=2&t=3"},
			"/p?f=1&t=9", "f", false},
		{"determining", []string{"/v?f=1&t=1 /v?t=1", "/p?f=1&t=1", "/v?f=1&t=2 /v?t=2", "/p?f=1&t=2", "/v?f=2&t=3 /v?t=3", "/p?f=2&t=3"},
			"/p?f=1&t=9", "t", true},
		// Determined by nothing: start=0 goes with every forum (phpBB's viewforum.php).
		{"not determined", []string{"/l?f=1&start=0", "/l?f=1&start=25", "/l?f=2&start=0", "/l?f=2&start=25", "/l?f=3&start=0"},
			"/l?f=1&start=50", "f", true},
		// Another page type: the path template differs.
		{"other type", []string{"/v?t=1&s=a /v?t=1&s=b", "/v?t=2&s=c /v?t=2&s=d", "/w?t=1 /w?t=2"}, "/w?t=3", "t", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cls [][]string
			for _, c := range tc.clusters {
				var us []string
				for _, u := range strings.Fields(c) {
					us = append(us, "http://example.org"+u)
				}
				cls = append(cls, us)
			}
			ro := learnOf(t, cls)
			u := parse(t, "http://example.org"+tc.url)
			if got := ro.Identifies(&u, tc.param); got != tc.want {
				t.Errorf("Identifies(%q, %q) = %v, want %v", tc.url, tc.param, got, tc.want)
			}
		})
	}
}

// TestTypeValues checks that a value of a parameter with few values, never beside another or
// the parameter's absence in a cluster, makes page types (do=recent), and that a value beside
// the parameter's absence does not (do=show, a page with and without it).
func TestTypeValues(t *testing.T) {
	var cls [][]string
	recent := []string{}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		cls = append(cls, []string{"http://example.org/doku.php?id=" + id, "http://example.org/doku.php?do=show&id=" + id})
		recent = append(recent, "http://example.org/doku.php?do=recent&id="+id)
	}
	cls = append(cls, recent)
	ro := learnOf(t, cls)
	var got []string
	for name, vs := range ro.typeValues {
		for v := range vs {
			got = append(got, name+"="+v)
		}
	}
	if !slices.Equal(got, []string{"do=recent"}) {
		t.Errorf("type values %v, want [do=recent]", got)
	}
	// id identifies pages where do is show or absent, and not on the recent-changes page.
	for raw, want := range map[string]bool{"/doku.php?id=z": true, "/doku.php?do=show&id=z": true, "/doku.php?do=recent&id=z": false} {
		u := parse(t, "http://example.org"+raw)
		if got := ro.Identifies(&u, "id"); got != want {
			t.Errorf("Identifies(%q, id) = %v, want %v", raw, got, want)
		}
	}
}

// TestNoisy checks that a cluster whose URLs differ in a parameter that identifies pages in
// most other clusters of their type is taken for pages grouped by mistake.
func TestNoisy(t *testing.T) {
	var cls [][]string
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		cls = append(cls, []string{"http://example.org/v?t=" + id, "http://example.org/v?s=x" + id + "&t=" + id})
	}
	cls = append(cls, []string{"http://example.org/v?t=901", "http://example.org/v?t=902", "http://example.org/v?t=903"})
	ro := learnOf(t, cls)
	for i := range cls {
		if got, want := ro.Noisy(i), i == 5; got != want {
			t.Errorf("Noisy(%d) = %v, want %v", i, got, want)
		}
	}
}

// TestVaries checks where a parameter varies on the URLs of one page, and whether it names
// pages, on small sites, each case commented with the evidence it rests on.
func TestVaries(t *testing.T) {
	for _, tc := range []struct {
		name            string
		clusters        []string // URLs of one cluster, space-separated
		param           string
		clusters2, typs int
		names           bool
	}{
		// Dropped by a URL of each page, on two page types: it names no page.
		{"navigation", []string{"/art/1 /art/1?from=top", "/art/2 /art/2?from=side", "/blog/1?from=top /blog/1"}, "from", 3, 2, false},
		// Two equal URLs (two case variants that the learner lowercased) show nothing: news
		// keeps nothing.
		{"equal URLs", []string{"/art/1 /art/1?from=top", "/blog/1?from=side /blog/1", "/news/1?from=top /news/1?from=top"}, "from", 2, 2, false},
		// Two values on one page.
		{"differs", []string{"/art/1?from=top /art/1?from=side", "/blog/1?from=top&x=1 /blog/1?from=feed&x=1"}, "from", 2, 2, false},
		// A copy of another parameter's value, dropped where it is one (gitweb's hb=C beside
		// h=C): that shows the copy redundant, not the parameter.
		{"copy", []string{"/?a=commit&h=c1 /?a=commit&h=c1&hb=c1", "/?a=log&h=c2 /?a=log&h=c2&hb=c2"}, "hb", 0, 0, false},
		// Kept on the URLs of every profile of a type, one value: it names the pages there,
		// though it varies on photos.
		{"kept", []string{"/photo/1 /photo/1?tab=photos", "/u/x?tab=photos /u/x?tab=photos&ref=1"}, "tab", 1, 1, true},
		// Stable within clusters, two values: it identifies pages.
		{"identifies", []string{"/cat/1?color=red", "/cat/2?color=blue", "/prod/1 /prod/1?color=red"}, "color", 1, 1, true},
	} {
		var cs [][]string
		for _, c := range tc.clusters {
			cs = append(cs, strings.Fields(c))
		}
		// Every path segment of letters is a literal, numbers are not: /art/1 and /art/2 are
		// one page type.
		byCluster := make([][]URL, len(cs))
		common := map[string]int{}
		for i, c := range cs {
			for _, raw := range c {
				u := parse(t, "http://h.example"+raw)
				byCluster[i] = append(byCluster[i], u)
				for _, s := range u.Path {
					if s != "" && !strings.ContainsAny(s, "0123456789") {
						common[s] = 3
					}
				}
			}
		}
		ro := Learn(byCluster, common, 3)
		n, typs, names := ro.Varies(tc.param)
		if n != tc.clusters2 || typs != tc.typs || names != tc.names {
			t.Errorf("%s: Varies(%q) = %d clusters, %d types, names %v; want %d, %d, %v", tc.name, tc.param, n, typs, names, tc.clusters2, tc.typs, tc.names)
		}
	}
	var none *Roles
	if n, typs, names := none.Varies("x"); n != 0 || typs != 0 || names {
		t.Errorf("nil Roles: Varies = %d, %d, %v; want 0, 0, false", n, typs, names)
	}
}

// TestSeparations checks which URLs a parameter tells apart: URLs the same but for its value in
// at least 3 clusters, of which at most a quarter hold two of its values.
func TestSeparations(t *testing.T) {
	const tree = "http://git.example.net/?a=tree&f=src&p=repo"
	for _, tc := range []struct {
		name     string
		clusters [][]string // hb values of the listing's URLs, by cluster
		want     bool
	}{
		{"three pages", [][]string{{"c1"}, {"c2"}, {"c3"}}, true},
		{"two pages", [][]string{{"c1"}, {"c2"}}, false},
		// The head, linked by name and by commit: one cluster in four holds two values.
		{"head", [][]string{{"HEAD", "c0"}, {"c1"}, {"c2"}, {"c3"}}, true},
		// Two clusters in four hold two values each, however many URLs of one value come
		// first: the parameter varies on one page as often as it tells pages apart.
		{"varies", [][]string{{"HEAD", "c0"}, {"c1", "c1", "c1b"}, {"c2"}, {"c3"}}, false},
		// One page under every value: nothing to tell apart.
		{"one page", [][]string{{"c1", "c2", "c3", "c4"}}, false},
	} {
		var clusters [][]string
		for _, hbs := range tc.clusters {
			var c []string
			for _, hb := range hbs {
				c = append(c, tree+"&hb="+hb)
			}
			clusters = append(clusters, c)
		}
		ro := learnOf(t, clusters)
		out := parse(t, tree)
		if got := ro.Separates(&out, "hb"); got != tc.want {
			t.Errorf("%s: hb tells apart the pages of %s: %v, want %v", tc.name, tree, got, tc.want)
		}
		if got := ro.Separates(&out, "f"); got {
			t.Errorf("%s: f tells apart the pages of %s", tc.name, tree)
		}
	}
}
