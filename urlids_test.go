package undust

import (
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
)

func TestWithoutURLIDs(t *testing.T) {
	for _, tc := range []struct {
		url   string
		paras []string
		want  []string
	}{
		// The blob id in the bar above the file, the file's name and a line of it that are not.
		{"http://git.example/?p=docs.git;a=blob;f=man2/kill.txt;h=bebff22ad749acc35f98",
			[]string{"bebff22ad749acc35f98", "[docs.git] / man2 / kill.txt", "kill - send signal"},
			[]string{"[docs.git] / man2 / kill.txt", "kill - send signal"}},
		// The whole id where the URL has an abbreviation, and the abbreviation where it has the
		// whole id; not another part of it, nor one shorter than 7.
		{"http://scm.example/info/4f12f67d9c", []string{"4f12f67d9c1d3a98a46b", "Check-in"}, []string{"Check-in"}},
		{"http://scm.example/info/4f12f67d9c1d3a98a46b", []string{"4f12f67d9c", "Check-in"}, []string{"Check-in"}},
		{"http://git.example/?h=bebff22ad749acc35f98", []string{"22ad749acc35f98", "bebff2"}, []string{"22ad749acc35f98", "bebff2"}},
		{"http://wiki.example/wiki/Chemistry", []string{"Chemistry", "Matter"}, []string{"Chemistry", "Matter"}},
		// A short number, an id of another URL, an id in a sentence: kept.
		{"http://forum.example/t/8812/", []string{"8812", "Posted by ab12cd34ef", "ab12cd34ef"}, []string{"8812", "Posted by ab12cd34ef", "ab12cd34ef"}},
		// An id in the path; the host is no page's id.
		{"http://a1b2c3d4e5.example/p/20240117x", []string{"20240117x", "a1b2c3d4e5", "text"}, []string{"a1b2c3d4e5", "text"}},
	} {
		in := htmltext.Text{Paragraphs: tc.paras}
		got := withoutURLIDs(in, tc.url).Paragraphs
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("withoutURLIDs(%q, %q) = %q, want %q", tc.paras, tc.url, got, tc.want)
		}
		if len(in.Paragraphs) != len(tc.paras) {
			t.Errorf("withoutURLIDs modified its input")
		}
	}
}

// blobSite is a repository browser of n files seen from c commits, as gitweb serves one: the
// home page links to the commits, each of which links to the blob of every file seen from it
// (/blob?f=F&h=H&hb=C, the file under a bar of the commit's links and title), and then to each
// blob alone (/blob?f=F&h=H, the file under a bar with the blob's id). The file is the page: hb
// does not change it. Blobs seen from a commit outnumber the plain ones c to 1, so that the
// template of blob pages never learns the id bar as chrome.
func blobSite(n, c int) *handMade {
	s := &handMade{pages: map[string]string{}}
	blob := func(f, bar, body string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>repo - %s</title></head><body>", f)
		b.WriteString(`<div class="page_header"><a href="/">projects</a> / repo</div>`)
		b.WriteString(`<div class="page_nav"><a href="/">summary</a> | <a href="/log">log</a></div>`)
		b.WriteString(bar)
		fmt.Fprintf(&b, `<div class="page_path">[repo] / %s</div><div class="page_body">`, f)
		for i, l := range strings.SplitAfter(body, ". ") {
			fmt.Fprintf(&b, `<div class="pre"><a id="l%d" class="linenr">%d</a> %s</div>`, i+1, i+1, l)
		}
		b.WriteString("</div></body></html>")
		return b.String()
	}
	var home []string
	for i := range n {
		home = append(home, fmt.Sprintf("/blob?f=man/file%d.txt&h=%s", i, repoHash(1, i)))
	}
	for k := range c {
		hb := repoHash(2, k)
		var files []string
		for i := range n {
			f, h := fmt.Sprintf("man/file%d.txt", i), repoHash(1, i)
			var text strings.Builder
			for j := range 8 {
				fmt.Fprintf(&text, "%s. ", words(100*i+j, 12))
			}
			u := fmt.Sprintf("/blob?f=%s&h=%s&hb=%s", f, h, hb)
			files = append(files, u)
			s.pages[u] = blob(f, fmt.Sprintf(`<div class="page_nav"><a href="/commit?h=%s">commit</a></div>`+
				`<div class="header"><a class="title" href="/commit?h=%s">Revise %s</a></div>`, hb, hb, words(9000+k, 4)), text.String())
			if k == 0 {
				plain := fmt.Sprintf("/blob?f=%s&h=%s", f, h)
				s.pages[plain] = blob(f, fmt.Sprintf(`<div class="title">%s</div>`, h), text.String())
			}
		}
		u := "/commit?h=" + hb
		home = append(home, u)
		s.pages[u] = page("Commit "+hb, words(7000+k, 40), files...)
	}
	s.pages["/"] = page("repo", words(1, 40), home...)
	return s
}

// TestURLIDsJoinBlobs checks that a blob of a repository browser is one page under its two
// kinds of URL, alone with its id in a bar and seen from a commit with the commit's bar: with
// the page's own id read out of its texts, the crawl finds them one page and learns that hb
// does not matter on blob pages. With the mechanism off (ablate.NoURLIDs), the id bar keeps
// the two apart, since the template, learned mostly from blobs seen from a commit, does not
// drop it: 112 fetches of blobs under a commit, against 69.
func TestURLIDsJoinBlobs(t *testing.T) {
	const n, commits = 60, 3
	fetched := func() (plain, under int) {
		site := blobSite(n, commits)
		c := mustNew(t, Options{Online: learn.OnlineOptions{}})
		tc, done := newTestCrawler(t, c, site, inTestHost)
		defer done()
		tc.run(t, testHost+"/")
		for p, k := range site.hits {
			switch {
			case strings.Contains(p, "&hb="):
				under += k
			case strings.HasPrefix(p, "/blob?"):
				plain += k
			}
		}
		return plain, under
	}
	plain, under := fetched()
	t.Logf("blobs fetched: %d alone, %d under a commit, of %d files seen from %d commits", plain, under, n, commits)
	if plain != n || under > n+n/3 {
		t.Errorf("blobs fetched %d times alone and %d under a commit, want %d and at most %d", plain, under, n, n+n/3)
	}
}
