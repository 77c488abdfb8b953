package sitefamily

import (
	"fmt"
	"strings"
)

// buildDocs builds a versioned documentation tree: every release has its own tree, and
// aliases ("stable", "latest") serve the newest release and the development version. A page
// that did not change between two releases is one page under both trees; a page that changed
// is two (the traps).
func buildDocs(s *site) {
	var host, prefix, ext string
	switch s.r.IntN(3) {
	case 0: // Sphinx on a docs host: /3.1/library/os.html
		host, prefix, ext = s.scheme+"://docs."+s.domain, "", ".html"
	case 1: // Read the Docs: /en/3.1/library/os/
		host, prefix, ext = s.scheme+"://docs."+s.domain, "/en", "/"
	default: // a project site: /docs/3.1/library/os
		host, prefix, ext = s.origin(), "/docs", ""
	}
	// Release labels and aliases.
	nrel := s.intBetween(3, 7)
	major, minor := s.intBetween(0, 3), s.intBetween(0, 9)
	style := s.r.IntN(3)
	labels := make([]string, 0, nrel+2)
	for range nrel {
		switch style {
		case 0:
			labels = append(labels, fmt.Sprintf("%d.%d", major, minor))
		case 1:
			labels = append(labels, fmt.Sprintf("v%d.%d", major, minor))
		default:
			labels = append(labels, fmt.Sprintf("%d.%d.x", major, minor))
		}
		if s.chance(0.25) {
			major, minor = major+1, 0
		} else {
			minor++
		}
	}
	aliases := pick(s.r, [][2]string{{"stable", "latest"}, {"current", "dev"}, {"stable", "master"}, {"latest", ""}})
	// Versions: the releases, then the alias of the newest release (same content), then the
	// development version (its own changes), when the site has one.
	nv := nrel + 1
	if aliases[1] != "" {
		nv++
	}
	label := func(v int) string {
		switch {
		case v < nrel:
			return labels[v]
		case v == nrel:
			return aliases[0]
		}
		return aliases[1]
	}
	change := s.between(0.06, 0.25)   // per release: so 10-40% of pages differ between trees two releases apart
	seg := strings.Count(prefix, "/") // index of the version segment

	type docPage struct {
		sec, name string
		from, to  int   // versions [from, to) have the page
		cid       []int // content id per version
	}
	nsec := s.intBetween(3, 10)
	secs := make([]string, nsec)
	for i := range secs {
		secs[i] = s.slug(1, "")
	}
	ndoc := max(5, int(float64(s.pages)/(1+change*float64(nv))))
	docs := make([]docPage, 0, ndoc+nsec)
	names := map[string]bool{}
	for i := range ndoc + nsec {
		d := docPage{sec: secs[i%nsec], name: "index", to: nv}
		if i >= nsec {
			d.sec = pick(s.r, secs)
			d.name = s.slug(1+s.r.IntN(2), pick(s.r, []string{"-", "_"}))
		}
		if names[d.sec+"/"+d.name] {
			continue
		}
		names[d.sec+"/"+d.name] = true
		if i >= nsec && s.chance(0.3) {
			d.from = s.r.IntN(nrel)
		}
		if i >= nsec && s.chance(0.08) && d.from < nrel-1 {
			d.to = d.from + 1 + s.r.IntN(nrel-1-d.from)
		}
		d.cid = make([]int, nv)
		for v := d.from + 1; v < nv; v++ {
			d.cid[v] = d.cid[v-1]
			if v != nrel && s.chance(change) { // the alias of the newest release never differs from it
				d.cid[v] = v
			}
		}
		docs = append(docs, d)
	}
	url := func(d docPage, v int) string {
		p := host + prefix + "/" + label(v) + "/" + d.sec + "/"
		if d.name != "index" {
			p += d.name + ext
		}
		return p
	}
	var notFound *cluster
	for _, d := range docs {
		pages := map[int]*cluster{}
		boost := 1.0
		if d.name == "index" {
			boost = 4
		}
		var prev string
		prevCid := -1
		for v := d.from; v < d.to; v++ {
			// Newer trees are crawled more; the aliases most.
			seen := 0.25 + 0.55*float64(v+1)/float64(nrel)
			if v >= nrel {
				seen = 0.85
			}
			if !s.chance(seen) {
				continue
			}
			c := pages[d.cid[v]]
			if c == nil {
				c = s.page(boost * (1 + float64(v)/float64(nv)))
				pages[d.cid[v]] = c
			}
			u := url(d, v)
			s.main(c, u)
			if d.name == "index" && s.chance(0.3) {
				s.add(c, u+"index.html", wAlias)
			}
			if ext == ".html" && d.name != "index" && s.chance(0.04) {
				s.add(c, u+"?highlight="+s.word(2), wOnce)
			}
			if prev != "" && prevCid != d.cid[v] {
				s.trap("changed-between-versions", prev, u, Rewrite{Op: SetSegment, Index: seg})
			}
			prev, prevCid = u, d.cid[v]
		}
		// The version switcher links to the page in trees that lack it: a "not found" page.
		if d.from > 0 && s.chance(0.3) {
			if notFound == nil || len(notFound.urls) > 12 {
				notFound = s.noisePage()
			}
			s.add(notFound, url(d, s.r.IntN(d.from)), wOnce)
		}
	}
}
