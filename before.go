package undust

import (
	"cmp"
	"slices"

	"github.com/undust/undust/learn"
)

// Before decides whether to fetch the URL raw: see the package documentation and Action. A URL
// answered Fetch or Verify holds on to what Before gave it until After reports it; a crawler
// that drops such a URL without fetching it reports it with After and Response.Err set.
func (c *Crawl) Before(raw string) Decision {
	c.rekey()
	key, k, err := c.key(raw)
	if err != nil {
		c.mu.Lock()
		c.stats.URLs++
		c.stats.KeyErrors++
		c.stats.Fetch++
		c.mu.Unlock()
		return Decision{Action: Fetch, Key: key, Err: err}
	}
	h := hashKey(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.URLs++
	d := Decision{Key: key}
	if i, ok := c.pending[raw]; ok {
		// Let through before and not fetched yet: the rules may have changed since, and made
		// its key another URL's (rekey gives it the key, but another URL may hold it).
		if v, held := c.keys[h]; held && v&^declaredBit != i {
			return c.duplicate(d, raw, k, v, i)
		}
		if c.holders[i].key != h {
			c.move(i, h)
		}
		c.stats.Fetch++
		d.Action = Fetch
		return d
	}
	v, held := c.keys[h]
	if ver, ok := c.verifying[raw]; ok {
		if held && v == ver.against|declaredFlag(ver.declared) {
			d.Action = Verify // asked again: counted once
			d.Of = c.holders[ver.against].url
			return d
		}
		// The rule or the declaration to check is gone since: no check is due.
		delete(c.verifying, raw)
	}
	if !held {
		if len(c.holders) >= c.opt.MaxURLs {
			c.stats.Forgotten++
			c.stats.Fetch++
			d.Action = Fetch
			return d
		}
		i := c.hold(raw, h)
		c.pending[raw] = i
		c.stats.Fetch++
		d.Action = Fetch
		return d
	}
	if c.holders[v&^declaredBit].url == raw {
		c.stats.Seen++
		d.Action, d.Of = Skip, raw
		return d
	}
	return c.duplicate(d, raw, k, v, noHolder)
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

// declaredFlag is declaredBit for a declared key, else 0.
func declaredFlag(declared bool) uint32 {
	if declared {
		return declaredBit
	}
	return 0
}

// noHolder is no holder index.
const noHolder = ^uint32(0)

// duplicate answers for raw, whose key (k, d.Key) is held by the holder of v: Verify when the
// rule or declaration that made the keys equal is to be checked, else Skip. self is raw's own
// holder when it has one (a URL let through before whose key has changed since): skipped, it
// gives up its holder. c.mu is held.
func (c *Crawl) duplicate(d Decision, raw string, k learn.Key, v, self uint32) Decision {
	of := v &^ declaredBit
	hd := &c.holders[of]
	d.Of = hd.url
	decl := c.sites[c.site(raw)]
	if v&declaredBit != 0 {
		if decl.verify(c.opt.DeclaredFirst, c.opt.DeclaredEvery) {
			c.verifying[raw] = verification{against: of, declared: true}
			c.stats.Verify++
			d.Action = Verify
			return d
		}
	} else if c.online != nil && c.online.VerifyMatch(k, c.heldKey(hd.url)) {
		c.verifying[raw] = verification{against: of}
		c.stats.Verify++
		d.Action = Verify
		return d
	}
	if self != noHolder {
		c.release(self)
	}
	if c.online != nil && hd.page != 0 {
		if v&declaredBit == 0 {
			// Evidence inferred from the rules (learn.Online.Skipped): the learner would
			// otherwise see only the URLs its rules do not merge yet.
			c.online.Skipped(learn.URL{Raw: raw}, k, uint64(hd.page))
		} else if decl.confirmed >= int64(c.opt.DeclaredFirst) {
			// A declaration the site's verified ones vouch for.
			c.online.Observe(learn.URL{Raw: raw}, uint64(hd.page))
		}
	}
	if hd.state == pending && len(c.waiting[of]) < maxWaiting {
		c.waiting[of] = append(c.waiting[of], raw)
		d.Retry = true
	}
	c.stats.Skip++
	d.Action = Skip
	return d
}

// maxWaiting bounds the URLs remembered as skipped duplicates of one URL not fetched yet.
const maxWaiting = 4

// hold makes raw the holder of key hash h. c.mu is held.
func (c *Crawl) hold(raw string, h uint64) uint32 {
	i := uint32(len(c.holders))
	c.holders = append(c.holders, holder{url: raw, key: h})
	c.keys[h] = i
	site := c.site(raw)
	c.bySite[site] = append(c.bySite[site], i)
	return i
}

// move gives holder i the key hash h instead of its own. c.mu is held.
func (c *Crawl) move(i uint32, h uint64) {
	hd := &c.holders[i]
	if c.keys[hd.key] == i {
		delete(c.keys, hd.key)
	}
	hd.key = h
	if _, held := c.keys[h]; !held {
		c.keys[h] = i
	}
}

// release gives the key of holder i back: its URL was not fetched (a failure, or a skip when it
// came up for fetching). c.mu is held.
func (c *Crawl) release(i uint32) {
	hd := &c.holders[i]
	if c.keys[hd.key] == i {
		delete(c.keys, hd.key)
	}
	delete(c.pending, hd.url)
	if hd.state != failed {
		c.released++
	}
	hd.state = failed
}

// rekey makes again, under the rules as they stand, the keys of the holders of the sites whose
// rules changed since the last rekey: a rule learned late then catches links to pages fetched
// early, and a retracted rule stops merging at once. A site of n URLs is relearned O(log n)
// times (learn.OnlineOptions.Growth), so rekeying costs O(n log n) keys over a crawl, plus n
// for each retraction.
func (c *Crawl) rekey() {
	if c.online == nil {
		return
	}
	c.dmu.Lock()
	if len(c.dirtySites) == 0 {
		c.dmu.Unlock()
		return
	}
	dirty := c.dirtySites
	c.dirtySites = map[string]bool{}
	c.dmu.Unlock()

	c.mu.Lock()
	var idx []uint32
	if dirty[""] {
		for i := range c.holders {
			idx = append(idx, uint32(i))
		}
	} else {
		for s := range dirty {
			idx = append(idx, c.bySite[s]...)
		}
		slices.Sort(idx) // the order they were let through, whatever the order of the sites
	}
	urls := make([]string, len(idx))
	for j, i := range idx {
		urls[j] = c.holders[i].url
	}
	var decl []*declared
	for s, ds := range c.sites {
		if dirty[""] || dirty[s] {
			decl = append(decl, ds.list...)
		}
	}
	slices.SortFunc(decl, func(a, b *declared) int { return cmp.Compare(a.seq, b.seq) })
	declURLs := make([]string, len(decl))
	for j, d := range decl {
		declURLs[j] = d.url
	}
	c.mu.Unlock()

	// The keys, without the lock: Before and After go on meanwhile.
	hashes := make([]uint64, len(urls))
	for j, u := range urls {
		if k, _, err := c.key(u); err == nil {
			hashes[j] = hashKey(k)
		}
	}
	declHashes := make([]uint64, len(declURLs))
	for j, u := range declURLs {
		if k, _, err := c.key(u); err == nil {
			declHashes[j] = hashKey(k)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	for j, i := range idx {
		hd := &c.holders[i]
		if hd.state == failed || hashes[j] == 0 {
			continue
		}
		if c.keys[hd.key] == i {
			delete(c.keys, hd.key)
		}
	}
	for _, d := range decl {
		if c.keys[d.key] == d.holder|declaredBit {
			delete(c.keys, d.key)
		}
	}
	// Holders first, in the order they were let through, then declarations, which never take a
	// key that a URL holds.
	for j, i := range idx {
		hd := &c.holders[i]
		if hd.state == failed || hashes[j] == 0 {
			continue
		}
		hd.key = hashes[j]
		if _, held := c.keys[hd.key]; !held {
			c.keys[hd.key] = i
		}
	}
	for j, d := range decl {
		if d.withdrawn || declHashes[j] == 0 {
			continue
		}
		d.key = declHashes[j]
		if _, held := c.keys[d.key]; !held {
			c.keys[d.key] = d.holder | declaredBit
		}
	}
}
