package sitefamily

import (
	"fmt"
	"strconv"
)

// buildForum builds a discussion forum in the URL scheme of phpBB, vBulletin or Discourse.
// Duplicates: a post's permalink is the topic page that holds it, start=0 and page=1 are the
// first page, the forum id f= repeats what the topic id fixes in phpBB's viewtopic.php,
// search highlighting, session ids, SEO titles and default sort orders. Traps: in phpBB's
// viewforum.php the same f= is the content key, and a forum has few of them (2-8 forums, the
// listings also differing by start=); pages by start= or page=; print views of the whole
// topic; sort orders; Discourse's post number in the path, which names the first page for
// posts 1-20 and another page after. Noise: "topic does not exist" and "not authorised" pages
// that many ids serve.
func buildForum(s *site) {
	o := s.origin()
	if s.chance(0.4) {
		o = s.scheme + "://forum." + s.domain
	} else if s.chance(0.3) {
		o += "/forum"
	}
	nf := s.intBetween(2, 8)
	pp := pick(s.r, []int{10, 15, 20, 25}) // posts per topic page
	tpp := pick(s.r, []int{25, 30, 50})    // topics per forum page
	topicsPer := max(3, s.pages/(nf*3))    // topics per forum, about 3 pages each
	dialect := s.r.IntN(3)
	if dialect == 2 {
		pp = 20 // Discourse serves 20 posts a page to a crawler
	}
	var missing, denied *cluster
	nextPost := 1 + s.r.IntN(1000)
	nextTopic := 1 + s.r.IntN(500)
	for f := 1; f <= nf; f++ {
		ntopics := topicsPer/2 + s.r.IntN(topicsPer+1)
		if f > 1 && s.chance(0.15) && dialect == 0 {
			// A private forum: "You are not authorised to read this forum", whatever f is.
			if denied == nil {
				denied = s.noisePage()
			}
			s.addNoise(denied, fmt.Sprintf("%s/viewforum.php?f=%d", o, f))
			s.addNoise(denied, fmt.Sprintf("%s/viewforum.php?f=%d&start=%d", o, f, tpp))
			continue
		}
		nlist := (ntopics + tpp - 1) / tpp
		cat := s.fresh(func() string { return s.slug(1, "") })
		for pg := 0; pg < nlist; pg++ {
			c := s.page(2)
			var u, alias string
			switch dialect {
			case 0:
				u = fmt.Sprintf("%s/viewforum.php?f=%d", o, f)
				if pg > 0 {
					u += "&start=" + strconv.Itoa(pg*tpp)
				} else {
					alias = u + "&start=0"
				}
			case 1:
				u = fmt.Sprintf("%s/forumdisplay.php?f=%d", o, f)
				if pg > 0 {
					u += "&page=" + strconv.Itoa(pg+1)
				} else {
					alias = u + "&page=1"
				}
			default:
				u = fmt.Sprintf("%s/c/%s/%d", o, cat, f)
				if pg > 0 {
					u = fmt.Sprintf("%s/c/%d?page=%d", o, f, pg)
				}
			}
			s.main(c, u)
			if alias != "" && s.chance(0.4) {
				s.add(c, alias, wAlias)
			}
			if dialect == 0 {
				for range s.repeats(c, 0.5) {
					s.add(c, u+"&sid="+s.rnd(32, hexLower), wOnce)
				}
				if s.chance(0.3) {
					s.add(c, u+"&sk=t", wAlias) // the default sort key
				}
				for _, sk := range []string{"s", "r"} {
					if s.chance(0.25) {
						sorted := s.page(0.5)
						s.add(sorted, u+"&sk="+sk, wMain)
						s.trap("sort-is-content", u, u+"&sk="+sk, Rewrite{Op: DropParam, Arg: "sk"})
					}
				}
				// The same listing page of another forum: f= is the content key here.
				for g := 1; g < f; g++ {
					other := fmt.Sprintf("%s/viewforum.php?f=%d", o, g)
					if pg > 0 {
						other += "&start=" + strconv.Itoa(pg*tpp)
					}
					s.trap("forum-id-is-content", other, u, Rewrite{Op: DropParam, Arg: "f"})
				}
				if pg > 0 {
					prev := fmt.Sprintf("%s/viewforum.php?f=%d", o, f)
					if pg > 1 {
						prev += "&start=" + strconv.Itoa((pg-1)*tpp)
					}
					s.trap("offset-is-content", prev, u, Rewrite{Op: DropParam, Arg: "start"})
				}
			}
			if dialect == 1 && pg > 0 {
				prev := fmt.Sprintf("%s/forumdisplay.php?f=%d", o, f)
				if pg > 1 {
					prev += "&page=" + strconv.Itoa(pg)
				}
				s.trap("offset-is-content", prev, u, Rewrite{Op: DropParam, Arg: "page"})
			}
		}
		// Topics.
		for range ntopics {
			t := nextTopic
			nextTopic += 1 + s.r.IntN(3)
			slug := s.slug(2+s.r.IntN(4), "-")
			head := s.page(1)
			npages := 1 + s.repeats(head, 0.5)
			var prev string
			perm := make([][]string, npages) // the permalinks of each page's posts
			for pg := 0; pg < npages; pg++ {
				c := head
				if pg > 0 {
					c = s.page(0.5)
				}
				var u string
				var aliases []string
				switch dialect {
				case 0:
					u = fmt.Sprintf("%s/viewtopic.php?f=%d&t=%d", o, f, t)
					short := fmt.Sprintf("%s/viewtopic.php?t=%d", o, t)
					if pg > 0 {
						u += "&start=" + strconv.Itoa(pg*pp)
						short += "&start=" + strconv.Itoa(pg*pp)
					} else {
						aliases = append(aliases, u+"&start=0")
					}
					aliases = append(aliases, short)
				case 1:
					u = fmt.Sprintf("%s/showthread.php?t=%d", o, t)
					seo := fmt.Sprintf("%s/showthread.php?%d-%s", o, t, slug)
					if pg > 0 {
						u += "&page=" + strconv.Itoa(pg+1)
						seo += "/page" + strconv.Itoa(pg+1)
					} else {
						aliases = append(aliases, u+"&page=1")
					}
					aliases = append(aliases, seo)
				default:
					u = fmt.Sprintf("%s/t/%s/%d", o, slug, t)
					if pg > 0 {
						u += "?page=" + strconv.Itoa(pg+1)
					} else {
						aliases = append(aliases, fmt.Sprintf("%s/t/%d", o, t))
					}
				}
				s.main(c, u)
				for _, a := range aliases {
					if s.chance(0.35) {
						s.add(c, a, wAlias)
					}
				}
				// Permalinks of the page's posts.
				for range s.repeats(c, 0.7) {
					n := 1 + s.r.IntN(pp)
					post := nextPost + pg*pp + n
					var pu string
					switch dialect {
					case 0:
						pu = fmt.Sprintf("%s/viewtopic.php?p=%d", o, post)
					case 1:
						pu = fmt.Sprintf("%s/showthread.php?p=%d", o, post)
					default:
						pu = fmt.Sprintf("%s/t/%s/%d/%d", o, slug, t, pg*pp+n)
					}
					if s.add(c, pu, wAlias) {
						perm[pg] = append(perm[pg], pu)
					}
				}
				if s.chance(0.1) {
					if dialect == 1 {
						s.add(c, u+"&highlight="+s.word(2), wOnce)
					} else if dialect == 0 {
						s.add(c, u+"&hilit="+s.word(2), wOnce)
					} else {
						s.add(c, withParam(u, "u="+s.word(2)), wOnce)
					}
				}
				for range s.repeats(c, 0.3) {
					switch dialect {
					case 0:
						s.add(c, u+"&sid="+s.rnd(32, hexLower), wOnce)
					case 1:
						s.add(c, u+"&s="+s.rnd(32, hexLower), wOnce)
					}
				}
				if prev != "" {
					switch dialect {
					case 0:
						s.trap("offset-is-content", prev, u, Rewrite{Op: DropParam, Arg: "start"})
					default:
						s.trap("offset-is-content", prev, u, Rewrite{Op: DropParam, Arg: "page"})
					}
				}
				prev = u
			}
			if dialect == 2 {
				// Post 5 is on the first page, post 25 on the second: the post number in the
				// path is not always irrelevant.
				for pg := 1; pg < npages; pg++ {
					if len(perm[pg-1]) > 0 && len(perm[pg]) > 0 {
						s.trap("post-number-is-content", perm[pg-1][0], perm[pg][0], Rewrite{Op: SetSegment, Index: 3})
					}
				}
			}
			nextPost += npages * pp
			// The print view of the whole topic.
			if s.chance(0.12) {
				p := s.page(0.3)
				var u, of string
				switch dialect {
				case 0:
					of = fmt.Sprintf("%s/viewtopic.php?f=%d&t=%d", o, f, t)
					u = of + "&view=print"
					s.trap("print-is-content", of, u, Rewrite{Op: DropParam, Arg: "view"})
				case 1:
					of = fmt.Sprintf("%s/showthread.php?t=%d", o, t)
					u = fmt.Sprintf("%s/printthread.php?t=%d", o, t)
					s.trap("print-is-content", of, u, Rewrite{Op: ReplacePrefix, Arg: o + "/printthread.php", To: o + "/showthread.php"})
				default:
					of = fmt.Sprintf("%s/t/%s/%d", o, slug, t)
					u = of + "/print"
					s.trap("print-is-content", of, u, Rewrite{Op: DropSegment, Index: 3})
				}
				s.main(p, u)
			}
			if s.chance(0.04) {
				// Links to a deleted topic: "the requested topic does not exist", one page
				// for every such id, with the session id of the link.
				if missing == nil || len(missing.urls) > 12 {
					missing = s.noisePage()
				}
				bad := nextTopic + 100000 + s.r.IntN(100000)
				switch dialect {
				case 0:
					s.addNoise(missing, fmt.Sprintf("%s/viewtopic.php?f=%d&t=%d&sid=%s", o, f, bad, s.rnd(32, hexLower)))
				case 1:
					s.addNoise(missing, fmt.Sprintf("%s/showthread.php?t=%d", o, bad))
				default:
					s.addNoise(missing, fmt.Sprintf("%s/t/%s/%d", o, s.freshSlug(2, "-"), bad))
				}
			}
		}
	}
}
