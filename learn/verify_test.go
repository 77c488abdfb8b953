package learn

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// turnOff sets a switch of package ablate for the test.
func turnOff(t *testing.T, sw *bool) {
	old := *sw
	*sw = true
	t.Cleanup(func() { *sw = old })
}

// A visit is a URL that a crawl meets, and its page.
type visit struct {
	url  string
	page int
}

// crawlResult is what crawl counts.
type crawlResult struct {
	fetches, checks, lost int
}

// crawl replays visits as a crawl with o: a URL whose key is the key of a URL fetched is
// skipped unless VerifyMatch asks to check it, and is then fetched and confirmed; a fetched
// URL is observed and its site relearned when due. The keys of the fetched URLs are made
// again when the rules change. A page is lost when none of its URLs is fetched.
func crawl(o *Online, visits []visit) crawlResult {
	var r crawlResult
	type kept struct {
		url  string
		page int
	}
	seen := map[string]kept{}
	var fetched []kept
	fetchedPage := map[int]bool{}
	relearns := int64(-1)
	rekey := func() {
		if st := o.Stats(); st.Relearns+st.Retracted != relearns {
			relearns = st.Relearns + st.Retracted
			clear(seen)
			for _, f := range fetched {
				k, _ := o.Normalize(f.url)
				if _, ok := seen[k]; !ok {
					seen[k] = f
				}
			}
		}
	}
	for _, v := range visits {
		rekey()
		k, _ := o.Key(v.url)
		if prev, ok := seen[k.Key]; ok {
			kk, _ := o.Key(prev.url)
			if !o.VerifyMatch(k, kk) {
				continue
			}
			r.checks++
			o.ConfirmMatch(k, kk, prev.page == v.page)
			rekey()
		}
		r.fetches++
		fetchedPage[v.page] = true
		f := kept{v.url, v.page}
		fetched = append(fetched, f)
		if k, _ := o.Normalize(v.url); seen[k] == (kept{}) {
			seen[k] = f
		}
		o.Observe(URL{Raw: v.url}, uint64(v.page))
		o.Relearn()
	}
	pages := map[int]bool{}
	for _, v := range visits {
		pages[v.page] = true
	}
	r.lost = len(pages) - len(fetchedPage)
	return r
}

// treeSite is a documentation site that serves its guide under /v1 and /latest: the two
// trees are one page for the first 8 topics, from which the rule /latest to /v1 is learned,
// and differ for one topic in 6 after that, which nothing in the URLs tells apart.
func treeSite() []visit {
	var vs []visit
	for i := range 200 {
		latest, v1 := 2*i+1, 2*i+1
		if i >= 8 && i%6 == 1 {
			v1 = 2*i + 2 // changed since v1
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://docs.example.org/v1/guide/topic-%d.html", i), v1},
			visit{fmt.Sprintf("http://docs.example.org/latest/guide/topic-%d.html", i), latest})
	}
	return vs
}

// suffixSite is a social site whose profile pages are linked as /u<i>/friends and with a
// random-looking suffix, /u<i>/friends-x<a>q<b>: one page for the first 8 users, from which the
// rule that cuts the suffix is learned, and for one user in 6 after that two pages (the
// suffixed URL a snapshot of the list), which nothing in the URLs tells apart.
func suffixSite() []visit {
	var vs []visit
	for i := range 200 {
		plain, suffixed := 2*i+1, 2*i+1
		if i >= 8 && i%6 == 1 {
			suffixed = 2*i + 2
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://p.example.org/u%d/friends", i), plain},
			visit{fmt.Sprintf("http://p.example.org/u%d/friends-x%dq%d", i, 7*i+100, 3*i+100), suffixed})
	}
	return vs
}

// paramSite is a site whose item pages take a parameter ref that does not matter, except on
// one item in 15, where it selects another page: the training precision of the rule that
// deletes ref is below 1.
func paramSite() []visit {
	var vs []visit
	for i := range 300 {
		plain, ref := 2*i+1, 2*i+1
		if i%15 == 4 {
			ref = 2*i + 2
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://shop.example.com/item?id=%d", i), plain},
			visit{fmt.Sprintf("http://shop.example.com/item?id=%d&ref=%d", i, 1000+7*i), ref})
	}
	return vs
}

// seriesSite is a news site whose articles have a print view, /a/<i>/<slug>?view=print: the
// article itself for the first 12 articles, from which the rule that deletes view=print is
// learned clean, and after that its own page for one article in 4, an article of several
// pages (it prints whole), which links its second page, ?page=2, before its print view.
func seriesSite() []visit {
	var vs []visit
	for i := range 200 {
		article, print := 3*i+1, 3*i+1
		u := fmt.Sprintf("http://news.example.com/a/%d/story-%d", 1000+i, i)
		vs = append(vs, visit{u, article})
		if i >= 12 && i%4 == 1 {
			print = 3*i + 2
			vs = append(vs, visit{u + "?page=2", 3*i + 3})
		}
		vs = append(vs, visit{u + "?view=print", print})
	}
	return vs
}

// repoSite is a repository browser that serves every view on its root path: its root
// listing, a=tree, is one page at every commit (linked with h=C&hb=C), from which the rule
// that deletes h and hb is learned on the first 30 commits, with no condition on f, which
// none of those listings has; then each commit's listing of a subdirectory, the same with
// f=src, is a page of its own (the directory changed), which the rule maps onto the first
// one met. Blob views carry f from the start, each its own file.
func repoSite() []visit {
	id := func(what string, i int) string { return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(what, i)))) }
	vs := []visit{{"http://git.example.org/?a=tree", 1}}
	for i := range 150 {
		c := id("commit", i)
		vs = append(vs,
			visit{fmt.Sprintf("http://git.example.org/?a=tree&h=%s&hb=%s", c, c), 1},
			visit{fmt.Sprintf("http://git.example.org/?a=blob&f=doc/topic-%d.txt&h=%s&hb=%s", i, id("blob", i), c), 2 + 2*i})
		if i >= 30 {
			vs = append(vs, visit{fmt.Sprintf("http://git.example.org/?a=tree&f=src&h=%s&hb=%s", id("tree", i), c), 3 + 2*i})
		}
	}
	return vs
}

// TestVerifyRisk checks the verification of rules whose uses are wrong now and then, which
// nothing in the URLs tells apart from their right uses: a rule whose training precision is
// below 1 (paramSite) is checked while the upper confidence bound on its error rate is high; a
// rule that swaps one literal path segment for another (treeSite) or cuts a random-looking
// suffix from one (suffixSite) is checked on its first uses, whatever its clean training
// evidence; a rule that lowercases paths (iisSite) is checked on its first uses in each tree
// (first path segment); the rules of a site that maps several trees onto another (releaseSite,
// whose first 40 topics are the same in every tree) are checked until enough clean checks bound
// their error rate, not only on their first 8 uses; a rule learned on URLs without a parameter
// of the site (repoSite) is checked on its first use on URLs with it. Each is
// retracted at its first wrong use.
// With the mechanism off, the rule is sampled at the floor after its first uses, and loses a
// page for most wrong uses. A URL whose key is that of a kept URL that served an error page
// (expiredSite: a page served under unrelated URLs, each with its own item id) is fetched, and
// the check blames no rule; with that off, the item pages met after an expired link are lost,
// and a check that finds one retracts the rule that deletes from, which was right. So is one
// whose items are named by letters alone (namedExpiredSite: their names are the identifiers),
// and one whose key the static key made (sessionExpiredSite: a servlet session cut).
func TestVerifyRisk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		site   func() []visit
		off    *bool
		lost   int // pages lost with the mechanism, at most
		margin int // pages lost without the mechanism, at least, beyond those lost with it
	}{
		{"training precision below 1", paramSite, &ablate.NoBound, 2, 6},
		{"literal segment swapped", treeSite, &ablate.NoShapeRisk, 2, 10},
		{"random-looking suffix cut", suffixSite, &ablate.NoShapeRisk, 2, 10},
		{"paths lowercased per tree", iisSite, &ablate.NoCaseContexts, 2, 10},
		{"several trees mapped onto another", releaseSite, &ablate.NoTreePrior, 2, 10},
		{"match to an error page", expiredSite, &ablate.NoHubs, 1, 10},
		{"directory cut whose fetched pairs failed", unlinkedSite, &ablate.NoDirPairs, 2, 10},
		{"literal deleted where a query names other pages", seriesSite, &ablate.NoSeries, 2, 10},
		{"match to an error page of named pages", namedExpiredSite, &ablate.NoHubNames, 1, 10},
		{"match by the static key to an error page", sessionExpiredSite, &ablate.NoHubStatic, 1, 10},
		{"directory cut on a host that tells case apart", literalSite, &ablate.NoDirClean, 2, 10},
		{"directory cut whose one-page directories have more URLs", schemeSite, &ablate.NoDirKeys, 2, 10},
		{"rule used on URLs with a parameter its training URLs lacked", repoSite, &ablate.NoQueryContexts, 1, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := crawl(NewOnline(OnlineOptions{}), tc.site())
			if got.lost > tc.lost {
				t.Errorf("with the mechanism: %+v, want at most %d pages lost", got, tc.lost)
			}
			turnOff(t, tc.off)
			without := crawl(NewOnline(OnlineOptions{}), tc.site())
			if without.lost < got.lost+tc.margin {
				t.Errorf("without it: %+v; with it %+v: want %d more pages lost without", without, got, tc.margin)
			}
			t.Logf("with the mechanism %+v, without %+v", got, without)
		})
	}
}

// TestVerifyShapeRisk checks that a rule of a risky shape is checked more than a rule of
// another shape with the same evidence, and that the bound puts a clean rule's checks near
// the floor once it has been confirmed often.
func TestVerifyShapeRisk(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	for i := range 40 {
		o.Observe(URL{Raw: fmt.Sprintf("http://docs.example.org/v1/guide/topic-%d.html", i)}, uint64(2*i+1))
		o.Observe(URL{Raw: fmt.Sprintf("http://docs.example.org/latest/guide/topic-%d.html", i)}, uint64(2*i+1))
		o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, uint64(2*i+2))
		o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&ref=%d", i, 1000+7*i)}, uint64(2*i+2))
	}
	o.RelearnAll()
	checks := func(url string) int {
		n := 0
		for i := range 1000 {
			k, _ := o.Key(fmt.Sprintf(url, 100+i))
			if !k.Rewritten() {
				t.Fatalf("%s: no rule", k.in)
			}
			if o.Verify(k) {
				n++
				o.Confirm(k, true)
			}
		}
		return n
	}
	risky, plain := checks("http://docs.example.org/latest/guide/topic-%d.html"), checks("http://shop.example.com/item?id=%d&ref=1")
	if risky <= plain || plain > 40 {
		t.Errorf("checks of 1000 uses: %d of the tree rule, %d of the parameter rule; want more of the first, at most 40 of the second", risky, plain)
	}
	t.Logf("checks of 1000 uses: risky %d, plain %d", risky, plain)
}

// dirSite is a site whose directories are served at /d<i>/ and /d<i>/index.html: one page for
// the first 12, two pages after that, a listing and an index page.
// The index URL comes first: the rule that deletes index.html makes its key, and the
// directory URL, which no rule rewrites, collides with it.
func dirSite() []visit {
	var vs []visit
	for i := range 80 {
		idx, dir := 2*i+1, 2*i+1
		if i >= 12 {
			dir = 2*i + 2
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://www.example.net/d%d/index.html", i), idx},
			visit{fmt.Sprintf("http://www.example.net/d%d/", i), dir})
	}
	return vs
}

// indexSite is a static host whose directories are linked as /s/d<i>/index.html and then
// /s/d<i>/, the two one page except for a directory that is a listing of its own, another
// page than its index.html, which nothing in the URLs tells apart. Among its first URLs are
// unlinked index.html files (/s/u<i>/index.html, whose directory is never linked), so that
// the rule that deletes index.html covers many URLs and few pairs: pairs directories linked
// both ways come first, with a listing at trap (none if negative), then directories of which
// one in every is a listing.
func indexSite(unlinked, pairs, trap, every int) []visit {
	var vs []visit
	dir := func(i int, listing bool) {
		idx, d := 2*i+1, 2*i+1
		if listing {
			d = 2*i + 2
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://files.example.net/s/d%d/index.html", i), idx},
			visit{fmt.Sprintf("http://files.example.net/s/d%d/", i), d})
	}
	for i := range max(unlinked, pairs) {
		if i < unlinked {
			vs = append(vs, visit{fmt.Sprintf("http://files.example.net/s/u%d/index.html", i), 1000 + i})
		}
		if i < pairs {
			dir(i, i == trap)
		}
	}
	for i := pairs; i < pairs+120; i++ {
		dir(i, i%every == 1)
	}
	return vs
}

// unlinkedSite is an indexSite whose 12 first pairs have a listing among them, and one
// directory in four after them is a listing: the rule's training precision is high, the
// unlinked files counted, and its fetched pairs show the listing.
func unlinkedSite() []visit { return indexSite(60, 12, 3, 4) }

// literalSite is an indexSite whose rule is learned on 10 directories, all one page, and one
// directory in four after them is a listing; its host has served files whose names differ
// only in case (/s/f<i>/README.html and /s/f<i>/readme.html) as other pages.
func literalSite() []visit { return caseSite(true, indexSite(12, 10, -1, 4)) }

// caseSite returns vs after three pairs of files whose names differ only in case, two pages
// each if other, one page each if not.
func caseSite(other bool, vs []visit) []visit {
	var out []visit
	for i := range 3 {
		b := 5000 + 2*i
		if other {
			b++
		}
		out = append(out,
			visit{fmt.Sprintf("http://files.example.net/s/f%d/README.html", i), 5000 + 2*i},
			visit{fmt.Sprintf("http://files.example.net/s/f%d/readme.html", i), b})
	}
	return append(out, vs...)
}

// schemeSite is a literalSite whose first 12 directories are met under http and https, the
// index file and the directory, four URLs of one page each, and whose directories after them
// are met under http only, one in four a listing: counted once per URL, its fetched pairs
// would pass the 20 clean directories that the rule must show on such a host.
func schemeSite() []visit {
	var vs []visit
	for i := range 132 {
		idx, d := 2*i+1, 2*i+1
		if i >= 12 && i%4 == 1 {
			d = 2*i + 2
		}
		schemes := []string{"http"}
		if i < 12 {
			schemes = append(schemes, "https")
		}
		for _, sc := range schemes {
			vs = append(vs,
				visit{fmt.Sprintf("%s://files.example.net/s/d%d/index.html", sc, i), idx},
				visit{fmt.Sprintf("%s://files.example.net/s/d%d/", sc, i), d})
		}
	}
	return caseSite(true, vs)
}

// TestDirCleanFoldingHost checks that a host that serves paths differing only in case as one
// page pays no check for the clean directories that a host serving them as other pages must
// show before its directory cut is trusted.
func TestDirCleanFoldingHost(t *testing.T) {
	got := crawl(NewOnline(OnlineOptions{}), caseSite(false, indexSite(12, 10, -1, 1000)))
	lit := crawl(NewOnline(OnlineOptions{}), caseSite(true, indexSite(12, 10, -1, 1000)))
	if lit.checks <= got.checks {
		t.Errorf("checks on a host that tells case apart %+v, on one that folds it %+v: want more", lit, got)
	}
	turnOff(t, &ablate.NoDirClean)
	if without := crawl(NewOnline(OnlineOptions{}), caseSite(false, indexSite(12, 10, -1, 1000))); got.checks != without.checks || got.lost > 0 {
		t.Errorf("checks %+v, without the check of clean directories %+v: want as many, no page lost", got, without)
	}
}

// TestVerifyKept checks that the rule that made the key of the kept URL is verified: the
// directory URL met is rewritten by no rule, and only the rule applied to the kept index URL
// made the two keys equal.
func TestVerifyKept(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	for _, v := range dirSite()[:24] {
		o.Observe(URL{Raw: v.url}, uint64(v.page))
	}
	o.RelearnAll()
	kept, _ := o.Key("http://www.example.net/d99/index.html")
	k, _ := o.Key("http://www.example.net/d99/")
	if !kept.Rewritten() || k.Rewritten() || k.Key != kept.Key {
		t.Fatalf("keys %+v and %+v: want the index URL rewritten to the directory URL", kept, k)
	}
	if o.Verify(k) {
		t.Errorf("Verify of a key no rule made asks for a check")
	}
	if !o.VerifyMatch(k, kept) {
		t.Errorf("VerifyMatch does not check the first use of the rule that made the kept key")
	}
	o.ConfirmMatch(k, kept, false)
	if got, _ := o.Normalize("http://www.example.net/d99/index.html"); got != "http://www.example.net/d99/index.html" {
		t.Errorf("after a mismatch the index URL still has the key %q", got)
	}

	got := crawl(NewOnline(OnlineOptions{}), dirSite())
	turnOff(t, &ablate.NoKept)
	without := crawl(NewOnline(OnlineOptions{}), dirSite())
	if got.lost > 5 || without.lost < got.lost+20 {
		t.Errorf("pages lost: %+v verifying the kept side, %+v without; want at most 5, and 20 more without", got, without)
	}
	t.Logf("verifying the kept side %+v, without %+v", got, without)
}

// TestVerifyDecisive checks that a check informs only the rules decisive for the match: the
// kept URL www.p.example.org/u7/friends-x700q300 has the key p.example.org/u7/friends by the www rule
// and the rule that cuts the random suffix, the URL met p.example.org/u7/friends-x700q300 by the
// suffix rule alone; without the suffix rule both keys would still be equal, so a check of the
// pair says nothing of it, and only the www rule is confirmed.
func TestVerifyDecisive(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	for i := range 40 {
		page := uint64(i + 1)
		o.Observe(URL{Raw: fmt.Sprintf("http://p.example.org/u%d/friends", i)}, page)
		o.Observe(URL{Raw: fmt.Sprintf("http://p.example.org/u%d/friends-x%dq%d", i, 7*i, 3*i)}, page)
		o.Observe(URL{Raw: fmt.Sprintf("http://www.p.example.org/u%d/friends", i)}, page)
		o.Observe(URL{Raw: fmt.Sprintf("http://p.example.org/u%d/album", i)}, 100+page)
		o.Observe(URL{Raw: fmt.Sprintf("http://www.p.example.org/u%d/album", i)}, 100+page)
	}
	o.RelearnAll()
	kept, _ := o.Key("http://www.p.example.org/u7/friends-x700q300")
	k, _ := o.Key("http://p.example.org/u7/friends-x700q300")
	if len(kept.used) != 2 || len(k.used) != 1 || k.Key != kept.Key {
		t.Fatalf("keys %+v and %+v: want the www and suffix rules on the first, the suffix rule on the second", kept, k)
	}
	counts := func() (www, suffix int64) {
		for _, i := range kept.used {
			c := kept.ver.uses[i].checks.Load()
			if i == k.used[0] {
				suffix = c
			} else {
				www = c
			}
		}
		return
	}
	o.ConfirmMatch(k, kept, true)
	if www, suffix := counts(); www != 1 || suffix != 0 {
		t.Errorf("checks after a confirmed match: www rule %d, suffix rule %d; want 1, 0", www, suffix)
	}
	turnOff(t, &ablate.NoDecisive)
	o.ConfirmMatch(k, kept, true)
	if www, suffix := counts(); www != 2 || suffix != 1 {
		t.Errorf("checks without decisiveness: www rule %d, suffix rule %d; want 2, 1", www, suffix)
	}
}

// iisSite is an IIS host that ignores the case of its paths in its /Shop/ tree, each page
// linked in three letter cases, and not in its /go/ tree of short links, met after the first
// 20 items: one code in eight has a case variant that is another page, the third among them
// (so that the checks of the first uses in the /go/ tree meet one, not the sampling's phase).
func iisSite() []visit {
	var vs []visit
	item := func(i int) {
		p := fmt.Sprintf("/Shop/Item%d/Detail.aspx", i)
		vs = append(vs,
			visit{"http://www.iis.example" + p, i},
			visit{"http://www.iis.example" + strings.ToUpper(p), i},
			visit{"http://www.iis.example" + strings.ToLower(p), i})
	}
	for i := range 20 {
		item(i)
	}
	for i := range 150 {
		page := 1000 + 2*i
		other := page
		if i%8 == 2 {
			other = page + 1
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://www.iis.example/go/aB%dxQ", i), page},
			visit{fmt.Sprintf("http://www.iis.example/go/Ab%dXq", i), other})
		item(20 + i)
	}
	return vs
}

// TestVerifyEditMemory checks that a mismatch that retracts a rule raises the checks of a rule
// of the same site with the same edit (the /print/ segment dropped, in another context): a use
// that its clean record and earlier confirmation would leave unchecked is checked.
func TestVerifyEditMemory(t *testing.T) {
	drop := func(section string) rules.Rule {
		return rules.Rule{Scope: rules.Scope{Host: "www.news.example"},
			Context: rules.Context{
				{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, Op: rules.Equal, Value: "print"},
				{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 2}, Op: rules.Equal, Value: section}},
			Transform: rules.Transformation{{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, Op: rules.Delete}},
			Stats:     rules.Stats{Coverage: 200, Precision: 1}}
	}
	resumed := false
	run := func() bool {
		o := NewOnline(OnlineOptions{})
		set, err := rules.NewSet([]rules.Rule{drop("arts"), drop("world")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := handVersion(o, "www.news.example", set)
		use := func(section string, n int, same bool) bool {
			k, err := v.key(fmt.Sprintf("http://www.news.example/print/%s/%d/story", section, n))
			if err != nil || len(k.used) == 0 {
				t.Fatalf("key of a %s story: %+v, %v", section, k, err)
			}
			kept, _ := v.key(fmt.Sprintf("http://www.news.example/%s/%d/story", section, n))
			check := o.VerifyMatch(k, kept)
			if check {
				o.ConfirmMatch(k, kept, same)
			}
			return check
		}
		use("world", 1, true) // its first use, checked and confirmed
		use("arts", 2, false) // the other rule's first use: a mismatch retracts it
		if resumed {
			// Saved and loaded into a new learner: the memory of the failed edit goes too.
			var b bytes.Buffer
			if _, err := o.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			o = NewOnline(OnlineOptions{})
			if _, err := o.ReadFrom(&b); err != nil {
				t.Fatal(err)
			}
			v.site = o.site("www.news.example", false)
			if v.site == nil {
				t.Fatal("the loaded learner has no site www.news.example")
			}
		}
		return use("world", 3, true)
	}
	for _, resumed = range []bool{false, true} {
		if !run() {
			t.Errorf("resumed %v: the use after the mismatch of a rule of the same edit is not checked", resumed)
		}
	}
	turnOff(t, &ablate.NoEditMemory)
	if run() {
		t.Errorf("without the memory of edits, the use is checked: the test shows nothing")
	}
}

// TestRecheck checks that a check asked for and not made yet is still due until checks made
// since answer it: the rule's first uses checked (VerifyFirst), a check in the key's context,
// and, for a sample that the credit alone asked for, a check made after it.
func TestRecheck(t *testing.T) {
	turnOff(t, &ablate.NoBound)
	o := NewOnline(OnlineOptions{VerifyFirst: 2, VerifyEvery: 4})
	tParamSite(o, 40)
	key := func(u string) Key {
		k, err := o.Key(u)
		if err != nil || !k.Rewritten() {
			t.Fatalf("Key(%q) = %+v, %v; want t deleted by a rule", u, k, err)
		}
		return k
	}
	a, b := key("http://shop.example.com/item?id=3&t=99"), key("http://shop.example.com/item?id=4&t=98")
	for _, step := range []struct {
		what string
		do   func()
		want [2]bool // Recheck of a and b
	}{
		{"both asked", func() {
			if !o.VerifyMatch(a, Key{}) || !o.VerifyMatch(b, Key{}) {
				t.Fatalf("first uses not asked for")
			}
		}, [2]bool{true, true}},
		{"a checked", func() { o.ConfirmMatch(a, Key{}, true) }, [2]bool{true, true}},
		{"b checked", func() { o.ConfirmMatch(b, Key{}, true) }, [2]bool{false, false}},
	} {
		step.do()
		if got := [2]bool{o.Recheck(a, Key{}), o.Recheck(b, Key{})}; got != step.want {
			t.Errorf("%s: Recheck of a, b = %v, want %v", step.what, got, step.want)
		}
	}
	// Uses 3 to 6: the 6th is asked for by the credit (1 in 4) alone, and stays due until a
	// check is made.
	var asked []bool
	for range 4 {
		asked = append(asked, o.VerifyMatch(b, Key{}))
	}
	if fmt.Sprint(asked) != "[false false false true]" {
		t.Fatalf("VerifyMatch of uses 3 to 6 = %v, want the 6th asked for", asked)
	}
	if !o.Recheck(b, Key{}) {
		t.Error("a sample is not due after it was asked for")
	}
	o.ConfirmMatch(a, Key{}, true)
	if o.Recheck(b, Key{}) {
		t.Error("a sample is due after a check was made")
	}

	// t is irrelevant on item and view pages: a use on a view page, the first in its context,
	// is due until a check is made in that context, whatever the checks on item pages.
	o = NewOnline(OnlineOptions{VerifyFirst: 1, VerifyEvery: -1})
	for i := range 40 {
		for j, page := range []string{"item", "view"} {
			fp := uint64(2*i + j + 1)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/%s?id=%d", page, i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/%s?id=%d&t=%d", page, i, 1000+7*i)}, fp)
		}
	}
	o.RelearnAll()
	item, view := key("http://shop.example.com/item?id=3&t=99"), key("http://shop.example.com/view?id=3&t=99")
	if !o.VerifyMatch(item, Key{}) || !o.VerifyMatch(view, Key{}) {
		t.Fatal("first uses in the contexts not asked for")
	}
	o.ConfirmMatch(item, Key{}, true)
	if !o.Recheck(view, Key{}) {
		t.Error("a use in a context without a check is not due after a check in another")
	}
	o.ConfirmMatch(key("http://shop.example.com/view?id=4&t=98"), Key{}, true)
	if o.Recheck(view, Key{}) {
		t.Error("a use in a context is due after a check in it")
	}
}

// TestVerifyOutWithout checks that a rule retracted in a context does not stand in for a rule
// whose decisiveness a check weighs: the deletion of the /print/ prefix was retracted where
// print views are other pages, and a later rule sends the print view to its AMP view, whose
// prefix a confirmed rule deletes. Without the second rule the retracted deletion would make
// the same key, but it makes no key in that context: the second rule is decisive, and a
// mismatch counts against it.
func TestVerifyOutWithout(t *testing.T) {
	seg1 := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}
	rule := func(from string, a rules.Action) rules.Rule {
		a.Key = seg1
		return rules.Rule{Scope: rules.Scope{Host: "www.news.example"},
			Context:   rules.Context{{Key: seg1, Op: rules.Equal, Value: from}},
			Transform: rules.Transformation{a},
			Stats:     rules.Stats{Coverage: 200, Precision: 1}}
	}
	run := func() (toAMPFails int64) {
		o := NewOnline(OnlineOptions{})
		set, err := rules.NewSet([]rules.Rule{
			rule("print", rules.Action{Op: rules.Assign, Value: "amp"}),
			rule("print", rules.Action{Op: rules.Delete}),
			rule("amp", rules.Action{Op: rules.Delete}),
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := handVersion(o, "www.news.example", set)
		const in = "http://www.news.example/print/world/7/story"
		k, err := v.key(in)
		if err != nil || len(k.used) != 2 {
			t.Fatalf("key of the print view: %+v, %v; want the AMP rule and the AMP prefix deleted", k, err)
		}
		toAMP := k.used[0]
		del := -1
		for i := range set.Len() {
			if r := set.Rule(i); r.Transform[0].Op == rules.Delete && r.Context[0].Value == "print" {
				del = i
			}
		}
		v.out = map[int]map[string]bool{del: {contextOf(in, "http://www.news.example/world/7/story", v.words): true}}
		kept, _ := v.key("http://www.news.example/world/7/story")
		if k.Key != kept.Key {
			t.Fatalf("keys %q and %q differ", k.Key, kept.Key)
		}
		o.ConfirmMatch(k, kept, false)
		return v.uses[toAMP].fails.Load()
	}
	if got := run(); got != 1 {
		t.Errorf("failures of the rule that sends print views to AMP views after a mismatch: %d, want 1", got)
	}
	turnOff(t, &ablate.NoOutWithout)
	if got := run(); got != 0 {
		t.Errorf("with retracted rules standing in, the rule is still blamed (%d failures): the test shows nothing", got)
	}
}

// TestVerifyOneSided checks that a check of a match that no single rule makes counts for the
// rules that rewrote one of the two URLs only. A documentation site's rules send /latest to
// /5.0.x, /5.0.x to /4.0.x, and /latest to /4.0.x as well: /latest/X and /5.0.x/X both key as
// /4.0.x/X, and without any one rule they still would. Comparing the two pages tells whether
// /latest is /5.0.x; it says nothing of /5.0.x against /4.0.x, which rewrote both URLs alike.
// Counted as a confirmation, it lets the tree rule go unchecked where the two trees differ.
func TestVerifyOneSided(t *testing.T) {
	seg1 := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}
	rule := func(from, to string, cov int) rules.Rule {
		return rules.Rule{Scope: rules.Scope{Host: "docs.example.org"},
			Context:   rules.Context{{Key: seg1, Op: rules.Equal, Value: from}},
			Transform: rules.Transformation{{Key: seg1, Op: rules.Assign, Value: to}},
			Stats:     rules.Stats{Coverage: cov, Precision: 1}}
	}
	run := func() (latest, tree int64) {
		o := NewOnline(OnlineOptions{})
		set, err := rules.NewSet([]rules.Rule{rule("latest", "5.0.x", 300), rule("5.0.x", "4.0.x", 200), rule("latest", "4.0.x", 100)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := handVersion(o, "docs.example.org", set)
		index := func(from, to string) int {
			for i := range set.Len() {
				if r := set.Rule(i); r.Context[0].Value == from && r.Transform[0].Value == to {
					return i
				}
			}
			t.Fatalf("no rule from %s to %s", from, to)
			return -1
		}
		k, err := v.key("http://docs.example.org/latest/guide/install.html")
		if err != nil {
			t.Fatal(err)
		}
		kept, err := v.key("http://docs.example.org/5.0.x/guide/install.html")
		if err != nil {
			t.Fatal(err)
		}
		if k.Key != kept.Key || k.Key != "http://docs.example.org/4.0.x/guide/install.html" || len(k.used) != 2 {
			t.Fatalf("keys %q and %q (%d rules for the first), want both the /4.0.x page, through /5.0.x", k.Key, kept.Key, len(k.used))
		}
		o.ConfirmMatch(k, kept, true)
		return v.uses[index("latest", "5.0.x")].confirmed.Load(), v.uses[index("5.0.x", "4.0.x")].confirmed.Load()
	}
	if latest, tree := run(); latest != 1 || tree != 0 {
		t.Errorf("confirmations: /latest to /5.0.x %d, /5.0.x to /4.0.x %d; want 1 and 0", latest, tree)
	}
	turnOff(t, &ablate.NoOneSided)
	if _, tree := run(); tree != 1 {
		t.Errorf("with every rule of either key counted, /5.0.x to /4.0.x has %d confirmations: the test shows nothing", tree)
	}
}

// TestVerifyTreeFamily checks that a failure of one rule that maps a release tree onto another
// keeps the site's other tree swaps at that segment checked: /v2 to /stable, confirmed until
// the bound on its error rate let its uses go unchecked, is checked again once /v1 to /stable
// failed on a page that changed between those two trees. A site that changes some pages
// between two of its trees changes some between the others; the clean checks of /v2 may be
// the pages that did not change.
func TestVerifyTreeFamily(t *testing.T) {
	seg1 := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}
	rule := func(from string) rules.Rule {
		return rules.Rule{Scope: rules.Scope{Host: "docs.example.org"},
			Context:   rules.Context{{Key: seg1, Op: rules.Equal, Value: from}},
			Transform: rules.Transformation{{Key: seg1, Op: rules.Assign, Value: "stable"}},
			Stats:     rules.Stats{Coverage: 200, Precision: 1}}
	}
	run := func() (clean int, checked bool) {
		o := NewOnline(OnlineOptions{VerifyEvery: -1})
		set, err := rules.NewSet([]rules.Rule{rule("v1"), rule("v2"), rule("v3")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := handVersion(o, "docs.example.org", set)
		pair := func(tree string, i int) (Key, Key) {
			k, err := v.key(fmt.Sprintf("http://docs.example.org/%s/guide/topic-%d.html", tree, i))
			if err != nil {
				t.Fatal(err)
			}
			kept, err := v.key(fmt.Sprintf("http://docs.example.org/stable/guide/topic-%d.html", i))
			if err != nil || k.Key != kept.Key {
				t.Fatalf("keys %q and %q (%v), want one", k.Key, kept.Key, err)
			}
			return k, kept
		}
		clean = cleanChecks(o, func(i int) (Key, Key) { return pair("v2", i) })
		k, kept := pair("v1", 2000)
		o.VerifyMatch(k, kept)
		o.ConfirmMatch(k, kept, false)
		k, kept = pair("v2", 2001)
		return clean, o.VerifyMatch(k, kept)
	}
	clean, checked := run()
	if clean < 10 || clean >= 1000 {
		t.Fatalf("/v2 to /stable went unchecked after %d clean checks; want its bound to let it go after some", clean)
	}
	if !checked {
		t.Errorf("after %d clean checks of /v2 and a failure of /v1, a use of /v2 is not checked", clean)
	}
	t.Logf("/v2 to /stable unchecked after %d clean checks", clean)
	turnOff(t, &ablate.NoTreeFamily)
	if _, checked := run(); checked {
		t.Error("with a tree swap's failures kept to itself, a use of /v2 is checked after /v1 failed: the test shows nothing")
	}
}

// cleanChecks confirms the matches pair(0), pair(1), ... while VerifyMatch asks to check them,
// and returns how many it asked to check before the first it let go (at most 1000).
func cleanChecks(o *Online, pair func(i int) (Key, Key)) int {
	for i := range 1000 {
		k, kept := pair(i)
		if !o.VerifyMatch(k, kept) {
			return i
		}
		o.ConfirmMatch(k, kept, true)
	}
	return 1000
}

// TestVerifyTreeFamilyOwn: the tally of a site's failed tree swaps holds each swap's own
// failures too, which its counter has already: a swap that failed once, the only failure of its
// family, is checked as a rule with one failure, not two. Seen fail with the failure counted
// twice (about 95 checks in all rather than 68).
func TestVerifyTreeFamilyOwn(t *testing.T) {
	seg1 := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}
	var rs []rules.Rule
	for _, from := range []string{"v1", "v2", "v3"} {
		rs = append(rs, rules.Rule{Scope: rules.Scope{Host: "docs.example.org"},
			Context:   rules.Context{{Key: seg1, Op: rules.Equal, Value: from}},
			Transform: rules.Transformation{{Key: seg1, Op: rules.Assign, Value: "stable"}},
			Stats:     rules.Stats{Coverage: 200, Precision: 1}})
	}
	set, err := rules.NewSet(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := handVersion(NewOnline(OnlineOptions{}), "docs.example.org", set)
	p := v.prior[1]
	if p.tree == "" {
		t.Fatal("/v2 to /stable is no tree swap of the site")
	}
	n, _ := v.site.treeFails.LoadOrStore(p.tree, new(atomic.Int64))
	n.(*atomic.Int64).Add(1) // its own failure
	if !boundHigh(v, p, 40, 1) {
		t.Error("after a failure and 40 checks, a use of the tree swap is not checked")
	}
	if boundHigh(v, p, 70, 1) {
		t.Error("after a failure and 70 checks, a use of the tree swap is checked: its failure counts twice")
	}
	n.(*atomic.Int64).Add(1) // a failure of another swap of the family
	if !boundHigh(v, p, 70, 1) {
		t.Error("after a failure of its own and one of another swap, the tree swap goes unchecked at 70 checks")
	}
}

// TestVerifyVersionSwap checks the rules of a repository browser whose files are named by
// commit, /file?name=F&ci=<commit>: rules that map the files of one commit onto the branch's
// head (ci=<commit> deleted) are tree swaps whose trees are commits (versionSwap), and so is the
// rule that deletes ci whatever its value, the widest swap (labelRewrite). Once one commit's
// swap failed on a file that changed since, a use of the wholesale deletion is checked again,
// as a tree swap of that family is; with versionSwap off, the deletion is a rule of no shape,
// unchecked once its first uses passed. Seen fail with labelRewrite returning "": the
// wholesale deletion, unchecked after its first uses, lost every changed file it met (Fossil's
// /file pages in the site families).
func TestVerifyVersionSwap(t *testing.T) {
	ci := urlnorm.Key{Part: urlnorm.PartQuery, Name: "ci"}
	name := urlnorm.Key{Part: urlnorm.PartQuery, Name: "name"}
	scope := rules.Scope{Host: "code.example.org"}
	del := rules.Transformation{{Key: ci, Op: rules.Delete}}
	stats := rules.Stats{Coverage: 200, Precision: 1}
	run := func() (clean int, checked bool, tree string) {
		o := NewOnline(OnlineOptions{VerifyEvery: -1})
		var rs []rules.Rule
		for _, c := range []string{"4a529eebdf", "7993b077cb"} {
			rs = append(rs, rules.Rule{Scope: scope, Transform: del, Stats: stats,
				Context: rules.Context{{Key: ci, Op: rules.Equal, Value: c}, {Key: name, Op: rules.Any}}})
		}
		rs = append(rs, rules.Rule{Scope: scope, Transform: del, Stats: stats,
			Context: rules.Context{{Key: ci, Op: rules.Any}, {Key: name, Op: rules.Any}}})
		set, err := rules.NewSet(rs, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := handVersion(o, "code.example.org", set)
		pair := func(commit string, i int) (Key, Key) {
			k, err := v.key(fmt.Sprintf("http://code.example.org/file?name=src/f%d.c&ci=%s", i, commit))
			if err != nil {
				t.Fatal(err)
			}
			kept, err := v.key(fmt.Sprintf("http://code.example.org/file?name=src/f%d.c", i))
			if err != nil || k.Key != kept.Key || len(k.used) != 1 {
				t.Fatalf("keys %q and %q (%v, rules %v), want one by one rule", k.Key, kept.Key, err, k.used)
			}
			return k, kept
		}
		k, _ := pair("c07b5e11aa", 0)
		tree = v.prior[k.used[0]].tree
		clean = cleanChecks(o, func(i int) (Key, Key) { return pair(fmt.Sprintf("c07b%06x", i), i) })
		k, kept := pair("4a529eebdf", 2000)
		o.VerifyMatch(k, kept)
		o.ConfirmMatch(k, kept, false)
		k, kept = pair("9dcf6c8d73", 2001)
		return clean, o.VerifyMatch(k, kept), tree
	}
	clean, checked, tree := run()
	if tree != "tree code.example.org query(ci)" {
		t.Errorf("the deletion of ci whatever its value is in tree family %q", tree)
	}
	if clean < 10 || clean >= 1000 || !checked {
		t.Errorf("the deletion of ci: unchecked after %d clean checks; checked after a commit's swap failed: %v; want at least 10, and checked", clean, checked)
	}
	t.Logf("the deletion of ci unchecked after %d clean checks", clean)
	turnOff(t, &ablate.NoVersionSwap)
	if clean, checked, _ := run(); checked || clean >= 10 {
		t.Errorf("with versionSwap off, the deletion of ci is unchecked after %d clean checks and checked after a failure: %v; the test shows nothing", clean, checked)
	}
}

// releaseSite is a documentation site that serves its guide under three release trees, /v1,
// /v2 and /stable: the three are one page for the first 40 topics, from which rules mapping two
// trees onto the third are learned, and after that one topic in 10 changed between v1 and v2,
// and another between v2 and stable, which nothing in the URLs tells apart.
func releaseSite() []visit {
	var vs []visit
	for i := range 300 {
		old, mid, stable := 4*i+1, 4*i+1, 4*i+1
		if i >= 40 && i%10 == 3 {
			old = 4*i + 2
		}
		if i >= 40 && i%10 == 7 {
			old, mid = 4*i+3, 4*i+3
		}
		vs = append(vs,
			visit{fmt.Sprintf("http://docs.example.org/v1/guide/topic-%d.html", i), old},
			visit{fmt.Sprintf("http://docs.example.org/v2/guide/topic-%d.html", i), mid},
			visit{fmt.Sprintf("http://docs.example.org/stable/guide/topic-%d.html", i), stable})
	}
	return vs
}

// namedExpiredSite is an expiredSite whose items are named by letters alone,
// /item/<name>?from=<code>: their URLs carry no identifier with a digit.
func namedExpiredSite() []visit {
	syl := []string{"ka", "lo", "mi", "ra", "te", "vu", "no", "sa", "be", "di"}
	return expiredLinks(func(i int, code string) string {
		return fmt.Sprintf("http://shop.example.com/item/%s%s%s?from=%s", syl[i%10], syl[i/10%10], syl[i/100%10], code)
	})
}

// sessionExpiredSite is an expiredSite whose links carry a servlet session,
// /item/<i>;jsessionid=<code>, which the static key cuts: no rule makes its matches.
func sessionExpiredSite() []visit {
	return expiredLinks(func(i int, code string) string {
		return fmt.Sprintf("http://shop.example.com/item/%d;jsessionid=%s", i, strings.ToUpper(code))
	})
}

// expiredSite is a site whose item pages are linked with a parameter from that does not
// matter, /item/<i>?from=<code>. After the first 100 items, one item in 10 is first linked with
// a code that has expired, which serves the site's one "your session has expired" page; its
// own links come after all the others, with the key of the expired link.
func expiredSite() []visit {
	return expiredLinks(func(i int, code string) string {
		return fmt.Sprintf("http://shop.example.com/item/%d?from=%s", i, code)
	})
}

// expiredLinks returns the visits of an expiredSite whose links link makes from an item and a
// code.
func expiredLinks(link func(i int, code string) string) []visit {
	const expired = 1 << 20
	var vs, late []visit
	for i := range 300 {
		a, b := visit{link(i, fmt.Sprintf("a%dz", 3*i+100)), i + 1}, visit{link(i, fmt.Sprintf("b%dz", 5*i+100)), i + 1}
		if i >= 100 && i%10 == 3 {
			vs = append(vs, visit{link(i, fmt.Sprintf("x%dq", 7*i+1000)), expired})
			late = append(late, a, b)
			continue
		}
		vs = append(vs, a, b)
	}
	return append(vs, late...)
}

// handVersion returns a version of site host of o with the rules of set, made by hand rather
// than learned, with fresh counters.
func handVersion(o *Online, host string, set *rules.Set) *siteVersion {
	v := &siteVersion{site: o.site(host, true), set: set, uses: make([]*ruleCounter, set.Len()), prior: priors(set)}
	for i := range v.uses {
		v.uses[i] = &ruleCounter{}
	}
	return v
}

// staleSessionSite is a site that keeps sessions in a path segment, /sid/<hex>/item/<i>, two
// sessions an item, and links every other item without a session too. From the 61st item on,
// one item in 8 is linked first with a session that has expired, which serves the site's one
// "your session has expired" page (the item's own links come after all the others), and after
// one item in 3 the item before it is linked again with an expired session: a check of such a
// link finds that it served another page than the item.
func staleSessionSite() []visit {
	const expired = 1 << 20
	sid := func(what string, i int) string {
		return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(what, i))))[:16]
	}
	link := func(session string, i int) string {
		return fmt.Sprintf("http://app.example.net/sid/%s/item/%d", session, 1000+i)
	}
	var vs, late []visit
	for i := range 400 {
		own := []visit{{link(sid("a", i), i), i + 1}, {link(sid("b", i), i), i + 1}}
		if i%2 == 0 {
			own = append(own, visit{fmt.Sprintf("http://app.example.net/item/%d", 1000+i), i + 1})
		}
		if i >= 60 && i%8 == 3 {
			vs = append(vs, visit{link(sid("x", i), i), expired})
			late = append(late, own...)
			continue
		}
		vs = append(vs, own...)
		if i >= 60 && i%3 == 0 {
			vs = append(vs, visit{link(sid("y", i), i-1), expired})
		}
	}
	return append(vs, late...)
}

// TestExonerate checks that a mismatch whose URL served the site's error page ("your session
// has expired", which the crawl fetches under unrelated URLs) stops counting against the rules
// it blamed once the page proves an error page: the rule that cuts the session from the path
// is published again and skips the items' other session links. Seen fail with
// ablate.NoExonerate: the rule stays retracted and the crawl fetches every session link.
func TestExonerate(t *testing.T) {
	run := func() (crawlResult, OnlineStats) {
		o := NewOnline(OnlineOptions{})
		return crawl(o, staleSessionSite()), o.Stats()
	}
	got, st := run()
	turnOff(t, &ablate.NoExonerate)
	without, stWithout := run()
	t.Logf("with exoneration %+v %+v\nwithout %+v %+v", got, st, without, stWithout)
	if got.lost != 0 || without.lost != 0 {
		t.Errorf("pages lost %d with exoneration, %d without: want 0", got.lost, without.lost)
	}
	if st.Mismatches == 0 || st.Reinstated == 0 {
		t.Errorf("%d mismatches, %d retractions undone: want some of each", st.Mismatches, st.Reinstated)
	}
	if stWithout.Reinstated != 0 {
		t.Errorf("%d retractions undone with exoneration off", stWithout.Reinstated)
	}
	if got.fetches+100 > without.fetches {
		t.Errorf("%d fetches with exoneration, %d without: want 100 fewer at least", got.fetches, without.fetches)
	}
}
