// Package undustkatana is a crawling engine for katana (github.com/projectdiscovery/katana)
// with undust deciding for each request: a drop-in for katana's standard engine
// (pkg/engine/standard) that fetches each page of a site once rather than once for every URL the
// site gives it, and learns the site's URL rewrite rules while it crawls.
//
//	co, err := types.NewCrawlerOptions(options)
//	...
//	defer co.Close()
//	crawler, err := undustkatana.New(co, undustkatana.Options{}) // instead of standard.New(co)
//	...
//	err = crawler.Crawl(seed)
//
// Katana's default filter (filters.Simple) calls a URL new when its exact string was not seen
// before, and a response new when the MD5 of its raw body was not seen before. On a site that
// serves each page under many URLs (session ids, tracking parameters, aliases, print views),
// every variant is fetched, and since a page's links and template differ from copy to copy,
// most copies have new bodies too and their links are followed. Katana's -fsu option (a
// structural URL fingerprint: numeric, hex and date path segments, path positions with many
// values and all query values collapsed) fetches far less, but calls different pages one URL
// (page 2 of a list is page 1; story 1007 is story 1014) and never fetches them.
//
// The dedup state and decisions are those of package undust (an undust.Crawl). Katana asks its
// unique filter about a link when it queues it, and in a breadth-first crawl a whole level is
// queued before any of its pages has taught undust anything: a filter alone decides too early.
// So the Crawler is an engine: it runs katana's own crawl loop (common.Shared.Do, with katana's
// queue, scope, concurrency, rate limit and output) with a request function of its own, which
// asks undust.Crawl.BeforeSend when a request is about to be sent, under the rules learned by
// then, and gives the response, with its URL, status, headers and body, to undust.Crawl.After.
// It also installs a unique filter that asks Before when a link is queued, which keeps known
// duplicates out of the queue.
//
//   - Katana's queue is a stack by default (depth first), so a page's duplicate often comes up
//     before the page's own URL, still queued: it takes the page's key and is fetched as the
//     page, and that URL is skipped when it comes up (see BeforeSend). Asked with Before, it
//     would be skipped to wait for that URL, or, as a check of a learned rule, fetched to be
//     compared with a page not fetched yet, and then that page fetched as well.
//   - A request that BeforeSend skips is not sent, and no result is written for it; a redirect
//     whose target Before skips is not followed, and the redirect is the answer, unless the
//     target's key is held by the request redirected to it (a redirect that drops a tracking
//     parameter): that is the request's page.
//   - A page that duplicates one kept before is handled as katana's standard engine handles a
//     body its filter has seen: its result is written without a response and its links are not
//     followed.
//   - A request that fails (no response, 5xx, 429) gives its key back, and the links that the
//     filter dropped as its duplicates while it was under way are queued again.
//
// Katana's -fsu (FilterSimilar) and -iqp (IgnoreQueryParams) options make katana give the
// unique filter a rewritten URL instead of the URL it fetches, and -duf (DisableUniqueFilter)
// turns de-duplication off, so New rejects them, as it rejects the headless engine.
//
// The filter's IsCycle keeps katana's length limit and looks for a path segment repeated as
// often as katana's default looks for a repeated substring, in linear rather than quadratic
// time.
package undustkatana
