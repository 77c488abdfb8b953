package main

import (
	"net/url"
	"strings"

	"github.com/undust/undust/htmltext"
)

// learnMain replaces the main-content texts by those of an htmltext.Site
// per host: every page of the host is added first (a batch, which gives
// the same result as adding them as a crawl meets them), then each page's
// main content is extracted without the learned template blocks. With the
// default shingle set of the text (Input.Sets) this is the page identity
// a crawler computes with the same calls (htmltext's ExampleSite_crawl):
// Site.Add and Site.Extract per host, then shingle.AppendHashes with
// default options; nothing else happens in between.
func (c *Corpus) learnMain() {
	hosts := map[string][]int{}
	var order []string
	for i, p := range c.Pages {
		h := ""
		if u, err := url.Parse(p.URL); err == nil {
			h = strings.ToLower(u.Host)
		}
		if _, ok := hosts[h]; !ok {
			order = append(order, h)
		}
		hosts[h] = append(hosts[h], i)
	}
	parallel(len(order), func(k int) {
		idx := hosts[order[k]]
		var s htmltext.Site
		for _, i := range idx {
			s.Add(c.Pages[i].URL, []byte(c.Pages[i].HTML)) // a bad URL or page is not learned from
		}
		for _, i := range idx {
			p := c.Pages[i]
			t, err := s.Extract(p.URL, []byte(p.HTML))
			if err != nil {
				continue // keep the plain main content
			}
			c.main[i] = Doc{ID: p.ID, URL: p.URL, Lang: p.Lang, Title: t.Title, Paragraphs: t.Paragraphs, Text: t.String()}
		}
	})
}
