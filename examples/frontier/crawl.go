package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/simsite"
	"github.com/undust/undust/urlnorm"
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

// A contentCheck sees each fetched page and says whether it duplicates one seen before (after
// fetching). A crawler does not store, index or follow the links of a duplicate.
type contentCheck interface {
	duplicate(u string, body []byte) bool
}

// A fetch is one request of a crawl.
type fetch struct {
	url    string
	status int
	body   []byte
	dup    bool // the content check called it a duplicate
}

// A crawl is one breadth-first pass over the site.
type crawl struct {
	name       string
	client     *http.Client
	key        urlnorm.Stage // the dedup key: a URL is enqueued only if its key is new; it is fetched as found
	check      contentCheck  // may be nil
	maxFetches int
	progress   *progress

	// online, if set, learns rules as the crawl goes: the key of a link is its key under the
	// rules learned so far (key is not used), and ids, the content check, gives its evidence.
	online    *learn.Online
	ids       *pageIDs
	verify    map[string]verification // links enqueued to verify a rule
	learnTime time.Duration           // spent relearning

	enqueued map[string]bool

	fetches    []fetch
	avoided    int  // links not enqueued because their key was already seen
	keyErrors  int  // links whose key could not be made (skipped)
	verified   int  // fetches made to verify a rule
	mismatches int  // of them, those that found another page than the rule said
	finished   bool // the frontier was empty at the end (the budget did not stop the crawl)
}

// keyOf returns the dedup key of a link.
func (c *crawl) keyOf(u string) (learn.Key, error) {
	if c.online != nil {
		return c.online.Key(u)
	}
	k, err := c.key.Normalize(u)
	return learn.Key{Key: k}, err
}

// run crawls from seed, breadth first, until the frontier is empty or maxFetches is reached.
// It is sequential, so a seed gives the same crawl every time.
func (c *crawl) run(seed string) error {
	seen := map[string]string{} // key -> the URL enqueued under it
	k, err := c.keyOf(seed)
	if err != nil {
		return fmt.Errorf("%s: seed: %w", c.name, err)
	}
	seen[k.Key] = seed
	c.enqueued = map[string]bool{seed: true}
	if c.online != nil {
		c.ids, c.check, c.verify = newPageIDs(), nil, map[string]verification{}
		c.check = c.ids
	}
	queue := []string{seed}
	for len(queue) > 0 && len(c.fetches) < c.maxFetches {
		u := queue[0]
		queue = queue[1:]
		if c.online != nil && !c.rekey(u, seen) {
			continue
		}
		f, err := c.get(u)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if f.status == http.StatusOK && c.check != nil {
			f.dup = c.check.duplicate(u, f.body)
		}
		if c.online != nil {
			c.learnAsYouGo(u, &f)
		}
		c.fetches = append(c.fetches, f)
		c.progress.update(len(c.fetches), len(queue))
		if f.status != http.StatusOK || f.dup {
			continue
		}
		for _, l := range links(u, f.body) {
			if !inSite(l) {
				continue
			}
			k, err := c.keyOf(l)
			if err != nil {
				c.keyErrors++
				continue
			}
			if prev, ok := seen[k.Key]; ok {
				if c.online == nil || prev == l || c.enqueued[l] || !c.online.Verify(k) {
					c.avoided++
					continue
				}
				c.verify[l] = verification{key: k, against: prev}
			} else {
				seen[k.Key] = l
			}
			c.enqueued[l] = true
			queue = append(queue, l)
		}
	}
	c.finished = len(queue) == 0
	c.progress.done(len(c.fetches), c.finished)
	return nil
}

// rekey keys u again under the rules learned since it was enqueued and says whether to fetch
// it: not when a rule learned since maps it to the key of another URL enqueued before, unless
// the learner asks to verify that use of the rule.
func (c *crawl) rekey(u string, seen map[string]string) bool {
	if _, ok := c.verify[u]; ok {
		return true
	}
	k, err := c.keyOf(u)
	if err != nil {
		return true
	}
	prev, ok := seen[k.Key]
	if !ok {
		seen[k.Key] = u
		return true
	}
	if prev == u {
		return true
	}
	if c.online.Verify(k) {
		c.verify[u] = verification{key: k, against: prev}
		return true
	}
	c.avoided++
	return false
}

func (c *crawl) get(u string) (fetch, error) {
	resp, err := c.client.Get(u)
	if err != nil {
		return fetch{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fetch{}, err
	}
	return fetch{url: u, status: resp.StatusCode, body: body}, nil
}

// links returns the absolute http(s) URLs of the <a href> links of a page, in document order.
func links(base string, body []byte) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "a" || !hasAttr {
				continue
			}
			for {
				k, v, more := z.TagAttr()
				if string(k) == "href" {
					if ref, err := url.Parse(string(v)); err == nil {
						abs := b.ResolveReference(ref)
						if abs.Scheme == "http" || abs.Scheme == "https" {
							out = append(out, abs.String())
						}
					}
				}
				if !more {
					break
				}
			}
		}
	}
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
