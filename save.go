package undust

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/undust/undust/internal/binfile"
)

// The saved form of a Crawl is three parts in a row, each a binfile state (magic, version,
// body, CRC-32C):
//
//	crawl     the Crawl's own state:
//	            flags: learner saved, templates saved, near-duplicate distance
//	            stats (21 uvarints), declarations made, holders released
//	            holders: count, then (URL, key hash uint64, page uvarint, state byte: 0 let
//	              through, 1 fetched, 2 failed, 3 page inferred, not fetched: holdInferred)
//	            keys: count, then (key hash uint64, value uvarint), by hash; the value is a
//	              holder's index, or a declaration's sequence number - 1 with bit 31 set
//	            verifications: count, then (URL, holder uvarint, key hash uint64, declared),
//	              by URL; then count, then (key hash uint64, URL hash uint64) of the check
//	              under way of a match to each key, by key hash
//	            declarations: count, then per site by name (site, uses, confirmed,
//	              withdrawn, count, then (URL, holder, key hash, seq, withdrawn))
//	            redirects: count, then (URL, count, source URLs), by URL
//	            retried: count, then the hashes (uint64) of the URLs given back to be fetched
//	              again after a failure, ascending
//	            displaced: count, then the fetched holders whose key another holds since a
//	              rekey (uvarint), ascending
//	            checked (version 9): count, then (URL hash uint64, holder uvarint) of the
//	              URLs fetched to check a match that found the page of the holder, by hash
//	            waiting: count, then (holder uvarint, count, URLs skipped as its duplicates),
//	              by holder; then count, then (URL hash uint64, holder uvarint) of those not
//	              asked about since, by hash
//	            check waits: count, then (URL hash uint64 of a verification, count, URLs
//	              skipped while it was under way), by hash
//	            pages: count, then (first holder + 1 or 0 and a URL, the number of its
//	              texts' SimHashes (0 to 2), each a uint64, the SimHash of its own text
//	              uint64, the earlier page it was found to be uvarint or 0);
//	              digests: count, then (digest uint64, page id uvarint with bit 31 set for
//	              a template text's), by digest
//	            young pages: count, then (page id uvarint, URL, body), oldest first
//	learner   learn.Online's saved form (Online.WriteTo), if the crawl learns online
//	templates the hosts that keep a template, least recently used first: count, then hosts;
//	          the hosts whose template was dropped: count, then hosts, sorted; then each
//	          template's htmltext.Site saved form, in the order of its host
const (
	crawlMagic   = "UDCRAWL\n"
	crawlVersion = 9
	crawlPrefix  = "undust: crawl state"
	// savedInferred is the saved state of a fetched holder whose page was inferred.
	savedInferred = 3
)

// Limits of a saved Crawl that ReadFrom checks as it reads.
const (
	maxSavedString = 1 << 16 // a URL, a site or host name
	maxSavedCount  = maxHolders
)

// WriteTo writes the crawl's state to w: the keys and the URLs that hold them, the pages kept,
// the verifications under way, what sites declared, each host's template and the learner, so
// that ReadFrom of a new Crawl with the same Options resumes the crawl (io.WriterTo). URLs let
// through and not reported by After are saved as such: after a restart, the crawler fetches them
// again (Before answers Fetch) or reports them failed. Call it when no Before or After runs: the
// parts are each consistent, but a call that runs meanwhile may fall between them.
func (c *Crawl) WriteTo(w io.Writer) (int64, error) {
	c.rekey()
	bw := bufio.NewWriter(w)
	c.mu.Lock()
	x := binfile.NewWriter(bw, crawlMagic, crawlVersion)
	x.Bool(c.online != nil)
	x.Bool(!c.opt.NoTemplates && !c.opt.NoContent)
	x.Int(int64(c.opt.NearK))
	for _, v := range c.statsFields() {
		x.Uvarint(uint64(*v))
	}
	x.Uvarint(uint64(len(c.decls)))
	x.Uvarint(uint64(c.released))
	x.Uvarint(uint64(c.holders.len()))
	var buf []byte
	for i := range uint32(c.holders.len()) {
		h := c.holders.at(i)
		buf = c.appendURL(buf[:0], i)
		x.String(string(buf))
		x.Uint64(h.key)
		x.Uvarint(uint64(h.page))
		st := h.state()
		if st == sending {
			st = pending // a crawl resumed sends it anew
		}
		if st == fetched && c.inferred[i] {
			st = savedInferred
		}
		x.Uvarint(uint64(st))
	}
	type keyValue struct {
		key uint64
		v   uint32
	}
	keys := make([]keyValue, 0, c.keys.n)
	c.keys.all(func(v uint32) { keys = append(keys, keyValue{c.keyHash(v), v}) })
	slices.SortFunc(keys, func(a, b keyValue) int { return cmp.Compare(a.key, b.key) })
	x.Uvarint(uint64(len(keys)))
	for _, k := range keys {
		x.Uint64(k.key)
		x.Uvarint(uint64(k.v))
	}
	vs := slices.SortedFunc(maps.Values(c.verifying), func(a, b verification) int { return strings.Compare(a.url, b.url) })
	x.Uvarint(uint64(len(vs)))
	for _, v := range vs {
		x.String(v.url)
		x.Uvarint(uint64(v.against))
		x.Uint64(v.key)
		x.Bool(v.declared)
	}
	cks := slices.Sorted(maps.Keys(c.checks))
	x.Uvarint(uint64(len(cks)))
	for _, k := range cks {
		x.Uint64(k)
		x.Uint64(c.checks[k])
	}
	sites := slices.Sorted(maps.Keys(c.sites))
	x.Uvarint(uint64(len(sites)))
	for _, s := range sites {
		d := c.sites[s]
		x.String(s)
		x.Uvarint(uint64(d.uses))
		x.Uvarint(uint64(d.confirmed))
		x.Bool(d.withdrawn)
		x.Uvarint(uint64(len(d.list)))
		for _, e := range d.list {
			x.String(e.url)
			x.Uvarint(uint64(e.holder))
			x.Uint64(e.key)
			x.Uvarint(uint64(e.idx) + 1)
			x.Bool(e.withdrawn)
		}
	}
	writeLists(x, c.redirects, x.String)
	retried := slices.Sorted(maps.Keys(c.retried))
	x.Uvarint(uint64(len(retried)))
	for _, u := range retried {
		x.Uint64(u)
	}
	displaced := slices.Sorted(maps.Values(c.displaced))
	x.Uvarint(uint64(len(displaced)))
	for _, i := range displaced {
		x.Uvarint(uint64(i))
	}
	checked := slices.Sorted(maps.Keys(c.checked))
	x.Uvarint(uint64(len(checked)))
	for _, u := range checked {
		x.Uint64(u)
		x.Uvarint(uint64(c.checked[u]))
	}
	writeLists(x, c.waiting, func(i uint32) { x.Uvarint(uint64(i)) })
	wd := slices.Sorted(maps.Keys(c.waited))
	x.Uvarint(uint64(len(wd)))
	for _, u := range wd {
		x.Uint64(u)
		x.Uvarint(uint64(c.waited[u]))
	}
	writeLists(x, c.checkWait, x.Uint64)
	x.Uvarint(uint64(len(c.pages.first)))
	e := 0 // the next SimHash: a page's are stored together, in the order of the pages
	for i, h := range c.pages.first {
		if h == noHolder {
			x.Uvarint(0)
			x.String(c.pages.firstURL[uint32(i+1)])
		} else {
			x.Uvarint(uint64(h) + 1)
		}
		n := 0
		if s := c.pages.sims; s != nil {
			for e+n < len(s.pages) && s.pages[e+n] == uint32(i+1) {
				n++
			}
		}
		x.Uvarint(uint64(n))
		for range n {
			x.Uint64(c.pages.sims.fps[e])
			e++
		}
		x.Uint64(c.pages.own[i])
		x.Uvarint(uint64(c.pages.same[i]))
	}
	ds := slices.Sorted(maps.Keys(c.pages.digests))
	x.Uvarint(uint64(len(ds)))
	for _, d := range ds {
		x.Uint64(d)
		x.Uvarint(uint64(c.pages.digests[d]))
	}
	x.Uvarint(uint64(len(c.young.pages)))
	for _, id := range c.young.order {
		if y, ok := c.young.pages[id]; ok {
			x.Uvarint(uint64(id))
			x.String(y.url)
			x.String(string(y.body))
		}
	}
	c.mu.Unlock()
	n, err := x.Close()
	if err != nil {
		return n, err
	}
	if c.online != nil {
		m, err := c.online.WriteTo(bw)
		n += m
		if err != nil {
			return n, err
		}
	}
	if !c.opt.NoTemplates && !c.opt.NoContent {
		m, err := c.writeTemplates(bw)
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

// statsFields are the saved counters of Stats, in the saved order.
func (c *Crawl) statsFields() []*int64 {
	s := &c.stats
	return []*int64{&s.URLs, &s.Fetch, &s.Verify, &s.Skip, &s.Seen, &s.KeyErrors, &s.Forgotten,
		&s.Responses, &s.Failed, &s.Pages, &s.Kept, &s.Duplicates, &s.Checked, &s.Mismatches, &s.Redirects,
		&s.Declared, &s.Withdrawn, &s.Compared, &s.CompareMismatches, &s.Lapsed, &s.Taken}
}

// writeLists writes m, a key's list of URLs, as a count, then (key, count, URLs) in key order;
// put writes a key.
func writeLists[K cmp.Ordered](x *binfile.Writer, m map[K][]string, put func(K)) {
	ks := slices.Sorted(maps.Keys(m))
	x.Uvarint(uint64(len(ks)))
	for _, k := range ks {
		put(k)
		x.Uvarint(uint64(len(m[k])))
		for _, u := range m[k] {
			x.String(u)
		}
	}
}

// ReadFrom loads a state that WriteTo saved into c, which must be new (made by New and not
// used), with the Options the saved crawl had: the same decisions follow (io.ReaderFrom). r
// should hold the state alone, as a file does: ReadFrom reads it through a bufio.Reader unless r
// is one, and fails on bytes after it. A truncated, corrupt or foreign state is an error
// (errors.Is binfile's sentinels through *binfile.Error, or io.ErrUnexpectedEOF), never a
// panic; on error c is left as New made it... or unusable: make a new one. Memory grows with the
// bytes read, never with counts the input claims.
func (c *Crawl) ReadFrom(r io.Reader) (int64, error) {
	c.mu.Lock()
	used := c.stats != Stats{} || c.holders.len() > 0
	c.mu.Unlock()
	if used {
		return 0, fmt.Errorf("%s: ReadFrom needs a new Crawl", crawlPrefix)
	}
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	cr := &countReader{r: br}
	x, v, err := binfile.NewReader(cr, crawlPrefix, crawlMagic, crawlVersion)
	if err != nil {
		return cr.n, err
	}
	// Version 8 files are read as crawls that remember no URL fetched by a check. Earlier
	// ones are refused: version 1 numbered declared keys by their holder, and no release read
	// it.
	if v < 8 {
		return cr.n, &binfile.Error{Prefix: crawlPrefix, Offset: int64(len(crawlMagic)), Detail: fmt.Sprintf("version %d", v), Err: binfile.ErrVersion}
	}
	n, err := c.read(x, v)
	if err != nil {
		return cr.n, err
	}
	if n.learner != (c.online != nil) || n.templates != (!c.opt.NoTemplates && !c.opt.NoContent) {
		return cr.n, fmt.Errorf("%s: saved with other options (learning %v, templates %v)", crawlPrefix, n.learner, n.templates)
	}
	if c.online != nil {
		if _, err := c.online.ReadFrom(cr); err != nil {
			return cr.n, err
		}
		// Loading published every site's rules; the saved keys are theirs already.
		c.dmu.Lock()
		widened := c.dirtySites[""]
		clear(c.dirtySites)
		c.dirty.Store(false)
		c.dmu.Unlock()
		c.mu.Lock()
		c.widened = widened
		for sid := range c.siteList {
			c.refreshRules(uint32(sid))
		}
		c.mu.Unlock()
	}
	if n.templates {
		if err := c.readTemplates(cr); err != nil {
			return cr.n, err
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		if err == nil {
			err = &binfile.Error{Prefix: crawlPrefix, Offset: cr.n, Detail: "bytes after the state", Err: binfile.ErrCorrupt}
		}
		return cr.n, err
	}
	return cr.n, nil
}

// countReader counts the bytes read through it and reads bytes one at a time from a
// bufio.Reader, so that each part's reader stops at its checksum.
type countReader struct {
	r *bufio.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	m, err := c.r.Read(p)
	c.n += int64(m)
	return m, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

type savedFlags struct{ learner, templates bool }

// read reads the crawl part into c.
func (c *Crawl) read(x *binfile.Reader, v uint64) (savedFlags, error) {
	var f savedFlags
	f.learner = x.Bool()
	f.templates = x.Bool()
	if k := x.Int(); x.Err() == nil && k != int64(c.opt.NearK) {
		return f, fmt.Errorf("%s: saved with NearK %d, loading with %d", crawlPrefix, k, c.opt.NearK)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, v := range c.statsFields() {
		*v = int64(x.Count(maxSavedCount, "counter"))
	}
	ndecl := x.Count(maxHolders, "declarations made")
	c.released = x.Count(maxSavedCount, "released holders")
	corrupt := func(format string, a ...any) { x.Fail(fmt.Sprintf(format, a...), binfile.ErrCorrupt) }
	for range x.Count(maxSavedCount, "holders") {
		u, key := x.String(maxSavedString, "URL"), x.Uint64()
		page, state := uint32(x.Count(maxHolders, "page")), uint8(x.Count(savedInferred, "state"))
		if x.Err() != nil {
			break
		}
		uh := hashURL(u)
		i, ok := c.hold(u, key, uh)
		if !ok {
			x.Fail("URLs over the store's bound", binfile.ErrLimit)
			break
		}
		hd := c.holders.at(i)
		hd.page = page
		if state == savedInferred {
			state = fetched
			c.inferred[i] = true
		}
		hd.setState(state)
		if state == pending {
			if _, dup := c.pending[uh]; dup {
				corrupt("URL %q pending twice", u)
				break
			}
			c.pending[uh] = i
		}
	}
	// hold put every holder's key in the table: the saved table replaces it, once the
	// declarations its values name are read.
	c.keys = keyTable{}
	nh := uint32(c.holders.len())
	type keyValue struct {
		key uint64
		v   uint32
	}
	var keys []keyValue
	var prev uint64
	for j := range x.Count(maxSavedCount, "keys") {
		k, v := x.Uint64(), uint32(x.Count(maxHolders|declaredBit, "key holder"))
		if x.Err() == nil && ((j > 0 && k <= prev) || (v&declaredBit == 0 && v >= nh) || (v&declaredBit != 0 && int(v&^declaredBit) >= ndecl)) {
			corrupt("key %016x of holder %d", k, v)
		}
		prev = k
		keys = append(keys, keyValue{k, v})
	}
	for range x.Count(maxSavedCount, "verifications") {
		v := verification{url: x.String(maxSavedString, "URL"), against: uint32(x.Count(maxHolders, "holder")),
			key: x.Uint64(), declared: x.Bool()}
		if x.Err() == nil && v.against >= nh {
			corrupt("verification against holder %d of %d", v.against, nh)
		}
		c.verifying[hashURL(v.url)] = v
	}
	for range x.Count(maxSavedCount, "checks") {
		k, u := x.Uint64(), x.Uint64()
		if x.Err() != nil {
			break
		}
		if v, ok := c.verifying[u]; !ok || v.declared || v.key != k {
			corrupt("check of key %016x by URL hash %016x, which no verification of that key has", k, u)
			break
		}
		c.checks[k] = u
	}
	for range x.Count(maxSavedCount, "sites") {
		s := x.String(maxSavedString, "site")
		d := &declarations{uses: int64(x.Count(maxSavedCount, "uses")),
			confirmed: int64(x.Count(maxSavedCount, "confirmations")), withdrawn: x.Bool()}
		for range x.Count(maxSavedCount, "declarations") {
			e := &declared{url: x.String(maxSavedString, "URL"), holder: uint32(x.Count(maxHolders, "holder")),
				key: x.Uint64(), idx: uint32(x.Count(ndecl, "declaration number") - 1), withdrawn: x.Bool()}
			if x.Err() != nil {
				break
			}
			if e.holder >= nh || int(e.idx) >= ndecl {
				corrupt("declaration %d of holder %d of %d", e.idx+1, e.holder, nh)
				break
			}
			c.decls = append(c.decls, e)
			d.list = append(d.list, e)
		}
		c.sites[s] = d
	}
	// Every declaration made is in some site's list, once: sorted, they are 1, 2, ... ndecl.
	slices.SortFunc(c.decls, func(a, b *declared) int { return cmp.Compare(a.idx, b.idx) })
	if x.Err() == nil && len(c.decls) != ndecl {
		corrupt("%d declarations made, %d saved", ndecl, len(c.decls))
	}
	for j, e := range c.decls {
		if x.Err() == nil && int(e.idx) != j {
			corrupt("declaration %d twice or missing", e.idx+1)
		}
	}
	for _, k := range keys {
		if x.Err() != nil {
			break
		}
		if c.keyHash(k.v) != k.key {
			corrupt("key %016x of holder %d, which holds another", k.key, k.v)
			break
		}
		u := uint64(0)
		if k.v&declaredBit == 0 {
			u = c.urlHash(k.v)
		}
		c.keys.put(c, k.key, k.v, u)
	}
	for range x.Count(maxSavedCount, "redirects") {
		u := x.String(maxSavedString, "URL")
		var srcs []string
		for range x.Count(maxRedirectSources, "redirect sources") {
			srcs = append(srcs, x.String(maxSavedString, "URL"))
		}
		c.redirects[u] = srcs
	}
	for range x.Count(maxSavedCount, "retried URLs") {
		c.retried[x.Uint64()] = true
	}
	for range x.Count(maxSavedCount, "displaced holders") {
		i := uint32(x.Count(maxHolders, "displaced holder"))
		if x.Err() != nil {
			break
		}
		if i >= nh || c.holders.at(i).state() != fetched {
			corrupt("displaced holder %d of %d, not fetched", i, nh)
			break
		}
		c.displaced[c.urlHash(i)] = i
	}
	if v >= 9 {
		for range x.Count(maxSavedCount, "checked URLs") {
			u := x.Uint64()
			i := uint32(x.Count(maxHolders, "checked holder"))
			if x.Err() != nil {
				break
			}
			if i >= nh || c.holders.at(i).page == 0 {
				corrupt("URL checked against holder %d of %d, without a page", i, nh)
				break
			}
			c.checked[u] = i
		}
	}
	for range x.Count(maxSavedCount, "waiting holders") {
		i := uint32(x.Count(maxHolders, "waiting holder"))
		var us []string
		for range x.Count(maxSavedCount, "waiting URLs") {
			us = append(us, x.String(maxSavedString, "URL"))
		}
		if x.Err() != nil {
			break
		}
		if i >= nh || !c.holders.at(i).unreported() {
			corrupt("waiting holder %d of %d, reported", i, nh)
			break
		}
		c.waiting[i] = us
	}
	for range x.Count(maxSavedCount, "waited URLs") {
		u, i := x.Uint64(), uint32(x.Count(maxHolders, "waited holder"))
		if x.Err() != nil {
			break
		}
		if i >= nh {
			corrupt("waited holder %d of %d", i, nh)
			break
		}
		c.waited[u] = i
	}
	for range x.Count(maxSavedCount, "check waits") {
		u := x.Uint64()
		var us []string
		for range x.Count(maxSavedCount, "check wait URLs") {
			us = append(us, x.String(maxSavedString, "URL"))
		}
		if x.Err() != nil {
			break
		}
		_, verifying := c.verifying[u]
		if _, pending := c.pending[u]; !verifying && !pending {
			// A check under way, or a URL let through whose check was not due any more.
			corrupt("check wait of URL hash %016x, which no verification or pending URL has", u)
			break
		}
		c.checkWait[u] = us
	}
	for range x.Count(maxSavedCount, "pages") {
		id := uint64(len(c.pages.first) + 1)
		first := noHolder
		if h := x.Count(maxHolders, "page holder"); h == 0 {
			c.pages.firstURL[uint32(id)] = x.String(maxSavedString, "URL")
		} else {
			first = uint32(h - 1)
			if x.Err() == nil && first >= nh {
				corrupt("page %d of holder %d of %d", id, first, nh)
			}
		}
		var sims [2]uint64
		n := x.Count(len(sims), "SimHashes")
		for j := range n {
			sims[j] = x.Uint64()
		}
		if x.Err() == nil && n > 0 && c.pages.sims == nil {
			corrupt("SimHashes of page %d without near duplicates", id)
		}
		own, same := x.Uint64(), x.Uvarint()
		if x.Err() == nil && same >= id {
			corrupt("page %d found to be page %d", id, same)
		}
		if x.Err() != nil {
			break
		}
		c.pages.first = append(c.pages.first, first)
		c.pages.own = append(c.pages.own, own)
		c.pages.same = append(c.pages.same, uint32(same))
		for _, fp := range sims[:n] {
			c.pages.sims.insert(uint32(id), fp)
		}
	}
	np := uint64(len(c.pages.first))
	prev = 0
	for j := range x.Count(maxSavedCount, "digests") {
		d, v := x.Uint64(), x.Uvarint()
		if id := v &^ tplBit; x.Err() == nil && ((j > 0 && d <= prev) || id == 0 || id > np || v > tplBit|np) {
			corrupt("digest %016x of page %d of %d", d, id, np)
		}
		prev = d
		c.pages.digests[d] = uint32(v)
	}
	for range x.Count(maxSavedCount, "young pages") {
		id, u, body := x.Uvarint(), x.String(maxSavedString, "URL"), x.String(maxYoung/64, "body")
		if _, ok := c.young.pages[uint32(id)]; x.Err() == nil && (id == 0 || id > np || ok) {
			corrupt("young page %d of %d", id, np)
		}
		c.young.add(uint32(id), u, []byte(body))
	}
	if err := x.Close(); err != nil {
		return f, err
	}
	return f, nil
}

// writeTemplates writes each host's template, by host.
func (c *Crawl) writeTemplates(w io.Writer) (int64, error) {
	c.hmu.Lock()
	var ts []*hostTemplate
	if c.lru.next != nil {
		for t := c.lru.prev; t != &c.lru; t = t.prev {
			ts = append(ts, t)
		}
	}
	dropped := slices.Sorted(maps.Keys(c.dropped))
	c.hmu.Unlock()
	x := binfile.NewWriter(w, templatesMagic, templatesVersion)
	x.Uvarint(uint64(len(ts)))
	for _, t := range ts {
		x.String(t.host)
	}
	x.Uvarint(uint64(len(dropped)))
	for _, h := range dropped {
		x.String(h)
	}
	n, err := x.Close()
	if err != nil {
		return n, err
	}
	for _, t := range ts {
		t.mu.Lock()
		m, err := t.site.WriteTo(w)
		t.mu.Unlock()
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

const (
	templatesMagic   = "UDHOSTS\n"
	templatesVersion = 2
)

func (c *Crawl) readTemplates(r *countReader) error {
	prefix := crawlPrefix + " templates"
	x, v, err := binfile.NewReader(r, prefix, templatesMagic, templatesVersion)
	if err != nil {
		return err
	}
	if v != templatesVersion {
		return &binfile.Error{Prefix: prefix, Offset: int64(len(templatesMagic)), Detail: fmt.Sprintf("version %d", v), Err: binfile.ErrVersion}
	}
	var hosts []string
	seen := map[string]bool{}
	for range x.Count(maxSavedCount, "hosts") {
		h := x.String(maxSavedString, "host")
		if x.Err() == nil && seen[h] {
			x.Fail(fmt.Sprintf("template of host %q twice", h), binfile.ErrCorrupt)
		}
		seen[h] = true
		hosts = append(hosts, h)
	}
	if x.Err() == nil && len(hosts) > c.opt.MaxTemplates {
		x.Fail(fmt.Sprintf("%d templates, MaxTemplates %d", len(hosts), c.opt.MaxTemplates), binfile.ErrLimit)
	}
	dropped := map[string]bool{}
	for range x.Count(maxSavedCount, "dropped hosts") {
		h := x.String(maxSavedString, "host")
		if x.Err() == nil && seen[h] {
			x.Fail(fmt.Sprintf("host %q with a template and dropped", h), binfile.ErrCorrupt)
		}
		dropped[h] = true
	}
	if err := x.Close(); err != nil {
		return err
	}
	c.hmu.Lock()
	c.dropped = dropped
	c.hmu.Unlock()
	// Least recently used first: each template made is the most recent.
	for _, h := range hosts {
		t := c.template(h) // new: neither twice nor dropped
		if _, err := t.site.ReadFrom(r); err != nil {
			return fmt.Errorf("%s: template of host %q: %w", crawlPrefix, h, err)
		}
	}
	return nil
}
