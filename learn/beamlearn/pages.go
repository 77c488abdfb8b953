package beamlearn

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"golang.org/x/net/publicsuffix"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/shingle"
)

// PageConfig configures Clusters. The zero value clusters at MinHash-estimated resemblance
// 0.8 with 128-value signatures, as the in-process MinHash method of the library's near-dup
// evaluation does. It is a plain value that Clusters copies into the pipeline's DoFns.
type PageConfig struct {
	// Threshold is the resemblance at which two pages are duplicates: the fraction of
	// agreeing signature values (shingle.Estimate) must be at least Threshold. The LSH
	// bands that propose the pairs are those of shingle.NewLSH for
	// shingle.CandidateThreshold(Threshold). 0 means 0.8; it must be in (0, 1).
	Threshold float64
	// K is the signature length; 0 means shingle.DefaultK (128). The MinHash seed is 1.
	K int
	// MaxBucket bounds the work of one LSH bucket: a bucket of n > MaxBucket pages (a band
	// value shared by a large template cluster) compares each page, in URL order, with the
	// MaxBucket pages after it only, n*MaxBucket comparisons instead of n*(n-1)/2. 0 means
	// 1000; a negative value compares all pairs of every bucket.
	MaxBucket int
	// Rounds is the number of large-star/small-star rounds of the connected components;
	// 0 means 12. The pipeline fails if the components have not converged after them.
	Rounds int
	// Grouping names the site of a page, as learn.CaptureClusters does: its host (the zero
	// value) or its registrable domain. A component that spans sites is split by site, since
	// a URL rule rewrites within a site.
	Grouping learn.Grouping
	// SkipBad skips malformed input lines instead of failing the pipeline.
	SkipBad bool
}

func (c PageConfig) withDefaults() PageConfig {
	if c.Threshold == 0 {
		c.Threshold = 0.8
	}
	if c.K == 0 {
		c.K = shingle.DefaultK
	}
	if c.MaxBucket == 0 {
		c.MaxBucket = 1000
	}
	if c.Rounds == 0 {
		c.Rounds = 12
	}
	return c
}

func (c PageConfig) check() error {
	if !(c.Threshold > 0 && c.Threshold < 1) {
		return fmt.Errorf("beamlearn: threshold %v not in (0, 1)", c.Threshold)
	}
	if c.K < 1 || c.K > 1<<16 {
		return fmt.Errorf("beamlearn: signature length %d not in [1, 65536]", c.K)
	}
	if c.Rounds < 1 {
		return fmt.Errorf("beamlearn: %d rounds", c.Rounds)
	}
	return nil
}

// PageShingles is the feature step of the page pipeline: the main-content text of an HTML
// page (htmltext.Extract with MainContent) as the default shingle set (5-word shingles,
// shingle.Options{}). A page whose HTML cannot be tokenized has no shingles. It does not keep
// html.
func PageShingles(html []byte) shingle.Set {
	t, err := htmltext.Extract(html, htmltext.Options{MainContent: true})
	if err != nil {
		return nil
	}
	return shingle.NewSet(shingle.Hashes(t.String(), shingle.Options{}))
}

// ClusterID is the dup-cluster id that Clusters gives the pages of the URL page whose
// component has the smallest URL root: the site of page by g (as learn.CaptureClusters names
// it) with '-' written as '_', so that a reader that cuts an id at its first '-' finds the site
// as learn.SiteOf (the last '-') does, then '-' and 16 hex digits of the FNV-1a hash of root.
// A page that does not parse has the site "".
func ClusterID(page, root string, g learn.Grouping) string {
	site := ""
	if u, err := url.Parse(page); err == nil {
		site = strings.ToLower(u.Hostname())
		if g == learn.ByDomain {
			if d, err := publicsuffix.EffectiveTLDPlusOne(site); err == nil {
				site = d
			}
		}
	}
	h := fnv.New64a()
	h.Write([]byte(root))
	return fmt.Sprintf("%s-%016x", strings.ReplaceAll(site, "-", "_"), h.Sum64())
}

// Page is one fetched page, the element of the page pipeline: its URL (absolute, with a
// host) and its HTML.
type Page struct {
	URL  string
	HTML []byte
}

// sigPage is a page's URL and MinHash signature, the element of an LSH bucket.
type sigPage struct {
	URL string
	Sig []uint64
}

func init() {
	beam.RegisterType(reflect.TypeFor[sigPage]())
	beam.RegisterType(reflect.TypeFor[Page]())
	register.DoFn3x1[Page, func(string), func(string, sigPage), error](&pageFn{})
	register.Emitter1[Page]()
	register.Emitter1[string]()
	register.Emitter2[string, sigPage]()
	register.DoFn4x0[context.Context, string, func(*sigPage) bool, func(string, string)](&bucketFn{})
	register.Iter1[sigPage]()
	register.Emitter2[string, string]()
	register.DoFn3x0[string, string, func(string, string)](&bothFn{})
	register.DoFn3x0[string, string, func(string, string)](&upFn{})
	register.DoFn3x0[string, func(*string) bool, func(string, string)](&largeStarFn{})
	register.DoFn3x0[string, func(*string) bool, func(string, string)](&smallStarFn{})
	register.DoFn1x2[string, string, string](&nodeFn{})
	register.DoFn3x1[string, func(*string) bool, func(string), error](&labelFn{})
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Page), error](&readFn{})
}

// Clusters adds to s the stages that group pages (a PCollection of Page, as ReadPages
// returns) into dup clusters and returns the clusters as lines of a dup-cluster TSV file,
// "cluster<TAB>url", one per page, in no order, or an error for a config out of range. A page
// whose URL is not absolute, has no host or holds a tab or line break fails the pipeline,
// unless cfg.SkipBad. The stages:
//
//	ParDo features        PageShingles, the MinHash signature (K values, seed 1), and one
//	                      record per LSH band keyed by the band's values (the bands and rows
//	                      of shingle.NewLSH for K and shingle.CandidateThreshold)
//	GroupByKey            one group per bucket: the pages that agree on all rows of a band
//	ParDo verify          the pairs of a bucket whose signatures agree in at least Threshold
//	                      of their values (shingle.Estimate); see MaxBucket for large buckets
//	large/small star      connected components of the verified pairs, Rounds rounds of the
//	                      large-star and small-star steps of Kiveris, Lattanzi, Mirrokni, Rastogi
//	                      and Vassilvitskii, "Connected Components in MapReduce and Beyond"
//	                      (SoCC 2014), each a GroupByKey by node; no step holds more than one
//	                      node's neighbours
//	GroupByKey by node    each page with the root (smallest URL) of its component, checked to
//	                      have converged, written as ClusterID(host, root)
//
// Pages with no shingles, and pages with no verified pair, are clusters of their own. A URL
// given twice is one node. Components that span sites are split by site (see Grouping). The result is the clustering of an in-process union-find over the
// pairs that an shingle.LSH index of the same signatures proposes and shingle.Estimate
// verifies, as long as no bucket exceeds MaxBucket.
func Clusters(s beam.Scope, pages beam.PCollection, cfg PageConfig) (beam.PCollection, error) {
	s = s.Scope("undust.pages")
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return beam.PCollection{}, err
	}
	b, r := shingle.OptimalBands(cfg.K, shingle.CandidateThreshold(cfg.Threshold))
	nodes, bands := beam.ParDo2(s, &pageFn{K: cfg.K, Bands: b, Rows: r, SkipBad: cfg.SkipBad}, pages)
	edges := beam.ParDo(s, &bucketFn{Threshold: cfg.Threshold, MaxBucket: cfg.MaxBucket, Rows: r}, beam.GroupByKey(s, bands))
	for range cfg.Rounds {
		edges = beam.ParDo(s, &largeStarFn{}, beam.GroupByKey(s, beam.ParDo(s, &bothFn{}, edges)))
		edges = beam.ParDo(s, &smallStarFn{}, beam.GroupByKey(s, beam.ParDo(s, &upFn{}, edges)))
	}
	all := beam.Flatten(s, beam.ParDo(s, &nodeFn{}, nodes), beam.ParDo(s, &bothFn{}, edges))
	return beam.ParDo(s, &labelFn{Rounds: cfg.Rounds, Grouping: cfg.Grouping}, beam.GroupByKey(s, all)), nil
}

// ReadPages returns the pages (a PCollection of Page) in the files that glob names. A file
// whose name ends in .warc or .warc.gz is read as WARC records (ReadWARCPages: the response
// records that hold HTML pages, by their target URI); any other file as JSON lines, one page
// per line with the fields "url" and "html" (other fields are ignored, blank lines skipped).
// A file whose name ends in .gz is gunzipped first. A malformed line or record, or a page
// whose URL Clusters would refuse, fails the pipeline with the file's name and the line or
// record number, unless skipBad; pages over MaxPageBytes are left out. Each file is read
// whole by one worker.
func ReadPages(s beam.Scope, glob string, skipBad bool) beam.PCollection {
	s = s.Scope("undust.readpages")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob), fileio.ReadAutoCompression())
	return beam.ParDo(s, &readFn{SkipBad: skipBad}, files)
}

var (
	pagesRead    = beam.NewCounter("undust.pages", "pages_read")
	pagesSkipped = beam.NewCounter("undust.pages", "pages_skipped")         // bad lines and records (SkipBad), pages too large
	warcOther    = beam.NewCounter("undust.pages", "warc_records_not_html") // WARC records that are not HTML pages
)

// readFn emits the pages of one file.
type readFn struct {
	SkipBad bool
}

func (f *readFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(Page)) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	name := file.Metadata.Path
	if IsWARC(name) {
		st, err := readWARC(rc, name, f.SkipBad, func(u string, html []byte) error {
			if err := checkURL(u); err != nil {
				if f.SkipBad {
					pagesSkipped.Inc(ctx, 1)
					return nil
				}
				return fmt.Errorf("beamlearn: %s: %w", name, err)
			}
			pagesRead.Inc(ctx, 1)
			emit(Page{URL: u, HTML: slices.Clone(html)})
			return nil
		})
		pagesSkipped.Inc(ctx, int64(st.Bad+st.TooLarge+st.Encoding))
		warcOther.Inc(ctx, int64(st.NotPage))
		return err
	}
	return readJSONLines(rc, name, f.SkipBad, func(p Page) {
		pagesRead.Inc(ctx, 1)
		emit(p)
	}, func() { pagesSkipped.Inc(ctx, 1) })
}

// maxLineBytes bounds a JSON line: a page of MaxPageBytes with every byte escaped.
const maxLineBytes = 6*MaxPageBytes + 1<<16

// readJSONLines reads pages as JSON lines from r, calling page for each and skipped for each
// line left out (too long, or malformed with skipBad).
func readJSONLines(r io.Reader, name string, skipBad bool, page func(Page), skipped func()) error {
	return eachLine(r, name, maxLineBytes, func(n int, line []byte, long bool) error {
		if long {
			skipped()
			return nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var p pageJSON
		err := json.Unmarshal(line, &p)
		if err == nil {
			err = checkURL(p.URL)
		}
		switch {
		case err == nil && len(p.HTML) > MaxPageBytes:
			skipped()
		case err == nil:
			page(Page{URL: p.URL, HTML: []byte(p.HTML)})
		case skipBad:
			skipped()
		default:
			return fmt.Errorf("beamlearn: %s:%d: %v", name, n, err)
		}
		return nil
	})
}

// ClusterFiles is Clusters on the lines of the files that glob names (ReadPages), with the dup-cluster TSV written to out. Its error is that of Clusters.
func ClusterFiles(s beam.Scope, glob, out string, cfg PageConfig) error {
	clusters, err := Clusters(s, ReadPages(s, glob, cfg.SkipBad), cfg)
	if err != nil {
		return err
	}
	textio.Write(s, out, clusters)
	return nil
}

// RulesFromPages is Clusters on the pages in the files that glob names followed by Learn on
// the clusters (lcfg.Format is ignored: the clusters are TSV): the rules file learned from the
// pages of a crawl is written to out.
func RulesFromPages(s beam.Scope, glob, out string, cfg PageConfig, lcfg Config) error {
	lcfg.Format = TSV
	clusters, err := Clusters(s, ReadPages(s, glob, cfg.SkipBad), cfg)
	if err != nil {
		return err
	}
	textio.Write(s, out, Learn(s, clusters, lcfg))
	return nil
}

// pageFn emits a page's URL as a node, and its signature once per LSH band.
type pageFn struct {
	K, Bands, Rows int
	SkipBad        bool

	m *shingle.MinHasher
}

type pageJSON struct {
	URL  string `json:"url"`
	HTML string `json:"html"`
}

func (f *pageFn) ProcessElement(p Page, node func(string), band func(string, sigPage)) error {
	if err := checkURL(p.URL); err != nil {
		if f.SkipBad {
			return nil
		}
		return err
	}
	node(p.URL)
	set := PageShingles(p.HTML)
	if len(set) == 0 {
		return nil
	}
	if f.m == nil {
		f.m = shingle.NewMinHasher(f.K, 1)
	}
	sig := f.m.Signature(set)
	for i := range f.Bands {
		band(bandKey(i, sig[i*f.Rows:(i+1)*f.Rows]), sigPage{URL: p.URL, Sig: sig})
	}
	return nil
}

// checkURL accepts the URL of a page: absolute, with a host, and without the tabs and line
// breaks that a TSV line cannot hold.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || strings.ContainsAny(raw, "\t\r\n") {
		return fmt.Errorf("beamlearn: page URL %q", raw)
	}
	return nil
}

// bandKey is the shuffle key of one band: the band number and its rows, exactly, so pages
// share a bucket when and only when they agree on all rows of the band.
func bandKey(band int, rows []uint64) string {
	b := make([]byte, 2, 2+8*len(rows))
	binary.BigEndian.PutUint16(b, uint16(band))
	for _, v := range rows {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return string(b)
}

// bucketFn verifies the candidate pairs of one bucket and emits each verified pair, smaller
// URL first. A pair that shares several bands is verified and emitted in the first of them
// only, so each pair crosses the shuffles of the components once.
type bucketFn struct {
	Threshold float64
	MaxBucket int
	Rows      int
}

// sharesEarlierBand reports whether signatures a and b agree on all rows of a band before
// band.
func sharesEarlierBand(a, b []uint64, band, rows int) bool {
	for i := range band {
		if slices.Equal(a[i*rows:(i+1)*rows], b[i*rows:(i+1)*rows]) {
			return true
		}
	}
	return false
}

var (
	bucketSize = beam.NewDistribution("undust.pages", "bucket_size")
	hotBuckets = beam.NewCounter("undust.pages", "hot_buckets")
	compared   = beam.NewCounter("undust.pages", "pairs_compared") // candidate pairs a bucket verifies
	verified   = beam.NewCounter("undust.pages", "pairs_verified")
)

func (f *bucketFn) ProcessElement(ctx context.Context, key string, pages func(*sigPage) bool, emit func(string, string)) {
	var all []sigPage
	var p sigPage
	for pages(&p) {
		all = append(all, p)
		p = sigPage{}
	}
	bucketSize.Update(ctx, int64(len(all)))
	if len(all) < 2 {
		return
	}
	slices.SortFunc(all, func(a, b sigPage) int { return strings.Compare(a.URL, b.URL) })
	all = slices.CompactFunc(all, func(a, b sigPage) bool { return a.URL == b.URL })
	window := len(all)
	if f.MaxBucket > 0 && len(all) > f.MaxBucket {
		window = f.MaxBucket
		hotBuckets.Inc(ctx, 1)
	}
	band := int(binary.BigEndian.Uint16([]byte(key[:2])))
	var n, v int64
	for i := range all {
		for j := i + 1; j < len(all) && j <= i+window; j++ {
			if sharesEarlierBand(all[i].Sig, all[j].Sig, band, f.Rows) {
				continue // verified in the first band the two share
			}
			n++
			if shingle.Estimate(all[i].Sig, all[j].Sig) >= f.Threshold {
				v++
				emit(all[i].URL, all[j].URL)
			}
		}
	}
	compared.Inc(ctx, n)
	verified.Inc(ctx, v)
}

// bothFn emits an edge in both directions, for a GroupByKey by node.
type bothFn struct{}

func (bothFn) ProcessElement(u, v string, emit func(string, string)) {
	emit(u, v)
	emit(v, u)
}

// upFn keys an edge (u < v) by its larger end, for small-star.
type upFn struct{}

func (upFn) ProcessElement(u, v string, emit func(string, string)) { emit(v, u) }

// neighbours reads a node's neighbours, sorted and without repeats.
func neighbours(it func(*string) bool) []string {
	var all []string
	var v string
	for it(&v) {
		all = append(all, v)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// largeStarFn links every neighbour larger than u to the smallest of u and its neighbours.
type largeStarFn struct{}

func (largeStarFn) ProcessElement(u string, it func(*string) bool, emit func(string, string)) {
	nb := neighbours(it)
	m := min(nb[0], u)
	for _, v := range nb {
		if v > u {
			emit(m, v)
		}
	}
}

// smallStarFn links u and its smaller neighbours to the smallest of them.
type smallStarFn struct{}

func (smallStarFn) ProcessElement(u string, it func(*string) bool, emit func(string, string)) {
	nb := neighbours(it) // all smaller than u
	m := nb[0]
	for _, v := range nb[1:] {
		emit(m, v)
	}
	emit(m, u)
}

// nodeFn marks a page in the last grouping: an empty neighbour.
type nodeFn struct{}

func (nodeFn) ProcessElement(u string) (string, string) { return u, "" }

// labelFn writes a page's cluster line: its component's root is the page itself when it has
// no smaller neighbour, else its one smaller neighbour; any other shape means the star steps
// have not converged.
type labelFn struct {
	Rounds   int
	Grouping learn.Grouping
}

func (f *labelFn) ProcessElement(u string, it func(*string) bool, emit func(string)) error {
	nb := neighbours(it)
	if len(nb) > 0 && nb[0] == "" {
		nb = nb[1:]
	}
	root := u
	if len(nb) > 0 && nb[0] < u {
		if len(nb) > 1 {
			return fmt.Errorf("beamlearn: components not converged after %d rounds at %q; raise PageConfig.Rounds", f.Rounds, u)
		}
		root = nb[0]
	}
	emit(ClusterID(u, root, f.Grouping) + "\t" + u)
	return nil
}
