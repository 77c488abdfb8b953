package learn

import (
	"slices"
	"strconv"

	"github.com/undust/undust/urlnorm"
)

// widen returns the rules that the learner widens beyond one site: deleting a query parameter
// whatever its value, everywhere. A parameter is widened when
//
//   - on at least Options.MinSites sites a selected rule deletes it with a wildcard value (the
//     parameter is learned as a session id or tracking parameter there), and
//   - deleting it from every training URL of every site that has it, measured site by site,
//     reaches Options.MinPrecision by Rule.Estimate in total and never makes a site's precision
//     drop below 0.9: a parameter that carries content on some site (s= as a search query, t= as
//     a topic id) is not widened, however many sites use it as a session id.
//
// The evidence (sites learned, sites seen, coverage, errors) is kept in the rule: Site is "*",
// Coverage and False sum the sites' measurements, and the rule's text names the sites.
func widen(sites []*site, opt Options) []Rule {
	if opt.MinSites < 0 {
		return nil
	}
	type agg struct {
		learned, seen int
		cov, f        int
		bad           bool
	}
	byParam := map[string]*agg{}
	for _, s := range sites {
		for name, ev := range s.paramDel {
			a := byParam[name]
			if a == nil {
				a = &agg{}
				byParam[name] = a
			}
			a.seen++
			if ev.Learned {
				a.learned++
			}
			a.cov += ev.Coverage
			a.f += ev.False
			if ev.Coverage > 0 && float64(ev.Coverage-ev.False)/float64(ev.Coverage) < 0.9 {
				a.bad = true
			}
		}
	}
	var names []string
	for name, a := range byParam {
		if a.learned >= opt.MinSites && !a.bad {
			r := Rule{Coverage: a.cov, False: a.f}
			if opt.MinPrecision < 0 || r.Estimate() >= opt.MinPrecision {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	var out []Rule
	for _, name := range names {
		a := byParam[name]
		out = append(out, Rule{
			Site:      "* learned on " + strconv.Itoa(a.learned) + " of " + strconv.Itoa(a.seen) + " sites",
			Context:   []Cond{{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: name}, Kind: CondAny}},
			Transform: Transform{Query: []QueryOp{{Name: name, Delete: true}}},
			Coverage:  a.cov,
			False:     a.f,
		})
	}
	return out
}

// Global returns copies of the rules widened beyond one site. They apply only to URLs whose
// host belongs to no learned site: a learned site's own rules know better.
func (m *Model) Global() []Rule {
	out := slices.Clone(m.global)
	for i := range out {
		out[i].Context = slices.Clone(out[i].Context)
	}
	return out
}

// normalizeGlobal applies every widened rule whose parameter p has.
func (m *Model) normalizeGlobal(prep string, p *parsed) string {
	cur := *p
	changed := false
	for i := range m.global {
		r := &m.global[i]
		if !holds(r.Context, &cur) {
			continue
		}
		q, ok := r.Transform.apply(&cur)
		if ok {
			cur, changed = q, true
		}
	}
	if !changed {
		return prep
	}
	return finalize(cur.String())
}
