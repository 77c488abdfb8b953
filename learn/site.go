package learn

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/casefold"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/urlnorm"
)

// learnSite runs the stages for one site: preparation, target and source selection, pairwise
// rules, generalization per class, and the measurement of every rule on the site's training URLs.
func learnSite(name string, cls []*Cluster, opt Options) (*site, Stats) {
	pw := pairwise(canonicalOrder(cls), opt)
	s := &site{name: name, hosts: pw.hosts, patterns: pw.patterns}
	return s.finish(pw, opt)
}

// canonicalOrder returns the clusters sorted by id, each with its URLs sorted by text, so that
// what is learned does not depend on the order of the input lines (a Beam shuffle, a sorted or
// concatenated crawl log). It copies what it sorts and does not modify cls.
func canonicalOrder(cls []*Cluster) []*Cluster {
	out := slices.Clone(cls)
	slices.SortStableFunc(out, func(a, b *Cluster) int { return strings.Compare(a.ID, b.ID) })
	for i, c := range out {
		if !slices.IsSortedFunc(c.URLs, compareURL) {
			cc := *c
			cc.URLs = slices.Clone(c.URLs)
			slices.SortStableFunc(cc.URLs, compareURL)
			out[i] = &cc
		}
	}
	return out
}

func compareURL(a, b URL) int { return strings.Compare(a.Raw, b.Raw) }

// pairwiseRules is the outcome of the pairwise stage for one site.
type pairwiseRules struct {
	st      Stats
	rs      *rowSet
	classes []edit
	all     []*member
	hosts   []string

	patterns  map[string]*deeptoken.Patterns // by host
	caseHosts map[string]casefold.Evidence   // hosts whose paths are case-insensitive
	aliases   map[string]*originAlias        // online: origins whose URLs move to the main origin
	tokens    map[string]*tokenParam         // online: query parameters deleted from the training URLs
	roles     *roles.Roles                   // parameter roles per page type, nil with Options.NoRoles
	shared    map[string]bool                // parameters a target kept for a shared deep token
}

// learnPatterns learns the deep-token patterns of every host name of members (package
// deeptoken, WSDM'10 §3.1.2) and returns those that split some tokens, by host name: package
// rules keys patterns by host name, whatever the port. A host with user information is left
// out.
func learnPatterns(members []*member) map[string]*deeptoken.Patterns {
	byHost := map[string][]string{}
	var hosts []string
	for _, m := range members {
		h, _, user := splitAuthority(m.p.host)
		if user {
			continue
		}
		if _, ok := byHost[h]; !ok {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], m.prep)
	}
	out := map[string]*deeptoken.Patterns{}
	for _, h := range hosts {
		if p := deeptoken.Learn(slices.Values(byHost[h]), deeptoken.Options{}); p.Len() > 0 {
			out[h] = p
		}
	}
	return out
}

// pairwise prepares a site's URLs, selects targets and sources and derives the pairwise rules
// (Algorithm 4, GenerateAllRules).
func pairwise(cls []*Cluster, opt Options) *pairwiseRules {
	st := Stats{Sites: 1, Clusters: len(cls)}
	attrIdx := map[urlnorm.Key]int32{}
	vals := map[string]int32{}
	rs := &rowSet{valStr: []string{""}}
	classIdx := map[string]int32{}
	var classes []edit
	hostSet := map[string]bool{}

	var all []*member // every prepared training URL of the site
	var rowFeat [][]feat
	var buf []urlnorm.Token

	addRow := func(m *member, class int32) {
		var fs []feat
		attrKeys(&m.p, func(k urlnorm.Key, v string) {
			a, ok := attrIdx[k]
			if !ok {
				a = int32(len(rs.attrs))
				attrIdx[k] = a
				rs.attrs = append(rs.attrs, k)
			}
			id, ok := vals[v]
			if !ok {
				id = int32(len(rs.valStr))
				vals[v] = id
				rs.valStr = append(rs.valStr, v)
			}
			fs = append(fs, feat{a, id})
		})
		rowFeat = append(rowFeat, fs)
		rs.class = append(rs.class, class)
		rs.cluster = append(rs.cluster, m.cluster)
	}

	byCluster := make([][]*member, len(cls))
	for ci, c := range cls {
		ms := make([]*member, 0, len(c.URLs))
		seen := map[string]bool{}
		for _, u := range c.URLs {
			st.URLs++
			prep, ok := Prepare(u.Raw)
			if !ok {
				st.BadURLs++
				continue
			}
			if seen[prep] {
				continue
			}
			seen[prep] = true
			var p parsed
			p, buf, ok = parse(prep, buf)
			if !ok {
				st.BadURLs++
				continue
			}
			hostSet[p.host] = true
			ms = append(ms, &member{prep: prep, p: p, importance: u.Importance, inlinks: u.Inlinks, cluster: int32(ci)})
		}
		byCluster[ci] = ms
	}
	// Online, the targets that the site's rules before the relearn give the clusters (see
	// keptTargets), as members that are no training URL, moved and lowercased as the
	// clusters' URLs are.
	var kept []*member
	if len(opt.kept) > 0 {
		kept = make([]*member, len(cls))
		for ci, c := range cls {
			k := opt.kept[c.ID]
			if k == "" || slices.ContainsFunc(byCluster[ci], func(m *member) bool { return m.prep == k }) {
				continue // none, or a URL of the cluster, ranked with the others
			}
			var p parsed
			var ok bool
			if p, buf, ok = parse(k, buf); ok {
				kept[ci] = &member{prep: k, p: p, cluster: int32(ci)}
			}
		}
	}
	// Online, the origins that alias the main origin: their URLs move to it before anything
	// else is learned, case included, and each gets one rule that rewrites its origin (see
	// finish). Hosts whose paths are case-insensitive by the evidence of the site's clusters:
	// their paths are lowercased before anything is learned, and the host gets one rule that
	// lowercases the path. Online, the query parameters that the site's clusters show to name
	// no page: they are deleted from the training URLs, and each gets one rule. Each of the
	// three stages finds more evidence once the others have rewritten the training URLs (the
	// bare host's URL of a page with a session id matches the main origin's only without it),
	// so online they run again, on the URLs they rewrote, while a round finds something new, at
	// most maxRounds times.
	var (
		aliases   map[string]*originAlias
		caseHosts map[string]casefold.Evidence
		tokens    map[string]*tokenParam
	)
	for round := 0; round < maxRounds; round++ {
		found := false
		if opt.online {
			if al := aliasOrigins(byCluster, opt); len(al) > 0 {
				for ci, ms := range byCluster {
					byCluster[ci] = toMain(ms, al, &buf)
				}
				for ci, m := range kept {
					if m != nil {
						kept[ci] = toMain([]*member{m}, al, &buf)[0]
					}
				}
				aliases, found = merged(aliases, al), true
			}
		}
		// A host lowercased in an earlier round stays as that round's evidence lowered it.
		ch := caseInsensitive(byCluster)
		maps.DeleteFunc(ch, func(h string, _ casefold.Evidence) bool { _, ok := caseHosts[h]; return ok })
		if len(ch) > 0 {
			for ci, ms := range byCluster {
				byCluster[ci] = lowerPaths(ms, ch, &buf)
				if kept != nil && kept[ci] != nil {
					kept[ci] = lowerPaths([]*member{kept[ci]}, ch, &buf)[0]
				}
			}
			caseHosts, found = merged(caseHosts, ch), true
		}
		if opt.online {
			if tk := tokenParams(byCluster, opt); len(tk) > 0 {
				for ci, ms := range byCluster {
					byCluster[ci] = withoutTokens(ms, tk, &buf)
					if kept != nil && kept[ci] != nil {
						kept[ci] = withoutTokens([]*member{kept[ci]}, tk, &buf)[0]
					}
				}
				tokens, found = merged(tokens, tk), true
			}
		}
		if !found || !opt.online || ablate.NoRounds {
			break
		}
	}
	for _, ms := range byCluster {
		all = append(all, ms...)
	}
	// Deep tokens: per host, patterns learned from the host's training URLs split the tokens
	// of every URL before pairwise rules are derived.
	var patterns map[string]*deeptoken.Patterns
	if !opt.NoDeepTokens {
		patterns = learnPatterns(all)
		for _, m := range slices.Concat(all, kept) {
			if m == nil {
				continue
			}
			if pt := patterns[m.p.hostName()]; pt != nil {
				m.p.splitDeep(pt, m.prep)
			}
		}
	}
	// The site's URLs by origin (scheme and host), for target selection (see targetRank).
	origins, originOf := map[string]int{}, make([]string, len(all))
	for i, m := range all {
		originOf[i] = m.p.scheme + "://" + m.p.host
		origins[originOf[i]]++
	}
	if opt.MainOrigin {
		for i, m := range all {
			m.origin = origins[originOf[i]]
		}
	} else if !ablate.NoAliasOrigin && !opt.online {
		markMainAliases(all, originOf, origins)
	}
	common := valueClusters(byCluster)
	deepVals := queryDeepValues(all)
	shared := map[string]bool{} // parameters a target kept for a shared deep token (see sharedDeep)
	var ro *roles.Roles
	if !opt.NoRoles {
		ro = learnRoles(byCluster, common)
	}
	for ci, ms := range byCluster {
		if len(ms) < 2 || ro.Noisy(ci) {
			continue // one page, or pages grouped by mistake: no pair
		}
		slices.SortStableFunc(ms, targetRank)
		if kept != nil && kept[ci] != nil {
			ms = withTarget(ms, kept[ci], origins, opt.MainOrigin)
		}
		expressibleFirst(ms, common)
		// Targets are the k best distinct URLs; a URL equal to a target (a case variant of
		// it, lowercased) is no source. Case variants that lowercase to one URL stay sources
		// each: every one of them is a training URL that the host's rules rewrite.
		var targets, rest []*member
		for _, m := range ms {
			switch {
			case slices.ContainsFunc(targets, func(t *member) bool { return t.prep == m.prep }):
			case len(targets) < opt.Targets:
				targets = append(targets, m)
			default:
				rest = append(rest, m)
			}
		}
		// A target that keeps a parameter whose value differs within the cluster and that
		// only a literal of this cluster could write (a token on every link) becomes its
		// signature without that parameter; the URL it was made from becomes a source.
		if !opt.NoSignatures {
			for i, tg := range targets {
				if sg := signature(ms, tg, common, deepVals, shared); sg != nil {
					targets[i] = sg
					if !slices.ContainsFunc(rest, func(m *member) bool { return m.prep == tg.prep }) {
						rest = append([]*member{tg}, rest...)
					}
					st.Signatures++
				}
			}
			rest = slices.DeleteFunc(rest, func(m *member) bool {
				return slices.ContainsFunc(targets, func(t *member) bool { return t.prep == m.prep })
			})
		}
		for _, src := range selectSources(rest, opt.MaxSources) {
			for _, tg := range targets {
				tr := derive(&src.p, &tg.p)
				key := tr.String()
				id, ok := classIdx[key]
				if !ok {
					id = int32(len(classes))
					classIdx[key] = id
					classes = append(classes, tr)
				}
				st.Pairs++
				addRow(src, id)
			}
		}
	}
	st.Classes = len(classes)

	// Dense row x attribute matrix of value ids (0 = absent).
	na := len(rs.attrs)
	flat := make([]int32, len(rowFeat)*na)
	rs.vals = make([][]int32, len(rowFeat))
	for r, fs := range rowFeat {
		rs.vals[r] = flat[r*na : (r+1)*na : (r+1)*na]
		for _, f := range fs {
			rs.vals[r][f.attr] = f.val
		}
	}

	var hosts []string
	for h := range hostSet {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	return &pairwiseRules{st: st, rs: rs, classes: classes, all: all, hosts: hosts, patterns: patterns, caseHosts: caseHosts, aliases: aliases, tokens: tokens, roles: ro, shared: shared}
}

// signature returns the signature of target tg in its cluster ms: tg without the query
// parameters whose value differs within the cluster in a way only a literal can write, or nil
// when tg keeps none. Such a parameter P is not what names the page: some other URL of the
// cluster (of its first maxCostSources) has P with another value, from which derive writes
// tg's value only as a literal, and that literal occurs in fewer than minLiteralClusters of
// the site's clusters (a random token) or the cluster holds at least minLiteralClusters values
// of P (do=recent&id=X for every page id X). A literal of one cluster does not generalize: a
// form token or session id of unknown name on every link (item.php?id=7&zq=R1, &zq=R2, &zq=R3)
// is deleted, not written. A value that a reference or a conversion writes (a deep token,
// another letter case) is not such a parameter, nor is one of two frequent values
// (view=grid, view=list), which stays a literal.
func signature(ms []*member, tg *member, common map[string]int, deepVals map[urlnorm.Key]int, shared map[string]bool) *member {
	var drop []string
	for i, m := range ms {
		if i >= maxCostSources {
			break
		}
		if m.prep == tg.prep {
			continue
		}
		e := derive(&m.p, &tg.p)
		for _, q := range e.Query {
			if q.Delete || q.vop.Kind != opLiteral || q.vop.Bare || q.vop.Lit == "" || slices.Contains(drop, q.Name) ||
				len(queryValues(m.p.query, q.Name)) == 0 {
				continue
			}
			if common[q.vop.Lit] < minLiteralClusters || manyValues(ms, q.Name, minLiteralClusters) {
				if sharedDeep(ms, q.Name, deepVals) {
					shared[q.Name] = true
				} else {
					drop = append(drop, q.Name)
				}
			}
		}
	}
	if len(drop) == 0 {
		return nil
	}
	sg := *tg
	sg.p.query = slices.DeleteFunc(slices.Clone(tg.p.query), func(t urlnorm.Token) bool { return slices.Contains(drop, t.Name) })
	sg.p.deep = slices.DeleteFunc(slices.Clone(tg.p.deep), func(t urlnorm.Token) bool {
		return t.Part == urlnorm.PartQuery && slices.Contains(drop, t.Name)
	})
	sg.prep = finalize(sg.p.String())
	return &sg
}

// withTarget returns ms (sorted by targetRank) with t, a target that is no training URL (see
// keptTargets), first if it is structurally simpler than the first URL of ms (structuralRank,
// with its origin's count of the site's URLs, origins, when mainOrigin is set); otherwise ms
// as it is. A target no simpler than a URL the crawl fetched was chosen by rules learned from
// fewer URLs, and keeping it would keep their choice.
func withTarget(ms []*member, t *member, origins map[string]int, mainOrigin bool) []*member {
	if mainOrigin {
		t.origin = origins[t.p.scheme+"://"+t.p.host]
	}
	if structuralRank(t, ms[0]) >= 0 {
		return ms
	}
	return append([]*member{t}, ms...)
}

// queryDeepValues returns, per deep token of a query parameter (its key with Sub set), the
// number of its distinct values among the members, counted up to 2.
func queryDeepValues(all []*member) map[urlnorm.Key]int {
	first := map[urlnorm.Key]string{}
	out := map[urlnorm.Key]int{}
	for _, m := range all {
		for _, t := range m.p.deep {
			if t.Part != urlnorm.PartQuery || t.Sub == 0 {
				continue
			}
			k := urlnorm.Key{Part: t.Part, Name: t.Name, Sub: t.Sub}
			switch v, ok := first[k]; {
			case !ok:
				first[k], out[k] = t.Value, 1
			case v != t.Value:
				out[k] = 2
			}
		}
	}
	return out
}

// sharedDeep reports whether the cluster's URLs with query parameter name, at least
// minLiteralClusters of them, all share the value of one of its deep tokens that takes several
// values on the site: the parameter's values differ within the cluster, but in part only. A
// wiki's index opened at a page's namespace (do=index&id=ns:page) is one page per namespace
// ns, not one for every id; deleting id would merge the namespaces' indexes, and the parameter
// stays in the target (a literal of the cluster, which generalizes to no other namespace).
func sharedDeep(ms []*member, name string, deepVals map[urlnorm.Key]int) bool {
	if ablate.NoSharedDeep {
		return false
	}
	shared := map[int16]string{} // Sub -> the value every URL so far has, "" once they differ
	n := 0
	for _, m := range ms {
		if len(queryValues(m.p.query, name)) == 0 {
			continue
		}
		seen := map[int16]bool{}
		for _, t := range m.p.deep {
			if t.Part != urlnorm.PartQuery || t.Name != name || t.Sub == 0 || seen[t.Sub] {
				continue
			}
			seen[t.Sub] = true
			if n == 0 {
				shared[t.Sub] = t.Value
			} else if v, ok := shared[t.Sub]; ok && v != t.Value {
				shared[t.Sub] = ""
			}
		}
		for sub := range shared {
			if !seen[sub] {
				shared[sub] = ""
			}
		}
		n++
	}
	if n < minLiteralClusters {
		return false
	}
	for sub, v := range shared {
		if v != "" && deepVals[urlnorm.Key{Part: urlnorm.PartQuery, Name: name, Sub: sub}] >= 2 {
			return true
		}
	}
	return false
}

// manyValues reports whether the members have at least n distinct values of query parameter
// name.
func manyValues(ms []*member, name string, n int) bool {
	var vals []string
	for _, m := range ms {
		for _, v := range queryValues(m.p.query, name) {
			if !slices.Contains(vals, v) {
				if vals = append(vals, v); len(vals) >= n {
					return true
				}
			}
		}
	}
	return false
}

// caseInsensitive returns the hosts of a site's members whose paths are case-insensitive by
// the evidence of the clusters (package internal/casefold).
func caseInsensitive(byCluster [][]*member) map[string]casefold.Evidence {
	var urls []string
	var cl []int32
	for _, ms := range byCluster {
		for _, m := range ms {
			urls = append(urls, m.prep)
			cl = append(cl, m.cluster)
		}
	}
	return casefold.Hosts(urls, cl, casefold.Options{})
}

// lowerPaths returns ms with the paths of the URLs of hosts lowercased, as the rule that
// finish gives those hosts rewrites them. URLs that become equal are all kept: each is a
// training URL that the host's other rules rewrite after the lowercasing rule, so each counts
// in their coverage and in the rows their contexts are generalized from, as the case variants
// did before lowercasing (a host whose pages are linked in three letter cases keeps the
// evidence of three URLs per page).
func lowerPaths(ms []*member, hosts map[string]casefold.Evidence, buf *[]urlnorm.Token) []*member {
	return rewritten(ms, buf, func(m *member) string {
		if ev, ok := hosts[m.p.host]; ok && ev.Lowers(m.prep) {
			return finalize(casefold.LowerPath(m.prep))
		}
		return m.prep
	})
}

// rewritten returns ms with each member whose URL f rewrites (returns another prepared URL)
// replaced by a copy with that URL, parsed again; a rewrite that does not parse leaves the
// member as it was. Members that become equal are all kept.
func rewritten(ms []*member, buf *[]urlnorm.Token, f func(m *member) string) []*member {
	out := make([]*member, 0, len(ms))
	for _, m := range ms {
		if u := f(m); u != m.prep {
			p, b, ok := parse(u, *buf)
			*buf = b
			if ok {
				mm := *m
				mm.prep, mm.p = u, p
				m = &mm
			}
		}
		out = append(out, m)
	}
	return out
}

// finish generalizes a site's pairwise rules and measures the generalized rules.
func (s *site) finish(pw *pairwiseRules, opt Options) (*site, Stats) {
	st, rs, classes, all, name := pw.st, pw.rs, pw.classes, pw.all, s.name
	// Generalize each class's pairwise rules into contexts.
	order := keyOrder(rs)
	byClass := make([][]int32, len(classes))
	for r, c := range rs.class {
		byClass[c] = append(byClass[c], int32(r))
	}
	sp := newSupport(rs, all)
	for c, rows := range byClass {
		ctxs := generalize(rs, order, rows, opt.MinSupport, &classes[c])
		leaves := len(ctxs)
		if m := mergedContext(ctxs); m != nil {
			ctxs = append(ctxs, m)
		}
		for i, ctx := range ctxs {
			r := lrule{Site: name, Context: ctx, edit: classes[c], class: int32(c + 1), merged: i >= leaves}
			if overwritesWildcard(&r) || overwritesParam(&r, pw.shared) {
				st.Overwriting++
				continue
			}
			r.thin = sp.thin(&r, rows)
			s.rules = append(s.rules, r)
		}
	}
	st.Leaves = len(s.rules) + st.Overwriting
	s.order()

	// Measure each rule on all training URLs of the site, in isolation (Koppula et al. §5:
	// coverage, and the URLs u with r(u) = v for a v of another cluster).
	ident := make(map[string]int32, len(all))
	for _, m := range all {
		ident[m.prep] = m.cluster
	}
	s.measure(nil, all, ident, pw.roles, opt)
	if !opt.NoSplits {
		s.splitRules(pw, sp, byClass, order, all, ident, opt, &st)
	}
	s.shadows(all, ident, pw.roles, opt)
	st.Rules = len(s.rules)

	// Evidence for widening: what deleting each query parameter from every training URL of the
	// site that has it would do, in isolation.
	s.paramDel = map[string]*Evidence{}
	dels := newParamDeletions(ident)
	fams := map[string]map[string]*family{} // by parameter, then by the URL's last path segment
	for _, m := range all {
		for i, q := range m.p.query {
			if i > 0 && m.p.query[i-1].Name == q.Name {
				continue
			}
			bad, met, ok := dels.measure(m, q.Name)
			if !ok {
				continue
			}
			ev := s.paramDel[q.Name]
			if ev == nil {
				ev = &Evidence{}
				s.paramDel[q.Name] = ev
			}
			ev.Coverage++
			fm := fams[q.Name]
			if fm == nil {
				fm = map[string]*family{}
				fams[q.Name] = fm
			}
			fam := fm[lastSegment(&m.p)]
			if fam == nil {
				fam = &family{values: map[string]bool{}}
				fm[lastSegment(&m.p)] = fam
			}
			fam.urls++
			if len(fam.values) < maxFamilyValues {
				fam.values[q.Value] = true
			}
			if met {
				fam.supported = true // a URL of its own cluster: a supporting pair
			}
			fam.cov++
			if bad {
				ev.False++
				fam.f++
			}
			if u := roleURL(m); pw.roles.Identifies(&u, q.Name) {
				// It names the pages of this URL's type: not deleted in its family, nor on
				// the whole site.
				fam.f++
				ev.Identifying = true
			}
		}
	}
	for name, fm := range fams {
		for _, fam := range fm {
			if fam.identifying() {
				s.paramDel[name].Identifying = true
			}
		}
	}
	for i := range s.rules {
		r := &s.rules[i]
		if !isParamDeletion(r) || r.merged {
			// A merged context's wildcard stands for the values of one page type's forms,
			// not for a parameter that holds beyond them (see mergedContext).
			continue
		}
		for _, q := range r.edit.Query {
			if ev := s.paramDel[q.Name]; ev != nil && r.Estimate() >= opt.MinPrecision && r.Coverage >= opt.MinCoverage {
				ev.Learned = true
			}
		}
	}

	// An alias origin: one rule moves its URLs to the main origin (the training URLs are
	// there already).
	for _, o := range slices.Sorted(maps.Keys(pw.aliases)) {
		s.rules = append(s.rules, pw.aliases[o].rule(s.name))
		st.Rules++
	}

	// A case-insensitive host: one rule lowercases every path (the training URLs are
	// lowercased already); its evidence is the host's URLs with upper case in the path and those
	// that lowercasing merges with another cluster.
	// Lowercased by trees (see internal/casefold): one rule lowercases the first segment of a
	// path of two segments or more, then one per tree lowercases the rest.
	for _, h := range slices.Sorted(maps.Keys(pw.caseHosts)) {
		ev := pw.caseHosts[h]
		hc := cond{Key: urlnorm.Key{Part: urlnorm.PartHost}, Kind: condEq, Value: h}
		if ev.Trees == nil {
			s.rules = append(s.rules, lrule{Site: s.name, Context: []cond{hc}, edit: edit{PathCase: opLower}, Coverage: ev.Changed, False: ev.False})
			st.Rules++
			continue
		}
		first, second := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, urlnorm.Key{Part: urlnorm.PartPath, Pos: 2}
		if !ev.Trees[len(ev.Trees)-1].Root {
			s.rules = append(s.rules, lrule{Site: s.name, Context: []cond{hc, {Key: second, Kind: condAny}},
				edit: edit{Del: 1, Ins: []vop{{Kind: opLower, Ref: first}}}, Coverage: ev.Changed, False: ev.False})
			st.Rules++
		}
		for _, t := range ev.Trees {
			c := cond{Key: second, Kind: condAbsent}
			if !t.Root {
				c = cond{Key: first, Kind: condEq, Value: t.First}
			}
			s.rules = append(s.rules, lrule{Site: s.name, Context: []cond{hc, c}, edit: edit{PathCase: opLower},
				Coverage: t.Changed, False: min(t.False, t.Changed)})
			st.Rules++
		}
	}

	// Widen within the site: a parameter that a selected rule deletes whatever its value, and
	// whose deletion from every training URL of the site merges no two clusters, gets a rule of
	// its own, "delete P" wherever P is. Rules learned from
	// pairs name every parameter their clusters had (utm_source with utm_medium and
	// utm_campaign); this one covers P in any company. It is the least specific rule of the
	// site, so learned rules go first, and Normalize's passes apply it after them. Where
	// deleting P everywhere merges clusters, or P looks identifying in some page family (see
	// Evidence.Identifying), P gets instead one rule per family (last path segment) in which
	// pairs support deleting it and deleting it merges no two clusters.
	//
	// A token parameter (see tokenParams) is deleted from the training URLs already: its
	// evidence is that of the deletion measured before, and it is widened as a learned one.
	for name, tp := range pw.tokens {
		s.paramDel[name] = &Evidence{Coverage: tp.agree, False: tp.against, Learned: true}
	}
	var names []string
	for name, ev := range s.paramDel {
		if ev.Learned {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		ev := s.paramDel[name]
		del := edit{Query: []queryOp{{Name: name, Delete: true}}}
		any := cond{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: name}, Kind: condAny}
		if !ev.Identifying && ev.False == 0 {
			s.rules = append(s.rules, lrule{Site: s.name, Context: []cond{any}, edit: del, Coverage: ev.Coverage, False: ev.False})
			st.Rules++
			continue
		}
		// The parameter looks identifying where no pair shows it redundant (phpBB's f= in
		// viewforum.php, redundant in viewtopic.php), or deleting it everywhere merges
		// clusters: the rule is widened only to the families (last path segments) where a
		// pair of one cluster supports it and deleting it merges no two clusters.
		fm := fams[name]
		for _, seg := range slices.Sorted(maps.Keys(fm)) {
			fam := fm[seg]
			if !fam.supported || fam.f > 0 {
				continue
			}
			last := cond{Key: urlnorm.Key{Part: urlnorm.PartPath, RPos: 1}, Kind: condEq, Value: seg}
			s.rules = append(s.rules, lrule{Site: s.name, Context: []cond{last, any}, edit: del, Coverage: fam.cov, False: fam.f})
			st.Rules++
		}
	}
	s.order()
	return s, st
}

// Evidence is what deleting one query parameter from every training URL of a site that has it
// would do, in isolation: the URLs it changes, those it maps onto a URL (or the rewrite of a
// URL) of another cluster, and whether a selected rule of the site deletes the parameter
// whatever its value. Assemble widens a parameter beyond its sites on this evidence. It is a
// plain value.
type Evidence struct {
	Coverage, False int
	Learned         bool
	// Identifying is set when, among the site's URLs with the same last path segment (a
	// script, a page family), the parameter has many distinct values and no two URLs of one
	// cluster differ in it alone, or when it identifies the pages of some page type (its
	// value never differs within a cluster of the type, and it takes at least 2 values; see
	// the package doc): it names pages there (phpBB's f= in viewforum.php), however
	// redundant it is elsewhere on the site. Such a parameter is not widened beyond the
	// site, and within the site only to the families where pairs support deleting it and
	// where it identifies no page type.
	Identifying bool
}

// A family is what deleting one query parameter does on the URLs of a site that share their
// last path segment.
type family struct {
	urls, cov, f int
	values       map[string]bool // distinct values, at most maxFamilyValues
	supported    bool            // two URLs of one cluster meet when the parameter goes
}

// maxFamilyValues bounds the distinct values a family counts: identifying only needs to know
// whether they are many.
const maxFamilyValues = 64

// identifying reports whether the parameter looks like a page's key in the family: no
// supporting pair, and at least 3 URLs with mostly distinct values.
func (f *family) identifying() bool {
	return !f.supported && f.urls >= 3 && len(f.values) >= 3 && 2*len(f.values) >= min(f.urls, maxFamilyValues)
}

// lastSegment returns the last path segment of p, "" for none.
func lastSegment(p *parsed) string {
	if len(p.path) == 0 {
		return ""
	}
	return p.path[len(p.path)-1]
}

// A support holds what the thin guard reads: the site's pairwise rows and its training URLs
// by cluster, and which parameters two URLs of a cluster differ in alone (memoized).
type support struct {
	rs        *rowSet
	attrOf    map[urlnorm.Key]int32
	byCluster map[int32][]*member
	alone     map[clusterParam]bool
}

type clusterParam struct {
	cluster int32
	name    string
}

func newSupport(rs *rowSet, all []*member) *support {
	sp := &support{rs: rs, attrOf: attrIndex(rs), byCluster: map[int32][]*member{}, alone: map[clusterParam]bool{}}
	for _, m := range all {
		sp.byCluster[m.cluster] = append(sp.byCluster[m.cluster], m)
	}
	return sp
}

// thin reports whether r deletes several parameters whatever their values and stands on the
// pairs of one cluster (rows are its class's rows) with too little to show each of them
// irrelevant. One cluster may be pages grouped by mistake, each of its URLs with its own
// content key riding along with a session id. A parameter in which two URLs of the cluster
// differ alone (h=T&hb=C and h=C&hb=C, or hb=C and no hb) is shown irrelevant as a pair shows
// a single deletion; parameters that carry one value in every pair the context holds in (a
// commit id given twice, h=C&hb=C) are one piece of information, which a rule deleting them
// deletes once. The rule is thin when, of the parameters not shown irrelevant alone, two or
// more independent ones remain.
func (sp *support) thin(r *lrule, rows []int32) bool {
	if ablate.NoSupport {
		return false
	}
	var names []string
	for _, q := range r.edit.Query {
		if q.Delete && wildcarded(r, q.Name) {
			names = append(names, q.Name)
		}
	}
	if len(names) < 2 {
		return false
	}
	var seen []int32
	var held []int32
	for _, row := range rows {
		if !rowHolds(sp.rs, sp.attrOf, r.Context, row) {
			continue
		}
		held = append(held, row)
		if c := sp.rs.cluster[row]; !slices.Contains(seen, c) {
			if seen = append(seen, c); len(seen) >= 2 {
				return false
			}
		}
	}
	if len(seen) == 0 {
		return true
	}
	var open []int32 // the parameters not shown irrelevant alone, one of each group of mirrors
	for _, name := range names {
		if !ablate.NoKeyPairs && sp.differsAlone(seen[0], name) {
			continue
		}
		a, ok := sp.attrOf[urlnorm.Key{Part: urlnorm.PartQuery, Name: name}]
		if !ok {
			a = -1 - int32(len(open)) // in no pair: independent of every other
		}
		mirrors := func(b int32) bool {
			return !ablate.NoMirrors && a >= 0 && b >= 0 &&
				!slices.ContainsFunc(held, func(row int32) bool { return sp.rs.vals[row][a] != sp.rs.vals[row][b] })
		}
		if !slices.ContainsFunc(open, mirrors) {
			open = append(open, a)
		}
	}
	return len(open) >= 2
}

// differsAlone reports whether two training URLs of cluster c differ in query parameter name
// alone: its value, or its presence.
func (sp *support) differsAlone(c int32, name string) bool {
	k := clusterParam{c, name}
	if v, ok := sp.alone[k]; ok {
		return v
	}
	del := edit{Query: []queryOp{{Name: name, Delete: true}}}
	first := map[string]string{} // the URL without the parameter -> the first URL that gave it
	found := false
	for _, m := range sp.byCluster[c] {
		without := m.prep
		if len(queryValues(m.p.query, name)) > 0 {
			q, ok := del.apply(&m.p)
			if !ok {
				continue
			}
			without = finalize(q.String())
		}
		if f, ok := first[without]; ok && f != m.prep {
			found = true
			break
		} else if !ok {
			first[without] = m.prep
		}
	}
	sp.alone[k] = found
	return found
}

// attrIndex returns the index of each attribute of rs by its key.
func attrIndex(rs *rowSet) map[urlnorm.Key]int32 {
	attrOf := make(map[urlnorm.Key]int32, len(rs.attrs))
	for a, k := range rs.attrs {
		attrOf[k] = int32(a)
	}
	return attrOf
}

// isParamDeletion reports whether r only deletes query parameters whose value its context
// wildcards: the kind of rule that can hold beyond its site (session ids, tracking parameters).
func isParamDeletion(r *lrule) bool {
	t := &r.edit
	if t.Scheme != nil || t.Host != nil || t.PathCase != 0 || t.Del != 0 || len(t.Ins) != 0 || len(t.Query) == 0 {
		return false
	}
	for _, q := range t.Query {
		if !q.Delete {
			return false
		}
		wild := false
		for _, c := range r.Context {
			if c.Key.Part == urlnorm.PartQuery && c.Key.Name == q.Name && c.Kind == condAny {
				wild = true
			}
		}
		if !wild {
			return false
		}
	}
	return true
}

type feat struct{ attr, val int32 }

// order sorts the site's rules into the order Normalize tries them, most specific first: more
// conditions that name a value or an absence, then more conditions, then more that name a value
// (package rules' precedence), then larger coverage (once measured), then more hits, then the
// text; and indexes them by the host their context requires.
func (s *site) order() {
	spec := func(r *lrule) int {
		n := 0
		for _, c := range r.Context {
			if c.Kind != condAny {
				n++
			}
		}
		return n
	}
	equals := func(r *lrule) int {
		if ablate.NoEqualsFirst {
			return 0
		}
		n := 0
		for _, c := range r.Context {
			if c.Kind == condEq {
				n++
			}
		}
		return n
	}
	slices.SortStableFunc(s.rules, func(a, b lrule) int {
		if c := cmp.Compare(spec(&b), spec(&a)); c != 0 {
			return c
		}
		if c := cmp.Compare(len(b.Context), len(a.Context)); c != 0 {
			return c
		}
		if c := cmp.Compare(equals(&b), equals(&a)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Coverage, a.Coverage); c != 0 {
			return c
		}
		if c := cmp.Compare(b.hits, a.hits); c != 0 && !ablate.NoHits {
			return c
		}
		return strings.Compare(a.String(), b.String())
	})
	s.byHost = map[string][]int32{}
	s.anyHost = nil
	for i := range s.rules {
		r := &s.rules[i]
		// Check Eq conditions on the path first: they fail fastest.
		r.check = slices.Clone(r.Context)
		slices.SortStableFunc(r.check, func(a, b cond) int {
			return cmp.Compare(condCost(a), condCost(b))
		})
		host := ""
		for _, c := range r.Context {
			if c.Key.Part == urlnorm.PartHost && c.Kind == condEq {
				host = c.Value
			}
		}
		if host == "" {
			s.anyHost = append(s.anyHost, int32(i))
		} else {
			s.byHost[host] = append(s.byHost[host], int32(i))
		}
	}
}

func condCost(c cond) int {
	switch {
	case c.Kind == condEq && c.Key.Part == urlnorm.PartPath:
		return 0
	case c.Kind == condEq:
		return 1
	}
	return 2
}

// candidates returns the indexes of the rules that may apply to p, in order.
func (s *site) candidates(p *parsed) []int32 {
	h := s.byHost[p.host]
	if len(s.anyHost) == 0 {
		return h
	}
	if len(h) == 0 {
		return s.anyHost
	}
	out := make([]int32, 0, len(h)+len(s.anyHost))
	out = append(out, h...)
	out = append(out, s.anyHost...)
	slices.Sort(out)
	return out
}

// overwritesWildcard reports whether r replaces path segments none of which its context fixes
// (each a wildcard or without condition) with a literal: "whatever the last segment is, make it
// wall". Replacing "<any slug>/dp" by "o" is kept: the fixed "dp" ties it to one pattern.
// Such a rule maps every page under a prefix to one URL; the paper's transformation
// generalization would make its literal a wildcard too, which is to say the rule is not
// learned. Rules that delete segments, or replace fixed segments, are kept.
// overwritesParam reports whether r sets to a literal a query parameter that its context
// wildcards and that a signature target kept for a deep token its values share in the
// cluster (see sharedDeep): "whatever id is, make it alpha:page0", the index of one namespace
// written over every namespace's.
func overwritesParam(r *lrule, shared map[string]bool) bool {
	if ablate.NoSharedDeep {
		return false
	}
	for _, q := range r.edit.Query {
		if q.Delete || q.vop.Kind != opLiteral || q.vop.Lit == "" || !shared[q.Name] {
			continue
		}
		if slices.ContainsFunc(r.Context, func(c cond) bool {
			return c.Kind == condAny && c.Key == urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
		}) {
			return true
		}
	}
	return false
}

func overwritesWildcard(r *lrule) bool {
	t := &r.edit
	if t.Del == 0 || !slices.ContainsFunc(t.Ins, func(o vop) bool { return o.Kind == opLiteral && o.Lit != "" }) {
		return false
	}
	fixed := map[urlnorm.Key]bool{}
	for _, c := range r.Context {
		if c.Kind == condEq {
			fixed[c.Key] = true
		}
	}
	// Segments whose deep tokens the edit copies elsewhere: their content is moved, not lost.
	moved := map[urlnorm.Key]bool{}
	addRef := func(o *vop) {
		if o != nil && o.Kind != opLiteral && o.Ref.Part == urlnorm.PartPath && (o.Ref.Sub != 0 || o.Ref.RSub != 0) {
			moved[urlnorm.Key{Part: urlnorm.PartPath, Pos: o.Ref.Pos, RPos: o.Ref.RPos}] = true
		}
	}
	addRef(t.Scheme)
	addRef(t.Host)
	for i := range t.Ins {
		addRef(&t.Ins[i])
	}
	for i := range t.Query {
		if !t.Query[i].Delete {
			addRef(&t.Query[i].vop)
		}
	}
	for i := range t.Del {
		// The deleted segments, addressed from the anchored side.
		k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(t.Skip + i + 1)}
		if t.FromEnd {
			k = urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(t.Skip + i + 1)}
		}
		if fixed[k] || moved[k] {
			return false
		}
	}
	return true
}

// markMainAliases sets member.origin to 1 for the URLs on the main origin of their aliases and
// 0 for the others. The aliases of an origin are the origins that differ from it in the scheme
// or a leading "www." of the host (http://example.com, https://www.example.com); the main one is
// the alias that more of the site's URLs have (then the shorter, then the first by text). A
// site that serves its pages on several aliases, each cluster holding the main one and one
// other, then selects the main one as every cluster's target, where the shorter URL would be
// http://www.example.com/p in one cluster and https://example.com/p in another, and the rules
// learned from the two would send a page's URLs to two keys. Origins of other hosts (a mirror)
// are aliases of none, and between them the length decides as before. originOf holds each
// member's origin, origins the number of the site's URLs on each.
func markMainAliases(all []*member, originOf []string, origins map[string]int) {
	main := map[string]string{} // alias group -> its main origin
	for o, n := range origins {
		g := aliasGroup(o)
		b, ok := main[g]
		if !ok || n > origins[b] || n == origins[b] && (len(o) < len(b) || len(o) == len(b) && o < b) {
			main[g] = o
		}
	}
	for i, m := range all {
		o := originOf[i]
		if main[aliasGroup(o)] == o {
			m.origin = 1
		} else {
			m.origin = 0
		}
	}
}

// aliasGroup returns an origin without its scheme and a leading "www." of its host.
func aliasGroup(origin string) string {
	_, h, _ := strings.Cut(origin, "://")
	return strings.TrimPrefix(h, "www.")
}

// paramDeletions measures what deleting a query parameter does to a site's training URLs, one
// URL at a time: whether the output is a training URL, or the output of another URL, of another
// cluster (bad), or of the URL's own cluster (met: a supporting pair). It keeps the first URL
// that deleting each parameter rewrote to each output, with its cluster: two URLs of one
// cluster that meet support the deletion, one URL twice (case variants of a lowercased host)
// does not.
type paramDeletions struct {
	ident map[string]int32               // training URL -> its cluster
	outs  map[string]map[string]firstOut // by parameter: output -> the first URL rewritten to it
}

type firstOut struct {
	prep    string
	cluster int32
}

func newParamDeletions(ident map[string]int32) *paramDeletions {
	return &paramDeletions{ident: ident, outs: map[string]map[string]firstOut{}}
}

// measure deletes parameter name from m and reports what the output meets; ok is false when
// the deletion does not apply.
func (d *paramDeletions) measure(m *member, name string) (bad, met, ok bool) {
	del := edit{Query: []queryOp{{Name: name, Delete: true}}}
	p, ok := del.apply(&m.p)
	if !ok {
		return false, false, false
	}
	o := finalize(p.String())
	if c, in := d.ident[o]; in {
		bad, met = c != m.cluster, c == m.cluster
	}
	outs := d.outs[name]
	if outs == nil {
		outs = map[string]firstOut{}
		d.outs[name] = outs
	}
	switch f, in := outs[o]; {
	case !in:
		outs[o] = firstOut{m.prep, m.cluster}
	case f.cluster != m.cluster:
		bad = true
	case f.prep != m.prep:
		met = true
	}
	return bad, met, true
}

// maxRounds is the number of times, at most, that the online learner's origin map, case
// lowering and token parameters run on a site's training URLs (see pairwise).
const maxRounds = 3

// measure measures the rules of s at idx (every rule when idx is nil) on all training URLs of
// the site, in isolation (Koppula et al. §5: coverage, and the URLs u with r(u) = v for a v of
// another cluster), with the clusters each covers and rewrites onto a URL of its own, and the
// uses that delete a parameter naming the pages of their type (see blocked). ident gives each
// training URL's cluster.
func (s *site) measure(idx []int32, all []*member, ident map[string]int32, ro *roles.Roles, opt Options) {
	outs := make([]map[string]int32, len(s.rules))
	lastCl := make([]int32, len(s.rules))  // the cluster of the last URL each rule covered: all is by cluster
	lastHit := make([]int32, len(s.rules)) // and of the last it rewrote onto another URL of the cluster
	for i := range lastCl {
		lastCl[i], lastHit[i] = -1, -1
	}
	for _, ri := range idx {
		r := &s.rules[ri]
		r.Coverage, r.False, r.clusters, r.hits, r.blocked = 0, 0, 0, 0, 0
	}
	for _, m := range all {
		cands := idx
		if cands == nil {
			cands = s.candidates(&m.p)
		}
		for _, ri := range cands {
			r := &s.rules[ri]
			out, ok := r.use(m)
			if !ok {
				continue
			}
			r.Coverage++
			if lastCl[ri] != m.cluster && !opt.online && !ablate.NoClusterSupport {
				lastCl[ri] = m.cluster
				r.clusters++
			}
			if blocked(ro, r, m, out) {
				r.blocked++
			}
			bad := false
			if c, ok := ident[out]; ok && c != m.cluster {
				bad = true
			} else if ok && lastHit[ri] != m.cluster && !opt.online {
				lastHit[ri] = m.cluster
				r.hits++
			}
			if outs[ri] == nil {
				outs[ri] = map[string]int32{}
			}
			if c, ok := outs[ri][out]; ok && c != m.cluster {
				bad = true
			} else if !ok {
				outs[ri][out] = m.cluster
			}
			if bad {
				r.False++
			}
		}
	}
}

// shadows orders the rules of s, then drops or narrows each rule that a selected rule of
// another class would leave stopping URLs short of their key: where both match a URL, the rule
// that goes first (see order) applies, and when the other does what it does and deletes more
// (see doesMore), the URL keeps a parameter that the other deletes. A rule is dropped when
// the other matches every URL it matches; otherwise, when it goes first and the other names a
// query value it does not mention, it gets a condition that the parameter is absent, if it
// holds on no training URL with the parameter where the other does not, and is measured again
// (and kept as it was if that costs it its selection). Seen on a wiki: "title=X with action and
// oldid absent: write the path from title" went before "title=X&printable=yes: write the path
// from title, delete printable" on printable views, which kept printable=yes in their key, away
// from their article's.
func (s *site) shadows(all []*member, ident map[string]int32, ro *roles.Roles, opt Options) {
	s.order()
	if ablate.NoShadowed {
		return
	}
	rs := s.rules
	// The rules that may do more than another, by the part of their edit that must be equal.
	wider := map[string][]int{}
	for j := range rs {
		if g := &rs[j]; g.class != 0 && len(g.edit.Query) > 0 && g.selected(opt.MinPrecision, opt.MinCoverage, true) {
			wider[pathEdit(&g.edit)] = append(wider[pathEdit(&g.edit)], j)
		}
	}
	if len(wider) == 0 {
		return
	}
	drop := make([]bool, len(rs))
	var narrowed []int32
	before := map[int32]lrule{} // the narrowed rules as they were
	found := false
	for i := range rs {
		m := &rs[i]
		if m.class == 0 {
			continue
		}
		for _, j := range wider[pathEdit(&m.edit)] {
			g := &rs[j]
			if j == i || g.class == m.class || drop[j] || !doesMore(g, &m.edit) {
				continue
			}
			if holdsAll(m.Context, g.Context) {
				drop[i], found = true, true
				break
			}
			if j < i {
				continue // g goes first where both match
			}
			if c, ok := exclusion(m.Context, g.Context); ok && !usesBeside(m, g, c.Key, all) {
				if _, done := before[int32(i)]; !done {
					before[int32(i)] = *m
					narrowed = append(narrowed, int32(i))
				}
				m.Context = append(slices.Clone(m.Context), c)
				slices.SortFunc(m.Context, func(a, b cond) int { return strings.Compare(a.Key.String(), b.Key.String()) })
				m.check = slices.Clone(m.Context)
				found = true
			}
		}
	}
	if !found {
		return
	}
	if len(narrowed) > 0 {
		s.measure(narrowed, all, ident, ro, opt)
		// A rule that narrowing would cost its selection (fewer uses, the same errors) is
		// kept as it was: it rewrites the URLs that the other rule does not match.
		for _, i := range narrowed {
			if b := before[i]; b.selected(opt.MinPrecision, opt.MinCoverage, true) && !rs[i].selected(opt.MinPrecision, opt.MinCoverage, true) {
				rs[i] = b
			}
		}
		// A narrowed context may be one the class had already (the leaf without the
		// parameter): the narrowed copy goes.
		seen := map[string]bool{}
		for i := range rs {
			if _, was := before[int32(i)]; !drop[i] && !was {
				seen[ruleText(&rs[i])] = true
			}
		}
		for _, i := range narrowed {
			if t := ruleText(&rs[i]); seen[t] {
				drop[i] = true
			} else {
				seen[t] = true
			}
		}
	}
	s.rules = without(rs, drop)
	s.order()
}

// usesBeside reports whether rule m holds on a training URL that has key k and on which rule g
// does not hold: a use that narrowing m to URLs without k would lose, with no rule to take it.
func usesBeside(m, g *lrule, k urlnorm.Key, all []*member) bool {
	for _, u := range all {
		if _, ok := u.p.lookup(k); ok && holds(m.check, &u.p) && !holds(g.check, &u.p) {
			return true
		}
	}
	return false
}

// use returns what rule r rewrites m's URL to, and false when r does not hold on it or
// changes nothing (a rule that matches and changes nothing is not applied).
func (r *lrule) use(m *member) (string, bool) {
	if !holds(r.check, &m.p) {
		return "", false
	}
	q, ok := r.edit.apply(&m.p)
	if !ok {
		return "", false
	}
	out := finalize(q.String())
	return out, out != m.prep
}

// ruleText is r's context and edit, without its measures.
func ruleText(r *lrule) string {
	var b strings.Builder
	for _, c := range r.Context {
		b.WriteString(c.String())
		b.WriteByte(' ')
	}
	b.WriteString(r.edit.String())
	return b.String()
}

// exclusion returns the condition that keeps context ctx off the URLs that context other
// holds on: a query key that other fixes to a value and ctx does not name, absent. ok is false
// when the two cannot hold on one URL (a key fixed to two values, or present in one and
// absent in the other) or other fixes no such key.
func exclusion(ctx, other []cond) (_ cond, ok bool) {
	var out cond
	for _, o := range other {
		named := false
		for _, c := range ctx {
			if c.Key != o.Key {
				continue
			}
			named = true
			if (c.Kind == condAbsent) != (o.Kind == condAbsent) || c.Kind == condEq && o.Kind == condEq && c.Value != o.Value {
				return cond{}, false // never both
			}
		}
		if !named && !ok && o.Key.Part == urlnorm.PartQuery && o.Kind == condEq {
			out, ok = cond{Key: o.Key, Kind: condAbsent}, true
		}
	}
	return out, ok
}

// holdsAll reports whether every URL that context ctx holds on also meets each condition of
// wide: wide's conditions are ctx's, or ctx fixes a value where wide asks for any.
func holdsAll(ctx, wide []cond) bool {
	for _, w := range wide {
		ok := false
		for _, c := range ctx {
			if c.Key == w.Key && (c == w || w.Kind == condAny && c.Kind == condEq) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// pathEdit is the part of e that is not its query operations, as text.
func pathEdit(e *edit) string {
	f := *e
	f.Query = nil
	return f.String()
}

// doesMore reports whether rule g's edit a makes every change that b makes and deletes more:
// the same scheme, host and path edit, b's query operations among a's, and a's other
// operations all deletions of a parameter that g's context fixes to a value (a view switch
// such as printable=yes). A deletion whatever the value (h=* on a repository browser's trees)
// is a claim that the pages do not differ by it: a rule that keeps the parameter is not
// dropped for it.
func doesMore(g *lrule, b *edit) bool {
	a := &g.edit
	if !sameVop(a.Scheme, b.Scheme) || !sameVop(a.Host, b.Host) || a.PathCase != b.PathCase ||
		a.FromEnd != b.FromEnd || a.Skip != b.Skip || a.Del != b.Del || !slices.Equal(a.Ins, b.Ins) {
		return false
	}
	for _, q := range b.Query {
		if !slices.Contains(a.Query, q) {
			return false
		}
	}
	more := false
	for _, q := range a.Query {
		if !slices.Contains(b.Query, q) {
			if !q.Delete {
				return false // sends the URL elsewhere (format=print added): another target
			}
			if !fixes(g.Context, q.Name) {
				return false
			}
			more = true
		}
	}
	return more
}

// fixes reports whether ctx fixes query parameter name to a value.
func fixes(ctx []cond, name string) bool {
	for _, c := range ctx {
		if c.Key == (urlnorm.Key{Part: urlnorm.PartQuery, Name: name}) && c.Kind == condEq {
			return true
		}
	}
	return false
}

// sameVop reports whether a and b are both absent or equal.
func sameVop(a, b *vop) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// merged returns a with the entries of b added (b's are new: a round finds only what earlier
// rounds left), allocating a when it is nil.
func merged[V any](a, b map[string]V) map[string]V {
	if a == nil {
		a = make(map[string]V, len(b))
	}
	maps.Copy(a, b)
	return a
}
