package learn

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// feedSample observes every URL of the sample data set in file order, the fingerprint of a
// cluster being its index + 1, and returns the clusters as Online groups them: by the site of
// each URL's host, with Online's cluster ids.
func feedSample(t testing.TB, o *Online) []Cluster {
	var want []Cluster
	index := map[string]int{}
	for i, c := range loadSample(t) {
		fp := uint64(i + 1)
		for _, u := range c.URLs {
			o.Observe(u, fp)
			site, ok := o.Site(u.Raw)
			if !ok {
				continue
			}
			id := OnlineClusterID(site, fp)
			j, ok := index[id]
			if !ok {
				j = len(want)
				index[id] = j
				want = append(want, Cluster{ID: id, Site: site})
			}
			want[j].URLs = append(want[j].URLs, u)
		}
	}
	return want
}

func setText(t testing.TB, s *rules.Set) string {
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOnlineMatchesLearn checks that Online, fed all the evidence and relearned, gives the rules
// that Learn gives for the same clusters, the whole set and each site's (with cluster support
// off, as it is online).
func TestOnlineMatchesLearn(t *testing.T) {
	opt := Options{MinPrecision: 0.9, online: true}
	o := NewOnline(OnlineOptions{Learn: opt, MaxClusterURLs: 1 << 20})
	want := feedSample(t, o)
	o.Relearn()
	o.RelearnAll()
	if n := o.RelearnAll(); n != 0 {
		t.Errorf("RelearnAll with no new evidence relearned %d sites", n)
	}
	got, _, err := o.Set()
	if err != nil {
		t.Fatal(err)
	}
	wantSet, _, err := Learn(want, opt)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := setText(t, got), setText(t, wantSet); g != w {
		t.Errorf("online set differs from Learn's:\n%s\nwant\n%s", g, w)
	}
	if wantSet.Len() == 0 {
		t.Fatal("no rules learned from the sample")
	}
	// Per site: the set Normalize applies is Learn of the site's clusters alone, and the rules
	// widened from all the sites.
	bySite := map[string][]Cluster{}
	for _, c := range want {
		bySite[c.Site] = append(bySite[c.Site], c)
	}
	for site, cls := range bySite {
		w, _, err := Learn(cls, opt)
		if err != nil {
			t.Fatal(err)
		}
		g := o.SiteSet(site)
		if g == nil {
			t.Errorf("site %s: no set", site)
			continue
		}
		var own []rules.Rule
		for i := range g.Len() {
			if r := g.Rule(i); r.Scope.Host != rules.AllHosts {
				own = append(own, r)
			}
		}
		ownSet, err := rules.NewSet(own, g.Options())
		if err != nil {
			t.Fatal(err)
		}
		if setText(t, ownSet) != setText(t, w) {
			t.Errorf("site %s: online set differs from Learn of the site:\n%s\nwant\n%s", site, setText(t, ownSet), setText(t, w))
		}
		for _, c := range cls {
			for _, u := range c.URLs {
				k, err := o.Normalize(u.Raw)
				wk, werr := g.Normalize(u.Raw)
				if k != wk || (err == nil) != (werr == nil) {
					t.Errorf("Normalize(%q) = %q, %v; site set gives %q, %v", u.Raw, k, err, wk, werr)
				}
			}
		}
	}
}

// TestOnlineSchedule checks the relearn schedule: the first relearn at MinURLs, then at each
// growth by the factor Growth, and nothing relearned in between.
func TestOnlineSchedule(t *testing.T) {
	o := NewOnline(OnlineOptions{MinURLs: 4, Growth: 2})
	var at []int
	for i := range 40 {
		o.Observe(URL{Raw: fmt.Sprintf("http://www.example.org/p/%d", i)}, uint64(i/2+1))
		if o.Relearn() > 0 {
			at = append(at, i+1)
		}
	}
	want := []int{4, 8, 16, 32}
	if fmt.Sprint(at) != fmt.Sprint(want) {
		t.Errorf("relearned at %v URLs, want %v", at, want)
	}
	st := o.Stats()
	if st.Relearns != 4 || st.RelearnURLs != 60 || st.URLs != 40 || st.Sites != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestOnlineAbbrevSchedule: a page observed under two abbreviations of one hash makes its site
// due when such pairs have grown by one and by Growth since the last relearn, and leaves the
// schedules by URLs and by duplicates where they were; a load counts the pairs again and is not
// due for them. Seen fail with ablate.NoAbbrevDue (no relearn at a pair).
func TestOnlineAbbrevSchedule(t *testing.T) {
	o := NewOnline(OnlineOptions{MinURLs: 4, Growth: 2})
	for i := range 4 {
		o.Observe(URL{Raw: fmt.Sprintf("http://vcs.example.org/doc/%d", i)}, uint64(i+1))
	}
	if o.Relearn() != 1 {
		t.Fatal("no first relearn at MinURLs")
	}
	var at []int
	for i := range 8 {
		h := fmt.Sprintf("%x", 0x5eed0000_12345678+uint64(i)*0x9e3779b97f4a7c15)[:16]
		o.Observe(URL{Raw: "http://vcs.example.org/info/" + h[:10]}, uint64(100+i))
		o.Observe(URL{Raw: "http://vcs.example.org/info/" + h}, uint64(100+i))
		if o.Relearn() > 0 {
			at = append(at, i+1)
		}
	}
	// Pairs due at 1, 2 and 4 (the factor 2); the URLs reach 8 (twice 4) with the second pair,
	// and 16 with the sixth, which makes that relearn due by URLs too.
	if want := []int{1, 2, 4, 6}; fmt.Sprint(at) != fmt.Sprint(want) {
		t.Errorf("relearned after pair %v, want %v", at, want)
	}
	var b bytes.Buffer
	if _, err := o.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	loaded := NewOnline(OnlineOptions{MinURLs: 4, Growth: 2})
	if _, err := loaded.ReadFrom(&b); err != nil {
		t.Fatal(err)
	}
	if n := loaded.Relearn(); n != 0 {
		t.Errorf("a loaded learner relearned %d sites at once", n)
	}
}

// TestOnlineFreshBackoff: duplicates that no rule can explain (pages whose two URLs share
// nothing) make the site due each time MinDups of them were fetched since the last relearn,
// and each such relearn that changes no rule doubles the count for the next: the relearns grow
// with the log of the duplicates, not with their number (seen: 10 relearns without the fresh
// duplicates' schedule, 14 with it, 49 with it and no doubling).
func TestOnlineFreshBackoff(t *testing.T) {
	run := func(off bool) int64 {
		ablate.NoFreshDue = off
		defer func() { ablate.NoFreshDue = false }()
		o := NewOnline(OnlineOptions{})
		for i := range 400 {
			a := fmt.Sprintf("%x", uint64(i+1)*0x9e3779b97f4a7c15)
			b := fmt.Sprintf("%x", uint64(i+1)*0xc2b2ae3d27d4eb4f)
			o.Observe(URL{Raw: "http://www.example.org/" + a[:12]}, uint64(i+1))
			o.Relearn()
			o.Observe(URL{Raw: "http://www.example.org/" + b[:9] + "/" + b[9:]}, uint64(i+1))
			o.Relearn()
		}
		return o.Stats().Relearns
	}
	without, with := run(true), run(false)
	t.Logf("relearns: %d without the fresh duplicates' schedule, %d with it", without, with)
	if with > without+8 {
		t.Errorf("relearns: %d with the fresh duplicates' schedule, %d without; want at most 8 more", with, without)
	}
}

// TestOnlineBounds checks that a site keeps at most MaxURLs URLs and a page MaxClusterURLs.
func TestOnlineBounds(t *testing.T) {
	o := NewOnline(OnlineOptions{MaxURLs: 10, MaxClusterURLs: 3})
	for i := range 20 {
		o.Observe(URL{Raw: fmt.Sprintf("http://a.example.org/x?s=%d", i)}, 7) // one page
	}
	for i := range 20 {
		o.Observe(URL{Raw: fmt.Sprintf("http://b.example.org/p/%d", i)}, uint64(i)) // same site
	}
	o.Observe(URL{Raw: "not a url"}, 1)
	st := o.Stats()
	if st.URLs != 10 || st.Dropped != 30 || st.BadURLs != 1 {
		t.Errorf("kept %d, dropped %d, bad %d; want 10, 30, 1", st.URLs, st.Dropped, st.BadURLs)
	}
}

// tParamSite observes n pages of shop.example.com whose URLs with and without a parameter t
// serve the same page: Online learns to delete t.
func tParamSite(o *Online, n int) {
	for i := range n {
		fp := uint64(i + 1)
		o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, fp)
		o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 1000+7*i)}, fp)
	}
	o.RelearnAll()
}

// TestOnlineVerify checks verification: the first VerifyFirst uses of a rule and one in
// VerifyEvery are checked (the bound on the error rate off); a mismatch retracts the rule at
// once and for later relearns.
func TestOnlineVerify(t *testing.T) {
	turnOff(t, &ablate.NoBound)
	o := NewOnline(OnlineOptions{VerifyFirst: 2, VerifyEvery: 5})
	tParamSite(o, 40)
	u := "http://shop.example.com/item?id=3&t=99"
	k, err := o.Key(u)
	if err != nil || k.Key != "http://shop.example.com/item?id=3" || !k.Rewritten() {
		t.Fatalf("Key(%q) = %+v, %v; want t deleted by a rule", u, k, err)
	}
	var checks []bool
	for range 10 {
		checks = append(checks, o.Verify(k))
	}
	if want := "[true true false false false false true false false false]"; fmt.Sprint(checks) != want {
		t.Errorf("Verify of uses 1..10 = %v, want %s", checks, want)
	}
	static, _ := Prepare(u)
	if k0, _ := o.Key(k.Key); k0.Rewritten() || o.Verify(k0) {
		t.Errorf("a URL no rule rewrites is verified")
	}
	o.Confirm(k, true)
	if k2, _ := o.Key(u); k2.Key != k.Key {
		t.Errorf("a confirmed rule changed the key: %q", k2.Key)
	}
	o.Confirm(k, false) // the page of id=3&t=99 is not that of id=3: t matters after all
	if got, _ := o.Normalize(u); got != static {
		t.Errorf("after a mismatch Normalize(%q) = %q, want the static key %q", u, got, static)
	}
	tParamSite(o, 60) // more of the same evidence: the relearn leaves the retracted rule out
	if got, _ := o.Normalize(u); got != static {
		t.Errorf("after a relearn Normalize(%q) = %q, want the static key %q", u, got, static)
	}
	st := o.Stats()
	if st.Verifications != 3 || st.Confirmed != 1 || st.Mismatches != 1 || st.Retracted != 2 {
		t.Errorf("stats %+v", st)
	}
	set, _, err := o.Set()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := set.Normalize(u); got != static {
		t.Errorf("Set keeps the retracted rule: %q", got)
	}
}

// TestOnlineSame checks that Same puts two URLs into one cluster.
func TestOnlineSame(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	for i := range 40 {
		o.Same(fmt.Sprintf("http://shop.example.com/item?id=%d", i), fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 3*i+1))
	}
	o.RelearnAll()
	if got, _ := o.Normalize("http://shop.example.com/item?id=77&t=5"); got != "http://shop.example.com/item?id=77" {
		t.Errorf("Normalize after Same = %q", got)
	}
}

// TestOnlineJoin checks that Join makes the clusters of two fingerprints one: each page's two
// URLs were observed under fingerprints of their own (a crawler that numbered them apart until
// a page matched both), so only the join shows the duplicates that teach the rule.
func TestOnlineJoin(t *testing.T) {
	for _, join := range []bool{false, true} {
		o := NewOnline(OnlineOptions{})
		for i := range 40 {
			a, b := uint64(2*i+1), uint64(2*i+2)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, a)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 3*i+1)}, b)
			if join {
				o.Join(a, b)
				o.Join(a, b) // again: nothing more to move
			}
		}
		o.RelearnAll()
		got, _ := o.Normalize("http://shop.example.com/item?id=77&t=5")
		want := "http://shop.example.com/item?id=77&t=5" // no duplicates, no rule
		if join {
			want = "http://shop.example.com/item?id=77"
		}
		if got != want {
			t.Errorf("join %v: Normalize = %q, want %q", join, got, want)
		}
		if st := o.Stats(); st.URLs != 80 {
			t.Errorf("join %v: %d URLs kept, want 80", join, st.URLs)
		}
	}
	// A joined cluster keeps MaxClusterURLs URLs; the others are dropped.
	o := NewOnline(OnlineOptions{MaxClusterURLs: 1})
	o.Observe(URL{Raw: "http://shop.example.com/item?id=1"}, 1)
	o.Observe(URL{Raw: "http://shop.example.com/item?id=1&t=4"}, 2)
	o.Join(1, 2)
	if st := o.Stats(); st.URLs != 1 || st.Dropped != 1 {
		t.Errorf("MaxClusterURLs 1: %d URLs kept, %d dropped, want 1 and 1", st.URLs, st.Dropped)
	}
}

// TestOnlineConcurrent runs Normalize, Key and Verify on many goroutines while the sample is
// observed and relearned in the background by Run (go test -race checks the publication).
func TestOnlineConcurrent(t *testing.T) {
	cls := loadSample(t)
	var urls []string
	for _, c := range cls {
		for _, u := range c.URLs {
			urls = append(urls, u.Raw)
		}
	}
	o := NewOnline(OnlineOptions{MinURLs: 4, Growth: 1.2})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				u := urls[i%len(urls)]
				if _, err := o.Normalize(u); err != nil && err != ErrNotURL {
					t.Errorf("Normalize(%q): %v", u, err)
					return
				}
				if k, err := o.Key(u); err == nil && o.Verify(k) {
					o.Confirm(k, true)
				}
			}
		})
	}
	feedSample(t, o)
	for o.Stats().Relearns == 0 {
		o.Relearn()
	}
	close(stop)
	wg.Wait()
	cancel()
	<-done
	o.RelearnAll()
	for _, u := range urls {
		site, _ := o.Site(u)
		set := o.SiteSet(site)
		got, _ := o.Normalize(u)
		if set == nil {
			continue
		}
		if want, _ := set.Normalize(u); got != want {
			t.Errorf("Normalize(%q) = %q, the site's set gives %q", u, got, want)
		}
	}
}

// TestOnlineContext checks verification contexts: template words are the words of many of a
// site's URLs, a key's context is its last segment's template words, and a mismatch in one
// context leaves the rules of another in place.
func TestOnlineContext(t *testing.T) {
	var cls []Cluster
	for i := range 40 {
		cls = append(cls, Cluster{URLs: []URL{
			{Raw: fmt.Sprintf("http://p.example.org/user%d/friends-x%d", i, i)},
			{Raw: fmt.Sprintf("http://p.example.org/user%d/album-y%d", i, i)},
		}})
	}
	cls = append(cls, Cluster{URLs: []URL{{Raw: "http://p.example.org/wiki/Apple"}}})
	words := templateWords(cls)
	for w, want := range map[string]bool{"friends": true, "album": true, "user": true, "apple": false, "wiki": false, "x": false} {
		if words[w] != want {
			t.Errorf("template word %q: %v, want %v", w, words[w], want)
		}
	}
	for _, tc := range []struct{ in, key, want string }{
		{"http://p.example.org/user7/friends-x7", "http://p.example.org/user7/friends", "friends >friends "}, // template words before and after
		{"http://p.example.org/user7/album?x=1", "http://p.example.org/user7/album", "album >album "},        // the query does not count
		{"http://p.example.org/wiki/apple", "http://p.example.org/wiki/Apple", ">"},                          // a value, not the template
		{"http://p.example.org/user7/friends-album", "http://p.example.org/user7", "friends album >user "},   // every template word, in order
	} {
		if got := contextOf(tc.in, tc.key, words); got != tc.want {
			t.Errorf("contextOf(%q, %q) = %q, want %q", tc.in, tc.key, got, tc.want)
		}
	}

	// A forum links the print view of 12 of its 200 topics (6% of the segments that are a word
	// at that depth under t, 1% of the URLs): print is the template's; a tree of 100 words four
	// deep (each word 1% of its depth) has none.
	cls = cls[:0]
	for i := range 200 {
		urls := []URL{{Raw: fmt.Sprintf("http://f.example.org/t/topic-%d/%d", i, 500+i)}}
		for j := range 8 {
			urls = append(urls, URL{Raw: fmt.Sprintf("http://f.example.org/t/topic-%d/%d/%d", i, 500+i, j+1)})
		}
		cls = append(cls, Cluster{URLs: urls})
		if i%17 == 0 {
			cls = append(cls, Cluster{URLs: []URL{{Raw: fmt.Sprintf("http://f.example.org/t/topic-%d/%d/print", i, 500+i)}}})
		}
	}
	vocab := func(i int) string { return "w" + strings.Repeat(string(rune('a'+i%26)), 1+i/26) }
	for i := range 2000 {
		cls = append(cls, Cluster{URLs: []URL{{Raw: fmt.Sprintf("http://f.example.org/%s/%s/%s/%s",
			vocab(i%100), vocab(i*7%100), vocab(i*13%100), vocab(i*31%100))}}})
	}
	words = templateWords(cls)
	for w, want := range map[string]bool{"print": true, "t": false, vocab(3): false, vocab(50): false} {
		if words[w] != want {
			t.Errorf("template word %q: %v, want %v", w, words[w], want)
		}
	}
	if got, want := contextOf("http://f.example.org/t/topic-3/503/print", "http://f.example.org/t/503", words), "print >"; got != want {
		t.Errorf("print view: context %q, want %q", got, want)
	}

	// t is irrelevant on item and view pages; a view page found to differ from its key's page
	// takes the rules of view pages out, and leaves those of item pages.
	o := NewOnline(OnlineOptions{VerifyFirst: 1, VerifyEvery: -1})
	for i := range 40 {
		for j, page := range []string{"item", "view"} {
			fp := uint64(2*i + j + 1)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/%s?id=%d", page, i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/%s?id=%d&t=%d", page, i, 1000+7*i)}, fp)
		}
	}
	o.RelearnAll()
	item, view := "http://shop.example.com/item?id=3&t=99", "http://shop.example.com/view?id=3&t=99"
	ki, _ := o.Key(item)
	kv, _ := o.Key(view)
	if !ki.Rewritten() || !kv.Rewritten() {
		t.Fatalf("t is not deleted: %q, %q", ki.Key, kv.Key)
	}
	if !o.Verify(ki) || !o.Verify(kv) {
		t.Fatal("first uses not verified")
	}
	o.Confirm(ki, true)
	o.Confirm(kv, false)
	if got, _ := o.Normalize(view); got != "http://shop.example.com/view?id=3&t=99" {
		t.Errorf("after a mismatch on view pages Normalize(%q) = %q", view, got)
	}
	if got, _ := o.Normalize(item); got != "http://shop.example.com/item?id=3" {
		t.Errorf("after a mismatch on view pages Normalize(%q) = %q", item, got)
	}
	// The rule failed on view pages: on item pages its next uses are verified again, while the
	// bound on its error rate is high.
	var checks []bool
	for i := range 4 {
		k, _ := o.Key(fmt.Sprintf("http://shop.example.com/item?id=%d&t=5", 4+i))
		checks = append(checks, o.Verify(k))
	}
	if fmt.Sprint(checks) != "[true true true true]" {
		t.Errorf("uses 2 to 5 on item pages verified: %v, want [true true true true]", checks)
	}
}

// TestOnlineHashPrefixes checks that a crawl that fetched objects of a version-control
// front-end by their whole hash and by an abbreviation learns, online, to cut the hash of an
// object it has not seen to the abbreviation, and keeps other objects apart.
func TestOnlineHashPrefixes(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	hash := func(i int) string {
		return fmt.Sprintf("%08x%08x%08x%08x%08x", 0x9e3779b9*uint32(i+1), i, 0x85ebca6b*uint32(i+7), 3*i, 0xc2b2ae35*uint32(i+3))
	}
	for i := range 30 {
		h := hash(i)
		o.Observe(URL{Raw: "http://vcs.example.org/info/" + h}, uint64(2*i+1))
		o.Observe(URL{Raw: "http://vcs.example.org/info/" + h[:16]}, uint64(2*i+1))
		o.Observe(URL{Raw: "http://vcs.example.org/info/" + hash(100 + i)[:16]}, uint64(2*i+2))
	}
	o.RelearnAll()
	h := hash(1000)
	k, _ := o.Key("http://vcs.example.org/info/" + h)
	if want := "http://vcs.example.org/info/" + h[:16]; k.Key != want {
		t.Errorf("Key of the whole hash %q, want %q", k.Key, want)
	}
	other, _ := o.Key("http://vcs.example.org/info/" + hash(1001))
	if other.Key == k.Key {
		t.Errorf("two objects have one key %q", k.Key)
	}
}

// gitURL is the start of the URLs of gitRules's repository browser.
const gitURL = "http://git.example.org/?p=docs.git&"

// gitRules returns an online learner that verifies every use, whose site git.example.org has
// the rules of texts published, and a function that keys gitURL followed by a query.
func gitRules(t *testing.T, texts ...string) (*Online, func(string) Key) {
	t.Helper()
	o := NewOnline(OnlineOptions{VerifyFirst: 1, VerifyEvery: -1})
	var rs []rules.Rule
	for _, text := range texts {
		r, err := rules.ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	set, err := rules.NewSet(rs, &rules.Options{Key: urlnorm.Crawler})
	if err != nil {
		t.Fatal(err)
	}
	s := o.site("git.example.org", true)
	s.mu.Lock()
	s.base = set
	s.publish(nil)
	s.mu.Unlock()
	return o, func(u string) Key {
		k, err := o.Key(gitURL + u)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
}

// TestOnlineOutRekeys checks the key of a URL whose rewrite a rule retracted in its context
// took part in: on a version-control front-end, hb (the commit a page is seen from) does not
// matter on blob pages, which a rule maps to HEAD, and matters on tree pages; the site-wide
// rule that deletes hb, confirmed once, fails on a tree page and is retracted in its context,
// which on a site of one path is every page. Blob pages are then keyed by the blob rule alone,
// not left apart with their static keys, and the tree page keeps its own key. With the
// mechanism off (ablate.NoRekeyOut), the blob page of a commit keeps its static key.
func TestOnlineOutRekeys(t *testing.T) {
	o, key := gitRules(t,
		`host=git.example.org cov=40 prec=1 sup=0 if host="git.example.org" query("a")="blob" query("h")=* query("hb")=* then query("hb")="HEAD"`,
		`host=git.example.org cov=900 prec=1 sup=0 if host="git.example.org" query("hb")=* then query("hb")=-`)
	static := func(u string) string {
		p, _ := Prepare(gitURL + u)
		return p
	}
	tree := key("a=tree&f=man2")
	o.ConfirmMatch(key("a=tree&f=man2&hb=c1"), tree, true)
	o.ConfirmMatch(key("a=tree&f=man2&hb=c2"), tree, false)
	if got := o.Retracted(); len(got) != 1 || !strings.Contains(got[0], `then query("hb")=-`+"\tin context") {
		t.Fatalf("retracted %q, want the rule that deletes hb, in a context", got)
	}
	if k := key("a=tree&f=man2&hb=c2"); k.Key != static("a=tree&f=man2&hb=c2") || k.Rewritten() {
		t.Errorf("tree page of c2 keyed %q, want its static key", k.Key)
	}
	head, c1 := key("a=blob&f=man2/kill.txt&h=b7&hb=HEAD"), key("a=blob&f=man2/kill.txt&h=b7&hb=c1")
	if want := static("a=blob&f=man2/kill.txt&h=b7&hb=HEAD"); head.Key != want || c1.Key != want {
		t.Fatalf("blob pages keyed %q and %q, want both %q", head.Key, c1.Key, want)
	}
	// The blob rule alone is to blame for the match: it is verified on its first use, and
	// retracted when it fails.
	if !o.VerifyMatch(c1, head) {
		t.Error("the blob rule's first use is not verified")
	}
	o.ConfirmMatch(c1, head, false)
	if k := key("a=blob&f=man2/kill.txt&h=b7&hb=c1"); k.Rewritten() {
		t.Errorf("after a mismatch, blob page of c1 keyed %q by the blob rule", k.Key)
	}
}

// TestKeyWithoutTwoRules checks the blame of a key made without a retracted rule: the key of
// the URL without another of its rules is made without both, and the rules it then uses are
// found in the whole set, so that the retracted rule does not appear to make it. The deletion is
// given with and without a condition that puts it before the blob rule, so that the retracted
// rule's index is above the other's and below it.
func TestKeyWithoutTwoRules(t *testing.T) {
	const (
		blobRule = `host=git.example.org cov=40 prec=1 sup=0 if host="git.example.org" query("a")="blob" query("h")=* query("hb")=* then query("hb")="HEAD"`
		delJS    = `host=git.example.org cov=90 prec=1 sup=0 if host="git.example.org" query("js")=* then query("js")=-`
	)
	for _, delHB := range []string{
		`host=git.example.org cov=900 prec=1 sup=0 if host="git.example.org" query("hb")=* then query("hb")=-`,
		`host=git.example.org cov=900 prec=1 sup=0 if host="git.example.org" query("p")="docs.git" query("zz")=- query("hb")=* then query("hb")=-`,
	} {
		o, key := gitRules(t, blobRule, delHB, delJS)
		tree := key("a=tree&f=man2")
		o.ConfirmMatch(key("a=tree&f=man2&hb=c1"), tree, true)
		o.ConfirmMatch(key("a=tree&f=man2&hb=c2"), tree, false)
		k := key("a=blob&f=man2/kill.txt&h=b7&hb=c1&js=1")
		if k.ver == nil || k.left == 0 {
			t.Fatalf("blob page keyed %q with no rule left out; want the set without the deletion of hb", k.Key)
		}
		blob := -1
		for _, i := range k.used {
			if strings.Contains(k.ver.set.Rule(i).String(), `"HEAD"`) {
				blob = i
			}
		}
		if blob < 0 {
			t.Fatalf("key %q used rules %v, none of them the blob rule", k.Key, k.used)
		}
		// Without the blob rule (and the deletion of hb), the deletion of js still makes the key.
		p, _ := Prepare(gitURL + "a=blob&f=man2/kill.txt&h=b7&hb=c1")
		if got := keyWithout(k, k.ver, blob); got != p {
			t.Errorf("blob rule %d, deletion of hb %d: key without the blob rule %q, want %q", blob, k.left-1, got, p)
		}
	}
}

// TestOnlineAlternatives checks the alternative keys of a URL that two rules match, each of
// which holds: on a repository browser, the rule that drops the object of a view at HEAD
// (generalized to every action, and first by precedence) sends a blob view at HEAD away from
// the key that the rule dropping the commit of a blob view gives the blob's other URLs. The
// alternative without the first rule is that key, and a match under it is verified like any
// other. With the mechanism off there is none.
func TestOnlineAlternatives(t *testing.T) {
	for _, off := range []bool{false, true} {
		t.Run(fmt.Sprintf("off=%v", off), func(t *testing.T) {
			if off {
				turnOff(t, &ablate.NoAlternatives)
			}
			o, key := gitRules(t,
				`host=git.example.org cov=100 prec=1 sup=0 if host="git.example.org" query("hb")="HEAD" query("st")=- query("a")=* query("f")=* query("h")=* then query("h")=-`,
				`host=git.example.org cov=300 prec=1 sup=0 if host="git.example.org" query("a")="blob" query("f")=* query("h")=* query("hb")=* then query("hb")=-`)
			head, c1 := key("a=blob&f=man2/kill.txt&h=b7&hb=HEAD"), key("a=blob&f=man2/kill.txt&h=b7&hb=c1")
			if head.Key == c1.Key {
				t.Fatalf("blob views keyed %q alike: the rules do not conflict", head.Key)
			}
			var alt *Key
			for _, a := range o.Alternatives(head) {
				if a.Key == c1.Key {
					alt = &a
				}
			}
			if (alt != nil) == off {
				t.Fatalf("alternatives of %q: %v, want c1's key %q found %v", head.Key, o.Alternatives(head), c1.Key, !off)
			}
			if off {
				return
			}
			if !o.VerifyMatch(*alt, c1) {
				t.Errorf("first use of the blob rule by an alternative key not verified")
			}
			o.ConfirmMatch(*alt, c1, true)
			if st := o.Stats(); st.Confirmed != 1 {
				t.Errorf("stats %+v, want 1 confirmed", st)
			}
			if a := o.Alternatives(c1); len(a) != 0 {
				t.Errorf("alternatives of a URL that one rule matches: %v", a)
			}
		})
	}
}

// TestInferredKept checks that a mismatch drops from a site's evidence only the URLs skipped on the
// rule it retracts or on a rule that rewrites more than the query: a shop whose item pages take a
// tracking t=, whose news pages a ref= and whose guides are served under /v1/ and /latest/ learns
// to delete each parameter and to map one tree onto the other; the crawler skips items, news and
// guides on those rules (Skipped); a check that retracts the deletion of ref drops the news skipped
// and the guides, and the items stay, evidence for the rule that deletes t. With every inferred URL
// dropped at a mismatch, the items go too: a rule that holds loses its evidence to another's
// failure, and where a page's list of URLs was full of skipped ones, the rule goes with them until
// the crawl has fetched enough again. With the guides kept, a rule that is right on most pages of a
// tree and wrong on the few that changed between trees keeps evidence that only its own failure, in
// a context where it may never be checked, would drop.
func TestInferredKept(t *testing.T) {
	run := func(t *testing.T) (items, news, guides int) {
		o := NewOnline(OnlineOptions{})
		for i := range 40 {
			fp := uint64(i + 1)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 1000+7*i)}, fp)
			fp = uint64(500 + i)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/news?id=%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/news?id=%d&ref=%d", i, 3000+11*i)}, fp)
			fp = uint64(900 + i)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/v1/guide/topic-%d.html", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/latest/guide/topic-%d.html", i)}, fp)
		}
		o.RelearnAll()
		skip := func(u string, fp uint64) Key {
			k, err := o.Key(u)
			if err != nil || !k.Rewritten() {
				t.Fatalf("Key(%q) = %+v, %v; want a rule to rewrite it", u, k, err)
			}
			o.Skipped(URL{Raw: u}, k, fp)
			return k
		}
		for i := range 20 {
			skip(fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 5000+3*i), uint64(i+1))
			skip(fmt.Sprintf("http://shop.example.com/news?id=%d&ref=%d", i, 7000+3*i), uint64(500+i))
			skip(fmt.Sprintf("http://shop.example.com/latest/guide/topic-%d.html", 40+i), uint64(940+i))
		}
		k := skip("http://shop.example.com/news?id=3&ref=9", 503)
		kept, err := o.Key("http://shop.example.com/news?id=3")
		if err != nil {
			t.Fatal(err)
		}
		o.ConfirmMatch(k, kept, false)
		if k2, _ := o.Key("http://shop.example.com/news?id=3&ref=9"); k2.Rewritten() {
			t.Fatalf("the deletion of ref was not retracted: %+v", k2)
		}
		s := o.site("shop.example.com", false)
		s.mu.Lock()
		defer s.mu.Unlock()
		for u := range s.inferred {
			switch {
			case strings.Contains(u, "/item"):
				items++
			case strings.Contains(u, "/news"):
				news++
			default:
				guides++
			}
		}
		return items, news, guides
	}
	if items, news, guides := run(t); items != 20 || news != 0 || guides != 0 {
		t.Errorf("inferred URLs left after the retraction: %d items, %d news, %d guides; want 20, 0 and 0", items, news, guides)
	}
	off := func(t *testing.T, sw *bool, want [3]int) {
		turnOff(t, sw)
		if items, news, guides := run(t); [3]int{items, news, guides} != want {
			t.Errorf("inferred URLs left: %d items, %d news, %d guides; want %v", items, news, guides, want)
		}
	}
	t.Run("queryrested", func(t *testing.T) { off(t, &ablate.NoQueryRested, [3]int{20, 0, 20}) })
	t.Run("restedon", func(t *testing.T) { off(t, &ablate.NoRestedOn, [3]int{}) })
}

// TestBurstShape: the shapes that bursts are counted by, and the bar a burst passes.
func TestBurstShape(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"http://example.org/wiki?name=Zebra&p", "http://example.org/wiki?p&name=Yak"},
		{"http://example.org/print/a/1001", "http://example.org/print/a/2002"},
		{"http://example.org/2024/05/slug", "http://example.org/2019/12/other"},
	} {
		a, okA := urlShape(tc.a)
		b, okB := urlShape(tc.b)
		if !okA || !okB || a != b {
			t.Errorf("urlShape(%q) = %q, urlShape(%q) = %q; want one shape", tc.a, a, tc.b, b)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"http://example.org/wiki?name=Zebra&p", "http://example.org/wiki?name=Zebra"},
		{"http://example.org/print/a/1001", "http://example.org/a/1001"},
		{"http://example.org/wiki?name=Zebra", "http://example.org/edit?name=Zebra"},
	} {
		a, _ := urlShape(tc.a)
		b, _ := urlShape(tc.b)
		if a == b {
			t.Errorf("urlShape(%q) = urlShape(%q) = %q; want two shapes", tc.a, tc.b, a)
		}
	}
	if _, ok := urlShape("not a url"); ok {
		t.Error("urlShape of a non-URL is ok")
	}
	for _, tc := range []struct {
		dups, pages int
		want        bool
	}{
		{9, 0, true}, {8, 0, false}, {40, 1, true}, {16, 4, false}, {100, 20, false}, {9, 0, true},
	} {
		if got := burstDue(tc.dups, tc.pages, 0.9, 8); got != tc.want {
			t.Errorf("burstDue(%d, %d) = %v, want %v", tc.dups, tc.pages, got, tc.want)
		}
	}
	if burstDue(9, 0, 0.9, 16) {
		t.Error("burstDue(9, 0) with the count doubled: due")
	}
}
