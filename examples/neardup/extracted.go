package main

// The "ext" text variant: text extracted outside this command (by another
// main-content extractor, such as the adapter in htmltext/trafilatura and
// its cmd/extract), read from a file of JSON lines {"id", "title", "main"}
// in the format of a corpus's main_text.jsonl, gzip-compressed or not. Its
// rows are scored like those of the main variant; only the texts differ.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/undust/undust/shingle"
)

// extText is the Row.Text of the extracted variant.
const extText = "ext"

// loadExtracted reads the extracted texts from the file name. Every id must
// be a page of the corpus and appear once; a page the file does not list
// has no text (the extractor gave none). The main text's paragraphs are
// separated by blank lines.
func (c *Corpus) loadExtracted(name string) (*Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		r = z
	}
	docs := make([]Doc, len(c.Pages))
	for i, p := range c.Pages {
		docs[i] = Doc{ID: p.ID, URL: p.URL, Lang: p.Lang}
	}
	seen := make([]bool, len(c.Pages))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m struct {
			ID    string `json:"id"`
			Title string `json:"title"`
			Main  string `json:"main"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		i, ok := c.index[m.ID]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown page id %q", name, line, m.ID)
		}
		if seen[i] {
			return nil, fmt.Errorf("%s:%d: duplicate id %q", name, line, m.ID)
		}
		seen[i] = true
		d := &docs[i]
		d.Title, d.Text = m.Title, m.Main
		for _, p := range strings.Split(m.Main, "\n\n") {
			if p = strings.TrimSpace(p); p != "" {
				d.Paragraphs = append(d.Paragraphs, p)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	// Built here, like Corpus.Input builds the other variants.
	start := time.Now()
	in := &Input{Docs: docs, Pages: c.Pages, Main: true, Sets: make([]shingle.Set, len(docs))}
	parallel(len(docs), func(i int) {
		in.Sets[i] = shingle.NewSet(shingle.Hashes(docs[i].Text, shingle.Options{}))
	})
	c.SetTime += time.Since(start)
	return in, nil
}

// evaluateExtracted runs the methods on the extracted variant in.
func evaluateExtracted(c *Corpus, in *Input, ms []Method, progress io.Writer) []Row {
	var rows []Row
	for _, m := range ms {
		start := time.Now()
		res := m.Run(in)
		d := time.Since(start)
		row := score(c, m, true, res, d)
		row.Text = extText
		if progress != nil {
			fmt.Fprintf(progress, "neardup: %s on %s text: F1 %.3f in %.2fs\n", m.Name, row.Text, row.F1, d.Seconds())
		}
		rows = append(rows, row)
	}
	return rows
}
