package learn

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Rules that cut a URL to its directory. A rule that deletes a literal last path segment
// (/docs/x/index.html to /docs/x/, /title/7/maindetails to /title/7/) says a file and its
// directory are one page: right where the server serves the file as the directory's page,
// wrong where the directory is a page of its own (a listing), and nothing in the URL tells the
// two apart; the server decides per directory. Its training precision says little: the URLs
// it covers are mostly files whose directory the crawl never fetched, and the files its own
// skips added to the directories' pages. So such a rule (see cutsToDir) is judged by the
// site's own fetches too: the pairs of fetched URLs that the rule gives one key (see
// sitePairs) are each a check made for free, and its uses are checked while the upper
// confidence bound on its error rate over those pairs and its checks since exceeds 5%, like
// the bound over its training evidence.

// A pairCount is what the site's fetches say of a rule: pairs of fetched URLs that the rule
// gives one key and is decisive for (each URL with the first fetched URL of its key), and of
// them those whose pages differ; with its counter's checks and failures when they were
// counted, since the checks made before are fetched pairs among them.
type pairCount struct {
	pairs, fails          int64
	baseChecks, baseFails int64
}

// sitePairs returns, by rule content (see contentKey), the pairs of URLs of s that the crawl
// fetched (not those Skipped recorded) to which v gives one key, counted for the rules
// decisive for them (see decisive), for the rules of v that cut a URL to its directory; nil if
// v has none. It costs a key per URL. s.mu must be held.
func (s *onlineSite) sitePairs(v *siteVersion) map[string]*pairCount {
	want := map[int]bool{}
	for i, p := range v.prior {
		if p.dir {
			want[i] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	type first struct {
		k  Key
		fp uint64
	}
	firsts := map[string]first{}
	out := map[string]*pairCount{}
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
			for _, r := range decisive(k, f.k) {
				if r.ver != v || !want[r.i] {
					continue
				}
				c := contentKey(v.set.Rule(r.i))
				n := out[c]
				if n == nil {
					n = &pairCount{}
					if rc := s.counters[c]; rc != nil {
						n.baseChecks, n.baseFails = rc.checks.Load(), rc.fails.Load()
					}
					out[c] = n
				}
				n.pairs++
				if f.fp != fp {
					n.fails++
				}
			}
		}
	}
	return out
}

// cutsToDir reports whether r deletes a last path segment whose literal value, not empty, its
// context names: it maps a file to its directory.
func cutsToDir(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartPath || a.Key.RPos != 1 || a.Key.Pos != 0 || a.Key.Sub != 0 || a.Key.RSub != 0 || a.Insert {
			continue
		}
		if (a.Op == rules.Delete || a.Op == rules.Assign && a.Value == "") && fixesLiteral(r, a.Key) {
			return true
		}
	}
	return false
}

// pairsHigh reports whether the upper confidence bound on the error rate of a rule that cuts
// a URL to its directory, with prior p, over its fetched pairs and its checks and failures
// since they were counted, exceeds boundAt (see the comment at the top of the file).
func pairsHigh(p riskPrior, checks, fails int64) bool {
	if !p.dir || p.pairs.fails == 0 || ablate.NoDirPairs {
		return false
	}
	n := p.pairs
	return bound(riskPrior{checks: float64(n.pairs), fails: float64(n.fails)}, max(0, checks-n.baseChecks), max(0, fails-n.baseFails)) > boundAt
}
