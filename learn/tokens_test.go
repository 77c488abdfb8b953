package learn

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
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
