package sitefamily

import (
	"fmt"
	"strconv"
)

// buildTracking builds a news or video site that puts a tracking token of its own name on
// every link, with a new random value on each (?zq=Jx8Kq2...): no list of tracking parameters
// knows the name, and a page crawled often has as many URLs as links to it. Also a source
// tag of a few values (src=home, src=sidebar), and on video pages a playlist and a start
// time. Traps: the content key is as random as the token (watch?v=S9_4KMVtgw0); hl= (2-3
// languages) is the content key with as few values as src=; list= is irrelevant on a video
// page and the content key of /playlist. Noise: "video unavailable", one page for every
// removed video.
func buildTracking(s *site) {
	o := s.origin()
	token := s.fresh(func() string { return s.rnd(2+s.r.IntN(2), "abcdefghijklmnopqrstuvwxyz") })
	tokenLen := s.intBetween(8, 20)
	clean := s.between(0.2, 0.8) // chance a page also has a URL without a token
	many := s.between(0.3, 1.5)
	video := s.chance(0.5)
	langs := []string{"de", "fr", "es"}[:s.intBetween(1, 2)]
	var gone *cluster
	var prevVideo string
	var playlists []string
	tag := func(u string) string { return withParam(u, token+"="+s.rnd(tokenLen, alnum)) }
	nextID := 10000 + s.r.IntN(90000)
	for made := 0; made < s.pages; made++ {
		var u string
		if video {
			u = o + "/watch?v=" + s.fresh(func() string { return s.rnd(11, b64url) })
		} else {
			nextID += 1 + s.r.IntN(5)
			u = fmt.Sprintf("%s/%s/%d-%s", o, pick(s.r, []string{"news", "articles", "story"}), nextID, s.slug(3+s.r.IntN(4), "-"))
		}
		c := s.page(1)
		if s.chance(clean) {
			s.main(c, u)
		}
		n := s.repeats(c, many)
		if len(c.urls) == 0 {
			n++
		}
		for range n {
			s.add(c, tag(u), wOnce)
		}
		if s.chance(0.2) {
			s.add(c, withParam(u, "src="+pick(s.r, []string{"home", "sidebar", "footer", "rss"})), wAlias)
		}
		if video {
			if s.chance(0.1) {
				s.add(c, tag(withParam(u, "t="+strconv.Itoa(10+s.r.IntN(600))+"s")), wOnce)
			}
			if s.chance(0.1) {
				if len(playlists) == 0 || s.chance(0.3) {
					playlists = append(playlists, "PL"+s.rnd(16, b64url))
				}
				s.add(c, withParam(u, "list="+pick(s.r, playlists)), wAlias)
			}
			if prevVideo != "" && s.has(u) {
				s.trap("random-id-is-content", prevVideo, u, Rewrite{Op: DropParam, Arg: "v"})
			}
			if s.has(u) {
				prevVideo = u
			}
		}
		// Translations: few values, each another page; the default language is this page.
		if s.chance(0.15) && s.has(u) {
			if s.chance(0.5) {
				s.add(c, withParam(u, "hl=en"), wAlias)
			}
			for _, l := range langs {
				if s.chance(0.6) {
					t := withParam(u, "hl="+l)
					s.main(s.page(0.5), t)
					s.trap("language-is-content", u, t, Rewrite{Op: DropParam, Arg: "hl"})
					if s.chance(0.3) {
						s.add(s.byURL[t], tag(t), wOnce)
					}
				}
			}
		}
		if s.chance(0.03) {
			if gone == nil || len(gone.urls) > 15 {
				gone = s.noisePage()
			}
			if video {
				s.addNoise(gone, tag(o+"/watch?v="+s.rnd(11, b64url)))
			} else {
				s.addNoise(gone, fmt.Sprintf("%s/news/%d", o, nextID+500000+s.r.IntN(100000)))
			}
		}
	}
	// Playlist pages: list= is their content key.
	var prev string
	for _, l := range playlists {
		u := o + "/playlist?list=" + l
		c := s.page(1.5)
		s.main(c, u)
		s.add(c, tag(u), wOnce)
		if prev != "" {
			s.trap("list-is-content", prev, u, Rewrite{Op: DropParam, Arg: "list"})
		}
		prev = u
	}
}
