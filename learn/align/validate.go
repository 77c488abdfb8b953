package align

import (
	"slices"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/internal/versionkey"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// matches reports whether the rule's scope and context hold for the URL.
func matches(r *rules.Rule, it *item) bool { return versionkey.Matches(r, it.host, it.toks) }

// hostShape groups validation URLs by host and number of path segments: every context the
// learner makes names each path segment by its positions from both ends, so it matches URLs of
// one length only.
type hostShape struct {
	host string
	nseg int
}

// A valIndex indexes a half of the site's URLs for measuring candidates on it.
type valIndex struct {
	items   []item
	byShape map[hostShape][]int
	byForm  map[string][]int
	byHost  map[string][]int
	changed map[int]bool
	outs    map[string][]int
}

func newValIndex(items []item) *valIndex {
	x := &valIndex{items: items, byShape: map[hostShape][]int{}, byForm: map[string][]int{}, byHost: map[string][]int{},
		changed: map[int]bool{}, outs: map[string][]int{}}
	for i := range items {
		it := &items[i]
		x.byShape[hostShape{it.host, it.nseg}] = append(x.byShape[hostShape{it.host, it.nseg}], i)
		x.byForm[it.prep] = append(x.byForm[it.prep], i)
		x.byHost[it.host] = append(x.byHost[it.host], i)
	}
	return x
}

// measure applies candidate c alone to the URLs of x that its context matches and returns the
// URLs it changes, its supporting pairs and its false-positive pairs (see validate);
// identifying is true, and the counts 0, when it deletes a parameter that identifies the pages
// of a URL it changes (ro). ok is false when c is not a valid rule set.
func (x *valIndex) measure(c *candidate, ro *roles.Roles) (changed int, supp, fp int64, identifying, ok bool) {
	var dels []string // the query parameters c deletes whatever their values
	for _, k := range versionkey.WildKeys(&c.rule) {
		if k.Part == urlnorm.PartQuery {
			dels = append(dels, k.Name)
		}
	}
	set, err := rules.NewSet([]rules.Rule{c.rule}, &rules.Options{Canonicalizer: canonicalizer})
	if err != nil {
		return 0, 0, 0, false, false
	}
	norm := learn.SetNormalizer(set)
	clear(x.changed)
	clear(x.outs)
	bucket := x.byShape[hostShape{c.rule.Scope.Host, c.nseg}]
	if c.nseg < 0 {
		bucket = x.byHost[c.rule.Scope.Host]
	}
	for _, i := range bucket {
		it := &x.items[i]
		if !matches(&c.rule, it) {
			continue
		}
		out, err := norm.Normalize(it.prep)
		if err != nil || out == it.prep {
			continue
		}
		if len(dels) > 0 && ro != nil {
			// It deletes what names pages of this URL's type, or tells apart the pages of the
			// URLs that its output is but for the parameter.
			u := roleURL(it)
			if slices.ContainsFunc(dels, func(name string) bool { return ro.Identifies(&u, name) }) {
				return 0, 0, 0, true, true
			}
			if oi, ok := prepare(out); ok {
				o := roleURL(&oi)
				if slices.ContainsFunc(dels, func(name string) bool { return ro.Separates(&o, name) }) {
					return 0, 0, 0, true, true
				}
			}
		}
		x.changed[i] = true
		x.outs[out] = append(x.outs[out], i)
	}
	counts := map[int32]int64{}
	unchanged := map[int32]int64{}
	for out, members := range x.outs {
		clear(counts)
		clear(unchanged)
		var n int64
		for _, i := range members {
			counts[x.items[i].cluster]++
			n++
		}
		// Unchanged URLs that already have this form.
		var nu int64
		for _, i := range x.byForm[out] {
			if !x.changed[i] {
				counts[x.items[i].cluster]++
				unchanged[x.items[i].cluster]++
				n++
				nu++
			}
		}
		same := int64(0)
		for cl, k := range counts {
			same += k * (k - 1) / 2
			u := unchanged[cl]
			same -= u * (u - 1) / 2
		}
		all := n*(n-1)/2 - nu*(nu-1)/2
		supp += all
		fp += all - same
	}
	return len(x.changed), supp, fp, false, true
}

// validate keeps the candidates that pass the paper's validation (Algorithm 3.4) on the
// validation URLs val: each candidate is applied, alone, to the URLs of its host that its
// context matches; the URLs it changes, together with the unchanged URLs that already have one
// of its outputs, are grouped by output; the pairs of a group with at least one changed URL are
// the supporting pairs, and those of two different clusters the false-positive pairs. A rule is
// kept when it has at least opt.MinSupport supporting pairs and a false-positive rate at most
// opt.FPRMax. Its Stats are its validation coverage (URLs changed), 1 - its false-positive rate,
// and its support in generation clusters.
//
// A rule kept so is measured on the generation URLs gen as well, and dropped when it merges
// generation clusters at a false-positive rate above opt.FPRMax: the clusters it was drawn from
// contradict it. A rule that deletes a commit or a capture's timestamp for one file (cgit's
// /tree/x.md?id=*, an archive's /web/*/http://example.org/x.html) is right for the file's
// versions that one cluster of the validation half holds, and merges the file's other versions,
// which changed, in the generation half.
func validate(cands []*candidate, val, gen []item, ro *roles.Roles, opt Options, st *learn.Stats) []rules.Rule {
	if len(cands) == 0 || len(val) == 0 {
		return nil
	}
	vx, gx := newValIndex(val), newValIndex(gen)
	var kept []rules.Rule
	for _, c := range cands {
		changed, supp, fp, identifying, ok := vx.measure(c, ro)
		if !ok || changed == 0 || identifying {
			continue
		}
		st.Rules++
		if supp < int64(opt.MinSupport) {
			continue
		}
		fpr := float64(fp) / float64(supp)
		if fpr > opt.FPRMax || c.nseg < 0 && fp > 0 {
			// A rule for the whole host (any path) must merge no two validation clusters: its
			// many supporting pairs on one kind of page would hide its errors on another
			// (phpBB's f= is redundant in viewtopic.php and the content in viewforum.php).
			continue
		}
		if !ablate.NoGenCheck {
			if _, gsupp, gfp, _, _ := gx.measure(c, nil); gfp > 0 && float64(fp+gfp) > opt.FPRMax*float64(supp+gsupp) {
				continue
			}
		}
		r := c.rule
		r.Stats = rules.Stats{Coverage: changed, Precision: 1 - fpr, Support: c.clusters}
		kept = append(kept, r)
	}
	return kept
}
