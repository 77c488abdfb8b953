package undustkatana

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/PuerkitoBio/goquery"
	"github.com/projectdiscovery/katana/pkg/engine/common"
	"github.com/projectdiscovery/katana/pkg/navigation"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"
	"github.com/projectdiscovery/katana/pkg/utils"
	"github.com/projectdiscovery/katana/pkg/utils/filters"
	"github.com/projectdiscovery/retryablehttp-go"

	"github.com/undust/undust"
)

// Options configure New. The zero value means the defaults of package undust.
type Options struct {
	// Options are the options of the undust.Crawl that New makes when Crawl is nil.
	undust.Options
	// Crawl, if set, is the dedup state to use: give one loaded from a saved crawl
	// (undust.Crawl.ReadFrom) to resume it.
	Crawl *undust.Crawl
}

// Errors of New: options under which katana would not show undust the crawl's URLs and
// bodies.
var (
	ErrHeadless       = errors.New("undustkatana: the headless engine is not supported (Options.Headless)")
	ErrFilterSimilar  = errors.New("undustkatana: FilterSimilar (-fsu) passes a URL fingerprint, not the URL, to the unique filter")
	ErrIgnoreQuery    = errors.New("undustkatana: IgnoreQueryParams (-iqp) passes the URL without query values to the unique filter")
	ErrNoUniqueFilter = errors.New("undustkatana: DisableUniqueFilter (-duf) turns de-duplication off")
)

// A Crawler is a katana crawling engine, as katana's standard engine (pkg/engine/standard) is,
// with undust deciding for each request: see the package documentation. Make one with New; the
// zero value is not usable. Crawl may run for several seeds at once, as katana's engines allow.
type Crawler struct {
	*common.Shared
	co    *types.CrawlerOptions
	crawl *undust.Crawl
	out   *writer
}

// New makes a Crawler for the crawler options co (from types.NewCrawlerOptions): it replaces
// co's unique filter (closing katana's default one) and wraps co's output writer, then builds
// katana's shared engine state on them. Options under which katana would not show undust the
// crawl's URLs are an error (ErrHeadless, ErrFilterSimilar, ErrIgnoreQuery, ErrNoUniqueFilter), as
// are undust options out of range. co.Close closes what New installed.
func New(co *types.CrawlerOptions, o Options) (*Crawler, error) {
	switch {
	case co == nil || co.Options == nil:
		return nil, errors.New("undustkatana: nil crawler options")
	case co.OutputWriter == nil:
		return nil, errors.New("undustkatana: crawler options without an OutputWriter")
	case co.Options.Headless:
		return nil, ErrHeadless
	case co.Options.FilterSimilar:
		return nil, ErrFilterSimilar
	case co.Options.IgnoreQueryParams:
		return nil, ErrIgnoreQuery
	case co.Options.DisableUniqueFilter:
		return nil, ErrNoUniqueFilter
	}
	crawl := o.Crawl
	if crawl == nil {
		var err error
		if crawl, err = undust.New(o.Options); err != nil {
			return nil, fmt.Errorf("undustkatana: %w", err)
		}
	}
	if co.UniqueFilter != nil {
		co.UniqueFilter.Close()
	}
	co.UniqueFilter = &filter{crawl: crawl}
	w := &writer{Writer: co.OutputWriter}
	co.OutputWriter = w
	shared, err := common.NewShared(co)
	if err != nil {
		return nil, fmt.Errorf("undustkatana: %w", err)
	}
	return &Crawler{Shared: shared, co: co, crawl: crawl, out: w}, nil
}

// Crawl crawls from rootURL until katana's queue is empty or its crawl duration is over, as
// the standard engine's Crawl does.
func (c *Crawler) Crawl(rootURL string) error {
	s, err := c.NewCrawlSessionWithURL(rootURL)
	if err != nil {
		return fmt.Errorf("undustkatana: %w", err)
	}
	defer s.CancelFunc()
	// Katana's client follows redirects; a target whose page is known is not fetched again.
	for _, hc := range []*http.Client{s.HttpClient.HTTPClient, s.HttpClient.HTTPClient2} {
		if hc == nil {
			continue
		}
		follow := hc.CheckRedirect
		hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			// A target whose key the request redirected to it holds (a redirect that drops a
			// tracking parameter) is that request's page: followed.
			d := c.crawl.Before(req.URL.String())
			if d.Action == undust.Skip && !slices.ContainsFunc(via, func(r *http.Request) bool { return r.URL.String() == d.Of }) {
				return http.ErrUseLastResponse
			}
			if follow != nil {
				return follow(req, via)
			}
			return nil
		}
	}
	if err := c.Do(s, c.request); err != nil {
		return fmt.Errorf("undustkatana: %w", err)
	}
	return nil
}

// Close releases nothing of its own; co.Close closes the filter and the writer. It is there so
// that a Crawler is a katana engine.
func (c *Crawler) Close() error { return nil }

// Undust returns the dedup state: its statistics, its learner's rules, and WriteTo to save it.
func (c *Crawler) Undust() *undust.Crawl { return c.crawl }

// Stats returns what the crawl has done so far: c.Undust().Stats().
func (c *Crawler) Stats() undust.Stats { return c.crawl.Stats() }

// request is the Crawler's katana DoRequestFunc: BeforeSend, the request, After.
func (c *Crawler) request(s *common.CrawlSession, req *navigation.Request) (*navigation.Response, error) {
	resp := &navigation.Response{Depth: req.Depth + 1, RootHostname: s.Hostname}
	key := req.RequestURL()
	if d := c.crawl.BeforeSend(key); d.Action == undust.Skip {
		c.out.skip(req)
		return resp, nil // no Resp: katana follows no link
	}
	httpResp, body, err := c.fetch(s, req)
	r := undust.Response{URL: key, Err: err}
	if httpResp != nil {
		r.Status, r.Header, r.Body = httpResp.StatusCode, httpResp.Header, body
		if httpResp.Request != nil && httpResp.Request.URL != nil && key == req.URL {
			r.FinalURL = httpResp.Request.URL.String()
		}
	}
	p := c.crawl.After(r)
	for _, u := range p.Retry {
		s.Queue.Push(&navigation.Request{Method: http.MethodGet, URL: u, Depth: req.Depth,
			RootHostname: req.RootHostname, Source: req.Source, Tag: req.Tag, Attribute: req.Attribute}, req.Depth)
	}
	if p.Duplicate {
		return &navigation.Response{}, nil // what katana's standard engine returns for a duplicate body
	}
	if err != nil {
		return resp, err
	}
	if httpResp.StatusCode == http.StatusSwitchingProtocols {
		return resp, nil
	}
	if c.co.Wappalyzer != nil {
		for t := range c.co.Wappalyzer.Fingerprint(httpResp.Header, body) {
			resp.Technologies = append(resp.Technologies, t)
		}
	}
	resp.KnowledgeBase = c.co.ClassifyPage(string(body))
	httpResp.Body = io.NopCloser(strings.NewReader(string(body)))
	httpResp.ContentLength = int64(len(body))
	resp.Body = string(body)
	resp.Resp = httpResp
	resp.StatusCode = httpResp.StatusCode
	resp.Headers = utils.FlattenHeaders(httpResp.Header)
	resp.ContentLength = httpResp.ContentLength
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(resp.Body))
	if err != nil {
		return resp, fmt.Errorf("undustkatana: parsing %s: %w", req.URL, err)
	}
	resp.Reader = doc
	resp.Reader.Url, _ = url.Parse(req.URL)
	if c.co.Options.FormExtraction {
		resp.Forms = append(resp.Forms, utils.ParseFormFields(resp.Reader)...)
	}
	return resp, nil
}

// fetch sends req with the session's client, with katana's headers and cookies, and reads at
// most Options.BodyReadSize bytes of the body. A body that cannot be read whole is an error.
func (c *Crawler) fetch(s *common.CrawlSession, req *navigation.Request) (*http.Response, []byte, error) {
	ctx := context.WithValue(s.Ctx, navigation.Depth{}, req.Depth)
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	var reqBody io.Reader
	if req.Body != "" && method != http.MethodGet {
		reqBody = strings.NewReader(req.Body)
	}
	httpReq, err := http.NewRequestWithContext(ctx, method, req.URL, reqBody)
	if err != nil {
		return nil, nil, err
	}
	rr, err := retryablehttp.FromRequest(httpReq)
	if err != nil {
		return nil, nil, err
	}
	rr.Header.Set("User-Agent", utils.WebUserAgent())
	for _, hs := range []map[string]string{req.Headers, c.Headers} {
		for k, v := range hs {
			rr.Header.Set(k, v)
			if k == "Host" {
				rr.Host = v
			}
		}
	}
	if c.Jar != nil {
		for _, ck := range c.Jar.Cookies(rr.Request.URL) {
			rr.AddCookie(ck)
		}
	}
	resp, err := s.HttpClient.Do(rr)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if c.Jar != nil {
		c.Jar.SetCookies(rr.Request.URL, resp.Cookies())
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.co.Options.BodyReadSize)))
	if err != nil {
		return resp, nil, err
	}
	return resp, body, nil
}

// filter is the unique filter a Crawler installs: a link is queued only if it was not queued
// before and Before does not skip it. Katana gives it navigation.Request.RequestURL, the URL of
// a GET and "URL:body" of a POST; the Crawler asks Before and tells After with the same string.
//
// Before answers Fetch to a URL that holds its key and is not fetched yet, as it must to the
// second question about one request; so the filter remembers the URLs it let through (by a
// 64-bit hash, as katana's own filter remembers them), or a link found on two pages before its
// first copy is fetched would be queued, and fetched, twice.
type filter struct {
	crawl *undust.Crawl

	mu     sync.Mutex
	queued map[uint64]struct{}
}

var _ filters.Filter = (*filter)(nil)

// queueSeed hashes the URLs the filter let through.
var queueSeed = maphash.MakeSeed()

func (f *filter) UniqueURL(u string) bool {
	h := maphash.String(queueSeed, u)
	f.mu.Lock()
	_, seen := f.queued[h]
	f.mu.Unlock()
	if seen || f.crawl.Before(u).Action == undust.Skip {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, seen := f.queued[h]; seen {
		return false // queued meanwhile
	}
	if f.queued == nil {
		f.queued = map[uint64]struct{}{}
	}
	f.queued[h] = struct{}{}
	return true
}

// UniqueContent is not called: the Crawler tells undust of bodies itself, with their URLs.
func (f *filter) UniqueContent([]byte) bool { return true }

// IsCycle reports whether u looks like a crawler trap: longer than filters.MaxChromeURLLength
// (katana's limit), or with one path segment filters.MaxSequenceCount times or more
// (/a/b/a/b/a/b/..., the path that relative links to a page that serves every path make).
// Katana's default looks instead for any substring of more than filters.MinSequenceLength
// bytes repeated that often, in time quadratic in the URL's length; this test is linear.
func (f *filter) IsCycle(u string) bool {
	if len(u) > filters.MaxChromeURLLength {
		return true
	}
	path := u
	if i := strings.Index(path, "://"); i >= 0 {
		path = path[i+3:]
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	count := map[string]int{}
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "" {
			continue
		}
		count[seg]++
		if count[seg] >= filters.MaxSequenceCount {
			return true
		}
	}
	return false
}

// Close does nothing: the Crawl belongs to the Crawler's user.
func (f *filter) Close() {}

// writer passes katana's results on, except those of requests that undust skipped when they
// came up: katana writes a result for every request it pops from its queue.
type writer struct {
	output.Writer
	skipped sync.Map // *navigation.Request -> struct{}
}

func (w *writer) skip(r *navigation.Request) { w.skipped.Store(r, struct{}{}) }

func (w *writer) Write(r *output.Result) error {
	if r != nil && r.Request != nil {
		if _, ok := w.skipped.LoadAndDelete(r.Request); ok {
			return nil
		}
	}
	return w.Writer.Write(r)
}
