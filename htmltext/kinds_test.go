package htmltext

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// page assembles a hand-made page: a head with title, then body.
func page(title, body string) []byte {
	return []byte("<!DOCTYPE html><html><head><title>" + title + "</title></head><body>" + body + "</body></html>")
}

// ps returns the paragraphs as <p> elements.
func ps(paras ...string) string {
	var b strings.Builder
	for _, p := range paras {
		b.WriteString("<p>" + p + "</p>\n")
	}
	return b.String()
}

// kindCase is a hand-made site on which Site.Extract of the pages in check
// must give want[i] for check[i].
type kindCase struct {
	name  string
	pages []testPage // want is checked for every page that has one
}

// deepManuals: a host serves six manuals four directories deep; each
// page carries its manual's contents as plain lines, which repeat on all
// pages of the manual but on a sixth of every shallower group.
func deepManuals() kindCase {
	var pages []testPage
	for m := range 6 {
		var side []string
		for k := range 10 {
			side = append(side, fmt.Sprintf("Chapter %d of manual %c", k+1, 'A'+m))
		}
		for k := range 5 {
			title := fmt.Sprintf("Manual %c page %d", 'A'+m, k)
			body := []string{words(uint64(1000+10*m+k), 30), words(uint64(2000+10*m+k), 20)}
			pages = append(pages, testPage{
				url:  fmt.Sprintf("https://deep.example/usr/share/doc/m%c/html/p%d.html", 'a'+m, k),
				html: page(title, `<div class="side">`+ps(side...)+`</div><div class="text"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
				want: append([]string{title}, body...),
			})
		}
	}
	return kindCase{"1 a manual's sidebar four directories deep", pages}
}

// currentEntry: a navigation tree whose entry for the page itself has a
// class "current" and the page's sections under it.
func currentEntry() kindCase {
	var pages []testPage
	for k := range 8 {
		var nav strings.Builder
		nav.WriteString(`<div class="pagetree"><ul>`)
		for j := range 8 {
			if j == k {
				fmt.Fprintf(&nav, `<li class="current">Topic %d<ul><li class="sub">Overview</li><li class="sub">Details</li></ul></li>`, j)
			} else {
				fmt.Fprintf(&nav, `<li class="entry">Topic %d<ul><li class="sub">Overview</li><li class="sub">Details</li></ul></li>`, j)
			}
		}
		nav.WriteString(`</ul></div>`)
		title := fmt.Sprintf("Topic %d", k)
		body := []string{words(uint64(3000+k), 30), words(uint64(3100+k), 25)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://tree.example/t%d.html", k),
			html: page(title, `<div class="tree">`+nav.String()+`</div><div class="body"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"2 a navigation tree with a current entry", pages}
}

// siblingSidebar: the article and a sidebar are sibling divs with the same
// tags; the sidebar is on 6 of 10 pages, under the 90% an article's own
// block needs to be template.
func siblingSidebar() kindCase {
	var pages []testPage
	for k := range 10 {
		title := fmt.Sprintf("Story %d", k)
		body := []string{words(uint64(4000+k), 40), words(uint64(4100+k), 30)}
		side := ""
		if k < 6 {
			side = `<div>` + ps("Tip of the week", "Back up your mail folder before you move it to a new disk.") + `</div>`
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://news.example/s%d.html", k),
			html: page(title, `<div><h1>`+title+`</h1>`+ps(body...)+`</div>`+side),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"3 a sibling sidebar with the article's path", pages}
}

// tocSidebar: a host with two pages of a manual, each with the manual's
// whole contents in a container named toc, which main-content mode trusts.
func tocSidebar() kindCase {
	var pages []testPage
	for k := range 2 {
		var toc []string
		for j := range 15 {
			toc = append(toc, fmt.Sprintf(`<li><a href="c%d.html">Chapter %d, the %s</a></li>`, j, j, words(uint64(5000+j), 2)))
		}
		title := fmt.Sprintf("Chapter %d", k)
		body := []string{words(uint64(5100+k), 30), words(uint64(5200+k), 20)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://mirror.example/manual/c%d.html", k),
			html: page(title, `<div class="toc"><ul>`+strings.Join(toc, "")+`</ul></div><div class="chapter"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"4 a whole manual's contents named toc on a host of two pages", pages}
}

// hugeNav: a short article beside a navigation element (marked by its
// class) that holds most of the page's text, all of it in links.
func hugeNav() kindCase {
	var pages []testPage
	for k := range 4 {
		var links []string
		for j := range 60 {
			links = append(links, fmt.Sprintf(`<a href="p%d.html">%s</a>`, j, words(uint64(6000+100*k+j), 3)))
		}
		title := fmt.Sprintf("Note %d", k)
		body := []string{words(uint64(6100+k), 12)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://notes.example/n%d.html", k),
			html: page(title, `<div class="site-menu">`+strings.Join(links, " | ")+`</div><div class="note"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"5 a huge navigation of links beside a short article", pages}
}

// codeHeaders: an API reference whose every member's signature is in an
// element of class "code-header".
func codeHeaders() kindCase {
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("Type%d", k)
		want := []string{title, words(uint64(7000+k), 20)}
		body := `<h1>` + title + `</h1>` + ps(want[1])
		for j := range 4 {
			sig := fmt.Sprintf("fn member%d_%d(x: u32) -> u32", k, j)
			doc := words(uint64(7100+10*k+j), 15)
			body += `<section><h3 class="code-header">` + sig + `</h3>` + ps(doc) + `</section>`
			want = append(want, sig, doc)
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://api.example/std/t%d.html", k),
			html: page(title, `<div id="nav"><p>API reference</p><p>All items</p><p>Settings</p></div><div id="main">`+body+`</div>`),
			want: want,
		})
	}
	return kindCase{"6 member signatures in elements named code-header", pages}
}

// headingLinks: each page's h1 is a label and a link, "Module <a>name</a>",
// a pattern that repeats on every page.
func headingLinks() kindCase {
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("Module mod%d", k)
		body := []string{words(uint64(8000+k), 25), words(uint64(8100+k), 20)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://mods.example/m%d.html", k),
			html: page(title, `<div id="top"><p>Modules index</p></div><div id="main"><h1>Module <a href="m.html">mod`+fmt.Sprint(k)+`</a></h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"8 an h1 of a label and a link", pages}
}

// menuSections: an article lists its own sections in a list of class
// "menu", between its introduction and its sections.
func menuSections() kindCase {
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("Guide %d", k)
		intro := words(uint64(9000+k), 25)
		var menu []string
		want := []string{title, intro}
		for j := range 4 {
			s := fmt.Sprintf("Section %d.%d", k, j)
			menu = append(menu, `<li><a href="#s`+fmt.Sprint(j)+`">`+s+`</a></li>`)
			want = append(want, s)
		}
		body := `<h1>` + title + `</h1>` + ps(intro) + `<ul class="menu">` + strings.Join(menu, "") + `</ul>`
		for j := range 4 {
			s, text := fmt.Sprintf("Part %d.%d", k, j), words(uint64(9100+10*k+j), 20)
			body += `<h2>` + s + `</h2>` + ps(text)
		}
		for j := range 4 {
			want = append(want, fmt.Sprintf("Part %d.%d", k, j), words(uint64(9100+10*k+j), 20))
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://guides.example/g%d.html", k),
			html: page(title, `<div id="head"><p>Guides home</p></div><div id="main">`+body+`</div>`),
			want: want,
		})
	}
	return kindCase{"9 an article's own sections in a list named menu", pages}
}

// bigNav: every page carries 1,200 navigation lines.
func bigNav() kindCase {
	var side []string
	for j := range 1200 {
		side = append(side, fmt.Sprintf("Entry %d of the index", j))
	}
	var pages []testPage
	for k := range 5 {
		title := fmt.Sprintf("Page %d", k)
		body := []string{words(uint64(10000+k), 30)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://big.example/p%d.html", k),
			html: page(title, `<div class="index">`+ps(side...)+`</div><div class="text"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"10 1,200 navigation lines on every page", pages}
}

// ownContents: a sidebar lists a manual's chapters; its index page lists
// the same chapters at the end of its article. Only the ids of the two
// containers tell them apart.
func ownContents() kindCase {
	var chapters []string
	for j := range 6 {
		chapters = append(chapters, fmt.Sprintf("Chapter %d: %s", j, words(uint64(11000+j), 3)))
	}
	list := "<ul><li>" + strings.Join(chapters, "</li><li>") + "</li></ul>"
	var pages []testPage
	for k := range 7 {
		title := fmt.Sprintf("Chapter %d", k)
		body := []string{words(uint64(11100+k), 30)}
		want := append([]string{title}, body...)
		article := `<h1>` + title + `</h1>` + ps(body...)
		if k == 6 {
			title, want = "Contents", append([]string{"Contents", body[0]}, chapters...)
			article = `<h1>Contents</h1>` + ps(body...) + list
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://book.example/c%d.html", k),
			html: page(title, `<div id="sidebar">`+list+`</div><div id="content">`+article+`</div>`),
			want: want,
		})
	}
	// Only the index page is checked: the others are ordinary chapters.
	for i := range pages[:6] {
		pages[i].want = nil
	}
	return kindCase{"11 an article's own contents identical to the sidebar", pages}
}

// asideHeading: a navigation aside whose first line is the manual's name
// in an h1, before the page's own h1; an aside is beside the content by
// its tag, whatever heading it holds.
func asideHeading() kindCase {
	var pages []testPage
	for k := range 6 {
		var nav []string
		for j := range 5 {
			nav = append(nav, fmt.Sprintf(`<li>Section %d.%d of the guide</li>`, k, j))
		}
		title := fmt.Sprintf("Chapter %d", k)
		body := []string{words(uint64(13000+k), 25)}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://guide.example/c%d.html", k),
			html: page(title, `<aside><h1>Reference Manual</h1><ul>`+strings.Join(nav, "")+`</ul></aside><div id="content"><h1>`+title+`</h1>`+ps(body...)+`</div>`),
			want: append([]string{title}, body...),
		})
	}
	return kindCase{"an aside that holds the page's first h1", pages}
}

// moduleHeader: API module pages whose content element holds a header
// (the module's fields and its name, the page's title), a synopsis of
// links and the documentation, which alone holds 90% of the prose. The
// label of the first field, the same on every page and at the article's
// top edge, stays with its value.
func moduleHeader() kindCase {
	var pages []testPage
	for k := range 6 {
		name := fmt.Sprintf("Data.%s", strings.ToUpper(words(uint64(14000+k), 1)[:1])+words(uint64(14100+k), 1)[1:4])
		name = fmt.Sprintf("%s%c", name, 'a'+k)
		stability := []string{"stable", "experimental", "internal"}[k%3]
		var syn, docs []string
		want := []string{"Stability", stability, name, "Synopsis"}
		for j := range 4 {
			sig := fmt.Sprintf("f%d%c :: Int -> Int", j, 'a'+k)
			syn = append(syn, `<li><a href="#f`+fmt.Sprint(j)+`">`+sig+`</a></li>`)
			want = append(want, sig)
		}
		want = append(want, "Documentation")
		for j := range 4 {
			d := words(uint64(14200+10*k+j), 40)
			docs = append(docs, d)
		}
		html := `<div id="package-header"><p>base: Basic libraries</p></div><div id="content">` +
			`<div id="module-header"><table class="info"><tr><th>Stability</th><td>` + stability + `</td></tr></table><p class="caption">` + name + `</p></div>` +
			`<div id="synopsis"><p>Synopsis</p><ul>` + strings.Join(syn, "") + `</ul></div>` +
			`<div id="interface"><h1>Documentation</h1>` + ps(docs...) + `</div></div><div id="footer"><p>Produced by a generator</p></div>`
		want = append(want, docs...)
		pages = append(pages, testPage{url: fmt.Sprintf("https://hackage.example/base/m%d.html", k), html: page(name, html), want: want})
	}
	return kindCase{"a module header and a synopsis beside the documentation", pages}
}

// sectionBar: API pages whose title sits in a header with a bar of links
// to the page's sections above it, outside the element of the page's body.
func sectionBar() kindCase {
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("Widget%c Class Reference", 'A'+k)
		body := []string{words(uint64(15000+k), 40), words(uint64(15100+k), 30)}
		var bar []string // the page's kinds of members
		for j, kind := range []string{"Types", "Public Member Functions", "Attributes"} {
			if (k+1)&(1<<j) != 0 {
				bar = append(bar, `<a href="#s`+fmt.Sprint(j)+`">`+kind+`</a>`)
			}
		}
		html := `<div id="top"><p>libexample</p></div><div id="doc-content"><div class="header"><div class="summary">` + strings.Join(bar, " | ") + `</div>` +
			`<div class="title">` + title + `</div></div><div class="contents">` + ps(body...) + `</div></div><div class="footer"><p>Generated by a generator</p></div>`
		pages = append(pages, testPage{url: fmt.Sprintf("https://api.example/c%d.html", k), html: page("libexample: "+title, html), want: append([]string{title}, body...)})
	}
	return kindCase{"a bar of section links above an API page's title", pages}
}

// shortModule: short module pages whose name, the page's title, lies
// between lines of the template (the fields of the module header, the
// synopsis heading): it is the page's own, not per-page chrome.
func shortModule() kindCase {
	var pages []testPage
	for k := range 6 {
		name := fmt.Sprintf("GHC.%s", []string{"Clock", "Stack", "Stats", "Exts", "Conc", "Desugar"}[k])
		sig := fmt.Sprintf("get%s :: IO Double", []string{"Time", "Trace", "Count", "Size", "Tick", "Value"}[k])
		doc := words(uint64(16000+k), 25)
		safety := []string{"Safe", "Trustworthy", "Trustworthy"}[k%3] // on half the pages or more: not prose
		html := `<div id="package-header"><p>base: Basic libraries</p></div><div id="content">` +
			`<div id="module-header"><table class="info"><tr><th>Safe Haskell</th><td>` + safety + `</td></tr><tr><th>Language</th><td>Haskell2010</td></tr></table><p class="caption">` + name + `</p></div>` +
			`<div id="synopsis"><p>Synopsis</p></div><div id="interface"><h1>Documentation</h1><p class="src">` + sig + `</p>` + ps(doc) + `</div></div>`
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://hackage.example/base/g%d.html", k),
			html: page(name, html),
			want: []string{"Safe Haskell", safety, "Language", "Haskell2010", name, "Synopsis", "Documentation", sig, doc},
		})
	}
	return kindCase{"a short module page whose name lies between template lines", pages}
}

// titleBar: a manual's pages carry a title bar above a sidebar with the
// manual's name and contents; on the manual's front page the bar says the
// manual's name, as the sidebar does, and the front page's own text is a
// title and a version.
func titleBar() kindCase {
	var nav []string
	for j := range 8 {
		nav = append(nav, fmt.Sprintf(`<li><a href="c%d.html">Chapter %d of the manual</a></li>`, j, j))
	}
	frame := func(bar, content string) []byte {
		return page("Reference Manual", `<div class="topbar"><h1>`+bar+`</h1></div><aside id="leftnav"><p>Reference Manual</p><p>Version 3.1</p><ul>`+strings.Join(nav, "")+`</ul></aside><div id="content">`+content+`</div><div id="foot"><p>Example Manuals</p></div>`)
	}
	var pages []testPage
	for k := range 6 {
		title := fmt.Sprintf("%d Chapter %d of the manual", k+1, k)
		body := words(uint64(17000+k), 40)
		pages = append(pages, testPage{url: fmt.Sprintf("https://manual.example/ref/c%d.html", k), html: frame(title, "<h1>"+title+"</h1>"+ps(body))})
	}
	pages = append(pages, testPage{
		url:  "https://manual.example/ref/index.html",
		html: frame("Reference Manual", "<h1>Reference Manual User's Guide</h1><h4>Version 3.1</h4>"),
		want: []string{"Reference Manual User's Guide", "Version 3.1"},
	})
	// A page whose whole text says what its furniture says keeps it.
	pages = append(pages, testPage{
		url:  "https://manual.example/ref/first.html",
		html: frame("Reference Manual", `<p>Version 3.1</p>`),
		want: []string{"Reference Manual", "Version 3.1"},
	})
	return kindCase{"a title bar that echoes the sidebar's heading", pages}
}

// articleHeader: articles of one site copied into another site's pages,
// each with a header of the article's fields (in an element whose name
// says header) at the top of the article, under the host site's title.
func articleHeader() kindCase {
	var pages []testPage
	for k := range 6 {
		owner := []string{"The University", "A Company", "The Team"}[k%3]
		body := []string{words(uint64(18000+k), 40), words(uint64(18100+k), 30)}
		html := `<div id="nav"><p>Docs home</p><p>About</p><p>Search</p></div><div class="article-body"><div class="module-header"><table><tr><th>Copyright</th><td>(c) ` +
			owner + fmt.Sprintf(" 20%02d", k) + `</td></tr><tr><th>Maintainer</th><td>` + fmt.Sprintf("user%d@example.org", k) + `</td></tr></table></div>` + ps(body...) + `</div>`
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://portal.example/a/%03d.html", k),
			html: page("Portal documentation", html),
			want: append([]string{"Copyright", fmt.Sprintf("(c) %s 20%02d", owner, k), "Maintainer", fmt.Sprintf("user%d@example.org", k)}, body...),
		})
	}
	return kindCase{"an article's own header at its top, under another site's title", pages}
}

// widgets: after each paragraph of a post, small widgets that every post
// repeats ("expand", "[-]") and a counter that differs by its digits; the
// post's true text keeps them, so dropping those at the post's end would
// change the words there and the shingles around them.
func widgets() kindCase {
	var pages []testPage
	for k := range 8 {
		title := fmt.Sprintf("Post %d", k)
		want := []string{title}
		var b strings.Builder
		for j := range 4 {
			p := words(uint64(19000+10*k+j), 15)
			replies := fmt.Sprintf("%d replies", (7*k+3*j)%10)
			fmt.Fprintf(&b, `<p>%s</p><div class="w"><a href="#">expand</a></div><div class="w"><a href="#">[-]</a></div><div class="count">%s</div>`, p, replies)
			want = append(want, p, "expand", "[-]", replies)
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://forum.example/t/%d.html", k),
			html: page(title, `<div id="head"><p>Example Forum</p></div><div id="side"><p>Latest</p><p>Top</p><p>Categories</p></div><div id="main"><h1>`+title+`</h1>`+b.String()+`</div>`),
			want: want,
		})
	}
	return kindCase{"7 small widgets after each paragraph of an article", pages}
}

// flatWidgets: pages of nothing but paragraphs (no element holds the
// article apart from the site's name), where three widgets and a counter
// follow each paragraph: runs of template between the page's own text,
// and the page's own text on both sides.
func flatWidgets() kindCase {
	var pages []testPage
	for k := range 8 {
		title := fmt.Sprintf("Note %d", k)
		want := []string{title}
		var b strings.Builder
		for j := range 4 {
			p := words(uint64(19500+10*k+j), 15)
			replies := fmt.Sprintf("%d replies", k+j)
			fmt.Fprintf(&b, `<p>%s</p><p>[-]</p><p>expand</p><p>share</p><p>%s</p>`, p, replies)
			want = append(want, p, "[-]", "expand", "share", replies)
		}
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://notes.example/%d.html", k),
			html: page(title, `<p>Site name</p><h1>`+title+`</h1>`+b.String()),
			want: want,
		})
	}
	return kindCase{"7 runs of small widgets in a page of nothing but paragraphs", pages}
}

// copiedModule: short API module pages copied into a few of another
// site's pages (whose title does not name them): in the article's element,
// a header of the module's fields (named "module-header") and a synopsis
// above the documentation, which alone holds 90% of the prose.
func copiedModule() kindCase {
	var pages []testPage
	frame := func(article string) []byte {
		return page("Portal documentation", `<div id="nav"><p>Docs home</p><p>About</p><p>Search</p></div><div class="article-body">`+article+`</div><div id="foot"><p>Portal footer</p></div>`)
	}
	for k := range 8 { // the site's own articles
		pages = append(pages, testPage{url: fmt.Sprintf("https://portal.example/docs/%03d.html", k), html: frame(`<h1>Topic ` + fmt.Sprint(k) + `</h1>` + ps(words(uint64(20100+k), 40)))})
	}
	for k := range 2 { // fewer than MinPages: their labels are no template
		name := fmt.Sprintf("Data.Mod%c", 'A'+k)
		sig := fmt.Sprintf("run%c :: IO ()", 'A'+k)
		doc := words(uint64(20000+k), 30)
		article := `<div class="module-header"><table><tr><th>Maintainer</th><td>` + fmt.Sprintf("team%d@example.org", k) + `</td></tr></table><p class="caption">` + name + `</p></div>` +
			`<div class="synopsis"><p>Synopsis</p><ul><li><a href="#v">` + sig + `</a></li></ul></div>` +
			`<div class="interface"><h1>Documentation</h1><div class="top"><p>` + sig + ` Source</p>` + ps(doc) + `</div></div>`
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://portal.example/docs/copy%d.html", k),
			html: frame(article),
			want: []string{"Maintainer", fmt.Sprintf("team%d@example.org", k), name, "Synopsis", sig, "Documentation", sig + " Source", doc},
		})
	}
	return kindCase{"a copied short article's header and synopsis above its body", pages}
}

// portalBlocks: a copied article between an advertisement and a list of
// related pages that differ from page to page, all in one element, named
// as they are: the article's element is not raised to hold them.
func portalBlocks() kindCase {
	var pages []testPage
	for k := range 6 {
		body := []string{words(uint64(21000+k), 40), words(uint64(21100+k), 30)}
		ad := `<div class="advert"><p>` + words(uint64(21200+k), 12) + `</p></div>`
		related := `<div class="related"><p>` + words(uint64(21300+k), 6) + `</p></div>`
		pages = append(pages, testPage{
			url:  fmt.Sprintf("https://portal.example/posts/%03d.html", k),
			html: page("Portal", `<div id="nav"><p>Docs home</p><p>About</p><p>Search</p></div><div class="column">`+ad+`<div class="article">`+ps(body...)+`</div>`+related+`</div>`),
			want: body,
		})
	}
	return kindCase{"an advertisement above a copied article and related pages below it", pages}
}

func TestSiteKinds(t *testing.T) {
	for _, kc := range []kindCase{
		deepManuals(), currentEntry(), siblingSidebar(), tocSidebar(), hugeNav(), codeHeaders(),
		headingLinks(), menuSections(), bigNav(), ownContents(), asideHeading(),
		moduleHeader(), sectionBar(), shortModule(), titleBar(), articleHeader(),
		widgets(), flatWidgets(), copiedModule(), portalBlocks(),
	} {
		t.Run(kc.name, func(t *testing.T) {
			var s Site
			for _, p := range kc.pages {
				if err := s.Add(p.url, p.html); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range kc.pages {
				if p.want == nil {
					continue
				}
				got, err := s.Extract(p.url, p.html)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(p.want, got.Paragraphs); diff != "" {
					t.Errorf("Site.Extract(%s) mismatch (-want +got):\n%s", p.url, diff)
				}
			}
		})
	}
}

// wikiSite is a small wiki: for each of 20 page ids, a short article and
// an action page ("recent changes") that the wiki has for every id, which
// carries the id as its heading and the page's "last modified" line.
func wikiSite() (articles, actions []testPage) {
	users := []string{"alice", "bob"}
	for k := range 20 {
		id := fmt.Sprintf("topic%02d", k)
		footer := fmt.Sprintf(`<div class="docinfo">%s.txt · Last modified: 2024/0%d/%02d 1%d:0%d by %s</div>`, id, 1+k%9, 1+k, k%10, k%7, users[k%2])
		frame := func(main string) []byte {
			return page(id+" [Wiki]", `<div id="header"><p>Example Wiki</p><p>Trace: start</p></div><div id="main">`+main+footer+`</div><div id="footer"><p>Powered by a wiki engine</p></div>`)
		}
		body := words(uint64(12000+k), 10)
		articles = append(articles, testPage{
			url:  "https://wiki.example/doku.php?id=" + id,
			html: frame(`<h1>` + id + `</h1>` + ps(body)),
			want: []string{id, body},
		})
		actions = append(actions, testPage{
			url:  "https://wiki.example/doku.php?id=" + id + "&do=recent",
			html: frame(`<h2>` + id + `</h2><h1>Recent Changes</h1>` + ps("The following pages were changed recently:", "start – created", "wiki:syntax – typo fixed")),
		})
	}
	return articles, actions
}

// TestSiteChrome checks that per-page chrome inside the main element (the
// page id as a heading, a "last modified <date> by <user>" line) does not
// keep apart the action pages a wiki has for every page id, and that the
// short articles of the same wiki stay apart.
func TestSiteChrome(t *testing.T) {
	articles, actions := wikiSite()
	var s Site
	for _, p := range append(slices.Clone(articles), actions...) {
		if err := s.Add(p.url, p.html); err != nil {
			t.Fatal(err)
		}
	}
	var first []string
	for i, p := range actions {
		got, err := s.Extract(p.url, p.html)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = got.Paragraphs
			if want := []string{"Recent Changes", "The following pages were changed recently:", "start – created", "wiki:syntax – typo fixed"}; !cmp.Equal(want, first) {
				t.Errorf("Site.Extract(%s) = %q, want %q", p.url, first, want)
			}
			continue
		}
		if diff := cmp.Diff(first, got.Paragraphs); diff != "" {
			t.Errorf("action pages %s and %s differ (-first +this):\n%s", actions[0].url, p.url, diff)
		}
	}
	seen := map[string]string{}
	for _, p := range articles {
		got, err := s.Extract(p.url, p.html)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got.Paragraphs, p.want[1]) {
			t.Errorf("Site.Extract(%s) = %q, lost the article %q", p.url, got.Paragraphs, p.want[1])
		}
		k := got.String()
		if o, ok := seen[k]; ok {
			t.Errorf("articles %s and %s have the same text %q", o, p.url, k)
		}
		seen[k] = p.url
	}
}

// objectSite is a repository browser (after gitweb): each of 20 files is served by the hash of
// its content alone, under a bar that names the object by that hash, and beside the commit it
// is read at, under a header with the commit's subject. The site's header, search form and
// menu above the bar are marked as furniture; the file's lines are the page's own text.
func objectSite() (byHash, byCommit []testPage) {
	for k := range 20 {
		hash := fmt.Sprintf("%040x", uint64(0x9e3779b97f4a7c15)*uint64(k+1))
		name := fmt.Sprintf("file%02d.txt", k)
		var lines string
		for j := range 8 {
			lines += ps(words(uint64(31000+100*k+j), 12))
		}
		frame := func(bar, query string) []byte {
			return page("repo - blob - "+name, `<div class="page_header"><a href="/">projects</a> / repo / blob</div>`+
				`<form><div class="search"><input name="s"> search</div></form>`+
				`<div class="page_nav"><a href="/?a=log">log</a> | <a href="/?a=tree">tree</a> | <a href="/?a=raw&amp;`+query+`">raw</a></div>`+
				bar+`<div class="page_path"><a href="/?a=tree">[repo]</a> / <a href="/?a=blob&amp;f=`+name+`">`+name+`</a></div>`+
				`<div class="page_body">`+lines+`</div>`)
		}
		byHash = append(byHash, testPage{
			url:  "https://git.example/?a=blob&f=" + name + "&h=" + hash,
			html: frame(`<div class="title">`+hash+`</div>`, "h="+hash),
		})
		commit := fmt.Sprintf("%040x", uint64(0x51ed270b27b5a5f3)*uint64(k%5+1))
		byCommit = append(byCommit, testPage{
			url:  "https://git.example/?a=blob&f=" + name + "&h=" + hash + "&hb=" + commit,
			html: frame(`<div class="header"><a class="title" href="/?a=commit&amp;h=`+commit+`">Revise `+name+`</a></div>`, "hb="+commit),
		})
	}
	return byHash, byCommit
}

// TestSiteObjectID checks that the id of the object a page shows, in a bar between the site's
// furniture and the article, is per-page chrome: the two URLs of one file, by its hash and at
// a commit, have one text, and the texts of different files differ.
func TestSiteObjectID(t *testing.T) {
	byHash, byCommit := objectSite()
	var s Site
	for _, p := range append(slices.Clone(byHash), byCommit...) {
		if err := s.Add(p.url, p.html); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]string{}
	for i := range byHash {
		a, err := s.Extract(byHash[i].url, byHash[i].html)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Extract(byCommit[i].url, byCommit[i].html)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a.Paragraphs, b.Paragraphs); diff != "" {
			t.Errorf("Site.Extract of %s and %s differ (-by hash +at a commit):\n%s", byHash[i].url, byCommit[i].url, diff)
		}
		if o, ok := seen[a.String()]; ok {
			t.Errorf("files %s and %s have the same text %q", o, byHash[i].url, a.String())
		}
		seen[a.String()] = byHash[i].url
	}
}
