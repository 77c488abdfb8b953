package learn

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/urlnorm"
)

// A tokenParam is the evidence that a query parameter of a site names no page, such as a
// session id: the clusters in which two URLs give it different values, those in which two URLs
// give it one value, whether two clusters share a value, its distinct values (counted up to 2),
// and what deleting it from every training URL that has it does, in isolation: the URLs it
// brings onto another URL of their cluster (agree) or of another cluster (against).
type tokenParam struct {
	differs, same  int
	agree, against int
	repeated       bool // a value of it is on two pages
	values         int  // its distinct values, counted up to 2
}

// tokenParams returns, by name, the query parameters of a site's training URLs whose values
// its clusters show to name no page. A token, as a session id on every link is: in at least
// minTokenClusters clusters two URLs of the page give the parameter different values, and no
// value is on two URLs of one cluster nor on two clusters. A navigation parameter of few values
// (from=top, from=sidebar on every kind of page; a return address): it takes 2 values or more,
// and the parameter roles of the site's clusters (package internal/roles) show it to vary on the
// URLs of one page (a URL drops it, or gives another value) in at least minTokenClusters
// clusters, of at least minNavTypes page types, and to name the pages of no type. For both,
// deleting it from every training URL of the site merges no two clusters, and the rule "delete
// it wherever it is", with the URLs it brings onto another URL of their cluster for coverage,
// passes selection.
//
// A parameter that names pages keeps its value on the URLs of one page (an id beside a tracking
// parameter, a profile's tab), or takes several on the pages of a type where no page's URLs
// vary (color=red, which preselects a product's color and filters a listing): neither is
// returned. Nor is a flag of one value (view=print), which may change what a page shows (the
// print view of an article of several pages), nor a parameter seen varying on fewer page types
// (a filter that some pages ignore). They are left to the pairs, context by context. It is for the online learner (see
// Options.online): a crawl's clusters hold the variants of a page it happened to fetch, so that
// without it every combination of a session id or a link's origin with another variant (the
// bare host, a print view, a case variant) is a transformation of its own, learned in each page
// type's context, each waiting for its own support. The parameters returned are deleted from
// the training URLs before pairs are derived, and each gets one rule of the site (see
// site.finish). Time and memory are linear in the URLs.
func tokenParams(byCluster [][]*member, opt Options) map[string]*tokenParam {
	if ablate.NoTokenParams {
		return nil
	}
	ident := map[string]int32{}
	for _, ms := range byCluster {
		for _, m := range ms {
			ident[m.prep] = m.cluster
		}
	}
	dels := newParamDeletions(ident)
	out := map[string]*tokenParam{}
	type nameValue struct{ name, value string }
	valueAt := map[nameValue]int32{} // the first cluster with the value
	for _, ms := range byCluster {
		first := map[string]string{}       // the parameter's first value in the cluster
		firstURL := map[nameValue]string{} // the first URL of the cluster with the value
		differs, same := map[string]bool{}, map[string]bool{}
		for _, m := range ms {
			for i, q := range m.p.query {
				if i > 0 && m.p.query[i-1].Name == q.Name {
					continue
				}
				tp := out[q.Name]
				if tp == nil {
					tp = &tokenParam{}
					out[q.Name] = tp
				}
				if v, ok := first[q.Name]; !ok {
					first[q.Name] = q.Value
				} else if v != q.Value && !differs[q.Name] {
					differs[q.Name] = true
					tp.differs++
				}
				nv := nameValue{q.Name, q.Value}
				if u, ok := firstURL[nv]; !ok {
					firstURL[nv] = m.prep
				} else if u != m.prep && !same[q.Name] {
					same[q.Name] = true
					tp.same++
				}
				if c, ok := valueAt[nv]; !ok {
					valueAt[nv] = m.cluster
					tp.values = min(tp.values+1, 2)
				} else if c != m.cluster {
					tp.repeated = true
				}
				if tp.against > 0 || (tp.same > 0 || tp.repeated) && ablate.NoNavParams {
					// Deleting it merges pages, or it is no token and navigation parameters are
					// off: what deleting it does no longer matters.
					continue
				}
				switch bad, met, ok := dels.measure(m, q.Name); {
				case !ok:
				case bad:
					tp.against++
				case met:
					tp.agree++
				}
			}
		}
	}
	var ro *roles.Roles
	for name, tp := range out {
		if r := tp.rule("", name); tp.against > 0 || !r.selected(opt.MinPrecision, opt.MinCoverage, true) {
			delete(out, name)
			continue
		}
		if tp.same == 0 && !tp.repeated && tp.differs >= minTokenClusters {
			continue // a token
		}
		if ablate.NoNavParams || tp.values < 2 {
			delete(out, name)
			continue
		}
		if ro == nil {
			ro = learnRoles(byCluster, valueClusters(byCluster))
		}
		if clusters, types, names := ro.Varies(name); names || clusters < minTokenClusters || types < minNavTypes {
			delete(out, name)
		}
	}
	return out
}

// minNavTypes is the number of page types on whose URLs a navigation parameter must vary (see
// tokenParams). A link adds it to links to every kind of page; a filter that leaves some pages as
// they are (a product's preselected color, a listing whose products all have the color) varies on
// the pages of one or two types, and names the others.
const minNavTypes = 4

// minTokenClusters is the number of clusters in which a parameter must take two values or more
// to be a token (see tokenParams).
const minTokenClusters = 2

// rule returns the rule of site that deletes parameter name wherever it is.
func (tp *tokenParam) rule(site, name string) lrule {
	return lrule{
		Site:     site,
		Context:  []cond{{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: name}, Kind: condAny}},
		edit:     edit{Query: []queryOp{{Name: name, Delete: true}}},
		Coverage: tp.agree, False: tp.against,
	}
}

// withoutTokens returns ms with the token parameters deleted, as their rules rewrite them. As
// lowerPaths does, it keeps the URLs that become equal.
func withoutTokens(ms []*member, tokens map[string]*tokenParam, buf *[]urlnorm.Token) []*member {
	return rewritten(ms, buf, func(m *member) string {
		var del edit
		for i, q := range m.p.query {
			if tokens[q.Name] != nil && (i == 0 || m.p.query[i-1].Name != q.Name) {
				del.Query = append(del.Query, queryOp{Name: q.Name, Delete: true})
			}
		}
		if len(del.Query) == 0 {
			return m.prep
		}
		p, ok := del.apply(&m.p)
		if !ok {
			return m.prep
		}
		return finalize(p.String())
	})
}
