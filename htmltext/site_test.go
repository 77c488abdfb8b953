package htmltext

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
)

// sitePage is a hand-made page of a test site and the main text a reader
// would call its own.
type testPage struct {
	url  string
	html []byte
	want []string
}

// words makes n pseudo-random words, deterministic in seed, so that every
// page of a test site has its own text.
func words(seed uint64, n int) string {
	vocab := strings.Fields("printer server network browser driver margin wizard address page test " +
		"teacher room school folder backup mail font window screen keyboard table column value " +
		"list entry index file user group owner share mount disk copy restore option menu field")
	r := rand.New(rand.NewPCG(seed, 99))
	w := make([]string, n)
	for i := range w {
		w[i] = vocab[r.IntN(len(vocab))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

func render(t testing.TB, name string, data any) []byte {
	t.Helper()
	tm, err := template.ParseFiles(filepath.Join("testdata", "site", name))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tm.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// manualSite is one host serving six manuals, each under its own
// directory, each page with its manual's whole table of contents in a
// sidebar (ul class="toc", which the link-density rule trusts): every TOC
// repeats on all pages of its manual but on a sixth of the host.
func manualSite(t testing.TB) []testPage {
	var pages []testPage
	for m := range 6 {
		manual := fmt.Sprintf("Manual %c", 'A'+m)
		var toc []string
		for k := range 12 {
			toc = append(toc, fmt.Sprintf("Chapter %d of %s", k+1, manual))
		}
		for k := range 5 {
			title := fmt.Sprintf("%s page %d", manual, k+1)
			body := []string{words(uint64(100*m+k), 20), words(uint64(100*m+k+50), 15)}
			pages = append(pages, testPage{
				url:  fmt.Sprintf("https://docs.example/manual%c/p%d.html", 'a'+m, k),
				html: render(t, "manual.tmpl", map[string]any{"Manual": manual, "Title": title, "TOC": toc, "Body": body}),
				want: append([]string{title}, body...),
			})
		}
	}
	return pages
}

// manSite is a directory of man pages converted to HTML: a fixed header
// (section, update date, index links), an index of the page's sections
// and a colophon with a time stamp.
func manSite(t testing.TB) []testPage {
	var pages []testPage
	for k := range 8 {
		title := fmt.Sprintf("TOOL%c", 'A'+k)
		name := fmt.Sprintf("tool%c - %s", 'a'+k, words(uint64(k+500), 6))
		body := []string{words(uint64(k+600), 12)}
		pages = append(pages, testPage{
			url: fmt.Sprintf("https://man.docs.example/man1/tool%c.1.html", 'a'+k),
			html: render(t, "man.tmpl", map[string]any{"Title": title, "Name": name, "Body": body,
				"Updated": fmt.Sprintf("2023-0%d-1%d", 1+k%9, k), "Time": fmt.Sprintf("12:0%d:%d GMT, March 0%d, 2023", k, 10+k, 1+k%3)}),
			// The NAME heading right after the header repeats on every
			// page and joins the header's run: a known loss of one word.
			want: append([]string{title, name, "DESCRIPTION"}, body...),
		})
	}
	return pages
}

// articleSite is a site of articles, some with their own list of
// cross-references, which is content although it is a list of links.
func articleSite(t testing.TB) []testPage {
	var pages []testPage
	for k := range 8 {
		title := fmt.Sprintf("Article %d", k)
		body := []string{words(uint64(k+700), 25)}
		var see []string
		if k%2 == 0 {
			for j := range 4 {
				see = append(see, fmt.Sprintf("Topic %d-%d", k, j))
			}
		}
		want := append([]string{title}, body...)
		if see != nil {
			want = append(append(want, "See also"), see...)
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://blog.docs.example/articles/a%d.html", k),
			html: render(t, "article.tmpl", map[string]any{"Title": title, "Body": body, "SeeAlso": see}),
			want: want,
		})
	}
	return pages
}

// translatedSite is a manual translated into several languages: each page
// carries a bar of the languages it is read in above and below its text,
// a list that changes from page to page (so no bar repeats as text across
// the site). Every page has a body class of its own ("page-3"), and some
// a body class that names it as furniture ("no-sidebar"), a mark that
// would drop the whole page.
func translatedSite(t testing.TB) []testPage {
	all := []string{"de", "en", "es", "fr", "ja", "ko", "tr"}
	var pages []testPage
	for k := range 10 {
		title := fmt.Sprintf("Module %c", 'a'+k)
		body := []string{words(uint64(k+900), 18), words(uint64(k+950), 12)}
		var langs []string
		for j, l := range all {
			if j == 1 || (k>>j)&1 == 1 {
				langs = append(langs, l)
			}
		}
		wide := fmt.Sprintf("page-%d", k) // a body class of its own on every page
		if k%3 == 0 {
			wide += " no-sidebar"
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://server.docs.example/en/mod/m%d.html", k),
			html: render(t, "translated.tmpl", map[string]any{"Title": title, "Body": body, "Langs": langs, "Wide": wide}),
			want: append([]string{title}, body...),
		})
	}
	return pages
}

// headerSite is a set of reference pages whose title and one-line
// summary lie in a div with id "header", a name the rules read as
// furniture, and whose article ends with a promotion of its own in a
// paragraph of class "promo", which is furniture.
func headerSite(t testing.TB) []testPage {
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("tool-%c(1)", 'a'+k)
		summary := fmt.Sprintf("tool-%c - %s", 'a'+k, words(uint64(k+1100), 7))
		body := []string{words(uint64(k+1200), 16), words(uint64(k+1300), 10)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://ref.docs.example/tool-%c.html", 'a'+k),
			html: render(t, "header.tmpl", map[string]any{"Title": title, "Summary": summary, "Body": body, "Updated": fmt.Sprintf("2024-0%d-01", k+1), "Promo": words(uint64(k+1400), 6)}),
			want: append([]string{title + " Reference Page", summary}, body...),
		})
	}
	return pages
}

func TestSiteLeaks(t *testing.T) {
	tests := []struct {
		name  string
		pages func(testing.TB) []testPage
	}{
		{"manual TOC repeated within a manual, not across the host", manualSite},
		{"man page converter furniture", manSite},
		{"an article's cross-references stay", articleSite},
		{"a bar of languages above and below, a page-wide furniture class", translatedSite},
		{"the title and summary in an element named header", headerSite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages := tt.pages(t)
			var s Site
			for _, p := range pages {
				if err := s.Add(p.url, p.html); err != nil {
					t.Fatal(err)
				}
			}
			plainOK := 0
			for _, p := range pages {
				got, err := s.Extract(p.url, p.html)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(p.want, got.Paragraphs); diff != "" {
					t.Errorf("Site.Extract(%s) mismatch (-want +got):\n%s", p.url, diff)
				}
				plain, _ := Extract(p.html, Options{MainContent: true})
				if slices.Equal(plain.Paragraphs, p.want) {
					plainOK++
				}
			}
			// The pages are made so that the rules alone get them wrong.
			if plainOK == len(pages) {
				t.Errorf("Extract without learning already gets every page right; the case tests nothing")
			}
		})
	}
}

// extractAll returns Site.Extract of every page.
func extractAll(t testing.TB, s *Site, pages []testPage) [][]string {
	t.Helper()
	var out [][]string
	for _, p := range pages {
		got, err := s.Extract(p.url, p.html)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, got.Paragraphs)
	}
	return out
}

// TestSiteOrder checks that what a Site learns depends only on the set of
// pages: pages added one by one in any order, added twice, or all at once
// give the same extraction, also when the sample and group bounds evict.
func TestSiteOrder(t *testing.T) {
	var pages []testPage
	pages = append(pages, manualSite(t)...)
	pages = append(pages, manSite(t)...)
	pages = append(pages, articleSite(t)...)
	for _, bounds := range []struct{ sample, groups int }{
		{0, 0}, // defaults: nothing is evicted
		{4, 0}, // a sample of 4 pages per group
		{3, 5}, // and at most 5 groups
	} {
		batch := Site{SamplePages: bounds.sample, MaxGroups: bounds.groups}
		for _, p := range pages {
			batch.Add(p.url, p.html)
		}
		want := extractAll(t, &batch, pages)
		r := rand.New(rand.NewPCG(1, 2))
		for trial := range 5 {
			s := Site{SamplePages: bounds.sample, MaxGroups: bounds.groups}
			order := r.Perm(len(pages))
			for k, i := range order {
				s.Add(pages[i].url, pages[i].html)
				if k%3 == 0 { // a crawl meets some pages twice
					s.Add(pages[i].url, pages[i].html)
				}
				if k == len(order)/2 { // and extracts while it learns
					extractAll(t, &s, pages[:3])
				}
			}
			if diff := cmp.Diff(snapshot(&batch), snapshot(&s)); diff != "" {
				t.Errorf("bounds %+v, order %d: incremental and batch learned differently (-batch +incremental):\n%s", bounds, trial, diff)
			}
			if diff := cmp.Diff(want, extractAll(t, &s, pages)); diff != "" {
				t.Errorf("bounds %+v, order %d: incremental and batch differ (-batch +incremental):\n%s", bounds, trial, diff)
			}
		}
	}
}

// TestSiteLearning checks that a Site that has seen too few pages drops
// nothing beyond main-content mode but the lists of links outside the
// page's content root: a whole manual's table of contents in a sidebar,
// which main-content mode keeps for its name, goes from the first page of
// a host (the manual's own pages are then not yet enough to learn from).
func TestSiteLearning(t *testing.T) {
	pages := manualSite(t)
	var s Site
	p := pages[0]
	plain, _ := Extract(p.html, Options{MainContent: true})
	var want []string
	for _, q := range plain.Paragraphs {
		if !strings.HasPrefix(q, "Chapter ") {
			want = append(want, q)
		}
	}
	before, _ := s.Extract(p.url, p.html)
	if diff := cmp.Diff(want, before.Paragraphs); diff != "" {
		t.Errorf("Site.Extract before learning mismatch (-want +got):\n%s", diff)
	}
	for _, q := range pages[:2] { // fewer than MinPages pages of the manual
		s.Add(q.url, q.html)
	}
	if got, _ := s.Extract(p.url, p.html); !slices.Equal(got.Paragraphs, want) {
		t.Errorf("Site.Extract after 2 pages = %q, want %q", got.Paragraphs, want)
	}
	if s.Pages(p.url) != 2 {
		t.Errorf("Pages = %d, want 2", s.Pages(p.url))
	}
}

func TestSiteErrors(t *testing.T) {
	var s Site
	for _, u := range []string{"", "/relative/path.html", "http://%zz/", "mailto:x@example.com"} {
		if err := s.Add(u, []byte("<p>x</p>")); !errors.Is(err, ErrURL) {
			t.Errorf("Add(%q) error = %v, want ErrURL", u, err)
		}
		if _, err := s.Extract(u, []byte("<p>x</p>")); !errors.Is(err, ErrURL) {
			t.Errorf("Extract(%q) error = %v, want ErrURL", u, err)
		}
	}
}

// snapshot is what a Site has learned: per group, the sampled pages and
// the block counts.
func snapshot(s *Site) map[uint64]string {
	out := map[uint64]string{}
	for k, g := range s.groups {
		pages := slices.Clone([]uint64(g.pages))
		slices.Sort(pages)
		counts := g.counted().counts
		var keys []uint64
		for b := range counts {
			keys = append(keys, b)
		}
		slices.Sort(keys)
		var b strings.Builder
		fmt.Fprint(&b, pages, " ")
		for _, key := range keys {
			fmt.Fprintf(&b, "%x:%d ", key, counts[key])
		}
		out[k] = b.String()
	}
	return out
}

// TestSiteLinear checks that learning a host and extracting its pages
// costs time and memory linear in the number of pages, also past the
// sample bound, where every new page may replace a sampled one.
func TestSiteLinear(t *testing.T) {
	page := func(i int) (string, []byte) {
		url := fmt.Sprintf("https://big.docs.example/d%d/p%d.html", i%7, i)
		var b strings.Builder
		b.WriteString(`<html><body><div class="side"><ul class="toc">`)
		for k := range 20 {
			fmt.Fprintf(&b, `<li><a href="%d.html">Chapter %d</a></li>`, k, k)
		}
		fmt.Fprintf(&b, `</ul></div><div class="text"><h1>Page %d</h1><p>%s</p><p>%s</p></div></body></html>`,
			i, words(uint64(i), 30), words(uint64(i)+1<<32, 20))
		return url, []byte(b.String())
	}
	hostile.Linear(t, hostile.Growth{Sizes: []int{100, 200, 400, 800}}, func(n int) int {
		var s Site
		s.SamplePages = 32 // so that the sample bound is passed
		for i := range n {
			u, p := page(i)
			s.Add(u, p)
		}
		for i := range n {
			u, p := page(i)
			s.Extract(u, p)
		}
		return 0
	})
}

func TestLinkSkeleton(t *testing.T) {
	const m = string(rune(linkMark))
	tests := []struct {
		residue string
		want    string
		ok      bool
	}{
		{"Languages: " + m + " | " + m + " | " + m, "Languages" + m, true}, // a bar of links: one mark for the run
		{"Languages: " + m, "Languages" + m, true},                         // one link, the same skeleton
		{"Next: " + m + ", previous: " + m, "Next" + m + "previous" + m, true},
		{"See " + m + " for details.", "See" + m + "for details.", true}, // text after the last link stays
		{m + " > " + m + " > " + m, m, false},                            // a breadcrumb: no letter outside links
		{m, m, false},                                                    // a list entry that is one link
		{"Plain text, no link.", "Plain text, no link.", false},          // no link
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := linkSkeleton(tt.residue)
		if got != tt.want || ok != tt.ok {
			t.Errorf("linkSkeleton(%q) = %q, %v; want %q, %v", tt.residue, got, ok, tt.want, tt.ok)
		}
	}
}
