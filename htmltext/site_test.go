package htmltext

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
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

func TestSiteLeaks(t *testing.T) {
	tests := []struct {
		name  string
		pages func(testing.TB) []testPage
	}{
		{"manual TOC repeated within a manual, not across the host", manualSite},
		{"man page converter furniture", manSite},
		{"an article's cross-references stay", articleSite},
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
