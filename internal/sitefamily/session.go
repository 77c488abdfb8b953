package sitefamily

import "strconv"

// buildSession builds a site that keeps sessions without cookies, in the URL: ASP.NET's
// cookieless sessions in the first path segment (/(S(lit3py55t21z5v55vlm25s55))/page.aspx),
// Java servlet path parameters (;jsessionid=...), a session path segment (/sid/9f3a.../), or
// a query parameter of a name no list knows. A page crawled in many sessions has many URLs,
// some none without a session. Traps: the content keys look as random as the sessions:
// documents by a 32-digit hex id (/doc/9f3a...), items by a base-62 key (/item/aZ3k9qL0).
// Noise: "your session has expired", one page for old session ids of any page.
func buildSession(s *site) {
	o := s.origin()
	mech := s.r.IntN(4)
	qname := pick(s.r, []string{"xtcsid", "sessid", "wmsid", "ps_session", "vsid", "usid"})
	clean := s.between(0.2, 0.9) // chance a page also has a URL without a session
	many := s.between(0.3, 1.5)  // session URLs of an average page
	with := func(path, query string) string {
		var sid string
		switch mech {
		case 0:
			sid = "/(S(" + s.rnd(24, base32) + "))"
			return o + sid + path + query
		case 1:
			sid = ";jsessionid=" + s.rnd(32, hexUpper)
			if s.chance(0.3) {
				sid += ".node0" + strconv.Itoa(1+s.r.IntN(4))
			}
			return o + path + sid + query
		case 2:
			return o + "/sid/" + s.rnd(16, hexLower) + path + query
		}
		if query == "" {
			return o + path + "?" + qname + "=" + s.rnd(26, lowerNum)
		}
		return o + path + query + "&" + qname + "=" + s.rnd(26, lowerNum)
	}
	ext := ".aspx"
	if mech != 0 {
		ext = pick(s.r, []string{".jsp", ".do", ".php", ""})
	}
	sections := make([]string, s.intBetween(3, 8))
	for i := range sections {
		sections[i] = s.title(1, "")
	}
	var expired *cluster
	var prevDoc, prevItem string
	for made := 0; made < s.pages; made++ {
		var path, query string
		kind := s.r.IntN(10)
		switch {
		case kind < 4: // an article by id
			path = "/" + pick(s.r, sections) + "/Article" + ext
			query = "?id=" + s.fresh(func() string { return strconv.Itoa(1 + s.r.IntN(99999)) })
		case kind < 7: // a named page
			path = "/" + pick(s.r, sections) + "/" + s.fresh(func() string { return s.title(1+s.r.IntN(3), "") }) + ext
		case kind < 9: // a document by a hex id
			path = "/doc/" + s.fresh(func() string { return s.rnd(32, hexLower) })
		default: // an item by a base-62 key
			path = "/item/" + s.fresh(func() string { return s.rnd(8, alnum) })
		}
		c := s.page(1)
		if s.chance(clean) {
			s.main(c, o+path+query)
		}
		n := s.repeats(c, many)
		if len(c.urls) == 0 {
			n++
		}
		for range n {
			s.add(c, with(path, query), wOnce)
		}
		if len(c.urls) > 0 && c.urls[0].w > 0 && kind >= 7 {
			u := c.urls[0].url
			if kind < 9 {
				if prevDoc != "" {
					s.trap("random-id-is-content", prevDoc, u, Rewrite{Op: SetSegment, Index: 1})
				}
				prevDoc = u
			} else {
				if prevItem != "" {
					s.trap("random-id-is-content", prevItem, u, Rewrite{Op: SetSegment, Index: 1})
				}
				prevItem = u
			}
		}
		if s.chance(0.01) {
			// A link with a session that timed out: "your session has expired".
			if expired == nil || len(expired.urls) > 20 {
				expired = s.noisePage()
			}
			s.addNoise(expired, with(path, query))
		}
	}
}
