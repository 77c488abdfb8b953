package undustkatana

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"
	"github.com/projectdiscovery/katana/pkg/utils/filters"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
)

// DefaultNearK is the SimHash distance at or below which two bodies are near duplicates when
// Options.NearK is 0: Manku et al.'s k = 3 for 64-bit fingerprints.
const DefaultNearK = 3

// Options configure a Filter. The zero value means the defaults given per field; New copies it.
type Options struct {
	// Online configures the learner (see learn.OnlineOptions; its zero value means the
	// learner's defaults).
	Online learn.OnlineOptions
	// NearK is the most bits in which the SimHash of a body's main text may differ from that
	// of a page kept before for the body to be a near duplicate of it: 0 means DefaultNearK, a
	// negative value turns near duplicates off (exact main-text digests only), and at most 31.
	NearK int
	// FullText fingerprints the whole visible text of a body instead of its main content.
	// Main content keeps a site's template (navigation, related links, footer) out of the
	// fingerprint, so that a print view matches its article and two copies of a page that
	// link out differently are one page.
	FullText bool
}

// Errors of Attach.
var (
	ErrHeadless       = errors.New("undustkatana: the headless engine does not check content (Options.Headless)")
	ErrFilterSimilar  = errors.New("undustkatana: FilterSimilar (-fsu) passes a URL fingerprint, not the URL, to UniqueURL")
	ErrIgnoreQuery    = errors.New("undustkatana: IgnoreQueryParams (-iqp) passes the URL without query values to UniqueURL")
	ErrNoUniqueFilter = errors.New("undustkatana: DisableUniqueFilter (-duf) turns content checks off")
)

// A Filter is a katana filters.Filter that keys URLs by learned rules and bodies by main-text
// fingerprints; see the package documentation. Make one with New and give it to katana with
// Attach. The zero Filter is not usable. All methods are safe for concurrent use, as katana
// calls them from its crawl goroutines. A Filter keeps the URL strings it is given and not the
// bodies.
type Filter struct {
	opt    Options
	online *learn.Online
	stop   context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	closed  bool
	keys    map[string]string       // dedup key -> the first URL UniqueURL let through with it
	passed  map[string]bool         // URLs UniqueURL let through
	verify  map[string]verification // URLs let through to verify a rule
	digests map[uint64]uint64       // main-text (or raw-body) digest -> page id
	index   *simhash.Index          // SimHash of each page's main text, by page id
	pages   uint64                  // page ids given
	status  map[uint64]int          // page id -> status of its first response; absent until written
	waiting map[uint64][]waitingDup // duplicates of a page whose first response is not written yet
	pending map[uint64]note         // goroutine id -> the body UniqueContent saw on it
	pageOf  map[string]uint64       // URL -> the page id of its body, for URLs paired with status 200
	fetched []string                // the URLs of pageOf, in the order they were paired
	keyedAt int64                   // the learner's relearns when the keys of fetched were last made
	stats   Stats
}

// A note is what UniqueContent saw on a goroutine, for the result written next on it.
type note struct {
	page uint64
	dup  bool
	sum  uint64 // xxhash of the raw body
}

type waitingDup struct{ url string }

// A verification is a URL let through although its key was seen, to check the rules that made
// the key against the page of the URL that holds it.
type verification struct {
	key     learn.Key
	against string
}

// Stats counts what a Filter saw. It is a plain value.
type Stats struct {
	URLs       int // UniqueURL calls
	Avoided    int // of them, URLs not let through because their key was seen
	Verified   int // URLs let through although their key was seen, to verify a rule
	Mismatches int // of the verifications written back, those whose page differed
	Bodies     int // UniqueContent calls
	Exact      int // of them, bodies with the main-text digest of a page seen before
	Near       int // of them, bodies within NearK bits of a page seen before
	Pages      int // distinct pages: bodies neither exact nor near duplicates
	Observed   int // URLs with status 200 given to the learner
	Unpaired   int // results that no body could be paired with, or a unique body with another
	Online     learn.OnlineStats
}

// New returns a Filter with no URLs, pages or rules, and starts the goroutine that relearns
// sites as their evidence grows; Close stops it. Options out of range are an error.
func New(opt Options) (*Filter, error) {
	if opt.NearK > 31 {
		return nil, fmt.Errorf("undustkatana: NearK %d out of range (at most 31, negative for none)", opt.NearK)
	}
	if opt.NearK == 0 {
		opt.NearK = DefaultNearK
	}
	if g := opt.Online.Growth; g < 0 {
		return nil, fmt.Errorf("undustkatana: Online.Growth %v is negative", g)
	}
	f := &Filter{
		opt:     opt,
		online:  learn.NewOnline(opt.Online),
		done:    make(chan struct{}),
		keys:    map[string]string{},
		passed:  map[string]bool{},
		verify:  map[string]verification{},
		digests: map[uint64]uint64{},
		status:  map[uint64]int{},
		waiting: map[uint64][]waitingDup{},
		pending: map[uint64]note{},
		pageOf:  map[string]uint64{},
	}
	if opt.NearK > 0 {
		f.index = simhash.NewIndex(opt.NearK, nil)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.stop = cancel
	go func() {
		defer close(f.done)
		f.online.Run(ctx)
	}()
	return f, nil
}

// Attach makes f the UniqueFilter of co, closing the filter co had (types.NewCrawlerOptions
// makes katana's default, which holds a hybrid map), and wraps co.OutputWriter so that f sees
// each result's URL (see the package documentation). co.Close then closes f. Options that make
// katana call the filter with something other than the crawl's URLs and bodies are an error:
// ErrHeadless, ErrFilterSimilar, ErrIgnoreQuery, ErrNoUniqueFilter.
func (f *Filter) Attach(co *types.CrawlerOptions) error {
	switch {
	case co == nil || co.Options == nil:
		return errors.New("undustkatana: nil crawler options")
	case co.OutputWriter == nil:
		return errors.New("undustkatana: crawler options without an OutputWriter")
	case co.Options.Headless:
		return ErrHeadless
	case co.Options.FilterSimilar:
		return ErrFilterSimilar
	case co.Options.IgnoreQueryParams:
		return ErrIgnoreQuery
	case co.Options.DisableUniqueFilter:
		return ErrNoUniqueFilter
	}
	if co.UniqueFilter != nil && co.UniqueFilter != filters.Filter(f) {
		co.UniqueFilter.Close()
	}
	co.UniqueFilter = f
	if _, ok := co.OutputWriter.(*writer); !ok {
		co.OutputWriter = &writer{Writer: co.OutputWriter, f: f}
	}
	return nil
}

// writer passes results on to katana's writer after showing them to the Filter.
type writer struct {
	output.Writer
	f *Filter
}

func (w *writer) Write(r *output.Result) error {
	w.f.Result(r)
	return w.Writer.Write(r)
}

// UniqueURL reports whether katana should fetch u: whether its dedup key (urlnorm's Crawler
// key rewritten by the rules learned so far) is new, or the learner asks to verify the rules
// that made it by fetching u anyway. A string that is not an absolute http(s) URL is keyed by
// itself, as katana's default filter keys every URL.
func (f *Filter) UniqueURL(u string) bool {
	k, err := f.online.Key(u)
	key := k.Key
	if errors.Is(err, learn.ErrNotURL) || key == "" {
		key = "\x00" + u // never equal to a URL's key
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stats.URLs++
	prev, seen := f.keys[key]
	if !seen {
		f.keys[key] = u
		f.passed[u] = true
		return true
	}
	if prev == u || f.passed[u] {
		f.stats.Avoided++
		return false
	}
	if !f.online.Verify(k) {
		f.stats.Avoided++
		if page, ok := f.pageOf[prev]; ok {
			// Evidence the rules inferred: without it the learner would see only the URLs
			// its rules do not merge yet (see learn.Online.Skipped).
			f.online.Skipped(learn.URL{Raw: u}, k, page)
		}
		return false
	}
	f.stats.Verified++
	f.verify[u] = verification{key: k, against: prev}
	f.passed[u] = true
	return true
}

// UniqueContent reports whether body is a page not seen before: neither its main text's
// digest nor (within Options.NearK bits) its SimHash matches a page kept before. A body
// without text is compared by the digest of its bytes. The page's id is noted for the result
// that katana writes next on the calling goroutine. It does not keep body.
func (f *Filter) UniqueContent(body []byte) bool {
	digest, sim, text := fingerprint(body, f.opt.FullText)
	sum := xxhash.Sum64(body)
	g := goid()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stats.Bodies++
	n := note{sum: sum}
	if id, ok := f.digests[digest]; ok {
		n.page, n.dup = id, true
		f.stats.Exact++
	} else if m, ok := f.near(sim, text); ok {
		n.page, n.dup = m, true
		f.digests[digest] = m
		f.stats.Near++
	} else {
		f.pages++
		n.page = f.pages
		f.digests[digest] = n.page
		if text && f.index != nil {
			f.index.Insert(n.page, sim)
		}
		f.stats.Pages++
	}
	f.pending[g] = n
	return !n.dup
}

func (f *Filter) near(sim uint64, text bool) (uint64, bool) {
	if !text || f.index == nil {
		return 0, false
	}
	m, ok := f.index.Near(sim, f.opt.NearK)
	return m.ID, ok
}

// fingerprint returns the digest and SimHash of the text of body, and whether it has text. A
// body without text (an image, an empty page) has a digest of its bytes instead, prefixed so
// that it does not meet the digest of a text.
func fingerprint(body []byte, full bool) (digest, sim uint64, text bool) {
	t, err := htmltext.Extract(body, htmltext.Options{MainContent: !full})
	s := ""
	if err == nil {
		s = t.String()
	}
	var o shingle.Options
	h := shingle.AppendHashes(nil, s, o)
	if len(h) == 0 {
		d := xxhash.New()
		_, _ = d.WriteString("undustkatana raw body\x00")
		_, _ = d.Write(body)
		return d.Sum64(), 0, false
	}
	return shingle.Digest64(s, o), simhash.Sum64(h), true
}

// Result shows the Filter a result katana writes: it pairs the result's URL with the body
// UniqueContent saw on the calling goroutine, records the pair for the learner when the page
// answered 200, and completes a verification the URL was let through for. Attach makes katana's
// OutputWriter call it; call it yourself only from a writer of your own that katana calls.
func (f *Filter) Result(r *output.Result) {
	if r == nil || r.Request == nil {
		return
	}
	g := goid()
	u := r.Request.URL
	f.mu.Lock()
	n, ok := f.pending[g]
	delete(f.pending, g)
	if !ok {
		if r.Response != nil && r.Response.Resp != nil {
			f.stats.Unpaired++
		}
		f.mu.Unlock()
		return
	}
	var obs []string
	if !n.dup {
		resp := r.Response
		if resp == nil || resp.Resp == nil || xxhash.Sum64String(resp.Body) != n.sum {
			f.stats.Unpaired++
			f.mu.Unlock()
			return
		}
		f.status[n.page] = resp.Resp.StatusCode
		if resp.Resp.StatusCode == http.StatusOK {
			obs = append(obs, u)
		}
		for _, w := range f.waiting[n.page] {
			if resp.Resp.StatusCode == http.StatusOK {
				obs = append(obs, w.url)
			}
		}
		delete(f.waiting, n.page)
	} else if st, known := f.status[n.page]; !known {
		f.waiting[n.page] = append(f.waiting[n.page], waitingDup{url: u})
	} else if st == http.StatusOK {
		obs = append(obs, u)
	}
	type check struct {
		v    verification
		same bool
	}
	var checks []check
	for _, o := range obs {
		if _, ok := f.pageOf[o]; !ok {
			f.fetched = append(f.fetched, o)
		}
		f.pageOf[o] = n.page
		if v, ok := f.verify[o]; ok {
			delete(f.verify, o)
			if want, fetched := f.pageOf[v.against]; fetched {
				checks = append(checks, check{v, want == n.page})
				if want != n.page {
					f.stats.Mismatches++
				}
			}
		}
		f.stats.Observed++
	}
	f.mu.Unlock()
	for _, c := range checks {
		f.online.Confirm(c.v.key, c.same)
	}
	for _, o := range obs {
		f.online.Observe(learn.URL{Raw: o}, n.page)
		f.registerKey(o)
	}
	f.rekey()
}

// rekey records, after the learner relearned, the keys of the URLs fetched so far under the
// new rules: a rule's target is a real URL of its page, and a page fetched through another URL
// is then known under the target's key too. A site of n URLs is relearned O(log n) times
// (learn.OnlineOptions.Growth), so rekeying costs O(n log n) keys over a crawl.
func (f *Filter) rekey() {
	n := f.online.Stats().Relearns
	f.mu.Lock()
	if n == f.keyedAt {
		f.mu.Unlock()
		return
	}
	f.keyedAt = n
	urls := slices.Clone(f.fetched)
	f.mu.Unlock()
	keys := make([]string, len(urls))
	for i, u := range urls {
		if k, err := f.online.Key(u); err == nil {
			keys[i] = k.Key
		}
	}
	f.mu.Lock()
	for i, k := range keys {
		if _, ok := f.keys[k]; !ok && k != "" {
			f.keys[k] = urls[i]
		}
	}
	f.mu.Unlock()
}

// registerKey records the key of a fetched URL under the current rules, so that a link to the
// URL itself, or to a variant the rules rewrite to it, is not fetched again. Katana enqueues its
// seed without UniqueURL; this is where the seed's key is recorded.
func (f *Filter) registerKey(u string) {
	k, err := f.online.Key(u)
	if err != nil || k.Key == "" {
		return
	}
	f.mu.Lock()
	if _, ok := f.keys[k.Key]; !ok {
		f.keys[k.Key] = u
	}
	f.passed[u] = true
	f.mu.Unlock()
}

// IsCycle reports whether u looks like a crawler trap: longer than filters.MaxChromeURLLength
// (katana's limit), or with one path segment filters.MaxSequenceCount times or more
// (/a/b/a/b/a/b/..., the path that relative links to a page that serves every path make).
// Katana's default looks instead for any substring of more than filters.MinSequenceLength
// bytes repeated that often, in time quadratic in the URL's length; this test is linear.
func (f *Filter) IsCycle(u string) bool {
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

// Close stops the relearning goroutine and waits for it. The Filter's state stays readable
// (Stats, Learner); UniqueURL and UniqueContent go on working without relearning. Close may be
// called more than once.
func (f *Filter) Close() {
	f.mu.Lock()
	closed := f.closed
	f.closed = true
	f.mu.Unlock()
	if closed {
		return
	}
	f.stop()
	<-f.done
}

// Stats returns the Filter's counters and its learner's.
func (f *Filter) Stats() Stats {
	f.mu.Lock()
	st := f.stats
	f.mu.Unlock()
	st.Online = f.online.Stats()
	return st
}

// Learner returns the Filter's online learner, to read the rules it learned (Set, SiteSet,
// Retracted) or to save them for the next crawl.
func (f *Filter) Learner() *learn.Online { return f.online }
