// Package undust keeps one crawl's de-duplication state and makes its decisions: a crawler asks
// it before each fetch whether to fetch a URL, and tells it after each fetch what came back.
// It is the loop of Koppula et al., "Learning URL patterns for webpage de-duplication" (WSDM
// 2010), run inside the crawl: content fingerprints of the pages fetched so far group URLs into
// dup clusters, rewrite rules are learned from them as the crawl goes (package learn's Online),
// and the rules key the next URLs, so that the crawler stops fetching a page through each of its
// many URLs once it has seen a few.
//
//	c := undust.New(undust.Options{})
//	d := c.Before(link)             // before fetching: Fetch, Verify or Skip (a duplicate of d.Of)
//	if d.Action == undust.Skip { ... }
//	resp := fetch(link)
//	p := c.After(undust.Response{URL: link, Status: resp.StatusCode, Header: resp.Header, Body: body})
//	if p.Duplicate { ... }          // neither keep nor follow: the page of p.Of
//
// # Before a fetch
//
// Before keys the URL: urlnorm's Crawler key (session ids and tracking parameters of the known
// kinds dropped, the query sorted, default ports and fragments gone), rewritten by the rules
// learned so far for its site. A key that no earlier URL holds is looked up under the URL's
// alternative keys too (learn.Online.Alternatives: its key without each rule that made it, where
// other rules still rewrite it), since two rules that each hold may send one page's URLs to two
// keys; one held by a URL fetched is a match like any other, and a URL skipped so holds its own
// key for that page, so that the page's other URLs of that key are matched to it too (checked
// against it, never compared with another page as if it had been fetched). A key that no
// earlier URL holds under either is new: the URL holds it and is fetched. A key held by
// another URL is a duplicate of that URL's page and is skipped, except for
// the uses of a rule that the learner wants checked (learn.Online.Verify: a rule's first uses, its
// first use in each context, and then a sample): then the URL is fetched to verify the rule, and
// After compares its page with the holder's and retracts a rule that merged two pages. A URL
// skipped as a duplicate of a page while a check against that page is under way (a listing's
// links, found together, the second of which is the check) waits for its outcome: if the check
// finds another page, After names it in Page.Retry, so that it is asked about again under the
// rules without the one retracted; so it does when the check compared nothing (its fetch failed,
// or gave no page), and the rule's next use is checked in its place. The keys
// of the URLs fetched so far are made again whenever a site's rules change, so that a rule learned
// late still catches links to pages fetched early, and a retracted rule stops skipping at once.
// When new keys make two URLs fetched before one key, their pages are compared: a check of the
// rules that made it, without a fetch (Stats.Compared), which retracts a rule that merged two
// pages and spares the fetch of the rule's next use; and a URL fetched before is answered Skip
// whatever its key has become.
// A crawler may call Before when it finds a link (to keep duplicates out of its queue) and again
// when the URL comes up for fetching (when the rules may have changed): a URL that holds its key
// and is not fetched yet is answered Fetch again; a URL answered Verify is answered Skip instead
// when the checks made since answered its check (learn.Online.Recheck, Stats.Lapsed). A crawler
// that can tell when a URL comes up asks BeforeSend then: a URL whose key is held by a URL found
// earlier but still queued takes the key, so that a page is fetched through whichever of its URLs
// comes up first, as a crawler without undust would fetch it. A duplicate of a page not fetched
// yet, or one met while a check against its page is under way, is answered Skip with
// Decision.Retry: the crawler may keep it queued and ask again when it comes up, or, about to send
// it, wait for the fetch that Decision.Await names and ask again.
// A check that is never made (its fetch failed, its answer came before that of the kept URL's
// fetch under way, the rules no longer make the match) does not count: the rule's next use is
// checked in its place (learn.Online.Unchecked). A check that comes up while the kept URL is still
// queued takes the key instead, as any duplicate that comes up first does.
//
// # After a fetch
//
// After takes the URL, its status, headers and body. A failed fetch (an error, a 5xx or 429
// status, a body cut short) gives its key back, so that another URL of the same page is fetched
// in its place: Page.Retry names the URLs skipped as its duplicates meanwhile or, when there are
// none, the failed URL itself, the first time it fails. A page (status 200) gets a page identity: its main text as two extractions give
// it, by the page's own markup (htmltext.Extract with MainContent) and without the blocks that
// the template of its host repeats (htmltext.Site, learned from the pages the crawl keeps as
// they arrive, which also folds per-page chrome such as a page's id or date in a heading), less
// the paragraphs that are nothing but an id of the page's own URL (a repository browser's bar
// with the id of the blob served under ?h=<id>, which the same blob seen from a commit shows
// the commit's links in place of), and of each text its digest and 64-bit SimHash over word 5-shingles. A page whose text has the
// digest of a kept page's text duplicates that page: the crawler should neither keep it nor
// follow its links. When the template's text takes part in the match, the two pages' own texts
// must also be within 13 bits of SimHash (a cosine similarity of about 0.8): the template also
// drops blocks that are no chrome (the entries of a listing, repeated on other listings), and
// what it leaves of two pages of one listing can be the same heading. Two kept pages that a
// later page matches both (its own text one, its template text the other: a print view and its
// page kept before the template knew the print link) are one page from then on, of the first
// id, for the learner too (learn.Online.Join), which then learns one target for the URLs of
// both. Near duplicates (Options.NearK) are off by default: two revisions of a page
// are near duplicates and distinct pages. Every page's id is evidence for the learner.
//
// A page kept while its host's template was still learning the page's kind (the pages of its
// skeleton, see htmltext.Site.ExtractSettled) is young: its template text may keep per-page
// chrome that the template learns to drop later (the id of the object a repository browser
// shows, in a bar above the file), so a copy of it met later, identified without that chrome,
// has other digests. A Crawl keeps a copy of the body of each young page, the oldest dropped
// past 8 MB, and when a verification finds another page than the young page's id, it identifies
// the young page again under the template as it stands, recording its new digests (the two are
// one page if they match then). Without that, the first pages of each kind would retract the
// correct rules that name their later copies duplicates; a wrong rule's copies still differ.
// A young page is not identified again otherwise: under a template that has learned repeated
// entries of listings as chrome, pages of one listing would become one.
//
// What a site declares is evidence too, as search engines treat it: a redirect (a response whose
// final URL differs from the URL asked for, or a 3xx status with a Location the client did not
// follow), a <link rel="canonical"> in the page and an HTTP Link header with rel="canonical" say
// that two URLs are one page. A redirect is a fact of the fetch; a canonical declaration is a
// claim, trusted as a learned rule is: the declared URL's key is held by the declaring page, so
// a link to it is skipped, its first uses on a site and a sample after that are verified by
// fetching, and one mismatch withdraws the site's declarations (sites declare wrong canonicals,
// such as every page of a listing naming page 1).
//
// # State, memory and saving
//
// A Crawl holds the keys it has let through and the URLs that hold them, the pages it kept,
// each host's learned template (htmltext.Site) and the online learner's evidence. WriteTo saves
// all of it and ReadFrom loads it into a new Crawl, so that a crawl that stops and restarts makes
// the decisions it would have made without stopping.
//
// What each costs, and what bounds it:
//
//   - A URL that holds a key: a 16-byte slot in an open-addressing table of keys, kept at most
//     three quarters full (the low 32 bits of the key's 64-bit hash, the holder, the URL's hash
//     and state), a 24-byte holder (the key's hash, its page, where its URL is), and the URL
//     past its scheme and host (those are kept once per host) with a length byte: about 90
//     bytes for URLs of 60 to 70 characters, where a Go map[string]struct{} of the URL strings,
//     the visited set of a crawler without undust, takes 120. Options.MaxURLs bounds them.
//     A URL fetched whose key new rules gave to another URL fetched before costs an entry of a
//     Go map from its hash to its holder besides (about 40 bytes), so that it is not fetched
//     again.
//   - A page kept: its digests (one or two, in a Go map), its SimHashes (one or two, in a
//     near-duplicate index of about 50 bytes a SimHash) and 20 bytes: about 115 bytes.
//     Options.MaxPages bounds them.
//   - A host's template: about 16 bytes for each distinct block of each page it samples, a
//     page being sampled in up to 4 groups of at most SamplePages pages (Options.Templates):
//     about 240 KB a host on the Debian manuals of the near-duplicate corpus, 50 KB for a host
//     of 50 short synthetic pages. Options.MaxTemplates bounds the hosts that keep one.
//   - A duplicate skipped while its page's URL is not fetched yet (Decision.Retry): its URL
//     string, in the list of that URL (until After reports it), and a Go map entry from its
//     hash (about 40 bytes) until it is asked about again. A URL is added to a list at most
//     once for each time it is asked about, so these grow with the URLs given to Before, and
//     no faster.
//   - A duplicate skipped while a check against its page is under way: its URL string, in
//     the list of that check (until After reports the check's fetch, or it lapses), once for
//     each time it is asked about.
//   - The young pages' bodies: at most 8 MB, the oldest dropped first.
//   - The learner's evidence (learn.Online): about 250 bytes and the URL string for each URL
//     of a page it observed, at most learn.OnlineOptions.MaxURLs a site, and about 10 KB for
//     each site it relearned.
//
// TestScale measures them on a synthetic crawl (UNDUST_SCALE=URLS; see the README for the
// figures at 10 million URLs).
//
// Keys and URLs are compared by their 64-bit hashes (xxhash), as pages are by their digests: two
// URLs whose keys' hashes collide are taken for one page, a chance of about 3 in a million that
// any two of 10 million keys do.
//
// # Why a package of its own
//
// The crawl loop is the same for every crawler: colly's request callbacks, katana's filter and
// a hand-written frontier differ in where they can ask, not in what they should be told. So the
// dedup state and decisions live here once, with the core module's dependencies only, and the
// adapters (crawlers/colly, crawlers/katana) are thin layers that call Before and After at the
// right places. It is the module's root package because it is what a crawler author imports
// first; the packages it composes (urlnorm, learn, rules, htmltext, shingle, simhash) stay usable
// on their own.
package undust
