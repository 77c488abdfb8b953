package main

import (
	"time"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/simhash"
)

// pageIDs is the content check of a crawl that learns as it goes: it gives each fetched page a
// content id, the id of the first page with the same main-text digest or a SimHash within
// nearK, and calls a page with an earlier page's id a duplicate. The id is the fingerprint the
// online learner groups URLs by.
type pageIDs struct {
	digests map[uint64]uint64
	index   *simhash.Index
	n       uint64
	last    uint64            // the id of the page last checked, 0 if it had no text
	ofURL   map[string]uint64 // the id of each URL checked
}

func newPageIDs() *pageIDs {
	return &pageIDs{digests: map[uint64]uint64{}, index: simhash.NewIndex(nearK, nil), ofURL: map[string]uint64{}}
}

func (p *pageIDs) duplicate(u string, body []byte) bool {
	p.last = 0
	fp, ok := fingerprint(body)
	if !ok {
		return false
	}
	if id, seen := p.digests[fp.digest]; seen {
		p.last, p.ofURL[u] = id, id
		return true
	}
	if m, near := p.index.Near(fp.sim, nearK); near {
		p.digests[fp.digest] = m.ID
		p.last, p.ofURL[u] = m.ID, m.ID
		return true
	}
	p.n++
	p.digests[fp.digest] = p.n
	p.index.Insert(p.n, fp.sim)
	p.last, p.ofURL[u] = p.n, p.n
	return false
}

// A verification is a link the online learner asked to fetch although its key was known: the
// page it serves is compared with that of the URL that holds the key.
type verification struct {
	key     learn.Key
	against string
}

// learnAsYouGo is what a crawl with an online learner does after fetching u: the page's content
// id is evidence for the learner, which relearns the site when it is due; a fetch the learner
// asked for to verify a rule is compared with the page the rule said it duplicates.
func (c *crawl) learnAsYouGo(u string, f *fetch) {
	if f.status != 200 {
		return
	}
	id := c.ids.last
	if id == 0 {
		return
	}
	if v, ok := c.verify[u]; ok {
		delete(c.verify, u)
		if want, fetched := c.ids.ofURL[v.against]; fetched {
			same := want == id
			c.online.Confirm(v.key, same)
			c.verified++
			if !same {
				c.mismatches++
			}
		}
	}
	c.online.Observe(learn.URL{Raw: u}, id)
	t0 := time.Now()
	c.online.Relearn()
	c.learnTime += time.Since(t0)
}
