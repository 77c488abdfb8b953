package align

import (
	"fmt"
	"testing"

	"github.com/undust/undust/learn"
)

// TestRolesPageType checks that a deletion is limited to the page types that support it: cat
// is redundant on item pages (item.php?id=N with and without it are one page) and names the
// listing on list pages, where the URLs have two values of it, each with its own offsets, so
// that deleting it merges no two of them. Its value never differs within a cluster of list
// pages: it identifies them, and no rule deletes it there.
func TestRolesPageType(t *testing.T) {
	var cls []learn.Cluster
	for i := range 40 {
		cls = append(cls, learn.Cluster{ID: fmt.Sprintf("item%d", i), URLs: []learn.URL{
			{Raw: fmt.Sprintf("http://shop.example.com/item.php?id=%d", i)},
			{Raw: fmt.Sprintf("http://shop.example.com/item.php?cat=%d&id=%d", i%3+1, i)},
		}})
	}
	for i, u := range []string{"cat=1&start=0", "cat=1&start=20", "cat=1&start=40", "cat=2&start=60", "cat=2&start=80"} {
		cls = append(cls, learn.Cluster{ID: fmt.Sprintf("list%d", i), URLs: []learn.URL{{Raw: "http://shop.example.com/list.php?" + u}}})
	}
	learn.JoinSites(cls, learn.ByHost)
	for _, tc := range []struct {
		opt  Options
		want bool // list pages of two values of cat keep two keys
	}{{Options{}, true}, {Options{NoRoles: true}, false}} {
		set, _, err := (&Learner{Options: tc.opt}).Learn(cls)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := set.Normalize("http://shop.example.com/item.php?id=77&cat=2"); k != "http://shop.example.com/item.php?id=77" {
			t.Errorf("%+v: cat is not deleted on item pages: %q", tc.opt, k)
		}
		a, _ := set.Normalize("http://shop.example.com/list.php?cat=1&start=100")
		b, _ := set.Normalize("http://shop.example.com/list.php?cat=2&start=100")
		if (a != b) != tc.want {
			t.Errorf("%+v: keys of list pages of cat 1 and 2: %q, %q; want them apart: %v", tc.opt, a, b, tc.want)
		}
	}
}
