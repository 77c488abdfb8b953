// Package roles learns the roles of a site's query parameters per page type from the value
// diversity within and across its dup clusters, for the URL-rule learners (package learn and
// learn/align): which parameters identify the pages of a type, and which clusters look like
// pages grouped by mistake.
package roles

import (
	"cmp"
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// A URL is what roles reads of a URL of a cluster: its origin (scheme and authority, in any
// form the caller keeps alike for all its URLs), its path segments, its query parameters sorted
// by name, its deep tokens if any, and its text. It is a plain value; Learn does not modify it.
type URL struct {
	Origin string
	Path   []string
	Query  []urlnorm.Token
	Deep   []urlnorm.Token
	Text   string
}

// Parameter roles per page type. A query parameter plays a role on a kind of page: on a
// forum's thread pages t names the thread, on a wiki's do=recent page the id of the page it was
// reached from does not matter, and a session id never matters. The role shows in the value
// diversity within and across the site's clusters: a parameter whose value never differs
// between two URLs of one cluster, and that takes at least 2 values, identifies pages of that
// type, however few its values (two thread ids that also differ by an offset parameter are
// enough). A deletion of the parameter whatever its value is then limited to the page types
// where it does not identify pages.
//
// A parameter that some URL of a cluster drops (it lacks the parameter and carries its value
// nowhere else: ?t=1627 and ?1627-some-title keep it) does not identify pages: a tracking parameter
// added to some links of a page, phpBB's f= added to some links of a topic. A URL that lacks a
// parameter whose value the URL with it repeats in another part drops it too, however it carries
// the value: gitweb's blobdiff links fp=F beside f=F in its feeds and not elsewhere, and the link
// without fp holds F in f alone. Nor does one whose value another identifying parameter of the type
// determines (see determined): f= on the topic's printable view, where no link drops it, is the
// forum of the topic t=.
//
// A page type is a path template and the URL's type values: the path's segments, each kept if
// it occurs in at least minLiteral (see Learn) of the site's clusters and "*" otherwise
// (/wiki/* for /wiki/Apple), and the values of parameters with few values that tell kinds of
// pages apart on one script (do=recent, action=edit, redlink=1; see typeValues). The type of a
// URL for the role of a parameter leaves that parameter out. A cluster whose URLs of one page type differ in a parameter that identifies
// pages of that type in most other clusters looks like several pages grouped by mistake (the
// "not found" pages of a crawl log that content hashing groups): its pairs are left out of
// learning.

// Type values: a parameter of at most maxTypeValues distinct values, each on at least
// typeRepeat URLs and never beside another value, or the parameter's absence, in a cluster.
const (
	maxTypeValues = 12
	typeRepeat    = 4
)

// Roles is what the value diversity of a site's clusters says of its parameters. It is
// immutable once Learn returns it, and safe for concurrent use.
type Roles struct {
	typeValues map[string]map[string]bool // parameter -> its values that make page types
	common     map[string]int             // value -> clusters it occurs in (at most MinLiteral)
	minLiteral int
	// ident holds, per page type, the parameters that identify its pages; the type of a
	// parameter's URL is made without that parameter (see pageType).
	ident map[string]map[string]bool
	// noisy holds the clusters that look like pages grouped by mistake.
	noisy map[int32]bool
	// varies holds, per parameter, the clusters in which a URL drops it or two URLs of one
	// page type give it different values, and those page types.
	varies map[string]*variation
	// kept holds the parameters that keep one value on the URLs of every cluster of some page
	// type (of those of two URLs or more with it).
	kept map[string]bool
	// separates holds, per parameter, the URLs without it (see image) whose pages it tells
	// apart (see Separations).
	separates map[string]map[string]bool
}

// A variation is where a parameter takes several forms on the URLs of one page (see Varies).
type variation struct {
	clusters int
	last     int32 // the last cluster counted
	types    map[string]bool
}

// paramStat counts, for one parameter on one page type, the clusters of at least two URLs with
// the parameter where its value is the same in all of them (stable) or not (differs), the
// clusters where a URL drops it (see carries), and its distinct values (at most 2 are needed).
type paramStat struct {
	stable, differs, dropped int
	values                   []string
	differIn                 []int32 // the clusters where it differs
	// kept counts the stable clusters where two different URLs have the parameter: URLs
	// that the learner's rewrites made equal (two case variants lowercased) show nothing.
	kept int
}

// Learn computes the roles of the parameters of a site's URLs, given by cluster (byCluster[i]
// holds the URLs of cluster i); common counts, for every path segment (and any other value),
// the clusters it occurs in, and a segment of at least minLiteral clusters is a literal of the
// path template. It does not modify its arguments and keeps common.
func Learn(byCluster [][]URL, common map[string]int, minLiteral int) *Roles {
	ro := &Roles{typeValues: typeValues(byCluster), common: common, minLiteral: minLiteral, ident: map[string]map[string]bool{}, noisy: map[int32]bool{},
		varies: map[string]*variation{}, kept: map[string]bool{}}
	if !ablate.NoSeparations {
		ro.separates = separations(byCluster)
	}
	stats := map[string]map[string]*paramStat{} // page type -> parameter -> stat
	for ci, ms := range byCluster {
		// The values of each parameter among the cluster's URLs of each page type, and one
		// value of each parameter in the cluster.
		vals := map[string]map[string][]string{}
		type typeName struct{ t, name string }
		firstText := map[typeName]string{}
		twoTexts := map[typeName]bool{}
		some := map[string]string{}
		from := map[string]int{} // the URL of ms that some's value was read from
		for mi, m := range ms {
			for i, q := range m.Query {
				if i > 0 && m.Query[i-1].Name == q.Name {
					continue
				}
				some[q.Name] = q.Value
				from[q.Name] = mi
				t := ro.pageType(&m, q.Name)
				if vals[t] == nil {
					vals[t] = map[string][]string{}
				}
				vals[t][q.Name] = append(vals[t][q.Name], q.Value)
				if f, ok := firstText[typeName{t, q.Name}]; !ok {
					firstText[typeName{t, q.Name}] = m.Text
				} else if f != m.Text {
					twoTexts[typeName{t, q.Name}] = true
				}
			}
		}
		// The parameters that a URL of the cluster drops: it lacks the parameter and its
		// value (a value moved elsewhere, ?t=1627 and ?1627-some-title, is not dropped). A
		// value that the URL with the parameter repeats in another part (gitweb's
		// blobdiff;f=F;fp=F) is a copy: a URL without the parameter that holds the value
		// holds the other part, and drops the copy.
		// A drop of a copy shows the copy redundant where it is one, not the parameter
		// wherever it is: lost holds the parameters a URL drops without holding the value.
		dropped, lost := map[string]bool{}, map[string]bool{}
		for name, v := range some {
			copied := !ablate.NoCopies && ms[from[name]].repeats(name, v)
			for _, m := range ms {
				if !m.has(name) && !m.carries(v) {
					dropped[name], lost[name] = true, true
					break
				}
				if !m.has(name) && copied {
					dropped[name] = true
				}
			}
		}
		for t, byName := range vals {
			if stats[t] == nil {
				stats[t] = map[string]*paramStat{}
			}
			for name, vs := range byName {
				st := stats[t][name]
				if st == nil {
					st = &paramStat{}
					stats[t][name] = st
				}
				for _, v := range vs {
					if len(st.values) < 2 && !slices.Contains(st.values, v) {
						st.values = append(st.values, v)
					}
				}
				differs := len(vs) >= 2 && slices.ContainsFunc(vs[1:], func(v string) bool { return v != vs[0] })
				if lost[name] || differs {
					ro.vary(name, t, int32(ci))
				}
				if dropped[name] {
					st.dropped++
				}
				if len(vs) < 2 {
					continue
				}
				if differs {
					st.differs++
					st.differIn = append(st.differIn, int32(ci))
				} else {
					st.stable++
					if twoTexts[typeName{t, name}] {
						st.kept++
					}
				}
			}
		}
	}
	var det map[string][]string
	if !ablate.NoDetermined {
		det = determined(byCluster)
	}
	for t, byName := range stats {
		for name, st := range byName {
			if st.kept > 0 && st.differs == 0 && st.dropped == 0 {
				ro.kept[name] = true
			}
			if len(st.values) < 2 || det[name] != nil && slices.ContainsFunc(det[name], func(q string) bool {
				qs := byName[q]
				return qs != nil && qs.differs == 0 && qs.dropped == 0 && len(qs.values) >= 2
			}) {
				continue
			}
			switch {
			case st.dropped > 0:
				// A page's URLs with and without it: it does not name the page.
				continue
			case st.differs == 0:
				// Never differs within a cluster: it identifies pages of the type.
			case 4*st.differs <= st.stable:
				// It identifies pages in most clusters: those where it differs look like
				// pages grouped by mistake.
				for _, c := range st.differIn {
					ro.noisy[c] = true
				}
			default:
				continue
			}
			if ro.ident[t] == nil {
				ro.ident[t] = map[string]bool{}
			}
			ro.ident[t][name] = true
		}
	}
	return ro
}

// Separations. URLs of a site the same but for the value of one query parameter that lie in
// different clusters are different pages told apart by that parameter alone: a repository
// browser's listings of one directory at several commits, ?a=tree;f=src;hb=C1 and
// ?a=tree;f=src;hb=C2, each alone in its cluster, where the counts per cluster of Learn see
// nothing. A rule learned where the parameter did not matter (the root listing, which reads
// the same at every commit, linked with its hash h= and its commit hb=) that deletes it
// whatever its value would rewrite the directory's listing at the head, ?a=tree;f=src;h=T;
// hb=HEAD, onto the URL those pages have without it, and with it the listing at every other
// commit: the learners count such a use as a use on a page type whose pages the parameter
// identifies (see Separates).

// minSeparated is the number of clusters that URLs the same but for a parameter's value must
// lie in for the parameter to tell their pages apart; and at most a quarter of those clusters
// may hold two of its values (hb=HEAD and hb=<the head's commit>).
const minSeparated = 3

// separations returns, per query parameter, the images (see image) of the URLs whose pages it
// tells apart (see Separations).
func separations(byCluster [][]URL) map[string]map[string]bool {
	type use struct {
		img, name, value string
		cluster          int32
	}
	var uses []use
	for ci, ms := range byCluster {
		for _, m := range ms {
			for i, q := range m.Query {
				if i > 0 && m.Query[i-1].Name == q.Name || i+1 < len(m.Query) && m.Query[i+1].Name == q.Name {
					continue // a repeated parameter has no one value
				}
				uses = append(uses, use{image(&m, i), q.Name, q.Value, int32(ci)})
			}
		}
	}
	slices.SortFunc(uses, func(a, b use) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := strings.Compare(a.img, b.img); c != 0 {
			return c
		}
		if c := cmp.Compare(a.cluster, b.cluster); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	out := map[string]map[string]bool{}
	for i := 0; i < len(uses); {
		// The uses of one URL without one parameter, by cluster, then value.
		j, clusters, multi := i, 0, 0
		two := false // the current cluster holds two values
		for ; j < len(uses) && uses[j].name == uses[i].name && uses[j].img == uses[i].img; j++ {
			switch {
			case j == i || uses[j].cluster != uses[j-1].cluster:
				clusters, two = clusters+1, false
			case !two && uses[j].value != uses[j-1].value:
				multi, two = multi+1, true
			}
		}
		if clusters >= minSeparated && 4*multi <= clusters {
			if out[uses[i].name] == nil {
				out[uses[i].name] = map[string]bool{}
			}
			out[uses[i].name][uses[i].img] = true
		}
		i = j
	}
	return out
}

// image returns a text of u without its query parameter at index skip (-1: none): its origin,
// path and other parameters.
func image(u *URL, skip int) string {
	var b strings.Builder
	b.WriteString(u.Origin)
	for _, s := range u.Path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	b.WriteByte('?')
	for i, q := range u.Query {
		if i != skip {
			b.WriteString(q.Name)
			b.WriteByte('=')
			b.WriteString(q.Value)
			b.WriteByte('&')
		}
	}
	return b.String()
}

// Separates reports whether parameter name tells apart the pages of URLs that are out but for
// their value of it (see Separations): a rule that deletes it whatever its value and rewrites a
// URL to out would send all of them to one key. out lacks name. A nil Roles knows none.
func (ro *Roles) Separates(out *URL, name string) bool {
	return ro != nil && ro.separates[name] != nil && ro.separates[name][image(out, -1)]
}

// determined returns, per parameter P, the parameters Q whose value determines P's on the
// site: every value of Q seen with P goes with one value of P, across clusters, on at least
// minDetermined values of Q seen with P in two clusters or more, and P does not determine Q as
// well. Such a P says nothing of a page that Q does not: phpBB's f= on a topic's printable view
// (view=print&f=2&t=447) is the forum of topic t=447 wherever the topic is linked, and it is t
// that names the page. P is then no identifier of a page type on which Q is one (see Learn).
func determined(byCluster [][]URL) map[string][]string {
	type seen struct {
		p       string // P's value with this value of Q
		cluster int32
		multi   bool // seen in two clusters or more
	}
	type dep struct {
		vals     map[string]*seen
		conflict bool
	}
	deps := map[[2]string]*dep{} // {Q, P}
	for ci, ms := range byCluster {
		for _, m := range ms {
			for i, q := range m.Query {
				if i > 0 && m.Query[i-1].Name == q.Name {
					continue
				}
				for j, p := range m.Query {
					if j == i || j > 0 && m.Query[j-1].Name == p.Name {
						continue
					}
					k := [2]string{q.Name, p.Name}
					d := deps[k]
					if d == nil {
						d = &dep{vals: map[string]*seen{}}
						deps[k] = d
					}
					if d.conflict {
						continue
					}
					switch sv := d.vals[q.Value]; {
					case sv == nil:
						d.vals[q.Value] = &seen{p: p.Value, cluster: int32(ci)}
					case sv.p != p.Value:
						d.conflict = true
					case sv.cluster != int32(ci):
						sv.multi = true
					}
				}
			}
		}
	}
	holds := func(d *dep) bool {
		if d == nil || d.conflict {
			return false
		}
		n := 0
		for _, sv := range d.vals {
			if sv.multi {
				n++
			}
		}
		return n >= minDetermined
	}
	out := map[string][]string{}
	for k, d := range deps {
		if holds(d) && !holds(deps[[2]string{k[1], k[0]}]) {
			out[k[1]] = append(out[k[1]], k[0])
		}
	}
	for _, qs := range out {
		slices.Sort(qs)
	}
	return out
}

// minDetermined is the number of values of a parameter Q, each seen in two clusters or more,
// that must go with one value of P each for Q to determine P (see determined).
const minDetermined = 3

// carries reports whether u holds the value v: as a path segment, a query value or a deep
// token, or, for a value of at least 4 bytes, anywhere in its text.
func (u *URL) carries(v string) bool {
	if v == "" {
		return false
	}
	if slices.Contains(u.Path, v) || slices.ContainsFunc(u.Query, func(t urlnorm.Token) bool { return t.Value == v }) ||
		slices.ContainsFunc(u.Deep, func(t urlnorm.Token) bool { return t.Value == v }) {
		return true
	}
	return len(v) >= 4 && strings.Contains(u.Text, v)
}

// repeats reports whether u holds the value v of its query parameter name in another path
// segment or query parameter as well.
func (u *URL) repeats(name, v string) bool {
	return v != "" && (slices.Contains(u.Path, v) ||
		slices.ContainsFunc(u.Query, func(t urlnorm.Token) bool { return t.Name != name && t.Value == v }))
}

// has reports whether u has query parameter name.
func (u *URL) has(name string) bool {
	return slices.ContainsFunc(u.Query, func(t urlnorm.Token) bool { return t.Name == name })
}

// typeValues returns the values of parameters that tell kinds of pages apart (do=recent,
// action=edit, redlink=1): of a parameter with few values, the values repeated on many URLs
// and never beside another value, or the parameter's absence, in a cluster. do=show, which a
// wiki's page has with and without, is not one: such a URL is of the type of the URL without it.
func typeValues(byCluster [][]URL) map[string]map[string]bool {
	urls := map[string]map[string]int{} // parameter -> value -> URLs
	mixed := map[string]map[string]bool{}
	for _, ms := range byCluster {
		vals := map[string]map[string]int{}
		for _, m := range ms {
			for i, q := range m.Query {
				if i > 0 && m.Query[i-1].Name == q.Name || q.Bare {
					continue
				}
				if vals[q.Name] == nil {
					vals[q.Name] = map[string]int{}
				}
				vals[q.Name][q.Value]++
			}
		}
		for name, vs := range vals {
			if urls[name] == nil {
				urls[name] = map[string]int{}
				mixed[name] = map[string]bool{}
			}
			if len(urls[name]) > maxTypeValues {
				continue
			}
			for v, n := range vs {
				urls[name][v] += n
				if n < len(ms) {
					mixed[name][v] = true // beside another value, or the parameter's absence
				}
			}
		}
	}
	out := map[string]map[string]bool{}
	for name, vs := range urls {
		if len(vs) > maxTypeValues {
			continue
		}
		for v, n := range vs {
			if n >= typeRepeat && !mixed[name][v] {
				if out[name] == nil {
					out[name] = map[string]bool{}
				}
				out[name][v] = true
			}
		}
	}
	return out
}

// pageType returns the page type of p for the role of parameter except: its path template and
// its type values, but that of except.
func (ro *Roles) pageType(u *URL, except string) string {
	var b strings.Builder
	for _, s := range u.Path {
		b.WriteByte('/')
		if ro.common[s] >= ro.minLiteral {
			b.WriteString(s)
		} else {
			b.WriteByte('*')
		}
	}
	b.WriteByte('?')
	for i, q := range u.Query {
		if q.Name != except && ro.typeValues[q.Name][q.Value] && (i == 0 || u.Query[i-1].Name != q.Name) {
			b.WriteString(q.Name)
			b.WriteByte('=')
			b.WriteString(q.Value)
			b.WriteByte('&')
		}
	}
	return b.String()
}

// Identifies reports whether parameter name identifies the pages of u's type. A nil Roles
// knows no role.
func (ro *Roles) Identifies(u *URL, name string) bool {
	if ro == nil || len(ro.ident) == 0 {
		return false
	}
	return ro.ident[ro.pageType(u, name)][name]
}

// vary records that parameter name takes several forms on the URLs of cluster ci, of page type
// t.
func (ro *Roles) vary(name, t string, ci int32) {
	v := ro.varies[name]
	if v == nil {
		v = &variation{last: -1, types: map[string]bool{}}
		ro.varies[name] = v
	}
	if v.last != ci {
		v.last = ci
		v.clusters++
	}
	v.types[t] = true
}

// Varies returns the number of clusters in which some URL drops parameter name (and does not
// hold its value elsewhere), or two URLs of one page type give it different values, and the
// number of page types of those URLs; and whether the parameter names pages of some type, as
// far as the clusters show: it identifies them, or it keeps one value on the URLs of every
// cluster of the type (of those of two URLs or more with it). A parameter that varies on the
// pages of several types and names the pages of none names no page on the site: a navigation
// parameter (from=top, from=sidebar), a return address. A nil Roles knows none.
func (ro *Roles) Varies(name string) (clusters, types int, names bool) {
	if ro == nil {
		return 0, 0, false
	}
	names = ro.kept[name]
	for _, ps := range ro.ident {
		if names {
			break
		}
		names = ps[name]
	}
	if v := ro.varies[name]; v != nil {
		clusters, types = v.clusters, len(v.types)
	}
	return clusters, types, names
}

// Noisy reports whether cluster i (an index of Learn's byCluster) looks like pages grouped by
// mistake.
func (ro *Roles) Noisy(i int) bool { return ro != nil && ro.noisy[int32(i)] }

// TypeValue reports whether value of parameter name tells a kind of page apart (do=recent,
// action=edit; see typeValues). A nil Roles knows none.
func (ro *Roles) TypeValue(name, value string) bool {
	return ro != nil && ro.typeValues[name][value]
}
