package undust

import (
	"github.com/undust/undust/learn"
)

// maxRedirectSources bounds the URLs remembered as redirecting to one URL not fetched yet.
const maxRedirectSources = 16

// After reports what the fetch of a URL that Before let through gave, and returns the page's
// identity: see the package documentation and Page. It may also be given a URL that Before never
// saw (a seed the crawler fetched itself): its key is then recorded as if Before had let it
// through. After reads r and keeps none of its slices.
func (c *Crawl) After(r Response) Page {
	p := c.after(r)
	p.Retry = once(p.Retry)
	return p
}

// once returns urls without the repeats of a URL, in the order of their first appearance.
func once(urls []string) []string {
	if len(urls) < 2 {
		return urls
	}
	seen := make(map[string]bool, len(urls))
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

func (c *Crawl) after(r Response) Page {
	c.rekey()
	final := r.FinalURL
	if final == "" {
		final = r.URL
	}
	failed := r.Err != nil || r.Status <= 0 || r.Status == 429 || r.Status >= 500
	var p print
	hasPrint := false
	var out Page
	if !failed && r.Status == 200 {
		if !c.opt.NoContent {
			p, hasPrint = c.identify(final, r.Body), true
		}
		if !c.opt.NoDeclared {
			out.Canonical = c.canonicalOf(final, r.Header, r.Body)
		}
	}
	location := ""
	if !failed && !c.opt.NoDeclared && r.Status >= 300 && r.Status < 400 && r.Header != nil {
		if l := r.Header.Get("Location"); l != "" {
			location, _ = c.canon.Resolve(final, l)
		}
	}
	own, _, ownErr := c.key(r.URL)
	var finalKey, canonKey string
	if final != r.URL {
		finalKey, _, _ = c.key(final)
	}
	if out.Canonical != "" {
		canonKey, _, _ = c.key(out.Canonical)
	}

	u := hashURL(r.URL)
	c.mu.Lock()
	c.stats.Responses++
	ver, isVerify := c.verifying[u]
	delete(c.verifying, u)
	checkWaiters := c.endCheck(u, ver, isVerify)
	// A URL whose check was not due any more when it came up (Before: its rule was gone)
	// gives back the URLs that waited for that check, whatever its answer.
	var gone []string
	if !isVerify {
		gone = checkWaiters
	}
	verURL := r.URL
	i, held := c.pending[u]
	delete(c.pending, u)
	if failed {
		c.stats.Failed++
		var retry []string
		if isVerify {
			// Not made: the URLs that waited for the check are asked about again, and the
			// URL itself the first time.
			c.unchecked(r.URL, ver)
			retry = checkWaiters
			if !c.retried[u] {
				c.retried[u] = true
				retry = append(retry, r.URL)
			}
		}
		if held {
			retry = append(retry, c.giveBack(i)...)
			if len(retry) == 0 && !c.retried[u] {
				c.retried[u] = true
				retry = []string{r.URL}
			}
		}
		if final != r.URL {
			// A redirect followed to a URL that Before let through (a client that asks
			// Before about each redirect), whose fetch failed: it gives its key back too.
			if j, ok := c.pending[hashURL(final)]; ok {
				retry = append(retry, c.giveBack(j)...)
			}
		}
		c.mu.Unlock()
		return Page{Failed: true, Retry: append(retry, gone...)}
	}
	if held {
		delete(c.waiting, i)
	}
	if !held && !isVerify && ownErr == nil {
		// After without Before: record the URL's key if no URL holds it.
		if _, taken := c.keys.get(c, hashKey(own)); !taken && c.holders.len() < c.opt.MaxURLs {
			i, held = c.hold(r.URL, hashKey(own), u)
		}
	}
	if held {
		c.setState(i, fetched)
	}
	var observe []string // URLs that served the page, for the learner
	if final != r.URL || location != "" {
		c.stats.Redirects++
	}
	finalHolder := noHolder
	if final != r.URL && finalKey != "" {
		// The client followed redirects: the final URL was fetched too, and a URL that holds
		// its key and is not fetched yet need not be.
		if v, taken := c.keys.get(c, hashKey(finalKey)); !taken && c.holders.len() < c.opt.MaxURLs {
			if j, ok := c.hold(final, hashKey(finalKey), hashURL(final)); ok {
				finalHolder = j
				c.setState(j, fetched)
			}
		} else if taken && v&declaredBit == 0 && c.holders.at(v).unreported() {
			finalHolder = v
			c.setState(v, fetched)
			uv := c.urlHash(v)
			delete(c.pending, uv)
			delete(c.waiting, v)
			gone = append(gone, c.checkWait[uv]...)
			delete(c.checkWait, uv)
		}
	}
	if final != r.URL {
		// A check of the final URL that Before asked for (a client that asks Before about
		// each redirect) is made by this fetch.
		if v, ok := c.verifying[hashURL(final)]; ok && !isVerify {
			delete(c.verifying, hashURL(final))
			ver, isVerify, verURL = v, true, final
			checkWaiters = append(checkWaiters, c.endCheck(hashURL(final), v, true)...)
		}
	}
	var locationPage uint32
	if location != "" {
		// A redirect the client did not follow: the crawler fetches the location as a link,
		// and its page is then the page of r.URL too; if it was fetched already, its page is.
		if lk, _, err := c.keyLocked(location); err == nil {
			if v, ok := c.keys.get(c, hashKey(lk)); ok && v&declaredBit == 0 && c.holders.at(v).state() == fetched && !c.inferred[v] {
				locationPage = c.pageOf(v)
			}
		}
		if locationPage == 0 && len(c.redirects[location]) < maxRedirectSources {
			c.redirects[location] = append(c.redirects[location], r.URL)
		}
	}
	out.Retry = gone
	if !hasPrint {
		if isVerify && r.Status != 200 {
			// A redirect to a page fetched before compares that page with the kept one. Any
			// other answer is no page (a 404, a redirect the crawler did not follow to a page
			// not fetched yet): it compared nothing, so the rule's next use is checked in its
			// place. Unless a check made found the same page, the URLs that waited for it are
			// asked about again.
			compared := locationPage != 0 && c.holders.at(ver.against).page != 0
			same := compared && locationPage == c.pageOf(ver.against)
			made := compared && c.check(verURL, ver, same)
			if !made {
				c.unchecked(verURL, ver)
			}
			if !made || !same {
				out.Retry = checkWaiters
			}
		}
		if locationPage != 0 && c.online != nil {
			c.mu.Unlock()
			c.online.Observe(learn.URL{Raw: r.URL}, uint64(locationPage))
			c.online.Relearn() // a run of redirects teaches as it goes, not at the next page
			return out
		}
		c.mu.Unlock()
		return out
	}

	c.stats.Pages++
	var buf [2]uint32
	id, dup, joined := c.pages.lookup(p, buf[:0])
	if !dup {
		first := i
		if !held {
			first = noHolder
		}
		id = c.pages.add(p, first, r.URL, c.opt.MaxPages)
		if id == 0 {
			c.stats.Forgotten++
		} else if p.young {
			c.young.add(uint32(id), final, r.Body)
		}
	}
	if held {
		c.holders.at(i).page = uint32(id)
	}
	if finalHolder != noHolder {
		c.holders.at(finalHolder).page = uint32(id)
	}
	if isVerify && c.holders.at(ver.against).page == 0 {
		// The holder's page is not known (not fetched yet, under way, or no page): the check
		// proves nothing either way. Its page, if it has one, meets this one by content.
		isVerify = false
		if c.holders.at(ver.against).state() != pending {
			// Its fetch was under way (two fetches at once) or is done: the rule's next use
			// is checked in this one's place, soon against a known page, and the URLs that
			// waited for this one are asked about again. A holder still queued may come up
			// long after (a crawler that asks Before alone, its queue a stack): checks in its
			// place would each compare nothing, as this one did.
			c.unchecked(verURL, ver)
			out.Retry = checkWaiters
		}
	}
	if isVerify {
		kept := c.pageOf(ver.against)
		same := uint64(kept) == id
		if !same {
			var again bool
			if again, joined = c.recheck(kept, id, joined); again {
				same, dup, id = true, true, uint64(c.pages.root(kept))
			}
		}
		if !c.check(verURL, ver, same) {
			// The key has another holder now, or no rule makes it any more: the check
			// proves nothing, and the URLs that waited for it are asked about again.
			c.unchecked(verURL, ver)
			out.Retry = checkWaiters
		} else if !same {
			out.Retry = checkWaiters
		}
		if same && !held {
			c.checked[u] = ver.against
		}
		if !same && !held && !dup {
			// A page of its own: the URL holds its key under the rules as they stand now.
			if k, _, err := c.keyLocked(r.URL); err == nil && c.holders.len() < c.opt.MaxURLs {
				if j, ok := c.hold(r.URL, hashKey(k), u); ok {
					c.setState(j, fetched)
					c.holders.at(j).page = uint32(id)
				}
			}
		}
	}
	if dup {
		c.stats.Duplicates++
		out.Duplicate = true
		out.Of = c.pages.url(c, id)
	} else {
		c.stats.Kept++
	}
	out.ID = id
	observe = append(observe, r.URL)
	if final != r.URL {
		observe = append(observe, final)
	}
	for _, src := range []string{r.URL, final} {
		if srcs, ok := c.redirects[src]; ok {
			observe = append(observe, srcs...)
			delete(c.redirects, src)
		}
	}
	if canonKey != "" && held {
		c.declare(i, out.Canonical, hashKey(canonKey), own)
	}
	c.mu.Unlock()

	if id != 0 && !out.Duplicate {
		c.learnTemplate(final, r.Body)
	}
	if c.online != nil && id != 0 {
		// Pages found to be one: the learner's clusters of the later ids join the page's, so
		// that the page's URLs get one target.
		for _, o := range joined {
			c.online.Join(id, uint64(o))
		}
		for _, u := range observe {
			c.online.Observe(learn.URL{Raw: u}, id)
		}
		c.online.Relearn()
	}
	return out
}

// endCheck ends the check under way by the fetch of the URL of hash u (ver, if isVerify) and
// returns the URLs skipped while it was under way (see Page.Retry). c.mu is held.
func (c *Crawl) endCheck(u uint64, ver verification, isVerify bool) []string {
	w := c.checkWait[u]
	delete(c.checkWait, u)
	if isVerify && c.checks[ver.key] == u {
		delete(c.checks, ver.key)
	}
	return w
}

// unchecked tells the learner that the check of raw that Before asked for (ver) was not made,
// so that the rule's next use is checked instead (learn.Online.Unchecked). c.mu is held.
func (c *Crawl) unchecked(raw string, ver verification) {
	if ver.declared || c.online == nil {
		return
	}
	if k, err := c.online.Key(raw); err == nil {
		c.online.Unchecked(k, c.heldKey(c.url(ver.against)))
	}
}

// check completes the verification of raw: a rule's (learn.Online.Confirm) or a site's
// declarations'. It reports false when the check proves nothing: the rules that make raw's key
// now no longer meet the holder it was checked against (a rule retracted since, the key taken by
// another URL). c.mu is held.
func (c *Crawl) check(raw string, v verification, same bool) bool {
	if v.declared {
		c.stats.Checked++
		if !same {
			c.stats.Mismatches++
		}
		c.sites[c.site(raw)].outcome(c, same)
		return true
	}
	if c.online == nil {
		return true
	}
	// The rules that make the key now: those that made it at Before, unless a relearn or a
	// retraction changed them since.
	k, err := c.online.Key(raw)
	if err != nil {
		return false
	}
	v0, ok := c.keys.get(c, hashKey(k.Key))
	if !ok || v0 != v.against {
		if ak, av, alt := c.alternative(k, noHolder); alt && av == v.against {
			k, v0, ok = ak, av, true // a match under an alternative key (see alternative)
		}
	}
	if !ok || v0 != v.against {
		return false
	}
	c.stats.Checked++
	if !same {
		c.stats.Mismatches++
	}
	c.online.ConfirmMatch(k, c.heldKey(c.url(v.against)), same)
	return true
}
