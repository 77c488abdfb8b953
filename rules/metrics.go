package rules

import (
	"cmp"
	"slices"
)

// A Labeled is a URL with the id of its true dup cluster, as in a dupclusters TSV line. A plain
// value; Evaluate does not modify or keep it.
type Labeled struct {
	Cluster string
	URL     string
}

// RuleMetrics are one rule's figures on a labelled URL set (Koppula et al., WSDM 2010, §5). A
// plain value, owned by the caller.
type RuleMetrics struct {
	// Coverage is rcov, the number of URLs the rule applies to: its scope and context hold on
	// the URL's canonical form.
	Coverage int
	// False is f, the number of pairs (u, v) of labelled URLs where the rule applies to u,
	// rewrites it (one rewrite, canonicalized) to the canonical form of v, and u and v are in
	// different clusters.
	False int
	// Precision is (rcov - f) / rcov, clamped to [0, 1]; 1 when Coverage is 0. It can only reach
	// 0 by clamping when several labelled URLs of other clusters share one canonical form.
	Precision float64
}

// Metrics are a rule set's figures on a labelled URL set. URLs, Clusters, Normalized and the
// ratios count distinct URL strings; a URL given twice counts once, with its first label. A plain
// value owned by the caller; the zero Metrics are those of no URLs and no rules.
type Metrics struct {
	URLs       int // |U_orig|
	Clusters   int // true clusters among them
	Canonical  int // distinct canonical forms (the canonicalizer's share of the reduction)
	Normalized int // |U_norm|, distinct URLs after the set
	Errors     int // URLs that could not be canonicalized or normalized; they count as themselves

	ReductionRatio      float64 // (|U_orig| - |U_norm|) / |U_orig|
	MaxReduction        float64 // (|U_orig| - #clusters) / |U_orig|, what a perfect normalizer reaches
	AvgReductionPerRule float64 // |U_orig| * ReductionRatio / |R|, 0 for an empty set

	// Pairs is the number of URL pairs that the set maps to one normalized URL, and TruePairs
	// those of them that share a true cluster. PairPrecision is TruePairs / Pairs, 1 when Pairs
	// is 0.
	Pairs, TruePairs int64
	PairPrecision    float64
	// MergedClusters is the number of true clusters that share a normalized URL with another
	// cluster; FalseMergeRate is MergedClusters / Clusters.
	MergedClusters int
	FalseMergeRate float64

	// Rules holds each rule's figures, computed for the rule on its own, in the set's
	// precedence order (Rules[i] is for s.Rule(i)).
	Rules []RuleMetrics
}

// Evaluate computes the metrics of the set on urls. Each URL is canonicalized with the set's
// canonicalizer and normalized by the set; every rule is also applied on its own to
// every URL it matches, for its coverage and precision. It takes O(n log n + m) time for n URLs
// and m rule matches; pair counts are summed per normalized URL and per (normalized URL,
// cluster), never by enumerating pairs. Evaluate is safe to call concurrently and does not
// modify urls.
func (s *Set) Evaluate(urls []Labeled) Metrics {
	var m Metrics
	m.Rules = make([]RuleMetrics, len(s.rules))

	// Distinct URLs, cluster ids as small integers, canonical forms.
	type item struct {
		cluster int32
		canon   string
		norm    string
	}
	seen := make(map[string]bool, len(urls))
	clusterID := map[string]int32{}
	items := make([]item, 0, len(urls))
	sc := s.getScratch()
	defer s.putScratch(sc)
	for _, l := range urls {
		if seen[l.URL] {
			continue
		}
		seen[l.URL] = true
		id, ok := clusterID[l.Cluster]
		if !ok {
			id = int32(len(clusterID))
			clusterID[l.Cluster] = id
		}
		it := item{cluster: id, canon: l.URL}
		b, err := s.canonicalizer().AppendCanonical(sc.canon[:0], l.URL)
		sc.canon = b
		if err != nil {
			m.Errors++
		} else if string(b) != l.URL {
			it.canon = string(b)
		}
		items = append(items, it)
	}
	m.URLs, m.Clusters = len(items), len(clusterID)

	// Labelled URLs by canonical form: how many, and of which clusters.
	byCanon := make(map[string][]int32, len(items))
	for _, it := range items {
		byCanon[it.canon] = append(byCanon[it.canon], it.cluster)
	}
	m.Canonical = len(byCanon)

	var all []int32
	for i := range items {
		it := &items[i]
		norm, err := s.Normalize(it.canon)
		if err != nil {
			m.Errors++
		}
		it.norm = norm
		if sc.v.load(it.canon, s) != nil {
			continue
		}
		all = s.matchAll(all[:0], &sc.v, true)
		for _, r := range all {
			rm := &m.Rules[r]
			rm.Coverage++
			out, err := s.apply(sc, int(r), it.canon)
			if err != nil {
				continue
			}
			for _, c := range byCanon[out] {
				if c != it.cluster {
					rm.False++
				}
			}
		}
	}
	for i := range m.Rules {
		rm := &m.Rules[i]
		rm.Precision = 1
		if rm.Coverage > 0 {
			rm.Precision = max(0, float64(rm.Coverage-rm.False)/float64(rm.Coverage))
		}
	}

	// Set-level figures: sort by (normalized URL, cluster) and count runs.
	slices.SortFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.norm, b.norm), cmp.Compare(a.cluster, b.cluster))
	})
	merged := make([]bool, m.Clusters)
	for i := 0; i < len(items); {
		j := i
		distinct := 0
		for j < len(items) && items[j].norm == items[i].norm {
			k := j
			for k < len(items) && items[k].norm == items[i].norm && items[k].cluster == items[j].cluster {
				k++
			}
			m.TruePairs += pairs(k - j)
			distinct++
			j = k
		}
		m.Normalized++
		m.Pairs += pairs(j - i)
		if distinct > 1 {
			for _, it := range items[i:j] {
				merged[it.cluster] = true
			}
		}
		i = j
	}
	for _, b := range merged {
		if b {
			m.MergedClusters++
		}
	}
	if m.URLs > 0 {
		m.ReductionRatio = float64(m.URLs-m.Normalized) / float64(m.URLs)
		m.MaxReduction = float64(m.URLs-m.Clusters) / float64(m.URLs)
	}
	if len(s.rules) > 0 {
		m.AvgReductionPerRule = float64(m.URLs-m.Normalized) / float64(len(s.rules))
	}
	m.PairPrecision = 1
	if m.Pairs > 0 {
		m.PairPrecision = float64(m.TruePairs) / float64(m.Pairs)
	}
	if m.Clusters > 0 {
		m.FalseMergeRate = float64(m.MergedClusters) / float64(m.Clusters)
	}
	return m
}

func pairs(n int) int64 { return int64(n) * int64(n-1) / 2 }
