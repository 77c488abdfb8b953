package undustkatana

import (
	"fmt"
	"testing"

	"github.com/projectdiscovery/katana/pkg/types"
)

// The Crawler asks Before again when a request is about to be sent: a shop's home page links to
// its items, /item?id=N, and each item links to itself under a session id, /item?id=N&zs=X.
// Breadth first, the filter queues every session URL while the items are fetched, when nothing
// says that zs does not matter. The first session URLs fetched teach the learner that it does
// not; the rest, asked again when their turn comes, are skipped. (Asked only when queued, every
// one is fetched.)
func TestBeforeWhenSent(t *testing.T) {
	const n = 40
	site := &handMade{hits: map[string]int{}, pages: map[string]string{}}
	var home []string
	for i := range n {
		plain, sid := itemURLs("/item", i)
		home = append(home, plain)
		site.pages[plain] = page(fmt.Sprintf("item %d", i), 60, 10+i, sid)
		site.pages[sid] = site.pages[plain]
	}
	site.pages["/"] = page("home", 60, 1, home...)
	c := crawlHandMade(t, site, func(o *types.Options) { o.Concurrency, o.Timeout = 1, 1 })
	site.mu.Lock()
	defer site.mu.Unlock()
	fetched := 0
	for i := range n {
		plain, sid := itemURLs("/item", i)
		if site.hits[plain] != 1 {
			t.Errorf("item %d fetched %d times, want 1", i, site.hits[plain])
		}
		fetched += site.hits[sid]
	}
	t.Logf("%d of %d session URLs fetched", fetched, n)
	if fetched > n/2 {
		t.Errorf("%d of %d session URLs fetched, want at most %d (stats %+v)", fetched, n, n/2, c.Stats())
	}
}

// The Crawler asks BeforeSend when a request is about to be sent: katana's queue is a stack,
// so a page's duplicate often comes up before the page, and then takes the page's key and is
// fetched as the page, which is skipped when it comes up. A catalogue's home page links each
// item of six sections (/view-S?id=N) after its session URL (/view-S?id=N&zs=X), the same page.
// Asked with Before, a session URL whose item is still queued was skipped if the rule that
// deletes zs was trusted there, and fetched as a check of the rule if not (its first use in
// a section): a check that compared nothing, since the item was not fetched yet, and the item
// was fetched after it. In this crawl 50 of the 120 items were fetched twice that way, against
// 20 with BeforeSend (those met before the learner knew that zs does not matter).
func TestCheckTakesQueuedKey(t *testing.T) {
	sections := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	const n = 20
	site := &handMade{hits: map[string]int{}, pages: map[string]string{}}
	var home []string
	for s, name := range sections {
		for i := range n {
			id := 100*s + i
			plain, sid := itemURLs("/view-"+name, id)
			home = append(home, sid, plain)
			site.pages[plain] = page(fmt.Sprintf("item %d", id), 60, 10+id)
			site.pages[sid] = site.pages[plain]
		}
	}
	site.pages["/"] = page("home", 60, 1, home...)
	c := crawlHandMade(t, site, func(o *types.Options) { o.Concurrency, o.Timeout = 1, 1 })
	site.mu.Lock()
	defer site.mu.Unlock()
	twice := 0
	for s, name := range sections {
		for i := range n {
			id := 100*s + i
			plain, sid := itemURLs("/view-"+name, id)
			h := site.hits[plain] + site.hits[sid]
			if h == 0 {
				t.Errorf("item %d never fetched", id)
			}
			if h > 1 {
				twice++
			}
		}
	}
	st := c.Stats()
	t.Logf("%d of %d items fetched twice; stats %+v", twice, len(sections)*n, st)
	if st.Verify == 0 {
		t.Fatalf("no check asked: the test does not test checks (stats %+v)", st)
	}
	if max := len(sections) * n / 4; twice > max {
		t.Errorf("%d of %d items fetched twice, want at most %d", twice, len(sections)*n, max)
	}
}

// itemURLs returns the URL of item id at path and the URL of the same page with a session id.
func itemURLs(path string, id int) (plain, sid string) {
	plain = fmt.Sprintf("%s?id=%d", path, id)
	return plain, fmt.Sprintf("%s&zs=%x", plain, 0x5eed0000+7919*id)
}
