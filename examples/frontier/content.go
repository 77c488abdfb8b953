package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
	"github.com/undust/undust/urlnorm"
)

// nearK is the SimHash distance at or below which two pages are near-duplicates: Manku et al.'s
// k = 3 for 64-bit fingerprints.
const nearK = 3

func staticKey() *urlnorm.Normalizer { return urlnorm.New(urlnorm.Crawler) }

// A print is the content fingerprint of one fetched page: a digest of its main text and a
// SimHash of the text's word 5-shingles. Main-content extraction keeps the site's template
// (navigation, related links, footer) out of both, so a print view matches its article.
type print struct {
	digest uint64
	sim    uint64
}

func fingerprint(body []byte) (print, bool) {
	t, err := htmltext.Extract(body, htmltext.Options{MainContent: true})
	if err != nil {
		return print{}, false
	}
	text := t.String()
	var o shingle.Options
	return print{
		digest: shingle.Digest64(text, o),
		sim:    simhash.Sum64(shingle.AppendHashes(nil, text, o)),
	}, true
}

// A dupCluster is a set of URLs that served the same content in pass 1, with how often the
// crawl saw each of them linked.
type dupCluster struct {
	urls    []string
	inlinks []int
}

// clusterByContent groups the URLs fetched with status 200 into dup clusters: URLs with equal
// main-text digests, joined transitively with those whose SimHash is within nearK. Clusters
// come out in the order of their first fetch, URLs in fetch order.
func clusterByContent(fetches []fetch) []dupCluster {
	parent := make([]int, len(fetches))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	byDigest := map[uint64]int{}
	index := simhash.NewIndex(nearK, nil)
	var ok []int
	var near []simhash.Match
	for i, f := range fetches {
		if f.status != 200 {
			continue
		}
		p, good := fingerprint(f.body)
		if !good {
			continue
		}
		ok = append(ok, i)
		if j, seen := byDigest[p.digest]; seen {
			union(i, j)
			continue
		}
		byDigest[p.digest] = i
		near = index.AppendNear(near[:0], p.sim, nearK)
		for _, m := range near {
			union(i, int(m.ID))
		}
		index.Insert(uint64(i), p.sim)
	}
	linked := map[string]int{}
	for _, f := range fetches {
		if f.status == 200 {
			for _, l := range links(f.url, f.body) {
				linked[l]++
			}
		}
	}
	groups := map[int]*dupCluster{}
	var roots []int
	for _, i := range ok {
		r := find(i)
		c := groups[r]
		if c == nil {
			c = &dupCluster{}
			groups[r] = c
			roots = append(roots, r)
		}
		c.urls = append(c.urls, fetches[i].url)
		c.inlinks = append(c.inlinks, max(1, linked[fetches[i].url]))
	}
	sort.Ints(roots)
	out := make([]dupCluster, len(roots))
	for i, r := range roots {
		out[i] = *groups[r]
	}
	return out
}

// nearDup is pass 2's check after fetching: a page whose digest was seen, or whose SimHash is
// within nearK of a kept page's, is a duplicate and is neither kept nor followed.
type nearDup struct {
	digests map[uint64]bool
	index   *simhash.Index
	n       uint64
}

func newNearDup() *nearDup {
	return &nearDup{digests: map[uint64]bool{}, index: simhash.NewIndex(nearK, nil)}
}

func (d *nearDup) duplicate(_ string, body []byte) bool {
	p, ok := fingerprint(body)
	if !ok {
		return false
	}
	if d.digests[p.digest] {
		return true
	}
	if _, near := d.index.Near(p.sim, nearK); near {
		return true
	}
	d.digests[p.digest] = true
	d.n++
	d.index.Insert(d.n, p.sim)
	return false
}

// learnedRules is what the learner gives the frontier: a normalizer that can be saved.
type learnedRules interface {
	urlnorm.Stage
	io.WriterTo
}

// learnRules learns rewrite rules from the dup clusters of pass 1. The whole crawl is one site
// for the learner (its hosts are aliases of one another). URL importance is unknown; in-links
// are the times pass 1 saw each URL linked, which target selection uses.
func learnRules(cs []dupCluster) (learnedRules, int, error) {
	cls := make([]learn.Cluster, len(cs))
	for i, c := range cs {
		cl := learn.Cluster{ID: fmt.Sprintf("dustshop-%06d", i), Site: "dustshop"}
		for j, u := range c.urls {
			cl.URLs = append(cl.URLs, learn.URL{Raw: u, Inlinks: c.inlinks[j]})
		}
		cls[i] = cl
	}
	m, st, err := learn.Learn(cls, learn.Options{})
	if err != nil {
		return nil, 0, fmt.Errorf("learning rules: %w", err)
	}
	return m, st.Selected, nil
}

func writeRules(path string, r io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = r.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
