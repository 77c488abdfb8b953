package sitefamily

import (
	"fmt"
	"strconv"
	"strings"
)

// buildWiki builds a wiki in the URL scheme of MediaWiki or DokuWiki.
//
// MediaWiki: a title under /wiki/ and as index.php?title=, its first letter in either case,
// its current revision by oldid=, its printable view, redirects; on a wiki closed to
// anonymous edits, action=edit of every title is one "log in to edit" page. Traps: old
// revisions (oldid=), the history, info and (on an open wiki) edit views (action=), titles
// that differ in case after the first letter (Nasa and NASA), and recent changes by days=
// and limit=. Noise: stubs whose text is only the stub template, which content hashing groups.
//
// DokuWiki: a page id ns:page in the query, in the path or both; do=recent shows the one page
// of recent changes whatever the id is (a large, legitimate cluster). Traps: do=index shows
// the index opened at the id's namespace (one page per namespace, not per id), do=backlink one
// page per id, and rev= an old revision. Noise: "this topic does not exist yet", one page for
// every missing id.
func buildWiki(s *site) {
	if s.chance(0.5) {
		buildMediaWiki(s)
	} else {
		buildDokuWiki(s)
	}
}

func buildMediaWiki(s *site) {
	o := s.origin()
	script := pick(s.r, []string{"/w/index.php", "/index.php", "/wiki/index.php"})
	nextRev := 100000 + s.r.IntN(900000)
	var stubs, login *cluster
	if s.chance(0.5) {
		login = s.page(1) // "you must log in to edit pages", whatever the title
	}
	titles := map[string]bool{}
	for made := 0; made < s.pages; {
		t := s.fresh(func() string { return s.title(1+s.r.IntN(3), "_") })
		titles[t] = true
		twin := ""
		if s.chance(0.03) {
			twin = strings.ToUpper(t) // an acronym's page beside the word's: another page
			if titles[twin] || twin == t {
				twin = ""
			}
		}
		for _, title := range []string{t, twin} {
			if title == "" {
				continue
			}
			titles[title] = true
			page := o + "/wiki/" + title
			if title != twin && s.chance(0.02) {
				if stubs == nil || len(stubs.urls) > 8 {
					stubs = s.noisePage()
				}
				s.addNoise(stubs, page)
				continue
			}
			c := s.page(1)
			q := o + script + "?title=" + title
			s.main(c, page)
			made++
			if s.chance(0.3) {
				s.add(c, q, wAlias)
			}
			if lower := strings.ToLower(title[:1]) + title[1:]; lower != title && s.chance(0.1) {
				s.add(c, o+"/wiki/"+lower, wAlias)
			}
			cur := nextRev + s.r.IntN(1000)
			nextRev = cur + 1
			if s.chance(0.15) {
				s.add(c, fmt.Sprintf("%s&oldid=%d", q, cur), wAlias)
			}
			if s.chance(0.08) {
				s.add(c, q+"&printable=yes", wAlias)
			}
			if s.chance(0.05) {
				s.add(c, q+"&mobileaction=toggle_view_desktop", wOnce)
			}
			if s.chance(0.08) {
				s.add(c, o+"/wiki/"+s.fresh(func() string { return s.title(1+s.r.IntN(2), "_") }), wAlias) // a redirect
			}
			// Old revisions, the history and the edit view: other pages.
			prev := ""
			if s.has(q) {
				prev = q
			}
			for range s.repeats(c, 0.4) {
				old := s.page(0.2)
				u := fmt.Sprintf("%s&oldid=%d", q, cur-1-s.r.IntN(cur-100000))
				for try := 0; s.has(u) && try < 8; try++ { // a revision drawn twice
					u = fmt.Sprintf("%s&oldid=%d", q, cur-1-s.r.IntN(cur-100000))
				}
				if !s.has(u) && s.add(old, u, wMain) {
					made++
					if prev != "" {
						s.trap("old-revision", prev, u, Rewrite{Op: DropParam, Arg: "oldid"})
					}
				}
			}
			for _, action := range []string{"history", "edit", "info"} {
				if s.chance(0.12) {
					u := q + "&action=" + action
					if action == "edit" && login != nil {
						s.add(login, u, wOnce)
						continue
					}
					v := s.page(0.3)
					s.main(v, u)
					made++
					if s.chance(0.5) {
						s.add(v, o+"/wiki/"+title+"?action="+action, wAlias)
					}
					if prev != "" {
						s.trap("action-is-content", prev, u, Rewrite{Op: DropParam, Arg: "action"})
					}
				}
			}
			if twin != "" && title == twin {
				s.trap("case-is-content", o+"/wiki/"+t, page, Rewrite{Op: LowerPath})
			}
		}
	}
	// Recent changes by days= and limit=: each combination its own page.
	var prev string
	for _, days := range []int{1, 3, 7, 14, 30} {
		for _, limit := range []int{50, 100, 250, 500} {
			if !s.chance(0.4) {
				continue
			}
			u := fmt.Sprintf("%s/wiki/Special:RecentChanges?days=%d&limit=%d", o, days, limit)
			s.main(s.page(2), u)
			if prev != "" && strings.HasSuffix(prev, "&limit="+strconv.Itoa(limit)) {
				s.trap("few-values-are-content", prev, u, Rewrite{Op: DropParam, Arg: "days"})
			}
			prev = u
		}
	}
}

func buildDokuWiki(s *site) {
	o := s.origin()
	mode := s.r.IntN(3)
	form := func(m int, id string) string {
		switch m {
		case 0:
			return o + "/doku.php?id=" + id
		case 1:
			return o + "/" + strings.ReplaceAll(id, ":", "/")
		}
		return o + "/doku.php/" + id
	}
	script := o + "/doku.php"
	q := func(id, params string) string { return script + "?id=" + id + "&" + params }
	nns := s.intBetween(3, 8)
	nss := make([]string, nns)
	for i := range nss {
		nss[i] = s.fresh(func() string { return s.slug(1, "") })
	}
	recent := s.page(3)
	s.main(recent, script+"?do=recent")
	index := map[string]*cluster{}
	var missing *cluster
	var prevBack, prevIndex, prevIndexNS string
	for made := 0; made < s.pages; made++ {
		ns := pick(s.r, nss)
		id := ns + ":" + s.fresh(func() string { return s.slug(1+s.r.IntN(2), "_") })
		c := s.page(1)
		u := form(mode, id)
		s.main(c, u)
		for m := range 3 {
			if m != mode && s.chance(0.2) {
				s.add(c, form(m, id), wAlias)
			}
		}
		if s.chance(0.05) {
			s.add(c, withParam(u, "s[]="+s.word(2)), wOnce)
		}
		// Recent changes, whatever the id: one page.
		if s.chance(0.25) {
			s.add(recent, q(id, "do=recent"), wOnce)
		}
		// The index opened at the id's namespace: one page per namespace.
		if s.chance(0.2) {
			x := index[ns]
			if x == nil {
				x = s.page(1)
				index[ns] = x
			}
			iu := q(id, "do=index")
			s.add(x, iu, wAlias)
			if prevIndex != "" && prevIndexNS != ns {
				s.trap("namespace-is-content", prevIndex, iu, Rewrite{Op: DropParam, Arg: "id"})
			}
			prevIndex, prevIndexNS = iu, ns
		}
		// Backlinks: one page per id.
		if s.chance(0.15) {
			b := q(id, "do=backlink")
			s.main(s.page(0.3), b)
			made++
			if prevBack != "" {
				s.trap("id-is-content", prevBack, b, Rewrite{Op: DropParam, Arg: "id"})
			}
			prevBack = b
		}
		// Old revisions.
		for range s.repeats(c, 0.3) {
			r := withParam(u, "rev="+strconv.Itoa(1200000000+s.r.IntN(500000000)))
			if s.add(s.page(0.2), r, wMain) {
				made++
				s.trap("old-revision", u, r, Rewrite{Op: DropParam, Arg: "rev"})
			}
		}
		if s.chance(0.03) {
			if missing == nil || len(missing.urls) > 15 {
				missing = s.noisePage()
			}
			s.addNoise(missing, form(mode, ns+":"+s.freshSlug(2, "_")))
		}
	}
	// Recent changes, second and later pages.
	for first := 20; first <= 100; first += 20 {
		if s.chance(0.5) {
			s.main(s.page(0.5), script+"?do=recent&first="+strconv.Itoa(first))
		}
	}
}
