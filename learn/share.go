package learn

import (
	"slices"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Shared edits. The decision tree of a relearn gives an edit that the site makes on pages of
// several kinds (delete s=, send the bare host to www, http to https) one rule per kind of page
// whose URLs showed it: the deletion of s= on story pages, again on listing pages, again on
// the pages of index.php. A kind of page whose URLs the crawl has not yet met in pairs that
// show the edit gets no rule, and the crawl fetches its variants until a later relearn learns
// it there too (or learns it again, after a relearn whose tree dropped it). An edit that the
// site's rules make in sharedContexts kinds of pages or more is shared: a rule of its own
// makes it wherever the URL allows (s= deleted from every URL of the host that has it), with
// the lowest precedence, so that the rules learned for a kind of page go first. It is a
// tentative rule, checked apart in each context of its uses (see contextOf): its first
// sharedFirst uses in each are checked, and a mismatch retracts it in that context alone.
// The site's own fetches say where it must not apply: where two URLs the crawl fetched with
// different pages get one key by it (index.php?title=A&s=1 and index.php?title=A&s=2, where s
// names a section), it is out in that context from the start.

// sharedContexts is how many rules of a site (kinds of pages) must make an edit before it is
// shared (see the comment above).
const sharedContexts = 2

// sharedFirst is how many of a shared rule's first uses in each context are checked.
const sharedFirst = 3

// sharedStats are the statistics of a shared rule: no training of its own, so that any
// rule learned for a kind of page goes first (see rules' precedence) and its prior is that of
// a rule without training evidence.
var sharedStats = rules.Stats{Coverage: 0, Precision: 1, Support: 0}

// sharedRules returns the shared rules of a site whose own rules (less those retracted) are
// rs: for each edit (see atomicEdits) that at least sharedContexts rules of one scope make,
// a rule that makes it alone in every URL of the scope that allows it. Rules that rs holds
// already are left out. nil with ablate.NoShare.
func sharedRules(rs []rules.Rule) []rules.Rule {
	if ablate.NoShare {
		return nil
	}
	type edit struct {
		scope rules.Scope
		text  string
	}
	count := map[edit]int{}
	made := map[edit]rules.Rule{}
	var order []edit
	have := map[string]bool{}
	for _, r := range rs {
		have[contentKey(r)] = true
		for _, e := range atomicEdits(&r) {
			k := edit{r.Scope, contentKey(e)}
			if count[k] == 0 {
				made[k] = e
				order = append(order, k)
			}
			count[k]++
		}
	}
	backs := map[string]bool{} // the edits of host and scheme, whatever their scope
	for _, k := range order {
		backs[unscoped(made[k])] = true
	}
	var out []rules.Rule
	for _, k := range order {
		r := made[k]
		if count[k] < sharedContexts || have[k.text] {
			continue
		}
		if c := r.Context[0]; c.Op == rules.Equal && (c.Key.Part == urlnorm.PartHost || c.Key.Part == urlnorm.PartScheme) {
			back := rules.Rule{Scope: r.Scope, Context: rules.Context{{Key: c.Key, Op: rules.Equal, Value: r.Transform[0].Value}},
				Transform: rules.Transformation{{Key: c.Key, Op: rules.Assign, Value: c.Value}}, Stats: sharedStats}
			if backs[unscoped(back)] {
				continue // the site's rules make the edit both ways, each on some kinds of pages
			}
		}
		out = append(out, r)
	}
	return out
}

// atomicEdits returns the edits of r that can be made alone, each as a rule of r's scope that
// makes it wherever the URL allows: a query parameter deleted (query("s")=* then
// query("s")=-; query("page")="1" then query("page")=- if r's context fixes the value) unless
// r copies its value elsewhere, a host that r's context fixes assigned another (host="a.example" then
// host="www.a.example"), a scheme likewise (scheme="http" then scheme="https").
func atomicEdits(r *rules.Rule) []rules.Rule {
	var out []rules.Rule
	for _, a := range r.Transform {
		var c rules.Condition
		switch {
		case a.Key.Part == urlnorm.PartQuery && a.Op == rules.Delete:
			if slices.ContainsFunc(r.Transform, func(b rules.Action) bool { return b.Op == rules.Copy && b.From == a.Key }) {
				continue // the parameter's value moves elsewhere (title=T to /wiki/T)
			}
			c = rules.Condition{Key: a.Key, Op: rules.Any}
			if v := literalOf(r, a.Key); v != "" {
				c = rules.Condition{Key: a.Key, Op: rules.Equal, Value: v} // page=1 deleted, not page
			}
		case (a.Key.Part == urlnorm.PartHost || a.Key.Part == urlnorm.PartScheme) && a.Op == rules.Assign:
			v := literalOf(r, a.Key)
			if v == "" || v == a.Value {
				continue
			}
			c = rules.Condition{Key: a.Key, Op: rules.Equal, Value: v}
		default:
			continue
		}
		out = append(out, rules.Rule{Scope: r.Scope, Context: rules.Context{c}, Transform: rules.Transformation{a}, Stats: sharedStats})
	}
	return out
}

// sharedAgainst returns, by rule content, the contexts (see ruleContext) in which a shared
// rule of v gives one key to two URLs of s that the crawl fetched with different pages, and is
// decisive for it (see decisive): the site has shown that the edit joins distinct pages there.
// It costs a key per URL. s.mu must be held.
func (s *onlineSite) sharedAgainst(v *siteVersion) map[string]map[string]bool {
	if !slices.ContainsFunc(v.prior, func(p riskPrior) bool { return p.shared }) {
		return nil
	}
	type first struct {
		k  Key
		fp uint64
	}
	firsts := map[string]first{}
	out := map[string]map[string]bool{}
	for _, fp := range s.order {
		for _, u := range s.clusters[fp].URLs {
			if s.inferred[u.Raw] {
				continue
			}
			p, ok := Prepare(u.Raw)
			if !ok {
				continue
			}
			k, err := v.key(p)
			if err != nil {
				continue
			}
			f, ok := firsts[k.Key]
			if !ok {
				firsts[k.Key] = first{k, fp}
				continue
			}
			if f.fp == fp {
				continue
			}
			for _, r := range decisive(k, f.k) {
				if r.ver != v || !v.prior[r.i].shared {
					continue
				}
				c := contentKey(v.set.Rule(r.i))
				if out[c] == nil {
					out[c] = map[string]bool{}
				}
				out[c][ruleContext(v, r.i, r.in, r.key)] = true
			}
		}
	}
	return out
}

// unscoped returns the content of r (see contentKey) as if its scope were every host.
func unscoped(r rules.Rule) string {
	r.Scope = rules.Scope{Host: rules.AllHosts}
	return contentKey(r)
}
