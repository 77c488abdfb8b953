package sitefamily

import "fmt"

// buildMirror builds a project site and its mirrors: other domains that carry the whole tree
// under a path prefix of their own (http://mirror.example.net/pub/project/docs/x.html =
// https://www.project.example/docs/x.html) or on a host of their own. Mirrors lag: a share of
// their pages (5-30%) still serve the previous version, another page (the traps). Noise: a
// mirror's "not found" page for the pages it lacks.
func buildMirror(s *site) {
	o := s.origin()
	type mirror struct {
		root  string  // what replaces o
		seen  float64 // chance a page is crawled on it
		stale float64 // chance a page on it is an older version
		gone  *cluster
	}
	mirrors := make([]*mirror, s.intBetween(1, 3))
	for i := range mirrors {
		other := s.word(2+s.r.IntN(2)) + "." + pick(s.r, tlds)
		var root string
		switch s.r.IntN(3) {
		case 0:
			root = fmt.Sprintf("http://mirror.%s/pub/%s", other, s.name)
		case 1:
			root = fmt.Sprintf("https://%s/mirrors/%s/www", other, s.name)
		default:
			root = fmt.Sprintf("http://%s.mirror.%s", s.name, other)
		}
		mirrors[i] = &mirror{root: root, seen: s.between(0.2, 0.6), stale: s.between(0.05, 0.3)}
	}
	year := 2000 + s.r.IntN(12)
	major, minor := s.intBetween(0, 3), 0
	for made := 0; made < s.pages; {
		var path string
		switch k := s.r.IntN(10); {
		case k < 2:
			if s.chance(0.05) {
				minor++
				if s.chance(0.2) {
					major, minor = major+1, 0
				}
			}
			path = fmt.Sprintf("/download/%d.%d/%s", major, minor, s.fresh(func() string {
				return s.slug(1, "-") + pick(s.r, []string{".tar.gz.html", "-notes.html", ".html", "/"})
			}))
		case k < 5:
			if s.chance(0.01) {
				year++
			}
			path = fmt.Sprintf("/news/%d/%s.html", year, s.fresh(func() string { return s.slug(2+s.r.IntN(4), "-") }))
		default:
			path = fmt.Sprintf("/docs/%s.html", s.fresh(func() string { return s.slug(1+s.r.IntN(3), "_") }))
		}
		c := s.page(1)
		s.main(c, o+path)
		made++
		var older *cluster // the page's previous version, which stale mirrors serve
		for _, m := range mirrors {
			if !s.chance(m.seen) {
				continue
			}
			u := m.root + path
			if s.chance(m.stale) {
				if older == nil {
					older = s.page(0.3)
					made++
				}
				s.main(older, u)
				s.trap("stale-mirror", o+path, u, Rewrite{Op: ReplacePrefix, Arg: m.root, To: o})
			} else {
				s.add(c, u, wAlias)
			}
		}
		if s.chance(0.02) {
			m := pick(s.r, mirrors)
			if m.gone == nil || len(m.gone.urls) > 10 {
				m.gone = s.noisePage()
			}
			s.addNoise(m.gone, fmt.Sprintf("%s/docs/%s.html", m.root, s.freshSlug(2, "_")))
		}
	}
}
