package learn

import (
	"slices"

	"github.com/undust/undust/urlnorm"
)

// learnSite runs the stages for one site: preparation, target and source selection, pairwise
// rules, the decision tree, rule read-out and the measurement of every rule on the site's
// training URLs.
func learnSite(name string, cls []*Cluster, opt Options) (*site, Stats) {
	st := Stats{Sites: 1, Clusters: len(cls)}
	t := &siteTree{attrIdx: map[urlnorm.Key]int32{}, vals: map[string]int32{}}
	valStr := []string{""}
	classIdx := map[string]int32{"identity": 0}
	t.classes = []Transform{{}}
	hostSet := map[string]bool{}

	var all []*member // every prepared training URL of the site
	var rowFeat [][]feat
	var rowClass []int32
	var buf []urlnorm.Token

	addRow := func(m *member, class int32) {
		var fs []feat
		attrKeys(&m.p, func(k urlnorm.Key, v string) {
			a, ok := t.attrIdx[k]
			if !ok {
				a = int32(len(t.attrs))
				t.attrIdx[k] = a
				t.attrs = append(t.attrs, k)
			}
			id, ok := t.vals[v]
			if !ok {
				id = int32(len(valStr))
				t.vals[v] = id
				valStr = append(valStr, v)
			}
			fs = append(fs, feat{a, id})
		})
		rowFeat = append(rowFeat, fs)
		rowClass = append(rowClass, class)
	}

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
		if len(ms) == 0 {
			continue
		}
		all = append(all, ms...)
		slices.SortStableFunc(ms, targetRank)
		k := min(opt.Targets, len(ms))
		targets := ms[:k]
		for _, tg := range targets {
			addRow(tg, 0)
		}
		for _, src := range selectSources(ms[k:], opt.MaxSources) {
			for _, tg := range targets {
				tr := derive(&src.p, &tg.p)
				key := tr.String()
				id, ok := classIdx[key]
				if !ok {
					id = int32(len(t.classes))
					classIdx[key] = id
					t.classes = append(t.classes, tr)
				}
				st.Pairs++
				addRow(src, id)
			}
		}
	}
	st.Classes = len(t.classes) - 1

	// Dense row x attribute matrix of value ids (0 = absent).
	na := len(t.attrs)
	flat := make([]int32, len(rowFeat)*na)
	rowVals := make([][]int32, len(rowFeat))
	for r, fs := range rowFeat {
		rowVals[r] = flat[r*na : (r+1)*na : (r+1)*na]
		for _, f := range fs {
			rowVals[r][f.attr] = f.val
		}
	}
	b := &treeBuilder{t: t, rowClass: rowClass, rowVals: rowVals, minSupport: opt.MinSupport,
		maxDepth: opt.MaxDepth, cnt: make([]int32, len(valStr))}
	rows := make([]int32, len(rowFeat))
	for i := range rows {
		rows[i] = int32(i)
	}
	leafRows := map[*node][]int32{}
	b.leafRows = leafRows
	t.root = b.build(rows, make([]bool, na), 0)

	s := &site{name: name, tree: t}
	for h := range hostSet {
		s.hosts = append(s.hosts, h)
	}
	slices.Sort(s.hosts)

	// Read out one rule per leaf whose majority class is not the identity.
	var readout func(n *node, path []Cond)
	readout = func(n *node, path []Cond) {
		if n.attr < 0 {
			st.Leaves++
			if n.class == 0 {
				return
			}
			var pos []int32
			for _, r := range leafRows[n] {
				if rowClass[r] == n.class {
					pos = append(pos, r)
				}
			}
			n.rule = int32(len(s.rules))
			s.rules = append(s.rules, Rule{Site: name, Context: contextOf(t, path, rowVals, pos, valStr), Transform: t.classes[n.class]})
			s.leaf = append(s.leaf, n)
			return
		}
		k := t.attrs[n.attr]
		keys := make([]int32, 0, len(n.branches))
		for v := range n.branches {
			keys = append(keys, v)
		}
		slices.Sort(keys)
		for _, v := range keys {
			c := Cond{Key: k, Kind: CondEq, Value: valStr[v]}
			if v == 0 {
				c = Cond{Key: k, Kind: CondAbsent}
			}
			readout(n.branches[v], append(slices.Clip(path), c))
		}
		if n.other != nil {
			readout(n.other, append(slices.Clip(path), Cond{Key: k, Kind: CondAny}))
		}
	}
	readout(t.root, nil)
	st.Rules = len(s.rules)

	// Measure each rule on all training URLs of the site, in isolation (Koppula et al. §5:
	// coverage, and the URLs u with r(u) = v for a v of another cluster).
	ident := make(map[string]int32, len(all))
	for _, m := range all {
		ident[m.prep] = m.cluster
	}
	outs := make([]map[string]int32, len(s.rules))
	for _, m := range all {
		n := t.walk(&m.p)
		if n == nil || n.rule < 0 {
			continue
		}
		r := &s.rules[n.rule]
		if !holds(r.Context, &m.p) {
			continue
		}
		q, ok := r.Transform.apply(&m.p)
		if !ok {
			continue
		}
		r.Coverage++
		out := q.String()
		bad := false
		if c, ok := ident[out]; ok && c != m.cluster {
			bad = true
		}
		if outs[n.rule] == nil {
			outs[n.rule] = map[string]int32{}
		}
		if c, ok := outs[n.rule][out]; ok && c != m.cluster {
			bad = true
		} else if !ok {
			outs[n.rule][out] = m.cluster
		}
		if bad {
			r.False++
		}
	}
	return s, st
}

type feat struct{ attr, val int32 }
