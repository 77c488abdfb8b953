package undust

// A site's canonical declarations and the trust the crawl gives them: the first DeclaredFirst
// uses of a site's declarations are verified by fetching, then one in DeclaredEvery; one
// verification that finds another page withdraws all of them.
type declarations struct {
	list      []*declared
	uses      int64 // Before's uses of a declared key
	confirmed int64 // verifications that found the declaring page
	withdrawn bool
}

// A declared is a canonical URL that a page declared: its key is held by the page's holder.
type declared struct {
	url       string
	holder    uint32
	idx       uint32 // its index in Crawl.decls: the order of declarations, for rekeying
	key       uint64 // hash of its key under the rules it was last keyed with
	withdrawn bool
}

// verify counts a use of the site's declarations and reports whether to verify it. c.mu is held.
func (d *declarations) verify(first, every int) bool {
	if d == nil || d.withdrawn {
		return false
	}
	d.uses++
	return d.uses <= int64(first) || d.uses%int64(every) == 0
}

// outcome records the result of a verification of a declaration; a mismatch withdraws the
// site's declarations. c.mu is held.
func (d *declarations) outcome(c *Crawl, same bool) {
	if d == nil || d.withdrawn {
		return
	}
	if same {
		d.confirmed++
		return
	}
	d.withdrawn = true
	c.stats.Withdrawn++
	for _, e := range d.list {
		if v, ok := c.keys.get(c, e.key); ok && v == e.idx|declaredBit {
			c.keys.del(c, e.key)
		}
		e.withdrawn = true
	}
}

// declare records that the page of holder i declared the canonical URL u, whose key hash is h;
// own is the key of the holder's URL. A declaration is recorded when the site's declarations
// are not withdrawn and no URL holds u's key. c.mu is held.
func (c *Crawl) declare(i uint32, u string, h uint64, own string) {
	if h == hashKey(own) {
		return // the page names itself
	}
	site := c.site(u)
	d := c.sites[site]
	if d == nil {
		d = &declarations{}
		c.sites[site] = d
	}
	if d.withdrawn {
		return
	}
	if _, held := c.keys.get(c, h); held || len(c.decls) >= maxHolders {
		return
	}
	e := &declared{url: u, holder: i, idx: uint32(len(c.decls)), key: h}
	c.decls = append(c.decls, e)
	d.list = append(d.list, e)
	c.keys.put(c, h, e.idx|declaredBit, 0)
	c.stats.Declared++
}
