package learn

import (
	"io"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// A URL is one member of a dup cluster. It is a plain value (safe to copy; the zero value is
// an empty URL, which learning skips as unparsable).
type URL struct {
	Raw        string  // the URL as crawled
	Importance float64 // page importance, 0 when unknown
	Inlinks    int     // in-links to this URL string, 0 when unknown
}

// A Cluster is a dup cluster: distinct URLs that served the same content. Site is the unit that
// rules are learned for (the part of a TSV cluster id before "-", or a crawl index's host or
// registrable domain). It is a plain value; the learner reads clusters and never modifies them.
type Cluster struct {
	ID   string
	Site string
	URLs []URL
}

// SiteOf returns the site part of a dup-cluster id: the text before the first "-", or the whole
// id when it has none. SiteOf("h0042-p000123") == "h0042".
func SiteOf(id string) string {
	if i := strings.IndexByte(id, '-'); i >= 0 {
		return id[:i]
	}
	return id
}

// ReadClusters reads all records of a dup-cluster TSV file and groups them by cluster id, in the
// order each id first appears; a URL repeated within a cluster is kept once. Each cluster's Site
// is SiteOf(its id). Bad lines are an error (a *ParseError with the line number) unless
// opt.SkipBad is set; skipped is the number of lines skipped.
func ReadClusters(r io.Reader, opt ReaderOptions) (cls []Cluster, skipped int, err error) {
	tr := NewTSVReader(r, opt)
	index := make(map[string]int)
	seen := make(map[string]struct{})
	for tr.Next() {
		rec := tr.Record()
		i, ok := index[rec.Cluster]
		if !ok {
			i = len(cls)
			index[rec.Cluster] = i
			cls = append(cls, Cluster{ID: rec.Cluster, Site: SiteOf(rec.Cluster)})
		}
		key := rec.Cluster + "\t" + rec.URL
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		cls[i].URLs = append(cls[i].URLs, URL{Raw: rec.URL, Importance: rec.Importance, Inlinks: rec.Inlinks})
	}
	return cls, tr.Skipped(), tr.Err()
}

// InHalf reports which half of a 50/50 split the cluster id falls in (0 or 1), by a hash of the
// id (xxhash64, low bit of the hash of seed and id). It is the paper's random per-cluster split
// (Koppula et al. §5), made reproducible: both halves hold clusters of every site with more than
// a few clusters, and a cluster's half does not depend on the order of the input.
func InHalf(id string, seed uint64) int {
	var b [8]byte
	for i := range b {
		b[i] = byte(seed >> (8 * i))
	}
	d := xxhash.New()
	d.Write(b[:])
	d.WriteString(id)
	return int(d.Sum64() >> 63)
}

// Split partitions clusters into two halves by InHalf(id, seed). It keeps the input order
// within each half and does not copy the clusters' URL slices.
func Split(cls []Cluster, seed uint64) (a, b []Cluster) {
	for _, c := range cls {
		if InHalf(c.ID, seed) == 0 {
			a = append(a, c)
		} else {
			b = append(b, c)
		}
	}
	return a, b
}
