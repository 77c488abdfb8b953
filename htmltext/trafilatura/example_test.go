package trafilatura_test

import (
	"fmt"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/htmltext/trafilatura"
)

const page = `<html><head><title>Queues | Docs</title></head><body>
<nav><a href="/">Home</a> <a href="/faq">FAQ</a> <a href="/about">About</a></nav>
<article><h1>Queues</h1>
<p>The print server keeps one queue per printer. Jobs wait in the queue until the
printer is free, and the server sends them in the order they arrived.</p>
<p>To add a queue, open the administration page, choose <em>Add printer</em> and give
the queue a short name that every client machine on the network will show.</p>
</article>
<footer>Copyright 2024 Example Docs</footer></body></html>`

func ExampleExtractor_ExtractText() {
	t, err := trafilatura.Extractor{}.ExtractText([]byte(page))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("title: %s\n", t.Title)
	for _, p := range t.Paragraphs {
		fmt.Printf("- %.50s\n", p)
	}
	// Output:
	// title: Queues
	// - Queues
	// - The print server keeps one queue per printer. Jobs
	// - To add a queue, open the administration page, choo
}

// An Extractor stands in wherever an htmltext.Extractor is taken, here
// beside htmltext's own main-content extraction.
func ExampleExtractor() {
	for _, x := range []htmltext.Extractor{
		htmltext.Options{MainContent: true},
		trafilatura.Extractor{},
	} {
		t, err := x.ExtractText([]byte(page))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%T: %d paragraphs, title %q\n", x, len(t.Paragraphs), t.Title)
	}
	// Output:
	// htmltext.Options: 3 paragraphs, title "Queues | Docs"
	// trafilatura.Extractor: 3 paragraphs, title "Queues"
}

func ExampleExtractor_maxBytes() {
	_, err := trafilatura.Extractor{MaxBytes: 100}.ExtractText([]byte(page))
	fmt.Println(err)
	// Output:
	// trafilatura: page too large: 551 bytes, limit 100
}
