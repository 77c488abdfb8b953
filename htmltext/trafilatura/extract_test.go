package trafilatura

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	gotrafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/undust/undust/htmltext"
)

func readPage(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExtractText(t *testing.T) {
	tests := []struct {
		file string
		want htmltext.Text
	}{
		// Header menu, sidebar, footer and script dropped; heading, list
		// items and paragraphs one paragraph each; inline em and a joined.
		{"article.html", htmltext.Text{Title: "Configuring the print queue", Paragraphs: []string{
			"Configuring the print queue",
			"The print server keeps one queue per printer. Jobs wait in the queue until the printer is free, and the server sends them in the order they arrived unless an administrator moves them.",
			"To add a queue, open the administration page, choose Add printer and give the queue a short name. The name appears in the print dialog of every client machine on the network.",
			"Limits",
			"A queue can hold at most five hundred jobs. Larger jobs are split by the server into parts of ten megabytes each, which are printed in sequence.",
			"Jobs older than a week are removed.",
			"Paused queues keep their jobs.",
		}}},
		// Chinese: menu div and footer div dropped.
		{"zh.html", htmltext.Text{Title: "软件包的维护", Paragraphs: []string{
			"维护者负责跟踪上游的新版本，并在发行版中及时更新软件包。每次更新之前，应当先阅读上游的变更记录，确认没有不兼容的改动，然后再构建和测试新的软件包。",
			"如果发现了安全问题，维护者应当尽快联系安全团队，并准备修复补丁。修复后的软件包会通过安全更新渠道发布给所有用户，用户只需要按照平常的方式升级系统即可。",
			"在长期维护的过程中，维护者还应当关注用户报告的错误，及时回复并修复。对于无法修复的问题，应当在文档中说明原因，并给出可行的替代办法。",
		}}},
		// The breadcrumb is dropped; go-trafilatura rewrites the pre block
		// and loses its blank line, so it stays one paragraph.
		{"pre.html", htmltext.Text{Title: "Building the package", Paragraphs: []string{
			"Building the package",
			"Run the build in a clean directory so that no stale files from an earlier build end up in the package. The commands below show a complete session from checkout to the finished archive, with the output trimmed.",
			"$ git clone https://example.org/tool.git $ cd tool $ make dist building tool-1.2.tar.gz",
			"The archive lands in the current directory. Check its contents with tar before you upload it, and compare the list of files with the one in the previous release.",
		}}},
	}
	for _, tt := range tests {
		for _, fallback := range []bool{false, true} {
			got, err := Extractor{Fallback: fallback}.ExtractText(readPage(t, tt.file))
			if err != nil {
				t.Fatalf("ExtractText(%s, fallback %v): %v", tt.file, fallback, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ExtractText(%s, fallback %v) mismatch (-want +got):\n%s", tt.file, fallback, diff)
			}
		}
	}
}

// TestWalker checks the paragraph shape on result trees built by hand.
func TestWalker(t *testing.T) {
	tests := []struct {
		html string
		want []string
	}{
		{"<p>a <b>b</b>c</p><p>d</p>", []string{"a bc", "d"}},          // inline joins, block splits
		{"<div>a<div>b</div>c</div>", []string{"a", "b", "c"}},         // a nested block splits its parent
		{"<p>a<br>b</p>", []string{"a", "b"}},                          // br ends a paragraph
		{"<p>  a \n\t b  </p><p> </p>", []string{"a b"}},               // white space collapses; empty dropped
		{"<pre>x\n  y\n\n z\n \n\nw</pre>", []string{"x y", "z", "w"}}, // blank lines split pre
		{"<p>a<script>s()</script><style>p{}</style>b</p>", []string{"ab"}},
		{"<ul><li>one</li><li>two <a href=x>link</a></li></ul>", []string{"one", "two link"}},
		{"<table><tr><td>a</td><td>b</td></tr></table>", []string{"a", "b"}}, // cells split
		{"<p>x<!-- c -->y</p>", []string{"xy"}},                              // comments skipped
	}
	for _, tt := range tests {
		doc, err := html.Parse(strings.NewReader(tt.html))
		if err != nil {
			t.Fatal(err)
		}
		var w walker
		w.node(doc)
		w.flush()
		if diff := cmp.Diff(tt.want, w.paras); diff != "" {
			t.Errorf("walk(%q) mismatch (-want +got):\n%s", tt.html, diff)
		}
	}
}

func TestExtractTextErrors(t *testing.T) {
	deep := strings.Repeat("<div>", 600) + "text" + strings.Repeat("</div>", 600)
	tests := []struct {
		name    string
		e       Extractor
		page    string
		wantErr bool
		is      error  // if not nil, the error wraps it
		errText string // if not "", the error's text starts with it
	}{
		{"limit", Extractor{MaxBytes: 10}, "<p>eleven bytes</p>", true, ErrTooLarge, "trafilatura: page too large: 19 bytes, limit 10"},
		{"at limit", Extractor{MaxBytes: 19}, "<p>eleven bytes</p>", false, nil, ""},
		{"elements", Extractor{MaxElements: 5}, "<p>a<p>b<p>c", true, ErrTooLarge, "trafilatura: page too large: more than 5 elements"}, // html, head, body, 3 p
		{"elements at limit", Extractor{MaxElements: 6}, "<p>a<p>b<p>c", false, nil, ""},
		{"deep", Extractor{}, deep, true, nil, "trafilatura: parse: "}, // the parser's nesting bound
		{"not deep", Extractor{}, deep[500*5:], false, nil, ""},
		{"empty", Extractor{}, "", false, nil, ""},
		{"no text", Extractor{}, "<html><body><div></div></body></html>", false, nil, ""},
		{"binary", Extractor{}, "\x00\xff\xfe<\x00p>", false, nil, ""},
	}
	for _, tt := range tests {
		got, err := tt.e.ExtractText([]byte(tt.page))
		if !tt.wantErr {
			if err != nil {
				t.Errorf("%s: ExtractText: %v", tt.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: ExtractText succeeded, want an error", tt.name)
			continue
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: ExtractText error %v, want %v", tt.name, err, tt.is)
		}
		if !strings.HasPrefix(err.Error(), tt.errText) {
			t.Errorf("%s: ExtractText error %q, want it to start with %q", tt.name, err, tt.errText)
		}
		if got.Title != "" || got.Paragraphs != nil {
			t.Errorf("%s: ExtractText = %+v with an error, want empty", tt.name, got)
		}
	}
}

// TestExtractTextEmpty checks that a page without text gives an empty Text
// rather than the extractor's error.
func TestExtractTextEmpty(t *testing.T) {
	for _, page := range []string{"", "<html><head></head><body></body></html>", "<p> </p>", "<!-- c --><script>x()</script>"} {
		got, err := Extractor{}.ExtractText([]byte(page))
		if err != nil || len(got.Paragraphs) != 0 {
			t.Errorf("ExtractText(%q) = %+v, %v; want no paragraphs, no error", page, got, err)
		}
	}
}

func TestExtractTextPanic(t *testing.T) {
	defer func(f func(*html.Node, gotrafilatura.Options) (*gotrafilatura.ExtractResult, error)) {
		extractDocument = f
	}(extractDocument)
	extractDocument = func(*html.Node, gotrafilatura.Options) (*gotrafilatura.ExtractResult, error) {
		var m map[string]int
		m["x"] = 1 // a runtime panic, as an extractor bug would raise
		return nil, nil
	}
	got, err := Extractor{}.ExtractText(readPage(t, "article.html"))
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("ExtractText error %v, want a *PanicError", err)
	}
	if !strings.HasPrefix(err.Error(), "trafilatura: extractor panicked: ") || len(pe.Stack) == 0 {
		t.Errorf("PanicError %q with %d bytes of stack", err, len(pe.Stack))
	}
	if got.Title != "" || got.Paragraphs != nil {
		t.Errorf("ExtractText = %+v with a panic, want empty", got)
	}
}

// TestConcurrent runs one Extractor from many goroutines (run it with
// -race) and checks that every result equals the sequential one.
func TestConcurrent(t *testing.T) {
	files := []string{"article.html", "zh.html", "pre.html"}
	var e Extractor
	want := map[string]htmltext.Text{}
	for _, f := range files {
		x, err := e.ExtractText(readPage(t, f))
		if err != nil {
			t.Fatal(err)
		}
		want[f] = x
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 6 {
				f := files[(g+i)%len(files)]
				got, err := e.ExtractText(readPage(t, f))
				if err != nil {
					t.Error(err)
					return
				}
				if diff := cmp.Diff(want[f], got); diff != "" {
					t.Errorf("concurrent ExtractText(%s) mismatch (-want +got):\n%s", f, diff)
				}
			}
		})
	}
	wg.Wait()
}

// countSlow is the obvious recursive count of element nodes.
func countSlow(n *html.Node) int {
	c := 0
	if n.Type == html.ElementNode {
		c++
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c += countSlow(k)
	}
	return c
}

func TestCountElements(t *testing.T) {
	for _, s := range []string{
		"",                                  // html, head, body
		"<p>a<p>b<!-- c -->",                // siblings and a comment
		"<div><div><span>x</span></div><p>", // nesting, then a sibling
		strings.Repeat("<div>", 100) + strings.Repeat("<p>x</p>", 50),
		readAll(t),
	} {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		want := countSlow(doc)
		if got := countElements(doc, 1<<30); got != want {
			t.Errorf("countElements(%.40q) = %d, want %d", s, got, want)
		}
		if got := countElements(doc, want-1); got != want {
			t.Errorf("countElements(%.40q, limit %d) = %d, want %d (limit+1)", s, want-1, got, want)
		}
		if got := countElements(doc.LastChild, 1<<30); got != countSlow(doc.LastChild) {
			t.Errorf("countElements(subtree of %.40q) = %d, want %d", s, got, countSlow(doc.LastChild))
		}
	}
}

func readAll(t *testing.T) string {
	return string(readPage(t, "article.html"))
}
