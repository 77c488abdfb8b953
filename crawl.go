package undust

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

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
	// Templates configures the template learned per host (htmltext.Site); its zero fields mean
	// htmltext.Site's defaults, except SamplePages: 32 (htmltext.Site's 128), since a crawl
	// keeps the templates of many hosts (MaxTemplates). On the 34 hosts of the near-duplicate
	// corpus of Debian manuals that takes 240 KB a host (0.8 MB the largest) against 420 KB
	// (3 MB), with the same F1 of SimHash k <= 3 on main text (0.826) and the same share of
	// pages extracted at 5-shingle J >= 0.9 with their true main text (0.929).
	// Options.MainContent is always on.
	Templates htmltext.Site
	// NoTemplates extracts the main text of a page by its own markup alone (htmltext.Extract
	// with MainContent), without a template learned from the host's other pages.
	NoTemplates bool

	// NoDeclared ignores what sites declare: a redirect the crawler did not follow (a 3xx
	// response given to After) and canonical URLs are neither evidence for the learner nor
	// reasons to skip. A redirect the client followed is not a declaration but a fetch: its
	// URL and the final URL served the page that After was given, and count as such.
	NoDeclared bool
	// DeclaredFirst is the number of a site's first canonical declarations whose use Before
	// verifies by fetching (default 2); then one use in DeclaredEvery (default 20).
	DeclaredFirst, DeclaredEvery int

	// MaxURLs bounds the URLs the Crawl remembers as holders of keys (default 0: no bound). A
	// URL past the bound is answered Fetch and not remembered, and counted in Stats.Forgotten.
	// Each URL remembered costs about 50 bytes and its length past the scheme and host (see
	// the package documentation).
	MaxURLs int
	// MaxPages bounds the pages kept in the content index (default 0: no bound); a page past
	// the bound is answered as kept and not indexed, and counted in Stats.Forgotten. Each page
	// kept costs about 115 bytes, its host's template aside (see the package documentation).
	MaxPages int
	// MaxTemplates bounds the hosts that keep a learned template at once (default 1000). When
	// a page of a new host would pass it, the template of the host whose pages came least
	// recently is dropped, and that host's pages are read by their own markup from then on, as
	// with NoTemplates. See the package documentation for the memory of a template.
	MaxTemplates int
}

func (o Options) check() error {
	if o.NearK > 31 {
		return fmt.Errorf("undust: NearK %d out of range [0, 31]", o.NearK)
	}
	if o.MaxURLs < 0 || o.MaxPages < 0 || o.MaxTemplates < 0 || o.DeclaredFirst < 0 || o.DeclaredEvery < 0 {
		return errors.New("undust: negative MaxURLs, MaxPages, MaxTemplates, DeclaredFirst or DeclaredEvery")
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
	if o.MaxTemplates == 0 {
		o.MaxTemplates = 1000
	}
	if o.Templates.SamplePages == 0 {
		o.Templates.SamplePages = 32
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
	// duplicate (once, however often it is asked about): if Of's fetch fails, After names the
	// URL in Page.Retry. It also says that a check of a learned rule (Verify) by another URL
	// against Of is under way: if it finds another page, After names the URL in that check's
	// Page.Retry. Either way a crawler may instead keep the URL queued and ask again when it
	// comes up, or, about to send it, wait for the fetch of Await to be reported and ask again.
	Retry bool
	// Await, for Skip with Retry, is the URL whose fetch decides whether this one is needed: Of
	// while Of is not fetched, else the URL whose check against Of is under way.
	Await string
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
	// the response was no page (failed, not status 200, or the page identity is off). Two ids
	// given before a page showed them to be one page are that page's: the later id's URLs get
	// the first id from then on.
	ID uint64
	// Duplicate says that the page duplicates one kept before, at Of: a crawler should neither
	// keep it nor follow its links.
	Duplicate bool
	Of        string
	// Failed says that the fetch failed (Response.Err, a 5xx or 429 status): its key was given
	// back, so that another URL of its page is fetched in its place.
	Failed bool
	// Retry, for a failed fetch, are URLs that Before skipped as duplicates of this one while
	// it was not fetched yet (each once, however often it was asked about, and the URL whose
	// key it took, see BeforeSend): the crawler gives them to Before again, so that the page is
	// fetched through another of its URLs. When there are none, it is the failed URL itself,
	// the first time that URL fails: a crawl that skips a page's other URLs may meet none of
	// them again, and a failure (a 5xx, a timeout, a body cut short) may pass.
	//
	// For a fetch that Before asked for as a check of a learned rule (Verify) and that found
	// another page, Retry are the URLs that Before skipped, while the check was under way, as
	// duplicates of the page it was checked against (Decision.Retry): the rule that merged them
	// may be the one the check disproved. The crawler gives them to Before again, which fetches
	// those that no rule merges any more. So it is for a check that was not made: it failed,
	// its answer was no page (a 404, or a redirect the crawler did not follow to a page not
	// fetched yet; one to a page fetched before is compared with the kept page), or its answer
	// came before that of the kept URL's fetch, under way at once. They are asked about again,
	// and the rule's next use is checked in its place; a failed check names its own URL too,
	// the first time. And so it is for a URL whose check was no longer due when it came up
	// (another check had retracted the rule, and Before let it through as a URL of its own):
	// its fetch gives back the URLs that waited for that check, whatever its answer.
	//
	// Each URL is named once.
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
	Lapsed     int64 // of them, answered Skip when asked again: the checks made since answered
	Skip       int64 // answered Skip because another URL held the key (once for a URL asked again before its page's fetch is done)
	Taken      int64 // answered Fetch by BeforeSend with the key of a URL not being sent yet
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
	// Checks of the rules made without a fetch: two URLs fetched before whose keys new rules
	// made equal, and whose pages were compared.
	Compared          int64
	CompareMismatches int64 // of them, those of two pages
	Redirects         int64 // responses that redirected (followed or not)
	Declared          int64 // canonical declarations recorded
	Withdrawn         int64 // sites whose canonical declarations a verification disproved
	Keys              int   // keys held now
	Held              int   // URLs remembered now
	Learner           learn.OnlineStats
}

// A Crawl is the dedup state of one crawl: see the package documentation. Make one with New;
// the zero value is not usable. All methods are safe for concurrent use. A Crawl keeps the URLs
// that hold keys as copies in a store of its own, the strings of the few others it remembers
// (URLs under verification, redirect sources, duplicates waiting for a fetch, declared
// canonical URLs), and of the bodies only copies of the young pages' (see the package
// documentation), at most 8 MB.
type Crawl struct {
	opt    Options
	online *learn.Online // nil without online learning
	canon  *urlnorm.Normalizer

	hmu     sync.Mutex
	hosts   map[string]*hostTemplate // host -> its learned template
	lru     hostTemplate             // the sentinel of the ring of hosts' templates
	dropped map[string]bool          // hosts whose template was dropped (Options.MaxTemplates)

	mu        sync.Mutex
	holders   holderStore
	urls      urlStore                 // the holders' URLs
	keys      keyTable                 // key hash -> holder index, or declaration index with declaredBit
	pending   map[uint64]uint32        // URL hash -> holder index, for URLs let through and not reported
	verifying map[uint64]verification  // URL hash -> the check its fetch is for
	prefixes  map[string]prefixInfo    // URL prefix (scheme and authority) of a holder -> its ids
	siteIDs   map[string]uint32        // site -> index in siteList
	siteList  []siteHolders            // the holders of each site, for rekeying
	sites     map[string]*declarations // site -> its canonical declarations
	decls     []*declared              // every declaration, in the order made
	redirects map[string][]string      // URL -> URLs that redirected to it, not fetched yet
	retried   map[uint64]bool          // URL hash -> given back by After to be fetched again
	waiting   map[uint32][]string      // pending holder -> URLs skipped as its duplicates
	waited    map[uint64]uint32        // URL hash -> the holder whose waiting list it was put on, until asked again
	checks    map[uint64]uint64        // key hash -> URL hash of the check under way of a match to it (verifying)
	checkWait map[uint64][]string      // URL hash of a check under way -> URLs skipped as duplicates of its holder meanwhile
	displaced map[uint64]uint32        // URL hash -> fetched holder whose key another holds
	checked   map[uint64]uint32        // URL hash of a check's fetch that found the page -> the holder it was checked against
	inferred  map[uint32]bool          // fetched holder -> its URL was skipped, its page inferred (holdInferred)
	released  int                      // holders whose key was given back
	pages     pageIndex
	young     youngPages
	stats     Stats

	// Whether the learner may rewrite the URLs of each site (siteList's index), so that the key
	// of a URL of a site without rules is urlnorm's key alone, as the learner would make it,
	// without asking the learner.
	siteRules []bool
	widened   bool // the learner published widened rules, which apply to sites without rules of their own

	dirty      atomic.Bool   // dirtySites is not empty
	published  atomic.Uint64 // rule sets published so far (markDirty)
	dmu        sync.Mutex
	dirtySites map[string]bool // sites whose rules changed since the last rekey ("" for all)
}

// A holder is a URL that Before let through: it holds its key. Its URL is in Crawl.urls, and
// the hash of its URL in its key's slot of Crawl.keys when it holds one (urlHash makes it
// again). 24 bytes.
type holder struct {
	key  uint64 // hash of its key under the rules it was last keyed with
	ref  uint64 // tail offset << 26 | prefix id << 2 | state
	page uint32 // its page's id once fetched with a page, else 0
	prev uint32 // the holder of its site let through before it, + 1; 0 for none
}

// A holderStore keeps holders in chunks of 64K (2 MB), so that growing never copies them nor
// holds two copies at once.
type holderStore struct {
	chunks [][]holder
	n      int
}

const holderChunk = 1 << 16

func (s *holderStore) at(i uint32) *holder { return &s.chunks[i/holderChunk][i%holderChunk] }
func (s *holderStore) len() int            { return s.n }

func (s *holderStore) add(h holder) uint32 {
	if s.n%holderChunk == 0 {
		c := holderChunk
		if s.n == 0 {
			c = 64 // the first chunk grows as append grows it: a small crawl takes little
		}
		s.chunks = append(s.chunks, make([]holder, 0, c))
	}
	k := len(s.chunks) - 1
	s.chunks[k] = append(s.chunks[k], h)
	s.n++
	return uint32(s.n - 1)
}

func (h *holder) state() uint8                 { return uint8(h.ref & 3) }
func (h *holder) unreported() bool             { s := h.state(); return s == pending || s == sending }
func (h *holder) setState(s uint8)             { h.ref = h.ref&^3 | uint64(s) }
func (h *holder) prefix() uint32               { return uint32(h.ref>>2) & (maxPrefixes - 1) }
func (h *holder) offset() uint64               { return h.ref >> (2 + prefixBits) }
func makeRef(off uint64, prefix uint32) uint64 { return off<<(2+prefixBits) | uint64(prefix)<<2 }

const (
	pending uint8 = iota // let through, not reported yet
	fetched              // reported by After
	failed               // its fetch failed: it holds no key
	sending              // let through by BeforeSend, not reported yet: being sent
)

// declaredBit marks a key held through a canonical declaration: the value is the declaration's
// index in Crawl.decls.
const declaredBit = 1 << 31

// A verification is what the fetch of a URL answered Verify checks.
type verification struct {
	url      string
	against  uint32 // the holder of the key
	key      uint64 // the key's hash (a learned rule's check: see Crawl.checks)
	declared bool   // the key was declared, not made by rules
}

// A prefixInfo is what a Crawl knows of a URL prefix: its id in the URL store (0 when the store
// has no room for more) and its site's index in Crawl.siteList. The site of a URL is a function
// of its prefix (see Crawl.site), so it is found without keying the URL again.
type prefixInfo struct {
	id, site uint32
}

// A siteHolders is a site and its holders: the last one let through, + 1 (0 for none), whose
// holder.prev links to the one before.
type siteHolders struct {
	name string
	last uint32
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
		dropped:    map[string]bool{},
		pending:    map[uint64]uint32{},
		verifying:  map[uint64]verification{},
		prefixes:   map[string]prefixInfo{},
		siteIDs:    map[string]uint32{},
		dirtySites: map[string]bool{},
		sites:      map[string]*declarations{},
		redirects:  map[string][]string{},
		retried:    map[uint64]bool{},
		waiting:    map[uint32][]string{},
		waited:     map[uint64]uint32{},
		checks:     map[uint64]uint64{},
		checkWait:  map[uint64][]string{},
		displaced:  map[uint64]uint32{},
		checked:    map[uint64]uint32{},
		inferred:   map[uint32]bool{},
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
	c.dirty.Store(true)
	c.published.Add(1)
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

// key returns the key of raw and, with online learning, the learner's Key of it. c.mu is not
// held: keyLocked is key for callers that hold it.
func (c *Crawl) key(raw string) (string, learn.Key, error) {
	if c.online == nil {
		return c.keyLocked(raw)
	}
	p, ok := learn.Prepare(raw)
	if !ok {
		return "", learn.Key{}, learn.ErrNotURL
	}
	c.mu.Lock()
	r := c.mayRewrite(raw)
	c.mu.Unlock()
	if !r {
		// What the learner's Key gives when no rule applies: Prepare's key, and a Key that
		// Verify, Confirm and Skipped pass over.
		return p, learn.Key{}, nil
	}
	return c.learnerKey(raw)
}

// keyLocked is key with c.mu held; without online learning it reads nothing c.mu guards.
func (c *Crawl) keyLocked(raw string) (string, learn.Key, error) {
	switch {
	case c.online != nil && !c.mayRewrite(raw):
		p, ok := learn.Prepare(raw)
		if !ok {
			return "", learn.Key{}, learn.ErrNotURL
		}
		return p, learn.Key{}, nil
	case c.online != nil:
		return c.learnerKey(raw)
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

// site returns the site of a URL as the learner groups it ("" when it is no http(s) URL): the
// site of its prefix when a holder has the same prefix, else siteOf. c.mu is held.
func (c *Crawl) site(raw string) string {
	if pre, _ := splitURL(raw); pre != "" {
		if p, ok := c.prefixes[pre]; ok {
			return c.siteList[p.site].name
		}
	}
	return c.siteOf(raw)
}

// siteOf returns the site of a URL as the learner groups it, computed: the learner's Site of
// the URL (its site function of the host of the URL's key), else the URL's host. Either is a
// function of the URL's prefix (its scheme and authority, see splitURL) for the URLs that can
// be keyed, which are the only ones a Crawl asks about.
func (c *Crawl) siteOf(raw string) string {
	if c.online != nil {
		s, _ := c.online.Site(raw)
		return s
	}
	return hostOfURL(raw)
}

// learnerKey returns the key of raw as the learner makes it, and its Key.
func (c *Crawl) learnerKey(raw string) (string, learn.Key, error) {
	k, err := c.online.Key(raw)
	if k.Key == "" && err == nil {
		err = learn.ErrNotURL
	}
	return k.Key, k, err
}

// mayRewrite reports whether the learner may rewrite raw: its site has rules (or widened rules
// apply to it), or its prefix is not known yet. c.mu is held.
func (c *Crawl) mayRewrite(raw string) bool {
	pre, _ := splitURL(raw)
	if pre == "" {
		return true
	}
	p, ok := c.prefixes[pre]
	return !ok || c.siteRules[p.site]
}

// refreshRules records whether the learner may rewrite the URLs of site sid: its current set
// has rules (it holds the widened rules too), or it has no set and widened rules were ever
// published (which then apply to it). c.mu is held.
func (c *Crawl) refreshRules(sid uint32) {
	set := c.online.SiteSet(c.siteList[sid].name)
	c.siteRules[sid] = set != nil && set.Len() > 0 || set == nil && c.widened
}

// url returns the URL of holder i. c.mu is held.
func (c *Crawl) url(i uint32) string {
	hd := c.holders.at(i)
	return c.urls.prefixes[hd.prefix()] + string(c.urls.tail(hd.offset()))
}

// urlHash returns hashURL of the URL of holder i, without making the URL. c.mu is held.
func (c *Crawl) urlHash(i uint32) uint64 {
	hd := c.holders.at(i)
	var d xxhash.Digest
	d.Reset()
	_, _ = d.WriteString(c.urls.prefixes[hd.prefix()])
	_, _ = d.Write(c.urls.tail(hd.offset()))
	return d.Sum64()
}

// appendURL appends the URL of holder i to dst. c.mu is held.
func (c *Crawl) appendURL(dst []byte, i uint32) []byte {
	hd := c.holders.at(i)
	return append(append(dst, c.urls.prefixes[hd.prefix()]...), c.urls.tail(hd.offset())...)
}

// pageOf returns the page of holder i (0 for none): the page it was fetched with, or the earlier
// page that one was found to be since. c.mu is held.
func (c *Crawl) pageOf(i uint32) uint32 { return c.pages.root(c.holders.at(i).page) }

// holderOf returns the holder of a key table value: the holder itself or the holder of the
// declaration. c.mu is held.
func (c *Crawl) holderOf(v uint32) uint32 {
	if v&declaredBit != 0 {
		return c.decls[v&^declaredBit].holder
	}
	return v
}

// Stats returns what c has done so far, with its learner's statistics.
func (c *Crawl) Stats() Stats {
	c.mu.Lock()
	s := c.stats
	s.Keys, s.Held = c.keys.n, c.holders.len()-c.released
	c.mu.Unlock()
	if c.online != nil {
		s.Learner = c.online.Stats()
	}
	return s
}
