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
//     reaches Options.MinPrecision by lrule.Estimate in total and never makes a site's precision
//     drop below 0.9: a parameter that carries content on some site (s= as a search query, t= as
//     a topic id) is not widened, however many sites use it as a session id; nor is one that
//     looks identifying in a part of some site (Evidence.Identifying).
//
// The evidence is kept in the rule: Coverage and False sum the sites' measurements and Sites
// counts the sites it was learned on; in the rules.Set, Stats.Support is that count.
func widen(sites []SiteResult, opt Options) []lrule {
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
		for name, ev := range s.Params {
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
			if ev.Identifying || ev.Coverage > 0 && float64(ev.Coverage-ev.False)/float64(ev.Coverage) < 0.9 {
				a.bad = true
			}
		}
	}
	var names []string
	for name, a := range byParam {
		if a.learned >= opt.MinSites && !a.bad {
			r := lrule{Coverage: a.cov, False: a.f}
			if opt.MinPrecision < 0 || r.Estimate() >= opt.MinPrecision {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	var out []lrule
	for _, name := range names {
		a := byParam[name]
		out = append(out, lrule{
			Site:     "* learned on " + strconv.Itoa(a.learned) + " of " + strconv.Itoa(a.seen) + " sites",
			Context:  []cond{{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: name}, Kind: condAny}},
			edit:     edit{Query: []queryOp{{Name: name, Delete: true}}},
			Coverage: a.cov,
			False:    a.f,
			Sites:    a.learned,
		})
	}
	return out
}
