package learn

import (
	"context"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// OnlineOptions configure an Online learner. The zero value means the defaults given per field;
// NewOnline copies it.
type OnlineOptions struct {
	// Learn are the options of every relearn of a site (LearnSite, then Assemble of the one
	// site). Learn.Workers is not used: a relearn is one site, learned by one goroutine.
	// Learn.MinPrecision 0 means 0.9 here, not Learn's 0.95: verification at crawl time is a
	// second guard, and a rule needs 10 rather than 20 clean training URLs to be used (tuned on
	// a replay of the dupclusters train.tsv). Alias origins (see the package doc, target
	// selection) are off here: on the site families of urldedup gen (seed 1, file order and
	// -shuffle 1) they save 67.3% of avoidable fetches rather than 60.6% but lose 0.053% of
	// pages rather than 0.049% (Learn.MainOrigin, which Online sets whatever it is here, still
	// ranks origins, and the origins that the site's clusters show to alias its main origin have
	// their training URLs moved to it: see the package doc, origin map).
	// Cluster support is off too (see the package doc, selection): a crawl meets a site's
	// pages in link order, and a rule without error on the first clusters (a directory's
	// index.html, one page with the directory on the first directories) may be wrong on later
	// ones; the pseudo-error keeps it unused until its clean uses reach 10.
	Learn Options
	// MinURLs is the number of URLs a site must have before its first relearn (default 16).
	MinURLs int
	// Growth is the factor by which a site's URLs must grow after a relearn before the next one
	// (default 1.5, at least 1.05): a site of n URLs is relearned O(log n) times and the URLs
	// learned over all its relearns add up to at most n·Growth/(Growth-1).
	Growth float64
	// MinDups makes a site due as well when its duplicate evidence (URLs observed with a page
	// that another URL of the site has) has grown by MinDups (default 8) and by the factor
	// Growth since the last relearn. A crawl that meets a new kind of duplicate URL meets it in
	// a burst (a level of a breadth-first crawl links every page's variant at once), so a
	// relearn waits for the duplicates, not for the site's URLs to grow by half. The relearns
	// stay O(log n) once the site's duplicates outnumber MinDups/(Growth-1).
	//
	// A site is also due when the duplicates it fetched since its last relearn (not those its
	// rules merged and the crawl skipped: the duplicates its rules did not explain) reach
	// MinDups and one per 64 of its URLs (twice that after such a relearn that changed no
	// rule, and so on): a kind of duplicate URL that a crawl meets late waits for no more than
	// that, and these relearns learn at most 64 URLs per duplicate fetched.
	//
	// A site is also due when the URLs of one shape (the number of path segments, a first
	// segment without digits, the query's parameter names) that it fetched since its last
	// relearn could by themselves pass the bar a rule must pass: at least MinDups duplicates
	// (doubled as above), few enough new pages beside them that a rule joining them all would
	// reach Learn.MinPrecision by the learner's estimate. The print view of every page of a
	// list, met in a burst on a site of thousands of URLs, makes it due after about 10 rather
	// than dozens; a shape of which new pages are a share does not.
	//
	// A site is also due when the pages fetched under two abbreviations of one hash (the
	// same URL but for one token, two hash-like values of which one begins the other:
	// /info/bb8308f945 and /info/bb8308f9454618b1) have grown by one and by the factor Growth
	// since the last relearn. Such a pair shows by itself that the site abbreviates, where
	// another duplicate may be a coincidence of content; the site's other schedules stay as
	// they were, so that this relearn delays no other, and these relearns are O(log n) too.
	MinDups int
	// MaxURLs bounds the URLs kept per site (default 50000); later URLs of the site are counted
	// in OnlineStats.Dropped and not kept. Together with MaxClusterURLs it bounds a site's
	// memory to O(MaxURLs) URLs and its relearn to the cost of learning MaxURLs URLs.
	MaxURLs int
	// MaxClusterURLs bounds the URLs kept per page (fingerprint) of a site (default 64, twice
	// the sources a cluster gives the learner by default): a page with hundreds of session
	// variants teaches nothing more after a few dozen. A URL that comes to a full page and
	// differs from a kept URL in one key alone takes the place of a kept URL that differs so
	// from none, so that the pairs that show a parameter irrelevant alone are kept whatever
	// the crawl order (see swapVictim).
	MaxClusterURLs int
	// VerifyFirst is the number of first uses of each rule that VerifyMatch asks the crawler
	// to check by fetching, besides the first use in each context (see VerifyMatch); default
	// 1; negative: no check at all, neither per context nor by the bound on a rule's error
	// rate.
	VerifyFirst int
	// VerifyEvery is the floor of the sampling: after its first uses, at least one use of a
	// rule in VerifyEvery is checked, however often it was confirmed (default 100; negative:
	// no floor, only the bound on the rule's error rate).
	VerifyEvery int
	// Site names the site of a host: the unit that evidence is kept, rules are learned and
	// sets are published for. The host is given with its port when the URL has one that is
	// not its scheme's default ("127.0.0.1:8080"): another port is another server. Nil means
	// the host's registrable domain (public suffix + 1, "www.example.co.uk" ->
	// "example.co.uk"), with the port if any ("example.co.uk:8080"), or the host itself when it
	// has none (an IP address, a bare public suffix: "127.0.0.1:8080"): a site's duplicates
	// span www and bare host, http and https, and mobile sub-domains of one domain. Mirror and
	// short-link domains are other sites. It must be safe for concurrent use and give the same
	// site for a host every time.
	Site func(host string) string
	// Published, if set, is called after a new rule set of a site is published (a relearn, a
	// retraction, a change of the widened rules), with the site's name, and with "" after the
	// widened rules change (they apply to the sites without rules of their own). A crawler
	// that remembers the keys of the URLs it fetched makes them again for that site. It is
	// called from the goroutine that publishes, with locks of the learner held: it must return
	// quickly and must not call the learner.
	Published func(site string)
}

func (o OnlineOptions) withDefaults() OnlineOptions {
	if o.MinDups <= 0 {
		o.MinDups = 8
	}
	if o.MinURLs <= 0 {
		o.MinURLs = 16
	}
	if o.Growth == 0 {
		o.Growth = 1.5
	}
	o.Growth = max(o.Growth, 1.05)
	if o.MaxURLs <= 0 {
		o.MaxURLs = 50000
	}
	if o.MaxClusterURLs <= 0 {
		o.MaxClusterURLs = 64
	}
	if o.VerifyFirst == 0 {
		o.VerifyFirst = 1
	}
	if o.VerifyEvery == 0 {
		o.VerifyEvery = 100
	}
	if o.Learn.MinPrecision == 0 {
		o.Learn.MinPrecision = 0.9
	}
	o.Learn.online = true
	// A crawl's clusters hold the variants of their page that it happened to fetch: the
	// targets are on the site's main origin, not on each cluster's shortest alias of it.
	o.Learn.MainOrigin = !ablate.NoOriginRank
	if o.Site == nil {
		o.Site = registrableDomain
	}
	return o
}

// Online learns URL rewrite rules while a crawl runs, from the crawl's own pages: the loop of
// Koppula et al. (learn offline from dup clusters, rewrite online before enqueueing) made
// continuous. The crawler tells it what it found (Observe: this URL's page has this content
// fingerprint; Same: these two URLs are one page), and reads the current rules of each site
// through Normalize or Key.
//
// Evidence is kept per site (OnlineOptions.Site, by default the registrable domain): the site's
// URLs grouped into dup clusters by fingerprint, at most OnlineOptions.MaxURLs URLs and
// MaxClusterURLs per cluster. A site is due for relearning when its URLs reach MinURLs, then
// each time they have grown by the factor Growth since the last relearn (or its duplicates, or
// its pages fetched under two abbreviations of a hash: see OnlineOptions.MinDups); so a site of
// n URLs is relearned O(log n) times and the total relearn work is O(n log n) for learning
// stages that are O(n log n) themselves. A relearn is LearnSite and Assemble on the site's
// clusters, which are cluster ids "SITE-FINGERPRINT" (16 hex digits): fed the same evidence,
// Online gives the rules Learn gives for those clusters (see Set). Memory is O(MaxURLs) URLs
// per site with evidence, and O(1) per host seen in Observe; the number of sites is the
// crawler's.
//
// Relearning never runs on the path of Normalize: Observe only queues a site that is due, and
// the queue is drained by Relearn, called by the crawler when it chooses (deterministic), or by
// Run in a goroutine of its own. Each site's current rules are an immutable rules.Set published
// through an atomic pointer, so Normalize and Key take no lock and never wait for a relearn;
// they see the new rules from the moment they are published.
//
// Rules correct themselves at crawl time (VerifyMatch, ConfirmMatch; Verify and Confirm when the
// kept URL is not known): before the crawler skips a URL because its key is the key of a URL
// fetched, VerifyMatch says whether to fetch it anyway, for the rules that made either key: for
// the first VerifyFirst uses of each rule, its first use in each context (the site's template
// words of the URL's last segment before and after the rewrite: album is not friends), the
// first uses of a rule of a risky shape, every use while an upper confidence bound on the
// rule's error rate is high, and one use in VerifyEvery after that (see the package doc). If
// the fetched page differs from the kept page, ConfirmMatch retracts the rules to blame at
// once, in that context or entirely, and later relearns of the site leave them out. Recheck
// says whether a check asked for is still due when the crawler comes to fetch the URL.
//
// Rules widened beyond a site (query parameters learned as deletable on Options.MinSites sites,
// as Learn widens them) join every site's set, with the every-host scope's low precedence, and
// apply alone to
// sites without rules of their own yet; they are verified per site like the site's rules.
// The crawler may also record the URLs it skips (Skipped): without them a site's clusters would
// hold only the URLs that its rules do not merge yet, and lack the very URLs that rank as the
// clusters' targets.
//
// The zero Online is not usable; make one with NewOnline. All methods are safe for concurrent
// use. Online keeps the URL strings it is given.
type Online struct {
	opt   OnlineOptions
	sites sync.Map // site name -> *onlineSite
	hosts sync.Map // host -> *onlineSite, the cache of opt.Site for hosts with evidence

	global atomic.Pointer[globalRules] // nil until a parameter is widened
	wmu    sync.Mutex                  // serializes updateWiden

	mu   sync.Mutex // guards due
	due  []*onlineSite
	wake chan struct{} // one pending signal for Run

	stats struct {
		urls, bad, dropped, relearns, relearnURLs                  atomic.Int64
		verifications, confirmed, mismatches, retracts, reinstated atomic.Int64
	}
}

// NewOnline returns an Online learner with no evidence and no rules: its Normalize is urlnorm's
// Crawler key until the first relearn.
func NewOnline(opt OnlineOptions) *Online {
	return &Online{opt: opt.withDefaults(), wake: make(chan struct{}, 1)}
}

// onlineSite is one site's evidence and current rules.
type onlineSite struct {
	name      string
	published func(string)                // OnlineOptions.Published
	cur       atomic.Pointer[siteVersion] // nil until the first relearn

	learning sync.Mutex // held by the relearn of the site, so that relearns of a site do not overlap

	treeFails sync.Map // tree swap segment (see treeSwap) -> *atomic.Int64, failures of its rules' checks
	editFails sync.Map // rule edit (see editOf) -> *atomic.Int64, the failures of its retracted rules

	mu       sync.Mutex // guards the fields below; never taken by Normalize or Key
	clusters map[uint64]*Cluster
	order    []uint64               // fingerprints in first-seen order
	byURL    map[string]urlMark     // the fingerprint and sequence number of each kept URL
	inferred map[string]bool        // kept URLs that Skipped recorded
	rested   map[string][]ruleUse   // the rule uses the key of each inferred URL rested on, if known
	prepared map[string]string      // Prepare's form of each URL Observe kept -> the first such URL
	hubs     map[uint64]hubMemo     // what hub found of a page, while its version and URLs stand
	series   map[string][2]uint64   // path -> two pages (fingerprints) of URLs fetched with it and a query
	n        int                    // URLs kept
	next     int                    // relearn due when n reaches next
	learned  int                    // n at the last relearn
	dups     int                    // URLs kept that joined a page with URLs: duplicate evidence
	nextDup  int                    // relearn due when dups reaches nextDup
	evident  int                    // URLs observed that joined a page as a hash abbreviation of one of its observed URLs (see hashAbbrev)
	nextEv   int                    // relearn due when evident reaches nextEv
	fresh    int                    // URLs observed (not inferred) since the last relearn that joined a page with URLs (see freshDue)
	freshOff uint8                  // freshDue's count is doubled this many times: the relearns fresh duplicates made due since the site's rules last changed
	shapes   map[string]*shapeCount // observed URLs since the last relearn, by URL shape (see burstDue)
	burst    bool                   // a shape's burst made the site due (see burstDue)
	seq      uint64                 // the sequence number of the next URL kept
	// The evidence of the last relearn (its snapshot) is the kept URLs numbered below snapSeq and
	// the URLs of snapDropped, which dropInferred removed since: so that a saved learner can
	// learn the snapshot again (see WriteTo).
	snapSeq     uint64
	snapDropped []droppedURL
	snapKept    map[string]string // the kept targets of the last relearn, by cluster ID (see keptTargets)
	queued      bool
	result      *SiteResult                // of the last relearn
	base        *rules.Set                 // the site's own rules, of the last relearn
	words       map[string]bool            // template words of the last relearn
	params      map[string][]string        // rule content -> query parameters of its uses in the last relearn's evidence (see ruleParams)
	outCtx      map[string]map[string]bool // rule content -> contexts it is retracted in
	retracted   map[string]bool            // content of retracted rules
	counters    map[string]*ruleCounter    // use counters by rule content, kept across relearns
	pairs       map[string]*pairCount      // sitePairs of the version published after the last relearn
	pairsDue    bool                       // a relearn (or a load) since pairs were counted
	variants    map[uint64]variantMark     // by hash of a URL's variant form (see variant)
	literal     sync.Map                   // host -> *hostVariants: how it serves variants of a path
	reservoirs  map[uint64]*reservoir      // the pairs of full clusters, by page (see swapVictim)
	suspects    []*suspect                 // mismatches whose URL met may prove an error page (see exonerate)
	suspectIn   map[string][]*suspect      // suspects by URL met (Prepare's form) until Observe gives its page
	suspectFP   map[uint64]int             // pages of suspects' URLs met -> suspects pending on them
}

// mark records the URL raw kept as page fp, numbered seq: in byURL, and in inferred if
// Skipped recorded it, or else in prepared.
func (s *onlineSite) mark(raw string, fp, seq uint64, inferred bool) {
	s.byURL[raw] = urlMark{fp: fp, seq: seq}
	if inferred {
		s.inferred[raw] = true
	} else if p, ok := Prepare(raw); ok {
		if _, ok := s.prepared[p]; !ok {
			s.prepared[p] = raw
		}
		if path, query, ok := strings.Cut(pathOf(p), "?"); ok && query != "" {
			if f := s.series[path]; f[0] != fp && f[1] != fp && (f[0] == 0 || f[1] == 0) {
				if f[0] == 0 {
					f[0] = fp
				} else {
					f[1] = fp
				}
				if s.series == nil {
					s.series = map[string][2]uint64{}
				}
				s.series[path] = f
			}
		}
		s.variant(p, fp)
	}
}

// pathOf returns the path and query of the URL p (in Prepare's form), "/a/b?c=d".
func pathOf(p string) string {
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[i:]
	}
	return ""
}

// A urlMark is what a site keeps of a URL of its evidence besides the URL itself.
type urlMark struct {
	fp  uint64 // the URL's page
	seq uint64 // the order in which the URL was kept
}

// A droppedURL is a URL of a relearn's snapshot that dropInferred removed from the evidence since.
type droppedURL struct {
	fp uint64
	u  URL
}

// A siteVersion is one published rule set of a site with the use counter of each of its rules.
type siteVersion struct {
	site  *onlineSite
	set   *rules.Set
	uses  []*ruleCounter
	prior []riskPrior             // the prior of each rule's error rate (see priorOf)
	words map[string]bool         // the site's template words (see templateWords)
	out   map[int]map[string]bool // rule index -> contexts it is retracted in
	outWo map[int]*rules.Set      // rule index in out -> the set without it (nil if it cannot be made)

	wmu sync.Mutex
	wo  map[[2]int]*rules.Set // the set without rules i and j, made when a check needs it (see without)
}

// contentKey is a rule's text without its statistics: the rule's identity across relearns.
func contentKey(r rules.Rule) string {
	r.Stats = rules.Stats{}
	return r.String()
}

// hostOf returns the host of a URL in Prepare's form, scheme://[userinfo@]host[:port]/..., with
// its port: "127.0.0.1:8080" (Prepare leaves out a default port). Another port of a host name
// is another server, and so another site.
func hostOf(p string) string {
	i := strings.Index(p, "://")
	if i < 0 {
		return ""
	}
	h := p[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	name, port, _ := splitAuthority(h)
	return joinHostPort(name, port)
}

// site returns the state of the site of host, creating it if create is set; nil otherwise.
func (o *Online) site(host string, create bool) *onlineSite {
	if s, ok := o.hosts.Load(host); ok {
		return s.(*onlineSite)
	}
	if !create {
		return nil
	}
	name := o.opt.Site(host)
	s, _ := o.sites.LoadOrStore(name, &onlineSite{name: name, published: o.opt.Published, next: o.opt.MinURLs, nextDup: o.opt.MinDups, nextEv: 1,
		clusters: map[uint64]*Cluster{}, byURL: map[string]urlMark{}, inferred: map[string]bool{}, rested: map[string][]ruleUse{},
		prepared: map[string]string{}, retracted: map[string]bool{}, counters: map[string]*ruleCounter{}, outCtx: map[string]map[string]bool{},
		suspectIn: map[string][]*suspect{}, suspectFP: map[uint64]int{}})
	o.hosts.Store(host, s)
	return s.(*onlineSite)
}

// A Key is the dedup key of a URL under an Online learner's current rules, with what a crawler
// needs to verify it: the site version and the rules that made it. It is a plain value.
type Key struct {
	Key  string // the dedup key
	in   string // the URL in Prepare's form
	ver  *siteVersion
	used []int // indexes into ver.set of the rules that rewrote the URL
	left int   // 1 + the index of a rule retracted in the key's context that the key was made without; 0 if none
}

// Rewritten reports whether learned rules rewrote the URL: its key is not just the static one.
func (k Key) Rewritten() bool { return len(k.used) > 0 }

// Normalize returns the dedup key of raw: urlnorm's Crawler key (Prepare), rewritten by the
// current rules of its site, if any. It takes no lock and allocates only the key. On an error
// of the rules (a rewrite cycle or limit) it returns the Crawler key with the error; a string
// that is not an absolute http(s) URL is ErrNotURL. Normalize satisfies Normalizer and
// urlnorm.Stage.
func (o *Online) Normalize(raw string) (string, error) {
	p, ok := Prepare(raw)
	if !ok {
		return "", ErrNotURL
	}
	v := o.version(p)
	if v == nil {
		return p, nil
	}
	if len(v.out) > 0 {
		k, err := v.key(p)
		return k.Key, err
	}
	k, err := v.set.Normalize(p)
	if err != nil {
		return p, err
	}
	return k, nil
}

// version returns the rules that apply to the URL p (in Prepare's form): its site's, else the
// widened rules, else nil.
func (o *Online) version(p string) *siteVersion {
	if s := o.site(hostOf(p), false); s != nil {
		if v := s.cur.Load(); v != nil {
			return v
		}
	}
	if g := o.global.Load(); g != nil {
		return g.ver
	}
	return nil
}

// Key is Normalize that also says which rules made the key, for Verify and Confirm.
func (o *Online) Key(raw string) (Key, error) {
	p, ok := Prepare(raw)
	if !ok {
		return Key{}, ErrNotURL
	}
	v := o.version(p)
	if v == nil {
		return Key{Key: p, in: p}, nil
	}
	return v.key(p)
}

// key returns the Key of p (in Prepare's form) under v. When a rule that made it is retracted
// in the key's context, p is keyed again by the set without that rule: a broad rule that failed
// here (delete hb on every page of a site) must not take with it a narrower rule that holds here
// (hb to HEAD on blob pages) whose rewrite it followed. The key is the static key p itself
// when a rule of that key is retracted in its context too.
func (v *siteVersion) key(p string) (Key, error) {
	k, used, err := v.set.NormalizeTrace(nil, p)
	if err != nil {
		return Key{Key: p, in: p}, err
	}
	if len(v.out) == 0 || len(used) == 0 {
		return Key{Key: k, in: p, ver: v, used: used}, nil
	}
	i := v.outIn(p, k, used)
	if i < 0 {
		return Key{Key: k, in: p, ver: v, used: used}, nil
	}
	s := v.outWo[i]
	if s == nil || ablate.NoRekeyOut {
		return Key{Key: p, in: p}, nil
	}
	if k, used, err = s.NormalizeTrace(used[:0], p); err != nil {
		return Key{Key: p, in: p}, nil
	}
	for j := range used {
		if used[j] >= i {
			used[j]++ // an index of v.set
		}
	}
	if len(used) == 0 || v.outIn(p, k, used) >= 0 {
		return Key{Key: p, in: p}, nil
	}
	return Key{Key: k, in: p, ver: v, used: used, left: i + 1}, nil
}

// Alternatives returns the other keys that k's rules give k's URL: for each rule that made k,
// the key of the URL under k's rules without that rule, when other rules still rewrite the URL
// there. Rules learned from different clusters may each hold and yet send URLs of one page
// to two keys: on a repository browser, "drop the commit of a blob view that names its blob"
// (?a=blob;f=F;h=B;hb=C to ?a=blob;f=F;h=B) and "drop the object of a view at HEAD"
// (?a=history;f=F;h=X;hb=HEAD to ?a=history;f=F;hb=HEAD, generalized to every action) both
// match ?a=blob;f=F;h=B;hb=HEAD, and the one of higher precedence sends it to
// ?a=blob;f=F;hb=HEAD, away from the key of the blob's other URLs. A crawler that finds no URL
// under a URL's key may look its alternatives up: each is a key the rules could have made, and
// its Key says which rules made it, for VerifyMatch and ConfirmMatch like any other. A key
// made without a rule retracted in its context has none. It returns nil with
// ablate.NoAlternatives.
func (o *Online) Alternatives(k Key) []Key {
	if k.ver == nil || len(k.used) == 0 || k.left > 0 || ablate.NoAlternatives {
		return nil
	}
	var out []Key
	for n, i := range k.used {
		if slices.Contains(k.used[:n], i) {
			continue
		}
		s := k.ver.without(i, i)
		if s == nil {
			continue
		}
		key, used, err := s.NormalizeTrace(nil, k.in)
		if err != nil || len(used) == 0 || key == k.Key {
			continue
		}
		for j := range used {
			if used[j] >= i {
				used[j]++ // an index of k.ver.set
			}
		}
		if len(k.ver.out) > 0 && k.ver.outIn(k.in, key, used) >= 0 {
			continue
		}
		out = append(out, Key{Key: key, in: k.in, ver: k.ver, used: used, left: i + 1})
	}
	return out
}

// outIn returns the first of the rules used (indexes of v.set) that rewrote p to k and is
// retracted in the context of that rewrite; -1 if none is.
func (v *siteVersion) outIn(p, k string, used []int) int {
	ctx := contextOf(p, k, v.words)
	for _, i := range used {
		if v.out[i][v.ruleIn(i, p, ctx)] {
			return i
		}
	}
	return -1
}

// contextOf returns the context of a rewrite of the URL in (in Prepare's form) to key that
// verification counts uses in and retracts rules in: the site's template words in the last path
// segment of the URL before and after the rewrite. "/chloe.2507/album-x7Yt" to ".../album" and
// "/chloe.2507/friends-Q3zz" to ".../friends" are two contexts on a site where album and friends
// are template words, and so are "/a/b/index.html" to "/a/b" and "/a/b/chemistry.shtml" to "/a/b"
// (index, html; shtml); "/wiki/apple" to "/wiki/Apple" and "/wiki/pear" to "/wiki/Pear" are one
// when titles are not template words. A rule that deletes the random suffix of friends-<id> and
// of album-<id>, or any last segment, is verified, and retracted, apart in each.
func contextOf(in, key string, words map[string]bool) string {
	var b strings.Builder
	lastWords(&b, in, words)
	b.WriteByte('>')
	lastWords(&b, key, words)
	return b.String()
}

// forNames calls f with the name of each query parameter of u, once per name in a row of
// equal names, whether the parameters are separated by & or ;.
func forNames(u string, f func(string)) {
	i := strings.IndexByte(u, '?')
	if i < 0 {
		return
	}
	q := u[i+1:]
	if j := strings.IndexByte(q, '#'); j >= 0 {
		q = q[:j]
	}
	prev := ""
	for q != "" {
		var p string
		if j := strings.IndexAny(q, "&;"); j >= 0 {
			p, q = q[:j], q[j+1:]
		} else {
			p, q = q, ""
		}
		if j := strings.IndexByte(p, '='); j >= 0 {
			p = p[:j]
		}
		if p != "" && p != prev {
			f(p)
		}
		prev = p
	}
}

// lastWords writes the template words of the last path segment of u, each followed by a space.
func lastWords(b *strings.Builder, u string, words map[string]bool) {
	i := strings.Index(u, "://")
	if i < 0 {
		return
	}
	path := u[i+3:]
	if j := strings.IndexByte(path, '?'); j >= 0 {
		path = path[:j]
	}
	forWords(path[strings.LastIndexByte(path, '/')+1:], func(w string) {
		if words[w] {
			b.WriteString(w)
			b.WriteByte(' ')
		}
	})
}

// forWords calls f with each run of 2 to 24 ASCII letters of s, lowercased.
func forWords(s string, f func(string)) {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && ('a' <= s[j]|0x20 && s[j]|0x20 <= 'z') {
			j++
		}
		if n := j - i; n >= 2 && n <= 24 {
			f(strings.ToLower(s[i:j]))
		}
		if j == i {
			j++
		}
		i = j
	}
}

// templateWords returns the words (forWords) of the path segments of the clusters' URLs that
// occur in at least 5% of the URLs and at least 5: the site's template (album, friends,
// viewtopic, php), not its values (titles, user names); and the words that are a whole segment
// under at least 5 parent paths and at least 5% of the segments that are a word at their
// depth under their first segment, however rare among the URLs: a view that a site has of each
// of its records (/t/slug/875/print beside /t/slug/875/12, /item/12/history), which only some
// records are linked with, and not the words of a tree of words.
func templateWords(cls []Cluster) map[string]bool {
	count := map[string]int{}
	type at struct {
		first string // the first segment, lowercased
		depth int
	}
	type atWord struct {
		at
		word string
	}
	parents := map[atWord][]string{} // whole-segment word at a place -> up to 5 of its parent paths
	segs := map[atWord]int{}         // URLs with the word as a whole segment at the place
	wordSegs := map[at]int{}         // URLs' segments that are a word, by place
	n := 0
	seen := map[string]bool{}
	for _, c := range cls {
		for _, u := range c.URLs {
			n++
			clear(seen)
			p := u.Raw
			if i := strings.Index(p, "://"); i >= 0 {
				p = p[i+3:]
			}
			if i := strings.IndexAny(p, "?#"); i >= 0 {
				p = p[:i]
			}
			if i := strings.IndexByte(p, '/'); i >= 0 {
				p = p[i:]
			} else {
				p = ""
			}
			forWords(p, func(w string) {
				if !seen[w] {
					seen[w] = true
					count[w]++
				}
			})
			lp := strings.ToLower(p)
			first, _, _ := strings.Cut(strings.TrimPrefix(lp, "/"), "/")
			end := 0 // of the parent path of the segment at depth
			for depth, seg := range strings.Split(strings.TrimPrefix(lp, "/"), "/") {
				parent := lp[:end]
				end += 1 + len(seg)
				if len(seg) < 2 || len(seg) > 24 || !isWord(seg) {
					continue
				}
				k := atWord{at{first, depth}, seg}
				wordSegs[k.at]++
				segs[k]++
				if ps := parents[k]; len(ps) < 5 && !slices.Contains(ps, parent) {
					parents[k] = append(ps, parent)
				}
			}
		}
	}
	words := map[string]bool{}
	for w, c := range count {
		if c >= 5 && c*20 >= n {
			words[w] = true
		}
	}
	for k, c := range segs {
		if !ablate.NoViewWords && c >= 5 && c*20 >= wordSegs[k.at] && len(parents[k]) >= 5 {
			words[k.word] = true
		}
	}
	return words
}

// isWord reports whether w is lower-case ASCII letters alone.
func isWord(w string) bool {
	for i := range len(w) {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// siteWords returns the site's template words (templateWords) and, each as "?" and its name,
// the query parameters that URLs of at least 2 of its pages (clusters) have: the parameters of
// the site's templates, by which verification tells a rule's uses apart (see
// siteVersion.ruleIn), and not a parameter whose name is a page's own (vBulletin's
// showthread.php?1709-road-pancake).
func siteWords(cls []Cluster) map[string]bool {
	words := templateWords(cls)
	pages := map[string]int{}
	seen := map[string]bool{}
	for _, c := range cls {
		clear(seen)
		for _, u := range c.URLs {
			forNames(u.Raw, func(name string) {
				if !seen[name] {
					seen[name] = true
					pages[name]++
				}
			})
		}
	}
	for name, n := range pages {
		if n >= 2 {
			words["?"+name] = true
		}
	}
	return words
}

// ruleParams returns, by rule content, the query parameters that the URLs of cls which each rule
// of set rewrites (applies to, in precedence order, see rules.Set.NormalizeTrace) have in at
// least 2 clusters, and in at least one in 20 of the clusters where the rule applies: the
// parameters its uses on the site's evidence had, on pages of their own. A parameter that they
// had not, or on one page only (a repository browser's deletion of h and hb learned on root
// listings, a=tree&h=C&hb=C, where one subdirectory listing with f=src was also met under two
// commits that had not changed it), tells a use apart (see siteVersion.ruleIn).
func ruleParams(set *rules.Set, cls []Cluster) map[string][]string {
	type ruleName struct {
		rule int
		name string
	}
	// Counts of clusters: each is counted once, at its first URL, by the cluster's number + 1.
	pages, lastPage := map[int]int{}, map[int]int{}
	count, lastCount := map[ruleName]int{}, map[ruleName]int{}
	var trace []int
	for ci, c := range cls {
		for _, u := range c.URLs {
			var err error
			if _, trace, err = set.NormalizeTrace(trace[:0], u.Raw); err != nil {
				continue
			}
			for _, i := range trace {
				if lastPage[i] != ci+1 {
					lastPage[i] = ci + 1
					pages[i]++
				}
				forNames(u.Raw, func(name string) {
					if k := (ruleName{i, name}); lastCount[k] != ci+1 {
						lastCount[k] = ci + 1
						count[k]++
					}
				})
			}
		}
	}
	out, keys := map[string][]string{}, map[int]string{}
	for k, n := range count {
		if n >= 2 && 20*n >= pages[k.rule] {
			key, ok := keys[k.rule]
			if !ok {
				key = contentKey(set.Rule(k.rule))
				keys[k.rule] = key
			}
			out[key] = append(out[key], k.name)
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// A ruleUse is a rule, by content, and the context of one of its rewrites (see ruleContext).
type ruleUse struct{ rule, ctx string }

// dropInferred removes from the site's evidence the URLs that Skipped recorded on a rule that
// has been retracted since, in the context of that rewrite or everywhere: they may rest on the
// mistaken rule. URLs skipped on other rules stay: a deletion of hb retracted on a repository
// browser's file histories says nothing of the root listings that the deletion of h and hb
// merged, which would otherwise go, and in a crawl that skipped most of them (they had taken
// the places of fetched ones in the page's full list of URLs) the rule for them with them,
// until the crawl had fetched them again. Only URLs skipped on rules that rewrite the query
// alone are kept so; those of a rule that rewrites the path, the scheme or the host go at any
// mismatch. A rule that maps one tree of versions onto another, a file onto its directory or
// one origin onto another is right on most pages and wrong on the few that differ, and the
// URLs it skipped would feed it and the rules learned beside it in contexts where they are
// seldom checked. URLs whose rules are not known (a learner read from a file of version 6 or
// older) go too. s.mu must be held.
func (s *onlineSite) dropInferred() {
	if len(s.inferred) == 0 {
		return
	}
	gone := map[string]bool{}
	for u := range s.inferred {
		uses, ok := s.rested[u]
		if !ok || ablate.NoRestedOn {
			gone[u] = true
			continue
		}
		for _, x := range uses {
			if s.retracted[x.rule] || s.outCtx[x.rule][x.ctx] {
				gone[u] = true
				break
			}
		}
	}
	if len(gone) == 0 {
		return
	}
	for _, fp := range s.order {
		c := s.clusters[fp]
		c.URLs = slices.DeleteFunc(c.URLs, func(u URL) bool {
			if !gone[u.Raw] {
				return false
			}
			if s.byURL[u.Raw].seq < s.snapSeq {
				s.snapDropped = append(s.snapDropped, droppedURL{fp: fp, u: u})
			}
			return true
		})
	}
	s.order = slices.DeleteFunc(s.order, func(fp uint64) bool {
		if len(s.clusters[fp].URLs) == 0 {
			delete(s.clusters, fp)
			return true
		}
		return false
	})
	for u := range gone {
		delete(s.byURL, u)
		delete(s.inferred, u)
		delete(s.rested, u)
	}
	clear(s.reservoirs)
	s.n -= len(gone)
	s.dups = 0
	for _, c := range s.clusters {
		s.dups += len(c.URLs) - 1
	}
}

// publish makes the site's own rules (base) and the widened rules g, less the retracted rules,
// the site's current set. s.mu must be held.
func (s *onlineSite) publish(g *globalRules) {
	var all []rules.Rule
	opts := &rules.Options{Key: urlnorm.Crawler}
	if s.base != nil {
		opts = s.base.Options()
		for i := range s.base.Len() {
			all = append(all, s.base.Rule(i))
		}
	}
	n := len(all)
	if g != nil {
		all = append(all, g.rules...)
	}
	all = slices.DeleteFunc(all, func(r rules.Rule) bool { return s.retracted[contentKey(r)] })
	set := s.base
	if set == nil || len(all) != n || len(all) != set.Len() {
		var err error
		if set, err = rules.NewSet(all, opts); err != nil {
			return // rules of valid sets are valid; keep the current version if not
		}
	}
	v := &siteVersion{site: s, set: set, uses: make([]*ruleCounter, set.Len()), prior: priors(set), words: s.words}
	for i := range set.Len() {
		key := v.prior[i].key
		for _, name := range s.params[key] {
			if !slices.Contains(v.prior[i].params, name) {
				v.prior[i].params = append(v.prior[i].params, name)
			}
		}
		if out := s.outCtx[key]; len(out) > 0 {
			if v.out == nil {
				v.out = map[int]map[string]bool{}
			}
			v.out[i] = maps.Clone(out)
		}
		c := s.counters[key]
		if c == nil {
			c = &ruleCounter{}
			s.counters[key] = c
		}
		v.uses[i] = c
	}
	if len(v.out) > 0 {
		v.outWo = map[int]*rules.Set{}
		for i := range v.out {
			v.outWo[i] = v.without(i, i)
		}
	}
	if s.pairsDue {
		s.pairsDue = false
		s.pairs = s.sitePairs(v)
	}
	for i, p := range v.prior {
		if !p.dir {
			continue
		}
		if n := s.pairs[p.key]; n != nil {
			v.prior[i].pairs = *n
		}
	}
	s.cur.Store(v)
	if s.published != nil {
		s.published(s.name)
	}
}

// globalRules are the rules widened beyond one site (see Options.MinSites) from the sites'
// last relearns, with the version that URLs of sites without rules of their own use.
type globalRules struct {
	rules []rules.Rule
	key   string // the rules' content, to tell a change
	ver   *siteVersion
}

// updateWiden widens query parameters from the sites' last relearns, as Assemble does, and
// republishes every site's set when the widened rules change (not their statistics).
func (o *Online) updateWiden() {
	if o.opt.Learn.MinSites < 0 {
		return
	}
	o.wmu.Lock()
	defer o.wmu.Unlock()
	var sites []*onlineSite
	var res []SiteResult
	o.sites.Range(func(_, v any) bool {
		s := v.(*onlineSite)
		sites = append(sites, s)
		s.mu.Lock()
		if s.result != nil {
			res = append(res, *s.result)
		}
		s.mu.Unlock()
		return true
	})
	slices.SortFunc(res, func(a, b SiteResult) int { return strings.Compare(a.Site, b.Site) })
	var st Stats
	rs := emit(nil, widen(res, o.opt.Learn.withDefaults()), &st)
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = contentKey(r)
	}
	key := strings.Join(keys, "\n")
	cur := o.global.Load()
	if (cur == nil && len(rs) == 0) || (cur != nil && cur.key == key) {
		return
	}
	set, err := rules.NewSet(rs, &rules.Options{Key: urlnorm.Crawler})
	if err != nil {
		return
	}
	g := &globalRules{rules: rs, key: key, ver: &siteVersion{set: set, uses: make([]*ruleCounter, set.Len()), prior: priors(set)}}
	for i := range g.ver.uses {
		g.ver.uses[i] = &ruleCounter{}
	}
	o.global.Store(g)
	if o.opt.Published != nil {
		o.opt.Published("")
	}
	for _, s := range sites {
		s.mu.Lock()
		if s.cur.Load() != nil {
			s.publish(g)
		}
		s.mu.Unlock()
	}
}

// Observe records that the crawler fetched u.Raw and that its page has content fingerprint fp
// (any 64-bit digest of the page, such as a shingle or SimHash sketch's exact digest): URLs
// of a site with one fingerprint are one dup cluster. A URL observed before keeps its first
// fingerprint. u.Importance and u.Inlinks are used as in Learn when the crawler knows them.
// Observe never learns; it queues the URL's site for Relearn when the site is due. A string
// that is not an absolute http(s) URL is counted in OnlineStats.BadURLs.
func (o *Online) Observe(u URL, fp uint64) {
	p, ok := Prepare(u.Raw)
	if !ok {
		o.stats.bad.Add(1)
		return
	}
	s := o.site(hostOf(p), true)
	s.mu.Lock()
	due := o.add(s, u, fp, false)
	suspect := s.observeSuspects(p, fp)
	s.mu.Unlock()
	if suspect {
		o.exonerate(s, fp)
	}
	if due {
		o.enqueue(s)
	}
}

// Skipped records that the crawler skipped u.Raw without fetching it because its key k names
// the page of fingerprint fp: evidence inferred from the current rules rather than observed.
// Without it the learner would see only the URLs that its rules do not merge yet, and a
// cluster would lack the very URLs that make its best target. Inferred URLs count for the
// relearn schedule like observed ones; a retraction of a rule that made k, in the context of
// that rewrite or everywhere, drops them from its evidence, since they may rest on the
// mistaken rule, and so does any retraction if a rule that rewrites more than the query made
// k. A key that no rule made (the static key alone) records nothing new: the static key is not
// learned.
func (o *Online) Skipped(u URL, k Key, fp uint64) {
	if len(k.used) == 0 {
		return
	}
	s := o.site(hostOf(k.in), true)
	var uses []ruleUse // nil: dropped at any mismatch (see dropInferred)
	if k.ver != nil && (ablate.NoQueryRested || !slices.ContainsFunc(k.used, func(i int) bool { return !k.ver.prior[i].query })) {
		uses = make([]ruleUse, len(k.used))
		for j, i := range k.used {
			uses[j] = ruleUse{k.ver.prior[i].key, ruleContext(k.ver, i, k.in, k.Key)}
		}
	}
	s.mu.Lock()
	due := o.add(s, u, fp, true)
	switch {
	case !s.inferred[u.Raw]:
	case uses != nil:
		s.rested[u.Raw] = uses
	default:
		delete(s.rested, u.Raw) // skipped again on other rules
	}
	s.mu.Unlock()
	if due {
		o.enqueue(s)
	}
}

// Same records that URLs a and b were found to be the same page (a redirect, a rel=canonical
// the crawler trusts, a content match it made itself): b joins a's cluster, or a joins b's, or
// both form a new one. URLs of two sites are recorded in both.
func (o *Online) Same(a, b string) {
	pa, oka := Prepare(a)
	pb, okb := Prepare(b)
	if !oka || !okb {
		o.stats.bad.Add(1)
		return
	}
	for _, p := range []string{pa, pb} {
		s := o.site(hostOf(p), true)
		s.mu.Lock()
		m, ok := s.byURL[a]
		if !ok {
			m, ok = s.byURL[b]
		}
		fp := m.fp
		if !ok {
			fp = syntheticFingerprint(pa)
		}
		d1 := o.add(s, URL{Raw: a}, fp, false)
		d2 := o.add(s, URL{Raw: b}, fp, false)
		s.mu.Unlock()
		if d1 || d2 {
			o.enqueue(s)
		}
		if hostOf(pa) == hostOf(pb) || o.opt.Site(hostOf(pa)) == o.opt.Site(hostOf(pb)) {
			break
		}
	}
}

// Join records that the pages of fingerprints into and from are one page: a crawler that
// numbers pages by content found a page matching both. On every site, the URLs of from's
// cluster join into's (up to MaxClusterURLs; the rest are dropped, as Observe drops them), so
// that a relearn learns one target for the page's URLs rather than one for each half. Joining
// a fingerprint with itself, or one without URLs, changes nothing. It visits every site, and on
// a site with from's cluster it costs a pass over the site's clusters in first-seen order and
// O(1) per URL moved.
func (o *Online) Join(into, from uint64) {
	if into == from {
		return
	}
	o.sites.Range(func(_, v any) bool {
		s := v.(*onlineSite)
		s.mu.Lock()
		due := o.join(s, into, from)
		s.mu.Unlock()
		if due {
			o.enqueue(s)
		}
		return true
	})
}

// join moves the URLs of s's cluster from into cluster into and reports whether s became due.
// s.mu must be held.
func (o *Online) join(s *onlineSite, into, from uint64) bool {
	src := s.clusters[from]
	if src == nil {
		return false
	}
	delete(s.clusters, from)
	dst := s.clusters[into]
	if dst == nil {
		// The joined cluster takes from's place in the first-seen order.
		dst = &Cluster{ID: OnlineClusterID(s.name, into), Site: s.name}
		s.clusters[into] = dst
		s.order[slices.Index(s.order, from)] = into
	} else {
		s.order = slices.DeleteFunc(s.order, func(fp uint64) bool { return fp == from })
		s.dups++ // src's first URL is a duplicate now
	}
	delete(s.reservoirs, from)
	for _, u := range src.URLs {
		if len(dst.URLs) >= o.opt.MaxClusterURLs {
			// One URL goes: u, or the kept URL that u takes the place of (see swapVictim).
			s.n--
			s.dups--
			o.stats.urls.Add(-1)
			o.stats.dropped.Add(1)
			v := s.swapVictim(into, dst, u.Raw)
			if v < 0 {
				delete(s.byURL, u.Raw)
				delete(s.inferred, u.Raw)
				delete(s.rested, u.Raw)
				continue
			}
			s.evict(into, dst, v)
		}
		dst.URLs = append(dst.URLs, u)
		m := s.byURL[u.Raw]
		m.fp = into
		s.byURL[u.Raw] = m
	}
	if s.due(&o.opt) && !s.queued {
		s.queued = true
		return true
	}
	return false
}

// syntheticFingerprint names the page of a pair of URLs found the same without a fingerprint.
func syntheticFingerprint(key string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	return h | 1<<63
}

// add adds u to s's cluster fp and reports whether s became due. s.mu must be held.
func (o *Online) add(s *onlineSite, u URL, fp uint64, inferred bool) bool {
	if _, ok := s.byURL[u.Raw]; ok {
		return false
	}
	c := s.clusters[fp]
	full := c != nil && len(c.URLs) >= o.opt.MaxClusterURLs
	if s.n >= o.opt.MaxURLs || full {
		o.stats.dropped.Add(1)
		// On a full page, u may take the place of a kept URL (see swapVictim).
		if full {
			if v := s.swapVictim(fp, c, u.Raw); v >= 0 {
				s.evict(fp, c, v)
				c.URLs = append(c.URLs, u)
				s.mark(u.Raw, fp, s.seq, inferred)
				s.seq++
			}
		}
		return false
	}
	if c == nil {
		c = &Cluster{ID: OnlineClusterID(s.name, fp), Site: s.name}
		s.clusters[fp] = c
		s.order = append(s.order, fp)
	}
	if !inferred && !ablate.NoBurstDue {
		s.countShape(u.Raw, len(c.URLs) > 0, o.opt.Learn.MinPrecision, o.opt.MinDups)
	}
	if len(c.URLs) > 0 {
		s.dups++
		if !inferred {
			s.fresh++
			if !ablate.NoAbbrevDue && s.abbreviates(c.URLs, u.Raw) {
				s.evident++
			}
		}
	}
	c.URLs = append(c.URLs, u)
	s.mark(u.Raw, fp, s.seq, inferred)
	s.seq++
	s.n++
	o.stats.urls.Add(1)
	if s.due(&o.opt) && !s.queued {
		s.queued = true
		return true
	}
	return false
}

// freshCost is the most URLs that a relearn made due by fresh duplicates learns per fresh
// duplicate (see freshDue). A relearn takes tens of microseconds per URL of the site, so that a
// fresh duplicate pays for at most a few milliseconds of relearning, a small part of the fetch
// it cost the crawler.
const freshCost = 64

// freshDue returns the fresh duplicates that make a site of n URLs due: MinDups, or one per
// freshCost URLs if that is more. A fresh duplicate is a URL that the crawl fetched although
// a URL of its page had been fetched: the site's rules did not merge the two. The other
// schedules count every duplicate, those the rules merged and the crawl skipped too, and they
// grow by the factor Growth: a kind of duplicate URL that a crawl meets late, when the skipped
// duplicates number thousands, would wait for thousands more, fetched one by one. The fresh
// duplicates are counted from the last relearn, whatever made it due, so that the relearns
// they make due learn at most freshCost URLs per duplicate fetched: linear in the crawl's
// fetches. A relearn they made due that changed none of the site's rules doubles the count for
// the next (onlineSite.freshOff, until the rules change): a site whose duplicates no rule can
// explain (pages that share their text by chance, traps) is not relearned every few fetches.
func freshDue(n, minDups int) int {
	return max(minDups, (n+freshCost-1)/freshCost)
}

// A shapeCount counts a site's observed URLs of one shape (see urlShape) since its last
// relearn: those that joined a page with URLs (fresh duplicates) and the others.
type shapeCount struct{ dups, pages int }

// countShape counts the observed URL raw in its shape's count (dup: it joined a page with
// URLs), and sets s.burst when the shape's count makes the site due (see burstDue).
func (s *onlineSite) countShape(raw string, dup bool, minPrecision float64, minDups int) {
	shape, ok := urlShape(raw)
	if !ok {
		return
	}
	if s.shapes == nil {
		s.shapes = map[string]*shapeCount{}
	}
	c := s.shapes[shape]
	if c == nil {
		c = &shapeCount{}
		s.shapes[shape] = c
	}
	if dup {
		c.dups++
	} else {
		c.pages++
	}
	if dup && burstDue(c.dups, c.pages, minPrecision, minDups<<s.freshOff) {
		s.burst = true
	}
}

// burstDue reports whether a shape's URLs observed since the last relearn, dups of them fresh
// duplicates and pages new pages, make the site due: at least min fresh duplicates, and the
// precision that a rule joining every URL of the shape would have on them alone, by the
// learner's estimate with its pseudo-error ((dups-pages)/(dups+pages+1), see lrule.Estimate),
// reaching minPrecision. A crawl that meets one kind of duplicate URL in a burst (the print
// view of each page of a list, the same query with a display setting added) fetches dozens of
// them before the site's other schedules, which count per URL of the whole site, make it due;
// the burst alone could pass the bar a rule must pass, so the site relearns then. A shape of
// which new pages are a share of the fetches (print views that are another page for one
// article in five) does not pass: the relearns it would make due are more draws of a bar
// that a rule wrong on some of its uses passes on a lucky sample. The count needed doubles
// with freshDue's (onlineSite.freshOff): a burst that taught nothing waits for more.
func burstDue(dups, pages int, minPrecision float64, min int) bool {
	return dups >= min && float64(dups-pages) >= minPrecision*float64(dups+pages+1)
}

// urlShape returns the shape of a URL that burstDue counts by: its number of path segments,
// its first segment if it has no digit (a script or section name, not an id), and the sorted
// names of its query parameters. The URLs of one kind of page share a shape whatever their
// ids; ok is false for a URL that does not parse.
func urlShape(raw string) (string, bool) {
	prep, ok := Prepare(raw)
	if !ok {
		return "", false
	}
	p, _, ok := parse(prep, nil)
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(p.path)))
	if len(p.path) > 0 && !strings.ContainsAny(p.path[0], "0123456789") {
		b.WriteByte('/')
		b.WriteString(p.path[0])
	}
	for i, q := range p.query { // sorted by name (see parsed)
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(q.Name)
	}
	return b.String(), true
}

// maxFreshOff bounds the doublings of freshDue's count (see onlineSite.freshOff).
const maxFreshOff = 16

// sameContents reports whether two rule sets hold the same rules, whatever their statistics
// (see contentKey); a nil set holds none.
func sameContents(a, b *rules.Set) bool {
	keys := func(s *rules.Set) []string {
		if s == nil {
			return nil
		}
		out := make([]string, s.Len())
		for i := range out {
			out[i] = contentKey(s.Rule(i))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(keys(a), keys(b))
}

// due reports whether s is due for a relearn by one of its schedules. s.mu must be held.
func (s *onlineSite) due(opt *OnlineOptions) bool {
	return s.n >= s.next || s.dups >= s.nextDup || s.evident >= s.nextEv || s.burst ||
		!ablate.NoFreshDue && s.fresh >= freshDue(s.n, opt.MinDups)<<s.freshOff
}

// abbreviates reports whether raw is a hash abbreviation (see hashAbbrev) of one of urls that
// the site observed (not inferred).
func (s *onlineSite) abbreviates(urls []URL, raw string) bool {
	return slices.ContainsFunc(urls, func(x URL) bool { return !s.inferred[x.Raw] && hashAbbrev(x.Raw, raw) })
}

// nextAbbrev returns the count of abbreviation pairs that makes a site due again, after a
// relearn (or a load) at n: grown by one and by the factor growth.
func nextAbbrev(n int, growth float64) int {
	return max(int(math.Ceil(float64(n)*growth)), n+1)
}

// OnlineClusterID is the id of the dup cluster of fingerprint fp on site, as Online gives it to
// the learner: the site, "-", and fp in 16 lowercase hex digits.
func OnlineClusterID(site string, fp uint64) string {
	b := make([]byte, 0, len(site)+17)
	b = append(b, site...)
	b = append(b, '-')
	h := strconv.FormatUint(fp, 16)
	for range 16 - len(h) {
		b = append(b, '0')
	}
	return string(append(b, h...))
}

func (o *Online) enqueue(s *onlineSite) {
	o.mu.Lock()
	o.due = append(o.due, s)
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Relearn relearns every site that is due, in the order they became due, in the calling
// goroutine, and returns the number of sites relearned. It may run concurrently with every
// other method, Relearn included; Normalize and Key meanwhile use the sets published before.
func (o *Online) Relearn() int {
	n := 0
	for {
		o.mu.Lock()
		if len(o.due) == 0 {
			o.mu.Unlock()
			return n
		}
		s := o.due[0]
		o.due = o.due[1:]
		o.mu.Unlock()
		o.relearn(s, false)
		n++
	}
}

// RelearnAll relearns, in the calling goroutine, every site whose evidence has grown since its
// last relearn, due or not, and returns the number of sites relearned. After RelearnAll, Set
// reflects all the evidence observed.
func (o *Online) RelearnAll() int {
	var all []*onlineSite
	o.sites.Range(func(_, v any) bool {
		all = append(all, v.(*onlineSite))
		return true
	})
	slices.SortFunc(all, func(a, b *onlineSite) int { return strings.Compare(a.name, b.name) })
	n := 0
	for _, s := range all {
		if o.relearn(s, true) {
			n++
		}
	}
	return n
}

// Run relearns due sites in the calling goroutine as they become due, until ctx is done. Start
// it with go o.Run(ctx) to keep relearning off the crawler's goroutines.
func (o *Online) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-o.wake:
			o.Relearn()
		}
	}
}

// relearn learns site s from a snapshot of its evidence and publishes the result. With force it
// learns the site whenever its evidence grew since the last relearn, else only when it is due.
func (o *Online) relearn(s *onlineSite, force bool) bool {
	s.learning.Lock()
	defer s.learning.Unlock()
	s.mu.Lock()
	if s.n == s.learned || (!force && !s.due(&o.opt)) {
		s.queued = false
		s.mu.Unlock()
		return false
	}
	cls := make([]Cluster, 0, len(s.order))
	for _, fp := range s.order {
		c := s.clusters[fp]
		cls = append(cls, Cluster{ID: c.ID, Site: c.Site, URLs: slices.Clone(c.URLs)})
	}
	n := s.n
	s.learned = n
	s.snapSeq, s.snapDropped = s.seq, nil
	byFresh := !force && s.n < s.next && s.dups < s.nextDup && s.evident < s.nextEv
	old := s.base
	// A relearn that only abbreviations or fresh duplicates made due leaves the other schedules
	// as they were: it learns a rule of one kind of URL early, and the site's other duplicates
	// wait no longer.
	if force || s.n >= s.next || s.dups >= s.nextDup {
		s.next = max(int(math.Ceil(float64(n)*o.opt.Growth)), n+1, o.opt.MinURLs)
		s.nextDup = max(int(math.Ceil(float64(s.dups)*o.opt.Growth)), s.dups+o.opt.MinDups)
	}
	s.nextEv = nextAbbrev(s.evident, o.opt.Growth)
	s.fresh = 0
	s.shapes, s.burst = nil, false
	s.queued = false
	s.mu.Unlock()

	opt := o.opt.Learn
	opt.Workers = 1
	opt.kept = keptTargets(cls, s.cur.Load())
	res := LearnSite(s.name, cls, opt)
	set, _, err := Assemble([]SiteResult{res}, opt)
	o.stats.relearns.Add(1)
	o.stats.relearnURLs.Add(int64(n))
	if err != nil {
		return true // no clusters: nothing to publish
	}
	words, params := siteWords(cls), ruleParams(set, cls)
	same := sameContents(old, set)
	s.mu.Lock()
	switch {
	case !same:
		s.freshOff = 0
	case byFresh && s.freshOff < maxFreshOff:
		// The duplicates fetched since taught nothing yet: the next such relearn waits for
		// twice as many (see freshDue).
		s.freshOff++
	}
	s.snapKept = opt.kept
	s.result = &res
	s.base = set
	s.words, s.params = words, params
	s.pairsDue = true
	s.publish(o.global.Load())
	s.mu.Unlock()
	o.updateWiden()
	return true
}

// keptTargets returns, for each cluster of cls of two URLs or more that has one, the key that
// the site's rules before the relearn (v; nil: none) give the most of its URLs (a URL that is
// the key counting twice; ties to the smaller key), of the keys made by rules of shapes that
// verification trusts (see safeRule). A crawl's cluster holds the variants of a page that it
// happened to fetch, and its best-ranked URL may be a variant (/print/story/7, where a rule
// sent /story/7?s=X to /story/7 and the crawl skipped that): a target that the rules already
// send the cluster's URLs to, when it is structurally simpler than each of them (see
// withTarget), keeps the rules learned from the cluster consistent with those learned before,
// instead of a second way to write the page, whose first uses verification checks again.
func keptTargets(cls []Cluster, v *siteVersion) map[string]string {
	if v == nil || ablate.NoKeptTargets {
		return nil
	}
	var out map[string]string
	safe := make([]int8, v.set.Len()) // per rule: 0 not known yet, 1 trusted, -1 not (see safeRule)
	trusted := func(used []int) bool {
		for _, i := range used {
			if safe[i] == 0 {
				safe[i] = -1
				if safeRule(v, i) {
					safe[i] = 1
				}
			}
			if safe[i] < 0 {
				return false
			}
		}
		return true
	}
	for _, c := range cls {
		if len(c.URLs) < 2 {
			continue
		}
		n := map[string]int{}
		preps := make(map[string]bool, len(c.URLs))
		for _, u := range c.URLs {
			if p, ok := Prepare(u.Raw); ok {
				preps[p] = true
			}
		}
		for p := range preps {
			if k, err := v.key(p); err == nil && len(k.used) > 0 && trusted(k.used) {
				n[k.Key]++
				if preps[k.Key] {
					n[k.Key]++
				}
			}
		}
		best := ""
		for k, m := range n {
			if best == "" || m > n[best] || m == n[best] && k < best {
				best = k
			}
		}
		if best != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[c.ID] = best
		}
	}
	return out
}

// safeRule reports whether rule i of v is of a shape that verification trusts on its first
// checks: not of a risky shape (see riskyShape), not one that cuts a URL to its directory (see
// cutsToDir), and not one that deletes a path segment whatever its value. A key made by such a
// rule may name several pages (a directory for each page under it), and a target made of it
// would teach the rule again.
func safeRule(v *siteVersion, i int) bool {
	if p := v.prior[i]; p.risky || p.dir {
		return false
	}
	r := v.set.Rule(i)
	for _, a := range r.Transform {
		if a.Key.Part == urlnorm.PartPath && !a.Insert && (a.Op == rules.Delete || a.Op == rules.Assign && a.Value == "") &&
			literalOf(&r, a.Key) == "" {
			return false
		}
	}
	return true
}

// Set returns the rule set of the evidence as of each site's last relearn: Assemble of the
// sites' last LearnSite results, with the options of the relearns. Rules retracted by Confirm
// are left out. Fed evidence that forms clusters C and relearned once (RelearnAll), it is the
// set that Learn(C, opt.Learn) returns, byte for byte in the rules file, when nothing was
// retracted: Learn also widens query parameters across sites, which the per-site sets that
// Normalize uses do not. A later relearn may choose some targets by the rules before it (see
// keptTargets). No site relearned is ErrNoClusters.
func (o *Online) Set() (*rules.Set, Stats, error) {
	var res []SiteResult
	retracted := map[string]bool{}
	o.sites.Range(func(_, v any) bool {
		s := v.(*onlineSite)
		s.mu.Lock()
		if s.result != nil {
			res = append(res, *s.result)
		}
		for c := range s.retracted {
			retracted[c] = true
		}
		s.mu.Unlock()
		return true
	})
	set, st, err := Assemble(res, o.opt.Learn)
	if err != nil || len(retracted) == 0 {
		return set, st, err
	}
	var keep []rules.Rule
	for i := range set.Len() {
		r := set.Rule(i)
		if !retracted[contentKey(r)] {
			keep = append(keep, r)
		}
	}
	set, err = rules.NewSet(keep, set.Options())
	return set, st, err
}

// OnlineStats counts what an Online learner saw and did. It is a plain value.
type OnlineStats struct {
	Sites       int   // sites with evidence
	URLs        int64 // URLs kept as evidence
	BadURLs     int64 // observations of strings that are not absolute http(s) URLs
	Dropped     int64 // URLs not kept: over MaxURLs of their site or MaxClusterURLs of their page
	Relearns    int64 // site relearns
	RelearnURLs int64 // URLs learned from, summed over the relearns: the relearn work
	Rules       int   // rules in the sites' current sets
	// Verifications counts the uses that Verify asked to check, Confirmed and Mismatches the
	// outcomes Confirm was told, Retracted the rules retracted, and Reinstated the retractions
	// undone because the URL of their mismatch proved to serve an error page (see
	// ConfirmMatch).
	Verifications, Confirmed, Mismatches, Retracted, Reinstated int64
}

// Stats returns the learner's counters.
func (o *Online) Stats() OnlineStats {
	st := OnlineStats{
		URLs: o.stats.urls.Load(), BadURLs: o.stats.bad.Load(), Dropped: o.stats.dropped.Load(),
		Relearns: o.stats.relearns.Load(), RelearnURLs: o.stats.relearnURLs.Load(),
		Verifications: o.stats.verifications.Load(), Confirmed: o.stats.confirmed.Load(),
		Mismatches: o.stats.mismatches.Load(), Retracted: o.stats.retracts.Load(), Reinstated: o.stats.reinstated.Load(),
	}
	o.sites.Range(func(_, v any) bool {
		st.Sites++
		if cur := v.(*onlineSite).cur.Load(); cur != nil {
			st.Rules += cur.set.Len()
		}
		return true
	})
	return st
}

// Site returns the name of the site that the URL raw belongs to, as Online groups evidence
// (OnlineOptions.Site of its host), and false for a string that is not an absolute http(s) URL.
func (o *Online) Site(raw string) (string, bool) {
	p, ok := Prepare(raw)
	if !ok {
		return "", false
	}
	return o.opt.Site(hostOf(p)), true
}

// SiteSet returns the current rule set of site (nil before its first relearn): the set that
// Normalize applies to the site's URLs. It is immutable and safe for concurrent use.
func (o *Online) SiteSet(site string) *rules.Set {
	v, ok := o.sites.Load(site)
	if !ok {
		return nil
	}
	if cur := v.(*onlineSite).cur.Load(); cur != nil {
		return cur.set
	}
	return nil
}

// Retracted returns the rules that Confirm retracted, as "site<TAB>rule text" (the rule without
// its statistics), followed by "<TAB>in context "..."" for a rule retracted in one context
// only, sorted.
func (o *Online) Retracted() []string {
	var out []string
	o.sites.Range(func(_, v any) bool {
		s := v.(*onlineSite)
		s.mu.Lock()
		for c := range s.retracted {
			out = append(out, s.name+"\t"+c)
		}
		for c, ctxs := range s.outCtx {
			for ctx := range ctxs {
				out = append(out, s.name+"\t"+c+"\tin context \""+ctx+"\"")
			}
		}
		s.mu.Unlock()
		return true
	})
	slices.Sort(out)
	return out
}
