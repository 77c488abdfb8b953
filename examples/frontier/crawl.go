package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/urlnorm"
)

// loopback routes every request, whatever its host and scheme, to the simulated site's server
// on loopback, keeping the Host header and passing the scheme in X-Forwarded-Proto. So the
// crawler sees many hosts and both schemes while nothing leaves the machine.
type loopback struct {
	addr string
	rt   http.RoundTripper
}

func newLoopback(addr string) *loopback {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &loopback{addr: addr, rt: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 4,
	}}
}

func (l *loopback) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Host = req.URL.Host
	r.Header.Set("X-Forwarded-Proto", req.URL.Scheme)
	r.URL.Scheme = "http"
	return l.rt.RoundTrip(r)
}

// httpClient returns a client that reaches the simulated site at addr for every host and does
// not follow redirects (a crawler enqueues redirect targets like links).
func httpClient(addr string) *http.Client {
	return &http.Client{
		Transport:     newLoopback(addr),
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
	avoided    int // links not enqueued because their key was already seen
	keyErrors  int // links whose key could not be made (skipped)
	verified   int // fetches made to verify a rule
	mismatches int // of them, those that found another page than the rule said
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
	c.progress.done()
	return nil
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

func inSite(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := p.Hostname()
	return h == siteDomain || strings.HasSuffix(h, "."+siteDomain)
}

// progress draws a bar on stderr while a crawl runs: redrawn in place on a terminal, a line
// every quarter otherwise.
type progress struct {
	name  string
	max   int
	tty   bool
	last  int
	quiet bool
}

func newProgress(name string, max int, quiet bool) *progress {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	return &progress{name: name, max: max, tty: tty, quiet: quiet}
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
		fmt.Fprintf(os.Stderr, "\r%-7s [%s%s] %5d fetched, %5d queued", p.name,
			strings.Repeat("#", fill), strings.Repeat(".", width-fill), n, queued)
		return
	}
	if q := 4 * n / max(p.max, 1); q > p.last {
		p.last = q
		fmt.Fprintf(os.Stderr, "%s: %d fetched, %d queued\n", p.name, n, queued)
	}
}

func (p *progress) done() {
	if p != nil && !p.quiet && p.tty {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
}
