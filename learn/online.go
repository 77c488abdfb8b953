package learn

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/publicsuffix"

	"github.com/undust/undust/rules"
)

// OnlineOptions configure an Online learner. The zero value means the defaults given per field;
// NewOnline copies it.
type OnlineOptions struct {
	// Learn are the options of every relearn of a site (LearnSite, then Assemble of the one
	// site). Learn.Workers is not used: a relearn is one site, learned by one goroutine.
	Learn Options
	// MinURLs is the number of URLs a site must have before its first relearn (default 16).
	MinURLs int
	// Growth is the factor by which a site's URLs must grow after a relearn before the next one
	// (default 1.5, at least 1.05): a site of n URLs is relearned O(log n) times and the URLs
	// learned over all its relearns add up to at most n·Growth/(Growth-1).
	Growth float64
	// MaxURLs bounds the URLs kept per site (default 50000); later URLs of the site are counted
	// in OnlineStats.Dropped and not kept. Together with MaxClusterURLs it bounds a site's
	// memory to O(MaxURLs) URLs and its relearn to the cost of learning MaxURLs URLs.
	MaxURLs int
	// MaxClusterURLs bounds the URLs kept per page (fingerprint) of a site (default 64, twice
	// the sources a cluster gives the learner by default): a page with hundreds of session
	// variants teaches nothing more after a few dozen.
	MaxClusterURLs int
	// VerifyFirst is the number of first uses of each rule that Verify asks the crawler to
	// check by fetching (default 3; negative: none).
	VerifyFirst int
	// VerifyEvery makes Verify ask for a check of one use in VerifyEvery after the first
	// VerifyFirst (default 50; negative: none).
	VerifyEvery int
	// Site names the site of a host: the unit that evidence is kept, rules are learned and
	// sets are published for. Nil means the host's registrable domain (public suffix + 1,
	// "www.example.co.uk" -> "example.co.uk"), or the host itself when it has none (an IP
	// address, a bare public suffix): a site's duplicates span www and bare host, http and
	// https, and mobile sub-domains of one domain. Mirror and short-link domains are other
	// sites. It must be safe for concurrent use and give the same site for a host every time.
	Site func(host string) string
}

func (o OnlineOptions) withDefaults() OnlineOptions {
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
		o.VerifyFirst = 3
	}
	if o.VerifyEvery == 0 {
		o.VerifyEvery = 50
	}
	if o.Site == nil {
		o.Site = registrableDomain
	}
	return o
}

func registrableDomain(h string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
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
// each time they have grown by the factor Growth since the last relearn; so a site of n URLs is
// relearned O(log n) times and the total relearn work is O(n log n) for learning stages that
// are O(n log n) themselves. A relearn is LearnSite and Assemble on the site's clusters, which
// are cluster ids "SITE-FINGERPRINT" (16 hex digits): fed the same evidence, Online gives the
// rules Learn gives for those clusters (see Set).
//
// Relearning never runs on the path of Normalize: Observe only queues a site that is due, and
// the queue is drained by Relearn, called by the crawler when it chooses (deterministic), or by
// Run in a goroutine of its own. Each site's current rules are an immutable rules.Set published
// through an atomic pointer, so Normalize and Key take no lock and never wait for a relearn;
// they see the new rules from the moment they are published.
//
// Rules correct themselves at crawl time (Verify, Confirm): before the crawler skips a URL
// because a rule rewrote it to the key of a page already fetched, Verify says whether to fetch
// it anyway, for the first VerifyFirst uses of each rule and one use in VerifyEvery after that.
// If the fetched page differs from the page the key names, Confirm retracts the rules that
// rewrote the URL from the site's set at once, and later relearns of the site leave them out.
//
// The zero Online is not usable; make one with NewOnline. All methods are safe for concurrent
// use. Online keeps the URL strings it is given.
type Online struct {
	opt   OnlineOptions
	sites sync.Map // site name -> *onlineSite
	hosts sync.Map // host -> *onlineSite, the cache of opt.Site for hosts with evidence

	mu   sync.Mutex // guards due
	due  []*onlineSite
	wake chan struct{} // one pending signal for Run

	stats struct {
		urls, bad, dropped, relearns, relearnURLs      atomic.Int64
		verifications, confirmed, mismatches, retracts atomic.Int64
	}
}

// NewOnline returns an Online learner with no evidence and no rules: its Normalize is urlnorm's
// Crawler key until the first relearn.
func NewOnline(opt OnlineOptions) *Online {
	return &Online{opt: opt.withDefaults(), wake: make(chan struct{}, 1)}
}

// onlineSite is one site's evidence and current rules.
type onlineSite struct {
	name string
	cur  atomic.Pointer[siteVersion] // nil until the first relearn

	learning sync.Mutex // held by the relearn of the site, so that relearns of a site do not overlap

	mu        sync.Mutex // guards the fields below; never taken by Normalize or Key
	clusters  map[uint64]*Cluster
	order     []uint64          // fingerprints in first-seen order
	byURL     map[string]uint64 // the fingerprint of each kept URL
	n         int               // URLs kept
	next      int               // relearn due when n reaches next
	learned   int               // n at the last relearn
	queued    bool
	result    *SiteResult             // of the last relearn
	retracted map[string]bool         // content of retracted rules
	counters  map[string]*ruleCounter // use counters by rule content, kept across relearns
}

// A siteVersion is one published rule set of a site with the use counter of each of its rules.
type siteVersion struct {
	site *onlineSite
	set  *rules.Set
	uses []*ruleCounter
}

type ruleCounter struct{ uses atomic.Int64 }

// contentKey is a rule's text without its statistics: the rule's identity across relearns.
func contentKey(r rules.Rule) string {
	r.Stats = rules.Stats{}
	return r.String()
}

// hostOf returns the host of a URL in Prepare's form: scheme://host[:port]/...
func hostOf(p string) string {
	i := strings.Index(p, "://")
	if i < 0 {
		return ""
	}
	h := p[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, ':'); j >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:j]
	}
	return h
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
	s, _ := o.sites.LoadOrStore(name, &onlineSite{name: name, next: o.opt.MinURLs,
		clusters: map[uint64]*Cluster{}, byURL: map[string]uint64{},
		retracted: map[string]bool{}, counters: map[string]*ruleCounter{}})
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
	s := o.site(hostOf(p), false)
	if s == nil {
		return p, nil
	}
	v := s.cur.Load()
	if v == nil {
		return p, nil
	}
	k, err := v.set.Normalize(p)
	if err != nil {
		return p, err
	}
	return k, nil
}

// Key is Normalize that also says which rules made the key, for Verify and Confirm.
func (o *Online) Key(raw string) (Key, error) {
	p, ok := Prepare(raw)
	if !ok {
		return Key{}, ErrNotURL
	}
	s := o.site(hostOf(p), false)
	if s == nil {
		return Key{Key: p}, nil
	}
	v := s.cur.Load()
	if v == nil {
		return Key{Key: p}, nil
	}
	k, used, err := v.set.NormalizeTrace(nil, p)
	if err != nil {
		return Key{Key: p}, err
	}
	return Key{Key: k, in: p, ver: v, used: used}, nil
}

// Verify is called when the crawler would skip a URL because its key k names a page it has
// fetched. It counts a use of each rule that made the key and reports whether the crawler
// should fetch the URL anyway to check them: for a rule's first VerifyFirst uses and one use
// in VerifyEvery after that. A key no rule made is never verified. The crawler then compares
// the fetched page's fingerprint with that of the page the key names and calls Confirm.
func (o *Online) Verify(k Key) bool {
	if len(k.used) == 0 {
		return false
	}
	check := false
	for _, i := range k.used {
		n := k.ver.uses[i].uses.Add(1)
		if n <= int64(o.opt.VerifyFirst) || (o.opt.VerifyEvery > 0 && n%int64(o.opt.VerifyEvery) == 0) {
			check = true
		}
	}
	if check {
		o.stats.verifications.Add(1)
	}
	return check
}

// Confirm reports the outcome of a check that Verify asked for: same says whether the URL of
// k served the page its key names. A mismatch retracts every rule that made k from its site's
// current set at once (a new set is published without them), then any other rule that makes
// the same key of the URL, and leaves them out of every later relearn of the site; the crawler keeps the URL as a new page and should Observe it.
func (o *Online) Confirm(k Key, same bool) {
	if len(k.used) == 0 {
		return
	}
	if same {
		o.stats.confirmed.Add(1)
		return
	}
	o.stats.mismatches.Add(1)
	s := k.ver.site
	s.mu.Lock()
	defer s.mu.Unlock()
	ver, used := k.ver, k.used
	for range rules.DefaultMaxRewrites {
		for _, i := range used {
			c := contentKey(ver.set.Rule(i))
			if !s.retracted[c] {
				s.retracted[c] = true
				o.stats.retracts.Add(1)
			}
		}
		cur := s.cur.Load()
		if cur == nil {
			return
		}
		s.publish(cur.set)
		// Another rule may make the same key (a site-wide "delete t" behind the rule that
		// deletes t on one path): it rests on the same mistaken merge and goes too.
		ver = s.cur.Load()
		key, u, err := ver.set.NormalizeTrace(used[:0:0], k.in)
		if err != nil || key != k.Key || len(u) == 0 {
			return
		}
		used = u
	}
}

// publish makes set, less the retracted rules, the site's current set. s.mu must be held.
func (s *onlineSite) publish(set *rules.Set) {
	keep := make([]rules.Rule, 0, set.Len())
	keys := make([]string, 0, set.Len())
	for i := range set.Len() {
		r := set.Rule(i)
		c := contentKey(r)
		if !s.retracted[c] {
			keep = append(keep, r)
			keys = append(keys, c)
		}
	}
	if len(keep) < set.Len() {
		var err error
		if set, err = rules.NewSet(keep, set.Options()); err != nil {
			return // a subset of a valid set is valid; keep the current version if not
		}
	}
	v := &siteVersion{site: s, set: set, uses: make([]*ruleCounter, set.Len())}
	for i := range set.Len() {
		// NewSet orders by precedence, which the subset keeps: rule i is keep[i].
		c := s.counters[keys[i]]
		if c == nil {
			c = &ruleCounter{}
			s.counters[keys[i]] = c
		}
		v.uses[i] = c
	}
	s.cur.Store(v)
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
	due := o.add(s, u, fp)
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
		fp, ok := s.byURL[a]
		if !ok {
			fp, ok = s.byURL[b]
		}
		if !ok {
			fp = syntheticFingerprint(pa)
		}
		d1 := o.add(s, URL{Raw: a}, fp)
		d2 := o.add(s, URL{Raw: b}, fp)
		s.mu.Unlock()
		if d1 || d2 {
			o.enqueue(s)
		}
		if hostOf(pa) == hostOf(pb) || o.opt.Site(hostOf(pa)) == o.opt.Site(hostOf(pb)) {
			break
		}
	}
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
func (o *Online) add(s *onlineSite, u URL, fp uint64) bool {
	if _, ok := s.byURL[u.Raw]; ok {
		return false
	}
	c := s.clusters[fp]
	if s.n >= o.opt.MaxURLs || (c != nil && len(c.URLs) >= o.opt.MaxClusterURLs) {
		o.stats.dropped.Add(1)
		return false
	}
	if c == nil {
		c = &Cluster{ID: OnlineClusterID(s.name, fp), Site: s.name}
		s.clusters[fp] = c
		s.order = append(s.order, fp)
	}
	c.URLs = append(c.URLs, u)
	s.byURL[u.Raw] = fp
	s.n++
	o.stats.urls.Add(1)
	if s.n >= s.next && !s.queued {
		s.queued = true
		return true
	}
	return false
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
	if s.n == s.learned || (!force && s.n < s.next) {
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
	s.next = max(int(math.Ceil(float64(n)*o.opt.Growth)), n+1, o.opt.MinURLs)
	s.queued = false
	s.mu.Unlock()

	opt := o.opt.Learn
	opt.Workers = 1
	res := LearnSite(s.name, cls, opt)
	set, _, err := Assemble([]SiteResult{res}, opt)
	o.stats.relearns.Add(1)
	o.stats.relearnURLs.Add(int64(n))
	if err != nil {
		return true // no clusters: nothing to publish
	}
	s.mu.Lock()
	s.result = &res
	s.publish(set)
	s.mu.Unlock()
	return true
}

// Set returns the rule set of the evidence as of each site's last relearn: Assemble of the
// sites' last LearnSite results, with the options of the relearns. Rules retracted by Confirm
// are left out. Fed evidence that forms clusters C and relearned (RelearnAll), it is the set
// that Learn(C, opt.Learn) returns, byte for byte in the rules file, when nothing was
// retracted: Learn also widens query parameters across sites, which the per-site sets that
// Normalize uses do not. No site relearned is ErrNoClusters.
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
	// outcomes Confirm was told, and Retracted the rules retracted.
	Verifications, Confirmed, Mismatches, Retracted int64
}

// Stats returns the learner's counters.
func (o *Online) Stats() OnlineStats {
	st := OnlineStats{
		URLs: o.stats.urls.Load(), BadURLs: o.stats.bad.Load(), Dropped: o.stats.dropped.Load(),
		Relearns: o.stats.relearns.Load(), RelearnURLs: o.stats.relearnURLs.Load(),
		Verifications: o.stats.verifications.Load(), Confirmed: o.stats.confirmed.Load(),
		Mismatches: o.stats.mismatches.Load(), Retracted: o.stats.retracts.Load(),
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
