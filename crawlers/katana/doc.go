// Package undustkatana is a deduplication filter for the katana crawler
// (github.com/projectdiscovery/katana) built on undust: it implements katana's filters.Filter,
// the interface behind types.CrawlerOptions.UniqueFilter, and learns the site's URL rewrite
// rules while katana crawls it.
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
// A Filter keys URLs instead by urlnorm's Crawler key rewritten by the rules that package
// learn's Online learner has learned so far from this crawl: before fetching, a URL whose key
// was seen is skipped, except when the learner asks to verify a rule by fetching anyway
// (Online.Verify); a rule found to merge different pages is retracted at once
// (Online.Confirm). After fetching, a body is fingerprinted by its main text (htmltext with
// MainContent): an XXH64 digest for exact duplicates and a 64-bit SimHash of the text's word
// 5-shingles for near duplicates (within Options.NearK bits, Manku, Jain and Das Sarma, WWW
// 2007); a duplicate is reported as not unique, so katana neither outputs it nor follows its
// links. Each fetched URL with its page's id is an observation for the learner (Online.Observe),
// which relearns the site as its evidence grows (Koppula et al., WSDM 2010, made continuous).
//
// # Pairing a body with its URL
//
// Katana's interface does not give UniqueContent the URL of the body it checks, and the
// learner needs both. The standard engine (pkg/engine/standard) fetches each request on a
// goroutine of its own and, on that goroutine, calls UniqueContent with the body and then
// writes the result (the request's URL, and the response unless the body was a duplicate) to
// types.CrawlerOptions.OutputWriter. Attach wraps that writer, and the Filter pairs the body
// and the result written on one goroutine: UniqueContent notes the body's page under the
// calling goroutine's id, and the wrapped writer takes the note of its own goroutine. This
// pairing rests on the engine's calling order, not on katana's API: a result that finds no
// note (a failed request, or an engine that calls them on different goroutines) is counted in
// Stats.Unpaired and teaches nothing, and a unique body paired with a response whose body
// differs is counted there too. Katana's headless engine does not call UniqueContent at all,
// so Attach rejects options that select it.
//
// The -fsu (FilterSimilar) and -iqp (IgnoreQueryParams) options make katana pass a rewritten
// URL to UniqueURL instead of the URL it fetches; the learner would learn from strings that
// are not the site's URLs, so Attach rejects them too, as it rejects DisableUniqueFilter, which
// turns content checks off.
//
// # Use
//
//	crawlerOptions, err := types.NewCrawlerOptions(options)
//	...
//	f, err := undustkatana.New(undustkatana.Options{})
//	...
//	if err := f.Attach(crawlerOptions); err != nil { ... }
//	defer crawlerOptions.Close() // closes f too
//	crawler, err := standard.New(crawlerOptions)
//	...
//	err = crawler.Crawl(seed)
//
// IsCycle keeps katana's length limit and looks for a path segment repeated as often as
// katana's default looks for a repeated substring, in linear rather than quadratic time.
package undustkatana
