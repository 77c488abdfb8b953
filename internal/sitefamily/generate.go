package sitefamily

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A Family is a kind of site: how it builds its URLs, its duplicates and its traps.
type Family struct {
	Name string // a lowercase word, the first field of its cluster ids: "docs"
	Doc  string // one line: what the family is

	pages [2]int // range of a site's page budget at scale 1
	build func(s *site)
}

// Families returns the families in the order Generate writes them.
func Families() []Family { return slices.Clone(families) }

// Options configure Generate. The zero value generates every family, 4 sites each, at scale
// 1, with seed 0.
type Options struct {
	Seed     uint64   // the seed: the same options give the same bytes
	Families []string // the families to generate, by name; empty: all
	Sites    int      // sites per family; 0 means 4
	Scale    float64  // multiplies every site's page budget; 0 means 1
}

// A Line is one line of a dup-cluster file. It is a plain value.
type Line struct {
	Cluster    string // "docs-s03-p000042": family, site, page
	URL        string
	Importance float64 // the page's importance, the same on every line of a cluster
	Inlinks    int     // in-links to this URL string, at least 1
}

// A Dataset is a generated dup-cluster file with its traps. It is plain data, owned by the
// caller.
type Dataset struct {
	Lines []Line   // in file order: grouped by site, random order within a site
	Traps []Trap   // in the order of Lines' sites
	Noise []string // ids of the clusters that group different pages (label noise)
}

// ErrUnknownFamily is the cause of Generate's error for a family name it does not know.
var ErrUnknownFamily = errors.New("unknown family")

// Generate builds the sites of the families opt names. Each site is built from a random source
// seeded by opt.Seed, its family and its number, so a site is the same whatever other
// families are generated with it. Sites are written in rounds, site 0 of every family, then
// site 1, and so on, so that families alternate in the file. Time and memory are linear in
// the URLs generated.
func Generate(opt Options) (*Dataset, error) {
	fams, err := selectFamilies(opt.Families)
	if err != nil {
		return nil, err
	}
	n, scale := opt.Sites, opt.Scale
	if n <= 0 {
		n = 4
	}
	if scale <= 0 {
		scale = 1
	}
	if scale > 1000 || n > 1000 {
		return nil, fmt.Errorf("sitefamily: %d sites at scale %g: too large", n, scale)
	}
	d := &Dataset{}
	domains := map[string]string{}
	for i := range n {
		for _, f := range fams {
			s := newSite(f, opt.Seed, i, scale)
			f.build(s)
			if s.err != nil {
				return nil, s.err
			}
			for _, h := range s.hosts() {
				if o, ok := domains[h]; ok && o != s.id {
					return nil, fmt.Errorf("sitefamily: sites %s and %s share the host %s (seed %d): try another seed", o, s.id, h, opt.Seed)
				}
				domains[h] = s.id
			}
			s.finish()
			s.appendTo(d)
		}
	}
	return d, nil
}

func selectFamilies(names []string) ([]*Family, error) {
	if len(names) == 0 {
		out := make([]*Family, len(families))
		for i := range families {
			out[i] = &families[i]
		}
		return out, nil
	}
	var out []*Family
	for _, name := range names {
		i := slices.IndexFunc(families, func(f Family) bool { return f.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("sitefamily: family %q: %w", name, ErrUnknownFamily)
		}
		if !slices.Contains(out, &families[i]) {
			out = append(out, &families[i])
		}
	}
	return out, nil
}

// hosts returns the registrable hosts of the site's URLs, as "scheme://host" stripped to the
// host, sorted.
func (s *site) hosts() []string {
	seen := map[string]bool{}
	for _, c := range s.clusters {
		for _, v := range c.urls {
			seen[hostOf(v.url)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for h := range seen {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

func hostOf(u string) string {
	_, rest, _ := strings.Cut(u, "://")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimPrefix(rest, "www.")
}

// appendTo appends the site's lines, in a random order, its traps and its noise clusters to d.
func (s *site) appendTo(d *Dataset) {
	start := len(d.Lines)
	for i, c := range s.clusters {
		id := fmt.Sprintf("%s-p%06d", s.id, i)
		if c.noise {
			d.Noise = append(d.Noise, id)
		}
		links := c.inlinks()
		for j, v := range c.urls {
			d.Lines = append(d.Lines, Line{Cluster: id, URL: v.url, Importance: c.imp, Inlinks: links[j]})
		}
	}
	mine := d.Lines[start:]
	s.r.Shuffle(len(mine), func(i, j int) { mine[i], mine[j] = mine[j], mine[i] })
	d.Traps = append(d.Traps, s.traps...)
}

// WriteTo writes the dataset in the dup-cluster TSV format, cluster<TAB>url<TAB>importance
// <TAB>inlinks after a header comment line.
func (d *Dataset) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	n, _ := bw.WriteString("# cluster\turl\timportance\tinlinks\n")
	total := int64(n)
	buf := make([]byte, 0, 256)
	for _, l := range d.Lines {
		buf = append(buf[:0], l.Cluster...)
		buf = append(buf, '\t')
		buf = append(buf, l.URL...)
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, l.Importance, 'g', 5, 64)
		buf = append(buf, '\t')
		buf = strconv.AppendInt(buf, int64(l.Inlinks), 10)
		buf = append(buf, '\n')
		n, err := bw.Write(buf)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, bw.Flush()
}

// WriteTraps writes the traps as TSV: family, kind, naive rule, URL A, URL B, after a header
// comment line.
func (d *Dataset) WriteTraps(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# family\tkind\tnaive rule\turl a\turl b\n")
	for _, t := range d.Traps {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\n", t.Family, t.Kind, t.Naive, t.A, t.B)
	}
	return bw.Flush()
}

// A Summary describes the part of a dataset of one family. It is a plain value.
type Summary struct {
	Family        string
	Sites, Hosts  int
	URLs          int
	Clusters      int
	Singletons    int // clusters of one URL
	Largest       int // URLs of the largest cluster
	NoiseClusters int // grouped error pages: URLs of different pages in one cluster
	Traps         int
}

// MaxReduction returns (URLs - Clusters) / URLs, the reduction a perfect normalizer reaches.
func (s Summary) MaxReduction() float64 {
	if s.URLs == 0 {
		return 0
	}
	return float64(s.URLs-s.Clusters) / float64(s.URLs)
}

// Summaries returns a summary per family of the dataset, in the order families first appear,
// and one of the whole dataset, Family "all", last.
func (d *Dataset) Summaries() []Summary {
	type acc struct {
		Summary
		sites, hosts map[string]bool
		sizes        map[string]int
	}
	var order []string
	by := map[string]*acc{}
	get := func(f string) *acc {
		a := by[f]
		if a == nil {
			a = &acc{Summary: Summary{Family: f}, sites: map[string]bool{}, hosts: map[string]bool{}, sizes: map[string]int{}}
			by[f] = a
			order = append(order, f)
		}
		return a
	}
	for _, l := range d.Lines {
		for _, a := range []*acc{get(FamilyOf(l.Cluster)), get("all")} {
			a.URLs++
			a.sizes[l.Cluster]++
			a.sites[l.Cluster[:strings.LastIndexByte(l.Cluster, '-')]] = true
			_, rest, _ := strings.Cut(l.URL, "://")
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				rest = rest[:i]
			}
			a.hosts[rest] = true
		}
	}
	for _, t := range d.Traps {
		get(t.Family).Traps++
		get("all").Traps++
	}
	noise := map[string]bool{}
	for _, id := range d.Noise {
		noise[id] = true
	}
	out := make([]Summary, 0, len(order))
	order = append(slices.DeleteFunc(order, func(f string) bool { return f == "all" }), "all")
	for _, f := range order {
		a := by[f]
		a.Sites, a.Hosts, a.Clusters = len(a.sites), len(a.hosts), len(a.sizes)
		for id, n := range a.sizes {
			if n == 1 {
				a.Singletons++
			}
			a.Largest = max(a.Largest, n)
			if noise[id] {
				a.NoiseClusters++
			}
		}
		out = append(out, a.Summary)
	}
	return out
}

// FamilyOf returns the family of a cluster id of a generated file, the id up to its first
// "-": "docs" of "docs-s03-p000042".
func FamilyOf(id string) string {
	f, _, _ := strings.Cut(id, "-")
	return f
}

// WriteSummaries writes summaries as a Markdown table.
func WriteSummaries(w io.Writer, sums []Summary) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("| family | sites | hosts | URLs | clusters | singletons | largest | max reduction | noise clusters | traps |\n")
	bw.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		fmt.Fprintf(bw, "| %s | %d | %d | %d | %d | %.1f%% | %d | %.4f | %d | %d |\n", s.Family, s.Sites, s.Hosts, s.URLs, s.Clusters,
			100*float64(s.Singletons)/float64(max(s.Clusters, 1)), s.Largest, s.MaxReduction(), s.NoiseClusters, s.Traps)
	}
	return bw.Flush()
}
