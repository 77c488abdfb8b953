package sitefamily

import (
	"fmt"
	"time"
)

// buildArchive builds a web archive: captures of pages at dates, either of other sites,
// Wayback-style, each capture at its own second (/web/20090514102233/http://example.com/page),
// or of the whole site at once, dated snapshots of the site's own pages
// (/snapshot/2009-05-14/page, and /snapshot/latest/page for the newest). Two captures of a
// page that did not change between them are one page; captures on either side of a change are
// two (the traps), and so are a capture and its raw form (id_), which serves the original bytes
// without the archive's banner.
func buildArchive(s *site) {
	host := s.origin()
	if s.chance(0.5) {
		host = s.scheme + "://archive." + s.domain
	}
	if s.chance(0.5) {
		buildWayback(s, host)
	} else {
		buildSnapshots(s, host)
	}
}

func buildWayback(s *site, host string) {
	coll, seg := pick(s.r, []string{"web", "wayback", "archive", "collection/" + s.word(2)}), 1
	if coll[0] == 'c' {
		seg = 2
	}
	origins := make([]string, s.intBetween(2, 6))
	for i := range origins {
		origins[i] = pick(s.r, []string{"http://", "http://www.", "https://www."}) + s.word(2+s.r.IntN(2)) + "." + pick(s.r, tlds)
	}
	change := s.between(0.15, 0.5) // chance that a page changed between two captures
	start := time.Date(2004+s.r.IntN(10), time.Month(1+s.r.IntN(12)), 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	capture := func(t time.Time, target, mod string) string {
		return fmt.Sprintf("%s/%s/%s%s/%s", host, coll, t.Format("20060102150405"), mod, target)
	}
	var notArchived *cluster
	for made, tries := 0, 0; made < s.pages && tries < 4*s.pages; tries++ {
		orig := pick(s.r, origins)
		path := "/"
		if s.chance(0.9) {
			path = pick(s.r, []string{"/", "/news/", "/about/", "/products/", "/blog/"}) + s.slug(1+s.r.IntN(3), "-") + pick(s.r, []string{".html", "/", ".php", ""})
		}
		target := orig + path
		if s.names[target] {
			continue
		}
		s.names[target] = true
		// Captures: the more prominent the page, the more, at random times after start.
		c := s.page(1)
		ncap := 1 + s.repeats(c, 2.5)
		t := start.Add(time.Duration(s.r.IntN(3000)) * 24 * time.Hour)
		var prev string
		for i := range ncap {
			if i > 0 {
				t = t.AddDate(0, 0, 1+s.r.IntN(90))
				if t.After(end) {
					break
				}
				if s.chance(change) {
					c = s.page(1)
				}
			}
			t = t.Truncate(24 * time.Hour).Add(time.Duration(s.r.IntN(86400)) * time.Second)
			u := capture(t, target, "")
			s.add(c, u, wMain)
			made++
			if prev != "" && s.byURL[prev] != c {
				s.trap("changed-between-captures", prev, u, Rewrite{Op: SetSegment, Index: seg})
			}
			prev = u
			if s.chance(0.04) {
				r := capture(t, target, "id_")
				s.add(s.page(0.5), r, wMain)
				s.trap("raw-capture", u, r, Rewrite{Op: SetSegment, Index: seg})
				made++
			}
		}
		if s.chance(0.1) {
			// The newest capture is also served without a date, as the latest.
			s.add(c, fmt.Sprintf("%s/%s/%s", host, coll, target), wAlias)
		}
		if s.chance(0.03) {
			// Links to pages that were never captured: one "not in archive" page.
			if notArchived == nil || len(notArchived.urls) > 10 {
				notArchived = s.noisePage()
			}
			s.addNoise(notArchived, capture(t, orig+"/"+s.freshSlug(2, "-")+".html", ""))
		}
	}
}

func buildSnapshots(s *site, host string) {
	// Snapshot dates: monthly to yearly, 4-20 of them.
	nsnap := s.intBetween(4, 20)
	step := pick(s.r, []int{1, 3, 6, 12})
	t := time.Date(2005+s.r.IntN(8), time.Month(1+s.r.IntN(12)), 1+s.r.IntN(28), 0, 0, 0, 0, time.UTC)
	dates := make([]string, nsnap)
	for i := range dates {
		dates[i] = t.Format("2006-01-02")
		t = t.AddDate(0, step, s.r.IntN(5))
	}
	change := s.between(0.1, 0.4) // chance that a page changed between two snapshots
	seen := s.between(0.3, 0.8)   // chance a page of a snapshot was crawled
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.freshSlug(1, "")
	}
	ext := pick(s.r, []string{".html", "/", ""})
	var notArchived *cluster
	for made := 0; made < s.pages; {
		path := pick(s.r, sections) + "/" + s.freshSlug(1+s.r.IntN(3), "-") + ext
		from := 0
		if s.chance(0.4) {
			from = s.r.IntN(nsnap)
		}
		var c *cluster
		var prev string
		for i := from; i < nsnap; i++ {
			if c == nil || (i > from && s.chance(change)) {
				c = s.page(1 + float64(i)/float64(nsnap))
			}
			if !s.chance(seen) {
				continue
			}
			u := host + "/snapshot/" + dates[i] + "/" + path
			s.main(c, u)
			made++
			if prev != "" && s.byURL[prev] != c {
				s.trap("changed-between-snapshots", prev, u, Rewrite{Op: SetSegment, Index: 1})
			}
			prev = u
		}
		if s.chance(0.6) {
			u := host + "/snapshot/latest/" + path
			s.add(c, u, wMain)
			made++
			if prev != "" && s.byURL[prev] != c {
				s.trap("changed-between-snapshots", prev, u, Rewrite{Op: SetSegment, Index: 1})
			}
		}
		if from > 0 && s.chance(0.2) {
			// The snapshot before the page existed: "not in this snapshot".
			if notArchived == nil || len(notArchived.urls) > 10 {
				notArchived = s.noisePage()
			}
			s.addNoise(notArchived, host+"/snapshot/"+dates[s.r.IntN(from)]+"/"+path)
		}
	}
}
