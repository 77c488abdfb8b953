package learn

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// A Normalizer maps a URL to its dedup key. A learned *Model is one; so are urlnorm's
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
	p        []parsed
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
			var p parsed
			if ok {
				p, _, ok = parse(prep, nil)
			}
			if !ok {
				prep = ""
			}
			c.prep = append(c.prep, prep)
			c.p = append(c.p, p)
		}
	}
	return c
}

func (c *corpus) measure(m *Model) Metrics {
	all := make([]kc, len(c.raw))
	for i := range c.raw {
		k := c.raw[i]
		if c.prep[i] != "" {
			k = m.normalizeParsed(c.prep[i], &c.p[i])
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

// Tables evaluates m on clusters for every precision threshold and minimum coverage, with the
// baselines first. Rule thresholds use the raw training precision, as the paper's tables do;
// the last row is the learner's own selection (Rule.Estimate >= sel.MinPrecision, coverage >=
// sel.MinCoverage).
func Tables(m *Model, clusters []Cluster, baselines []Baseline, sel Options) []Row {
	sel = sel.withDefaults()
	var rows []Row
	cp := newCorpus(clusters)
	base := cp.measure(&Model{})
	for _, b := range baselines {
		rows = append(rows, Row{Method: b.Name, Metrics: Measure(clusters, b.Normalizer)})
	}
	total := m.Select(-1, 1, false).NumRules()
	add := func(method, pname string, cov int, mm *Model) {
		r := Row{Method: method, Precision: pname, MinCoverage: cov, Rules: mm.NumRules(), Metrics: cp.measure(mm)}
		if total > 0 {
			r.RulesPct = 100 * float64(r.Rules) / float64(total)
		}
		if m.NumSites() > 0 {
			r.PerSite = float64(r.Rules) / float64(m.NumSites())
		}
		if r.Rules > 0 {
			r.AvgReductionPerRule = float64(base.Keys-r.Keys) / float64(r.Rules)
		}
		rows = append(rows, r)
	}
	for _, cov := range Coverages {
		for _, th := range Thresholds {
			add("learned", th.Name, cov, m.Select(th.Min, cov, false))
		}
	}
	chosen := m.Select(sel.MinPrecision, sel.MinCoverage, true)
	add("learned (selection)", fmt.Sprintf("est>=%.2f", sel.MinPrecision), sel.MinCoverage, chosen)
	// The same selection through package rules, as a crawler loads it.
	if set, n, err := chosen.RuleSet(); err == nil {
		r := Row{Method: "rules.Set of the selection", Precision: fmt.Sprintf("est>=%.2f", sel.MinPrecision),
			MinCoverage: sel.MinCoverage, Rules: n, Metrics: Measure(clusters, SetNormalizer(set))}
		if total > 0 {
			r.RulesPct = 100 * float64(r.Rules) / float64(total)
		}
		if m.NumSites() > 0 {
			r.PerSite = float64(r.Rules) / float64(m.NumSites())
		}
		if r.Rules > 0 {
			r.AvgReductionPerRule = float64(base.Keys-r.Keys) / float64(r.Rules)
		}
		rows = append(rows, r)
	}
	return rows
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
	m, st, err := Learn(train, all)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Learn: st, LearnTime: time.Since(t0)}
	rep.Unseen = Tables(m, test, baselines, opt)
	rep.Both = Tables(m, clusters, baselines, opt)
	return rep, nil
}

// Transfer learns on train (all of it, with opt) and measures the model on test, whose sites
// are different: only the rules widened beyond one site (Model.Global) can apply there. It
// returns the static baseline (Prepare) and the learned model's metrics on test, and the widened
// rules.
func Transfer(train, test []Cluster, opt Options) (static, learned Metrics, global []Rule, err error) {
	m, _, err := Learn(train, opt)
	if err != nil {
		return Metrics{}, Metrics{}, nil, err
	}
	cp := newCorpus(test)
	return cp.measure(&Model{}), cp.measure(m), m.Global(), nil
}
