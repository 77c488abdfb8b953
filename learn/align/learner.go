package align

import (
	"maps"
	"runtime"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/undust/undust/internal/acyclic"
	"github.com/undust/undust/internal/casefold"
	"github.com/undust/undust/internal/par"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Options configure a Learner. The zero value means the defaults given per field. It is a
// plain value; Learn reads a copy and never modifies it.
type Options struct {
	// K is the number of URLs of a cluster that are aligned: larger clusters are sampled, the
	// k URLs whose hash (of cluster id and URL, seeded by Seed) is smallest (default 10). The
	// multiple alignment of a cluster costs O(K^2) pairwise alignments, whatever its size.
	K int
	// MinFreq is the number of training clusters that must yield a candidate rule, the same
	// (context, transformation), for it to be kept (the paper's minfreq; default 2).
	MinFreq int
	// LiteralMin is the number of training clusters of a site in which a token value must occur,
	// at its key, for a rule context to name it as a literal; rarer values (ids, titles, session
	// ids) become the wildcard "*" (default 3). It also decides which differing values of an
	// aligned column are synonyms (all frequent: rewrite to one of them) and which are noise
	// (rare: delete).
	LiteralMin int
	// MinSupport is the number of validation URL pairs that a rule must map together (the
	// paper's minsupp; default 1).
	MinSupport int
	// FPRMax is the largest share of those pairs that may be false positives, pairs of URLs of
	// different clusters (the paper's fprmax; default 0.01; negative means 0).
	FPRMax float64
	// Seed seeds the sampling of K URLs and the generation/validation split of each site's
	// clusters (learn.InHalf(id, Seed^0x9e3779b97f4a7c15): a seed of its own, so that the split is
	// independent of an evaluation split by learn.Split with a small seed); the default 0 is fine.
	Seed uint64
	// Workers is the number of sites learned in parallel (default GOMAXPROCS).
	Workers int
	// NoRoles turns parameter roles off (see the package doc): clusters that look like pages
	// grouped by mistake are learned from, and a rule may delete a parameter whatever its
	// value where it identifies pages.
	NoRoles bool
}

func (o Options) withDefaults() Options {
	if o.K <= 0 {
		o.K = 10
	}
	if o.MinFreq <= 0 {
		o.MinFreq = 2
	}
	if o.LiteralMin <= 0 {
		o.LiteralMin = 3
	}
	if o.MinSupport <= 0 {
		o.MinSupport = 1
	}
	if o.FPRMax == 0 {
		o.FPRMax = 0.01
	} else if o.FPRMax < 0 {
		o.FPRMax = 0
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// Learner learns URL rewrite rules by multiple URL alignment (see the package doc). Its zero
// value uses the default Options. It is safe for concurrent use, keeps nothing between calls,
// and does not modify the clusters it is given.
type Learner struct {
	Options Options
}

// canonicalizer is the canonicalizer of the one-rule sets that validation measures on prepared
// URLs (the learned set keys its URLs with the same flags, Options.Key).
var canonicalizer = urlnorm.New(urlnorm.Crawler)

// Learn learns rules from clusters, per site (Cluster.Site), sites in parallel, and returns
// them as a rules.Set whose Options.Key is urlnorm.Crawler, as package learn's sets: its
// Normalize takes raw URLs, and so does the set its rules file loads as. The result depends only on the clusters (their order included) and the
// options. Stats are filled as follows: Sites, Clusters, URLs and BadURLs count the input;
// Pairs counts pairwise alignments; Classes the distinct candidate rules; Leaves the candidates
// that at least MinFreq clusters yield; Overwriting the aligned URLs whose rewrite the rules
// model cannot express (see Inexpressible in the package doc); Rules the candidates validated;
// Selected the rules kept; Cycles the rules dropped because they made a rewrite cycle on a
// training URL (of each cycle, the rule of least coverage; see Stats.Cycles).
func (l *Learner) Learn(clusters []learn.Cluster) (*rules.Set, learn.Stats, error) {
	if len(clusters) == 0 {
		return nil, learn.Stats{}, learn.ErrNoClusters
	}
	opt := l.Options.withDefaults()
	names, bySite := learn.GroupSites(clusters)
	out := make([][]rules.Rule, len(names))
	stats := make([]learn.Stats, len(names))
	par.For(len(names), opt.Workers, func(i int) {
		out[i], stats[i] = learnSite(bySite[names[i]], opt)
		n := len(out[i])
		out[i] = learn.DropVersionSwaps(out[i])
		stats[i].Selected -= n - len(out[i])
	})
	var all []rules.Rule
	var st learn.Stats
	for i := range names {
		all = append(all, out[i]...)
		s := stats[i]
		st.Sites++
		st.Clusters += s.Clusters
		st.URLs += s.URLs
		st.BadURLs += s.BadURLs
		st.Pairs += s.Pairs
		st.Classes += s.Classes
		st.Leaves += s.Leaves
		st.Overwriting += s.Overwriting
		st.Rules += s.Rules
		st.Selected += s.Selected
	}
	// The set keys its input and every rewritten URL with urlnorm's Crawler flags, the form the
	// rules were learned on; the rules file carries that on its key line, so that a loaded set
	// takes raw URLs as this one does.
	set, err := rules.NewSet(all, &rules.Options{Key: urlnorm.Crawler})
	if err != nil {
		return nil, st, err
	}
	var raw []string
	for _, c := range clusters {
		for _, u := range c.URLs {
			raw = append(raw, u.Raw)
		}
	}
	set, dropped, err := acyclic.Break(set, raw)
	if err != nil {
		return nil, st, err
	}
	st.Cycles = len(dropped)
	return set, st, nil
}

// item is one distinct URL of a site, prepared and tokenized.
type item struct {
	prep    string
	toks    []urlnorm.Token
	cluster int32 // index of its cluster within the site
	nseg    int
	host    string // the host name
	port    string // the port, "" for the scheme's default
}

func prepare(raw string) (item, bool) {
	p, ok := learn.Prepare(raw)
	if !ok {
		return item{}, false
	}
	toks, err := urlnorm.Tokenize(nil, p)
	if err != nil || len(toks) > maxTokens {
		return item{}, false
	}
	it := item{prep: p, toks: toks}
	for _, t := range toks {
		switch t.Part {
		case urlnorm.PartHost:
			it.host = t.Value
		case urlnorm.PartPort:
			it.port = t.Value
		case urlnorm.PartPath:
			it.nseg++
		}
	}
	return it, true
}

// sample returns the indexes of at most k of the items, those with the smallest hash of
// (seed, cluster id, prepared URL), in ascending order of index.
func sample(items []item, idx []int, id string, k int, seed uint64) []int {
	if len(idx) <= k {
		return idx
	}
	type hi struct {
		h uint64
		i int
	}
	hs := make([]hi, len(idx))
	var b [8]byte
	for j, i := range idx {
		for x := range b {
			b[x] = byte(seed >> (8 * x))
		}
		d := xxhash.New()
		d.Write(b[:])
		d.WriteString(id)
		d.WriteString("\x00")
		d.WriteString(items[i].prep)
		hs[j] = hi{d.Sum64(), i}
	}
	slices.SortFunc(hs, func(a, b hi) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		return a.i - b.i
	})
	out := make([]int, k)
	for j := range out {
		out[j] = hs[j].i
	}
	slices.Sort(out)
	return out
}

// learnSite learns the rules of one site.
func learnSite(cls []*learn.Cluster, opt Options) ([]rules.Rule, learn.Stats) {
	var st learn.Stats
	st.Clusters = len(cls)
	var gen, val []item
	var genIdx [][]int // per generation cluster: its items
	var genIDs []string
	caseHosts := caseInsensitive(cls)
	byCluster := make([][]item, len(cls))
	for ci, c := range cls {
		seen := map[string]bool{}
		for _, u := range c.URLs {
			st.URLs++
			it, ok := prepare(u.Raw)
			if !ok {
				st.BadURLs++
				continue
			}
			if ev, lower := caseHosts[hostPort{it.host, it.port}]; lower && ev.Lowers(it.prep) {
				// Learned as the host's case rule rewrites it.
				if lo, ok := prepare(casefold.LowerPath(it.prep)); ok {
					it = lo
				}
			}
			if seen[it.prep] {
				// Raw URLs that the static key already merges are one URL here: a pair of them
				// would support any rule that matches them.
				continue
			}
			seen[it.prep] = true
			it.cluster = int32(ci)
			byCluster[ci] = append(byCluster[ci], it)
		}
	}
	// Parameter roles per page type, from all the site's clusters (package internal/roles):
	// clusters that look like pages grouped by mistake are left out of generation and
	// validation, and a rule may not delete a parameter where it identifies pages.
	var ro *roles.Roles
	if !opt.NoRoles {
		ro = siteRoles(byCluster, opt.LiteralMin)
	}
	for ci, c := range cls {
		if ro.Noisy(ci) {
			continue
		}
		if learn.InHalf(c.ID, opt.Seed^valSeed) == 0 {
			idx := make([]int, len(byCluster[ci]))
			for j := range idx {
				idx[j] = len(gen) + j
			}
			gen = append(gen, byCluster[ci]...)
			genIdx = append(genIdx, idx)
			genIDs = append(genIDs, c.ID)
		} else {
			val = append(val, byCluster[ci]...)
		}
	}
	fr := newFreqs(gen, genIdx)
	cands := guard(candidates(gen, genIdx, genIDs, fr, opt, &st), families(gen, val))
	kept := validate(cands, val, gen, ro, opt, &st)
	kept = dropVersionDeletions(kept, append(slices.Clip(gen), val...), ro)
	for _, h := range slices.SortedFunc(maps.Keys(caseHosts), func(a, b hostPort) int {
		return strings.Compare(a.host+":"+a.port, b.host+":"+b.port)
	}) {
		ev := caseHosts[h]
		rule := func(ctx rules.Context, act rules.Action, cov, nfalse, pairs int) {
			prec := 1.0
			if cov > 0 {
				prec = max(0, 1-float64(nfalse)/float64(cov))
			}
			if h.port != "" {
				ctx = append(ctx, rules.Condition{Key: urlnorm.Key{Part: urlnorm.PartPort}, Op: rules.Equal, Value: h.port})
			}
			kept = append(kept, rules.Rule{Scope: rules.Scope{Host: h.host}, Context: ctx, Transform: rules.Transformation{act},
				Stats: rules.Stats{Coverage: cov, Precision: prec, Support: pairs}})
		}
		whole := rules.Action{Key: urlnorm.Key{Part: urlnorm.PartPath}, Op: rules.Convert, Conv: rules.Lower}
		if ev.Trees == nil {
			rule(nil, whole, ev.Changed, ev.False, ev.Pairs)
			continue
		}
		// By trees (see internal/casefold): the first segment of a path that has a second is
		// lowercased, then the rest in each tree.
		first, second := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, urlnorm.Key{Part: urlnorm.PartPath, Pos: 2}
		if !ev.Trees[len(ev.Trees)-1].Root {
			rule(rules.Context{{Key: first, Op: rules.Any}, {Key: second, Op: rules.Any}},
				rules.Action{Key: first, Op: rules.Convert, Conv: rules.Lower}, ev.Changed, ev.False, ev.Pairs)
		}
		for _, t := range ev.Trees {
			ctx := rules.Context{{Key: second, Op: rules.Absent}}
			if !t.Root {
				ctx = rules.Context{{Key: first, Op: rules.Equal, Value: t.First}, {Key: second, Op: rules.Any}}
			}
			rule(ctx, whole, t.Changed, t.False, t.Pairs)
		}
	}
	onPort(kept, gen, val)
	st.Selected = len(kept)
	return kept, st
}

// siteRoles learns the roles of the parameters of a site's items, by cluster; a path segment of
// at least literalMin clusters is a literal of a page type's path template.
func siteRoles(byCluster [][]item, literalMin int) *roles.Roles {
	common := map[string]int{}
	urls := make([][]roles.URL, len(byCluster))
	for ci, its := range byCluster {
		seen := map[string]bool{}
		urls[ci] = make([]roles.URL, len(its))
		for j := range its {
			urls[ci][j] = roleURL(&its[j])
			for _, s := range urls[ci][j].Path {
				if !seen[s] {
					seen[s] = true
					common[s]++
				}
			}
		}
	}
	return roles.Learn(urls, common, literalMin)
}

// roleURL returns what package roles reads of an item.
func roleURL(it *item) roles.URL {
	u := roles.URL{Text: it.prep}
	for _, t := range it.toks {
		switch t.Part {
		case urlnorm.PartScheme, urlnorm.PartHost, urlnorm.PartPort:
			u.Origin += t.Value + "/"
		case urlnorm.PartPath:
			u.Path = append(u.Path, t.Value)
		case urlnorm.PartQuery:
			u.Query = append(u.Query, t)
		}
	}
	return u
}

// onPort adds to each rule whose host the site serves on one port that is not the scheme's
// default the condition port = that port, unless its context names the port: a rule's scope is
// a host name, and another port of the host is another server.
func onPort(rs []rules.Rule, gen, val []item) {
	ports := map[string]map[string]bool{}
	for _, items := range [][]item{gen, val} {
		for i := range items {
			it := &items[i]
			if ports[it.host] == nil {
				ports[it.host] = map[string]bool{}
			}
			ports[it.host][it.port] = true
		}
	}
	pk := urlnorm.Key{Part: urlnorm.PartPort}
	for i := range rs {
		r := &rs[i]
		ps := ports[r.Scope.Host]
		if len(ps) != 1 || ps[""] || slices.ContainsFunc(r.Context, func(c rules.Condition) bool { return c.Key == pk }) {
			continue
		}
		for p := range ps {
			r.Context = append(slices.Clip(r.Context), rules.Condition{Key: pk, Op: rules.Equal, Value: p})
		}
	}
}

// A hostPort is a host name and its port ("" for the scheme's default).
type hostPort struct{ host, port string }

// caseInsensitive returns the hosts (and ports) of a site whose paths are case-insensitive by
// the evidence of all its clusters (package internal/casefold): a host gets rules that
// lowercase its paths (all of them, or those of the trees that support it), and its URLs are
// learned from lowercased.
func caseInsensitive(cls []*learn.Cluster) map[hostPort]casefold.Evidence {
	var urls []string
	var cl []int32
	for ci, c := range cls {
		seen := map[string]bool{}
		for _, u := range c.URLs {
			if p, ok := learn.Prepare(u.Raw); ok && !seen[p] {
				seen[p] = true
				urls = append(urls, p)
				cl = append(cl, int32(ci))
			}
		}
	}
	out := map[hostPort]casefold.Evidence{}
	for h, ev := range casefold.Hosts(urls, cl, casefold.Options{}) {
		if strings.IndexByte(h, '@') >= 0 { // user information: not a host scope
			continue
		}
		hp := hostPort{host: h}
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			hp = hostPort{h[:i], h[i+1:]}
		}
		out[hp] = ev
	}
	return out
}

// valSeed is mixed into Options.Seed for the generation/validation split.
const valSeed = 0x9e3779b97f4a7c15

// maxTokens bounds the tokens of a URL that is aligned: an alignment takes time and memory
// quadratic in the tokens of the two sequences. Longer URLs are left out of learning (counted
// in Stats.BadURLs).
const maxTokens = 128
