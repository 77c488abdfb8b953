package undust

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
)

// repoSite is a repository browser of n files and n/5 commits, as gitweb serves one. The home
// page links to each file's blob as /blob?f=F&h=H, a page that shows the blob's id in a bar
// above the file; each commit's page links to the blobs of the 5 files it changed as
// /blob?f=F&h=H&hb=C, the same file under a bar of the commit's links and its title instead.
// The commits list the files in reverse, so that the first blobs fetched (kept while the
// template had seen too few blobs to know the id bar) are met under a commit last. The home page
// links to trees first, to the pages of other directories; the commit that lists the first
// changed files shows another version of them.
func repoSite(n, trees, changed int) *handMade {
	s := &handMade{pages: map[string]string{}}
	var home []string
	for i := range trees {
		u := fmt.Sprintf("/tree?d=%d", i)
		home = append(home, u)
		s.pages[u] = page(fmt.Sprintf("Directory %d", i), words(5000+i, 40))
	}
	blob := func(f, h, bar, body string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>repo - %s</title></head><body>", f)
		b.WriteString(`<div class="page_header"><a href="/">projects</a> / repo</div>`)
		b.WriteString(`<div class="page_nav"><a href="/">summary</a> | <a href="/log">log</a> | <a href="/tree">tree</a></div>`)
		b.WriteString(bar)
		fmt.Fprintf(&b, `<div class="page_path"><a href="/tree">[repo]</a> / %s</div><div class="page_body">`, f)
		for i, l := range strings.SplitAfter(body, ". ") {
			fmt.Fprintf(&b, `<div class="pre"><a id="l%d" class="linenr">%d</a> %s</div>`, i+1, i+1, l)
		}
		b.WriteString("</div></body></html>")
		return b.String()
	}
	for i := range n {
		f, h := fmt.Sprintf("man/file%d.txt", i), repoHash(1, i)
		var text strings.Builder
		for j := range 12 {
			fmt.Fprintf(&text, "%s. ", words(100*i+j, 12))
		}
		plain := fmt.Sprintf("/blob?f=%s&h=%s", f, h)
		home = append(home, plain)
		s.pages[plain] = blob(f, h, fmt.Sprintf(`<div class="title">%s</div>`, h), text.String())
		c := (n - 1 - i) / 5
		hb := repoHash(2, c)
		if i < changed {
			text.WriteString(words(8000+i, 12))
		}
		s.pages[plain+"&hb="+hb] = blob(f, h, fmt.Sprintf(`<div class="page_nav"><a href="/commit?h=%s">commit</a> | <a href="/commitdiff?h=%s">commitdiff</a></div>`+
			`<div class="header"><a class="title" href="/commit?h=%s">Revise %s</a></div>`, hb, hb, hb, words(9000+c, 4)), text.String())
	}
	for c := range n / 5 {
		hb := repoHash(2, c)
		var files []string
		for i := n - 1 - 5*c; i >= n-5-5*c; i-- {
			files = append(files, fmt.Sprintf("/blob?f=man/file%d.txt&h=%s&hb=%s", i, repoHash(1, i), hb))
		}
		u := "/commit?h=" + hb
		home = append(home, u)
		s.pages[u] = page("Commit "+hb, words(7000+c, 40), files...)
	}
	s.pages["/"] = page("repo", words(1, 40), home...)
	return s
}

// repoHash is the id of object i of kind k (1 a blob, 2 a commit) of a repoSite.
func repoHash(k, i int) string {
	return fmt.Sprintf("%08x%08x", 0x9e3779b9*(k+1)+7919*i, 0x85ebca6b*(i+3))
}

// A check of a rule against a page kept while its host's template was still learning the
// page's kind compares the two under the template as it stands: the blobs of a repository
// browser fetched first, with their id bar, and the same blobs met later under a commit, whose
// bar the template knows by then, are one page, and the rule that drops the commit is kept. When
// the commit shows another version of those files, the rule is wrong for them: the check still
// finds a mismatch, and every version is fetched.
func TestYoungPageRechecked(t *testing.T) {
	for _, tt := range []struct {
		name     string
		changed  int
		mismatch bool
	}{
		{"same files", 0, false},
		{"changed files", 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The trees come first, as in the crawl that showed the wrong retraction.
			const n, trees = 40, 30
			site := repoSite(n, trees, tt.changed)
			c := mustNew(t, Options{Online: learn.OnlineOptions{VerifyEvery: 1}})
			tc, done := newTestCrawler(t, c, site, inTestHost)
			defer done()
			tc.run(t, testHost+"/")
			st := c.Stats()
			fetchedHB := 0
			for p, k := range site.hits {
				if strings.Contains(p, "&hb=") {
					fetchedHB += min(k, 1)
				}
			}
			t.Logf("blobs under a commit fetched: %d of %d; checked %d, mismatches %d, retracted %d", fetchedHB, n, st.Checked, st.Mismatches, st.Learner.Retracted)
			if (st.Mismatches != 0) != tt.mismatch {
				t.Errorf("%d of %d checks mismatched (%d rules retracted), want mismatches %v (stats %+v)", st.Mismatches, st.Checked, st.Learner.Retracted, tt.mismatch, st)
			}
			for i := range tt.changed {
				if k := site.hits[fmt.Sprintf("/blob?f=man/file%d.txt&h=%s&hb=%s", i, repoHash(1, i), repoHash(2, (n-1-i)/5))]; k == 0 {
					t.Errorf("changed file %d under its commit not fetched", i)
				}
			}
		})
	}
}

// The young pages' bodies are part of a crawl's saved state: a crawl of the repository browser
// saved half-way and resumed makes the decisions of one that was not stopped.
func TestYoungPageResumed(t *testing.T) {
	const n = 40
	o := Options{Online: learn.OnlineOptions{VerifyEvery: 1}}
	site := repoSite(n, 30, 0)
	whole := mustNew(t, o)
	wtc, done := newTestCrawler(t, whole, site, inTestHost)
	wtc.run(t, testHost+"/")
	done()
	cut := len(wtc.fetches) / 2
	first := mustNew(t, o)
	tc, done := newTestCrawler(t, first, repoSite(n, 30, 0), inTestHost)
	defer done()
	tc.max = cut
	tc.run(t, testHost+"/")
	var b bytes.Buffer
	if _, err := first.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	second := mustNew(t, o)
	if _, err := second.ReadFrom(&b); err != nil {
		t.Fatal(err)
	}
	tc.c, tc.max = second, 100000
	for tc.step(t) {
	}
	if g, w := strings.Join(tc.log, "\n"), strings.Join(wtc.log, "\n"); g != w {
		i := 0
		for i < len(tc.log) && i < len(wtc.log) && tc.log[i] == wtc.log[i] {
			i++
		}
		t.Errorf("cut %d: decision %d differs:\nresumed: %s\nwhole:   %s", cut, i, at(tc.log, i), at(wtc.log, i))
	}
	if g, w := second.Stats(), whole.Stats(); g != w {
		t.Errorf("stats\n%+v, want\n%+v", g, w)
	}
}
