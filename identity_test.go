package undust

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// blog returns a hand-made blog marked up as WordPress marks up its listings, and the paths of
// its listing pages: 60 posts, and listings of their excerpts, newest first, 10 a page, of the
// home page (/, /page/N/) and of three tags (/tag/T/, /tag/T/page/N/); a post of the tag
// versions has no other tag. As WordPress does, the
// body of a tag's listing has the class tag-T and each post's entry a class tag-T for each of
// its tags; one tag is "versions", a word that marks page furniture (a list of a document's
// versions) in a class. htmltext.Site's extraction then drops every entry of that tag's listing
// pages, and what it leaves of each is the same heading, "Tag: versions"; the extraction by the
// page's own markup keeps them, since the body names the page.
func blog() (*handMade, []string) {
	const posts, perPage = 60, 10
	s := &handMade{pages: map[string]string{}}
	tags := []struct {
		name string
		has  func(i int) bool
	}{
		{"versions", func(i int) bool { return i%4 != 3 }},
		{"examples", func(i int) bool { return i%4 == 3 }},
		{"notes", func(i int) bool { return i%8 == 3 }},
	}
	postPath := func(i int) string { return fmt.Sprintf("/2024/%02d/post-%d/", 1+i%12, i) }
	title := func(i int) string { return "Entry " + prose(1000+i, 4) }
	excerpt := func(i int) string { return prose(2000+i, 40) }
	classes := func(i int) string {
		var b strings.Builder
		for _, t := range tags {
			if t.has(i) {
				b.WriteString(" tag-" + t.name)
			}
		}
		return b.String()
	}
	const chrome = `<header><a href="/">Library notes</a><nav><a href="/">Home</a> <a href="/about/">About</a></nav></header>`
	const footer = `<footer><p>Proudly powered by a blog engine.</p></footer></body></html>`
	var lists []string
	listing := func(base, name, heading, bodyClass string, has func(int) bool) {
		var ids []int
		for i := posts - 1; i >= 0; i-- {
			if has(i) {
				ids = append(ids, i)
			}
		}
		for k := 0; k*perPage < len(ids); k++ {
			p, pageName := base, name
			if k > 0 {
				p, pageName = fmt.Sprintf("%spage/%d/", base, k+1), fmt.Sprintf("%s &#8211; Page %d", name, k+1)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "<html><head><title>%s &#8211; Library notes</title></head><body class=%q>%s", pageName, bodyClass, chrome)
			fmt.Fprintf(&b, `<main class="wp-block-group"><h1 class="wp-block-query-title">%s</h1><div class="wp-block-query"><ul class="wp-block-post-template">`, heading)
			for _, i := range ids[k*perPage : min(len(ids), (k+1)*perPage)] {
				fmt.Fprintf(&b, `<li class="wp-block-post post-%d post hentry%s"><h2 class="wp-block-post-title"><a href=%q>%s</a></h2>`+
					`<div class="wp-block-post-excerpt"><p class="wp-block-post-excerpt__excerpt">%s [&hellip;]</p></div>`+
					`<div class="wp-block-post-date"><time><a href=%q>2024-%02d-01</a></time></div></li>`,
					i, classes(i), postPath(i), title(i), excerpt(i), postPath(i), 1+i%12)
			}
			b.WriteString(`</ul><nav class="wp-block-query-pagination">`)
			if k > 0 {
				fmt.Fprintf(&b, `<a href=%q>Newer Posts</a> `, strings.TrimSuffix(fmt.Sprintf("%spage/%d/", base, k), "page/1/"))
			}
			if (k+1)*perPage < len(ids) {
				fmt.Fprintf(&b, `<a href="%spage/%d/">Older Posts</a>`, base, k+2)
			}
			b.WriteString(`</nav></div></main>` + footer)
			s.pages[p] = b.String()
			lists = append(lists, p)
		}
	}
	listing("/", "Library notes", "Latest posts", "home blog", func(int) bool { return true })
	for _, t := range tags {
		listing("/tag/"+t.name+"/", t.name, "Tag: <span>"+t.name+"</span>", "archive tag tag-"+t.name, t.has)
	}
	for i := range posts {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>%s &#8211; Library notes</title></head><body>%s", title(i), chrome)
		fmt.Fprintf(&b, `<main><article><h1>%s</h1><p>%s</p><p>%s</p><p>Tags:`, title(i), excerpt(i), prose(3000+i, 80))
		for _, t := range tags {
			if t.has(i) {
				fmt.Fprintf(&b, ` <a href="/tag/%s/">%s</a>`, t.name, t.name)
			}
		}
		b.WriteString(`</p></article></main>` + footer)
		s.pages[postPath(i)] = b.String()
	}
	s.pages["/about/"] = page("About", prose(9, 60))
	return s, lists
}

// prose returns n words drawn from a vocabulary by a generator seeded with seed: two texts share
// words, as prose does, and few shingles.
func prose(seed, n int) string {
	vocab := strings.Fields(`amber anchor apple basalt beacon bramble canyon cedar cinder cobalt compass
		copper delta dune ember estuary falcon fern fjord garden geyser glacier grotto harbor hazel heron
		island jasmine juniper kettle lagoon lantern maple meadow mirror nectar nickel oasis orchard pebble
		pepper prairie quarry quill river rustic saddle silver sparrow stone summit tavern thunder timber
		tundra umber valley velvet walnut willow yonder zephyr`)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	w := make([]string, n)
	for i := range w {
		w[i] = vocab[r.IntN(len(vocab))]
	}
	return strings.Join(w, " ")
}

// The pages of a listing are different pages, though what htmltext.Site's extraction leaves of
// each is the same heading (see blog): a crawl keeps every page of the blog and reaches the last
// page of each listing through the pages before it.
func TestListingPagesKeptApart(t *testing.T) {
	s, lists := blog()
	c := mustNew(t, Options{})
	tc, done := newTestCrawler(t, c, s, inTestHost)
	defer done()
	tc.run(t, testHost+"/")
	for _, l := range tc.log {
		if strings.HasPrefix(l, "after ") && strings.Contains(l, " dup true ") {
			t.Errorf("%s", l)
		}
	}
	fetched := map[string]bool{}
	for _, u := range tc.fetches {
		fetched[strings.TrimPrefix(u, testHost)] = true
	}
	for _, p := range lists {
		if !fetched[p] {
			t.Errorf("listing page %s not fetched", p)
		}
	}
}
