package learn

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// TestRolesPageType checks that a deletion is limited to the page types that support it: cat
// is redundant on item pages (item.php?id=N with and without it are one page) and names the
// listing on list pages, where the training URLs have two values of it, each with its own
// offsets, so that deleting it merges no two of them. Its value never differs within a
// cluster of list pages: it identifies them, and the site-wide deletion does not reach them.
func TestRolesPageType(t *testing.T) {
	var cls []Cluster
	for i := range 40 {
		cls = append(cls, Cluster{ID: fmt.Sprintf("item%d", i), URLs: []URL{
			{Raw: fmt.Sprintf("http://shop.example.com/item.php?id=%d", i)},
			{Raw: fmt.Sprintf("http://shop.example.com/item.php?cat=%d&id=%d", i%3+1, i)},
		}})
	}
	for i, u := range []string{"cat=1&start=0", "cat=1&start=20", "cat=1&start=40", "cat=2&start=60", "cat=2&start=80"} {
		cls = append(cls, Cluster{ID: fmt.Sprintf("list%d", i), URLs: []URL{{Raw: "http://shop.example.com/list.php?" + u}}})
	}
	JoinSites(cls, ByHost)
	for _, tc := range []struct {
		opt  Options
		want bool // list pages of two values of cat keep two keys
	}{{Options{}, true}, {Options{NoRoles: true}, false}} {
		set, _, err := Learn(cls, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := set.Normalize("http://shop.example.com/item.php?id=77&cat=2"); k != "http://shop.example.com/item.php?id=77" {
			t.Errorf("%+v: cat is not deleted on item pages: %q", tc.opt, k)
		}
		a, _ := set.Normalize("http://shop.example.com/list.php?cat=1&start=100")
		b, _ := set.Normalize("http://shop.example.com/list.php?cat=2&start=100")
		if (a != b) != tc.want {
			t.Errorf("%+v: keys of list pages of cat 1 and 2: %q, %q; want them apart: %v\n%s", tc.opt, a, b, tc.want, setText(t, set))
		}
	}
}

// TestRolesGroupedErrors checks the guards against a cluster of pages grouped by mistake: 25
// "not found" print pages of deleted topics, each URL with its own topic id and session token,
// grouped by their one content. Their pairs delete t and zs together.
//
// Where t's role is known (print pages of other topics, linked with and without from=rss, keep
// their t), the cluster looks like grouped error pages and gives no pairs; where
// it is not (no other print page has two URLs), a rule that deletes several parameters stands
// on the pairs of one cluster and is not selected, and the other print pages, each in a cluster
// of its own, differ in t alone, which tells them apart (separations). Without the guards, t is
// deleted from every print page.
func TestRolesGroupedErrors(t *testing.T) {
	notFound := Cluster{ID: "gone"}
	for i := range 25 {
		notFound.URLs = append(notFound.URLs, URL{Raw: fmt.Sprintf("http://forum.example.org/print.php?t=%d&zs=%x", 900+i, 0xabc000+97*i)})
	}
	for _, known := range []bool{true, false} {
		cls := []Cluster{notFound}
		for i := range 30 {
			c := Cluster{ID: fmt.Sprintf("p%d", i), URLs: []URL{{Raw: fmt.Sprintf("http://forum.example.org/print.php?t=%d", i)}}}
			if known {
				c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("http://forum.example.org/print.php?t=%d&from=rss", i)})
			}
			cls = append(cls, c)
		}
		JoinSites(cls, ByHost)
		merged := func(opt Options) bool {
			set, _, err := Learn(cls, opt)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := set.Normalize("http://forum.example.org/print.php?t=5&zs=abc9f1")
			b, _ := set.Normalize("http://forum.example.org/print.php?t=6&zs=abc7e2")
			if testing.Verbose() {
				t.Logf("known %v %+v: %q %q\n%s", known, opt, a, b, setText(t, set))
			}
			return a == b
		}
		if merged(Options{}) {
			t.Errorf("role of t known %v: two print pages merged", known)
		}
		// The guard that applies turned off: the rule goes through. Where the role is known,
		// the roles alone keep it out.
		func() {
			ablate.NoSupport = true
			defer func() { ablate.NoSupport, ablate.NoSeparations = false, false }()
			if merged(Options{}) {
				t.Errorf("role of t known %v, support off: two print pages merged", known)
			}
			ablate.NoSeparations = true
			if known && merged(Options{}) {
				t.Errorf("role of t known, support and separations off: two print pages merged")
			}
			if got := merged(Options{NoRoles: known}); !got {
				t.Errorf("role of t known %v, guards off: the pages are not merged; the test does not need the guards", known)
			}
		}()
	}
}

// TestRolesCopy checks that a parameter that repeats another's value in its URL is no page
// identifier where some URLs of a page lack it: a diff page of a git browser is linked as
// blobdiff?f=F&fp=F&h=H from a feed and as blobdiff?f=F&h=H from the commit's page (fp, the
// file's previous name, is F when the file was not renamed). The URL without fp still holds
// F, in f, which is no move of fp's value there: fp is deleted. Read as a move, fp never
// differs within a cluster and takes many values, so it names the diff pages and the
// deletion is not selected.
func TestRolesCopy(t *testing.T) {
	var cls []Cluster
	for i := range 30 {
		f, h := fmt.Sprintf("man2/call%d.txt", i), fmt.Sprintf("%040x", 0x5eed00+7919*i)
		c := Cluster{ID: fmt.Sprintf("d%d", i), URLs: []URL{{Raw: fmt.Sprintf("http://git.example.org/?p=docs.git&a=blobdiff&f=%s&fp=%s&h=%s", f, f, h)}}}
		if i%3 != 0 {
			c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("http://git.example.org/?p=docs.git&a=blobdiff&f=%s&h=%s", f, h)})
		}
		cls = append(cls, c)
	}
	JoinSites(cls, ByHost)
	const with, without = "http://git.example.org/?p=docs.git&a=blobdiff&f=man2/x.txt&fp=man2/x.txt&h=77", "http://git.example.org/?p=docs.git&a=blobdiff&f=man2/x.txt&h=77"
	for _, off := range []bool{false, true} {
		func() {
			ablate.NoCopies = off
			defer func() { ablate.NoCopies = false }()
			set, _, err := Learn(cls, Options{})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := set.Normalize(with)
			b, _ := set.Normalize(without)
			if (a == b) == off {
				t.Errorf("copies off %v: keys %q and %q; want them equal: %v\n%s", off, a, b, !off, setText(t, set))
			}
		}()
	}
}
