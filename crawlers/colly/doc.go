// Package undustcolly attaches undust to a colly crawler (github.com/gocolly/colly/v2), so that
// the crawler fetches each page of a site once rather than once for every URL the site gives it.
//
//	c := colly.NewCollector()
//	u, err := undustcolly.Attach(c, undustcolly.Options{})
//	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
//	c.Visit("https://www.example.com/")
//
// Colly remembers the URLs it visited as a 64-bit hash of each URL as it serializes it: two
// URLs of one page that differ by a session id, a tracking parameter, the order of the query,
// an alias host or a print view are two visits, and its storage, which sees only the hash,
// cannot tell. So undust decides for each request itself, when it is about to be sent. The
// decisions and the dedup state are those of package undust (an undust.Crawl); this package
// only calls it from three callbacks, in colly's extension style:
//
//   - OnRequest asks undust.Crawl.Before when colly takes a request (an asynchronous collector
//     takes it when Visit is called, long before it is sent), and OnRequestHeaders asks
//     undust.Crawl.BeforeSend when the request is about to be sent, once colly's LimitRule
//     lets it go: rules learned while it waited may make it a duplicate. A request whose key
//     another request holds is aborted (colly's Request.Abort), unless undust wants it fetched
//     to verify a learned rule or a site's canonical declaration. A duplicate of a page whose
//     fetch is not done yet is aborted only when it comes up: if that fetch has failed by then,
//     it is fetched in its place, where it stands in colly's queue (it takes the page's key when
//     the fetch fails, before the page's URLs met later, which stand behind it); if the request
//     holding the key is still queued, the duplicate takes the key and is fetched, and that
//     request is the duplicate when it comes up. In an asynchronous collector,
//     a duplicate that comes up while that fetch is being sent (past its own OnRequestHeaders)
//     awaits its outcome, holding the LimitRule slot it has, and is then fetched or aborted;
//     a synchronous collector may run both in one goroutine, so there it is aborted at once.
//     So does a duplicate that comes up while a check of the rule that made it one is being
//     sent (undust.Decision.Await names the fetch): if the check finds another page, the rule
//     is retracted and the duplicate asked again, and fetched.
//
//   - OnResponse gives the response to undust.Crawl.After. A page that duplicates one kept
//     before has its Response.Body emptied and its Content-Type removed, so OnHTML and OnXML
//     callbacks neither keep it nor follow its links, and its Headers get DuplicateHeader
//     naming the URL of the page it duplicates. A check that found another page gives back
//     the duplicates aborted while it was under way (undust.Page.Retry): they are sent again,
//     as after a failure (below).
//
//   - OnError gives the failure to After too: a request that failed (no response, 5xx, 429)
//     gives its key back, and requests aborted as its duplicates while it was under way are
//     sent again (colly's Request.Retry, past colly's own visited-URL check), or the failed
//     request itself the first time it fails when there are none. A request sent again waits
//     behind every request colly has queued (those waiting for its LimitRule, in turn), so it
//     takes no key until it comes up: the page's other URLs met meanwhile are fetched in its
//     place. A 404 or another answer keeps its key: the other URLs of the page would get the
//     same answer.
//
//   - The collector's redirect handler (Collector.SetRedirectHandler) asks BeforeSend about
//     each redirect's target: a target that another request fetched is not fetched again, and
//     the redirect is the answer (a URL that redirects to a known page is a duplicate of it);
//     a target whose page's fetch is being sent awaits its outcome, as a request does.
//     Attach takes colly's one redirect handler: a crawler that needs its own sets it after
//     Attach and calls Undust.Redirect first.
//
// Callbacks run in the order they were registered, so attach undust before registering the
// crawler's own callbacks: then the crawler's OnResponse callbacks see a duplicate's
// empty body and DuplicateHeader. Colly counts an aborted request towards
// Collector.MaxRequests, as it does every request that reaches OnRequest.
//
// The package is named undustcolly, not colly, so that a program imports it next to colly
// without renaming either.
package undustcolly
