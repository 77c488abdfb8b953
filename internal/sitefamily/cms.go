package sitefamily

import (
	"fmt"
	"strconv"
)

// buildCMS builds a site of a content management system: WordPress, Drupal or Joomla.
//
// WordPress: a post under /yyyy/mm/slug/ and as /?p=ID, without the trailing slash, its AMP
// view, replytocom= links to its comments; category archives also as /?cat=ID. Traps: the
// second comment page (/comment-page-2/), the post's feed (/feed/), archive pages
// (/page/2/), month archives differing in one segment; noise: searches with no result, one
// "nothing found" page for every query.
//
// Drupal: /node/ID and its path alias, /index.php?q=node/ID without clean URLs, destination=
// on login links. Traps: comment pages (?page=1).
//
// Joomla: index.php?option=com_content&view=article&id=ID:alias&catid=C&Itemid=M, where
// catid, Itemid and the alias after the colon change nothing, and the search-engine-friendly
// /menu/ID-alias.html. Traps: view=category&id=N is a category listing, view=article&id=N an
// article: the view is the content key, and so is limitstart= on listings.
func buildCMS(s *site) {
	switch s.r.IntN(3) {
	case 0:
		buildWordPress(s)
	case 1:
		buildDrupal(s)
	default:
		buildJoomla(s)
	}
}

func buildWordPress(s *site) {
	o := s.origin()
	ncat := s.intBetween(3, 12)
	cats := make([]string, ncat)
	catPosts := make([]int, ncat)
	for i := range cats {
		cats[i] = s.fresh(func() string { return s.slug(1+s.r.IntN(2), "-") })
	}
	year, month := 2005+s.r.IntN(8), 1+s.r.IntN(12)
	months := map[string]int{}
	var monthOrder []string
	id := 1 + s.r.IntN(50)
	var nothing *cluster
	made := 0
	for made < s.pages {
		id += 1 + s.r.IntN(4)
		if s.chance(0.04) {
			month++
			if month > 12 {
				year, month = year+1, 1
			}
		}
		ym := fmt.Sprintf("%d/%02d", year, month)
		if months[ym] == 0 {
			monthOrder = append(monthOrder, ym)
		}
		months[ym]++
		cat := s.r.IntN(ncat)
		catPosts[cat]++
		slug := s.fresh(func() string { return s.slug(2+s.r.IntN(5), "-") })
		u := fmt.Sprintf("%s/%s/%s/", o, ym, slug)
		c := s.page(1)
		s.main(c, u)
		made++
		if s.chance(0.3) {
			s.add(c, fmt.Sprintf("%s/?p=%d", o, id), wAlias)
		}
		if s.chance(0.15) {
			s.add(c, u[:len(u)-1], wAlias)
		}
		if s.chance(0.15) {
			s.add(c, u+"amp/", wAlias)
		}
		for range s.repeats(c, 0.5) {
			s.add(c, fmt.Sprintf("%s?replytocom=%d", u, 1000+s.r.IntN(90000)), wOnce)
		}
		if s.chance(0.1) {
			f := u + "feed/"
			s.main(s.page(0.2), f)
			made++
			s.trap("feed-is-content", u, f, Rewrite{Op: DropSegment, Index: 3})
		}
		if s.chance(0.08) {
			p := u + "comment-page-2/"
			s.main(s.page(0.3), p)
			made++
			s.trap("comment-page-is-content", u, p, Rewrite{Op: DropSegment, Index: 3})
		}
		if s.chance(0.02) {
			if nothing == nil || len(nothing.urls) > 12 {
				nothing = s.noisePage()
			}
			s.addNoise(nothing, o+"/?s="+s.word(3))
		}
	}
	// Category archives and their pages.
	for i, cat := range cats {
		var prev string
		for pg := 1; pg <= 1+catPosts[i]/10; pg++ {
			c := s.page(2)
			u := o + "/category/" + cat + "/"
			if pg > 1 {
				u += "page/" + strconv.Itoa(pg) + "/"
			}
			s.main(c, u)
			if pg == 1 && s.chance(0.5) {
				s.add(c, fmt.Sprintf("%s/?cat=%d", o, 2+i), wAlias)
			}
			if prev != "" && pg > 2 {
				s.trap("page-is-content", prev, u, Rewrite{Op: SetSegment, Index: 3})
			}
			prev = u
		}
	}
	// Month archives.
	var prev string
	for _, ym := range monthOrder {
		if !s.chance(0.7) {
			continue
		}
		u := o + "/" + ym + "/"
		s.main(s.page(1), u)
		if prev != "" && prev[:len(prev)-4] == u[:len(u)-4] { // the same year
			s.trap("month-is-content", prev, u, Rewrite{Op: SetSegment, Index: 1})
		}
		prev = u
	}
}

func buildDrupal(s *site) {
	o := s.origin()
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.fresh(func() string { return s.slug(1, "") })
	}
	nid := 1 + s.r.IntN(2000)
	var denied *cluster
	for made := 0; made < s.pages; made++ {
		nid += 1 + s.r.IntN(3)
		c := s.page(1)
		alias := o + "/" + pick(s.r, sections) + "/" + s.fresh(func() string { return s.slug(2+s.r.IntN(4), "-") })
		node := fmt.Sprintf("%s/node/%d", o, nid)
		s.main(c, alias)
		if s.chance(0.4) {
			s.add(c, node, wAlias)
		}
		if s.chance(0.1) {
			s.add(c, fmt.Sprintf("%s/index.php?q=node/%d", o, nid), wAlias)
		}
		if s.chance(0.1) {
			s.add(c, fmt.Sprintf("%s?destination=node/%d", alias, nid), wOnce)
		}
		// Comment pages.
		prev := alias
		for pg := 1; pg <= s.repeats(c, 0.3); pg++ {
			u := alias + "?page=" + strconv.Itoa(pg)
			s.main(s.page(0.3), u)
			made++
			s.trap("page-is-content", prev, u, Rewrite{Op: DropParam, Arg: "page"})
			prev = u
		}
		if s.chance(0.02) {
			// Unpublished nodes: "access denied", one page for all of them.
			if denied == nil || len(denied.urls) > 10 {
				denied = s.noisePage()
			}
			s.addNoise(denied, fmt.Sprintf("%s/node/%d", o, nid+100000+s.r.IntN(100000)))
		}
	}
}

func buildJoomla(s *site) {
	o := s.origin()
	ncat := s.intBetween(3, 10)
	menus := make([]string, ncat)
	for i := range menus {
		menus[i] = s.fresh(func() string { return s.slug(1, "-") })
	}
	itemid := 100 + s.r.IntN(400)
	perPage := pick(s.r, []int{5, 10, 20})
	catArticles := make([]int, ncat)
	id := 10 + s.r.IntN(30) // above the category ids, which name articles too
	var missing *cluster
	articleURL := func(id, cat int, alias string) string {
		return fmt.Sprintf("%s/index.php?option=com_content&view=article&id=%d:%s&catid=%d&Itemid=%d", o, id, alias, cat+1, itemid+cat)
	}
	for made := 0; made < s.pages; made++ {
		id += 1 + s.r.IntN(3)
		cat := s.r.IntN(ncat)
		catArticles[cat]++
		alias := s.fresh(func() string { return s.slug(2+s.r.IntN(3), "-") })
		c := s.page(1)
		sef := fmt.Sprintf("%s/%s/%d-%s.html", o, menus[cat], id, alias)
		u := articleURL(id, cat, alias)
		if s.chance(0.5) {
			s.main(c, sef)
			if s.chance(0.3) {
				s.add(c, u, wAlias)
			}
		} else {
			s.main(c, u)
		}
		if s.chance(0.2) {
			s.add(c, fmt.Sprintf("%s/index.php?option=com_content&view=article&id=%d&Itemid=%d", o, id, itemid+s.r.IntN(ncat)), wAlias)
		}
		if s.chance(0.1) {
			s.add(c, fmt.Sprintf("%s/index.php?option=com_content&view=article&id=%d:%s&catid=%d", o, id, alias, cat+1), wAlias)
		}
		if s.chance(0.02) {
			if missing == nil || len(missing.urls) > 10 {
				missing = s.noisePage()
			}
			s.addNoise(missing, articleURL(id+100000+s.r.IntN(100000), cat, s.slug(2, "-")))
		}
	}
	// Category listings: view=category&id=N is not view=article&id=N.
	for i := range ncat {
		var prev string
		for pg := 0; pg*perPage < max(1, catArticles[i]); pg++ {
			u := fmt.Sprintf("%s/index.php?option=com_content&view=category&id=%d&Itemid=%d", o, i+1, itemid+i)
			if pg > 0 {
				u += "&limitstart=" + strconv.Itoa(pg*perPage)
			}
			c := s.page(2)
			s.main(c, u)
			if pg == 0 && s.chance(0.3) {
				s.add(c, u+"&limitstart=0", wAlias)
			}
			if pg == 0 && s.chance(0.5) {
				s.add(c, o+"/"+menus[i]+".html", wAlias)
			}
			if prev != "" {
				s.trap("offset-is-content", prev, u, Rewrite{Op: DropParam, Arg: "limitstart"})
			}
			prev = u
		}
		// An article whose id is the category's id.
		art := fmt.Sprintf("%s/index.php?option=com_content&view=article&id=%d&Itemid=%d", o, i+1, itemid+i)
		if !s.has(art) && s.chance(0.5) {
			s.main(s.page(0.5), art)
			s.trap("view-is-content", fmt.Sprintf("%s/index.php?option=com_content&view=category&id=%d&Itemid=%d", o, i+1, itemid+i), art, Rewrite{Op: DropParam, Arg: "view"})
		}
	}
}
