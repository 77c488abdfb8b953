package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/projectdiscovery/gologger"
	"github.com/projectdiscovery/gologger/levels"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"

	"github.com/undust/undust"
)

// crawlers are the crawlers the command knows, in the order of the table.
var crawlers = []string{"colly", "colly+undust", "katana", "katana-fsu", "katana+undust"}

// A target is what every crawler is given: where to start, what it may fetch, and how.
type target struct {
	seed        string
	scope       scope
	concurrency int
	timeout     time.Duration  // per request
	proxy       string         // the proxy's URL
	undust      undust.Options // the options of the crawlers with undust (-off)
}

// runCrawler crawls t with the named crawler until its frontier is empty or stop is closed
// (the proxy's budget is spent), and returns what undust learned.
func runCrawler(name string, t target, stop <-chan struct{}) (learned, error) {
	switch name {
	case "colly", "colly+undust":
		return crawlColly(t, stop, name == "colly+undust")
	case "katana", "katana-fsu", "katana+undust":
		return crawlKatana(t, name == "katana-fsu", name == "katana+undust")
	}
	return none(), fmt.Errorf("unknown crawler %q", name)
}

// crawlColly crawls with colly v2, asynchronously with t.concurrency requests at a time,
// following every a[href] in scope; with undust attached first. colly keeps its own visited set
// of exact URLs. It stops when stop is closed: the collector's context is cancelled, so that the
// requests still queued fail at once.
func crawlColly(t target, stop <-chan struct{}, withUndust bool) (learned, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := colly.NewCollector(colly.Async(true), colly.StdlibContext(ctx))
	pu, err := url.Parse(t.proxy)
	if err != nil {
		return none(), err
	}
	c.WithTransport(&http.Transport{
		Proxy:               http.ProxyURL(pu),
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, // the proxy's own certificates
		MaxIdleConnsPerHost: t.concurrency,
	})
	c.SetRequestTimeout(t.timeout)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: t.concurrency}); err != nil {
		return none(), err
	}
	learnt := none
	if withUndust {
		if learnt, err = attachColly(c, t.undust); err != nil {
			return none(), err
		}
	}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if u := e.Request.AbsoluteURL(e.Attr("href")); t.scope.in(u) {
			e.Request.Visit(u)
		}
	})
	done := make(chan struct{})
	go func() {
		select {
		case <-stop:
			cancel()
		case <-done:
		}
	}()
	err = c.Visit(t.seed)
	c.Wait()
	close(done)
	if err != nil {
		return none(), fmt.Errorf("colly: %w", err)
	}
	return learnt(), nil
}

func init() {
	gologger.DefaultLogger.SetMaxLevel(levels.LevelSilent)
}

// crawlKatana crawls with katana's standard engine, breadth first, t.concurrency requests at a
// time, with katana's defaults otherwise (its unique filter, extension filter, one retry),
// except: no depth limit (the budget ends the crawl), the scope is t.scope, and no rate limit,
// as colly has none. similar turns on FilterSimilar (-fsu); withUndust attaches undust's
// filter. The engine has no way to be stopped from outside: once the budget is spent, the
// proxy refuses every request at once, so the queue drains quickly, and the engine stops after
// waiting t.timeout on an empty queue.
func crawlKatana(t target, similar, withUndust bool) (learned, error) {
	opts := &types.Options{
		MaxDepth:      1 << 20,
		FieldScope:    "fqdn",
		Scope:         []string{"^" + regexp.QuoteMeta(t.scope.prefix)},
		BodyReadSize:  4 << 20, // katana's default -mrs
		Timeout:       max(1, int(t.timeout/time.Second)),
		Retries:       1,
		Concurrency:   t.concurrency,
		Parallelism:   1,
		RateLimit:     1 << 20,
		Strategy:      "breadth-first",
		Proxy:         t.proxy,
		Silent:        true,
		NoColors:      true,
		FilterSimilar: similar,
	}
	co, err := types.NewCrawlerOptions(opts)
	if err != nil {
		return none(), fmt.Errorf("katana: %w", err)
	}
	co.OutputWriter.Close()
	co.OutputWriter = discard{}
	defer co.Close()
	crawler, learnt, err := newKatana(co, withUndust, t.undust)
	if err != nil {
		return none(), fmt.Errorf("katana: %w", err)
	}
	defer crawler.Close()
	if err := crawler.Crawl(t.seed); err != nil {
		return none(), fmt.Errorf("katana: %w", err)
	}
	return learnt(), nil
}

// discard is katana's output writer: the proxy records what the crawl fetched.
type discard struct{}

func (discard) Close() error                 { return nil }
func (discard) Write(*output.Result) error   { return nil }
func (discard) WriteErr(*output.Error) error { return nil }
