package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/urlnorm"
)

// cmdStats prints what a data set holds: sites, hosts, clusters and URLs, the distribution of
// cluster sizes, the maximum possible reduction, and what urlnorm's static keys reach on it.
func cmdStats(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	clusters := fs.String("clusters", "", "dup-cluster TSV file")
	cdx := fs.String("cdx", "", "CDX or CDXJ crawl index")
	sites := sitesFlag(fs)
	domain := fs.Bool("domain", false, "the same as -sites domain")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*clusters == "") == (*cdx == "") {
		fmt.Fprintln(stderr, "urldedup stats: give one of -clusters or -cdx")
		return errUsage
	}
	if *domain {
		*sites = learn.ByDomain
	}
	cls, err := readClusters(*clusters, *cdx, *sites, false)
	if err != nil {
		return err
	}
	warnSites(cls, *sites)
	writeStats(stdout, cls)
	return nil
}

// sizeBuckets are the cluster-size classes of the dupclusters README.
var sizeBuckets = []struct {
	name   string
	lo, hi int
}{{"1", 1, 1}, {"2", 2, 2}, {"3", 3, 3}, {"4-5", 4, 5}, {"6-10", 6, 10}, {"11-50", 11, 50}, {"51-200", 51, 200}, {">200", 201, int(^uint(0) >> 1)}}

func writeStats(w io.Writer, cls []learn.Cluster) {
	sites := map[string]bool{}
	hosts := map[string]bool{}
	counts := make([]int, len(sizeBuckets))
	urls, largest := 0, 0
	for _, c := range cls {
		sites[c.Site] = true
		n := len(c.URLs)
		urls += n
		largest = max(largest, n)
		for i, b := range sizeBuckets {
			if n >= b.lo && n <= b.hi {
				counts[i]++
			}
		}
		for _, u := range c.URLs {
			if h := hostOf(u.Raw); h != "" {
				hosts[h] = true
			}
		}
	}
	fmt.Fprintf(w, "sites %d, hosts %d, clusters %d, URLs %d, largest cluster %d\n", len(sites), len(hosts), len(cls), urls, largest)
	if urls > 0 {
		fmt.Fprintf(w, "max possible reduction (URLs - clusters) / URLs: %.4f\n", float64(urls-len(cls))/float64(urls))
	}
	fmt.Fprintf(w, "\n| URLs per cluster |")
	for _, b := range sizeBuckets {
		fmt.Fprintf(w, " %s |", b.name)
	}
	fmt.Fprintf(w, "\n|---|%s\n| share of clusters |", strings.Repeat("---:|", len(sizeBuckets)))
	for _, n := range counts {
		fmt.Fprintf(w, " %.1f%% |", 100*float64(n)/float64(max(len(cls), 1)))
	}
	fmt.Fprintf(w, "\n\n| static key | reduction | of max | pair precision | false-merge rate |\n|---|---:|---:|---:|---:|\n")
	for _, p := range []struct {
		name string
		f    urlnorm.Flags
	}{{"urlnorm Safe", urlnorm.Safe}, {"urlnorm Crawler", urlnorm.Crawler}, {"urlnorm Aggressive", urlnorm.Aggressive}} {
		m := learn.Measure(cls, urlnorm.New(p.f))
		fmt.Fprintf(w, "| %s | %.4f | %.3f | %.4f | %.4f |\n", p.name, m.Reduction, m.OfMax, m.PairPrecision, m.FalseMergeRate)
	}
}

// hostOf returns the host of an absolute URL string, or "" when it has none.
func hostOf(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return strings.ToLower(rest)
}

// sortedCoverages returns the coverages in decreasing order, as the paper's Figure 3 plots them.
func sortedCoverages(cov []int) []int {
	out := slices.Clone(cov)
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out
}
