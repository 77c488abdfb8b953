package learn

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// aliasClusters is a site served on https://www.s.org whose pages are also linked on two
// aliases, each cluster holding the main origin and one of them: http://www.s.org (shorter
// than the main origin) or https://s.org (shorter still). Shorter-first target selection
// picks http://www in the first clusters and https://s.org in the others, and the rules learned
// from the two send the main origin's URLs to two keys.
func aliasClusters() []Cluster {
	var cls []Cluster
	for i := range 40 {
		alias := "http://www.s.org"
		if i%2 == 1 {
			alias = "https://s.org"
		}
		cls = append(cls, Cluster{ID: fmt.Sprintf("s-p%d", i), Site: "s", URLs: []URL{
			{Raw: fmt.Sprintf("https://www.s.org/p/%d", i)},
			{Raw: fmt.Sprintf("%s/p/%d", alias, i)},
		}})
	}
	for i := 100; i < 160; i++ {
		cls = append(cls, Cluster{ID: fmt.Sprintf("s-p%d", i), Site: "s", URLs: []URL{{Raw: fmt.Sprintf("https://www.s.org/p/%d", i)}}})
	}
	return cls
}

// TestAliasOrigin checks that the URLs of one unseen page on the main origin and its two
// aliases get one key: every cluster selects the main alias as its target.
func TestAliasOrigin(t *testing.T) {
	set, _, err := Learn(aliasClusters(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"https://www.s.org/p/999", // the main origin
		"http://www.s.org/p/999",  // an alias, shorter
		"https://s.org/p/999",     // the other alias, shorter still
	} {
		if got, err := set.Normalize(in); err != nil || got != "https://www.s.org/p/999" {
			t.Errorf("Normalize(%q) = %q, %v; want the main origin's https://www.s.org/p/999", in, got, err)
		}
	}
}

// supportClusters is a site on http://t.org with a few pages also linked on http://www.t.org,
// each in a cluster of its own, and a search whose every term gave one "nothing found" page
// (one cluster of many s= values). Both rules are without error on the training clusters and
// cover few URLs: the www rule's uses are pages of their own, the search rule's one page.
func supportClusters() []Cluster {
	var cls []Cluster
	for i := range 6 {
		cls = append(cls, Cluster{ID: fmt.Sprintf("t-a%d", i), Site: "t", URLs: []URL{
			{Raw: fmt.Sprintf("http://t.org/a/%d", i)},
			{Raw: fmt.Sprintf("http://www.t.org/a/%d", i)},
		}})
	}
	for i := 100; i < 140; i++ {
		cls = append(cls, Cluster{ID: fmt.Sprintf("t-a%d", i), Site: "t", URLs: []URL{{Raw: fmt.Sprintf("http://t.org/a/%d", i)}}})
	}
	none := Cluster{ID: "t-none", Site: "t"}
	for i := range 13 {
		none.URLs = append(none.URLs, URL{Raw: fmt.Sprintf("http://t.org/find?s=term%d", i)})
	}
	return append(cls, none)
}

// TestClusterSupport checks that a rule without error whose few uses lie in several clusters
// is selected, and one whose uses lie in one cluster is not.
func TestClusterSupport(t *testing.T) {
	normalizes(t, supportClusters(), []struct{ in, want string }{
		{"http://www.t.org/a/77", "http://t.org/a/77"},                 // www rule: 6 uses in 6 clusters
		{"http://t.org/find?s=term77", "http://t.org/find?s=term77"},   // search rule: 13 uses in 1 cluster
		{"http://t.org/find?s=other42", "http://t.org/find?s=other42"}, // ... so s stays
	})
}

// postClusters is a Discourse-style forum: a post number after the topic's path names the
// topic's first page for posts 1 and 2 and its second page (?page=2) for post 3. Deleting the
// post number whatever it is merges the second pages with the first, so the rule is split on
// the post number; each part stands on 8 uses, each in a topic of its own.
func postClusters() []Cluster {
	var cls []Cluster
	for i := range 8 {
		topic := fmt.Sprintf("http://f.org/t/topic-%c/%d", 'a'+i, 100+i)
		cls = append(cls,
			Cluster{ID: fmt.Sprintf("f-%d-1", i), Site: "f", URLs: []URL{{Raw: topic}, {Raw: topic + "/1"}, {Raw: topic + "/2"}}},
			Cluster{ID: fmt.Sprintf("f-%d-2", i), Site: "f", URLs: []URL{{Raw: topic + "?page=2"}, {Raw: topic + "/3"}}})
	}
	return cls
}

// TestClusterSupportSplits checks that the rules of a split keep their training precision when
// their uses lie in several clusters.
func TestClusterSupportSplits(t *testing.T) {
	normalizes(t, postClusters(), []struct{ in, want string }{
		{"http://f.org/t/topic-z/999/1", "http://f.org/t/topic-z/999"}, // post 1: the first page
		{"http://f.org/t/topic-z/999/2", "http://f.org/t/topic-z/999"}, // post 2: the first page
	})
}

// indexClusters is a DokuWiki whose index opened at a page (do=index&id=ns:page) is one page
// per namespace ns: the training clusters hold one namespace's index, reached from 24 of its
// pages, beside pages of three namespaces.
func indexClusters() []Cluster {
	var cls []Cluster
	for i := range 90 {
		id := fmt.Sprintf("%s:page%d", []string{"alpha", "beta", "gamma"}[i%3], i)
		cls = append(cls, Cluster{ID: fmt.Sprintf("w-%d", i), Site: "w", URLs: []URL{
			{Raw: "http://w.org/doku.php?id=" + id},
			{Raw: "http://w.org/doku.php/" + id},
		}})
	}
	index := Cluster{ID: "w-index-alpha", Site: "w"}
	for i := 0; i < 72; i += 3 {
		index.URLs = append(index.URLs, URL{Raw: fmt.Sprintf("http://w.org/doku.php?id=alpha:page%d&do=index", i)})
	}
	return append(cls, index)
}

// TestSharedDeep checks that the index of one namespace does not teach that the id of every
// index URL is irrelevant: the indexes of two namespaces keep two keys.
func TestSharedDeep(t *testing.T) {
	set, _, err := Learn(indexClusters(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := set.Normalize("http://w.org/doku.php?id=alpha:page99&do=index")
	if err != nil {
		t.Fatal(err)
	}
	b, err := set.Normalize("http://w.org/doku.php?id=beta:page98&do=index")
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Errorf("the indexes of namespaces alpha and beta have one key %q", a)
	}
}

// TestRounds: every link to the bare host carries a session id, so that no URL of the bare host
// matches the main origin's URL of its page until the session id is deleted: the origin map
// finds the alias in a second round, on the URLs the token parameters rewrote, and a page
// type never seen on the bare host is keyed on the main origin too. Targets are ranked by
// structure alone here (ablate.NoOriginRank): ranked by origin, the session links' targets are
// on the main origin from the first round.
func TestRounds(t *testing.T) {
	turnOff(t, &ablate.NoOriginRank)
	run := func(t *testing.T) string {
		o := NewOnline(OnlineOptions{})
		sid := 0
		next := func() string { sid++; return fmt.Sprintf("%08x", uint32(sid)*2654435761) }
		for i := range 14 {
			fp := uint64(100 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.x.example/item?id=%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.x.example/item?id=%d&sid=%s", i, next())}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://x.example/item?id=%d&sid=%s", i, next())}, fp)
			fp = uint64(200 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.x.example/board/%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.x.example/board/%d?sid=%s", i, next())}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://x.example/board/%d?sid=%s", i, next())}, fp)
		}
		o.RelearnAll()
		k, err := o.Key("https://x.example/news/7.html")
		if err != nil {
			t.Fatal(err)
		}
		return k.Key
	}
	if got, want := run(t), "https://www.x.example/news/7.html"; got != want {
		t.Errorf("a page type never seen on the bare host: key %q, want %q", got, want)
	}
	turnOff(t, &ablate.NoRounds)
	if got := run(t); got == "https://www.x.example/news/7.html" {
		t.Errorf("with one round, the bare host was mapped to the main origin all the same: the test shows nothing")
	}
}
