package undust

import (
	"cmp"
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/learn"
)

// Before decides whether to fetch the URL raw: see the package documentation and Action. A URL
// answered Fetch or Verify holds on to what Before gave it until After reports it; a crawler
// that drops such a URL without fetching it reports it with After and Response.Err set.
//
// A URL of a site without rules that holds its key (fetched before, or let through and not
// fetched yet) costs urlnorm's key of it and a read of one slot of the table of keys: about as
// much as a lookup of the URL string in a Go map (see the package documentation).
func (c *Crawl) Before(raw string) Decision { return c.before(raw, false) }

// BeforeSend is Before for a URL about to be sent: a crawler that asks Before when it finds a link
// asks BeforeSend when the link comes up for fetching, if it can tell that moment (a queue's pop,
// a request's last callback before it goes out). A URL that BeforeSend lets through is being
// sent; and a URL whose key is held by a URL let through but not being sent yet (still in the
// crawler's queue) takes the key and is answered Fetch: the page is fetched by whichever of its
// URLs comes up first, and the other one, when it comes up, is its duplicate (or fetched in its
// place if its fetch failed). Without that, a duplicate that comes up first would be skipped,
// and if the fetch of the URL it waits for failed, the page would be fetched again only when some
// other URL of it came up, possibly after a budget spent.
func (c *Crawl) BeforeSend(raw string) Decision { return c.before(raw, true) }

func (c *Crawl) before(raw string, send bool) Decision {
	var (
		key  string
		k    learn.Key
		err  error
		h, u uint64
	)
	for try := 0; ; try++ {
		c.rekey()
		gen := c.published.Load()
		if c.online != nil {
			// Crawl.key with one lock: urlnorm's key first, then, with the lock held, whether
			// the learner may rewrite it; if so, the learner's key, without the lock.
			ok := false
			if key, ok = learn.Prepare(raw); !ok {
				err = learn.ErrNotURL
			} else {
				h = hashKey(key)
			}
			c.mu.Lock()
			if ok && c.mayRewrite(raw) {
				c.mu.Unlock()
				if key, k, err = c.learnerKey(raw); err == nil {
					h = hashKey(key)
				}
				c.mu.Lock()
			}
		} else {
			if key, k, err = c.keyLocked(raw); err == nil { // no lock needed without the learner
				h = hashKey(key)
			}
			c.mu.Lock()
		}
		// Rules published while the key was made without the lock (a check's outcome, given
		// to After meanwhile, retracting the rule that made it) would decide on a key that no
		// longer stands: it is made again, a few times at most.
		if c.online == nil || try == 2 || c.published.Load() == gen {
			break
		}
		c.mu.Unlock()
	}
	defer c.mu.Unlock()
	c.stats.URLs++
	if err != nil {
		c.stats.KeyErrors++
		c.stats.Fetch++
		return Decision{Action: Fetch, Key: key, Err: err}
	}
	u = h // a URL that is its own key: one hash
	if key != raw {
		u = hashURL(raw)
	}
	d := Decision{Key: key}
	var gone []string // the URLs that waited for raw's check, when its rule is gone
	v, us, held := c.keys.getURL(c, h)
	if i, ok := c.pending[u]; ok {
		// Let through before and not fetched yet: the rules may have changed since, and made
		// its key another URL's (rekey gives it the key, but another URL may hold it).
		if held && c.holderOf(v) != i {
			return c.duplicate(d, raw, h, u, k, v, i, send)
		}
		if ak, av, ok := c.alternative(k, i); ok {
			return c.duplicateAlternative(d, raw, h, u, ak, av, i, send)
		}
		if c.holders.at(i).key != h {
			c.move(i, h)
		}
		if send {
			c.setState(i, sending)
		}
		c.stats.Fetch++
		d.Action = Fetch
		return d
	}
	if i, ok := c.displaced[u]; ok && !ablate.NoCompare {
		// Fetched before, and its key is another fetched URL's since the rules changed: the
		// rekey compared their pages (compare), and the URL's own page is known.
		if !held {
			c.holders.at(i).key = h
			c.keys.put(c, h, i, u)
			delete(c.displaced, u)
		}
		c.stats.Seen++
		d.Action, d.Of = Skip, raw
		return d
	}
	if of, ok := c.checked[u]; ok && !ablate.NoChecked {
		// Fetched to check a match, and found the page it was checked against: a URL fetched
		// is not fetched again, whatever the rules say now, however often it is linked.
		c.stats.Seen++
		d.Action, d.Of = Skip, c.pages.url(c, uint64(c.pageOf(of)))
		return d
	}
	if ver, ok := c.verifying[u]; ok {
		if !ver.declared && !(held && c.holderOf(v) == ver.against) {
			// The check may be of a match under an alternative key (see alternative).
			if ak, av, ok := c.alternative(k, noHolder); ok && av == ver.against {
				d.Key, k, v, held = ak.Key, ak, av, true
			}
		}
		if held && !ver.declared && v&declaredBit == 0 && c.holderOf(v) != ver.against && hashKey(d.Key) == ver.key {
			// The key it was to be checked against has another holder since (a URL about to
			// be sent took it): the check is against that holder's page now, and the URLs that
			// wait for it still do.
			ver.against = c.holderOf(v)
			c.verifying[u] = ver
		}
		if held && c.holderOf(v) == ver.against && (v&declaredBit != 0) == ver.declared {
			d.Of = c.url(ver.against)
			if send && !ver.declared && c.holders.at(ver.against).state() == pending && !ablate.NoTake {
				// About to be sent while the URL it is to be checked against is still queued:
				// it takes the key, as any duplicate that comes up first does, and the check is
				// left to a later use, against a page known by then.
				delete(c.verifying, u)
				c.endCheck(u, ver, true)
				c.unchecked(raw, ver)
				return c.take(d, raw, h, u, ver.against, noHolder)
			}
			if ver.declared || ablate.NoRecheck || c.online.Recheck(k, c.heldKey(d.Of)) {
				d.Action = Verify // asked again: counted once
				return d
			}
			// The checks made since it was asked answered it: a duplicate.
			delete(c.verifying, u)
			c.endCheck(u, ver, true)
			c.stats.Lapsed++
			return c.skip(d, raw, h, u, k, v, noHolder)
		}
		// The rule or the declaration to check is gone since: no check is due. The URLs that
		// waited for it are given back by the URL's own fetch (Page.Retry), if it is let
		// through.
		delete(c.verifying, u)
		gone = c.endCheck(u, ver, true)
		c.unchecked(raw, ver)
	}
	if !held {
		if ak, av, ok := c.alternative(k, noHolder); ok {
			return c.duplicateAlternative(d, raw, h, u, ak, av, noHolder, send)
		}
		if c.holders.len() >= c.opt.MaxURLs {
			c.stats.Forgotten++
			c.stats.Fetch++
			d.Action = Fetch
			return d
		}
		delete(c.waited, u)
		if i, ok := c.hold(raw, h, u); ok {
			c.pending[u] = i
			if len(gone) > 0 {
				c.checkWait[u] = gone
			}
			if send {
				c.setState(i, sending)
			}
		} else {
			c.stats.Forgotten++
		}
		c.stats.Fetch++
		d.Action = Fetch
		return d
	}
	if v&declaredBit == 0 && us&^3 == u&^3 || v&declaredBit != 0 && c.urlHash(c.holderOf(v)) == u {
		c.stats.Seen++
		d.Action, d.Of = Skip, raw
		if v&declaredBit == 0 && c.inferred[v] {
			d.Of = c.pages.url(c, uint64(c.pageOf(v))) // skipped before, as a duplicate of it
		}
		return d
	}
	return c.duplicate(d, raw, h, u, k, v, noHolder, send)
}

// alternative returns a key that k's rules give k's URL besides k (learn.Online.Alternatives)
// and that a fetched URL other than holder self holds, with that URL's slot in the table of
// keys: rules that each hold may send two URLs of one page to two keys, and a URL whose own key
// no URL holds is a duplicate of the page of its alternative key's holder, verified like any
// match the rules make. c.mu is held.
func (c *Crawl) alternative(k learn.Key, self uint32) (learn.Key, uint32, bool) {
	if c.online == nil || !k.Rewritten() {
		return learn.Key{}, 0, false
	}
	for _, a := range c.online.Alternatives(k) {
		v, ok := c.keys.get(c, hashKey(a.Key))
		if !ok || v&declaredBit != 0 || v == self || c.holders.at(v).state() != fetched || c.inferred[v] {
			continue
		}
		return a, v, true
	}
	return learn.Key{}, 0, false
}

// duplicateAlternative is duplicate for raw (of key hash h and URL hash u, own holder self or
// noHolder) matched under its alternative key ak, held by av: a URL so skipped holds its own
// key for the page (holdInferred). c.mu is held.
func (c *Crawl) duplicateAlternative(d Decision, raw string, h, u uint64, ak learn.Key, av, self uint32, send bool) Decision {
	d.Key = ak.Key
	d = c.duplicate(d, raw, hashKey(ak.Key), u, ak, av, self, send)
	if d.Action == Skip {
		c.holdInferred(raw, h, u, self, av)
	}
	return d
}

// holdInferred makes raw (of key hash h and URL hash u), just skipped as a duplicate of the page
// of holder of under an alternative key, the holder of its own key when no URL holds it: the
// URL's other duplicates that have that key (the links the rule that made it rewrites) are then
// duplicates of the page too, checked against it like any match, instead of each being fetched
// because its key is free. The holder is fetched but inferred (Crawl.inferred): its page was
// never served under its URL, so it is no alternative key's holder, and rekeying neither
// compares it with another holder nor prefers it to a holder that was fetched; a rekey gives its
// key back when the rules no longer make its URL a duplicate of its page (stillInferred), since
// a skip under rules that are gone must not stand for every later URL of that key. self is
// raw's own holder, released by the skip, if it has one. c.mu is held.
func (c *Crawl) holdInferred(raw string, h, u uint64, self, of uint32) {
	page := c.pageOf(of)
	if _, held := c.keys.get(c, h); held || page == 0 {
		return
	}
	i := self
	if i != noHolder && c.holders.at(i).state() == failed {
		c.holders.at(i).key = h
		c.keys.put(c, h, i, u)
		c.released--
	} else if i != noHolder || c.holders.len() >= c.opt.MaxURLs {
		return
	} else if j, ok := c.hold(raw, h, u); ok {
		i = j
	} else {
		return
	}
	c.holders.at(i).page = page
	c.setState(i, fetched)
	c.inferred[i] = true
}

// stillInferred reports whether the inferred holder i (holdInferred), of key hash h and learner
// Key k under the rules as they now stand, is still a duplicate of its page: a fetched holder of
// the page holds its key, or one of its alternative keys. The fetched holders have their new keys
// already (rekey gives them first). c.mu is held.
func (c *Crawl) stillInferred(i uint32, h uint64, k learn.Key) bool {
	page := c.pageOf(i)
	if v, ok := c.keys.get(c, h); ok && v&declaredBit == 0 && c.holders.at(v).state() == fetched && !c.inferred[v] {
		return c.pageOf(v) == page
	}
	_, v, ok := c.alternative(k, i)
	return ok && c.pageOf(v) == page
}

// inFlight reports whether the URL of hash u is let through and not reported (a pending
// holder) or under verification. c.mu is held.
func (c *Crawl) inFlight(u uint64) bool {
	if len(c.pending) > 0 {
		if _, ok := c.pending[u]; ok {
			return true
		}
	}
	if len(c.verifying) > 0 {
		if _, ok := c.verifying[u]; ok {
			return true
		}
	}
	return false
}

// heldKey returns the learner's Key of a holder's URL under the current rules, so that the rules
// that made the kept side of a match are verified too; the zero Key when it cannot be made.
func (c *Crawl) heldKey(u string) learn.Key {
	k, err := c.online.Key(u)
	if err != nil {
		return learn.Key{}
	}
	return k
}

// noHolder is no holder index.
const noHolder = ^uint32(0)

// duplicate answers for raw (of hash u), whose key (k, d.Key, of hash h) is held by the holder
// of v: Verify when the rule or declaration that made the keys equal is to be checked, else
// Skip, or, for a URL about to be sent (send) whose key's holder is not being sent, Fetch: raw
// takes the key (take). self is raw's own holder when it has one (a URL let through before
// whose key has changed since): skipped, it gives up its holder. c.mu is held.
func (c *Crawl) duplicate(d Decision, raw string, h, u uint64, k learn.Key, v, self uint32, send bool) Decision {
	of := c.holderOf(v)
	d.Of = c.url(of)
	decl := c.sites[c.site(raw)]
	if v&declaredBit != 0 {
		if decl.verify(c.opt.DeclaredFirst, c.opt.DeclaredEvery) {
			c.verifying[u] = verification{url: raw, against: of, declared: true}
			c.stats.Verify++
			d.Action = Verify
			return d
		}
	} else if c.online != nil && c.online.VerifyMatch(k, c.heldKey(d.Of)) {
		c.verifying[u] = verification{url: raw, against: of, key: h}
		if !ablate.NoCheckWait {
			c.checks[h] = u
		}
		c.stats.Verify++
		d.Action = Verify
		return d
	}
	if send && v&declaredBit == 0 && c.holders.at(of).state() == pending && !ablate.NoTake {
		return c.take(d, raw, h, u, of, self)
	}
	return c.skip(d, raw, h, u, k, v, self)
}

// take makes raw (of key hash h and URL hash u), about to be sent, the holder of the key of
// holder of, let through and not being sent yet, and answers Fetch. The duplicates remembered
// as waiting for of wait for raw, and so does of's URL: if raw's fetch fails, After names them
// (Page.Retry). self is raw's own holder, if it has one. c.mu is held.
func (c *Crawl) take(d Decision, raw string, h, u uint64, of, self uint32) Decision {
	ofURL, ofHash := c.url(of), c.urlHash(of)
	moved := c.giveBack(of)
	i := self
	if i != noHolder {
		c.move(i, h)
	} else if j, ok := c.hold(raw, h, u); ok {
		i = j
		c.pending[u] = i
	} else {
		c.stats.Forgotten++
	}
	delete(c.waited, u)
	if i != noHolder {
		c.setState(i, sending)
		c.waiting[i] = append(append(c.waiting[i], ofURL), moved...)
		c.waited[ofHash] = i
		c.rewait(moved, of, i)
	}
	c.stats.Taken++
	c.stats.Fetch++
	d.Action, d.Of = Fetch, ""
	return d
}

// rewait records that the URLs of w, remembered as waiting for holder from, wait for holder to
// now. c.mu is held.
func (c *Crawl) rewait(w []string, from, to uint32) {
	for _, m := range w {
		if mh := hashURL(m); c.waited[mh] == from {
			c.waited[mh] = to
		}
	}
}

// skip answers Skip for raw (of URL hash u), whose key (k, d.Key, of hash h) is held by the
// holder of v, d.Of: see duplicate. c.mu is held.
func (c *Crawl) skip(d Decision, raw string, h, u uint64, k learn.Key, v, self uint32) Decision {
	of := c.holderOf(v)
	hd := c.holders.at(of)
	decl := c.sites[c.site(raw)]
	if self != noHolder {
		c.release(self)
		if w, ok := c.waiting[self]; ok {
			// Duplicates of raw's page, which the holder of the key waits for now.
			delete(c.waiting, self)
			if hd.unreported() {
				c.waiting[of] = append(c.waiting[of], w...)
				c.rewait(w, self, of)
			}
		}
	}
	if c.online != nil && hd.page != 0 {
		if v&declaredBit == 0 {
			// Evidence inferred from the rules (learn.Online.Skipped): the learner would
			// otherwise see only the URLs its rules do not merge yet.
			c.online.Skipped(learn.URL{Raw: raw}, k, uint64(c.pageOf(of)))
		} else if decl.confirmed >= int64(c.opt.DeclaredFirst) {
			// A declaration the site's verified ones vouch for.
			c.online.Observe(learn.URL{Raw: raw}, uint64(c.pageOf(of)))
		}
	}
	// A URL asked again (when it is found, then when it comes up) is remembered once, and
	// counted once.
	w, asked := c.waited[u]
	if hd.unreported() {
		if !asked || w != of {
			c.waiting[of] = append(c.waiting[of], raw)
		}
		c.waited[u] = of
		d.Retry, d.Await = true, d.Of
	} else if asked {
		delete(c.waited, u)
	}
	if vu, ok := c.checks[h]; ok && vu != u {
		// A check of a match to the same page is under way: the URL waits for its outcome
		// (see Page.Retry, which names it once however often it was asked about).
		c.checkWait[vu] = append(c.checkWait[vu], raw)
		if !d.Retry {
			d.Retry, d.Await = true, c.verifying[vu].url
		}
	}
	if !asked {
		c.stats.Skip++
	}
	d.Action = Skip
	return d
}

// hold makes raw (of hash u) the holder of key hash h, in state pending; false when the URL
// store is full.
// c.mu is held.
func (c *Crawl) hold(raw string, h, u uint64) (uint32, bool) {
	pre, tail := splitURL(raw)
	p, ok := c.prefixes[pre]
	if !ok {
		p = c.addPrefix(pre, raw)
	}
	if p.id == 0 {
		tail = raw
	}
	off, ok := c.urls.add(tail)
	if !ok {
		return noHolder, false
	}
	s := &c.siteList[p.site]
	i := c.holders.add(holder{key: h, ref: makeRef(off, p.id), prev: s.last})
	s.last = i + 1
	c.keys.put(c, h, i, u)
	return i, true
}

// addPrefix records the prefix pre of the URL raw: its id in the URL store and its site. A URL
// without a prefix ("" for pre) is recorded with prefix id 0 each time. c.mu is held.
func (c *Crawl) addPrefix(pre, raw string) prefixInfo {
	site := c.siteOf(raw)
	sid, ok := c.siteIDs[site]
	if !ok {
		sid = uint32(len(c.siteList))
		site = strings.Clone(site)
		c.siteIDs[site] = sid
		c.siteList = append(c.siteList, siteHolders{name: site})
		c.siteRules = append(c.siteRules, true)
		if c.online != nil {
			c.refreshRules(sid)
		}
	}
	p := prefixInfo{site: sid}
	if pre == "" {
		return p
	}
	pre = strings.Clone(pre)
	if len(c.urls.prefixes) == 0 {
		c.urls.prefixes = append(c.urls.prefixes, "")
	}
	if len(c.urls.prefixes) < maxPrefixes {
		p.id = uint32(len(c.urls.prefixes))
		c.urls.prefixes = append(c.urls.prefixes, pre)
	}
	c.prefixes[pre] = p
	return p
}

// move gives holder i the key hash h instead of its own. c.mu is held.
func (c *Crawl) move(i uint32, h uint64) {
	hd := c.holders.at(i)
	if v, ok := c.keys.get(c, hd.key); ok && v == i {
		c.keys.del(c, hd.key)
	}
	hd.key = h
	if _, held := c.keys.get(c, h); !held {
		c.keys.put(c, h, i, c.urlHash(i))
	}
}

// giveBack releases holder i (its fetch failed, or another URL takes its key) and returns the
// URLs remembered as waiting for it, which it forgets. c.mu is held.
func (c *Crawl) giveBack(i uint32) []string {
	c.release(i)
	w := c.waiting[i]
	delete(c.waiting, i)
	return w
}

// release gives the key of holder i back: its URL was not fetched (a failure, or a skip when it
// came up for fetching). c.mu is held.
func (c *Crawl) release(i uint32) {
	hd := c.holders.at(i)
	if v, ok := c.keys.get(c, hd.key); ok && v == i {
		c.keys.del(c, hd.key)
	}
	delete(c.pending, c.urlHash(i))
	// The URLs that waited for its check, if its rule went before it came up (see before):
	// its page is another URL's now, and so are theirs if no rule has changed their keys.
	delete(c.checkWait, c.urlHash(i))
	if hd.state() != failed {
		c.released++
	}
	hd.setState(failed)
}

// setState sets the state of holder i, in its slot of the key table too. c.mu is held.
func (c *Crawl) setState(i uint32, s uint8) {
	c.holders.at(i).setState(s)
	c.keys.update(c, c.holders.at(i).key, i)
}

// rekey makes again, under the rules as they stand, the keys of the holders of the sites whose
// rules changed since the last rekey: a rule learned late then catches links to pages fetched
// early, and a retracted rule stops merging at once. A site of n URLs is relearned O(log n)
// times (learn.OnlineOptions.Growth), so rekeying costs O(n log n) keys over a crawl, plus n
// for each retraction.
func (c *Crawl) rekey() {
	if c.online == nil || !c.dirty.Load() {
		return
	}
	c.dmu.Lock()
	dirty := c.dirtySites
	c.dirtySites = map[string]bool{}
	c.dirty.Store(false)
	c.dmu.Unlock()
	if len(dirty) == 0 {
		return
	}

	c.mu.Lock()
	if dirty[""] {
		c.widened = true
		for sid := range c.siteList {
			c.refreshRules(uint32(sid))
		}
	} else {
		for s := range dirty {
			if sid, ok := c.siteIDs[s]; ok {
				c.refreshRules(sid)
			}
		}
	}
	var idx []uint32
	if dirty[""] {
		for i := range c.holders.len() {
			idx = append(idx, uint32(i))
		}
	} else {
		for s := range dirty {
			if sid, ok := c.siteIDs[s]; ok {
				for i := c.siteList[sid].last; i != 0; i = c.holders.at(i - 1).prev {
					idx = append(idx, i-1)
				}
			}
		}
		slices.Sort(idx) // the order they were let through, whatever the order of the sites
	}
	urls := make([]string, len(idx))
	for j, i := range idx {
		urls[j] = c.url(i)
	}
	var decl []*declared
	for s, ds := range c.sites {
		if dirty[""] || dirty[s] {
			decl = append(decl, ds.list...)
		}
	}
	slices.SortFunc(decl, func(a, b *declared) int { return cmp.Compare(a.idx, b.idx) })
	declURLs := make([]string, len(decl))
	for j, d := range decl {
		declURLs[j] = d.url
	}
	c.mu.Unlock()

	// The keys, without the lock: Before and After go on meanwhile.
	hashes, urlHashes := make([]uint64, len(urls)), make([]uint64, len(urls))
	lks := make([]learn.Key, len(urls))
	for j, u := range urls {
		if k, lk, err := c.key(u); err == nil {
			hashes[j], lks[j] = hashKey(k), lk
		}
		urlHashes[j] = hashURL(u)
	}
	declHashes := make([]uint64, len(declURLs))
	for j, u := range declURLs {
		if k, _, err := c.key(u); err == nil {
			declHashes[j] = hashKey(k)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	// Each holder's key before, and the holder that held it when another did: a pair of
	// fetched URLs whose keys were equal before was compared then.
	before := make([]uint64, len(idx))
	other := make([]uint32, len(idx))
	for j, i := range idx {
		hd := c.holders.at(i)
		before[j], other[j] = hd.key, noHolder
		if v, ok := c.keys.get(c, hd.key); ok && v != i && v&declaredBit == 0 {
			other[j] = v
		}
	}
	for j, i := range idx {
		hd := c.holders.at(i)
		if hd.state() == failed || hashes[j] == 0 {
			continue
		}
		if v, ok := c.keys.get(c, hd.key); ok && v == i {
			c.keys.del(c, hd.key)
		}
	}
	for _, d := range decl {
		if v, ok := c.keys.get(c, d.key); ok && v == d.idx|declaredBit {
			c.keys.del(c, d.key)
		}
	}
	// Holders first: those whose page was fetched, then those whose page was inferred
	// (holdInferred), then those still waiting to be, each in the order they were let through,
	// so that a key goes to a URL whose page is known when there is one (a crawler whose queue
	// is a stack fetches the URLs let through last first). Then declarations, which never take
	// a key that a URL holds.
	rank := func(i uint32) int {
		switch c.holders.at(i).state() {
		case fetched:
			if c.inferred[i] {
				return 1
			}
			return 0
		case sending:
			return 2
		case pending:
			return 3
		}
		return -1
	}
	for r := range 4 {
		for j, i := range idx {
			hd := c.holders.at(i)
			if rank(i) != r || hashes[j] == 0 {
				continue
			}
			if r == 1 && !ablate.NoInferredRecheck && !c.stillInferred(i, hashes[j], lks[j]) {
				// The rules that made its URL a duplicate of its page are gone: its key is given
				// back, and its URL is asked about again when it comes up.
				delete(c.inferred, i)
				c.release(i)
				continue
			}
			hd.key = hashes[j]
			if _, held := c.keys.get(c, hd.key); !held {
				c.keys.put(c, hd.key, i, urlHashes[j])
			}
		}
	}
	c.compare(idx, lks, before, other, urlHashes)
	for j, d := range decl {
		if d.withdrawn || declHashes[j] == 0 {
			continue
		}
		d.key = declHashes[j]
		if _, held := c.keys.get(c, d.key); !held {
			c.keys.put(c, d.key, d.idx|declaredBit, 0)
		}
	}
}

// compare records the fetched holders of idx (rekeyed, of learner Keys lks and URL hashes
// urlHashes) whose key another fetched holder took, in Crawl.displaced, and checks the rules
// that made each such pair's keys equal, if it is new (the holder's key hash was not before[j]
// held by other[j]), by comparing the pages the two URLs served: a check of the rules that
// costs no fetch (learn.Online.VerifyMatch, then ConfirmMatch). A rule that merges two pages
// fetched before is retracted at once, and a rule confirmed so is not checked by fetching the
// next URL it rewrites. c.mu is held.
func (c *Crawl) compare(idx []uint32, lks []learn.Key, before []uint64, other []uint32, urlHashes []uint64) {
	gen := c.published.Load()
	for j, i := range idx {
		hd := c.holders.at(i)
		if hd.state() != fetched || c.inferred[i] {
			continue
		}
		delete(c.displaced, urlHashes[j])
		v, ok := c.keys.get(c, hd.key)
		if !ok || v == i || v&declaredBit != 0 {
			continue
		}
		c.displaced[urlHashes[j]] = i
		if ablate.NoCompare || hd.page == 0 || c.holders.at(v).state() != fetched || c.holders.at(v).page == 0 || c.inferred[v] ||
			before[j] == hd.key && other[j] == v {
			continue
		}
		pi, pv := c.pageOf(i), c.pageOf(v)
		same := pi == pv
		if !same {
			var joined []uint32
			if same, joined = c.recheck(pv, uint64(pi), nil); !same {
				same, joined = c.recheck(pi, uint64(pv), joined)
			}
			for _, o := range joined {
				c.online.Join(uint64(c.pages.root(o)), uint64(o)) // as After does for lookup's joins
			}
		}
		kept := c.heldKey(c.url(v))
		k := lks[j]
		if c.published.Load() != gen {
			// A comparison before this one retracted a rule: the keys of the pass are made
			// under the rules as they stand now, and a pair that no longer shares one is not
			// a use of any rule (its rules would be blamed for a match they no longer make).
			if k = c.heldKey(c.url(i)); k.Key != kept.Key {
				continue
			}
		}
		c.online.VerifyMatch(k, kept) // counts the use
		c.online.ConfirmMatch(k, kept, same)
		c.stats.Compared++
		if !same {
			c.stats.CompareMismatches++
		}
	}
}
