package learn

import (
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/internal/par"
	"github.com/undust/undust/rules"
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
	// 3, negative never widens. Widened rules have the every-host scope (rules.AllHosts).
	MinSites int
	// MinPrecision drops rules whose estimated precision on the training clusters is lower
	// (default 0.95; negative keeps every rule). The estimate is (Coverage-False)/(Coverage+1); see the package doc.
	MinPrecision float64
	// MainOrigin ranks, in target selection, a URL on the origin (scheme and host) that more of
	// the site's URLs have before a shorter one on another origin (http://, the bare domain):
	// clusters that hold different aliases of a site's main origin then choose the same
	// target. It is for clusters that hold only some variants of their page, as a crawl's do
	// (Online sets it for every relearn); on complete clusters, the default (the shorter URL)
	// chooses consistently already.
	MainOrigin bool
	// Workers is the number of sites learned in parallel (default GOMAXPROCS).
	Workers int
	// NoDeepTokens turns deep tokens off: tokens are not split by learned deep-token patterns
	// (package deeptoken) before pairwise rules, and the set carries no patterns.
	NoDeepTokens bool
	// NoSignatures turns signature targets off: a cluster's target keeps the query parameters
	// whose value differs within the cluster (see the package doc, target selection), and
	// only a literal of the cluster can write them.
	NoSignatures bool
	// NoSplits turns splitting off: a generalized rule that merges different pages is not
	// split on the key whose value tells its good uses from its false merges (see the package
	// doc, selection).
	NoSplits bool
	// NoRoles turns parameter roles off: a deletion of a parameter whatever its value is not
	// limited to the page types where the parameter does not identify pages, and clusters
	// that look like pages grouped by mistake are learned from (see the package doc).
	NoRoles bool

	// online is set by Online: alias origins and cluster support are off (see
	// OnlineOptions.Learn).
	online bool
	// kept is set by Online: the target of a cluster (by ID) that the site's rules before
	// the relearn give (see keptTargets).
	kept map[string]string
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

// A Learner learns URL rewrite rules from dup clusters, as a rule set of package rules. The
// decision-tree learner of this package (TreeLearner) implements it; so will the
// multiple-alignment learner. Implementations must not modify the clusters they are given.
type Learner interface {
	Learn(clusters []Cluster) (*rules.Set, Stats, error)
}

// Stats counts what learning saw and made. It is a plain value.
type Stats struct {
	Sites, Clusters, URLs int
	BadURLs               int // URLs that did not parse and were left out
	Pairs                 int // pairwise rules (source, target pairs)
	Signatures            int // targets made signatures: parameters that differ within the cluster left out
	Classes               int // distinct transformations among them
	Leaves                int // generalized contexts, over all sites
	Overwriting           int // of those, dropped because they overwrite a wildcard (see doc)
	Splits                int // rules added by splitting a rule that merged different pages on a key (see doc)
	Rules                 int // generalized rules before selection
	Selected              int // rules kept by MinCoverage and MinPrecision
	// Unexpressed counts the selected rules that package rules cannot express and that are
	// left out of the set: a bare query parameter written, a parameter set to several values,
	// or a host with user information.
	Unexpressed int
	// Cycles counts the rules left out because, with the others, they rewrote a training URL
	// round a cycle (www -> m -> www): of each cycle, the rule of least coverage goes, so that
	// the set is acyclic on its training URLs.
	Cycles int
}

func (s *Stats) add(o Stats) {
	s.Sites += o.Sites
	s.Clusters += o.Clusters
	s.URLs += o.URLs
	s.BadURLs += o.BadURLs
	s.Pairs += o.Pairs
	s.Signatures += o.Signatures
	s.Classes += o.Classes
	s.Leaves += o.Leaves
	s.Overwriting += o.Overwriting
	s.Splits += o.Splits
	s.Rules += o.Rules
	s.Selected += o.Selected
	s.Unexpressed += o.Unexpressed
	s.Cycles += o.Cycles
}

// An lrule is a generalized rule in the learner's own edit form, before it is written as a
// rules.Rule: where its context holds, its transformation rewrites a URL to the normalized form
// of its dup cluster. Coverage and False are measured on the training clusters: the training
// URLs of the site the rule applies to, and those of them it maps onto a URL (or the rewrite of
// a URL) of another cluster.
type lrule struct {
	Site     string
	Context  []cond
	edit     edit
	Coverage int
	False    int
	Sites    int // for a widened rule: the sites it was learned on
	// class is 1 + the index of the rule's transformation among the site's classes when
	// generalization made the rule (or split it, see splitRules), 0 otherwise.
	class int32
	// blocked counts the training URLs it covers on whose page type a parameter it deletes,
	// whatever its value, identifies pages (see roles): a rule with any is not selected.
	blocked int
	// thin is set on a rule that deletes several parameters whatever their values and
	// stands on the pairs of one cluster: it is not selected.
	thin bool
	// merged is set on a rule of the context that a class's contexts share (see
	// mergedContext): it is not evidence for deleting a parameter site-wide.
	merged bool
	// clusters counts the training clusters whose URLs it covers, for Estimate; 0 online
	// (see OnlineOptions.Learn).
	clusters int
	// hits counts the training clusters in which it rewrote a URL onto another URL of the
	// cluster: of two rules as specific, as wide and as precise, the one with more goes first
	// (order; package rules' precedence compares it as Stats.Support). Two rules with one
	// context and a different edit (alias?destination=node/N to the alias, or to /node/N) are
	// learned from the same pairs; only the first can apply, and the one whose rewrites meet
	// the cluster's URLs more often is the one that merges. 0 online (see
	// OnlineOptions.Learn): the pages fetched so far make small clusters whose hits change
	// from one relearn to the next, and each change puts other rules to use, whose first uses
	// are verified (in examples/frontier and in replays of dev.tsv and train.tsv, the online
	// learner with hits made more verification fetches and lost pages in more orders).
	hits int

	check []cond // Context in the order Normalize checks it
}

// Precision is the rule's precision on the training clusters, (Coverage-False)/Coverage, as in
// Koppula et al. §5; 0 for a rule that covers nothing.
func (r *lrule) Precision() float64 {
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
// A rule without error whose uses lie in at least minSupportClusters clusters is estimated at
// its training precision, 1: its uses are that many independent pages that it rewrote right
// (a site's few http:// or www. aliases, each on another page), where the uses of one cluster
// may be one page grouped by mistake (the "nothing found" page of every search term).
func (r *lrule) Estimate() float64 {
	if r.False == 0 && r.clusters >= minSupportClusters {
		return r.Precision()
	}
	return float64(r.Coverage-r.False) / float64(r.Coverage+1)
}

// minSupportClusters is the number of clusters whose URLs a rule without error must cover for
// its training precision to stand without the pseudo-error (see lrule.Estimate).
const minSupportClusters = 3

func (r *lrule) String() string {
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
	b.WriteString(r.edit.String())
	return b.String()
}

// site is what the learner learned on one site, in its own edit form.
type site struct {
	name    string
	hosts   []string
	rules   []lrule            // in the order of rules.Set's precedence, for measurement
	byHost  map[string][]int32 // rules whose context names the host
	anyHost []int32            // rules whose context does not

	paramDel map[string]*Evidence // per query parameter: deleting it everywhere

	patterns map[string]*deeptoken.Patterns // deep-token patterns, by host
}

// TreeLearner is the learner of Koppula et al. (WSDM 2010) §3.2: target and source selection,
// pairwise rules (Algorithm 3), decision-tree context generalization (Algorithm 5) and selection
// by coverage and precision. Its zero value uses the default Options; it is safe for concurrent
// use and does not modify the clusters it is given.
type TreeLearner struct {
	Options Options
}

// Learn is (&TreeLearner{Options: opt}).Learn(clusters).
func Learn(clusters []Cluster, opt Options) (*rules.Set, Stats, error) {
	return (&TreeLearner{Options: opt}).Learn(clusters)
}

// ErrNoClusters is returned by Learn for an empty input.
var ErrNoClusters = errors.New("learn: no clusters")

// Learn learns a rule set from clusters, per site, sites in parallel: the rules whose
// coverage reaches Options.MinCoverage and whose estimated precision reaches
// Options.MinPrecision, and the rules widened to every host. The set works on urlnorm's Crawler
// keys (rules.Options.Key), so its Normalize takes raw URLs. The result depends only on the
// clusters and the options: not on the order of the clusters or of their URLs (each site's
// clusters are sorted by id, their URLs by text), nor on the number of workers: the set writes
// the same bytes.
func (l *TreeLearner) Learn(clusters []Cluster) (*rules.Set, Stats, error) {
	if len(clusters) == 0 {
		return nil, Stats{}, ErrNoClusters
	}
	opt := l.Options.withDefaults()
	names, bySite := GroupSites(clusters)
	results := make([]SiteResult, len(names))
	par.For(len(names), opt.Workers, func(i int) {
		s, st := learnSite(names[i], bySite[names[i]], opt)
		results[i] = s.result(opt, st, bySite[names[i]])
	})
	return Assemble(results, l.Options)
}

// GroupSites groups clusters by site, each site's clusters in their input order, and returns
// the site names sorted: the units of work that a learner runs in parallel. The map's values
// point into clusters, which it does not modify.
func GroupSites(clusters []Cluster) ([]string, map[string][]*Cluster) {
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
	return names, bySite
}

// selected reports whether r passes the selection by coverage and precision; with estimate,
// precision is lrule.Estimate, otherwise the raw training precision.
func (r *lrule) selected(minPrecision float64, minCoverage int, estimate bool) bool {
	p := r.Precision()
	if estimate {
		p = r.Estimate()
	}
	return r.blocked == 0 && !r.thin && r.Coverage >= minCoverage && (minPrecision < 0 || p >= minPrecision)
}

// ErrNotURL is returned by SetNormalizer's Normalize for a string that is not an absolute
// http(s) URL.
var ErrNotURL = errors.New("learn: not an absolute http(s) URL")

// SetNormalizer returns the dedup key of a URL under set for a set built without
// rules.Options.Key (as the alignment learner builds them): the URL's Prepare form (urlnorm's
// Crawler key), rewritten by set and brought back to that form. A set with a Key, such as the
// sets Learn returns, takes raw URLs itself, and SetNormalizer returns it as it is.
func SetNormalizer(set *rules.Set) Normalizer {
	if set.Options().Key != 0 {
		return set
	}
	return NormalizerFunc(func(raw string) (string, error) {
		p, ok := Prepare(raw)
		if !ok {
			return "", ErrNotURL
		}
		k, err := set.Normalize(p)
		if err != nil {
			return "", err
		}
		return finalize(k), nil
	})
}
