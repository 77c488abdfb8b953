package undustcolly

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/gocolly/colly/v2"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
)

// DuplicateHeader is the response header that Attach's OnResponse callback sets on a
// near-duplicate page's colly.Response: its value is the URL of the page it duplicates.
const DuplicateHeader = "Undust-Duplicate-Of"

// Options configure Attach. The zero value means the defaults given per field.
type Options struct {
	// Learner is the online learner whose rules key the requests and which the responses feed.
	// Nil means a new one with the options in Online. Give one to share what is learned between
	// collectors, or to save its rules afterwards (learn.Online.Set).
	Learner *learn.Online
	// Online are the options of the learner Attach makes when Learner is nil.
	Online learn.OnlineOptions
	// NearK is the largest Hamming distance between the SimHash fingerprints of two pages'
	// main text at which they are near-duplicates: 1 to 31, default (0) 3, Manku et al.'s k for
	// 64-bit fingerprints. Negative means exact duplicates only (equal main-text digests).
	NearK int
	// MinHash, if above 0, adds a second near-duplicate test: the resemblance of the main texts'
	// word 5-shingle sets, estimated by 128-value MinHash signatures and found through LSH, at
	// or above MinHash (at most 1). It costs about 1.3 KB a kept page (the signature and the
	// LSH entry). Default 0: SimHash only.
	MinHash float64
}

// Undust is undust attached to one colly.Collector. It is safe for concurrent use: an
// asynchronous collector calls its callbacks from many goroutines. Its zero value is not
// usable; Attach makes one. It keeps O(1) state for each URL fetched and each key held.
type Undust struct {
	online *learn.Online
	nearK  int

	minhash *shingle.MinHasher // nil without Options.MinHash
	lsh     *shingle.LSH
	minRes  float64

	mu       sync.Mutex
	seen     map[string]string // key -> the URL that holds it
	inflight map[uint32]request
	ofURL    map[string]uint64 // the content id of each URL fetched with status 200
	digests  map[uint64]uint64 // main-text digest -> content id
	firstURL map[uint64]string // content id -> the URL of its first page
	sigs     map[uint64][]uint64
	index    *simhash.Index // nil for exact duplicates only
	nextID   uint64
	stats    Stats
}

// A request is what OnRequest found of a request that OnResponse or OnError will need.
type request struct {
	url    string
	key    learn.Key
	held   bool   // the request holds its key in seen
	verify bool   // fetched to verify a rule: compare with the page of of
	of     string // the URL that held the key when the request was let through to verify
}

// Stats count what an Undust did. Requests = Aborted + the requests let through; of those
// answered with a page (status 200 and some main text), Pages = Kept + Duplicates.
type Stats struct {
	Requests     int   // requests seen by OnRequest
	Aborted      int   // of them, aborted because another request held their key
	Verification int   // let through although another request held their key, to verify a rule
	Mismatches   int   // verifications that found another page than the rule said
	KeyErrors    int   // requests whose URL could not be keyed (let through)
	Pages        int   // responses fingerprinted
	Kept         int   // of them, pages kept
	Duplicates   int   // of them, near-duplicates: neither kept nor followed
	Failed       int   // requests that ended in OnError
	Relearns     int64 // relearns of a site's rules (the learner's statistics)
	Rules        int   // rules in use (the learner's statistics)
}

var errNilCollector = errors.New("undustcolly: nil collector")

// Attach attaches undust to c: it registers an OnRequest, an OnResponse and an OnError
// callback (see the package documentation) and returns the Undust that holds their state. It
// returns an error, and registers nothing, for a nil collector or options out of range. Attach
// once per collector; a collector made by c.Clone() does not share c's callbacks, so attach
// to it too (with the same Learner to share what is learned).
func Attach(c *colly.Collector, o Options) (*Undust, error) {
	if c == nil {
		return nil, errNilCollector
	}
	if o.NearK > 31 {
		return nil, fmt.Errorf("undustcolly: NearK %d out of range [1, 31]", o.NearK)
	}
	if !(o.MinHash >= 0 && o.MinHash <= 1) { // NaN too
		return nil, fmt.Errorf("undustcolly: MinHash %v out of range [0, 1]", o.MinHash)
	}
	if o.NearK == 0 {
		o.NearK = 3
	}
	u := &Undust{
		online:   o.Learner,
		nearK:    o.NearK,
		seen:     map[string]string{},
		inflight: map[uint32]request{},
		ofURL:    map[string]uint64{},
		digests:  map[uint64]uint64{},
		firstURL: map[uint64]string{},
	}
	if u.online == nil {
		u.online = learn.NewOnline(o.Online)
	}
	if o.NearK > 0 {
		u.index = simhash.NewIndex(o.NearK, nil)
	}
	if o.MinHash > 0 {
		const k = 128
		u.minhash, u.lsh, u.minRes = shingle.NewMinHasher(k, 1), shingle.NewLSH(k, o.MinHash), o.MinHash
		u.sigs = map[uint64][]uint64{}
	}
	c.OnRequest(u.onRequest)
	c.OnResponse(u.onResponse)
	c.OnError(u.onError)
	return u, nil
}

// Learner returns the online learner that keys the requests.
func (u *Undust) Learner() *learn.Online { return u.online }

// Key returns the dedup key of the URL raw under the rules learned so far, the key OnRequest
// compares: u.Learner().Normalize(raw). A crawler that keeps its own queue can key URLs with it
// before it calls Visit.
func (u *Undust) Key(raw string) (string, error) { return u.online.Normalize(raw) }

// Stats returns what u has done so far.
func (u *Undust) Stats() Stats {
	u.mu.Lock()
	s := u.stats
	u.mu.Unlock()
	ls := u.online.Stats()
	s.Relearns, s.Rules = ls.Relearns, ls.Rules
	return s
}

// DuplicateOf returns the URL of the page that r's page duplicates, or "" when Attach's
// callback kept r's page or has not seen r.
func DuplicateOf(r *colly.Response) string {
	if r == nil || r.Headers == nil {
		return ""
	}
	return r.Headers.Get(DuplicateHeader)
}

func (u *Undust) onRequest(r *colly.Request) {
	raw := r.URL.String()
	k, err := u.online.Key(raw)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.stats.Requests++
	if err != nil {
		u.stats.KeyErrors++
		return
	}
	prev, held := u.seen[k.Key]
	switch {
	case !held:
		u.seen[k.Key] = raw
		u.inflight[r.ID] = request{url: raw, key: k, held: true}
	case prev == raw:
		// The same URL again (Collector.AllowURLRevisit): colly's choice, not a duplicate.
		u.inflight[r.ID] = request{url: raw, key: k}
	case u.online.Verify(k):
		u.stats.Verification++
		u.inflight[r.ID] = request{url: raw, key: k, verify: true, of: prev}
	default:
		u.stats.Aborted++
		if id, ok := u.ofURL[prev]; ok {
			// Evidence inferred from the rules: raw is the page of prev.
			u.online.Skipped(learn.URL{Raw: raw}, k, id)
		}
		r.Abort()
	}
}

func (u *Undust) onError(r *colly.Response, _ error) {
	if r == nil || r.Request == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.stats.Failed++
	req, ok := u.inflight[r.Request.ID]
	if !ok {
		return
	}
	delete(u.inflight, r.Request.ID)
	if req.held && u.seen[req.key.Key] == req.url {
		delete(u.seen, req.key.Key)
	}
}

// A print is the content fingerprint of a page.
type print struct {
	digest uint64
	sim    uint64
	sig    []uint64 // MinHash signature, if on
}

func (u *Undust) fingerprint(body []byte) (print, bool) {
	t, err := htmltext.Extract(body, htmltext.Options{MainContent: true})
	if err != nil {
		return print{}, false
	}
	text := t.String()
	if text == "" {
		return print{}, false
	}
	var o shingle.Options
	h := shingle.AppendHashes(nil, text, o)
	p := print{digest: shingle.Digest64(text, o), sim: simhash.Sum64(h)}
	if u.minhash != nil {
		p.sig = u.minhash.Signature(h)
	}
	return p, true
}

func (u *Undust) onResponse(r *colly.Response) {
	if r.Request == nil {
		return
	}
	var p print
	ok := r.StatusCode == http.StatusOK
	if ok {
		p, ok = u.fingerprint(r.Body)
	}
	u.mu.Lock()
	req, tracked := u.inflight[r.Request.ID]
	delete(u.inflight, r.Request.ID)
	if !tracked {
		req.url = r.Request.URL.String()
	}
	if !ok {
		u.mu.Unlock()
		return
	}
	u.stats.Pages++
	id, dup := u.contentID(p, req.url)
	u.ofURL[req.url] = id
	if req.verify {
		if want, fetched := u.ofURL[req.of]; fetched {
			same := want == id
			u.online.Confirm(req.key, same)
			if !same {
				u.stats.Mismatches++
			}
		}
	}
	if dup {
		u.stats.Duplicates++
	} else {
		u.stats.Kept++
	}
	of := u.firstURL[id]
	u.mu.Unlock()

	u.online.Observe(learn.URL{Raw: req.url}, id)
	if final := r.Request.URL.String(); final != req.url {
		// Redirected: the final URL serves the same page.
		u.online.Observe(learn.URL{Raw: final}, id)
	}
	u.online.Relearn()
	if dup {
		r.Body = nil
		r.Headers.Del("Content-Type")
		r.Headers.Set(DuplicateHeader, of)
	}
}

// contentID gives the page p, fetched from url, a content id: the id of the first page with
// its main-text digest, or a SimHash within nearK, or a MinHash resemblance of at least minRes;
// else a new id. dup says whether the id is an earlier page's. u.mu is held.
func (u *Undust) contentID(p print, url string) (id uint64, dup bool) {
	if id, ok := u.digests[p.digest]; ok {
		return id, true
	}
	if u.index != nil {
		if m, ok := u.index.Near(p.sim, u.nearK); ok {
			u.digests[p.digest] = m.ID
			return m.ID, true
		}
	}
	if u.lsh != nil {
		cands, _ := u.lsh.Query(p.sig) // the signature has the index's k values: no error
		for _, c := range cands {
			if shingle.Estimate(p.sig, u.sigs[c]) >= u.minRes {
				u.digests[p.digest] = c
				return c, true
			}
		}
	}
	u.nextID++
	id = u.nextID
	u.digests[p.digest] = id
	u.firstURL[id] = url
	if u.index != nil {
		u.index.Insert(id, p.sim)
	}
	if u.lsh != nil {
		u.sigs[id] = p.sig
		_ = u.lsh.Insert(id, p.sig) // as for Query: no error
	}
	return id, false
}
