package undust

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Options configure a Crawl. The zero value means the defaults given per field; New copies it.
type Options struct {
	// Rules, if set, are rules learned before the crawl (learn.Learn, rules.Load): they key
	// every URL, and the crawl does not learn rules of its own.
	Rules *rules.Set
	// NoLearning turns online learning off: without Rules, URLs are keyed by urlnorm's Crawler
	// key alone.
	NoLearning bool
	// Online configures the online learner (see learn.OnlineOptions; its zero value means the
	// learner's defaults). Its Published callback is the Crawl's own: one set here is called
	// after it.
	Online learn.OnlineOptions

	// NoContent turns the page identity off: After neither fingerprints pages nor calls any a
	// duplicate, and the learner learns from redirects and declarations only.
	NoContent bool
	// NearK, if above 0, also calls a page a duplicate when the SimHash of one of its texts is
	// within NearK bits (at most 31) of a kept page's: near duplicates, Manku et al.'s k = 3 for
	// 64-bit fingerprints. The default (0, or negative) is exact duplicates only: the same
	// digest of either text. A crawler should not turn it on lightly: two revisions of a long
	// page that differ by a line are near duplicates and distinct pages, and a near duplicate's
	// links are not followed; the per-page chrome of short templated pages (ids, dates, user
	// names, counters) is what the learned template folds, not what SimHash absorbs.
	NearK int
	// Templates configures the template learned per host (htmltext.Site); its zero value
	// means htmltext.Site's defaults, and its Options.MainContent is always on.
	Templates htmltext.Site
	// NoTemplates extracts the main text of a page by its own markup alone (htmltext.Extract
	// with MainContent), without a template learned from the host's other pages.
	NoTemplates bool

	// NoDeclared ignores what sites declare: redirects and canonical URLs are neither evidence
	// for the learner nor reasons to skip.
	NoDeclared bool
	// DeclaredFirst is the number of a site's first canonical declarations whose use Before
	// verifies by fetching (default 2); then one use in DeclaredEvery (default 20).
	DeclaredFirst, DeclaredEvery int

	// MaxURLs bounds the URLs the Crawl remembers as holders of keys (default 0: no bound). A
	// URL past the bound is answered Fetch and not remembered, and counted in Stats.Forgotten.
	// Each URL remembered costs about 100 bytes plus its length (see the package
	// documentation).
	MaxURLs int
	// MaxPages bounds the pages kept in the content index (default 0: no bound); a page past
	// the bound is answered as kept and not indexed, and counted in Stats.Forgotten.
	MaxPages int
}

func (o Options) check() error {
	if o.NearK > 31 {
		return fmt.Errorf("undust: NearK %d out of range [0, 31]", o.NearK)
	}
	if o.MaxURLs < 0 || o.MaxPages < 0 || o.DeclaredFirst < 0 || o.DeclaredEvery < 0 {
		return errors.New("undust: negative MaxURLs, MaxPages, DeclaredFirst or DeclaredEvery")
	}
	if g := o.Online.Growth; g < 0 {
		return fmt.Errorf("undust: Online.Growth %v is negative", g)
	}
	return nil
}

func (o Options) withDefaults() Options {
	o.NearK = max(o.NearK, 0)
	if o.DeclaredFirst == 0 {
		o.DeclaredFirst = 2
	}
	if o.DeclaredEvery == 0 {
		o.DeclaredEvery = 20
	}
	if o.MaxURLs == 0 {
		o.MaxURLs = maxHolders
	}
	if o.MaxPages == 0 {
		o.MaxPages = maxHolders
	}
	return o
}

// maxHolders is the most holders and pages a Crawl can number.
const maxHolders = 1<<31 - 1

// An Action is Before's answer.
type Action uint8

const (
	// Fetch: the URL's key is new, or the URL holds it and has not been fetched yet.
	Fetch Action = iota
	// Verify: the URL's key is held by Decision.Of, but the crawl wants to check the rule or
	// declaration that made the keys equal: fetch the URL and report it with After.
	Verify
	// Skip: the URL is a duplicate of Decision.Of (which may be the URL itself, fetched before).
	Skip
)

func (a Action) String() string {
	switch a {
	case Fetch:
		return "fetch"
	case Verify:
		return "verify"
	case Skip:
		return "skip"
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// A Decision is Before's answer for one URL. It is a plain value.
type Decision struct {
	Action Action
	// Key is the URL's dedup key: urlnorm's Crawler key rewritten by the rules of its site.
	Key string
	// Of is, for Skip and Verify, the URL that holds the key: the URL whose page this one
	// duplicates.
	Of string
	// Retry, for Skip, says that Of is not fetched yet and the URL is remembered as its
	// duplicate: if Of's fetch fails, After names the URL in Page.Retry.
	Retry bool
	// Err is why the URL could not be keyed (not an absolute http(s) URL, a rewrite cycle);
	// the Action is then Fetch, as a crawler that cannot tell should.
	Err error
}

// A Response is what a crawler got for a URL that Before let through. It is read, not kept.
type Response struct {
	// URL is the URL asked for, as given to Before.
	URL string
	// FinalURL is the URL of the body when the client followed redirects; "" or URL if none.
	FinalURL string
	// Status is the HTTP status of the last response.
	Status int
	// Header are the last response's headers (Location, Link); nil is none.
	Header http.Header
	// Body is the last response's body.
	Body []byte
	// Err, if set, means the fetch failed (a network error, a timeout, a body cut short): the
	// rest is not read.
	Err error
}

// A Page is After's answer. It is a plain value.
type Page struct {
	// ID is the page's id: equal for the URLs of one page (an exact or near duplicate), 0 when
	// the response was no page (failed, not status 200, or the page identity is off).
	ID uint64
	// Duplicate says that the page duplicates one kept before, at Of: a crawler should neither
	// keep it nor follow its links.
	Duplicate bool
	Of        string
	// Failed says that the fetch failed (Response.Err, a 5xx or 429 status): its key was given
	// back, so that another URL of its page is fetched in its place.
	Failed bool
	// Retry, for a failed fetch, are URLs that Before skipped as duplicates of this one while
	// it was not fetched yet: the crawler gives them to Before again, so that the page is
	// fetched through another of its URLs (at most maxWaiting).
	Retry []string
	// Canonical is the canonical URL the page declared (a Link header or <link
	// rel="canonical">), resolved; "" if none.
	Canonical string
}

// Stats count what a Crawl did. It is a plain value.
type Stats struct {
	URLs       int64 // Before calls
	Fetch      int64 // answered Fetch
	Verify     int64 // answered Verify (once for a URL asked again before it is fetched)
	Skip       int64 // answered Skip because another URL held the key
	Seen       int64 // answered Skip because the URL itself was let through before
	KeyErrors  int64 // URLs that could not be keyed (answered Fetch)
	Forgotten  int64 // URLs not remembered (over MaxURLs) and pages not indexed (over MaxPages)
	Responses  int64 // After calls
	Failed     int64 // of them, failed fetches
	Pages      int64 // of them, pages (status 200 with a page identity)
	Kept       int64 // of the pages, the first of their page
	Duplicates int64 // of the pages, duplicates of a page kept before
	Checked    int64 // verification fetches whose page After compared with the holder's
	Mismatches int64 // of them, those that found another page than their key said
	Redirects  int64 // responses that redirected (followed or not)
	Declared   int64 // canonical declarations recorded
	Withdrawn  int64 // sites whose canonical declarations a verification disproved
	Keys       int   // keys held now
	Held       int   // URLs remembered now
	Learner    learn.OnlineStats
}

// A Crawl is the dedup state of one crawl: see the package documentation. Make one with New;
// the zero value is not usable. All methods are safe for concurrent use. A Crawl keeps the URL
// strings it is given and nothing of the bodies.
type Crawl struct {
	opt    Options
	online *learn.Online // nil without online learning
	canon  *urlnorm.Normalizer

	hmu   sync.Mutex
	hosts map[string]*hostTemplate // host -> its learned template

	mu        sync.Mutex
	holders   []holder
	keys      map[uint64]uint32        // key hash -> holder index, with declaredBit for declared keys
	pending   map[string]uint32        // URL -> holder index, for URLs let through and not reported
	verifying map[string]verification  // URL -> the check its fetch is for
	bySite    map[string][]uint32      // site -> its holders, for rekeying
	sites     map[string]*declarations // site -> its canonical declarations
	redirects map[string][]string      // URL -> URLs that redirected to it, not fetched yet
	waiting   map[uint32][]string      // pending holder -> URLs skipped as its duplicates
	declSeq   uint64                   // declarations made
	released  int                      // holders whose key was given back
	pages     pageIndex
	stats     Stats

	dmu        sync.Mutex
	dirtySites map[string]bool // sites whose rules changed since the last rekey ("" for all)
}

// A holder is a URL that Before let through: it holds its key.
type holder struct {
	url   string
	key   uint64 // hash of its key under the rules it was last keyed with
	page  uint32 // its page's id once fetched with a page, else 0
	state uint8
}

const (
	pending uint8 = iota // let through, not reported yet
	fetched              // reported by After
	failed               // its fetch failed: it holds no key
)

// declaredBit marks a key held through a canonical declaration.
const declaredBit = 1 << 31

// A verification is what the fetch of a URL answered Verify checks.
type verification struct {
	against  uint32 // the holder of the key
	declared bool   // the key was declared, not made by rules
}

// New returns a Crawl with no state. Options out of range are an error.
func New(opt Options) (*Crawl, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	c := &Crawl{
		opt:        opt,
		canon:      urlnorm.New(urlnorm.Safe),
		hosts:      map[string]*hostTemplate{},
		keys:       map[uint64]uint32{},
		pending:    map[string]uint32{},
		verifying:  map[string]verification{},
		bySite:     map[string][]uint32{},
		dirtySites: map[string]bool{},
		sites:      map[string]*declarations{},
		redirects:  map[string][]string{},
		waiting:    map[uint32][]string{},
		pages:      newPageIndex(opt.NearK),
	}
	if opt.Rules == nil && !opt.NoLearning {
		oo := opt.Online
		user := oo.Published
		oo.Published = func(site string) {
			c.markDirty(site)
			if user != nil {
				user(site)
			}
		}
		c.online = learn.NewOnline(oo)
	}
	return c, nil
}

func (c *Crawl) markDirty(site string) {
	// Called by the learner with its locks held, possibly while c.mu is held by a Crawl method
	// that called the learner: dirty has a lock of its own for that reason.
	c.dmu.Lock()
	c.dirtySites[site] = true
	c.dmu.Unlock()
}

// Learner returns the online learner (nil with Options.Rules or NoLearning): its rules are
// Learner().Set(), to save for the next crawl.
func (c *Crawl) Learner() *learn.Online { return c.online }

// Key returns the dedup key of raw under the rules as they stand, as Before makes it.
func (c *Crawl) Key(raw string) (string, error) {
	k, _, err := c.key(raw)
	return k, err
}

// key returns the key of raw and, with online learning, the learner's Key of it.
func (c *Crawl) key(raw string) (string, learn.Key, error) {
	switch {
	case c.online != nil:
		k, err := c.online.Key(raw)
		if k.Key == "" && err == nil {
			err = learn.ErrNotURL
		}
		return k.Key, k, err
	case c.opt.Rules != nil:
		k, err := c.opt.Rules.Normalize(raw)
		return k, learn.Key{}, err
	}
	p, ok := learn.Prepare(raw)
	if !ok {
		return "", learn.Key{}, learn.ErrNotURL
	}
	return p, learn.Key{}, nil
}

func hashKey(k string) uint64 { return xxhash.Sum64String(k) }

// site returns the site of a URL as the learner groups it ("" when it is no http(s) URL).
func (c *Crawl) site(raw string) string {
	if c.online != nil {
		s, _ := c.online.Site(raw)
		return s
	}
	return hostOfURL(raw)
}

// Stats returns what c has done so far, with its learner's statistics.
func (c *Crawl) Stats() Stats {
	c.mu.Lock()
	s := c.stats
	s.Keys, s.Held = len(c.keys), len(c.holders)-c.released
	c.mu.Unlock()
	if c.online != nil {
		s.Learner = c.online.Stats()
	}
	return s
}
