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
		plain, sid := fmt.Sprintf("/item?id=%d", i), fmt.Sprintf("/item?id=%d&zs=%x", i, 0x5eed0000+7919*i)
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
		if site.hits[fmt.Sprintf("/item?id=%d", i)] != 1 {
			t.Errorf("item %d fetched %d times, want 1", i, site.hits[fmt.Sprintf("/item?id=%d", i)])
		}
		fetched += site.hits[fmt.Sprintf("/item?id=%d&zs=%x", i, 0x5eed0000+7919*i)]
	}
	t.Logf("%d of %d session URLs fetched", fetched, n)
	if fetched > n/2 {
		t.Errorf("%d of %d session URLs fetched, want at most %d (stats %+v)", fetched, n, n/2, c.Stats())
	}
}
