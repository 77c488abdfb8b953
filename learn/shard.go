package learn

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/internal/acyclic"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// A SiteResult is what learning one site yields, all that learning needs from the site to
// assemble the rule set: the site's selected rules, its hosts (for the rules' scope), its
// deep-token patterns and the evidence that widening beyond a site needs. It is the unit that a
// distributed pipeline shards on (Koppula et al. §4 key every stage by host): LearnSite makes
// one per site, anywhere; Assemble joins them. It is a plain value of exported fields, so that
// it can be encoded (encoding/gob, JSON) and sent between machines; the zero value is the
// result of a site with no clusters. LearnSite and Assemble do not modify it once made.
type SiteResult struct {
	Site  string
	Hosts []string // the hosts of the site's training URLs, sorted
	// Rules are the site's selected rules that package rules can express, in the site's
	// precedence order, without their scope.
	Rules []SiteRule
	// Params holds, per query parameter of the site's training URLs, what deleting it
	// everywhere on the site would do.
	Params map[string]Evidence
	// Patterns holds the deep-token patterns of the site's hosts, in the text form of
	// deeptoken.Patterns.AppendText, by host.
	Patterns map[string]string
	// Stats are the site's: Sites is 1, Selected counts the selected rules and Unexpressed
	// those of them left out of Rules.
	Stats Stats
}

// A SiteRule is a selected rule of a site, without its scope, and the host that its context
// names, without its port ("" when it names none or names a host with user information):
// Assemble scopes it to that host, else to the site's domain or hosts. It is a plain value.
type SiteRule struct {
	Rule rules.Rule
	Host string
}

// LearnSite learns one site from its clusters: target and source selection, deep-token
// patterns, pairwise rules, generalization, measurement and selection (the per-site stages of
// TreeLearner.Learn). Every cluster should have Site site; the result depends on the clusters,
// not on their order or that of their URLs, and on opt, which it reads with the defaults of
// Options. It does not modify the clusters. Learn(clusters, opt) is Assemble of the LearnSite
// of each site.
func LearnSite(site string, clusters []Cluster, opt Options) SiteResult {
	opt = opt.withDefaults()
	cls := make([]*Cluster, len(clusters))
	for i := range clusters {
		cls[i] = &clusters[i]
	}
	s, st := learnSite(site, cls, opt)
	return s.result(opt, st, cls)
}

// result writes s as a SiteResult, its rules acyclic on the site's training URLs (cls).
func (s *site) result(opt Options, st Stats, cls []*Cluster) SiteResult {
	st.Selected, st.Unexpressed = 0, 0
	r := SiteResult{Site: s.name, Hosts: s.hosts, Params: map[string]Evidence{}}
	r.Rules = s.siteRules(opt, &st)
	for name, ev := range s.paramDel {
		r.Params[name] = *ev
	}
	if len(s.patterns) > 0 {
		r.Patterns = make(map[string]string, len(s.patterns))
		for h, p := range s.patterns {
			r.Patterns[h] = string(p.AppendText(nil))
		}
	}
	r.Stats = st
	r.breakCycles(cls)
	return r
}

// breakCycles drops from r.Rules the rules that rewrite a training URL of the site round a
// cycle (package internal/acyclic: of each cycle, the rule of least coverage) and counts them
// in r.Stats.Cycles. The site's rules are checked scoped as Assemble scopes them. Rules widened
// beyond the site are left out: they apply only where no site rule rewrites a URL.
func (r *SiteResult) breakCycles(cls []*Cluster) {
	if len(r.Rules) < 2 {
		return
	}
	// The rules scoped as Assemble scopes them (a single site owns its domain).
	rs := emit([]SiteResult{*r}, nil, &Stats{})
	so := &rules.Options{Key: urlnorm.Crawler}
	for h, text := range r.Patterns {
		p, err := deeptoken.ParsePatterns([]byte(text))
		if err != nil {
			continue
		}
		if so.Patterns == nil {
			so.Patterns = map[string]rules.Patterns{}
		}
		so.Patterns[h] = p
	}
	set, err := rules.NewSet(rs, so)
	if err != nil {
		return
	}
	var urls []string
	for _, c := range cls {
		for _, u := range c.URLs {
			urls = append(urls, u.Raw)
		}
	}
	_, dropped, err := acyclic.Break(set, urls)
	if err != nil || len(dropped) == 0 {
		return
	}
	// A rule as a set holds it (NewSet puts Equal conditions first), without its scope.
	unscoped := func(rr rules.Rule) string {
		rr.Scope = rules.Scope{Host: rules.AllHosts}
		if one, err := rules.NewSet([]rules.Rule{rr}, nil); err == nil {
			rr = one.Rule(0)
		}
		return rr.String()
	}
	gone := map[string]bool{}
	for _, d := range dropped {
		gone[unscoped(d)] = true
	}
	keep := r.Rules[:0:0]
	for _, sr := range r.Rules {
		if !gone[unscoped(sr.Rule)] {
			keep = append(keep, sr)
		}
	}
	r.Stats.Cycles = len(r.Rules) - len(keep)
	r.Rules = keep
}

// ErrDuplicateSite is returned by Assemble for two results of the same site.
var ErrDuplicateSite = errors.New("learn: site learned twice")

// Assemble joins the results of LearnSite into the rule set that Learn returns for the same
// clusters and options: it widens query parameters learned as deletable on Options.MinSites
// sites to every host, scopes each site's rules, and builds the set with the sites' deep-token
// patterns (for a host of several sites, those of the first site by name). The order of results
// does not matter; two results of one site are an error wrapping ErrDuplicateSite, and no
// results ErrNoClusters. The Stats are the sum of the sites' and count the widened rules that
// package rules cannot express. It does not modify results.
func Assemble(results []SiteResult, opt Options) (*rules.Set, Stats, error) {
	if len(results) == 0 {
		return nil, Stats{}, ErrNoClusters
	}
	opt = opt.withDefaults()
	sites := slices.Clone(results)
	slices.SortFunc(sites, func(a, b SiteResult) int { return cmp.Compare(a.Site, b.Site) })
	var st Stats
	for i := range sites {
		if i > 0 && sites[i].Site == sites[i-1].Site {
			return nil, Stats{}, fmt.Errorf("%w: %q", ErrDuplicateSite, sites[i].Site)
		}
		st.add(sites[i].Stats)
	}
	rs := emit(sites, widen(sites, opt), &st)
	so := &rules.Options{Key: urlnorm.Crawler}
	for i := range sites { // sorted by name: the first site of a host gives its patterns
		for h, text := range sites[i].Patterns {
			if _, ok := so.Patterns[h]; ok {
				continue
			}
			p, err := deeptoken.ParsePatterns([]byte(text))
			if err != nil {
				return nil, st, fmt.Errorf("learn: patterns of host %q of site %q: %w", h, sites[i].Site, err)
			}
			if so.Patterns == nil {
				so.Patterns = map[string]rules.Patterns{}
			}
			so.Patterns[h] = p
		}
	}
	set, err := rules.NewSet(rs, so)
	if err != nil {
		return nil, st, err
	}
	return set, st, nil
}
