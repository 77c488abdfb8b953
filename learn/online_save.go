package learn

import (
	"cmp"
	"fmt"
	"github.com/undust/undust/internal/ablate"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/undust/undust/internal/binfile"
)

// The saved form of an Online learner (binfile: magic, version, body, CRC-32C):
//
//	stats     9 uvarints: URLs, bad, dropped, relearns, relearn URLs, verifications,
//	          confirmed, mismatches, retracted; then (version 9) retractions undone
//	hosts     count, then (host, site) string pairs, sorted by host
//	sites     count, then per site, sorted by name:
//	            name, next, learned, nextDup, queued, seq, snapSeq, published; then
//	              (version 10) the fresh duplicates since the last relearn (see freshDue)
//	              and the doublings of their count
//	            clusters: count, then (fp uint64, URL count, URLs), in first-seen order;
//	              a URL is (raw, importance float64, inlinks, seq, inferred)
//	            snapshot URLs dropped since: count, then (fp, raw, importance, inlinks)
//	            retracted rules: count, then rule texts, sorted
//	            rules retracted in contexts: count, then (rule text, count, contexts), sorted
//	            use counters: count, then (rule text, counter), sorted
//	            failed edits (version 4): count, then (edit, failures), sorted by edit
//	            kept targets of the last relearn (version 6): count, then (cluster ID,
//	              target), sorted by cluster ID
//	            series (version 6): count, then (path, fp uint64, fp uint64), sorted by path
//	            rule uses of the URLs skipped (version 7): count, then (URL, count, then
//	              (rule text, context) pairs in the order Skipped recorded them), sorted by URL
//	            failed tree families (version 8): count, then (segment, failures), sorted by
//	              segment
//	            pending mismatches (version 9, see exonerate): count, then per mismatch in
//	              the order they happened: the URL met, its page (fp uint64, 0 if not
//	              observed yet), the decisive rules counted: count, then (rule text,
//	              context) pairs; the tree families counted: count, then segments; the
//	              retractions: count, then (rule text, context, edit) triples; the parts
//	              that concern another site's rules or the widened rules' own counters
//	              are not saved
//	widened   count, then a counter per widened rule, in the widened set's order
//	due       count, then site names in the order they became due
//
// A counter is uses, confirmed, checks, failures, the sampling credit (float64), then its
// contexts: count, then (context, uses) pairs sorted by context; then (version 5) the checks
// the credit alone asked for and not made yet, and the checks in each context: count, then
// (context, checks) pairs sorted by context. Version 3 files, without the failed edits, are
// read as a learner whose retracted rules marked no edit; version 3 and 4 files as counters
// without checks asked or made in any context; version 3 to 5 files as sites whose last
// relearn kept no target; version 3 to 6 files as sites whose skipped URLs rest on rules not
// known, which a mismatch drops (see dropInferred); version 3 to 7 files as sites whose tree
// swaps failed no check; version 3 to 8 files as learners without pending mismatches, whose
// retractions stand; version 3 to 9 files as sites whose fresh duplicates are the observed URLs
// kept after the last relearn's snapshot that joined a page with URLs, their count not doubled. Version 1 and 2 files (a counter without checks, failures and credit,
// before verification by a bound on a rule's error rate) are refused with binfile.ErrVersion.
// Rule sets are not saved: ReadFrom learns each site's last snapshot again, with the targets
// that its last relearn kept (see keptTargets), which gives the same rules, since LearnSite
// depends only on the clusters, the options and those targets.
const (
	onlineMagic   = "UDONLIN\n"
	onlineVersion = 10
	onlinePrefix  = "learn: online state"
)

// Limits of a saved Online that ReadFrom checks as it reads: a longer string or a larger count
// is an error before anything is allocated for it.
const (
	maxSavedString  = 1 << 16 // a URL, host, site name, rule text or context
	maxSavedCount   = 1 << 28 // hosts, sites, clusters, URLs of a cluster, rules, contexts
	maxSavedCounter = math.MaxInt
)

// WriteTo writes the learner's state to w: every site's evidence, relearn schedule, retracted
// rules and verification counters, so that ReadFrom of an Online with the same options resumes
// where it stopped (io.WriterTo). It locks one site at a time: called while a crawler goes on
// with the learner, it saves each site as it was at some moment of the call. The file is about
// the size of the evidence's URL strings plus 20 bytes a URL.
func (o *Online) WriteTo(w io.Writer) (int64, error) {
	x := binfile.NewWriter(w, onlineMagic, onlineVersion)
	for _, v := range []int64{o.stats.urls.Load(), o.stats.bad.Load(), o.stats.dropped.Load(),
		o.stats.relearns.Load(), o.stats.relearnURLs.Load(), o.stats.verifications.Load(),
		o.stats.confirmed.Load(), o.stats.mismatches.Load(), o.stats.retracts.Load(), o.stats.reinstated.Load()} {
		x.Uvarint(uint64(v))
	}

	type hostSite struct{ host, site string }
	var hosts []hostSite
	o.hosts.Range(func(k, v any) bool {
		hosts = append(hosts, hostSite{k.(string), v.(*onlineSite).name})
		return true
	})
	slices.SortFunc(hosts, func(a, b hostSite) int { return cmp.Compare(a.host, b.host) })
	x.Uvarint(uint64(len(hosts)))
	for _, h := range hosts {
		x.String(h.host)
		x.String(h.site)
	}

	sites := o.sortedSites()
	x.Uvarint(uint64(len(sites)))
	for _, s := range sites {
		s.learning.Lock() // not between a relearn's snapshot and its result
		s.mu.Lock()
		s.writeTo(x)
		s.mu.Unlock()
		s.learning.Unlock()
	}

	if g := o.global.Load(); g != nil {
		x.Uvarint(uint64(len(g.ver.uses)))
		for _, c := range g.ver.uses {
			c.writeTo(x)
		}
	} else {
		x.Uvarint(0)
	}

	o.mu.Lock()
	due := make([]string, len(o.due))
	for i, s := range o.due {
		due[i] = s.name
	}
	o.mu.Unlock()
	x.Uvarint(uint64(len(due)))
	for _, d := range due {
		x.String(d)
	}
	return x.Close()
}

func (o *Online) sortedSites() []*onlineSite {
	var sites []*onlineSite
	o.sites.Range(func(_, v any) bool {
		sites = append(sites, v.(*onlineSite))
		return true
	})
	slices.SortFunc(sites, func(a, b *onlineSite) int { return cmp.Compare(a.name, b.name) })
	return sites
}

// writeTo writes the site. s.mu is held.
func (s *onlineSite) writeTo(x *binfile.Writer) {
	x.String(s.name)
	x.Uvarint(uint64(s.next))
	x.Uvarint(uint64(s.learned))
	x.Uvarint(uint64(s.nextDup))
	x.Bool(s.queued)
	x.Uvarint(s.seq)
	x.Uvarint(s.snapSeq)
	x.Bool(s.cur.Load() != nil)
	x.Uvarint(uint64(s.fresh))
	x.Uvarint(uint64(s.freshOff))
	x.Uvarint(uint64(len(s.order)))
	for _, fp := range s.order {
		c := s.clusters[fp]
		x.Uint64(fp)
		x.Uvarint(uint64(len(c.URLs)))
		for _, u := range c.URLs {
			writeURL(x, u)
			x.Uvarint(s.byURL[u.Raw].seq)
			x.Bool(s.inferred[u.Raw])
		}
	}
	x.Uvarint(uint64(len(s.snapDropped)))
	for _, d := range s.snapDropped {
		x.Uint64(d.fp)
		writeURL(x, d.u)
	}
	ret := slices.Sorted(maps.Keys(s.retracted))
	x.Uvarint(uint64(len(ret)))
	for _, r := range ret {
		x.String(r)
	}
	out := slices.Sorted(maps.Keys(s.outCtx))
	x.Uvarint(uint64(len(out)))
	for _, r := range out {
		x.String(r)
		ctxs := slices.Sorted(maps.Keys(s.outCtx[r]))
		x.Uvarint(uint64(len(ctxs)))
		for _, c := range ctxs {
			x.String(c)
		}
	}
	keys := slices.Sorted(maps.Keys(s.counters))
	x.Uvarint(uint64(len(keys)))
	for _, k := range keys {
		x.String(k)
		s.counters[k].writeTo(x)
	}
	writeCounts(x, &s.editFails)
	ids := slices.Sorted(maps.Keys(s.snapKept))
	x.Uvarint(uint64(len(ids)))
	for _, id := range ids {
		x.String(id)
		x.String(s.snapKept[id])
	}
	paths := slices.Sorted(maps.Keys(s.series))
	x.Uvarint(uint64(len(paths)))
	for _, p := range paths {
		x.String(p)
		x.Uint64(s.series[p][0])
		x.Uint64(s.series[p][1])
	}
	urls := slices.Sorted(maps.Keys(s.rested))
	x.Uvarint(uint64(len(urls)))
	for _, u := range urls {
		x.String(u)
		x.Uvarint(uint64(len(s.rested[u])))
		for _, use := range s.rested[u] {
			x.String(use.rule)
			x.String(use.ctx)
		}
	}
	writeCounts(x, &s.treeFails)
	s.writeSuspects(x)
}

// writeCounts writes m, of string keys and *atomic.Int64 values: its count, then (key, value)
// pairs sorted by key, leaving out the keys whose value is 0 (a failure undone; see exonerate).
func writeCounts(x *binfile.Writer, m *sync.Map) {
	type count struct {
		key string
		n   int64
	}
	var all []count
	m.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Load(); n > 0 {
			all = append(all, count{k.(string), n})
		}
		return true
	})
	slices.SortFunc(all, func(a, b count) int { return cmp.Compare(a.key, b.key) })
	x.Uvarint(uint64(len(all)))
	for _, e := range all {
		x.String(e.key)
		x.Uvarint(uint64(e.n))
	}
}

func writeURL(x *binfile.Writer, u URL) {
	x.String(u.Raw)
	x.Float64(u.Importance)
	x.Uvarint(uint64(u.Inlinks))
}

func (c *ruleCounter) writeTo(x *binfile.Writer) {
	x.Uvarint(uint64(c.uses.Load()))
	x.Uvarint(uint64(c.confirmed.Load()))
	x.Uvarint(uint64(c.checks.Load()))
	x.Uvarint(uint64(c.fails.Load()))
	c.mu.Lock()
	x.Float64(c.credit)
	c.mu.Unlock()
	writeCounts(x, &c.ctx)
	x.Uvarint(uint64(c.sampled.Load()))
	writeCounts(x, &c.ctxChecks)
}

// ReadFrom loads a state that WriteTo saved into o, which must be new (no evidence, never
// used), and relearns each site's last snapshot, so that o goes on as the saved learner would
// have: the same keys, the same verifications, the same relearns, given the same options (o's;
// the options are not saved, and a Site function that names sites otherwise gives other
// sites). It implements io.ReaderFrom; it reads exactly the saved bytes. On error, o is left
// without evidence and the error is a *binfile.Error naming the byte and what was wrong
// (errors.Is binfile.ErrCorrupt, ErrLimit, ErrFormat, ErrVersion or io.ErrUnexpectedEOF).
// Memory grows with the bytes read, not with counts the input claims; the relearns cost what
// the saved learner's last relearns cost.
func (o *Online) ReadFrom(r io.Reader) (int64, error) {
	used := false
	o.sites.Range(func(_, _ any) bool { used = true; return false })
	if used || o.stats.urls.Load() != 0 || o.global.Load() != nil {
		return 0, fmt.Errorf("%s: ReadFrom needs a new Online", onlinePrefix)
	}
	x, v, err := binfile.NewReader(r, onlinePrefix, onlineMagic, onlineVersion)
	if err != nil {
		return 0, err
	}
	if v < 3 {
		x.Fail(fmt.Sprintf("version %d: use counters without checks and failures, from before verification by a bound on a rule's error rate", v), binfile.ErrVersion)
		return x.Offset(), x.Err()
	}
	var st [10]int64
	for i := range st {
		if i < 9 || v >= 9 {
			st[i] = int64(x.Count(maxSavedCounter, "counter"))
		}
	}

	hosts := map[string]string{}
	for range each(x, "hosts") {
		h := x.String(maxSavedString, "host")
		hosts[h] = x.String(maxSavedString, "site")
	}
	sites := map[string]*onlineSite{}
	var published []*onlineSite
	var prev string
	for i := range each(x, "sites") {
		s, pub := o.readSite(x, v)
		if x.Err() != nil {
			break
		}
		if i > 0 && s.name <= prev {
			x.Fail(fmt.Sprintf("site %q after %q", s.name, prev), binfile.ErrCorrupt)
			break
		}
		prev = s.name
		sites[s.name] = s
		if pub {
			published = append(published, s)
		}
	}
	for h, name := range hosts {
		if sites[name] == nil {
			x.Fail(fmt.Sprintf("host %q of site %q, which has no state", h, name), binfile.ErrCorrupt)
			break
		}
	}
	var widened []*ruleCounter
	for range each(x, "widened rules") {
		widened = append(widened, readCounter(x, v))
	}
	var due []*onlineSite
	for range each(x, "due sites") {
		name := x.String(maxSavedString, "site")
		if x.Err() == nil && sites[name] == nil {
			x.Fail(fmt.Sprintf("due site %q has no state", name), binfile.ErrCorrupt)
		}
		due = append(due, sites[name])
	}
	if err := x.Close(); err != nil {
		return x.Offset(), err
	}

	// The rules: each site's last snapshot learned again, then the widened rules from the
	// results, as the saved learner's last relearns left them.
	for _, s := range sites {
		o.sites.Store(s.name, s)
		if s.learned > 0 {
			o.relearnSnapshot(s)
		}
	}
	for h, name := range hosts {
		o.hosts.Store(h, sites[name])
	}
	if !o.widenLoaded(widened) {
		o.sites.Clear()
		o.hosts.Clear()
		o.global.Store(nil)
		return x.Offset(), &binfile.Error{Prefix: onlinePrefix, Offset: x.Offset(),
			Detail: fmt.Sprintf("%d widened rule counters for the rules the sites widen", len(widened)),
			Err:    binfile.ErrCorrupt}
	}
	g := o.global.Load()
	for _, s := range published {
		s.publish(g)
	}
	o.due = due
	for i, p := range []*atomic.Int64{&o.stats.urls, &o.stats.bad, &o.stats.dropped,
		&o.stats.relearns, &o.stats.relearnURLs, &o.stats.verifications, &o.stats.confirmed,
		&o.stats.mismatches, &o.stats.retracts, &o.stats.reinstated} {
		p.Store(st[i])
	}
	if len(due) > 0 {
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
	return x.Offset(), nil
}

// readSite reads a site of a file of version v and whether it had published rules.
func (o *Online) readSite(x *binfile.Reader, v uint64) (*onlineSite, bool) {
	s := &onlineSite{name: x.String(maxSavedString, "site"), published: o.opt.Published,
		clusters: map[uint64]*Cluster{}, byURL: map[string]urlMark{}, inferred: map[string]bool{}, rested: map[string][]ruleUse{},
		prepared: map[string]string{}, retracted: map[string]bool{}, counters: map[string]*ruleCounter{}, outCtx: map[string]map[string]bool{},
		suspectIn: map[string][]*suspect{}, suspectFP: map[uint64]int{}}
	s.next = x.Count(maxSavedCount, "next relearn")
	s.learned = x.Count(maxSavedCount, "URLs at the last relearn")
	s.nextDup = x.Count(maxSavedCount, "next relearn by duplicates")
	s.queued = x.Bool()
	s.seq = uint64(x.Count(maxSavedCounter, "sequence"))
	s.snapSeq = uint64(x.Count(maxSavedCounter, "snapshot sequence"))
	pub := x.Bool()
	if v >= 10 {
		s.fresh = x.Count(maxSavedCount, "fresh duplicates")
		s.freshOff = uint8(x.Count(maxFreshOff, "doublings of the fresh duplicates' count"))
	}
	type marked struct {
		raw      string
		fp, seq  uint64
		inferred bool
	}
	var marks []marked
	for range each(x, "clusters") {
		fp := x.Uint64()
		if _, dup := s.clusters[fp]; dup && x.Err() == nil {
			x.Fail(fmt.Sprintf("cluster %016x twice", fp), binfile.ErrCorrupt)
		}
		c := &Cluster{ID: OnlineClusterID(s.name, fp), Site: s.name}
		for range each(x, "URLs of a cluster") {
			u := readURL(x)
			seq := uint64(x.Count(maxSavedCounter, "URL sequence"))
			inferred := x.Bool()
			if x.Err() != nil {
				break
			}
			if _, dup := s.byURL[u.Raw]; dup || seq >= s.seq {
				x.Fail(fmt.Sprintf("URL %q twice or numbered %d of %d", u.Raw, seq, s.seq), binfile.ErrCorrupt)
				break
			}
			c.URLs = append(c.URLs, u)
			s.byURL[u.Raw] = urlMark{fp: fp, seq: seq}
			marks = append(marks, marked{u.Raw, fp, seq, inferred})
		}
		if x.Err() != nil {
			break
		}
		if len(c.URLs) == 0 {
			x.Fail(fmt.Sprintf("cluster %016x without URLs", fp), binfile.ErrCorrupt)
			break
		}
		s.clusters[fp] = c
		s.order = append(s.order, fp)
	}
	// The URLs are marked in the order they were kept: a site's first URL of a prepared form
	// and of a path with a query (see mark) are those of the crawl, not of the clusters' order.
	slices.SortFunc(marks, func(a, b marked) int { return cmp.Compare(a.seq, b.seq) })
	for _, m := range marks {
		s.mark(m.raw, m.fp, m.seq, m.inferred)
	}
	s.n = len(s.byURL)
	for _, c := range s.clusters {
		s.dups += len(c.URLs) - 1
		for i, u := range c.URLs {
			if !s.inferred[u.Raw] && s.abbreviates(c.URLs[:i], u.Raw) {
				s.evident++
			}
			// Files before version 10 did not save the fresh duplicates since the last relearn
			// (see freshDue): the observed URLs kept after its snapshot that joined a page.
			if v < 10 && i > 0 && !s.inferred[u.Raw] && s.byURL[u.Raw].seq >= s.snapSeq {
				s.fresh++
			}
			// The URLs of each shape since the last relearn (see burstDue) are not saved: the
			// observed URLs kept after its snapshot.
			if !ablate.NoBurstDue && !s.inferred[u.Raw] && s.byURL[u.Raw].seq >= s.snapSeq {
				s.countShape(u.Raw, i > 0, o.opt.Learn.MinPrecision, o.opt.MinDups)
			}
		}
	}
	// The abbreviation pairs are not saved: counted again from the clusters, they make the site
	// due again once they have grown by Growth since the load.
	s.nextEv = nextAbbrev(s.evident, o.opt.Growth)
	for range each(x, "dropped URLs") {
		fp := x.Uint64()
		s.snapDropped = append(s.snapDropped, droppedURL{fp: fp, u: readURL(x)})
	}
	for range each(x, "retracted rules") {
		s.retracted[x.String(maxSavedString, "rule")] = true
	}
	for range each(x, "rules retracted in contexts") {
		r := x.String(maxSavedString, "rule")
		m := map[string]bool{}
		for range each(x, "contexts") {
			m[x.String(maxSavedString, "context")] = true
		}
		s.outCtx[r] = m
	}
	for range each(x, "rule counters") {
		k := x.String(maxSavedString, "rule")
		s.counters[k] = readCounter(x, v)
	}
	if v >= 4 {
		readFailures(x, &s.editFails, "failed edit")
	}
	if v >= 6 {
		prev := ""
		for i := range each(x, "kept targets") {
			id, k := x.String(maxSavedString, "cluster ID"), x.String(maxSavedString, "target")
			if x.Err() != nil {
				break
			}
			if id == "" || k == "" || i > 0 && id <= prev {
				x.Fail(fmt.Sprintf("kept target %q of cluster %q after %q", k, id, prev), binfile.ErrCorrupt)
				break
			}
			prev = id
			if s.snapKept == nil {
				s.snapKept = map[string]string{}
			}
			s.snapKept[id] = k
		}
		// The series as the crawl recorded them: a page joined to another since (see Join)
		// may still be one of a path's two pages, which marking the kept URLs again would not
		// give.
		series := map[string][2]uint64{}
		prev = ""
		for i := range each(x, "series") {
			p, a, b := x.String(maxSavedString, "path"), x.Uint64(), x.Uint64()
			if x.Err() != nil {
				break
			}
			if p == "" || a == 0 || a == b || i > 0 && p <= prev {
				x.Fail(fmt.Sprintf("series %q (%016x, %016x) after %q", p, a, b, prev), binfile.ErrCorrupt)
				break
			}
			prev = p
			series[p] = [2]uint64{a, b}
		}
		s.series = series
	}
	if v >= 7 {
		// The rule uses that the skipped URLs rest on, so that a mismatch drops from the
		// evidence the same URLs as in a learner that was not stopped.
		prev := ""
		for i := range each(x, "skipped URLs") {
			u, n := x.String(maxSavedString, "URL"), x.Count(maxSavedCount, "rule uses")
			if x.Err() != nil {
				break
			}
			if !s.inferred[u] || i > 0 && u <= prev {
				x.Fail(fmt.Sprintf("rule uses of %q after %q, which is no skipped URL of the site", u, prev), binfile.ErrCorrupt)
				break
			}
			prev = u
			uses := make([]ruleUse, 0, min(n, 64))
			for range n {
				r, c := x.String(maxSavedString, "rule text"), x.String(maxSavedString, "context")
				if x.Err() != nil {
					break
				}
				uses = append(uses, ruleUse{r, c})
			}
			s.rested[u] = uses
		}
	}
	if v >= 8 {
		readFailures(x, &s.treeFails, "failed tree family")
	}
	if v >= 9 {
		s.readSuspects(x)
	}
	if x.Err() == nil && (s.learned > s.n+len(s.snapDropped) || s.snapSeq > s.seq) {
		x.Fail(fmt.Sprintf("site %q: %d URLs at its last relearn of %d", s.name, s.learned, s.n), binfile.ErrCorrupt)
	}
	return s, pub
}

// each returns the count that x reads (Count with maxSavedCount) as a sequence 0, 1, ... that
// stops at x's first error: a damaged count followed by the end of the file costs one step,
// not a loop over the count the file claims.
func each(x *binfile.Reader, what string) iter.Seq[int] {
	n := x.Count(maxSavedCount, what)
	return func(yield func(int) bool) {
		for i := 0; i < n && x.Err() == nil; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// readFailures reads into m what writeCounts wrote of counts of failures: a count, then (key,
// failures) pairs, the keys non-empty and sorted, the failures at least 1. what names a key in
// errors ("failed edit").
func readFailures(x *binfile.Reader, m *sync.Map, what string) {
	prev := ""
	for i := range each(x, what+"s") {
		k := x.String(maxSavedString, what)
		n := x.Count(maxSavedCounter, "failures of a "+what)
		if x.Err() != nil {
			return
		}
		if k == "" || n == 0 || i > 0 && k <= prev {
			x.Fail(fmt.Sprintf("%s %q (%d failures) after %q", what, k, n, prev), binfile.ErrCorrupt)
			return
		}
		prev = k
		c := new(atomic.Int64)
		c.Store(int64(n))
		m.Store(k, c)
	}
}

func readURL(x *binfile.Reader) URL {
	return URL{Raw: x.String(maxSavedString, "URL"), Importance: x.Float64(),
		Inlinks: x.Count(maxSavedCount, "in-links")}
}

func readCounter(x *binfile.Reader, v uint64) *ruleCounter {
	c := &ruleCounter{}
	c.uses.Store(int64(x.Count(maxSavedCounter, "uses")))
	c.confirmed.Store(int64(x.Count(maxSavedCounter, "confirmations")))
	c.checks.Store(int64(x.Count(maxSavedCounter, "checks")))
	c.fails.Store(int64(x.Count(maxSavedCounter, "failures")))
	if c.checks.Load() != c.confirmed.Load()+c.fails.Load() {
		x.Fail("checks other than confirmations and failures", binfile.ErrCorrupt)
	}
	if c.credit = x.Float64(); c.credit < 0 || c.credit >= 2 {
		x.Fail(fmt.Sprintf("sampling credit %v", c.credit), binfile.ErrCorrupt)
	}
	for range each(x, "contexts") {
		ctx := x.String(maxSavedString, "context")
		n := new(atomic.Int64)
		n.Store(int64(x.Count(maxSavedCounter, "uses in a context")))
		c.ctx.Store(ctx, n)
	}
	if v >= 5 {
		c.sampled.Store(int64(x.Count(maxSavedCounter, "checks asked by the credit")))
		for range each(x, "contexts checked") {
			ctx := x.String(maxSavedString, "context")
			n := new(atomic.Int64)
			n.Store(int64(x.Count(maxSavedCounter, "checks in a context")))
			c.ctxChecks.Store(ctx, n)
		}
	}
	return c
}

// relearnSnapshot learns a loaded site's last snapshot again, as its last relearn did, without
// counting a relearn or publishing.
func (o *Online) relearnSnapshot(s *onlineSite) {
	var cls []Cluster
	at := map[uint64]int{}
	add := func(fp uint64, u URL) {
		i, ok := at[fp]
		if !ok {
			i = len(cls)
			at[fp] = i
			cls = append(cls, Cluster{ID: OnlineClusterID(s.name, fp), Site: s.name})
		}
		cls[i].URLs = append(cls[i].URLs, u)
	}
	for _, fp := range s.order {
		for _, u := range s.clusters[fp].URLs {
			if s.byURL[u.Raw].seq < s.snapSeq {
				add(fp, u)
			}
		}
	}
	for _, d := range s.snapDropped {
		add(d.fp, d.u)
	}
	opt := o.opt.Learn
	opt.Workers = 1
	opt.kept = s.snapKept
	res := LearnSite(s.name, cls, opt)
	set, _, err := Assemble([]SiteResult{res}, opt)
	if err != nil {
		return
	}
	s.result, s.base, s.words, s.params, s.pairsDue = &res, set, siteWords(cls), ruleParams(set, cls), true
}

// widenLoaded makes the widened rules of the loaded sites' results, as updateWiden does, with
// the saved counters of their uses, and reports whether there is a counter for each.
func (o *Online) widenLoaded(counters []*ruleCounter) bool {
	o.updateWiden()
	g := o.global.Load()
	if g == nil {
		return len(counters) == 0
	}
	if len(counters) != len(g.ver.uses) {
		return false
	}
	copy(g.ver.uses, counters)
	return true
}
