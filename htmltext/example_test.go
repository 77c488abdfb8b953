package htmltext_test

import (
	"bytes"
	"fmt"
	"net/url"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/shingle"
)

func ExampleExtract() {
	page := []byte(`<html><head><title>Printing</title></head><body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<article><h1>Setting up printers</h1><p>Open the <a href="/cups">admin page</a> &amp; add a printer.</p></article>
<div class="comments"><p>Great, thanks!</p></div>
<footer>Copyright 2024</footer></body></html>`)

	full, _ := htmltext.Extract(page, htmltext.Options{})
	main, _ := htmltext.Extract(page, htmltext.Options{MainContent: true})
	fmt.Printf("title: %s\n", full.Title)
	fmt.Printf("full: %q\n", full.Paragraphs)
	fmt.Printf("main: %q\n", main.Paragraphs)
	// Output:
	// title: Printing
	// full: ["Home Docs" "Setting up printers" "Open the admin page & add a printer." "Great, thanks!" "Copyright 2024"]
	// main: ["Setting up printers" "Open the admin page & add a printer."]
}

func ExampleBoilerplate() {
	var site htmltext.Boilerplate
	pages := []string{"Printing", "Scanning", "Backups", "Mail"}
	for _, title := range pages {
		site.Add(htmltext.Text{Paragraphs: []string{"Home | Docs | Blog", title + " explained.", "(c) Example"}})
	}
	page := htmltext.Text{Paragraphs: []string{"Home | Docs | Blog", "Fonts explained.", "(c) Example"}}
	fmt.Printf("%q\n", site.Strip(page).Paragraphs)
	// Output:
	// ["Fonts explained."]
}

func ExampleExtractor() {
	var x htmltext.Extractor = htmltext.Options{MainContent: true}
	t, _ := x.ExtractText([]byte(`<nav><a href="/">Home</a></nav><main><p>Only this.</p></main>`))
	fmt.Printf("%q\n", t.Paragraphs)
	// Output:
	// ["Only this."]
}

func ExampleSite() {
	// Two manuals on one host; each page has its manual's table of
	// contents in a sidebar, which main-content rules keep (a "toc").
	page := func(manual, title, text string) []byte {
		return []byte(`<html><body><div class="side"><ul class="toc">` +
			`<li><a href="1.html">` + manual + ` install</a></li>` +
			`<li><a href="2.html">` + manual + ` configure</a></li>` +
			`<li><a href="3.html">` + manual + ` upgrade</a></li></ul></div>` +
			`<div class="text"><h1>` + title + `</h1><p>` + text + `</p></div></body></html>`)
	}
	var site htmltext.Site
	for _, m := range []string{"mail", "web"} {
		for i, w := range []string{"alpha", "beta", "gamma", "delta"} {
			url := fmt.Sprintf("https://docs.example/%s/%d.html", m, i)
			site.Add(url, page(m, "About "+w, "The "+w+" text of the "+m+" manual."))
		}
	}
	p := page("mail", "About epsilon", "The epsilon text.")
	plain, _ := htmltext.Extract(p, htmltext.Options{MainContent: true})
	learned, _ := site.Extract("https://docs.example/mail/9.html", p)
	fmt.Printf("rules:   %q\n", plain.Paragraphs)
	fmt.Printf("learned: %q\n", learned.Paragraphs)
	// Output:
	// rules:   ["mail install" "mail configure" "mail upgrade" "About epsilon" "The epsilon text."]
	// learned: ["About epsilon" "The epsilon text."]
}

func ExampleSite_ExtractSettled() {
	// Pages of one kind (one skeleton): the kind is learned in full once
	// SamplePages of them are added; until then, a text extracted from one
	// of them may change as the template learns from the others.
	page := func(title string) []byte {
		return []byte(`<html><body><div class="side"><ul class="toc">` +
			`<li><a href="1.html">install</a></li><li><a href="2.html">configure</a></li>` +
			`<li><a href="3.html">upgrade</a></li></ul></div>` +
			`<div class="text"><h1>` + title + `</h1><p>What ` + title + ` does.</p></div></body></html>`)
	}
	site := htmltext.Site{SamplePages: 4}
	for i, title := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		url := fmt.Sprintf("https://docs.example/mail/%d.html", i)
		t, settled, _ := site.ExtractSettled(url, page(title))
		fmt.Printf("%q %v\n", t.Paragraphs, settled)
		site.Add(url, page(title))
	}
	// Output:
	// ["alpha" "What alpha does."] false
	// ["beta" "What beta does."] false
	// ["gamma" "What gamma does."] false
	// ["delta" "What delta does."] false
	// ["epsilon" "What epsilon does."] true
}

func ExampleOptions_maxBytes() {
	// A crawler that keeps only the first 40 bytes of a page; the text of
	// the page is always valid UTF-8 without NUL bytes.
	page := []byte("<p>first\x00 para\xff</p><p>second</p><p>third</p><p>fourth</p>")
	txt, _ := htmltext.Extract(page, htmltext.Options{MaxBytes: 40})
	fmt.Printf("%q\n", txt.Paragraphs)
	// Output:
	// ["first para�" "second" "third"]
}

// A crawler computes a page's identity as the pages arrive: one Site per
// host learns from every page fetched (Add) and extracts the page's main
// content with what it has learned so far (Extract), and the page's
// features are the default 5-shingle hashes of that text. This is the
// sequence the near-duplicate evaluation of this module measures.
func ExampleSite_crawl() {
	sites := map[string]*htmltext.Site{} // one per host
	identity := func(pageURL string, page []byte) ([]uint64, error) {
		u, err := url.Parse(pageURL)
		if err != nil {
			return nil, err
		}
		s := sites[u.Host]
		if s == nil {
			s = &htmltext.Site{}
			sites[u.Host] = s
		}
		if err := s.Add(pageURL, page); err != nil {
			return nil, err
		}
		t, err := s.Extract(pageURL, page)
		if err != nil {
			return nil, err
		}
		return shingle.AppendHashes(nil, t.String(), shingle.Options{}), nil
	}
	page := func(text string) []byte {
		return []byte(`<html><body><div id="menu"><p>Home</p><p>Docs</p><p>Blog</p></div>` +
			`<div id="text"><p>` + text + `</p></div></body></html>`)
	}
	texts := []string{"a first page about mail", "a second page about fonts", "a third page about disks", "a page about fonts and mail"}
	var last []uint64
	for i, text := range texts {
		last, _ = identity(fmt.Sprintf("https://docs.example/%d.html", i), page(text))
	}
	fmt.Println(len(last), "shingles")
	// Output:
	// 2 shingles
}

// A Site is saved with WriteTo and restored with ReadFrom, so that a
// crawl that stops goes on with what it had learned.
func ExampleSite_WriteTo() {
	var s htmltext.Site
	for i := range 4 {
		s.Add(fmt.Sprintf("https://docs.example/%d.html", i),
			[]byte(fmt.Sprintf(`<div id="menu"><p>Home</p></div><div><p>Page %d</p></div>`, i)))
	}
	var file bytes.Buffer
	if _, err := s.WriteTo(&file); err != nil {
		fmt.Println(err)
		return
	}
	var restored htmltext.Site
	if _, err := restored.ReadFrom(&file); err != nil {
		fmt.Println(err)
		return
	}
	t, _ := restored.Extract("https://docs.example/9.html", []byte(`<div id="menu"><p>Home</p></div><div><p>Page 9</p></div>`))
	fmt.Printf("%q\n", t.Paragraphs)
	// Output:
	// ["Page 9"]
}
