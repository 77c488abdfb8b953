package learn

import (
	"math"
	"slices"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
	"golang.org/x/net/publicsuffix"
)

// siteRules writes the selected rules of s (Options.MinCoverage, Options.MinPrecision on
// lrule.Estimate) as rules of package rules, without their scope, in the site's precedence
// order, each with the host its context names. It counts them in st.Selected, and those that
// package rules cannot express, left out, in st.Unexpressed.
func (s *site) siteRules(opt Options, st *Stats) []SiteRule {
	var out []SiteRule
	for j := range s.rules {
		r := &s.rules[j]
		if !r.selected(opt.MinPrecision, opt.MinCoverage, true) {
			continue
		}
		st.Selected++
		rr, ok := toRule(r)
		if !ok {
			st.Unexpressed++
			continue
		}
		h, _, user := splitAuthority(contextHost(r))
		if user { // user information: not a host scope
			h = ""
		}
		out = append(out, SiteRule{Rule: rr, Host: h})
	}
	if !opt.online && !ablate.NoVersionSwap {
		out = without(out, versionDrops(len(out), func(i int) (*rules.Rule, string) { return &out[i].Rule, out[i].Host }))
	}
	return out
}

// DropVersionSwaps returns rs without the rules that map the pages of one version named by a
// hash in the query onto another's where rs map at least two versions so at one parameter of a
// host (see the package doc, learning per site, stage 11; Learn drops them): a learner that
// writes a rules file, which has no verification, calls it on each site's rules. rs is
// reordered in place.
func DropVersionSwaps(rs []rules.Rule) []rules.Rule {
	if ablate.NoVersionSwap {
		return rs
	}
	return without(rs, versionDrops(len(rs), func(i int) (*rules.Rule, string) { return &rs[i], rs[i].Scope.Host }))
}

// without returns xs without the elements whose drop is true, in place.
func without[T any](xs []T, drop []bool) []T {
	out := xs[:0]
	for i := range xs {
		if !drop[i] {
			out = append(out, xs[i])
		}
	}
	return out
}

// versionDrops reports which of n rules (rule i and its host) map the pages of one version
// named by a hash in the query onto another's (see versionSwap) where the rules map at least
// two versions so at one parameter of a host: a repository browser's file at one commit is the
// file at another only if no commit between them changed it, which the URL does not tell, and
// each such rule holds for the files its training clusters saw at both commits.
func versionDrops(n int, rule func(i int) (*rules.Rule, string)) []bool {
	family, from := swapFamilies(n, func(i int) (string, string) {
		r, host := rule(i)
		if t, f := versionSwap(r); t != "" {
			return host + " " + t, f
		}
		return "", ""
	})
	drop := make([]bool, n)
	for i := range n {
		drop[i] = family[i] != "" && len(from[family[i]]) >= 2
	}
	return drop
}

// emit scopes the selected rules of sites (sorted by name) and writes the widened rules as
// rules of package rules. A site's rule gets the site's scope: the exact host its context
// names, else the registrable domain of the site's hosts when they share one, and one port,
// that no other site has, else one rule per host. A scope's hosts with a port get the port as a
// condition (a scope is a host name); a scope without one whose host name another site serves
// on a port gets the condition that the URL has no port. Widened rules get the every-host
// scope. Widened rules that package rules cannot express are counted in st.Unexpressed and
// left out.
func emit(sites []SiteResult, global []lrule, st *Stats) []rules.Rule {
	// Domains shared by two sites cannot scope either.
	owner := map[string]int{}
	doms := make([]string, len(sites))
	ported := map[string]bool{} // host names and domains served on a port
	for i := range sites {
		doms[i] = siteDomain(sites[i].Hosts)
		if doms[i] != "" {
			owner[doms[i]]++
		}
		for _, h := range sites[i].Hosts {
			if n, p, _ := splitAuthority(h); p != "" {
				ported[n] = true
				if d, err := publicsuffix.EffectiveTLDPlusOne(n); err == nil {
					ported[d] = true
				}
			}
		}
	}
	// scoped returns r in scope sc, on the given port ("" for the scheme's default).
	scoped := func(r rules.Rule, sc rules.Scope, port string) rules.Rule {
		r.Scope = sc
		k := urlnorm.Key{Part: urlnorm.PartPort}
		switch {
		case slices.ContainsFunc(r.Context, func(c rules.Condition) bool { return c.Key == k }):
			// The rule's context names the port already (with its host).
		case port != "":
			r.Context = append(slices.Clip(r.Context), rules.Condition{Key: k, Op: rules.Equal, Value: port})
		case ported[sc.Host]:
			r.Context = append(slices.Clip(r.Context), rules.Condition{Key: k, Op: rules.Absent})
		}
		return r
	}
	var out []rules.Rule
	for i := range sites {
		s := &sites[i]
		type hostScope struct {
			sc   rules.Scope
			port string
		}
		var scopes []hostScope
		if d := doms[i]; d != "" && owner[d] == 1 {
			n, p, _ := splitAuthority(d)
			scopes = []hostScope{{rules.Scope{Host: n, Domain: true}, p}}
		} else {
			for _, h := range s.Hosts {
				if n, p, user := splitAuthority(h); !user { // user information: not a host scope
					scopes = append(scopes, hostScope{rules.Scope{Host: n}, p})
				}
			}
		}
		for _, sr := range s.Rules {
			if sr.Host != "" {
				out = append(out, scoped(sr.Rule, rules.Scope{Host: sr.Host}, ""))
				continue
			}
			for _, sc := range scopes {
				out = append(out, scoped(sr.Rule, sc.sc, sc.port))
			}
		}
	}
	for j := range global {
		r := &global[j]
		rr, ok := toRule(r)
		if !ok {
			st.Unexpressed++
			continue
		}
		rr.Scope = rules.Scope{Host: rules.AllHosts}
		rr.Stats.Support = r.Sites
		out = append(out, rr)
	}
	return out
}

// siteDomain returns the registrable domain of every host of a site with their port, if any
// ("example.com:8080"), or "" if they have none, several, or several ports.
func siteDomain(hosts []string) string {
	d := ""
	for _, h := range hosts {
		n, p, user := splitAuthority(h)
		e, err := publicsuffix.EffectiveTLDPlusOne(n)
		if err != nil || user {
			return ""
		}
		if e = joinHostPort(e, p); d != "" && e != d {
			return ""
		}
		d = e
	}
	return d
}

// contextHost returns the host that r's context fixes, or "".
func contextHost(r *lrule) string {
	for _, c := range r.Context {
		if c.Key.Part == urlnorm.PartHost && c.Kind == condEq {
			return c.Value
		}
	}
	return ""
}

// toRule writes r in package rules' model, without its scope. Its Stats carry the training
// coverage and precision, and as Support the training clusters in which r rewrote a URL onto
// another URL of the cluster (lrule.hits; a widened rule's is the number of sites it was
// learned on). It reports false for a rule the model cannot express.
//
// The learner's edit replaces a window of segments, anchored at the start or the end, by new
// values: the first values overwrite the window's segments (Assign or Copy), the window's
// remaining segments are deleted, and values beyond the window's length are inserted after it
// (Insert). A whole-path conversion is a Convert of the whole path. The window must lie within
// the URL's path, which the rule's context states with an Any condition on the window's far
// segment when it does not already name it. One difference remains: the edit sets or deletes
// every occurrence of a query parameter name, a rules action the first occurrence only, so on a
// URL that repeats a parameter the rule touches (rare in Crawler keys) the set keeps the other
// occurrences.
func toRule(r *lrule) (rules.Rule, bool) {
	var rr rules.Rule
	for _, c := range r.Context {
		op := [...]rules.CondOp{condEq: rules.Equal, condAny: rules.Any, condAbsent: rules.Absent}[c.Kind]
		if c.Key.Part == urlnorm.PartHost && op == rules.Equal {
			// The learner's host is the authority: a host with a port is the host name and
			// the port.
			h, port, user := splitAuthority(c.Value)
			if user {
				return rr, false
			}
			rr.Context = append(rr.Context, rules.Condition{Key: c.Key, Op: op, Value: h})
			if port != "" {
				rr.Context = append(rr.Context, rules.Condition{Key: urlnorm.Key{Part: urlnorm.PartPort}, Op: op, Value: port})
			}
			continue
		}
		rr.Context = append(rr.Context, rules.Condition{Key: c.Key, Op: op, Value: c.Value})
	}
	t := &r.edit
	var acts rules.Transformation
	ok := true
	action := func(k urlnorm.Key, o vop, insert bool) {
		a := rules.Action{Key: k, Insert: insert}
		switch o.Kind {
		case opLiteral:
			if o.Bare {
				ok = false
			}
			a.Op, a.Value = rules.Assign, o.Lit
		default:
			a.Op, a.From = rules.Copy, o.Ref
			a.Conv = [...]rules.Conversion{opRef: rules.NoConversion, opLower: rules.Lower, opUpper: rules.Upper,
				opLowerFirst: rules.LowerFirst, opUpperFirst: rules.UpperFirst, opPrefix: rules.NoConversion, opHead: rules.Head}[o.Kind]
			if o.Kind == opPrefix {
				a.Conv = rules.Prefix(o.N)
			}
		}
		acts = append(acts, a)
	}
	if t.Scheme != nil {
		action(urlnorm.Key{Part: urlnorm.PartScheme}, *t.Scheme, false)
	}
	if t.Host != nil {
		// The edit writes the whole authority: the host name, the port (a host literal
		// without one removes the source's), and no user information.
		h, port, user := splitAuthority(t.Host.Lit)
		if t.Host.Kind != opLiteral || user {
			return rr, false
		}
		action(urlnorm.Key{Part: urlnorm.PartHost}, vop{Kind: opLiteral, Lit: h}, false)
		if port != "" {
			action(urlnorm.Key{Part: urlnorm.PartPort}, vop{Kind: opLiteral, Lit: port}, false)
		} else {
			acts = append(acts, rules.Action{Key: urlnorm.Key{Part: urlnorm.PartPort}, Op: rules.Delete})
		}
		acts = append(acts, rules.Action{Key: urlnorm.Key{Part: urlnorm.PartUserinfo}, Op: rules.Delete})
	}
	if t.PathCase != 0 {
		acts = append(acts, rules.Action{Key: urlnorm.Key{Part: urlnorm.PartPath}, Op: rules.Convert,
			Conv: [...]rules.Conversion{opLower: rules.Lower, opUpper: rules.Upper,
				opLowerFirst: rules.LowerFirst, opUpperFirst: rules.UpperFirst}[t.PathCase]})
	}
	// seg returns the key of the i-th segment of the window, from its left.
	seg := func(i int) urlnorm.Key {
		if t.FromEnd {
			return urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(t.Skip + t.Del - i)}
		}
		return urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(t.Skip + 1 + i)}
	}
	if far := t.Skip + t.Del; far > 0 && (t.Del > 0 || len(t.Ins) > 0) {
		k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(far)}
		if t.FromEnd {
			k = urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(far)}
		}
		i := slices.IndexFunc(rr.Context, func(c rules.Condition) bool { return c.Key == k })
		switch {
		case i < 0:
			rr.Context = append(rr.Context, rules.Condition{Key: k, Op: rules.Any})
		case rr.Context[i].Op == rules.Absent:
			return rr, false // never applies
		}
	}
	for i := range max(t.Del, len(t.Ins)) {
		switch {
		case i < t.Del && i < len(t.Ins):
			action(seg(i), t.Ins[i], false)
		case i < t.Del:
			acts = append(acts, rules.Action{Key: seg(i), Op: rules.Delete})
		default:
			// Beyond the window: inserted after it, in order.
			k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(t.Skip + t.Del + 1)}
			if t.FromEnd {
				k = urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(t.Skip + 1)}
			}
			action(k, t.Ins[i], true)
		}
	}
	for i, q := range t.Query {
		if i > 0 && t.Query[i-1].Name == q.Name {
			return rr, false
		}
		k := urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
		if q.Delete {
			acts = append(acts, rules.Action{Key: k, Op: rules.Delete})
		} else {
			action(k, q.vop, false)
		}
	}
	if !ok {
		return rr, false
	}
	rr.Transform = acts
	rr.Stats = rules.Stats{Coverage: r.Coverage, Precision: r.Precision(), Support: r.hits}
	if ablate.NoHits {
		rr.Stats.Support = 0
	}
	rr.Scope = rules.Scope{Host: "x.example"}
	if rr.Validate() != nil {
		return rules.Rule{}, false
	}
	rr.Scope = rules.Scope{}
	return rr, true
}

// falseOf returns the training errors of a learned rule from its Stats: coverage times one
// minus precision, rounded.
func falseOf(s rules.Stats) int {
	return int(math.Round(float64(s.Coverage) * (1 - s.Precision)))
}
