package htmltext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		in   string
		main bool
		want Text
	}{
		// Block elements end paragraphs; inline elements join text.
		{"blocks", `<p>one <b>two</b></p><div>th<i>ree</i></div>`, false,
			Text{Paragraphs: []string{"one two", "three"}}},
		// br and hr break paragraphs, including a stray </br>.
		{"br", `a<br>b<hr>c</br>d`, false, Text{Paragraphs: []string{"a", "b", "c", "d"}}},
		// Entities are decoded, white space collapses.
		{"entities", "<p>  fish &amp;\n\tchips &lt;3&nbsp;x </p>", false,
			Text{Paragraphs: []string{"fish & chips <3\u00a0x"}}},
		// script, style, noscript, template and head are invisible; title is kept apart.
		{"invisible", `<html><head><title> My  page </title><style>p{}</style></head><body><script>var x="<p>no</p>"</script><noscript>no</noscript><template><p>no</p></template><p>yes</p></body></html>`, false,
			Text{Title: "My page", Paragraphs: []string{"yes"}}},
		// The hidden attribute is kept by default.
		{"hidden kept", `<p>a<span hidden>b</span></p>`, false, Text{Paragraphs: []string{"ab"}}},
		// Headings and list items are paragraphs.
		{"lists", `<h2>T</h2><ul><li>x<li>y</ul>`, false, Text{Paragraphs: []string{"T", "x", "y"}}},
		// Unclosed p and li do not nest forever, and text still comes out.
		{"broken", `<div><p>a<p>b<li>c</span></div>d</b>`, false,
			Text{Paragraphs: []string{"a", "b", "c", "d"}}},
		// Table cells are paragraphs.
		{"table", `<table><tr><td>a<td>b<tr><th>c</table>`, false, Text{Paragraphs: []string{"a", "b", "c"}}},
		// pre keeps lines and splits at blank lines.
		{"pre", "<pre>  x = 1\n  y = 2  \n\n\nz</pre>", false, Text{Paragraphs: []string{"x = 1\n  y = 2", "z"}}},
		// Empty input gives an empty text.
		{"empty", ``, false, Text{}},
		// Main content: nav, aside, footer and named template blocks go.
		{"main tags", `<nav><p>menu</p></nav><div class="ad"><p>buy</p></div><article><header><h1>Title</h1></header><p>body</p></article><aside>side</aside><footer>foot</footer>`, true,
			Text{Paragraphs: []string{"Title", "body"}}},
		// Main content: a header outside article is template.
		{"main header", `<header><p>logo</p></header><p>body</p>`, true, Text{Paragraphs: []string{"body"}}},
		// Main content: class parts match whole or contained words, inline spans are not judged.
		{"main names", `<div class="head">h</div><div id="x-navbar">n</div><p>code <span class="comment">// c</span></p><div class="shared">s</div>`, true,
			Text{Paragraphs: []string{"h", "code // c", "s"}}},
		// Main content: menus of links go, a table of contents stays.
		{"main links", `<ul><li><a href=a>A</a></li><li><a href=b>B</a></li><li><a href=c>C</a></li></ul><div class="toc"><ul><li><a href=a>1. A</a></li><li><a href=b>2. B</a></li><li><a href=c>3. C</a></li></ul></div><p>text <a href=x>link</a></p>`, true,
			Text{Paragraphs: []string{"1. A", "2. B", "3. C", "text link"}}},
		// Main content: a page that is all template keeps its full text.
		{"main fallback", `<nav><p>only nav</p></nav>`, true, Text{Paragraphs: []string{"only nav"}}},
		// Main content: ARIA roles mark template blocks.
		{"main roles", `<div role="navigation">n</div><div role="main">m</div>`, true, Text{Paragraphs: []string{"m"}}},
	}
	for _, tt := range tests {
		got, err := Extract([]byte(tt.in), Options{MainContent: tt.main})
		if err != nil {
			t.Errorf("%s: Extract error %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Extract(%q) mismatch (-want +got):\n%s", tt.name, tt.in, diff)
		}
	}
}

func TestDropHidden(t *testing.T) {
	in := `<p>a</p><p hidden>b</p><div style="DISPLAY: none"><p>c</p></div><p>d</p>`
	got, _ := Extract([]byte(in), Options{DropHidden: true})
	if want := []string{"a", "d"}; !cmp.Equal(want, got.Paragraphs) {
		t.Errorf("Extract(%q, DropHidden) = %q, want %q", in, got.Paragraphs, want)
	}
}

func readTestdata(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	m := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = b
	}
	return m
}

func TestTestdataMain(t *testing.T) {
	pages := readTestdata(t)
	tests := []struct {
		file string
		want []string
	}{
		// The portal template around the article goes; the article stays.
		{"portal.html", []string{
			"Setting up printers",
			"A printer is set up once on the main server and is then shared with every workstation in the network.",
			"Open the printer administration page and choose Add printer; the wizard finds printers on the local network.",
			"Pick the driver that matches the model.", "Print a test page & check the margins.",
		}},
		// DocBook navigation goes; the table of contents and pre text stay.
		{"manual.html", []string{
			"Chapter 2. Getting started", "Table of Contents", "2.1. Where to get it", "2.2. Installing", "2.3. First steps",
			"This chapter explains how to get the system and how to install it on a single computer.",
			"2.1. Where to get it", "Images are published on the download mirrors[1].",
			"$ sha256sum image.iso\n$ dd if=image.iso of=/dev/sdX", "$ sync",
			"Writing the image erases the stick.", "Check the device name twice.",
		}},
		// A help page: header, aside and footer go; related topics are article.
		{"zh.html", []string{"插入图片", "您可以从文件中插入图片，也可以从扫描仪插入图片。", "选择「插入 - 图像」，然后选择文件。", "相关主题", "图像属性"}},
	}
	for _, tt := range tests {
		got, err := Extract(pages[tt.file], Options{MainContent: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got.Paragraphs); diff != "" {
			t.Errorf("Extract(%s, MainContent) mismatch (-want +got):\n%s", tt.file, diff)
		}
	}
}

// slowExtract is the reference: it parses a DOM with html.Parse and walks
// it with the same rules. On well-formed input it must agree with Extract.
func slowExtract(src []byte, o Options) Text {
	doc, err := html.Parse(strings.NewReader(string(src)))
	if err != nil {
		return Text{}
	}
	type p struct {
		text          string
		boiler, linky bool
		list          *html.Node
		toc           bool
	}
	var out []p
	var title string
	var cur strings.Builder
	var curLink int
	var walk func(n *html.Node, boiler, toc, inLink, inPre bool, list *html.Node)
	flush := func(boiler, toc bool, list *html.Node) {
		s := cur.String()
		cur.Reset()
		l := curLink
		curLink = 0
		if strings.Contains(s, "\n") {
			for _, q := range splitBlank(s) {
				out = append(out, p{text: q, boiler: boiler, toc: toc, list: list, linky: l > 0 && 3*l >= 2*len(q)})
			}
			return
		}
		s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", "\x00")), " ")
		s = strings.ReplaceAll(s, "\x00", "\u00a0")
		if s != "" {
			out = append(out, p{text: s, boiler: boiler, toc: toc, list: list, linky: l > 0 && 3*l >= 2*len(s)})
		}
	}
	inArticle := func(n *html.Node) bool {
		for a := n.Parent; a != nil; a = a.Parent {
			if a.DataAtom == atom.Article || a.DataAtom == atom.Main {
				return true
			}
		}
		return false
	}
	walk = func(n *html.Node, boiler, toc, inLink, inPre bool, list *html.Node) {
		switch n.Type {
		case html.TextNode:
			s := n.Data
			if !inPre {
				s = strings.Map(func(r rune) rune {
					if r == '\n' || r == '\t' || r == '\r' || r == '\f' {
						return ' '
					}
					return r
				}, s)
			}
			before := cur.Len()
			cur.WriteString(s)
			if inLink {
				curLink += len(strings.Join(strings.Fields(cur.String()[before:]), " "))
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Title:
				if title == "" {
					title = strings.Join(strings.Fields(textOf(n)), " ")
				}
				return
			case atom.Head:
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.DataAtom == atom.Title && title == "" {
						title = strings.Join(strings.Fields(textOf(c)), " ")
					}
				}
				return
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe, atom.Noembed,
				atom.Noframes, atom.Object, atom.Select:
				return
			}
			block := isBlock(n.DataAtom)
			if o.MainContent {
				switch n.DataAtom {
				case atom.Nav, atom.Aside, atom.Footer, atom.Form, atom.Menu, atom.Dialog:
					boiler = true
				case atom.Header:
					boiler = boiler || !inArticle(n)
				}
				if block {
					for _, a := range n.Attr {
						if (a.Key == "class" || a.Key == "id") && boilerName([]byte(a.Val)) ||
							a.Key == "role" && boilerRole([]byte(a.Val)) {
							boiler = true
						}
						if (a.Key == "class" || a.Key == "id") && isTOCName([]byte(a.Val)) {
							toc = true
						}
					}
				}
			}
			switch n.DataAtom {
			case atom.A:
				for _, a := range n.Attr {
					if a.Key == "href" {
						inLink = true
					}
				}
			case atom.Pre, atom.Textarea, atom.Listing:
				inPre = true
			case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
				list = n
			}
			if block {
				flush(boiler, toc, list)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, boiler, toc, inLink, inPre, list)
			}
			if block {
				flush(boiler, toc, list)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, boiler, toc, inLink, inPre, list)
		}
	}
	walk(doc, false, false, false, false, nil)
	flush(false, false, nil)
	t := Text{Title: title}
	count := map[*html.Node]int{}
	for _, q := range out {
		if !q.boiler && q.linky && q.list != nil && !q.toc {
			count[q.list]++
		}
	}
	for _, q := range out {
		if o.MainContent && (q.boiler || q.linky && q.list != nil && !q.toc && count[q.list] >= 3) {
			continue
		}
		t.Paragraphs = append(t.Paragraphs, q.text)
	}
	if len(t.Paragraphs) == 0 {
		for _, q := range out {
			t.Paragraphs = append(t.Paragraphs, q.text)
		}
	}
	return t
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// wellFormed are inputs on which the tokenizer's stack and the HTML
// parser's tree agree.
var wellFormed = []string{
	`<p>one <b>two</b></p><div>th<i>ree</i></div>`,
	`<html><head><title>T</title></head><body><ul><li>a</li><li><a href="x">b</a></li></ul></body></html>`,
	`<div class="article"><div class="ad"><p>buy</p></div><p>text</p></div><aside><p>s</p></aside>`,
	`<table><tbody><tr><td>a</td><td>b <em>c</em></td></tr></tbody></table>`,
	"<pre>a\n\nb</pre><p>c</p>",
	`<article><header><h1>x</h1></header><p>y</p></article><header>z</header>`,
	`<ul><li><a href=a>A</a></li><li><a href=b>B</a></li><li><a href=c>C</a></li></ul><p>z</p>`,
}

func TestExtractMatchesReference(t *testing.T) {
	inputs := append([]string(nil), wellFormed...)
	for _, b := range readTestdata(t) {
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		for _, main := range []bool{false, true} {
			o := Options{MainContent: main}
			got, err := Extract([]byte(in), o)
			if err != nil {
				t.Fatal(err)
			}
			want := slowExtract([]byte(in), o)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Extract(%.60q, %+v) differs from reference (-ref +fast):\n%s", in, o, diff)
			}
		}
	}
}

func TestDeepNesting(t *testing.T) {
	// Hostile nesting is bounded and the text survives.
	in := strings.Repeat("<div><span>", 100000) + "deep" + strings.Repeat("</span></div>", 100000)
	got, err := Extract([]byte(in), Options{MainContent: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"deep"}; !cmp.Equal(want, got.Paragraphs) {
		t.Errorf("deep nesting: got %q, want %q", got.Paragraphs, want)
	}
}

func TestString(t *testing.T) {
	tx := Text{Title: "t", Paragraphs: []string{"a", "b"}}
	if got, want := tx.String(), "a\n\nb"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestBoilerplate(t *testing.T) {
	page := func(article ...string) Text {
		return Text{Paragraphs: append(append([]string{"Home Docs Blog"}, article...), "Copyright Example")}
	}
	var b Boilerplate
	for _, a := range []string{"first article", "second article", "third article", "fourth article"} {
		b.Add(page(a))
	}
	b.Add(page("first article")) // a copy: its text is in 2 of 5 pages
	tests := []struct {
		p    string
		want bool
	}{
		{"Home Docs Blog", true},    // in every page
		{"Copyright Example", true}, // in every page
		{"first article", false},    // in 2 pages: below MinPages
		{"never seen", false},       // in none
	}
	for _, tt := range tests {
		if got := b.IsTemplate(tt.p); got != tt.want {
			t.Errorf("IsTemplate(%q) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got, want := b.Strip(page("x")).Paragraphs, []string{"x"}; !cmp.Equal(want, got) {
		t.Errorf("Strip = %q, want %q", got, want)
	}
	// A page that is all template is returned whole.
	all := Text{Paragraphs: []string{"Home Docs Blog"}}
	if got := b.Strip(all); !cmp.Equal(all, got) {
		t.Errorf("Strip(all template) = %q", got.Paragraphs)
	}
	if b.Pages() != 5 {
		t.Errorf("Pages() = %d, want 5", b.Pages())
	}
	// MinFraction: a block in 3 of 10 pages is not template at 0.5.
	var c Boilerplate
	for i := range 10 {
		if i < 3 {
			c.Add(Text{Paragraphs: []string{"see also"}})
		} else {
			c.Add(Text{Paragraphs: []string{"other"}})
		}
	}
	if c.IsTemplate("see also") {
		t.Errorf("IsTemplate(see also) in 3 of 10 pages = true, want false")
	}
}
