package learn

import (
	"crypto/sha1"
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// commitHash is a made-up 40-hex object name: the commit or root tree numbered i.
func commitHash(kind string, i int) string {
	return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(kind, i))))
}

// gitTree is the URL of the root tree at commit i of a repository browser: from the log it is
// h=C;hb=C, from the commit page h=T;hb=C (T the commit's root tree). Both are one page.
func gitTree(i int, fromLog bool) URL {
	h := commitHash("tree", i)
	if fromLog {
		h = commitHash("commit", i)
	}
	return URL{Raw: fmt.Sprintf("http://git.example/?p=r.git;a=tree;h=%s;hb=%s", h, commitHash("commit", i))}
}

// observeCommits observes the commit pages of commits from..to-1, each its own page, reached
// with and without hb.
func observeCommits(o *Online, from, to int) {
	for i := from; i < to; i++ {
		c := commitHash("commit", i)
		o.Observe(URL{Raw: "http://git.example/?p=r.git;a=commit;h=" + c}, uint64(1000+i))
		o.Observe(URL{Raw: "http://git.example/?p=r.git;a=commit;h=" + c + ";hb=" + c}, uint64(1000+i))
	}
}

// TestReservoirKeepsPairs checks that a page whose URL list is full keeps the URLs that show a
// parameter irrelevant alone: the root tree of a repository browser, one page at every commit,
// comes first as 64 URLs of 64 commits, each in one form (no pair shows h or hb irrelevant
// alone: the deletion of both is thin), then in both forms for commits already kept. Without
// the reservoir the later URLs are dropped and the tree's rule is never learned.
func TestReservoirKeepsPairs(t *testing.T) {
	for _, off := range []bool{false, true} {
		ablate.NoReservoir = off
		o := NewOnline(OnlineOptions{})
		const tree = 7
		for i := range 64 {
			o.Observe(gitTree(i, i%2 == 0), tree)
		}
		observeCommits(o, 0, 40)
		o.RelearnAll()
		unseen := gitTree(500, true).Raw
		if got, _ := o.Normalize(unseen); !strings.Contains(got, "h=") {
			t.Fatalf("off=%v: the tree's rule was learned from 64 commits in one form each: %q", off, got)
		}
		// The crawl meets the other form of kept commits, and more commit pages.
		for i := range 64 {
			o.Observe(gitTree(i, i%2 != 0), tree)
		}
		observeCommits(o, 40, 80)
		o.RelearnAll()
		got, _ := o.Normalize(unseen)
		if learned := !strings.Contains(got, "h="); learned == off {
			t.Errorf("reservoir off=%v: Normalize(%q) = %q; the tree's rule learned %v", off, unseen, got, learned)
		}
		if st := o.Stats(); st.URLs > 64+160 {
			t.Errorf("off=%v: %d URLs kept, want at most 64 of the tree", off, st.URLs)
		}
	}
	ablate.NoReservoir = false
}

// TestReservoirNoise checks that the reservoir leaves the thin guard's case to the guards: 100
// "not found" print pages of deleted topics, each URL with its own topic id and session token,
// grouped by their one content, show no parameter irrelevant alone however many come, and the
// deletion of t and zs that their pairs support is not learned. Other print pages have one URL
// each: two guards keep them apart, the support of a rule that deletes several parameters and
// the separations of t (print.php?t=N in clusters of their own). With both off, two print
// pages merge.
func TestReservoirNoise(t *testing.T) {
	for _, tc := range []struct{ support, separations bool }{{true, true}, {false, true}, {true, false}, {false, false}} {
		ablate.NoSupport, ablate.NoSeparations = !tc.support, !tc.separations
		o := NewOnline(OnlineOptions{})
		for i := range 100 {
			o.Observe(URL{Raw: fmt.Sprintf("http://forum.example.org/print.php?t=%d&zs=%x", 900+i, 0xabc000+97*i)}, 7)
			if i < 30 {
				o.Observe(URL{Raw: fmt.Sprintf("http://forum.example.org/print.php?t=%d", i)}, uint64(100+i))
			}
		}
		o.RelearnAll()
		a, _ := o.Normalize("http://forum.example.org/print.php?t=5&zs=abc9f1")
		b, _ := o.Normalize("http://forum.example.org/print.php?t=6&zs=abc7e2")
		if want := !tc.support && !tc.separations; (a == b) != want {
			t.Errorf("%+v: keys of two print pages %q and %q, merged %v", tc, a, b, a == b)
		}
	}
	ablate.NoSupport, ablate.NoSeparations = false, false
}
