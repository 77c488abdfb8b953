package learn

import (
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

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
//
// The site's fetches are counted by directory: a directory whose page the crawl fetched under
// several URLs (/x/, /x//, http://x/, /x/index.html) is one pair, a failure if any of its URLs
// with the file name served another page than one without; a pair of URLs neither or both of
// which name the file (/x/ and /x//) says nothing of the rule, and is not counted. A directory
// that serves its index file under more URLs is no likelier to be one page with it, and
// counted once per URL it would bring the bound down on directories that are one page while a
// directory that is a listing of its own, two URLs, counts once.
//
// The bound says nothing while no pair has failed: a site whose directories are listings one
// time in three shows 8 or 12 clean pairs in a row often enough (one crawl order in 50 or
// more) for a rule trusted on them to lose a page at every third use after. The server decides
// per directory, and how it decides shows in how it serves other variants of its paths: a
// host that has served paths that differ only in letter case or in a trailing slash as other
// pages (FAQ.html and faq.html, /x and /x/) more often than as one page maps URLs to files
// literally (see literalHost), and there a rule that cuts a URL to its directory is checked
// until the site has shown dirClean clean directories for it. A host that folds case or
// slashes (an IIS site, a web application) has shown the contrary, and a host that has shown
// neither pays nothing.

// A pairCount is what the site's fetches say of a rule: pairs of fetched URLs that the rule
// gives one key and is decisive for (each URL with the first fetched URL of its key), and of
// them those whose pages differ; with its counter's checks and failures when they were
// counted, since the checks made before are fetched pairs among them.
type pairCount struct {
	pairs, fails          int64
	baseChecks, baseFails int64
}

// dirClean is how many clean directories (fetched pairs and checks) a rule that cuts a URL to
// its directory must have on a host that serves variants of a path as other pages before its
// uses are sampled like other rules' (see the comment at the top of the file); tuned on the
// paths family of the site families of seed 5151 (12 let a crawl order that met 12 directories
// that are one page first lose 21 pages; 16 and 20 lose none).
const dirClean = 20

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
	dirs := map[string]map[string]bool{} // rule content -> key -> failed, of the directories counted
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
				rule := v.set.Rule(r.i)
				name := cutName(&rule)
				if !ablate.NoDirKeys && strings.EqualFold(fileOf(k.in), name) == strings.EqualFold(fileOf(f.k.in), name) {
					continue // both or neither name the file: no pair of the rule's
				}
				c := contentKey(rule)
				n := out[c]
				if n == nil {
					n = &pairCount{}
					if rc := s.counters[c]; rc != nil {
						n.baseChecks, n.baseFails = rc.checks.Load(), rc.fails.Load()
					}
					out[c] = n
				}
				if ablate.NoDirKeys {
					n.pairs++
					if f.fp != fp {
						n.fails++
					}
					continue
				}
				if dirs[c] == nil {
					dirs[c] = map[string]bool{}
				}
				failed, seen := dirs[c][k.Key]
				if !seen {
					n.pairs++
				}
				if f.fp != fp && !failed {
					n.fails++
				}
				dirs[c][k.Key] = failed || f.fp != fp
			}
		}
	}
	return out
}

// cutsToDir reports whether r deletes a last path segment whose literal value, not empty, its
// context names: it maps a file to its directory.
func cutsToDir(r *rules.Rule) bool { return cutName(r) != "" }

// cutName returns the file name that r cuts from a URL to map it to its directory (see
// cutsToDir), "" if r cuts none.
func cutName(r *rules.Rule) string {
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartPath || a.Key.RPos != 1 || a.Key.Pos != 0 || a.Key.Sub != 0 || a.Key.RSub != 0 || a.Insert {
			continue
		}
		if a.Op != rules.Delete && (a.Op != rules.Assign || a.Value != "") {
			continue
		}
		if v := literalOf(r, a.Key); v != "" {
			return v
		}
	}
	return ""
}

// fileOf returns the last path segment of the URL p (in Prepare's form).
func fileOf(p string) string {
	path, _, _ := strings.Cut(pathOf(p), "?")
	return path[strings.LastIndexByte(path, '/')+1:]
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

// dirUnproven reports whether a use of r, a rule that cuts a URL to its directory on a host
// that serves variants of a path as other pages (see literalHost), with checks and fails in
// all, is checked because its site has shown fewer than dirClean clean directories for it: its
// fetched pairs and its checks since they were counted, or its clean checks, whichever is more
// (a relearn that counts the pairs again may not find a check's URL among them: a check of a
// query variant of the directory).
func dirUnproven(r ruleRef, checks, fails int64) bool {
	p := r.ver.prior[r.i]
	if !p.dir || ablate.NoDirClean || r.ver.site == nil || !r.ver.site.literalHost(hostOf(r.in)) {
		return false
	}
	return max(p.pairs.pairs-p.pairs.fails+max(0, checks-p.pairs.baseChecks), checks-fails) < dirClean
}

// A variantMark is what a site keeps of the first URL fetched in a variant form (see
// variant): its page and the hash of its path, until a URL of another path in that form
// settles how its host serves the form.
type variantMark struct {
	fp, path uint64
	settled  bool
}

// hostVariants counts the variant forms (see variant) whose two paths a host served as one
// page (same) and as two (other).
type hostVariants struct{ same, other atomic.Int64 }

// variant records the URL p (in Prepare's form), fetched as page fp, by its variant form: its
// host, its path in lowercase and without trailing slashes, and its query. The first URL
// fetched with another path of the same form tells whether the host serves the two paths
// (/Docs/Intro and /docs/intro, FAQ.html and faq.html, /x and /x/) as one page or as two; the
// form is settled then, so that each counts once. s.mu must be held.
func (s *onlineSite) variant(p string, fp uint64) {
	host := hostOf(p)
	path, query, _ := strings.Cut(pathOf(p), "?")
	form := xxhash.Sum64String(host + " " + strings.TrimRight(strings.ToLower(path), "/") + "?" + query)
	ph := xxhash.Sum64String(path)
	m, ok := s.variants[form]
	if !ok {
		if s.variants == nil {
			s.variants = map[uint64]variantMark{}
		}
		s.variants[form] = variantMark{fp: fp, path: ph}
		return
	}
	if m.settled || m.path == ph {
		return
	}
	s.variants[form] = variantMark{settled: true}
	n, _ := s.literal.LoadOrStore(host, new(hostVariants))
	if v := n.(*hostVariants); m.fp == fp {
		v.same.Add(1)
	} else {
		v.other.Add(1)
	}
}

// literalHost reports whether host has served paths that differ only in letter case or in
// trailing slashes as other pages more often than as one page (see variant): it maps URLs to
// files literally, and decides per directory whether the directory's URL serves its index
// file. Safe for concurrent use.
func (s *onlineSite) literalHost(host string) bool {
	n, ok := s.literal.Load(host)
	if !ok {
		return false
	}
	v := n.(*hostVariants)
	other := v.other.Load()
	return other > 0 && other > v.same.Load()
}
