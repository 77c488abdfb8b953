package sitefamily

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// buildPaths builds a site of two servers: an IIS host whose paths and parameter names are
// case-insensitive and whose directories serve default.aspx, and an Apache host of static
// files whose directories serve index.html. Duplicates: any case of an IIS path
// (/Recipes/Apple-Pie/default.aspx = /RECIPES/apple-pie/), the directory with and without its
// index file and trailing slash, doubled slashes. Traps: on the IIS host, short links whose
// code is case-sensitive (/go/aBc12X is not /go/ABC12x); on the Apache host, files that
// differ only in case (FAQ.html and faq.html), directories whose listing is not their
// index.html, and a path with and without a trailing slash that are two pages. Noise: the IIS
// host's custom "not found" page.
func buildPaths(s *site) {
	iis := s.origin()
	static := s.scheme + "://" + pick(s.r, []string{"files.", "static.", "docs.", "downloads."}) + s.domain
	defDoc := pick(s.r, []string{"default.aspx", "Default.aspx", "default.asp", "index.aspx"})
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.fresh(func() string { return s.title(1, "") })
	}
	var notFound *cluster
	made := 0
	for made < s.pages {
		switch k := s.r.IntN(10); {
		case k < 5: // an IIS page in a directory
			dir := "/" + pick(s.r, sections) + "/" + s.fresh(func() string { return s.title(1+s.r.IntN(3), "-") })
			c := s.page(1)
			s.main(c, iis+dir+"/"+defDoc)
			made++
			if s.chance(0.4) {
				s.add(c, iis+dir+"/", wAlias)
			}
			if s.chance(0.15) {
				s.add(c, iis+dir, wAlias)
			}
			for range s.repeats(c, 0.6) {
				s.add(c, iis+randomCase(s, dir+"/"+pick(s.r, []string{defDoc, "", ""})), wAlias)
			}
		case k < 7: // an IIS item by id, with the parameter name in any case
			id := s.fresh(func() string { return strconv.Itoa(1 + s.r.IntN(99999)) })
			sec := pick(s.r, sections)
			u := iis + "/" + sec + "/Item.aspx?ID=" + id
			c := s.page(1)
			s.main(c, u)
			made++
			for range s.repeats(c, 0.4) {
				s.add(c, iis+randomCase(s, "/"+sec+"/Item.aspx")+"?"+pick(s.r, []string{"id", "Id", "ID"})+"="+id, wAlias)
			}
		case k < 8: // a case-sensitive short link beside its case twin
			code := s.fresh(func() string { return s.rnd(6, alnum) })
			u := iis + "/go/" + code
			s.main(s.page(0.5), u)
			made++
			twin := swapCase(code)
			if s.chance(0.3) && !s.names[twin] && twin != code {
				s.names[twin] = true
				s.main(s.page(0.5), iis+"/go/"+twin)
				made++
				s.trap("case-is-content", u, iis+"/go/"+twin, Rewrite{Op: LowerPath})
			}
		default: // a static directory or file
			dir := "/" + strings.ToLower(pick(s.r, sections)) + "/" + s.fresh(func() string { return s.slug(1+s.r.IntN(2), "_") })
			switch j := s.r.IntN(10); {
			case j < 5: // a directory and its index file
				c := s.page(1)
				s.main(c, static+dir+"/")
				made++
				if s.chance(0.4) {
					s.add(c, static+dir+"/index.html", wAlias)
				}
				if s.chance(0.2) {
					s.add(c, static+"/"+strings.ReplaceAll(dir[1:], "/", "//")+"/", wAlias)
				}
			case j < 6: // a listing that is not the index file
				s.main(s.page(1), static+dir+"/")
				s.main(s.page(1), static+dir+"/index.html")
				made += 2
				s.trap("index-is-content", static+dir+"/", static+dir+"/index.html", Rewrite{Op: StripIndex})
			case j < 7: // the trailing slash matters
				s.main(s.page(1), static+dir)
				s.main(s.page(1), static+dir+"/")
				made += 2
				s.trap("slash-is-content", static+dir, static+dir+"/", Rewrite{Op: StripIndex})
			default: // files, some beside a file of another case
				name := s.slug(1, "_")
				f := static + dir + "/" + name + ".html"
				s.main(s.page(1), f)
				made++
				if s.chance(0.3) {
					up := static + dir + "/" + strings.ToUpper(name) + ".html"
					s.main(s.page(1), up)
					made++
					s.trap("case-is-content", f, up, Rewrite{Op: LowerPath})
				}
			}
		}
		if s.chance(0.02) {
			if notFound == nil || len(notFound.urls) > 15 {
				notFound = s.noisePage()
			}
			s.addNoise(notFound, fmt.Sprintf("%s/%s/%s/%s", iis, pick(s.r, sections), s.fresh(func() string { return s.title(2, "-") }), defDoc))
		}
	}
}

// randomCase returns p with its letters in a random case pattern: all lower, all upper, or
// each at random.
func randomCase(s *site, p string) string {
	switch s.r.IntN(3) {
	case 0:
		return strings.ToLower(p)
	case 1:
		return strings.ToUpper(p)
	}
	b := []rune(p)
	for i, r := range b {
		if s.chance(0.5) {
			b[i] = unicode.ToUpper(r)
		} else {
			b[i] = unicode.ToLower(r)
		}
	}
	return string(b)
}

// swapCase returns x with the case of its letters swapped.
func swapCase(x string) string {
	b := []rune(x)
	for i, r := range b {
		if unicode.IsUpper(r) {
			b[i] = unicode.ToLower(r)
		} else {
			b[i] = unicode.ToUpper(r)
		}
	}
	return string(b)
}
