package learn

import (
	"slices"

	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/urlnorm"
)

// Parameter roles per page type (package internal/roles): a rule that deletes a parameter
// whatever its value is not selected where it covers a URL of a type whose pages the
// parameter identifies, and the clusters that look like pages grouped by mistake give no
// pairs. See the package doc, selection.

// learnRoles computes the roles of the parameters of a site's members, by cluster; common
// counts values in clusters (valueClusters).
func learnRoles(byCluster [][]*member, common map[string]int) *roles.Roles {
	urls := make([][]roles.URL, len(byCluster))
	for i, ms := range byCluster {
		urls[i] = make([]roles.URL, len(ms))
		for j, m := range ms {
			urls[i][j] = roleURL(m)
		}
	}
	return roles.Learn(urls, common, minLiteralClusters)
}

func roleURL(m *member) roles.URL {
	return roles.URL{Origin: m.p.scheme + "://" + m.p.host, Path: m.p.path, Query: m.p.query, Deep: m.p.deep, Text: m.prep}
}

// blocked reports whether r, which rewrites m to out, deletes whatever its value a parameter
// that identifies the pages of m's type, or that tells apart the pages of training URLs that
// are out but for it (roles.Separates). A parameter whose value the rule copies elsewhere
// (wiki?title=T to /wiki/T) is moved, not deleted.
func blocked(ro *roles.Roles, r *lrule, m *member, out string) bool {
	if ro == nil {
		return false
	}
	var u, o roles.URL
	parsed := false // o holds out, if it parses
	for _, q := range r.edit.Query {
		if !q.Delete || !wildcarded(r, q.Name) || r.edit.reads(q.Name) {
			continue
		}
		if u.Text == "" {
			u = roleURL(m)
		}
		if ro.Identifies(&u, q.Name) {
			return true
		}
		if !parsed {
			parsed = true
			if p, _, ok := parse(out, nil); ok {
				o = roles.URL{Origin: p.scheme + "://" + p.host, Path: p.path, Query: p.query}
			}
		}
		if o.Origin != "" && ro.Separates(&o, q.Name) {
			return true
		}
	}
	return false
}

// reads reports whether t copies the value of query parameter name, or a deep token of it.
func (t *edit) reads(name string) bool {
	reads := func(o *vop) bool {
		return o != nil && o.Kind != opLiteral && o.Ref.Part == urlnorm.PartQuery && o.Ref.Name == name
	}
	if reads(t.Scheme) || reads(t.Host) || slices.ContainsFunc(t.Ins, func(o vop) bool { return reads(&o) }) {
		return true
	}
	return slices.ContainsFunc(t.Query, func(q queryOp) bool { return !q.Delete && reads(&q.vop) })
}

// wildcarded reports whether r's context lets parameter name have any value.
func wildcarded(r *lrule, name string) bool {
	for _, c := range r.Context {
		if c.Key.Part == urlnorm.PartQuery && c.Key.Name == name && c.Key.Sub == 0 && c.Key.RSub == 0 {
			return c.Kind == condAny
		}
	}
	return true
}
