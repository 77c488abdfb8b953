package learn

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// TestTokenParams: a session id (sid) rides on the links of four page types, beside another
// variant of the page (a print view, a link's origin, a trailing slash, a start time). Pairs
// alone give one transformation per combination, each in its page type's context; the clusters
// show sid to be a token (two values in one page, never one value twice, no two pages merged
// without it), so it is deleted wherever it is, on a page type that the crawl has not shown
// with it too. A video id as random as the sessions, a color that products and listings share,
// and a parameter that is a token on lists and a document's id, kept on both of its URLs, are
// no tokens.
func TestTokenParams(t *testing.T) {
	run := func(t *testing.T) (faq, item string) {
		o := NewOnline(OnlineOptions{})
		sid := 0
		next := func() string { sid++; return fmt.Sprintf("%08x", uint32(sid)*2654435761) }
		for i := range 12 {
			fp := uint64(100 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/item?id=%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/item?id=%d&print=1&sid=%s", i, next())}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/item?id=%d&print=1&sid=%s", i, next())}, fp)
			fp = uint64(200 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/news/%d.html", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/news/%d.html?from=top&sid=%s", i, next())}, fp)
			fp = uint64(300 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/board?t=%d", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/board/?t=%d&sid=%s", i, next())}, fp)
			// A video id as random as the sessions, which names its page: it keeps its value
			// on the page's URLs.
			fp = uint64(400 + i)
			v := next()
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/watch?v=%s", v)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/watch?v=%s&t=%d", v, 10*i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/watch?v=%s&t=%d&sid=%s", v, 10*i, next())}, fp)
			// A color preselected on a product, which filters a listing: a few values that
			// pages share.
			fp = uint64(500 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/p/%d?color=red", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/p/%d?color=blue", i)}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/c/cat%d?color=%s", i, []string{"red", "blue", "green"}[i%3])}, uint64(600+i))
			// k, a token on lists and the id of a document, which keeps it on both its URLs.
			fp = uint64(700 + i)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/list?n=%d&k=%s", i, next())}, fp)
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/list?n=%d&k=%s", i, next())}, fp)
		}
		for j := range 3 {
			k := next()
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/doc?n=%d&k=%s", j, k)}, uint64(800+j))
			o.Observe(URL{Raw: fmt.Sprintf("https://www.shop.example/doc?n=%d&k=%s&print=1", j, k)}, uint64(800+j))
		}
		o.RelearnAll()
		key := func(u string) string {
			k, err := o.Key(u)
			if err != nil {
				t.Fatal(err)
			}
			return k.Key
		}
		if k := key("https://www.shop.example/watch?v=0dd5eed5&sid=0badcafe"); k != "https://www.shop.example/watch?v=0dd5eed5" {
			t.Errorf("a video: key %q, want its id kept and sid deleted", k)
		}
		if k := key("https://www.shop.example/c/hats?color=green"); k != "https://www.shop.example/c/hats?color=green" {
			t.Errorf("a listing filtered by color: key %q, want the color kept", k)
		}
		if k := key("https://www.shop.example/doc?n=9&k=beef"); k != "https://www.shop.example/doc?k=beef&n=9" {
			t.Errorf("a document: key %q, want its id kept", k)
		}
		return key("https://www.shop.example/faq/7.html?sid=0badcafe"), key("https://www.shop.example/item?id=40&sid=feedf00d")
	}
	faq, item := run(t)
	if want := "https://www.shop.example/faq/7.html"; faq != want {
		t.Errorf("a page type never seen with sid: key %q, want %q", faq, want)
	}
	if want := "https://www.shop.example/item?id=40"; item != want {
		t.Errorf("an item: key %q, want %q", item, want)
	}
	turnOff(t, &ablate.NoTokenParams)
	if faq, _ := run(t); faq == "https://www.shop.example/faq/7.html" {
		t.Errorf("without token parameters, sid was deleted on a page type never seen with it: the test shows nothing")
	}
}

// TestNavParams: a link's origin (from=top, from=side, from=feed) rides on some links of pages
// of four types, beside another variant (a print view, a language, a trailing slash). Its
// few values are shared by pages, so it is no token; but the site's clusters show it to vary on
// the URLs of one page, on several page types, and to name the pages of none, so it is deleted
// wherever it is, on a page type that the crawl has not shown with it too.
func TestNavParams(t *testing.T) {
	run := func(t *testing.T) (faq string) {
		o := NewOnline(OnlineOptions{})
		for _, c := range navSite() {
			for _, u := range c.urls {
				o.Observe(URL{Raw: u}, c.fp)
			}
		}
		o.RelearnAll()
		k, err := o.Key("https://www.news.example/faq/7.html?from=side")
		if err != nil {
			t.Fatal(err)
		}
		return k.Key
	}
	if faq, want := run(t), "https://www.news.example/faq/7.html"; faq != want {
		t.Errorf("a page type never seen with from: key %q, want %q", faq, want)
	}
	turnOff(t, &ablate.NoNavParams)
	if faq := run(t); faq == "https://www.news.example/faq/7.html" {
		t.Errorf("without navigation parameters, from was deleted on a page type never seen with it: the test shows nothing")
	}
}

// TestNavParamGuards: of the parameters of navSite's clusters, only from names no page. A tab
// varies on photos, albums, videos and clips (tab=photos, tab=all, whatever the link) but keeps its value on
// the URLs of each profile page (the profile's photos tab); a color preselected on products
// filters listings, and shows all of a listing whose products all have it: it varies on two page
// types only, where a link's origin varies on every kind of page; a flag of one value (view=print) varies on two page types; a sort order
// varies on the URLs of one page type only.
func TestNavParamGuards(t *testing.T) {
	var byCluster [][]*member
	var buf []urlnorm.Token
	for ci, c := range navSite() {
		var ms []*member
		for _, u := range c.urls {
			prep, ok := Prepare(u)
			if !ok {
				t.Fatalf("Prepare(%q) failed", u)
			}
			var p parsed
			if p, buf, ok = parse(prep, buf); !ok {
				t.Fatalf("parse(%q) failed", prep)
			}
			ms = append(ms, &member{prep: prep, p: p, cluster: int32(ci)})
		}
		byCluster = append(byCluster, ms)
	}
	got := slices.Sorted(maps.Keys(tokenParams(byCluster, Options{MinPrecision: 0.9}.withDefaults())))
	if want := []string{"from"}; !slices.Equal(got, want) {
		t.Errorf("parameters that name no page: %q, want %q", got, want)
	}
}

// A navCluster is the URLs of one page of navSite, with its content fingerprint.
type navCluster struct {
	fp   uint64
	urls []string
}

// navSite is a site whose pages are reached with a link's origin from= on some links, and with
// parameters that look like it and name pages (see TestNavParamGuards).
func navSite() []navCluster {
	var cs []navCluster
	add := func(fp uint64, urls ...string) { cs = append(cs, navCluster{fp, urls}) }
	from := []string{"top", "side", "feed"}
	colors := []string{"red", "blue", "green"}
	for i := range 14 {
		f, g := from[i%3], from[(i+1)%3]
		add(uint64(100+i), fmt.Sprintf("https://www.news.example/item?id=%d", i),
			fmt.Sprintf("https://www.news.example/item?id=%d&print=1&from=%s", i, f),
			fmt.Sprintf("https://www.news.example/item?id=%d&print=1&from=%s", i, g))
		add(uint64(200+i), fmt.Sprintf("https://www.news.example/news/%d.html", i),
			fmt.Sprintf("https://www.news.example/news/%d.html?from=%s&lang=en", i, f))
		add(uint64(300+i), fmt.Sprintf("https://www.news.example/board?t=%d", i),
			fmt.Sprintf("https://www.news.example/board/?t=%d&from=%s", i, f),
			fmt.Sprintf("https://www.news.example/board/?t=%d&from=%s", i, g))
		add(uint64(350+i), fmt.Sprintf("https://www.news.example/help/%d", i),
			fmt.Sprintf("https://www.news.example/help/%d/?from=%s", i, f),
			fmt.Sprintf("https://www.news.example/help/%d/?from=%s", i, g))
		add(uint64(400+i), fmt.Sprintf("https://www.news.example/photo/%d", i),
			fmt.Sprintf("https://www.news.example/photo/%d?tab=photos", i))
		add(uint64(450+i), fmt.Sprintf("https://www.news.example/album/%d", i),
			fmt.Sprintf("https://www.news.example/album/%d?tab=all", i))
		add(uint64(460+i), fmt.Sprintf("https://www.news.example/video/%d", i),
			fmt.Sprintf("https://www.news.example/video/%d?tab=all", i))
		add(uint64(470+i), fmt.Sprintf("https://www.news.example/clip/%d", i),
			fmt.Sprintf("https://www.news.example/clip/%d?tab=photos", i))
		add(uint64(500+i), fmt.Sprintf("https://www.news.example/profile/u%d?tab=photos", i),
			fmt.Sprintf("https://www.news.example/profile/u%d?tab=photos&ref=%d", i, i))
		add(uint64(600+i), fmt.Sprintf("https://www.news.example/p/%d?color=red", 600+i),
			fmt.Sprintf("https://www.news.example/p/%d?color=blue", 600+i))
		if i%4 == 0 {
			// A listing whose products all have the color: the filter shows them all.
			add(uint64(700+i), fmt.Sprintf("https://www.news.example/c/cat%d?color=%s", i, colors[i%3]),
				fmt.Sprintf("https://www.news.example/c/cat%d", i))
		} else {
			add(uint64(700+i), fmt.Sprintf("https://www.news.example/c/cat%d?color=%s", i, colors[i%3]))
		}
		add(uint64(800+i), fmt.Sprintf("https://www.news.example/story/%d", i),
			fmt.Sprintf("https://www.news.example/story/%d?view=print", i))
		add(uint64(900+i), fmt.Sprintf("https://www.news.example/guide/%d", i),
			fmt.Sprintf("https://www.news.example/guide/%d?view=print", i))
		add(uint64(1000+i), fmt.Sprintf("https://www.news.example/search?q=w%d", i),
			fmt.Sprintf("https://www.news.example/search?q=w%d&sort=%s", i, []string{"new", "old"}[i%2]))
	}
	return cs
}
