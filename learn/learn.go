package learn

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Options configure learning. The zero value means the defaults given per field; Learn copies
// it.
type Options struct {
	// Targets is k, the number of top-ranked URLs of a cluster used as targets (default 1).
	Targets int
	// MaxSources bounds the sources sampled per cluster and target (default 32).
	MaxSources int
	// MinSupport is the number of rows at a tree node that must share a value for it to get a
	// branch of its own; rarer values share the wildcard branch (default 2).
	MinSupport int
	// MaxDepth bounds the depth of a site's decision tree (default 16).
	MaxDepth int
	// MinCoverage drops rules that apply to fewer training URLs (default 3).
	MinCoverage int
	// MinSites is the number of sites on which a parameter must be learned as deletable (a
	// selected rule deletes it whatever its value) before it is widened to every site; 0 means
	// 3, negative never widens. See Model.Global.
	MinSites int
	// MinPrecision drops rules whose estimated precision on the training clusters is lower
	// (default 0.95; negative keeps every rule). See Rule.Estimate for the estimate.
	MinPrecision float64
	// Workers is the number of sites learned in parallel (default GOMAXPROCS).
	Workers int
}

func (o Options) withDefaults() Options {
	if o.Targets <= 0 {
		o.Targets = 1
	}
	if o.MaxSources <= 0 {
		o.MaxSources = 32
	}
	if o.MinSupport <= 0 {
		o.MinSupport = 2
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 16
	}
	if o.MinCoverage <= 0 {
		o.MinCoverage = 3
	}
	if o.MinPrecision == 0 {
		o.MinPrecision = 0.95
	}
	if o.MinSites == 0 {
		o.MinSites = 3
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// A Learner learns URL rewrite rules from dup clusters. The decision-tree learner of this
// package (TreeLearner) implements it; so will the multiple-alignment learner. Implementations
// must not modify the clusters they are given.
type Learner interface {
	Learn(clusters []Cluster) (*Model, Stats, error)
}

// Stats counts what learning saw and made. It is a plain value.
type Stats struct {
	Sites, Clusters, URLs int
	BadURLs               int // URLs that did not parse and were left out
	Pairs                 int // pairwise rules (source, target pairs)
	Classes               int // distinct transformations among them
	Leaves                int // generalized contexts, over all sites
	Overwriting           int // of those, dropped because they overwrite a wildcard (see doc)
	Rules                 int // generalized rules before selection
	Selected              int // rules kept by MinCoverage and MinPrecision
}

func (s *Stats) add(o Stats) {
	s.Sites += o.Sites
	s.Clusters += o.Clusters
	s.URLs += o.URLs
	s.BadURLs += o.BadURLs
	s.Pairs += o.Pairs
	s.Classes += o.Classes
	s.Leaves += o.Leaves
	s.Overwriting += o.Overwriting
	s.Rules += o.Rules
	s.Selected += o.Selected
}

// A Rule is a generalized rule: where its context holds, its transformation rewrites a URL to
// the normalized form of its dup cluster. Coverage and False are measured on the training
// clusters: the training URLs of the site the rule applies to, and those of them it maps onto a
// URL (or the rewrite of a URL) of another cluster. A Rule is a value; Model.Rules returns
// copies, safe to keep and modify. The zero Rule has an empty context (it holds everywhere) and
// the identity transformation.
type Rule struct {
	Site      string
	Context   []Cond
	Transform Transform
	Coverage  int
	False     int

	check []Cond // Context in the order Normalize checks it
}

// Precision is the rule's precision on the training clusters, (Coverage-False)/Coverage, as in
// Koppula et al. §5; 0 for a rule that covers nothing.
func (r *Rule) Precision() float64 {
	if r.Coverage == 0 {
		return 0
	}
	return float64(r.Coverage-r.False) / float64(r.Coverage)
}

// Estimate is the precision that selection compares with Options.MinPrecision: the training
// precision shrunk towards zero by one pseudo-error, (Coverage-False)/(Coverage+1). A rule seen
// on few URLs cannot claim perfection: a rule with coverage 3 and no error is estimated 0.75,
// one with coverage 100 and no error 0.99. The shrinkage makes the selection hold better on
// unseen clusters than the raw training precision does (see the evaluation in the package doc).
func (r *Rule) Estimate() float64 {
	return float64(r.Coverage-r.False) / float64(r.Coverage+1)
}

func (r *Rule) String() string {
	var b strings.Builder
	b.WriteString("rule cov=")
	b.WriteString(strconv.Itoa(r.Coverage))
	b.WriteString(" false=")
	b.WriteString(strconv.Itoa(r.False))
	b.WriteString(" if")
	for _, c := range r.Context {
		b.WriteByte(' ')
		b.WriteString(c.String())
	}
	b.WriteString(" then ")
	b.WriteString(r.Transform.String())
	return b.String()
}

// site is the learned model of one site.
type site struct {
	name    string
	hosts   []string
	rules   []Rule             // in the order Normalize tries them
	byHost  map[string][]int32 // rules whose context names the host
	anyHost []int32            // rules whose context does not

	paramDel map[string]*evidence // per query parameter: deleting it everywhere
}

// A Model is the set of rules learned from dup clusters, with the decision trees that index
// them. It normalizes URLs of the sites it was learned on; other URLs only get Prepare.
//
// A Model is immutable after Learn and safe for concurrent use; Select returns a new Model that
// shares the trees. The zero value is an empty model that normalizes every URL to Prepare's form.
type Model struct {
	global []Rule // widened rules, for hosts of no learned site
	sites  []*site
	byHost map[string]*site
	on     [][]bool // on[i][j]: rule j of site i is selected
}

// TreeLearner is the learner of Koppula et al. (WSDM 2010) §3.2: target and source selection,
// pairwise rules (Algorithm 3), decision-tree context generalization (Algorithm 5) and selection
// by coverage and precision. Its zero value uses the default Options; it is safe for concurrent
// use and does not modify the clusters it is given.
type TreeLearner struct {
	Options Options
}

// Learn is (&TreeLearner{Options: opt}).Learn(clusters).
func Learn(clusters []Cluster, opt Options) (*Model, Stats, error) {
	return (&TreeLearner{Options: opt}).Learn(clusters)
}

// ErrNoClusters is returned by Learn for an empty input.
var ErrNoClusters = errors.New("learn: no clusters")

// Learn learns a model from clusters, per site, sites in parallel. The result depends only on
// the clusters (their order included) and the options, not on the number of workers.
func (l *TreeLearner) Learn(clusters []Cluster) (*Model, Stats, error) {
	if len(clusters) == 0 {
		return nil, Stats{}, ErrNoClusters
	}
	opt := l.Options.withDefaults()
	bySite := map[string][]*Cluster{}
	var names []string
	for i := range clusters {
		c := &clusters[i]
		if _, ok := bySite[c.Site]; !ok {
			names = append(names, c.Site)
		}
		bySite[c.Site] = append(bySite[c.Site], c)
	}
	slices.Sort(names)
	sites := make([]*site, len(names))
	stats := make([]Stats, len(names))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(opt.Workers, len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sites[i], stats[i] = learnSite(names[i], bySite[names[i]], opt)
			}
		}()
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	m := &Model{sites: sites}
	m.index()
	m.global = widen(sites, opt)
	var st Stats
	for _, s := range stats {
		st.add(s)
	}
	m = m.Select(opt.MinPrecision, opt.MinCoverage, true)
	st.Selected = m.NumRules()
	return m, st, nil
}

func (m *Model) index() {
	m.byHost = map[string]*site{}
	for _, s := range m.sites {
		for _, h := range s.hosts {
			if _, ok := m.byHost[h]; !ok {
				m.byHost[h] = s
			}
		}
	}
}

// Select returns a model with the rules of m whose precision reaches minPrecision and whose
// coverage reaches minCoverage. With estimate set, precision is Rule.Estimate; otherwise it is
// the raw training precision, as in the paper's tables. A negative minPrecision keeps all.
func (m *Model) Select(minPrecision float64, minCoverage int, estimate bool) *Model {
	out := &Model{global: m.global, sites: m.sites, byHost: m.byHost, on: make([][]bool, len(m.sites))}
	for i, s := range m.sites {
		out.on[i] = make([]bool, len(s.rules))
		for j := range s.rules {
			r := &s.rules[j]
			p := r.Precision()
			if estimate {
				p = r.Estimate()
			}
			out.on[i][j] = r.Coverage >= minCoverage && (minPrecision < 0 || p >= minPrecision)
		}
	}
	return out
}

// NumRules returns the number of selected rules.
func (m *Model) NumRules() int {
	n := 0
	for _, on := range m.on {
		for _, b := range on {
			if b {
				n++
			}
		}
	}
	return n
}

// NumSites returns the number of sites the model has learned.
func (m *Model) NumSites() int { return len(m.sites) }

// Rules returns copies of the selected rules, by site, in tree order.
func (m *Model) Rules() []Rule {
	var out []Rule
	for i, s := range m.sites {
		for j, r := range s.rules {
			if m.on[i][j] {
				r.Context = slices.Clone(r.Context)
				r.check = nil
				out = append(out, r)
			}
		}
	}
	return out
}

// maxPasses bounds how often Normalize reapplies rules to their own output.
const maxPasses = 8

// ErrNotURL is returned by Normalize for a string that is not an absolute http(s) URL.
var ErrNotURL = errors.New("learn: not an absolute http(s) URL")

// Normalize returns the dedup key of raw: Prepare's form, rewritten by the selected rule that
// applies to it (the leaf its site's decision tree leads to, if that leaf's rule is selected and
// its context holds), repeatedly, at most 8 times, until no rule applies.
func (m *Model) Normalize(raw string) (string, error) {
	prep, ok := Prepare(raw)
	if !ok {
		return "", errors.Join(ErrNotURL, errors.New("learn: "+quote(raw)))
	}
	if m == nil || m.byHost == nil {
		return prep, nil
	}
	p, _, ok := parse(prep, nil)
	if !ok {
		return prep, nil
	}
	return m.normalizeParsed(prep, &p), nil
}

// normalizeParsed is Normalize after Prepare and parse.
func (m *Model) normalizeParsed(prep string, p *parsed) string {
	s := m.byHost[p.host]
	if s == nil {
		return m.normalizeGlobal(prep, p)
	}
	si := slices.Index(m.sites, s)
	cur := *p
	curStr := prep
	changed := false
	for range maxPasses {
		q, out, ok := m.rewrite(si, &cur, curStr)
		if !ok {
			break
		}
		cur, curStr, changed = q, out, true
		if s2 := m.byHost[cur.host]; s2 != s && s2 != nil {
			s, si = s2, slices.Index(m.sites, s2)
		}
	}
	if !changed {
		return prep
	}
	return curStr
}

// rewrite applies the first selected rule of site si, in order, whose context holds for p and
// whose output differs from p (cur is p's text); it returns the output parsed and as text.
func (m *Model) rewrite(si int, p *parsed, cur string) (parsed, string, bool) {
	s := m.sites[si]
	for _, ri := range s.candidates(p) {
		if !m.on[si][ri] {
			continue
		}
		r := &s.rules[ri]
		if !holds(r.check, p) {
			continue
		}
		q, ok := r.Transform.apply(p)
		if !ok {
			continue
		}
		out := finalize(q.String())
		if out == cur {
			continue
		}
		if q2, _, ok := parse(out, nil); ok {
			return q2, out, true
		}
	}
	return parsed{}, "", false
}

// WriteTo writes the selected rules in the rules text format, version 1: a header line, then per
// site a "site" line naming its hosts and one "rule" line per rule (coverage, training errors,
// context, transformation). The output is byte-identical for the same input and options.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	write := func(s string) {
		k, _ := bw.WriteString(s)
		n += int64(k)
	}
	write("# undust learned rules v1\n")
	if len(m.global) > 0 {
		write("site * hosts=*\n")
		for i := range m.global {
			write("# " + m.global[i].Site + "\n")
			write(m.global[i].String() + "\n")
		}
	}
	for i, s := range m.sites {
		write("site " + s.name + " hosts=" + strings.Join(s.hosts, ",") + "\n")
		for j := range s.rules {
			if m.on[i][j] {
				write(s.rules[j].String() + "\n")
			}
		}
	}
	return n, bw.Flush()
}
