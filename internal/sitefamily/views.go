package sitefamily

import (
	"fmt"
	"strconv"
)

// buildPrint builds a news site with printer-friendly and AMP views of its articles: under
// /print/, as ?print=1, ?view=print or a /print segment, and /amp/. The print view of a
// one-page article is the article. Traps: an article of several pages (?page=2) prints whole,
// so its print view is not its first page, nor the second page the third. Noise: print views
// of removed articles, one "not found" page.
func buildPrint(s *site) {
	o := s.origin()
	style := s.r.IntN(4)
	amp := s.chance(0.5)
	multi := s.between(0.15, 0.4) // share of articles of several pages
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.fresh(func() string { return s.slug(1, "") })
	}
	id := 1000 + s.r.IntN(90000)
	var gone *cluster
	for made := 0; made < s.pages; {
		id += 1 + s.r.IntN(7)
		path := fmt.Sprintf("/%s/%d/%s", pick(s.r, sections), id, s.slug(3+s.r.IntN(4), "-"))
		u := o + path
		var print string
		var naive Rewrite
		switch style {
		case 0:
			print, naive = o+"/print"+path, Rewrite{Op: ReplacePrefix, Arg: o + "/print", To: o}
		case 1:
			print, naive = u+"?print=1", Rewrite{Op: DropParam, Arg: "print"}
		case 2:
			print, naive = u+"/print", Rewrite{Op: DropSegment, Index: 3}
		default:
			print, naive = u+"?view=print", Rewrite{Op: DropParam, Arg: "view"}
		}
		c := s.page(1)
		s.main(c, u)
		made++
		if amp && s.chance(0.3) {
			s.add(c, o+"/amp"+path, wAlias)
		}
		pages := 1
		if s.chance(multi) {
			pages = s.intBetween(2, 5)
		}
		if s.chance(0.35) {
			if pages == 1 {
				s.add(c, print, wAlias)
			} else {
				s.main(s.page(0.5), print)
				made++
				s.trap("print-of-several-pages", u, print, naive)
			}
		}
		prev := u
		for pg := 2; pg <= pages; pg++ {
			p := u + "?page=" + strconv.Itoa(pg)
			s.main(s.page(0.5), p)
			made++
			s.trap("page-is-content", prev, p, Rewrite{Op: DropParam, Arg: "page"})
			prev = p
		}
		if s.chance(0.02) {
			if gone == nil || len(gone.urls) > 10 {
				gone = s.noisePage()
			}
			missing := fmt.Sprintf("/%s/%d/%s", pick(s.r, sections), id+1000000, s.slug(3, "-"))
			switch style {
			case 0:
				s.addNoise(gone, o+"/print"+missing)
			case 1:
				s.addNoise(gone, o+missing+"?print=1")
			case 2:
				s.addNoise(gone, o+missing+"/print")
			default:
				s.addNoise(gone, o+missing+"?view=print")
			}
		}
	}
}

// buildMobile builds a site with a mobile version: on an m. or mobile. host, under /m/, or
// as ?m=1 (Blogger). Articles are the same page on both. Traps: listings and the home page
// are not: the mobile listing shows fewer items a page, so its page 2 is not the desktop's,
// and Blogger's mobile home page shows snippets. Noise: "not available on mobile", one page
// for the desktop-only tools.
func buildMobile(s *site) {
	o := s.origin()
	var mo func(path string) string
	var naive Rewrite
	switch s.r.IntN(4) {
	case 0:
		m := s.scheme + "://m." + s.domain
		mo, naive = func(p string) string { return m + p }, Rewrite{Op: ReplacePrefix, Arg: m, To: o}
	case 1:
		m := s.scheme + "://mobile." + s.domain
		mo, naive = func(p string) string { return m + p }, Rewrite{Op: ReplacePrefix, Arg: m, To: o}
	case 2:
		mo, naive = func(p string) string { return o + "/m" + p }, Rewrite{Op: ReplacePrefix, Arg: o + "/m/", To: o + "/"}
	default:
		mo, naive = func(p string) string { return withParam(o+p, "m=1") }, Rewrite{Op: DropParam, Arg: "m"}
	}
	pMobile := s.between(0.2, 0.6)
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.fresh(func() string { return s.slug(1, "") })
	}
	home := s.page(10)
	s.main(home, o+"/")
	mhome := s.page(5)
	s.main(mhome, mo("/"))
	s.trap("mobile-listing-differs", o+"/", mo("/"), naive)
	year := 2005 + s.r.IntN(10)
	var notMobile *cluster
	count := map[string]int{}
	for made := 0; made < s.pages; made++ {
		sec := pick(s.r, sections)
		count[sec]++
		if s.chance(0.003) {
			year++
		}
		path := fmt.Sprintf("/%s/%d/%s.html", sec, year, s.fresh(func() string { return s.slug(2+s.r.IntN(4), "-") }))
		c := s.page(1)
		s.main(c, o+path)
		if s.chance(pMobile) {
			s.add(c, mo(path), wAlias)
		}
		if s.chance(0.02) {
			if notMobile == nil || len(notMobile.urls) > 10 {
				notMobile = s.noisePage()
			}
			s.addNoise(notMobile, mo("/"+pick(s.r, []string{"tools", "print", "compare", "calendar"})+"/"+s.word(2)))
		}
	}
	// Section listings: 30 items a page on the desktop, 10 on mobile.
	for _, sec := range sections {
		for pg := 1; pg <= 1+count[sec]/10; pg++ {
			p := "/" + sec + "/"
			if pg > 1 {
				p += "?page=" + strconv.Itoa(pg)
			}
			if pg <= 1+count[sec]/30 {
				s.main(s.page(2), o+p)
			}
			if s.chance(pMobile) {
				s.main(s.page(1), mo(p))
				s.trap("mobile-listing-differs", o+p, mo(p), naive)
			}
		}
	}
}
