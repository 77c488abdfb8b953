package learn

import (
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// An originAlias is the evidence that the URLs of one origin (scheme and authority) of a site
// name the pages of its main origin under the same path and query: the paths (with their
// query) that one cluster holds on both (agree), and those that two clusters hold, one on
// each (against: there the two origins serve different pages).
type originAlias struct {
	scheme, host     string // the alias
	toScheme, toHost string // the main origin
	agree, against   int
}

// aliasOrigins returns, by origin text ("http://example.com"), the origins of a site's training
// URLs that its clusters show to be aliases of the site's main origin (the origin that most of
// its URLs have): a rule that rewrites the origin alone, with the agreements for coverage and
// the disagreements for errors, passes selection (see originAlias.rule). It is for the online
// learner (see Options.online): a crawl's clusters hold the variants of a page it happened to
// fetch, so that without it every combination of an origin alias with another variant (the
// bare host with a session id, http:// with a print view) is a transformation of its own, each
// waiting for its own support, and clusters that lack the main origin choose targets on an
// alias. Time and memory are linear in the URLs.
func aliasOrigins(byCluster [][]*member, opt Options) map[string]*originAlias {
	if ablate.NoOriginMap {
		return nil
	}
	type at struct {
		origin  string
		cluster int32
	}
	count := map[string]int{}
	byRest := map[string][]at{} // path and query -> the origins and clusters that hold it
	for _, ms := range byCluster {
		for _, m := range ms {
			o := m.p.scheme + "://" + m.p.host
			count[o]++
			rest := m.prep[len(o):]
			byRest[rest] = append(byRest[rest], at{o, m.cluster})
		}
	}
	if len(count) < 2 {
		return nil
	}
	main := ""
	for o, n := range count {
		if n > count[main] || n == count[main] && o < main {
			main = o
		}
	}
	ms, mh, _ := strings.Cut(main, "://")
	out := map[string]*originAlias{}
	for _, ats := range byRest {
		onMain := int32(-1) // the cluster of the rest's URL on the main origin (a URL is in one cluster)
		for _, a := range ats {
			if a.origin == main {
				onMain = a.cluster
			}
		}
		if onMain < 0 {
			continue
		}
		for _, a := range ats {
			if a.origin == main {
				continue
			}
			al := out[a.origin]
			if al == nil {
				s, h, _ := strings.Cut(a.origin, "://")
				al = &originAlias{scheme: s, host: h, toScheme: ms, toHost: mh}
				out[a.origin] = al
			}
			if a.cluster == onMain {
				al.agree++
			} else {
				al.against++
			}
		}
	}
	for o, al := range out {
		if r := al.rule(""); !r.selected(opt.MinPrecision, opt.MinCoverage, true) {
			delete(out, o)
		}
	}
	return out
}

// rule returns the rule of site that rewrites the alias's origin to the main origin, whatever
// the path and query.
func (al *originAlias) rule(site string) lrule {
	ctx := []cond{
		{Key: urlnorm.Key{Part: urlnorm.PartHost}, Kind: condEq, Value: al.host},
		{Key: urlnorm.Key{Part: urlnorm.PartScheme}, Kind: condEq, Value: al.scheme},
	}
	var e edit
	if al.scheme != al.toScheme {
		e.Scheme = &vop{Kind: opLiteral, Lit: al.toScheme}
	}
	if al.host != al.toHost {
		e.Host = &vop{Kind: opLiteral, Lit: al.toHost}
	}
	return lrule{Site: site, Context: ctx, edit: e, Coverage: al.agree, False: al.against}
}

// toMain returns ms with the URLs of the alias origins moved to the main origin, as the rules
// of the aliases rewrite them. As lowerPaths does, it keeps the URLs that become equal.
func toMain(ms []*member, aliases map[string]*originAlias, buf *[]urlnorm.Token) []*member {
	return rewritten(ms, buf, func(m *member) string {
		o := m.p.scheme + "://" + m.p.host
		if al := aliases[o]; al != nil {
			return al.toScheme + "://" + al.toHost + m.prep[len(o):]
		}
		return m.prep
	})
}
