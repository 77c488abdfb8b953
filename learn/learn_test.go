package learn

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

func mustParse(t testing.TB, raw string) parsed {
	t.Helper()
	prep, ok := Prepare(raw)
	if !ok {
		t.Fatalf("Prepare(%q) failed", raw)
	}
	p, _, ok := parse(prep, nil)
	if !ok {
		t.Fatalf("parse(%q) failed", prep)
	}
	return p
}

func TestPrepare(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"HTTP://Example.COM:80/a?b=2&a=1#frag", "http://example.com/a?a=1&b=2", true}, // case, default port, fragment, sorted query
		{"https://example.com:443", "https://example.com/", true},                      // empty path is "/"
		{"http://example.com/a?", "http://example.com/a", true},                        // bare "?" dropped
		{"http://example.com/a?x=1&&y&", "http://example.com/a?x=1&y", true},           // empty parameters dropped, bare kept
		{"http://example.com/a?b=2&a=1&b=1", "http://example.com/a?a=1&b=1&b=2", true}, // sorted by name, then value
		{"http://example.com/A%20b;x=1", "http://example.com/A%20b;x=1", true},         // path kept as escaped
		{"ftp://example.com/", "", false},                                              // not http(s)
		{"/relative", "", false},                                                       // no host
		{"http://[::1]:8080/x", "http://[::1]:8080/x", true},                           // IPv6 with port
	}
	for _, tc := range tests {
		got, ok := Prepare(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Prepare(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestDerive checks pairwise rules (Algorithm 3) on the paper's worked examples and on the
// mechanisms of the dupclusters data set.
func TestDerive(t *testing.T) {
	tests := []struct {
		src, tgt, want string
	}{
		// Wikipedia (Agarwal et al. CIKM'09 §2): the title moves from the query to the path, a key reference
		{"http://en.wikipedia.org/wiki?title=Web_crawler", "http://en.wikipedia.org/wiki/Web_crawler",
			`path[-0-0+query(title)] query[-title]`},
		// allrecipes (WSDM'10 §2.1): value conversion t(k3) = Uppercase(k3)
		{"http://allrecipes.com/Recipe/Smores/default.aspx", "http://allrecipes.com/RECIPE/Smores/default.aspx",
			`path[+0-1+upper(path(1,-))]`},
		// a case-insensitive server: the whole path lowercased is one conversion
		{"http://x.com/RECIPE/Smores/DEFAULT.aspx", "http://x.com/recipe/smores/default.aspx", `path=lower`},
		// a wiki: only the first letter differs, and the narrower conversion is learned
		{"http://x.com/wiki/Mango_poem", "http://x.com/wiki/mango_poem", `path=lowerfirst`},
		// ag.arizona.edu (WSDM'10 §2): irrelevant index file, anchored at the end
		{"http://ag.arizona.edu/srnr/about/art/index.html", "http://ag.arizona.edu/srnr/about/art", `path[-0-1]`},
		// IMDb (WSDM'10 §3.2.2): synonym section name, a literal
		{"http://www.imdb.com/title/tt0810900/photogallery", "http://www.imdb.com/title/tt0810900/mediaindex", `path[-0-1+"mediaindex"]`},
		// session id deleted
		{"http://x.com/show.php?id=5&sid=71829", "http://x.com/show.php?id=5", `query[-sid]`},
		// slug in front of a product id, anchored at the start
		{"http://x.com/Lord-Rings/dp/B000634DCW", "http://x.com/dp/B000634DCW", `path[+0-1]`},
		// path parameter moved to the query, key references
		{"http://x.com/story/123", "http://x.com/story.php?id=123", `path[+0-2+"story.php"] query[id=path(2,-)]`},
		// host and scheme aliases are literals
		{"https://m.x.com/a", "http://www.x.com/a", `scheme="http" host="www.x.com"`},
		// trailing slash added
		{"http://x.com/dir", "http://x.com/dir/", `path[-0-0+""]`},
		// equal URLs give the identity
		{"http://x.com/a?b=1", "http://x.com/a?b=1", `identity`},
	}
	for _, tc := range tests {
		s, g := mustParse(t, tc.src), mustParse(t, tc.tgt)
		tr := derive(&s, &g)
		if got := tr.String(); got != tc.want {
			t.Errorf("derive(%q, %q) = %s, want %s", tc.src, tc.tgt, got, tc.want)
		}
		out, ok := tr.apply(&s)
		if !ok || finalize(out.String()) != g.String() {
			t.Errorf("apply(derive(%q, %q)) = %q, %v; want %q", tc.src, tc.tgt, out.String(), ok, g.String())
		}
	}
}

// TestTargetSelection checks the YouTube example of WSDM'10 §3.2.1: the URL without tracking
// and session parameters is the target.
func TestTargetSelection(t *testing.T) {
	raws := []string{
		"http://www.youtube.com/watch?v=S9_4KMVtgw0&feature=channel",
		"http://www.youtube.com/watch?v=S9_4KMVtgw0&feature=channel&ytsession=WDxRmlqSR8olo8oVN",
		"http://www.youtube.com/watch?v=S9_4KMVtgw0",
	}
	var ms []*member
	for _, r := range raws {
		p := mustParse(t, r)
		prep, _ := Prepare(r)
		ms = append(ms, &member{prep: prep, p: p})
	}
	slices.SortStableFunc(ms, targetRank)
	if got := ms[0].prep; got != "http://www.youtube.com/watch?v=S9_4KMVtgw0" {
		t.Errorf("target = %q", got)
	}
	// Origins the site holds as often: http before https, bare host before www (shorter), lowercase
	// before uppercase: structural and consistent
	for _, pair := range [][2]string{
		{"http://x.com/a", "https://x.com/a"},
		{"http://x.com/a", "http://www.x.com/a"},
		{"http://x.com/abc", "http://x.com/ABC"},
		{"http://x.com/dir", "http://x.com/dir/"},
	} {
		a, b := mustParse(t, pair[0]), mustParse(t, pair[1])
		ma, mb := &member{prep: pair[0], p: a}, &member{prep: pair[1], p: b}
		if targetRank(ma, mb) >= 0 {
			t.Errorf("targetRank(%q, %q) >= 0", pair[0], pair[1])
		}
	}
}

// TestSelectSources checks that source selection is bounded (Lemma 2), deterministic, takes all
// when few, and samples each importance bucket in proportion to its share.
func TestSelectSources(t *testing.T) {
	mk := func(n int, imp func(i int) float64) []*member {
		var ms []*member
		for i := range n {
			raw := "http://x.com/p?sid=" + strings.Repeat("a", i%7+1) + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
			ms = append(ms, &member{prep: raw, p: mustParse(t, raw), importance: imp(i)})
		}
		return ms
	}
	few := mk(5, func(int) float64 { return 1 })
	if got := selectSources(few, 32); len(got) != 5 {
		t.Errorf("5 members, max 32: got %d", len(got))
	}
	many := mk(500, func(int) float64 { return 1 })
	got := selectSources(many, 32)
	if len(got) != 32 {
		t.Fatalf("500 members, max 32: got %d", len(got))
	}
	if !slices.Equal(got, selectSources(many, 32)) {
		t.Error("selection is not deterministic")
	}
	seen := map[*member]bool{}
	for _, m := range got {
		if seen[m] {
			t.Fatal("a member selected twice")
		}
		seen[m] = true
	}
	// Skewed importance: the top quarter holds most of the importance and most of the sample.
	skew := mk(400, func(i int) float64 {
		if i < 100 {
			return 10
		}
		return 1
	})
	top := 0
	for _, m := range selectSources(skew, 40) {
		if m.importance == 10 {
			top++
		}
	}
	// Bucket shares: 1000/1300 of 40 = 30.8 -> 30 or 31.
	if top < 30 || top > 31 {
		t.Errorf("top bucket got %d of 40, want 30-31", top)
	}
}

func clustersOf(groups ...[]string) []Cluster {
	var cls []Cluster
	for i, g := range groups {
		c := Cluster{ID: "s-" + string(rune('a'+i)), Site: "s"}
		for _, u := range g {
			c.URLs = append(c.URLs, URL{Raw: u})
		}
		cls = append(cls, c)
	}
	return cls
}

// TestLearnWorkedExamples learns from the paper's example clusters and applies the rules to
// URLs not seen in learning.
func TestLearnWorkedExamples(t *testing.T) {
	tests := []struct {
		name    string
		cls     []Cluster
		rule    string // the one rule expected, in the rules file format
		applyTo map[string]string
	}{
		{
			// IMDb (WSDM'10 §3.2.2): the id key takes no majority value and is wildcarded
			"imdb", clustersOf(
				[]string{"http://www.imdb.com/title/tt0810900/photogallery", "http://www.imdb.com/title/tt0810900/mediaindex"},
				[]string{"http://www.imdb.com/title/tt0053198/photogallery", "http://www.imdb.com/title/tt0053198/mediaindex"},
			),
			`host=www.imdb.com cov=2 prec=1 sup=2 if host="www.imdb.com" path(-,1)="photogallery" path(-,3)="title" path(1,-)="title" path(3,-)="photogallery" scheme="http" path(-,2)=* path(2,-)=* then path(-,1)="mediaindex"`,
			map[string]string{
				"http://www.imdb.com/title/tt9999999/photogallery": "http://www.imdb.com/title/tt9999999/mediaindex",
				"http://www.imdb.com/name/nm0000001/photogallery":  "http://www.imdb.com/name/nm0000001/photogallery", // another section: context fails
			},
		},
		{
			// ag.arizona.edu (WSDM'10 §2): index.html at different depths gives one rule
			"ag.arizona.edu", clustersOf(
				[]string{"http://ag.arizona.edu/srnr/about/art/index.html", "http://ag.arizona.edu/srnr/about/art"},
				[]string{"http://ag.arizona.edu/art/index.html", "http://ag.arizona.edu/art"},
			),
			`host=ag.arizona.edu cov=2 prec=1 sup=2 if host="ag.arizona.edu" path(-,1)="index.html" path(-,2)="art" scheme="http" path(1,-)=* path(2,-)=* then path(-,1)=-`,
			map[string]string{
				"http://ag.arizona.edu/a/b/c/art/index.html": "http://ag.arizona.edu/a/b/c/art",
			},
		},
		{
			// Wikipedia (CIKM'09 §2): key reference from the query to the path
			"wikipedia", clustersOf(
				[]string{"http://en.wikipedia.org/wiki?title=Casino_Royale", "http://en.wikipedia.org/wiki/Casino_Royale"},
				[]string{"http://en.wikipedia.org/wiki?title=Web_crawler", "http://en.wikipedia.org/wiki/Web_crawler"},
			),
			`host=en.wikipedia.org cov=2 prec=1 sup=2 if host="en.wikipedia.org" path(-,1)="wiki" path(1,-)="wiki" scheme="http" query("title")=* then path(-,1)+=@query("title") query("title")=-`,
			map[string]string{
				"http://en.wikipedia.org/wiki?title=Generalized_linear_model": "http://en.wikipedia.org/wiki/Generalized_linear_model",
			},
		},
		{
			// allrecipes (WSDM'10 §2.1), on a case-insensitive server: target selection prefers the
			// form with fewer capitals, so the learned conversion is Lowercase (TestDerive checks the
			// paper's Uppercase pair), and it generalizes over recipes
			"allrecipes", clustersOf(
				[]string{"http://allrecipes.com/RECIPE/SMORES/default.aspx", "http://allrecipes.com/recipe/smores/default.aspx"},
				[]string{"http://allrecipes.com/RECIPE/Pie/Default.aspx", "http://allrecipes.com/recipe/pie/default.aspx"},
			),
			`host=allrecipes.com cov=2 prec=1 sup=2 if host="allrecipes.com" path(-,3)="RECIPE" path(1,-)="RECIPE" scheme="http" path(-,1)=* path(-,2)=* path(2,-)=* path(3,-)=* then path(-,-)=lower`,
			map[string]string{
				"http://allrecipes.com/RECIPE/Cake/DEFAULT.aspx": "http://allrecipes.com/recipe/cake/default.aspx",
			},
		},
	}
	for _, tc := range tests {
		m, st, err := Learn(tc.cls, Options{MinCoverage: 1, MinPrecision: -1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for i := range m.Len() {
			got = append(got, m.Rule(i).String())
		}
		if diff := cmp.Diff([]string{tc.rule}, got); diff != "" {
			t.Errorf("%s: rules mismatch (-want +got):\n%s\nstats %+v", tc.name, diff, st)
		}
		for in, want := range tc.applyTo {
			if got, err := m.Normalize(in); err != nil || got != want {
				t.Errorf("%s: Normalize(%q) = %q, %v; want %q", tc.name, in, got, err, want)
			}
		}
	}
}

func loadSample(t testing.TB) []Cluster {
	f, err := os.Open("testdata/sample.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := ReadClusters(f, ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

// TestDeriveApplySample checks the round trip apply(derive(u, v), u) == v on every ordered pair
// of URLs of each cluster of the sample data set.
func TestDeriveApplySample(t *testing.T) {
	n := 0
	for _, c := range loadSample(t) {
		for _, a := range c.URLs {
			for _, b := range c.URLs {
				pa, pb := mustParse(t, a.Raw), mustParse(t, b.Raw)
				tr := derive(&pa, &pb)
				out, ok := tr.apply(&pa)
				if !ok || finalize(out.String()) != pb.String() {
					t.Errorf("apply(derive(%q, %q)) = %q, %v", a.Raw, b.Raw, out.String(), ok)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d pairs", n)
	}
}

// TestDeterminism checks that the same clusters and options give a byte-identical rules file,
// whatever the number of workers.
func TestDeterminism(t *testing.T) {
	cls := loadSample(t)
	var outs [][]byte
	for _, w := range []int{1, 2, 4, 1} {
		m, _, err := Learn(cls, Options{Workers: w, MinCoverage: 1, MinPrecision: -1})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b.Bytes())
	}
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[0], outs[i]) {
			t.Fatalf("run %d differs from run 0:\n%s\n---\n%s", i, outs[0], outs[i])
		}
	}
	if bytes.Count(outs[0], []byte("\nrule ")) < 5 {
		t.Errorf("too few rules learned from the sample:\n%s", outs[0])
	}
}

// TestToRuleFaithful checks that every learned rule of the sample, written as a rules.Rule,
// rewrites every training URL of its site as the learner's own edit does: the learner measures
// its rules in its edit form, and the set must do what was measured.
func TestToRuleFaithful(t *testing.T) {
	cls := loadSample(t)
	opt := Options{MinCoverage: 1, MinPrecision: -1}.withDefaults()
	names, bySite := GroupSites(cls)
	var sites []*site
	for _, name := range names {
		s, _ := learnSite(name, bySite[name], opt)
		sites = append(sites, s)
	}
	checked, rewritten := 0, 0
	for _, s := range sites {
		var urls []string
		for _, c := range cls {
			if c.Site == s.name {
				for _, u := range c.URLs {
					if p, ok := Prepare(u.Raw); ok {
						urls = append(urls, p)
					}
				}
			}
		}
		for j := range s.rules {
			r := &s.rules[j]
			rr, ok := toRule(r)
			if !ok {
				continue
			}
			rr.Scope = rules.Scope{Host: rules.AllHosts}
			pats := map[string]rules.Patterns{}
			for h, p := range s.patterns {
				pats[h] = p
			}
			set, err := rules.NewSet([]rules.Rule{rr}, &rules.Options{Key: urlnorm.Crawler, MaxRewrites: 1, Patterns: pats})
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range urls {
				want := u
				p, _, ok := parse(u, nil)
				if pt := s.patterns[p.host]; ok && pt != nil {
					p.splitDeep(pt, u)
				}
				if ok && holds(r.Context, &p) {
					if q, ok := r.edit.apply(&p); ok {
						want = finalize(q.String())
					}
				}
				got, _ := set.Normalize(u)
				if got != want {
					t.Errorf("rule %s\nas %s\non %q: set %q, learner %q", r, rr.String(), u, got, want)
				}
				checked++
				if want != u {
					rewritten++
				}
			}
		}
	}
	if rewritten < 100 {
		t.Errorf("only %d of %d rule applications rewrote a URL", rewritten, checked)
	}
}

// TestLearnSample checks the learned model on its own training clusters: it reduces, and at
// the default selection it merges no two clusters of the sample.
func TestLearnSample(t *testing.T) {
	cls := loadSample(t)
	m, st, err := Learn(cls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Sites != 5 || st.URLs != 356 || st.Pairs == 0 || st.Selected == 0 || st.Selected > st.Rules {
		t.Errorf("stats %+v", st)
	}
	got := Measure(cls, m)
	base := Measure(cls, PrepareNormalizer)
	if got.Reduction < base.Reduction+0.05 || got.PairPrecision < 0.99 {
		t.Errorf("learned %+v, static %+v", got, base)
	}
	if _, _, err := Learn(nil, Options{}); err != ErrNoClusters {
		t.Errorf("Learn(nil) error %v", err)
	}
	if _, err := m.Normalize("not a url"); err == nil {
		t.Error("Normalize accepted a non-URL")
	}
}

// TestMeasure checks the metrics on a hand-made case.
func TestMeasure(t *testing.T) {
	cls := clustersOf(
		[]string{"http://x.com/a", "http://x.com/a?s=1", "http://x.com/a?s=2"},
		[]string{"http://x.com/b"},
		[]string{"http://x.com/c?s=1"},
	)
	// strips the query: merges cluster 0 into one key, and c with nothing
	strip := NormalizerFunc(func(s string) (string, error) {
		if i := strings.IndexByte(s, '?'); i >= 0 {
			return s[:i], nil
		}
		return s, nil
	})
	got := Measure(cls, strip)
	want := Metrics{URLs: 5, Clusters: 3, Keys: 3, Reduction: 0.4, MaxReduction: 0.4, OfMax: 1, PairPrecision: 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Measure mismatch (-want +got):\n%s", diff)
	}
	// everything to one key: 10 pairs, 3 of them within cluster 0
	one := NormalizerFunc(func(string) (string, error) { return "k", nil })
	got = Measure(cls, one)
	if got.Keys != 1 || got.FalsePairs != 7 || got.PairPrecision != 0.3 || got.FalseMergeRate != 1 {
		t.Errorf("Measure(one key) = %+v", got)
	}
}

// TestDeepTokenReference checks the deep-token mechanism of "friends-<random id>": with deep
// tokens, the target "friends" is a reference to the first deep token of the source's last
// segment, which generalizes to ids never seen; without them it is a literal overwriting a
// wildcarded segment, which the learner does not learn.
func TestDeepTokenReference(t *testing.T) {
	var groups [][]string
	for _, id := range []string{"lttU7d6kIuGq", "a8Xk2mQpZr", "Zp03kdLqq1", "mmQ83jdKs0", "Yx7Qe2LkP9"} {
		groups = append(groups, []string{"http://s.example/u/friends-" + id, "http://s.example/u/friends"})
	}
	cls := clustersOf(groups...)
	tests := []struct {
		noDeep bool
		in     string
		want   string
	}{
		// With deep tokens: an id never seen is cut off.
		{false, "http://s.example/u/friends-QQ9x8Kw2", "http://s.example/u/friends"},
		// Without: no rule, the URL stays.
		{true, "http://s.example/u/friends-QQ9x8Kw2", "http://s.example/u/friends-QQ9x8Kw2"},
	}
	for _, tt := range tests {
		set, _, err := Learn(cls, Options{NoDeepTokens: tt.noDeep, MinCoverage: 1, MinPrecision: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := set.Normalize(tt.in); err != nil || got != tt.want {
			var b strings.Builder
			set.WriteTo(&b)
			t.Errorf("noDeep=%v: Normalize(%q) = %q, %v; want %q\n%s", tt.noDeep, tt.in, got, err, tt.want, b.String())
		}
	}
}

// TestOriginTargets checks that with Options.MainOrigin the clusters of a site choose its main
// origin for their targets whatever alias of it each holds: the shop's 100 pages are linked on
// https://www.shop.example, and a crawl fetched a quarter of them on the bare domain too,
// another quarter on http://. Ranked by length alone, the first would choose the bare domain
// and the others http://www, and the rules learned from them would send one page's URLs to two
// keys.
func TestOriginTargets(t *testing.T) {
	var cls []Cluster
	for i := range 100 {
		c := Cluster{ID: fmt.Sprintf("c%03d", i), Site: "shop.example", URLs: []URL{{Raw: fmt.Sprintf("https://www.shop.example/item/%d", i)}}}
		switch i % 4 {
		case 0:
			c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("https://shop.example/item/%d", i)})
		case 1:
			c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("http://www.shop.example/item/%d", i)})
		}
		cls = append(cls, c)
	}
	set, _, err := Learn(cls, Options{MainOrigin: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 200; i < 204; i++ {
		keys := map[string]bool{}
		for _, u := range []string{"https://www.shop.example/item/%d", "https://shop.example/item/%d", "http://www.shop.example/item/%d"} {
			k, err := set.Normalize(fmt.Sprintf(u, i))
			if err != nil {
				t.Fatal(err)
			}
			keys[k] = true
		}
		if len(keys) != 1 {
			t.Errorf("item %d: the URLs of one page have %d keys: %v", i, len(keys), slices.Sorted(maps.Keys(keys)))
		}
	}
}
