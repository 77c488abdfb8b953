package sitefamily

import (
	"fmt"
	"strconv"
)

// buildSocial builds a social network: profiles, their tabs, photo listings and photos, and
// friend and wall pages. Duplicates: a numeric profile id beside the user name, a random
// suffix on links to friend and wall pages (friends-x5qmrl3CCGvS), short links, page=1, a
// tracking ref=, and the tab= that navigation carries onto photo pages, where it changes
// nothing. Traps: tab= on the profile is the content key with 2-3 values; photo ids look as
// random as the suffixes (photo-aZ3k9qL0 is one photo, friends-aZ3k9qL0 is the friends page);
// photo listings by page and sort. Noise: "this profile is private" and "no such user" pages
// that many users' URLs serve.
func buildSocial(s *site) {
	o := s.origin()
	vanity := s.chance(0.5) // /NAME rather than /user/NAME
	ids := s.chance(0.5)    // /profile.php?id=N serves the profile too
	photoStyle := s.r.IntN(2)
	tabs := []string{"photos", "friends", "about"}[:s.intBetween(2, 3)]
	sorts := []string{"recent", "top"}
	perPage := pick(s.r, []int{12, 20, 24})
	refs := []string{"nf", "ts", "hc", "pb"}
	var private, nouser *cluster
	sep := []string{".", "_", ""}
	made := 0
	for n := 0; made < s.pages; n++ {
		name := s.fresh(func() string {
			if s.chance(0.5) {
				return s.word(2) + pick(s.r, sep) + strconv.Itoa(s.intBetween(10, 9999))
			}
			return s.word(2) + pick(s.r, sep) + s.word(2)
		})
		base := o + "/user/" + name
		if vanity {
			base = o + "/" + name
		}
		uid := 100000 + n*7 + s.r.IntN(7)
		if s.chance(0.1) {
			// A private profile: every URL of it serves one "this profile is private" page.
			if private == nil || len(private.urls) > 25 {
				private = s.noisePage()
			}
			s.addNoise(private, base)
			made++
			continue
		}
		profile := s.page(3)
		s.main(profile, base)
		made++
		if ids && s.chance(0.5) {
			s.add(profile, fmt.Sprintf("%s/profile.php?id=%d", o, uid), wAlias)
		}
		for range s.repeats(profile, 0.4) {
			s.add(profile, base+"?ref="+pick(s.r, refs), wOnce)
		}
		// Tabs: each its own page, its content key a parameter of 2-3 values.
		var prevTab string
		for _, tab := range tabs {
			if !s.chance(0.5) {
				continue
			}
			t := s.page(1)
			u := base + "?tab=" + tab
			s.main(t, u)
			made++
			if s.chance(0.2) {
				s.add(t, u+"&ref="+pick(s.r, refs), wOnce)
			}
			if prevTab != "" {
				s.trap("tab-is-content", prevTab, u, Rewrite{Op: DropParam, Arg: "tab"})
			} else {
				s.trap("tab-is-content", base, u, Rewrite{Op: DropParam, Arg: "tab"})
			}
			prevTab = u
		}
		// Friends and wall pages, linked with a random suffix.
		for _, what := range []string{"friends", "wall"} {
			if !s.chance(0.6) {
				continue
			}
			c := s.page(0.7)
			s.main(c, base+"/"+what)
			made++
			for range s.repeats(c, 0.8) {
				s.add(c, base+"/"+what+"-"+s.rnd(12, alnum), wOnce)
			}
		}
		// Photos: listing pages, then photo pages.
		nphotos := s.repeats(profile, 10)
		var prevPhoto string
		for i := range nphotos {
			p := s.page(0.5)
			pid := s.rnd(10, alnum)
			var u string
			if photoStyle == 0 {
				u = base + "/photo-" + pid
			} else {
				u = base + "/photo/" + pid
			}
			s.main(p, u)
			made++
			if s.chance(0.3) {
				s.add(p, u+"?tab=photos", wAlias)
			}
			if s.chance(0.15) {
				s.add(p, o+"/s/"+s.fresh(func() string { return s.rnd(6, alnum) }), wAlias)
			}
			if photoStyle == 0 && prevPhoto != "" && i < 4 {
				s.trap("random-id-is-content", prevPhoto, u, Rewrite{Op: CutSuffix})
			}
			prevPhoto = u
		}
		npages := (nphotos + perPage - 1) / perPage
		for _, sort := range append([]string{""}, sorts...) {
			var prev string
			for pg := 1; pg <= npages; pg++ {
				if !s.chance(0.6) {
					continue
				}
				l := s.page(0.4)
				u := base + "/photos"
				q := ""
				if sort != "" {
					q = "sort=" + sort
				}
				if pg > 1 {
					q += "&page=" + strconv.Itoa(pg)
				}
				if q != "" {
					u += "?" + trimAmp(q)
				}
				s.main(l, u)
				made++
				if pg == 1 && s.chance(0.3) {
					s.add(l, withParam(u, "page=1"), wAlias)
				}
				if prev != "" {
					s.trap("page-is-content", prev, u, Rewrite{Op: DropParam, Arg: "page"})
				}
				if sort != "" && pg == 1 {
					s.trap("sort-is-content", base+"/photos", u, Rewrite{Op: DropParam, Arg: "sort"})
				}
				prev = u
			}
		}
		if s.chance(0.05) {
			// A mistyped or deleted user: "no such user", one page for every such name.
			if nouser == nil || len(nouser.urls) > 15 {
				nouser = s.noisePage()
			}
			gone := s.fresh(func() string { return name + pick(s.r, []string{"x", "1", "_"}) })
			if vanity {
				s.addNoise(nouser, o+"/"+gone)
			} else {
				s.addNoise(nouser, o+"/user/"+gone)
			}
		}
	}
}

// trimAmp trims a leading "&".
func trimAmp(q string) string {
	if len(q) > 0 && q[0] == '&' {
		return q[1:]
	}
	return q
}
