package learn

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/undust/undust/rules"
)

// A Normalizer maps a URL to its dedup key. A learned *rules.Set is one; so are urlnorm's
// normalizers, which the evaluation uses as baselines. Measure calls it from one goroutine.
type Normalizer interface {
	Normalize(raw string) (string, error)
}

// NormalizerFunc adapts a function to a Normalizer; it is as safe for concurrent use as the
// function.
type NormalizerFunc func(string) (string, error)

// Normalize calls f.
func (f NormalizerFunc) Normalize(raw string) (string, error) { return f(raw) }

// PrepareNormalizer is the Normalizer of Prepare alone: the static key the learner starts from
// (urlnorm's Crawler key, for http and https URLs).
var PrepareNormalizer Normalizer = NormalizerFunc(func(raw string) (string, error) {
	if p, ok := Prepare(raw); ok {
		return p, nil
	}
	return raw, nil
})

// Metrics measure a normalizer on labelled clusters (Koppula et al. §5, and the pair measures of
// the dupclusters data set). It is a plain value.
type Metrics struct {
	URLs, Clusters int
	Keys           int     // distinct normalized URLs
	Reduction      float64 // (URLs-Keys)/URLs: the paper's reduction ratio
	MaxReduction   float64 // (URLs-Clusters)/URLs: what a perfect normalizer reaches
	OfMax          float64 // Reduction/MaxReduction
	// PairPrecision is the share of URL pairs with equal keys that are in one cluster (1 when no
	// pair has equal keys).
	PairPrecision float64
	// FalseMergeRate is the share of URLs whose key is also the key of a URL of another cluster.
	FalseMergeRate float64
	FalsePairs     int64
}

type kc struct {
	key string
	c   int32
}

// Measure normalizes every URL of clusters with n and measures the result. A URL that n rejects
// keeps itself as its key.
func Measure(clusters []Cluster, n Normalizer) Metrics {
	var all []kc
	for ci, c := range clusters {
		seen := map[string]bool{}
		for _, u := range c.URLs {
			if seen[u.Raw] {
				continue
			}
			seen[u.Raw] = true
			k, err := n.Normalize(u.Raw)
			if err != nil {
				k = u.Raw
			}
			all = append(all, kc{k, int32(ci)})
		}
	}
	return measureKeys(all, len(clusters))
}

// corpus is a set of labelled URLs prepared and parsed once, for measuring many models.
type corpus struct {
	raw      []string
	prep     []string
	cluster  []int32
	clusters int
}

func newCorpus(clusters []Cluster) *corpus {
	c := &corpus{clusters: len(clusters)}
	for ci, cl := range clusters {
		seen := map[string]bool{}
		for _, u := range cl.URLs {
			if seen[u.Raw] {
				continue
			}
			seen[u.Raw] = true
			c.raw = append(c.raw, u.Raw)
			c.cluster = append(c.cluster, int32(ci))
			prep, ok := Prepare(u.Raw)
			if !ok {
				prep = ""
			}
			c.prep = append(c.prep, prep)
		}
	}
	return c
}

// measure measures set (nil: Prepare alone) on the corpus. A URL that Prepare rejects keeps
// itself as its key; a rewrite chain that ends in a cycle or at the bound keeps its last URL.
func (c *corpus) measure(set *rules.Set) Metrics {
	all := make([]kc, len(c.raw))
	for i := range c.raw {
		k := c.raw[i]
		if c.prep[i] != "" {
			k = c.prep[i]
			if set != nil {
				k, _ = set.Normalize(k)
			}
		}
		all[i] = kc{k, c.cluster[i]}
	}
	return measureKeys(all, c.clusters)
}

func measureKeys(all []kc, nclusters int) Metrics {
	slices.SortFunc(all, func(a, b kc) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return int(a.c - b.c)
	})
	m := Metrics{URLs: len(all), Clusters: nclusters}
	var pairs, same int64
	falseURLs := 0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].key == all[i].key {
			j++
		}
		m.Keys++
		g := int64(j - i)
		pairs += g * (g - 1) / 2
		clustersInGroup := 0
		for a := i; a < j; {
			b := a
			for b < j && all[b].c == all[a].c {
				b++
			}
			s := int64(b - a)
			same += s * (s - 1) / 2
			clustersInGroup++
			a = b
		}
		if clustersInGroup > 1 {
			falseURLs += j - i
		}
		i = j
	}
	if m.URLs > 0 {
		m.Reduction = float64(m.URLs-m.Keys) / float64(m.URLs)
		m.MaxReduction = float64(m.URLs-m.Clusters) / float64(m.URLs)
		m.FalseMergeRate = float64(falseURLs) / float64(m.URLs)
	}
	if m.MaxReduction > 0 {
		m.OfMax = m.Reduction / m.MaxReduction
	}
	m.PairPrecision = 1
	if pairs > 0 {
		m.PairPrecision = float64(same) / float64(pairs)
	}
	m.FalsePairs = pairs - same
	return m
}

// A Row is one line of the evaluation tables (Koppula et al. Tables 3-6 and the baselines). It
// is a plain value.
type Row struct {
	Method      string  // "learned", or a baseline's name
	Precision   string  // the precision threshold: "=1", ">=0.95", ">=0.9", ">=0.8", "all"
	MinCoverage int     // minimum training coverage of a rule
	Rules       int     // rules selected
	RulesPct    float64 // percentage of all rules (with coverage >= 1)
	PerSite     float64 // rules per site
	// AvgReductionPerRule is |U| * ReductionRatio / |R| (the paper's AvgReductionPerRule),
	// where the reduction counted is the part the rules add to Prepare's.
	AvgReductionPerRule float64
	Metrics
}

// Thresholds are the precision thresholds of the paper's tables.
var Thresholds = []struct {
	Name string
	Min  float64 // -1 means all
}{{"=1", 1}, {">=0.95", 0.95}, {">=0.9", 0.9}, {">=0.8", 0.8}, {"all", -1}}

// Coverages are the minimum coverages of the paper's Table 4 and 6, after the learner's default.
var Coverages = []int{3, 10, 100, 1000}

// A Baseline is a static normalizer evaluated beside the learned rules; Tables calls it from one
// goroutine.
type Baseline struct {
	Name string
	Normalizer
}

// Tables evaluates the learned set on clusters for every precision threshold and minimum
// coverage, with the baselines first. all should hold every rule learned on the sites (learned
// with MinPrecision -1 and MinCoverage 1, as Evaluate does); sites is the number of sites
// learned. Rule thresholds use the raw training precision (Stats.Precision), as the paper's
// tables do; the rules widened to every host are kept in every row and not counted. The last
// row is the learner's own selection (estimated precision >= sel.MinPrecision, coverage >=
// sel.MinCoverage): the set that Learn with sel returns.
func Tables(all *rules.Set, sites int, clusters []Cluster, baselines []Baseline, sel Options) []Row {
	sel = sel.withDefaults()
	var rows []Row
	cp := newCorpus(clusters)
	base := cp.measure(nil)
	for _, b := range baselines {
		rows = append(rows, Row{Method: b.Name, Metrics: Measure(clusters, b.Normalizer)})
	}
	_, total := SelectRules(all, -1, 1, false)
	add := func(method, pname string, cov int, set *rules.Set, n int) {
		r := Row{Method: method, Precision: pname, MinCoverage: cov, Rules: n, Metrics: cp.measure(set)}
		if total > 0 {
			r.RulesPct = 100 * float64(r.Rules) / float64(total)
		}
		if sites > 0 {
			r.PerSite = float64(r.Rules) / float64(sites)
		}
		if r.Rules > 0 {
			r.AvgReductionPerRule = float64(base.Keys-r.Keys) / float64(r.Rules)
		}
		rows = append(rows, r)
	}
	for _, cov := range Coverages {
		for _, th := range Thresholds {
			set, n := SelectRules(all, th.Min, cov, false)
			add("learned", th.Name, cov, set, n)
		}
	}
	set, n := SelectRules(all, sel.MinPrecision, sel.MinCoverage, true)
	add("learned (selection)", fmt.Sprintf("est>=%.2f", sel.MinPrecision), sel.MinCoverage, set, n)
	return rows
}

// SelectRules returns the set of the rules of all whose coverage reaches minCoverage and whose
// precision reaches minPrecision (a negative minPrecision keeps all), with all's options, and
// the number of them. With estimate set, precision is the learner's estimate
// (Coverage-False)/(Coverage+1) (see the package doc), otherwise Stats.Precision. Rules of the
// every-host scope (widened rules) are always kept and not counted.
func SelectRules(all *rules.Set, minPrecision float64, minCoverage int, estimate bool) (*rules.Set, int) {
	var rs []rules.Rule
	n := 0
	for i := range all.Len() {
		r := all.Rule(i)
		if r.Scope.Host != rules.AllHosts {
			p := r.Stats.Precision
			if estimate {
				p = float64(r.Stats.Coverage-falseOf(r.Stats)) / float64(r.Stats.Coverage+1)
			}
			if r.Stats.Coverage < minCoverage || minPrecision >= 0 && p < minPrecision {
				continue
			}
			n++
		}
		rs = append(rs, r)
	}
	set, err := rules.NewSet(rs, all.Options())
	if err != nil {
		panic("learn: rules of a set rejected by NewSet: " + err.Error()) // cannot happen: they were valid in all
	}
	return set, n
}

// WriteTable writes rows as a Markdown table.
func WriteTable(w io.Writer, rows []Row) error {
	_, err := fmt.Fprintln(w, "| method | precision | min cov | rules | % rules | rules/site | reduction | max | of max | avg red./rule | pair prec. | false-merge | false pairs |")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.2f | %.1f | %.4f | %.4f | %.3f | %.1f | %.4f | %.4f | %d |\n",
			r.Method, r.Precision, r.MinCoverage, r.Rules, r.RulesPct, r.PerSite, r.Reduction, r.MaxReduction,
			r.OfMax, r.AvgReductionPerRule, r.PairPrecision, r.FalseMergeRate, r.FalsePairs)
	}
	return nil
}

// A Report is the evaluation of one data set by the paper's protocol. It is a plain value.
type Report struct {
	Learn        Stats
	LearnTime    time.Duration
	Unseen, Both []Row // on the held-out half, and on both halves
}

// Evaluate splits clusters 50/50 by InHalf(id, seed), learns on half 0 with opt and tabulates
// the held-out half and both halves.
func Evaluate(clusters []Cluster, seed uint64, opt Options, baselines []Baseline) (Report, error) {
	train, test := Split(clusters, seed)
	all := opt
	all.MinPrecision, all.MinCoverage = -1, 1
	t0 := time.Now()
	set, st, err := Learn(train, all)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Learn: st, LearnTime: time.Since(t0)}
	rep.Unseen = Tables(set, st.Sites, test, baselines, opt)
	rep.Both = Tables(set, st.Sites, clusters, baselines, opt)
	return rep, nil
}

// Transfer learns on train (all of it, with opt) and measures the set on test, whose sites
// are different: only the rules widened to every host can apply there. It returns the static
// baseline (Prepare) and the learned set's metrics on test, and the widened rules.
func Transfer(train, test []Cluster, opt Options) (static, learned Metrics, global []rules.Rule, err error) {
	set, _, err := Learn(train, opt)
	if err != nil {
		return Metrics{}, Metrics{}, nil, err
	}
	for i := range set.Len() {
		if r := set.Rule(i); r.Scope.Host == rules.AllHosts {
			global = append(global, r)
		}
	}
	cp := newCorpus(test)
	return cp.measure(nil), cp.measure(set), global, nil
}
