// Package trafilatura adapts go-trafilatura, a Go port of Barbaresi's
// Trafilatura main-content extractor, to the [htmltext.Extractor]
// interface, so that a crawler or an evaluation can put it in place of
// [htmltext.Options].
//
// Trafilatura (Barbaresi, "Trafilatura: A Web Scraping Library and
// Command-Line Tool for Text Discovery and Extraction", ACL-IJCNLP 2021
// System Demonstrations) cleans the DOM of a page, scores its blocks by
// tag, link density and text length, and keeps the article and its
// headings, lists, tables and quotes; comments are extracted apart and left
// out here. With [Extractor.Fallback] it also runs go-readability and DOM
// Distiller and keeps the result it judges better.
//
// # Shape of the text
//
// The adapter turns the extractor's HTML result into a [htmltext.Text] of
// the same shape as htmltext gives: a paragraph ends at every block-level
// element (p, headings, list items, table cells, quotes, div, ...) and at
// br and hr; inline elements (a, b, em, span, code, ...) join their text
// without a space; runs of white space collapse to one space and every
// paragraph is trimmed and non-empty. Inside pre a blank line starts a new
// paragraph (line breaks within a paragraph collapse to spaces). The title
// is the one go-trafilatura finds in the page's metadata (og:title, the
// title element, the first h1, ...).
//
// # Input
//
// The page is read as UTF-8, as htmltext reads it (go-trafilatura's own
// entry point guesses the charset instead). Pages larger than
// [Extractor.MaxBytes] or with more elements than [Extractor.MaxElements]
// are rejected with [ErrTooLarge]; the HTML parser of golang.org/x/net/html
// rejects elements nested deeper than 512, which bounds the recursion of
// the extractor. A panic inside go-trafilatura or its dependencies is
// recovered and returned as a [*PanicError]. The extractor builds a DOM and
// copies it three times, so memory is a small multiple of the page, and its
// time grows faster than linearly in the number of elements (about
// quadratically on long runs of sibling paragraphs or links), which the
// element limit bounds to seconds per page; it is a small fraction of
// htmltext's speed (see the benchmarks).
//
// # Dependencies
//
// This package is a module of its own so that htmltext keeps its short
// dependency list: go-trafilatura brings go-readability, go-domdistiller,
// go-htmldate, a language guesser and their dependencies, about 70
// packages.
package trafilatura
