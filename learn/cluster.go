package learn

import (
	"io"
	"net/url"
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
// rules are learned for (see Grouping: the hosts or registrable domains of a dup-cluster file
// joined by shared clusters, the id prefix, or a crawl index's host or registrable domain). It
// is a plain value; the learner reads clusters and never modifies them.
type Cluster struct {
	ID   string
	Site string
	URLs []URL
}

// SiteOf returns the site part of a dup-cluster id: the text before the last "-", or the whole
// id when it has none. SiteOf("h0042-p000123") == "h0042", SiteOf("frost-atlas.com-17") ==
// "frost-atlas.com". It is the site of ReadClusters with ReaderOptions.Sites = ByID.
func SiteOf(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		return id[:i]
	}
	return id
}

// ReadClusters reads all records of a dup-cluster TSV file and groups them by cluster id, in the
// order each id first appears; a URL repeated within a cluster is kept once. Bad lines are an
// error (a *ParseError with the line number) unless opt.SkipBad is set; skipped is the number
// of lines skipped.
//
// The file holds one URL per line, with the id of its dup cluster before it and two optional
// columns after it, separated by tabs; lines starting with "#" and blank lines are skipped:
//
//	# cluster	url	importance	inlinks
//	h0042-p000123	http://www.example.com/item?id=7&sid=A1	0.25	3
//	h0042-p000123	http://example.com/item?id=7
//	h0042-p000124	http://www.example.com/item?id=8
//
// The id is any string without tabs; URLs with the same id served the same content. importance
// (a number >= 0) and inlinks (an integer >= 0) weigh the choice of a cluster's canonical URL;
// they are 0 when absent.
//
// Each cluster's Site follows opt.Sites. By default (ByHost) the hosts of the file are joined
// into sites by the clusters they share: www.example.com and example.com above are one site
// because cluster h0042-p000123 holds URLs of both, and a mirror joins its origin the same way.
// ByDomain does the same with registrable domains, so that all hosts of one domain are one
// site even when they share no cluster. A site is named by its host (or domain) with the most
// URLs, the smaller name on a tie. A cluster with no URL that parses with a host has the site
// "". ByID takes the site from the id (SiteOf): the ids of the data set of Koppula et al. name
// the site before the last "-" ("h0042-p000123").
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
			cls = append(cls, Cluster{ID: rec.Cluster})
		}
		key := rec.Cluster + "\t" + rec.URL
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		cls[i].URLs = append(cls[i].URLs, URL{Raw: rec.URL, Importance: rec.Importance, Inlinks: rec.Inlinks})
	}
	JoinSites(cls, opt.Sites)
	return cls, tr.Skipped(), tr.Err()
}

// JoinSites sets the Site of every cluster from the hosts (g == ByHost) or registrable domains
// (g == ByDomain) of its URLs, joined into sites by the clusters they share, as ReadClusters
// does by default; see there. It runs in time linear in the number of URLs (and their parsing)
// and changes only the Site fields. With g == ByID it sets Site to SiteOf(ID).
func JoinSites(cls []Cluster, g Grouping) {
	if g == ByID {
		for i := range cls {
			cls[i].Site = SiteOf(cls[i].ID)
		}
		return
	}
	// Union-find over names (hosts or domains), joined by the clusters they share.
	id := map[string]int{}
	var names []string
	var parent, urls []int
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	nameOf := map[string]string{} // host -> name, a cache of the parse and the public suffix
	first := make([]int, len(cls))
	for i := range cls {
		first[i] = -1
		for _, u := range cls[i].URLs {
			host := hostOfRaw(u.Raw)
			if host == "" {
				continue
			}
			name, ok := nameOf[host]
			if !ok {
				name = host
				if g == ByDomain {
					name = registrableDomain(host)
				}
				nameOf[host] = name
			}
			k, ok := id[name]
			if !ok {
				k = len(names)
				id[name] = k
				names = append(names, name)
				parent = append(parent, k)
				urls = append(urls, 0)
			}
			urls[k]++
			if first[i] < 0 {
				first[i] = k
			} else if a, b := find(first[i]), find(k); a != b {
				parent[b] = a
			}
		}
	}
	// Each root's site name: its member with the most URLs, the smaller name on a tie.
	best := make([]int, len(names))
	for k := range best {
		best[k] = -1
	}
	for k := range names {
		r := find(k)
		if b := best[r]; b < 0 || urls[k] > urls[b] || urls[k] == urls[b] && names[k] < names[b] {
			best[r] = k
		}
	}
	for i := range cls {
		cls[i].Site = ""
		if first[i] >= 0 {
			cls[i].Site = names[best[find(first[i])]]
		}
	}
}

// hostOfRaw returns the lowercased host name of an absolute URL with its port if it is not the
// scheme's default (see hostPort), or "" when it has none.
func hostOfRaw(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return hostPort(u)
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
