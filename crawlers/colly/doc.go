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
// cannot tell. So undust keys each request itself, before it is fetched. Attach adds three
// callbacks, in colly's extension style:
//
//   - OnRequest keys the URL: urlnorm's Crawler key (session ids and tracking parameters of
//     the known kinds dropped, the query sorted) rewritten by the rules learned so far for its
//     site (learn.Online). If another request already holds the key, the request is aborted
//     (colly's Request.Abort), unless the learner asks to verify this use of a rule; then it
//     is fetched and its page compared with the other's (learn.Online.Verify, Confirm).
//   - OnResponse fingerprints the page's main text (package htmltext, then an exact digest
//     and a 64-bit SimHash of its word 5-shingles, Manku, Jain and Das Sarma, WWW 2007;
//     optionally MinHash with LSH, Broder 1997). A page whose digest was seen, or whose
//     SimHash is within Options.NearK bits of a kept page's, is a near-duplicate: its
//     Response.Body is emptied and its Content-Type removed, so OnHTML and OnXML callbacks
//     neither keep it nor follow its links, and its Headers get DuplicateHeader naming the
//     URL of the page it duplicates. Every page's content id (that of the first page it
//     matched, or a new one) is evidence for the online learner, which relearns a site's
//     rules as its evidence grows.
//   - OnError forgets a request that failed, so that another URL with its key may be fetched.
//
// The learner learns from the crawl itself, the loop of Koppula et al. (WSDM 2010) made
// online: on a site it has not met, the first requests are keyed by the static key alone; as
// pages come in, URLs that served the same content form dup clusters, rules are learned from
// them, and the rules key the next requests. Verification fetches and retraction keep a wrong
// rule from losing pages.
//
// Callbacks run in the order they were registered, so attach undust before registering the
// crawler's own callbacks: then the crawler's OnResponse callbacks see a near-duplicate's
// empty body and DuplicateHeader. Colly counts an aborted request towards
// Collector.MaxRequests, as it does every request that reaches OnRequest.
//
// The package is named undustcolly, not colly, so that a program imports it next to colly
// without renaming either.
package undustcolly
