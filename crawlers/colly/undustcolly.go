package undustcolly

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/undust/undust"
)

// DuplicateHeader is the response header that Attach's OnResponse callback sets on a
// duplicate page's colly.Response: its value is the URL of the page it duplicates.
const DuplicateHeader = "Undust-Duplicate-Of"

// Options configure Attach. The zero value means the defaults of package undust.
type Options struct {
	// Options are the options of the undust.Crawl that Attach makes when Crawl is nil.
	undust.Options
	// Crawl, if set, is the dedup state to use: share one between collectors, or give one
	// loaded from a saved crawl (undust.Crawl.ReadFrom) to resume it.
	Crawl *undust.Crawl
}

// Undust is undust attached to one colly.Collector. It is safe for concurrent use: an
// asynchronous collector calls its callbacks from many goroutines. Its zero value is not
// usable; Attach makes one. Besides the undust.Crawl, it keeps the original URL of each request
// under way, the requests being sent (past OnRequestHeaders, their outcome not given to After
// yet), the requests it aborted while the request whose URL they duplicate is under way,
// so that they can be sent if that one fails, the URLs of the duplicates it left in colly's
// queue until they come up, and the URLs it sent again and OnRequest has not seen yet.
type Undust struct {
	crawl *undust.Crawl
	c     *colly.Collector

	mu       sync.Mutex
	inflight map[uint32]string           // request ID -> the URL OnRequest saw
	sending  map[string]flight           // URL being sent -> its request, until After has its outcome
	waiting  map[string][]*colly.Request // URL under way -> requests aborted as its duplicates
	queued   map[string]bool             // URLs of duplicates left pending (in the queue or awaiting an outcome)
	again    map[string]bool             // URLs sent again by retry, before their OnRequest
}

// A flight is a request being sent: done is closed once After has its outcome.
type flight struct {
	id   uint32
	done chan struct{}
}

// maxAwait bounds how long a duplicate that came up waits for the outcome of the fetch it
// duplicates, well beyond colly's default request timeout (10 s): colly gives a fetch whose body
// it cannot convert to UTF-8 neither to OnResponse nor to OnError, and its duplicates are then
// aborted and remembered, as those of a fetch under way but not being sent.
const maxAwait = time.Minute

var errNilCollector = errors.New("undustcolly: nil collector")

// Attach attaches undust to c: it registers an OnRequest, an OnResponse and an OnError
// callback and sets c's redirect handler (see the package documentation) and returns the Undust that holds their state. It
// returns an error, and registers nothing, for a nil collector or options out of range. Attach
// once per collector; a collector made by c.Clone() does not share c's callbacks, so attach
// to it too (with the same Crawl to share the dedup state).
func Attach(c *colly.Collector, o Options) (*Undust, error) {
	if c == nil {
		return nil, errNilCollector
	}
	crawl := o.Crawl
	if crawl == nil {
		var err error
		if crawl, err = undust.New(o.Options); err != nil {
			return nil, fmt.Errorf("undustcolly: %w", err)
		}
	}
	u := &Undust{crawl: crawl, c: c, inflight: map[uint32]string{}, sending: map[string]flight{},
		waiting: map[string][]*colly.Request{}, queued: map[string]bool{}, again: map[string]bool{}}
	c.OnRequest(u.onRequest)
	c.OnRequestHeaders(u.onRequestHeaders)
	c.OnResponse(u.onResponse)
	c.OnError(u.onError)
	c.SetRedirectHandler(u.Redirect)
	return u, nil
}

// Redirect is the collector's redirect handler that Attach sets: it asks BeforeSend about the
// target of a redirect, and a target whose page is known is not fetched again (the redirect's
// own response is then the answer, which colly gives to OnError as any 3xx). A target whose
// page's fetch is being sent awaits its outcome, as a duplicate that comes up does (see
// OnRequestHeaders), and is followed if that fetch failed. Otherwise it follows at most 10
// redirects, as Go's client does. A crawler that sets a redirect handler of its own after Attach
// calls Redirect first and stops when it returns an error.
func (u *Undust) Redirect(req *http.Request, via []*http.Request) error {
	if d := u.send(req.URL.String(), via); d.Action == undust.Skip && !redirectOf(d.Of, via) {
		return http.ErrUseLastResponse
	}
	if len(via) >= 10 {
		return http.ErrUseLastResponse
	}
	return nil
}

// Crawl returns the dedup state: its statistics, its learner's rules, and WriteTo to save it.
func (u *Undust) Crawl() *undust.Crawl { return u.crawl }

// Stats returns what the crawl has done so far: u.Crawl().Stats().
func (u *Undust) Stats() undust.Stats { return u.crawl.Stats() }

// DuplicateOf returns the URL of the page that r's page duplicates, or "" when Attach's
// callback kept r's page or has not seen r.
func DuplicateOf(r *colly.Response) string {
	if r == nil || r.Headers == nil {
		return ""
	}
	return r.Headers.Get(DuplicateHeader)
}

// onRequest asks Before when colly takes the request: an asynchronous collector does so when
// the crawler calls Visit, long before the request is sent, so that a duplicate of a page fetched
// before is dropped from colly's queue at once. A duplicate of a page not fetched yet
// (Decision.Retry) stays in the queue, to be asked again when it comes up: if its page's fetch
// has failed by then, it is fetched in its place, where it stands in the queue. Aborted now, it
// would be sent again (Request.Retry) behind every request queued since, which a crawl that
// stops at a budget may never reach. A request that retry sent again is asked only when it
// comes up, for the same reason.
func (u *Undust) onRequest(r *colly.Request) {
	raw := r.URL.String()
	u.mu.Lock()
	again := u.again[raw]
	delete(u.again, raw)
	u.mu.Unlock()
	queued := false
	if !again {
		d := u.crawl.Before(raw)
		if d.Action == undust.Skip && !d.Retry {
			r.Abort()
			return
		}
		queued = d.Action == undust.Skip
	}
	u.mu.Lock()
	u.inflight[r.ID] = raw
	if queued {
		u.queued[raw] = true
	}
	u.mu.Unlock()
}

// onRequestHeaders asks BeforeSend when the request is about to be sent (colly calls it once
// its LimitRule lets the request go): rules learned while it waited may make it a duplicate. A
// duplicate of a page whose URL is still in colly's queue takes the page's key and is fetched
// now (BeforeSend): that URL, when it comes up, is its duplicate. A duplicate of a page whose
// fetch is being sent (past its own OnRequestHeaders) awaits that fetch's outcome in an
// asynchronous collector, holding the slot it has: if the fetch failed, it is fetched in its
// place; sent again later (Request.Retry), it would wait behind every request queued since. The
// awaited request holds its slot already and needs nothing from this one; a synchronous
// collector may run both in one goroutine (a callback of the one that Visit calls), so there it
// is not awaited. A duplicate of a page whose fetch is being sent and is not done within
// maxAwait is aborted and remembered, to be sent again if that fetch fails (Decision.Retry).
// The same holds for a duplicate whose rule is being checked by a fetch being sent
// (Decision.Await names that fetch): it is asked again once the check is done, and sent if the
// check found another page. A request aborted here while others were aborted as waiting for it
// passes them on to the URL it waits for (the core moved their URLs there), or, when it waits
// for none, drops them: its page, and theirs, is fetched.
//
// Once the collector's context is done (a crawl stopped at a budget), a request that comes up
// is not asked about: colly still calls OnRequestHeaders for every request in its queue, and
// each fails at once, unsent (OnError reports it to After). Asked, the queue's URLs would be
// counted as sent, skipped or checked after the crawl's end, and each URL let through would be
// sent again (Request.Retry) to fail again.
func (u *Undust) onRequestHeaders(r *colly.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	raw, ok := u.inflight[r.ID]
	delete(u.queued, raw)
	if !ok || u.stopped() {
		return
	}
	d := u.sendLocked(raw, nil)
	if d.Action != undust.Skip {
		u.sending[raw] = flight{id: r.ID, done: make(chan struct{})}
		return
	}
	delete(u.inflight, r.ID)
	// The requests aborted while waiting for this one wait for what it waits for now, as
	// BeforeSend moved their URLs there; without Retry its page is fetched, and so is theirs.
	w := u.waiting[raw]
	delete(u.waiting, raw)
	if d.Retry {
		u.waiting[d.Await] = append(append(u.waiting[d.Await], r), w...)
	}
	r.Abort()
}

// send asks BeforeSend about raw, about to be sent, and, in an asynchronous collector, lets a
// duplicate of a page whose fetch is being sent await that fetch's outcome and ask again. A
// redirect's target (via: the requests that led to it) never awaits the fetch it is part of.
func (u *Undust) send(raw string, via []*http.Request) undust.Decision {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sendLocked(raw, via)
}

// sendLocked is send with u.mu held; it unlocks u.mu while it awaits.
func (u *Undust) sendLocked(raw string, via []*http.Request) undust.Decision {
	// Asked under u.mu, so that the fetch it duplicates, if it is being sent, has not given
	// its outcome to After yet or is done with it (finish) when it is looked up.
	d := u.crawl.BeforeSend(raw)
	if f := u.sending[d.Await]; d.Action == undust.Skip && d.Retry && f.done != nil && u.c.Async && !redirectOf(d.Of, via) {
		u.queued[raw] = true // the failure gives it the page's key (onError)
		u.mu.Unlock()
		u.await(f)
		u.mu.Lock()
		delete(u.queued, raw)
		d = u.crawl.BeforeSend(raw)
	}
	return d
}

// redirectOf reports whether of is the URL of one of the requests of via: a redirect's target
// whose key is held by the request redirected to it is that request's page (a redirect that
// drops a tracking parameter), fetched by following it.
func redirectOf(of string, via []*http.Request) bool {
	return slices.ContainsFunc(via, func(r *http.Request) bool { return r.URL.String() == of })
}

// await waits for f's outcome, at most until the collector's context is done or maxAwait.
func (u *Undust) await(f flight) {
	t := time.NewTimer(maxAwait)
	defer t.Stop()
	var ctxDone <-chan struct{}
	if u.c.Context != nil {
		ctxDone = u.c.Context.Done()
	}
	select {
	case <-f.done:
	case <-ctxDone:
	case <-t.C:
	}
}

// finish marks the outcome of request id, of URL raw, given to After: the duplicates that
// await it ask Before again.
func (u *Undust) finish(id uint32, raw string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if f, ok := u.sending[raw]; ok && f.id == id {
		delete(u.sending, raw)
		close(f.done)
	}
}

// retry sends r again, past colly's visited-URL check (Request.Retry), as a request that
// OnRequest lets through unasked: sent again, it waits behind every request queued before it,
// and holding its page's key all that while would make the page's other URLs, met meanwhile,
// its duplicates. It is asked when it comes up.
func (u *Undust) retry(r *colly.Request) {
	u.mu.Lock()
	u.again[r.URL.String()] = true
	u.mu.Unlock()
	// An error means it was not sent; the mark then lets the URL's next request, if any,
	// through OnRequest unasked, which is harmless: it is asked when it comes up.
	_ = r.Retry()
}

// urlOf returns the URL OnRequest saw for r.
func (u *Undust) urlOf(r *colly.Request) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if raw, ok := u.inflight[r.ID]; ok {
		return raw
	}
	return r.URL.String()
}

// done forgets r, of URL raw, and returns the requests aborted as duplicates awaiting its
// outcome. It is called once After has that outcome: a request that BeforeSend told to await r
// is added to the list under u.mu before it is released (see sendLocked), and once After has
// returned, BeforeSend tells no request to await r any more; so the list is complete.
func (u *Undust) done(r *colly.Request, raw string) []*colly.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.inflight, r.ID)
	w := u.waiting[raw]
	delete(u.waiting, raw)
	return w
}

func (u *Undust) onError(r *colly.Response, err error) {
	if r == nil || r.Request == nil {
		return
	}
	if errors.Is(err, colly.ErrAbortedBeforeRequest) {
		// Aborted by onRequestHeaders (Before knows) or by a callback registered after it.
		u.mu.Lock()
		raw, ok := u.inflight[r.Request.ID]
		u.mu.Unlock()
		if ok {
			u.finish(r.Request.ID, raw)
		}
		return
	}
	raw := u.urlOf(r.Request)
	defer u.finish(r.Request.ID, raw)
	resp := undust.Response{URL: raw, FinalURL: r.Request.URL.String(), Status: r.StatusCode}
	var visited *colly.AlreadyVisitedError
	switch {
	case errors.As(err, &visited) && visited.Destination != nil:
		// Colly stopped a redirect to a URL it visited before: the answer is that redirect.
		resp.FinalURL, resp.Status = "", http.StatusFound
		resp.Header = http.Header{"Location": {visited.Destination.String()}}
	case r.StatusCode == 0:
		resp.Err = err // no response at all; otherwise err is colly's text for the status
	}
	if r.Headers != nil && resp.Header == nil {
		resp.Header = *r.Headers
	}
	p := u.crawl.After(resp)
	u.giveBack(p.Retry, r.Request, raw, u.done(r.Request, raw))
}

// giveBack sends again, or asks about again, the URLs that After gave back (Page.Retry) for
// the request r of URL raw: r itself (its page's one URL, after a failure), the requests of
// waiting (aborted as duplicates while r was under way), or URLs still in colly's queue.
func (u *Undust) giveBack(retry []string, r *colly.Request, raw string, waiting []*colly.Request) {
	if u.stopped() {
		return // nothing is sent any more: no URL is sent again or asked
	}
	for _, url := range retry {
		if url == raw {
			// The page's one URL, given back to be fetched again.
			u.retry(r)
			continue
		}
		if u.sendAgain(url, waiting) {
			continue
		}
		u.mu.Lock()
		queued := u.queued[url]
		u.mu.Unlock()
		if queued {
			// Still in colly's queue, where OnRequest left it: asked now, it takes the page's
			// key before the URLs of the page met from now on, which stand behind it.
			u.crawl.Before(url)
		}
	}
}

// stopped reports whether the collector's context is done: requests fail unsent.
func (u *Undust) stopped() bool { return u.c.Context != nil && u.c.Context.Err() != nil }

// sendAgain sends again the request of waiting whose URL is url, if there is one.
func (u *Undust) sendAgain(url string, waiting []*colly.Request) bool {
	for _, w := range waiting {
		if w.URL.String() == url {
			u.retry(w)
			return true
		}
	}
	return false
}

func (u *Undust) onResponse(r *colly.Response) {
	if r.Request == nil {
		return
	}
	raw := u.urlOf(r.Request)
	defer u.finish(r.Request.ID, raw)
	resp := undust.Response{URL: raw, FinalURL: r.Request.URL.String(), Status: r.StatusCode, Body: r.Body}
	if r.Headers != nil {
		resp.Header = *r.Headers
	}
	p := u.crawl.After(resp)
	// A check that found another page gives back the duplicates skipped while it was under
	// way (Page.Retry).
	u.giveBack(p.Retry, r.Request, raw, u.done(r.Request, raw))
	if p.Duplicate {
		r.Body = nil
		if r.Headers == nil {
			h := http.Header{}
			r.Headers = &h
		}
		r.Headers.Del("Content-Type")
		r.Headers.Set(DuplicateHeader, p.Of)
	}
}
