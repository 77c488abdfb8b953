package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/undust/undust"
	"github.com/undust/undust/internal/hrefs"
	"github.com/undust/undust/simsite"
)

// httpClient returns a client that reaches the simulated site at addr for every host and does
// not follow redirects (a crawler enqueues redirect targets like links).
func httpClient(addr string) *http.Client {
	return &http.Client{
		Transport:     simsite.Transport(addr),
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// A fetch is one request of a crawl.
type fetch struct {
	url    string
	status int
	body   []byte
	id     uint64 // the page's id (undust.Page.ID), 0 for no page
	dup    bool   // undust called the page a duplicate
	verify bool   // Before answered Verify: the fetch checks a rule's use
}

// A crawl is one breadth-first pass over the site, with one undust.Crawl deciding: it asks
// Before when it finds a link (a link whose key is held is not queued) and again when the link
// comes up (the rules may have changed since), and tells After of every fetch.
type crawl struct {
	name       string
	client     *http.Client
	dedup      *undust.Crawl
	followDups bool // follow the links of duplicates too (pass 1: the static key alone)
	maxFetches int
	progress   *progress

	fetches   []fetch
	avoided   int // links not fetched because their key was held
	keyErrors int // links whose key could not be made (fetched)
	learnTime time.Duration
	finished  bool // the frontier was empty at the end (the budget did not stop the crawl)
}

// run crawls from seed, breadth first, until the frontier is empty or maxFetches is reached.
// It is sequential, so a seed gives the same crawl every time.
func (c *crawl) run(seed string) error {
	queue := []string{seed}
	c.dedup.Before(seed)
	for len(queue) > 0 && len(c.fetches) < c.maxFetches {
		u := queue[0]
		queue = queue[1:]
		d := c.dedup.Before(u)
		if d.Action == undust.Skip {
			c.avoided++
			continue
		}
		f, resp, err := c.get(u)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		t0 := time.Now()
		p := c.dedup.After(resp)
		c.learnTime += time.Since(t0)
		f.id, f.dup, f.verify = p.ID, p.Duplicate, d.Action == undust.Verify
		c.fetches = append(c.fetches, f)
		c.progress.update(len(c.fetches), len(queue))
		for _, r := range p.Retry {
			queue = append(queue, r)
		}
		if f.status != http.StatusOK || (f.dup && !c.followDups) {
			continue
		}
		for _, l := range hrefs.Links(u, f.body) {
			if !inSite(l) {
				continue
			}
			d := c.dedup.Before(l)
			if d.Err != nil {
				c.keyErrors++
			}
			if d.Action == undust.Skip {
				c.avoided++
				continue
			}
			queue = append(queue, l)
		}
	}
	c.finished = len(queue) == 0
	c.progress.done(len(c.fetches), c.finished)
	return nil
}

// get fetches u; an error is the loopback site's failure, which ends the crawl.
func (c *crawl) get(u string) (fetch, undust.Response, error) {
	resp, err := c.client.Get(u)
	if err != nil {
		return fetch{}, undust.Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fetch{}, undust.Response{}, err
	}
	return fetch{url: u, status: resp.StatusCode, body: body},
		undust.Response{URL: u, Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

func inSite(u string) bool { return simsite.InSite(u) }

// progress shows a crawl's progress on stderr: a bar redrawn in place on a terminal, otherwise a
// line every few seconds; and a line when the crawl ends.
type progress struct {
	name  string
	max   int
	tty   bool
	quiet bool
	start time.Time
	last  time.Time
}

// progressEvery is the time between two progress lines when stderr is not a terminal.
const progressEvery = 2 * time.Second

func newProgress(name string, max int, quiet bool) *progress {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	now := time.Now()
	return &progress{name: name, max: max, tty: tty, quiet: quiet, start: now, last: now}
}

func (p *progress) update(n, queued int) {
	if p == nil || p.quiet {
		return
	}
	if p.tty {
		if n%20 != 0 {
			return
		}
		const width = 30
		fill := min(width*n/max(p.max, 1), width)
		fmt.Fprintf(os.Stderr, "\r%-7s [%s%s] %6d fetched, %6d queued", p.name,
			strings.Repeat("#", fill), strings.Repeat(".", width-fill), n, queued)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= progressEvery {
		p.last = now
		fmt.Fprintf(os.Stderr, "%s: %d fetched, %d queued\n", p.name, n, queued)
	}
}

func (p *progress) done(n int, finished bool) {
	if p == nil || p.quiet {
		return
	}
	if p.tty {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	how := "frontier empty"
	if !finished {
		how = "stopped at the budget"
	}
	fmt.Fprintf(os.Stderr, "%s: %d fetched, %s, %v\n", p.name, n, how, time.Since(p.start).Round(time.Millisecond))
}
