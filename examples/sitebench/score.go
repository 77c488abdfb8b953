package main

import (
	"slices"
	"time"

	"github.com/undust/undust/urlnorm"
)

// A crawl is what one crawler did: the fetches the proxy recorded, in order, and what the
// crawler's undust reported.
type crawl struct {
	crawler  string
	fetches  []fetch
	refused  int                          // requests after the budget was spent
	outScope int                          // requests for URLs out of scope, refused by the proxy
	errors   int                          // requests the site did not answer
	rules    int                          // rules undust had learned at the end; -1 without undust
	learned  string                       // undust's counters, retracted rules and rules at the end; "" without undust
	key      func(string) (string, error) // undust's key of a URL at the crawl's end; nil without undust
	elapsed  time.Duration
}

// A row is the score of one crawl: one line of the table and one object of -json.
type row struct {
	Crawler          string   `json:"crawler"`
	Fetches          int      `json:"fetches"`          // requests passed to the site
	OK               int      `json:"ok"`               // of them, complete responses with status 200
	Faults           int      `json:"faults"`           // of them, failed on purpose by the proxy
	Distinct         int      `json:"distinct"`         // distinct truths among the OK fetches
	Again            int      `json:"again"`            // OK fetches whose truth an earlier OK fetch had
	AgainPct         float64  `json:"again_pct"`        // Again as a percentage of Fetches
	NoMatch          int      `json:"nomatch"`          // OK HTML fetches the truth selector matched nothing in
	Articles         int      `json:"articles"`         // articles given (-articles)
	ArticlesReached  int      `json:"articles_reached"` // of them, those whose truth some OK fetch had
	ArticlesLost     int      `json:"articles_lost"`    // reached by the family's plain crawler, not by this one; -1 for none
	Lost             int      `json:"lost"`             // distinct pages the family's plain crawler reached and this one did not; -1 for none
	ArticlesMerged   int      `json:"articles_merged"`  // of ArticlesLost, those merged (see merged); -1 without undust or none lost
	Merged           int      `json:"merged"`           // of Lost, those merged (see merged); -1 without undust or none lost
	FailedFirst      int      `json:"failed_first"`     // distinct pages whose first fetch was failed on purpose
	FailedRefetched  int      `json:"failed_refetched"` // of them, those a later fetch got complete
	FailedOther      int      `json:"failed_other"`     // of those, got through a URL whose fetch had not failed
	Rules            int      `json:"rules"`            // rules undust learned; -1 without undust
	Refused          int      `json:"refused"`          // requests refused once the budget was spent
	OutOfScope       int      `json:"out_of_scope"`     // requests refused as out of scope
	Errors           int      `json:"errors"`           // requests the site did not answer
	Seconds          float64  `json:"seconds"`          // wall time of the crawl
	Curve            []int    `json:"-"`                // distinct pages after each fetch
	mergedURLs       []string // a URL of each merged page, from the plain crawl, sorted
	truths           map[truth]bool
	articlesReachedS map[truth]bool
}

// A recovery is what became of a page that a crawl met first through a failed fetch.
type recovery uint8

const (
	notGot   recovery = iota // no later fetch got it whole
	gotAgain                 // a later fetch of a URL that had failed got it
	gotOther                 // a later fetch of a URL that had not failed got it
)

// family returns the plain crawler the crawler is compared with: its own family's crawler
// without undust or similarity filters.
func family(crawler string) string {
	switch crawler {
	case "colly", "colly+undust":
		return "colly"
	}
	return "katana"
}

// score scores each crawl: its distinct pages, the fetches of a page already fetched, the
// articles it reached; then the pages and articles each lost against the plain crawler of its
// family, if that one ran.
func score(crawls []crawl, articles map[truth]bool) []row {
	rows := make([]row, len(crawls))
	for i, c := range crawls {
		r := row{Crawler: c.crawler, Fetches: len(c.fetches), Articles: len(articles), Rules: c.rules,
			Refused: c.refused, OutOfScope: c.outScope, Errors: c.errors, Seconds: c.elapsed.Seconds(),
			ArticlesLost: -1, Lost: -1, ArticlesMerged: -1, Merged: -1, truths: map[truth]bool{}, articlesReachedS: map[truth]bool{}}
		r.Curve = make([]int, len(c.fetches))
		failedURLs := map[string]bool{}     // URLs of a fetch failed on purpose
		failedFirst := map[truth]recovery{} // pages met first through a failed fetch
		for j, f := range c.fetches {
			switch {
			case f.Fault != noFault:
				r.Faults++
				failedURLs[f.URL] = true
				if _, met := failedFirst[f.Truth]; f.Status == 200 && f.Truth != 0 && !r.truths[f.Truth] && !met {
					failedFirst[f.Truth] = notGot
				}
			case f.Status == 200:
				if rec, ok := failedFirst[f.Truth]; ok && rec == notGot {
					failedFirst[f.Truth] = gotAgain
					if !failedURLs[f.URL] {
						failedFirst[f.Truth] = gotOther
					}
				}
				r.OK++
				if f.NoMatch {
					r.NoMatch++
				}
				if r.truths[f.Truth] {
					r.Again++
				}
				r.truths[f.Truth] = true
				if articles[f.Truth] {
					r.articlesReachedS[f.Truth] = true
				}
			}
			r.Curve[j] = len(r.truths)
		}
		r.Distinct = len(r.truths)
		r.FailedFirst = len(failedFirst)
		for _, rec := range failedFirst {
			if rec != notGot {
				r.FailedRefetched++
			}
			if rec == gotOther {
				r.FailedOther++
			}
		}
		r.ArticlesReached = len(r.articlesReachedS)
		if r.Fetches > 0 {
			r.AgainPct = 100 * float64(r.Again) / float64(r.Fetches)
		}
		rows[i] = r
	}
	for i := range rows {
		r := &rows[i]
		for j, base := range rows {
			if base.Crawler != family(r.Crawler) || base.Crawler == r.Crawler {
				continue
			}
			r.Lost, r.ArticlesLost = 0, 0
			changed := changedPages(crawls[i], crawls[j])
			var lost []truth
			for t := range base.truths {
				if !r.truths[t] && !changed[t] {
					r.Lost++
					lost = append(lost, t)
				}
			}
			for t := range base.articlesReachedS {
				if !r.articlesReachedS[t] && !changed[t] {
					r.ArticlesLost++
				}
			}
			if crawls[i].key == nil {
				continue
			}
			m := merged(crawls[i], crawls[j], lost)
			r.Merged, r.ArticlesMerged = len(m), 0
			for t, u := range m {
				if articles[t] {
					r.ArticlesMerged++
				}
				r.mergedURLs = append(r.mergedURLs, u)
			}
			slices.Sort(r.mergedURLs)
		}
	}
	return rows
}

// changedPages returns the truths of the plain crawl's complete fetches whose URL c fetched
// complete too, under another truth: the same URL served other text (a page that carries a
// nonce, as WordPress's oEmbed answers do, or a listing that changed meanwhile). c reached such
// a page, whatever its text said, and it is not counted as lost. The same URL is the same
// request as a server reads it: URLs are compared in urlnorm's Safe form with the query's
// escapes decoded that form decoding reads as the raw character (c=12%3A00 is c=12:00).
func changedPages(c, plain crawl) map[truth]bool {
	fetched := map[string]bool{}
	for _, f := range c.fetches {
		if f.ok() {
			fetched[sameRequest(f.URL)] = true
		}
	}
	out := map[truth]bool{}
	for _, f := range plain.fetches {
		if f.ok() && fetched[sameRequest(f.URL)] {
			out[f.Truth] = true
		}
	}
	return out
}

// requests writes a URL as the request a server reads (see changedPages).
var requests = urlnorm.New(urlnorm.Safe | urlnorm.DecodeQuery)

// sameRequest returns u in the form of requests, or u itself if it does not parse.
func sameRequest(u string) string {
	if k, err := requests.Key(u); err == nil {
		return k
	}
	return u
}

// merged returns the pages of lost (truths that the plain crawl reached and c did not) that c's
// undust merged with a page c fetched, each with the first URL of it in the plain crawl's fetch
// log that has, by undust's rules at c's end, the key of a URL that c fetched complete. The
// others c did not reach for another reason: the budget ran out with their URLs still queued,
// or c never found them. A rule retracted before the end, or a page identity that took the page
// for another, is not seen.
func merged(c, plain crawl, lost []truth) map[truth]string {
	out := map[truth]string{}
	if len(lost) == 0 {
		return out
	}
	want := map[truth]bool{}
	for _, t := range lost {
		want[t] = true
	}
	keys := map[string]bool{}
	for _, f := range c.fetches {
		if f.ok() {
			if k, err := c.key(f.URL); err == nil {
				keys[k] = true
			}
		}
	}
	for _, f := range plain.fetches {
		if _, done := out[f.Truth]; !f.ok() || !want[f.Truth] || done {
			continue
		}
		if k, err := c.key(f.URL); err == nil && keys[k] {
			out[f.Truth] = f.URL
		}
	}
	return out
}
