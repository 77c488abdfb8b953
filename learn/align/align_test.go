package align

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

func mustSeqs(t testing.TB, urls ...string) seqs {
	t.Helper()
	var s seqs
	for _, u := range urls {
		it, ok := prepare(u)
		if !ok {
			t.Fatalf("prepare(%q) failed", u)
		}
		s = append(s, it.toks)
	}
	return s
}

// consensusText writes a profile as its columns: a fixed column as its value, a mutable one as
// {values} with "?" when some row lacks it. Query columns are name=value.
func consensusText(p *profile) string {
	var b strings.Builder
	for c, col := range p.cols {
		if c > 0 {
			b.WriteByte(' ')
		}
		gap := false
		for _, ti := range col.cells {
			gap = gap || ti < 0
		}
		pre := ""
		if col.part == urlnorm.PartQuery {
			pre = col.name + "="
		}
		vals := p.vals[c]
		if len(vals) == 1 && !gap {
			b.WriteString(pre + vals[0])
			continue
		}
		b.WriteString(pre + "{" + strings.Join(vals, ",") + "}")
		if gap {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// slowScore is the global alignment score by plain recursion over (i, j): the reference for
// alignScore on short sequences.
func slowScore(s seqs, a, b *profile, i, j int) int {
	if i == len(a.cols) {
		return (len(b.cols) - j) * scoreGap
	}
	if j == len(b.cols) {
		return (len(a.cols) - i) * scoreGap
	}
	best := slowScore(s, a, b, i+1, j) + scoreGap
	best = max(best, slowScore(s, a, b, i, j+1)+scoreGap)
	if cs := colScore(a, i, b, j); cs != scoreNever {
		best = max(best, slowScore(s, a, b, i+1, j+1)+cs)
	}
	return best
}

func TestConsensus(t *testing.T) {
	tests := []struct {
		urls []string
		want string
	}{
		// identical URLs: every column fixed
		{[]string{"http://a.com/x/y?id=1", "http://a.com/x/y?id=1"}, "http a.com x y id=1"},
		// a session parameter in some URLs only: an optional column with its values
		{[]string{"http://a.com/p?id=1", "http://a.com/p?id=1&sid=77", "http://a.com/p?id=1&sid=99"},
			"http a.com p id=1 sid={77,99}?"},
		// a product slug in front of the id: an optional path column, the rest aligned
		{[]string{"http://shop.com/Some-Product/dp/B01", "http://shop.com/dp/B01", "http://shop.com/some-prod/dp/B01"},
			"http shop.com {Some-Product,some-prod}? dp B01"},
		// synonym section names: a mutable column present in every URL
		{[]string{"http://www.imdb.com/title/tt1/photogallery", "http://www.imdb.com/title/tt1/mediaindex"},
			"http www.imdb.com title tt1 {mediaindex,photogallery}"},
		// index file and trailing slash: the last column is optional
		{[]string{"http://a.com/dir/", "http://a.com/dir/index.html", "http://a.com/dir"},
			"http a.com dir {,index.html}?"},
		// host and scheme aliases
		{[]string{"http://www.a.com/x", "https://a.com/x"}, "{http,https} {a.com,www.a.com} x"},
		// case variants on an IIS site
		{[]string{"http://a.com/Recipe/X/default.aspx", "http://a.com/RECIPE/x/DEFAULT.ASPX"},
			"http a.com {RECIPE,Recipe} {X,x} {DEFAULT.ASPX,default.aspx}"},
	}
	for _, tt := range tests {
		s := mustSeqs(t, tt.urls...)
		p := multiAlign(s)
		if got := consensusText(p); got != tt.want {
			t.Errorf("consensus of %q:\n got %s\nwant %s", tt.urls, got, tt.want)
		}
		if len(p.rows) != len(tt.urls) {
			t.Errorf("consensus of %q has %d rows", tt.urls, len(p.rows))
		}
	}
}

func TestAlignScoreSlow(t *testing.T) {
	urls := []string{
		"http://a.com/",
		"http://a.com/x/y/z",
		"http://a.com/y/z?q=1",
		"https://b.com/x/a/y/z?q=2&r=3",
		"http://a.com/x?q=1&r=3",
	}
	s := mustSeqs(t, urls...)
	for i := range s {
		for j := range s {
			a, b := s.single(i), s.single(j)
			got, _ := alignScore(s, a, b, false)
			if want := slowScore(s, a, b, 0, 0); got != want {
				t.Errorf("alignScore(%q, %q) = %d, slow %d", urls[i], urls[j], got, want)
			}
			if back, _ := alignScore(s, b, a, false); back != got {
				t.Errorf("alignScore not symmetric on %q, %q: %d, %d", urls[i], urls[j], got, back)
			}
		}
	}
}

// cluster builds a cluster of a site from URLs.
func cluster(id string, urls ...string) learn.Cluster {
	c := learn.Cluster{ID: id, Site: learn.SiteOf(id)}
	for _, u := range urls {
		c.URLs = append(c.URLs, learn.URL{Raw: u})
	}
	return c
}

// imdbClusters are clusters of a made-up site with synonym sections and a session parameter,
// enough of them that both halves of the generation/validation split have some.
func imdbClusters(n int) []learn.Cluster {
	var cls []learn.Cluster
	for i := range n {
		id := "tt" + strings.Repeat("0", 3) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		cls = append(cls, cluster("imdb-"+id,
			"http://www.imdb.com/title/"+id+"/photogallery",
			"http://www.imdb.com/title/"+id+"/mediaindex",
			"http://www.imdb.com/title/"+id+"/mediaindex?sid="+id+"x",
		))
		// A page of its own under another section: a rule that merged every section would
		// merge it with its title's pages.
		cls = append(cls, cluster("imdb-r"+id, "http://www.imdb.com/title/"+id+"/reviews"))
	}
	return cls
}

func TestLearnCandidates(t *testing.T) {
	cls := imdbClusters(12)
	opt := Options{}.withDefaults()
	var items []item
	var idx [][]int
	var ids []string
	for ci, c := range cls {
		var ii []int
		for _, u := range c.URLs {
			it, _ := prepare(u.Raw)
			it.cluster = int32(ci)
			ii = append(ii, len(items))
			items = append(items, it)
		}
		idx = append(idx, ii)
		ids = append(ids, c.ID)
	}
	var st learn.Stats
	var got []string
	for _, c := range candidates(items, idx, ids, newFreqs(items, idx), opt, &st) {
		got = append(got, c.text)
	}
	want := []string{
		// the whole rewrite of photogallery, and of mediaindex with a session id
		`host=www.imdb.com cov=0 prec=0 sup=0 if scheme="http" path(1,3)="title" path(2,2)=* path(3,1)="photogallery" then path(3,1)="mediaindex"`,
		// the synonym at the last segment, widened to the whole host
		`host=www.imdb.com cov=0 prec=0 sup=0 if path(-,1)="photogallery" then path(-,1)="mediaindex"`,
		`host=www.imdb.com cov=0 prec=0 sup=0 if scheme="http" path(1,3)="title" path(2,2)=* path(3,1)="mediaindex" query("sid")=* then query("sid")=-`,
		// the parameter deletion widened to the whole host
		`host=www.imdb.com cov=0 prec=0 sup=0 if query("sid")=* then query("sid")=-`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidates mismatch (-want +got):\n%s", diff)
	}
	// Validated on the same URLs, all hold: they merge only duplicates.
	kept := validate(candidates(items, idx, ids, newFreqs(items, idx), opt, &st), items, nil, nil, opt, &st)
	if len(kept) != 4 {
		t.Errorf("validate kept %d rules, want 4", len(kept))
	}
	for _, r := range kept {
		if r.Stats.Precision != 1 || r.Stats.Coverage != 12 {
			t.Errorf("rule %s: stats %+v, want precision 1, coverage 12", r.String(), r.Stats)
		}
	}
}

func TestLearnNormalizes(t *testing.T) {
	set, st, err := (&Learner{}).Learn(imdbClusters(40))
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() == 0 {
		t.Fatalf("no rules learned; stats %+v", st)
	}
	n := learn.SetNormalizer(set)
	tests := []struct{ in, want string }{
		// an unseen title: synonym section rewritten
		{"http://www.imdb.com/title/tt9999/photogallery", "http://www.imdb.com/title/tt9999/mediaindex"},
		// an unseen title with a session id
		{"http://www.imdb.com/title/tt9999/mediaindex?sid=abc", "http://www.imdb.com/title/tt9999/mediaindex"},
		// another section is left alone
		{"http://www.imdb.com/title/tt9999/reviews", "http://www.imdb.com/title/tt9999/reviews"},
		// another host is left alone
		{"http://imdb.example/title/tt9999/photogallery", "http://imdb.example/title/tt9999/photogallery"},
	}
	for _, tt := range tests {
		got, err := n.Normalize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestValidateRejects checks that a candidate merging different clusters is dropped: a site
// where a noisy cluster says the topic id t does not matter.
func TestValidateRejects(t *testing.T) {
	var cls []learn.Cluster
	for i := range 30 {
		n := string(rune('0'+i/10)) + string(rune('0'+i%10))
		cls = append(cls, cluster("f-"+n, "http://f.com/topic?t="+n))
	}
	// Label noise: two topics in one cluster, twice.
	cls = append(cls, cluster("f-n1", "http://f.com/topic?t=91", "http://f.com/topic?t=92"))
	cls = append(cls, cluster("f-n2", "http://f.com/topic?t=93", "http://f.com/topic?t=94"))
	set, _, err := (&Learner{Options: Options{MinFreq: 1}}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	m := learn.Measure(cls, learn.SetNormalizer(set))
	if m.FalsePairs > 1 {
		t.Errorf("false pairs %d after validation, rules:\n%v", m.FalsePairs, set)
	}
}

func TestLearnEmpty(t *testing.T) {
	if _, _, err := (&Learner{}).Learn(nil); err != learn.ErrNoClusters {
		t.Errorf("Learn(nil) error %v, want learn.ErrNoClusters", err)
	}
}

func TestDeterministic(t *testing.T) {
	cls := imdbClusters(30)
	var texts []string
	for _, w := range []int{1, 2, 4} {
		set, _, err := (&Learner{Options: Options{Workers: w}}).Learn(cls)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		set.WriteTo(&b)
		texts = append(texts, b.String())
	}
	for _, x := range texts[1:] {
		if x != texts[0] {
			t.Errorf("rule files differ with the number of workers:\n%s\n---\n%s", texts[0], x)
		}
	}
}

// TestForumTrap checks the phpBB trap: f= is redundant in viewtopic.php (a topic's URL works
// with and without it) and is the content in viewforum.php. The learner must delete it from
// topics and keep it on forums.
func TestForumTrap(t *testing.T) {
	cls := forumTopics()
	for f := 1; f <= 6; f++ {
		for _, start := range []int{0, 50, 100} {
			cls = append(cls, cluster(fmt.Sprintf("bb-f%d.%d", f, start),
				fmt.Sprintf("http://bb.org/viewforum.php?f=%d&start=%d", f, start)))
		}
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	n := learn.SetNormalizer(set)
	tests := []struct{ in, want string }{
		// a topic unseen in training: f and the session id go
		{"http://bb.org/viewtopic.php?f=3&t=5555&sid=0123abcd", "http://bb.org/viewtopic.php?t=5555"},
		// a forum page keeps f
		{"http://bb.org/viewforum.php?f=3&start=50", "http://bb.org/viewforum.php?f=3&start=50"},
	}
	for _, tt := range tests {
		if got, err := n.Normalize(tt.in); err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if m := learn.Measure(cls, n); m.FalsePairs != 0 {
		t.Errorf("%d false pairs on the training clusters", m.FalsePairs)
	}
}

// TestMatchesSet compares validation's prefilter (matches, on the URL's host and path length)
// with rules.Set, the reference: every URL that a one-rule set changes must pass the filter,
// (the other direction need not hold: a rule may match and leave a URL as it is).
func TestMatchesSet(t *testing.T) {
	cls := append(imdbClusters(12), cluster("imdb-x", "https://www.imdb.com/title/tt1/photogallery/", "http://imdb.com/title/tt1/mediaindex?sid=1&sid=2"))
	var items []item
	var idx [][]int
	var ids []string
	for ci, c := range cls {
		var ii []int
		for _, u := range c.URLs {
			it, ok := prepare(u.Raw)
			if !ok {
				t.Fatalf("prepare(%q) failed", u.Raw)
			}
			it.cluster = int32(ci)
			ii = append(ii, len(items))
			items = append(items, it)
		}
		idx = append(idx, ii)
		ids = append(ids, c.ID)
	}
	var st learn.Stats
	cands := candidates(items, idx, ids, newFreqs(items, idx), Options{MinFreq: 1}.withDefaults(), &st)
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	for _, c := range cands {
		set, err := rules.NewSet([]rules.Rule{c.rule}, &rules.Options{Canonicalizer: canonicalizer})
		if err != nil {
			t.Fatal(err)
		}
		for i := range items {
			it := &items[i]
			out, err := set.Normalize(it.prep)
			changed := err == nil && out != it.prep
			m := matches(&c.rule, it) && (c.nseg < 0 || c.nseg == it.nseg)
			if changed && !m {
				t.Errorf("rule %s changes %q (to %q) but the prefilter drops it", c.text, it.prep, out)
			}
		}
	}
}

// TestKeyMoved checks clusters where the key moves between path and query (wiki-style
// /wiki/T = /w/index.php?title=T = /?title=T): the target rules copy the value across parts.
func TestKeyMoved(t *testing.T) {
	var cls []learn.Cluster
	for i := range 60 {
		title := fmt.Sprintf("Page_%d", 100+i)
		cls = append(cls, cluster("wk-"+title,
			"http://wiki.org/wiki/"+title,
			"http://wiki.org/w/index.php?title="+title,
			"http://wiki.org/?title="+title,
			"http://wiki.org/w/index.php?title="+title+"&printable=yes"))
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	n := learn.SetNormalizer(set)
	keys := map[string]bool{}
	for _, u := range []string{
		"http://wiki.org/wiki/Unseen",
		"http://wiki.org/w/index.php?title=Unseen",
		"http://wiki.org/?title=Unseen",
		"http://wiki.org/w/index.php?title=Unseen&printable=yes",
	} {
		k, err := n.Normalize(u)
		if err != nil {
			t.Errorf("Normalize(%q): %v", u, err)
		}
		keys[k] = true
	}
	if len(keys) != 1 {
		t.Errorf("the forms of an unseen title normalize to %d keys, want 1: %v", len(keys), keys)
	}
	if m := learn.Measure(cls, n); m.FalsePairs != 0 {
		t.Errorf("%d false pairs on the training clusters", m.FalsePairs)
	}
}
