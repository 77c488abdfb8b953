package learn

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/casefold"
	"github.com/undust/undust/internal/hashid"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Verification at crawl time. A learned rule is trusted as far as checks of its uses have
// confirmed it: a use that the crawler fetches anyway, and whose page it compares with the page
// of the URL whose key it has, is a check.
//
//   - A rule's error rate (the share of its uses that name another page) has an upper
//     confidence bound: the mean of its failures among its checks plus one standard error,
//     with its training evidence as a prior (a training URL counts as a quarter of a check, at
//     most 50 of them, and its training errors likewise). While the bound exceeds 5%, every
//     use of the rule is checked: a rule whose training precision is 0.96, or that failed a
//     check, is checked until it fails again (and is retracted) or enough checks bring the
//     bound down. A rule whose training evidence is clean has a bound of 0 until it fails.
//   - A rule of a risky shape (one that swaps a literal path segment for another,
//     /docs/v2/x to /docs/latest/x, inserts one, or cuts a segment down to a deep token of
//     it, a random-looking suffix gone) has its first 8 uses checked, and its first 3 in each
//     context (see contextOf): such rules hold for the pages their training saw and fail,
//     unseen in the URL, for the pages that changed between the trees or whose suffix was the
//     page. The first use in a context may be confirmed for another reason (photo-x7Yt and
//     photo-x7Yt?src=feed, one photo, where the suffix of photo-<id> is the page, unlike that
//     of friends-<id>), and the next ones are the uses that show the rule wrong there. A rule
//     that maps one tree onto another and does nothing else to the path (see treeSwap), on a
//     site that maps several trees so, also has a failure in its prior, so that it is checked
//     until about 27 clean checks bring its bound under 5%: a release's documentation may
//     differ from the next in one page of 10, which 8 checks miss almost one time in two.
//     And 27 miss it one time in 16: a failure of any rule that swaps trees at that segment
//     of the site counts against each of them (familyFails), so that a swap whose clean
//     checks happened to be pages that did not change is checked again when another swap
//     finds the site's trees differ. The trees may be named in the query too: a repository
//     browser serves a file at each commit (/file?name=x&ci=9f3a…), the same page between two
//     commits that did not change it, and its rules that map one commit's files onto another's
//     are tree swaps (see versionSwap), as is a rule that deletes the commit whatever its value
//     on such a site, every commit mapped onto one (see labelRewrite).
//   - Otherwise, a rule's first VerifyFirst uses, its first use in each context (see
//     contextOf; its first 3 after a failure) and one use in VerifyEvery are checked, by a
//     deterministic credit: each use adds 1/VerifyEvery to the rule's credit, and a use
//     whose credit reaches 1 is checked (the credit of every rule the check informs drops by 1).
//   - A rule that converts the case of the whole path has its contexts told apart by tree too
//     (a first path segment that is a template word; see ruleContext): it is checked on its first 3 uses in each tree and
//     retracted in the tree where it fails, since a server may ignore case in one tree only.
//   - A mismatch marks the edit of each rule it retracts (see editOf: the literal path
//     segments and parameter values the rule rewrites, and how) on the rule's site. A rule of
//     the same edit learned later (the same /print/ prefix dropped, with a host rewrite added,
//     or in a narrower context) starts with that failure in its prior, so that its uses are
//     checked until its own checks bring the bound under 5%, instead of being trusted for a
//     clean training record that the retracted rule had too.
//   - A use of a rule that rewrites a literal value (see rewritesLiteral: view=print
//     deleted, /print/ cut) is checked when its key, which has no query, is the path of
//     other pages of the site: a URL fetched with that path and a query served another page
//     than the kept one (/a/7/story?page=2). A literal names a view of a page, and a view of
//     a page of several pages (the print view of an article) may show the whole series
//     rather than the page that the key names; the crawl's own fetches say which pages are
//     series, and the rule's clean training record cannot, since the crawl skipped those
//     views by the rule.
//   - A check informs only the rules that were decisive for it: the rules that made either
//     key of the collision (the URL met, or the URL kept whose key it has) without which the
//     two URLs would have had different keys. A rule that cut a random suffix is not confirmed
//     by a check of a www and bare-host pair that its www rule made equal anyway. When no
//     single rule is decisive (two rules each make the keys equal), the rules that rewrote one
//     of the two URLs only are informed, or all of them if every rule rewrote both: where
//     /latest goes to /5.0.x and on to /4.0.x, and also straight to /4.0.x, a check of
//     /latest/x against /5.0.x/x says nothing of the rule from /5.0.x to /4.0.x that made both
//     keys; counted, its confirmations would let it go unchecked where the two trees differ.
//     A rule retracted in the context of the rewrite makes no key there, and does not stand
//     in for another: where the deletion of /print/ was retracted, a later rule that sends
//     /print/x to /amp/x (whose prefix a confirmed rule deletes) is decisive for the match.

// A ruleCounter counts the uses of a rule that verification saw and the checks of it. It is
// kept per rule content, across relearns.
type ruleCounter struct {
	uses, checks, confirmed, fails atomic.Int64
	ctx                            sync.Map     // context (see contextOf) -> *atomic.Int64, the uses in it
	ctxChecks                      sync.Map     // context -> *atomic.Int64, the checks in it
	sampled                        atomic.Int64 // checks the sampling credit alone asked for, not made yet

	mu     sync.Mutex
	credit float64 // the sampling probability of its uses since its last check
}

// A riskPrior is what a rule's error rate is believed to be before any check: pseudo-checks and
// pseudo-failures from its training evidence, and whether its shape is risky.
type riskPrior struct {
	checks, fails float64
	risky         bool     // a rule of a risky shape (see riskyShape)
	edit          string   // the rule's edit (see editOf), "" if it rewrites no literal
	pathCase      bool     // a rule that converts the case of the whole path (see ruleContext)
	params        []string // the query parameters its context names or its uses had (see ruleIn)
	key           string   // the rule's content key (see contentKey)
	tree          string   // the segment of a tree swap (see treeSwap) on a site that maps several trees there
	query         bool     // a rule that rewrites the query alone (see queryOnly)
	literal       bool     // a rule that rewrites a non-empty literal value (see rewritesLiteral)
	dir           bool     // a rule that cuts a URL to its directory (see cutsToDir)
	// For a rule that cuts a URL to its directory, set when a version is published: its
	// fetched pairs (see sitePairs).
	pairs pairCount
}

// The verification policy's constants (see the comment at the top of the file); tuned on
// replays of the dupclusters dev.tsv.
const (
	trainWeight       = 0.25 // a training URL counts as this many checks
	maxTrainChecks    = 50.0 // training URLs counted at most
	zBound            = 1.0  // standard errors above the mean of the bound
	boundAt           = 0.05 // every use is checked while the bound exceeds this
	riskyFirst        = 8    // the first uses of a rule of a risky shape that are checked
	riskyContextFirst = 3    // and its first uses in each context
	caseFirst         = 3    // the first uses in each tree of a rule that converts the path's case
	treeFails         = 1.0  // failures in the prior of a rule that maps one tree onto another
)

// priors returns the prior of every rule of set: priorOf's, with treeFails failures added for a
// rule that maps one tree onto another (see treeSwap) where the set maps at least two trees onto
// others at that segment of a host: a site that serves its pages under several trees (releases,
// dated snapshots, their aliases) changes some of them between trees, while a site with one
// pair of views of each page (/print/x and /amp/x) serves one page under both. A rule that
// deletes or overwrites, whatever its value, a parameter that the set's version swaps show to
// name versions (see versionSwap) is the widest swap of all, every version onto one: it joins
// their family.
func priors(set *rules.Set) []riskPrior {
	out := make([]riskPrior, set.Len())
	tree, from := swapFamilies(set.Len(), func(i int) (string, string) {
		r := set.Rule(i)
		return treeSwap(&r)
	})
	for i := range out {
		r := set.Rule(i)
		out[i] = priorOf(r)
		if tree[i] == "" {
			tree[i] = labelRewrite(&r, from)
		}
	}
	for i := range out {
		if tree[i] != "" && len(from[tree[i]]) >= 2 && !ablate.NoTreePrior {
			out[i].checks += treeFails
			out[i].fails += treeFails
			out[i].tree = tree[i]
		}
	}
	return out
}

// swapFamilies returns the family of each of n rules (swap(i): its family, such as a host's
// path segment, and the tree or version it maps from; "" for a rule that swaps none) and, per
// family, the trees its rules map from.
func swapFamilies(n int, swap func(i int) (family, from string)) ([]string, map[string]map[string]bool) {
	family := make([]string, n)
	from := map[string]map[string]bool{}
	for i := range n {
		var f string
		if family[i], f = swap(i); family[i] != "" {
			if from[family[i]] == nil {
				from[family[i]] = map[string]bool{}
			}
			from[family[i]][f] = true
		}
	}
	return family, from
}

// priorOf returns the prior of r's error rate from its training statistics and its shape.
func priorOf(r rules.Rule) riskPrior {
	n := trainWeight * min(float64(r.Stats.Coverage), maxTrainChecks)
	var params []string
	for _, c := range r.Context {
		if c.Key.Part == urlnorm.PartQuery && !slices.Contains(params, c.Key.Name) {
			params = append(params, c.Key.Name)
		}
	}
	return riskPrior{checks: n, fails: n * (1 - r.Stats.Precision), risky: riskyShape(&r) && !ablate.NoShapeRisk, edit: editOf(&r), literal: rewritesLiteral(&r),
		pathCase: convertsPath(&r) && !ablate.NoCaseContexts, dir: cutsToDir(&r), params: params, key: contentKey(r), query: queryOnly(&r)}
}

// convertsPath reports whether r converts the case of the whole path.
func convertsPath(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if a.Op == rules.Convert && a.Key == (urlnorm.Key{Part: urlnorm.PartPath}) {
			return true
		}
	}
	return false
}

// ruleContext returns the context of a use of rule i of ver that rewrote in to key (see
// contextOf). A rule that converts the case of the whole path is also told apart by the tree
// of in, its first path segment lowercased, when that is a template word of the site (see
// templateWords; titles used as first segments are not, and share one context): a server may
// ignore case in one tree and not in another (an IIS site's /go/aB3x short links), so that
// the rule is checked on its first caseFirst uses in each tree and retracted in the tree where
// it fails.
func ruleContext(ver *siteVersion, i int, in, key string) string {
	return ver.ruleIn(i, in, contextOf(in, key, ver.words))
}

// ruleIn returns ctx, the context of a use of rule i on in (see contextOf), with the tree of in
// (see inTree) and the parameters of in that the rule's training URLs did not have: the site's
// template parameters (see siteWords) that in has, that the rule's context names neither with
// a value, a wildcard nor an absence, and that its uses on the site's evidence had on one page
// at most, or hardly any (see ruleParams). A rule learned on URLs without such a
// parameter holds on them and may not where it is there: deleting h and hb from a repository
// browser's root listing at every commit (a=tree&h=C&hb=C) is right, and from a
// subdirectory's listing (the same with f=src), which changes with the commit, is not; so its
// first use on URLs with f is checked, and a failure there retracts it there only. A parameter
// that the rule's uses had on pages of their own (a forum's highlight= beside the session id
// the rule deletes) does not tell its uses apart.
func (ver *siteVersion) ruleIn(i int, in, ctx string) string {
	ctx = inTree(ver, i, in, ctx)
	if ablate.NoQueryContexts {
		return ctx
	}
	named := ver.prior[i].params
	var b strings.Builder
	forNames(in, func(name string) {
		if ver.words["?"+name] && !slices.Contains(named, name) {
			if b.Len() == 0 {
				b.WriteString(ctx)
				b.WriteByte('?')
			}
			b.WriteString(name)
			b.WriteByte(' ')
		}
	})
	if b.Len() == 0 {
		return ctx
	}
	return b.String()
}

// inTree returns ctx, the context of a use of rule i of ver on in, with the tree of in when
// the rule converts the case of the whole path (see ruleContext).
func inTree(ver *siteVersion, i int, in, ctx string) string {
	if !ver.prior[i].pathCase {
		return ctx
	}
	if t := casefold.TreeOf(in); !t.Root && ver.words[t.First] {
		return ctx + "|" + t.First
	}
	return ctx + "|"
}

// editOf returns what r does to the literal values of its URLs' path and query: each action on
// a path or query key whose value r's context fixes, with that value ("path(1,-)=print
// Delete"), in the order of r's actions; "" if there is none. Rules learned again after a
// retraction keep it while their context and their other actions (scheme, host) change.
func editOf(r *rules.Rule) string {
	var b strings.Builder
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartPath && a.Key.Part != urlnorm.PartQuery {
			continue
		}
		for _, c := range r.Context {
			if c.Key == a.Key && c.Op == rules.Equal {
				fmt.Fprintf(&b, "%s=%q %d %q %s;", a.Key, c.Value, a.Op, a.Value, a.From)
			}
		}
	}
	return b.String()
}

// queryOnly reports whether r rewrites the query alone, from the query alone.
func queryOnly(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartQuery || a.Op == rules.Copy && a.From.Part != urlnorm.PartQuery {
			return false
		}
	}
	return true
}

// rewritesLiteral reports whether r rewrites a path or query key whose non-empty literal value
// its context fixes (view=print deleted, /print/ cut).
func rewritesLiteral(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if (a.Key.Part == urlnorm.PartPath || a.Key.Part == urlnorm.PartQuery) && literalOf(r, a.Key) != "" {
			return true
		}
	}
	return false
}

// literalOf returns the non-empty literal value that r's context fixes key to, "" if none.
func literalOf(r *rules.Rule, key urlnorm.Key) string {
	for _, c := range r.Context {
		if c.Key == key && c.Op == rules.Equal && c.Value != "" {
			return c.Value
		}
	}
	return ""
}

// familyFails returns the failures of checks of the rules of ver's site that swap trees at the
// segment of prior p's swap (see treeSwap): one tree mapped onto another wrongly for a page
// says that the site changes pages between its trees, and so that each of its tree swaps is
// wrong for some; 0 for a rule that is no such swap.
func familyFails(ver *siteVersion, p riskPrior) float64 {
	if p.tree == "" || ver.site == nil || ablate.NoTreeFamily {
		return 0
	}
	return loadCount(&ver.site.treeFails, p.tree)
}

// editFails returns the failures of checks of retracted rules of ver's site with the edit of
// prior p.
func editFails(ver *siteVersion, p riskPrior) float64 {
	if p.edit == "" || ver.site == nil || ablate.NoEditMemory {
		return 0
	}
	return loadCount(&ver.site.editFails, p.edit)
}

// loadCount returns the count of key in m (key -> *atomic.Int64), 0 if m has none.
func loadCount(m *sync.Map, key string) float64 {
	n, ok := m.Load(key)
	if !ok {
		return 0
	}
	return float64(n.(*atomic.Int64).Load())
}

// riskyShape reports whether r swaps a literal path segment for another (its context names
// the segment's value and an action assigns another one), inserts a literal segment, or cuts a
// path segment down (replaces it by one of its deep tokens, or deletes a deep token of it).
func riskyShape(r *rules.Rule) bool {
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartPath {
			continue
		}
		if a.Key.Sub != 0 || a.Key.RSub != 0 {
			if a.Op == rules.Delete {
				return true
			}
			continue
		}
		switch {
		case a.Op == rules.Assign && a.Insert && a.Value != "":
			return true
		case a.Op == rules.Assign && a.Value != "":
			for _, c := range r.Context {
				if c.Key == a.Key && c.Op == rules.Equal && c.Value != a.Value {
					return true
				}
			}
		case a.Op == rules.Copy && a.Conv == rules.NoConversion && a.From.Part == urlnorm.PartPath && (a.From.Sub != 0 || a.From.RSub != 0) &&
			a.From.Pos == a.Key.Pos && a.From.RPos == a.Key.RPos:
			return true
		}
	}
	return false
}

// treeSwap returns the host and path segment of r's swap ("tree docs.example.org path(2,-)")
// and the tree it maps from ("v2") if r maps one directory tree onto another; "", "" if not.
// Such a rule's only path action assigns a literal to a segment that other segments follow,
// whose literal value its context names (/docs/v2/x to /docs/latest/x, /print/x to /amp/x), and
// it moves nothing between the path and the query. It holds for the pages that did not change
// between the trees and fails, unseen in the URL, for those that did; its training record is
// clean whenever the crawl fetched one tree only, or the URLs it skipped filled it. A rule that
// routes a script to a path (news.php?story=7 to /story/7) keeps the page's identity in what it
// moves, and one that renames the last segment (usercomments to reviews) names another view of
// one page: neither is a tree swap.
func treeSwap(r *rules.Rule) (tree, from string) {
	if !slices.ContainsFunc(r.Transform, func(a rules.Action) bool { return a.Key.Part == urlnorm.PartPath }) {
		return versionSwap(r)
	}
	for _, a := range r.Transform {
		switch a.Key.Part {
		case urlnorm.PartQuery:
			return "", ""
		case urlnorm.PartPath:
			dir := a.Key.RPos != 1 && (a.Key.Pos > 0 || a.Key.RPos > 1) // a segment other segments follow
			if tree != "" || !dir || a.Key.Sub != 0 || a.Key.RSub != 0 || a.Op != rules.Assign || a.Insert || a.Value == "" {
				return "", ""
			}
			for _, c := range r.Context {
				if c.Key == a.Key && c.Op == rules.Equal && c.Value != a.Value {
					tree, from = "tree "+r.Scope.Host+" "+a.Key.String(), c.Value
				}
			}
			if tree == "" {
				return "", ""
			}
		}
	}
	return tree, from
}

// versionSwap returns the host and query key of r's swap ("tree git.example.org query(id)") and
// the version it maps from if r, which leaves the path alone, maps the pages of one version
// named by a hash onto another's: its context names a hash-like literal value of a parameter
// (hashid.Like: a commit of a repository browser, /tree/x?id=9f3a…) that it deletes or
// overwrites with another value, and its other actions delete or assign (other parameters, the
// scheme, the host). A repository browser's file at one commit is the file at another when no
// commit between them changed it, which the URL does not tell: the rule is a tree swap whose
// trees are named by commits, not by directories. "", "" if not.
func versionSwap(r *rules.Rule) (tree, from string) {
	if ablate.NoVersionSwap {
		return "", ""
	}
	for _, a := range r.Transform {
		if a.Op != rules.Assign && a.Op != rules.Delete {
			return "", ""
		}
		if tree != "" {
			continue
		}
		for _, c := range r.Context {
			if c.Key == a.Key && c.Op == rules.Equal && c.Value != a.Value && hashid.Like(c.Value) {
				tree, from = "tree "+r.Scope.Host+" "+a.Key.String(), c.Value
				break
			}
		}
	}
	return tree, from
}

// labelRewrite returns the version swap family (see versionSwap) of a rule that leaves the path
// alone and deletes or overwrites a query parameter whatever its value, where the swaps of the
// set (from: family -> versions mapped from) map at least two versions at that parameter of the
// host: /file?name=x&ci=* to /file?name=x on a site whose rules map ci=9f3a… and ci=c07b… onto
// others. Its training clusters saw each file at commits it did not change between; it is wrong
// for every file that changed. "" if not.
func labelRewrite(r *rules.Rule, from map[string]map[string]bool) string {
	if ablate.NoVersionSwap || slices.ContainsFunc(r.Transform, func(a rules.Action) bool { return a.Key.Part == urlnorm.PartPath }) {
		return ""
	}
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartQuery || a.Op != rules.Assign && a.Op != rules.Delete {
			continue
		}
		if slices.ContainsFunc(r.Context, func(c rules.Condition) bool { return c.Key == a.Key && c.Op == rules.Equal }) {
			continue
		}
		if t := "tree " + r.Scope.Host + " " + a.Key.String(); len(from[t]) >= 2 {
			return t
		}
	}
	return ""
}

// bound returns the upper confidence bound of the error rate of a rule with prior p, given
// its checks and failures: the mean failure rate plus zBound standard errors.
func bound(p riskPrior, checks, fails int64) float64 {
	n := p.checks + float64(checks)
	f := min(p.fails+float64(fails), n)
	if f <= 0 {
		return 0
	}
	m := f / n
	return min(1, m+zBound*math.Sqrt(m*(1-m)/n))
}

// A ruleRef is a rule of a site version.
type ruleRef struct {
	ver *siteVersion
	i   int
	in  string // the URL (in Prepare's form) it rewrote
	key string // and its key
}

func (r ruleRef) counter() *ruleCounter { return r.ver.uses[r.i] }

// without returns v's set without its rules i and j (one rule when i == j; nil if the set
// cannot be made), made on first need.
func (v *siteVersion) without(i, j int) *rules.Set {
	v.wmu.Lock()
	defer v.wmu.Unlock()
	if s, ok := v.wo[[2]int{i, j}]; ok {
		return s
	}
	rs := make([]rules.Rule, 0, v.set.Len())
	for n := range v.set.Len() {
		if n != i && n != j {
			rs = append(rs, v.set.Rule(n))
		}
	}
	s, err := rules.NewSet(rs, v.set.Options())
	if err != nil {
		s = nil
	}
	if v.wo == nil {
		v.wo = map[[2]int]*rules.Set{}
	}
	v.wo[[2]int{i, j}] = s
	return s
}

// keyWithout returns the key of the URL k.in under k's version without the rule of ver index i
// (k's key if k's rules did not use it), and without the rule k's key was made without, if any.
func keyWithout(k Key, ver *siteVersion, i int) string {
	if k.ver != ver || !containsInt(k.used, i) {
		return k.Key
	}
	j := i
	if k.left > 0 {
		j = k.left - 1
	}
	s := ver.without(i, j)
	if s == nil {
		return k.in
	}
	key, used, err := s.NormalizeTrace(nil, k.in)
	if err != nil {
		return k.in
	}
	if len(ver.out) > 0 && len(used) > 0 && !ablate.NoOutWithout {
		// As key does: a rule retracted in the rewrite's context makes no key, so that it
		// does not stand in for rule i (a print view sent to its AMP view, whose prefix a
		// confirmed rule then deletes, where the deletion of the print prefix was retracted).
		lo, hi := min(i, j), max(i, j)
		for x, n := range used {
			// The index in ver's set: s lacks rules lo and hi (one rule when they are equal).
			if n >= lo {
				n++
			}
			if hi != lo && n >= hi {
				n++
			}
			used[x] = n
		}
		if ver.outIn(k.in, key, used) >= 0 {
			return k.in
		}
	}
	return key
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// decisive returns the rules that a check of the collision of k (the URL met) and kept (the
// URL kept with the same key; zero when unknown) informs: of the rules that made either key,
// those without which the two keys would differ; when none is, those that made one of the two
// keys only, or else all of them. With kept unknown, kept's key is taken to be k.Key whatever
// rule is removed.
func decisive(k, kept Key) []ruleRef {
	if ablate.NoKept {
		kept = Key{}
	}
	if kept.Key != "" && kept.Key != k.Key {
		return nil
	}
	var all []ruleRef
	for _, i := range k.used {
		all = append(all, ruleRef{k.ver, i, k.in, k.Key})
	}
	for _, i := range kept.used {
		if kept.ver == k.ver && containsInt(k.used, i) {
			continue
		}
		all = append(all, ruleRef{kept.ver, i, kept.in, kept.Key})
	}
	if len(all) <= 1 || ablate.NoDecisive {
		return all
	}
	var out []ruleRef
	for _, r := range all {
		a := keyWithout(k, r.ver, r.i)
		b := k.Key
		if kept.Key != "" {
			b = keyWithout(kept, r.ver, r.i)
		}
		if a != b {
			out = append(out, r)
		}
	}
	if len(out) == 0 && !ablate.NoOneSided {
		// No single rule makes the match: several would ("latest" to "5.0.x", and "latest"
		// to "4.0.x" as well, where "5.0.x" goes on to "4.0.x"). A rule that rewrote both
		// URLs alike ("5.0.x" to "4.0.x", for "latest" after its first rewrite) did not
		// bring them together: the check compares "latest" with "5.0.x" and says nothing of it.
		for _, r := range all {
			if !usedBoth(k, kept, r) {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// usedBoth reports whether rule r made both k and kept: it is among the rules used for each
// (the same rule of another version of the site's set counts).
func usedBoth(k, kept Key, r ruleRef) bool {
	return usedFor(k, r) && usedFor(kept, r)
}

// usedFor reports whether r is among the rules used to make k: one whose counter is r's, as the
// versions of a site's set share a rule's counter (see publish).
func usedFor(k Key, r ruleRef) bool {
	c := r.counter()
	return k.ver != nil && slices.ContainsFunc(k.used, func(i int) bool { return k.ver.uses[i] == c })
}

// hubKeys is how many URLs of a page with identifiers none of which another of them has make
// the page a hub (see hub). 3, not 4: on the session family of urldedup gen -seed 1 and
// -seed 5151 (urldedup families -only session), 4 lost 7 pages of 6,200 (0.11%) in the worst
// of 5 orders, behind expired-session pages fetched under 3 pages' URLs; 3 lost 2 and 3.
const hubKeys = 3

// A hubMemo is what hub found of a page: whether it is a hub, under the site version ver with
// the page's URLs so many.
type hubMemo struct {
	ver  *siteVersion
	urls int
	hub  bool
}

// hub reports whether the page of the kept URL in (in Prepare's form) is one that its site
// serves under unrelated URLs: at least hubKeys of the URLs of it that the crawler fetched,
// keyed by the current rules, carry identifiers (see idTokens), and none of those of one is
// in another. Such a page is an error page ("your session has expired", "not found") that a
// URL gave in place of its own page: another URL with the key of that URL is no duplicate of
// it. The URLs of one page that rules leave apart name it by one identifier
// (news.php?story=7 and /story/7-title), or by none (/ and /index.php).
func (o *Online) hub(in string) bool {
	if ablate.NoHubs || in == "" {
		return false
	}
	s := o.site(hostOf(in), false)
	if s == nil {
		return false
	}
	v := o.version(in)
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.byURL[s.prepared[in]]
	c := s.clusters[m.fp]
	if !ok || c == nil {
		return false
	}
	if h, ok := s.hubs[m.fp]; ok && h.ver == v && h.urls == len(c.URLs) {
		return h.hub
	}
	var words map[string]bool
	if v != nil {
		words = v.words
	}
	seen := map[string]bool{}
	n := 0
	for _, u := range c.URLs {
		p, ok := Prepare(u.Raw)
		if s.inferred[u.Raw] || !ok {
			continue
		}
		if v != nil {
			if k, err := v.key(p); err == nil {
				p = k.Key
			}
		}
		ids := idTokens(p, words, v != nil)
		if len(ids) == 0 || slices.ContainsFunc(ids, func(id string) bool { return seen[id] }) {
			continue
		}
		for _, id := range ids {
			seen[id] = true
		}
		if n++; n >= hubKeys {
			break
		}
	}
	if s.hubs == nil {
		s.hubs = map[uint64]hubMemo{}
	}
	s.hubs[m.fp] = hubMemo{v, len(c.URLs), n >= hubKeys}
	return n >= hubKeys
}

// hubMatch reports whether the match of k to kept, made by the decisive rules refs, is one to
// a kept URL whose page is an error page (see hub). A match that no rule made, by the static key
// alone, is one too (/a;jsessionid=E85F and /a, a session expired): the key names the page of
// the kept URL no more than a rule's key would.
func (o *Online) hubMatch(refs []ruleRef, k, kept Key) bool {
	if len(refs) == 0 && (ablate.NoHubStatic || kept.Key != k.Key) {
		return false
	}
	return o.hub(kept.in)
}

// idTokens returns the identifiers in the path and query of the URL u: its runs of at least 3
// ASCII letters and digits with a digit in them (36126, cf2c39f2, x7Yt3) and, when names is
// set, its path's runs of at least 3 letters that are not template words of the site (words,
// see templateWords), lowercased: the names of pages (/Sec/LorasonTuqua.do, /item/sAIIWPGo),
// not the template's (item, do). Without the site's template words (names unset) a name
// cannot be told from a template word and does not count.
func idTokens(u string, words map[string]bool, names bool) []string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[i:]
	} else {
		return nil
	}
	query := strings.IndexByte(u, '?')
	if query < 0 {
		query = len(u)
	}
	names = names && !ablate.NoHubNames
	var out []string
	start, digit := 0, false
	for i := 0; i <= len(u); i++ {
		if i < len(u) {
			c := u[i]
			if c >= '0' && c <= '9' {
				digit = true
				continue
			}
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				continue
			}
		}
		switch n := i - start; {
		case digit && n >= 3:
			out = append(out, u[start:i])
		case names && n >= 3 && n <= 24 && i <= query:
			if w := strings.ToLower(u[start:i]); !words[w] {
				out = append(out, w)
			}
		}
		start, digit = i+1, false
	}
	return out
}

// series reports whether a rule of refs rewrites a literal (see rewritesLiteral) and the key
// k of the match, without a query, is the path of other pages than the kept URL's: a URL of
// the site fetched with that path and a query served another page (/a/7/story?page=2). The
// view that a literal names (?view=print, /print/a/7/story) may then be a view of the whole
// series, not of the page that the key names.
func (o *Online) series(refs []ruleRef, k, kept Key) bool {
	if ablate.NoSeries || !slices.ContainsFunc(refs, func(r ruleRef) bool { return r.ver.prior[r.i].literal }) {
		return false
	}
	path := pathOf(k.Key)
	if path == "" || strings.IndexByte(path, '?') >= 0 {
		return false
	}
	s := o.site(hostOf(k.in), false)
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.series[path]
	if f[0] == 0 {
		return false
	}
	m, ok := s.byURL[s.prepared[kept.in]]
	return !ok || f[0] != m.fp || f[1] != 0
}

// Verify is VerifyMatch(k, Key{}): the kept URL whose key k names is not known, and its key is
// taken to be made by no rule.
func (o *Online) Verify(k Key) bool { return o.VerifyMatch(k, Key{}) }

// VerifyMatch is called when the crawler would skip a URL because its key k is the key of a URL it
// has fetched and kept, whose Key (under the current rules, from Key) is kept. It counts a use of
// each rule decisive for the match: the rules that made either key without which the two URLs would
// have had different keys (when no single one is, those that made one key only, or else all of
// them), so that a rule that rewrote the kept URL is verified like one that rewrote the URL met. It
// reports whether the crawler should fetch the URL anyway to check them: for a rule's first
// VerifyFirst uses, its first use in each context, and then as often as an upper confidence bound
// on the rule's error rate says (see the package doc, Online learning): a rule with failures, with
// training errors or of a risky shape more often, a rule confirmed by many checks as rarely as one
// use in VerifyEvery. A key's context is the site's template words in the last path segment of the
// URL before and after the rewrite: words that at least 5% of the site's URLs (and 5) have in their
// path, such as album, friends or viewforum, learned at each relearn; titles and user names are
// not. A match that no rule made is never verified. A match to a kept URL whose page the site
// serves under unrelated URLs (each with its own identifier: a "your session has expired" page) is
// always verified, even one that no rule made: such a page is an error page, and the check informs
// no rule. The crawler then compares the fetched page's fingerprint with that of the kept page and
// calls ConfirmMatch with the same two Keys.
func (o *Online) VerifyMatch(k, kept Key) bool {
	refs := decisive(k, kept)
	if o.hubMatch(refs, k, kept) {
		o.stats.verifications.Add(1)
		return true
	}
	if len(refs) == 0 {
		return false
	}
	check, sampled := o.series(refs, k, kept), false
	floor := 0.0
	if o.opt.VerifyEvery > 0 {
		floor = 1 / float64(o.opt.VerifyEvery)
	}
	for _, r := range refs {
		c := r.counter()
		n := c.uses.Add(1)
		p := r.ver.prior[r.i]
		if n <= int64(o.opt.VerifyFirst) || p.risky && n <= int64(riskyFirst) && o.opt.VerifyFirst > 0 {
			check = true
		}
		in := counter(&c.ctx, ruleContext(r.ver, r.i, r.in, r.key))
		if in.Add(1) <= contextFirst(p, c.fails.Load()) && o.opt.VerifyFirst > 0 {
			check = true // the rule's first uses in this context
		}
		if o.opt.VerifyFirst < 0 {
			continue
		}
		if boundHigh(r.ver, p, c.checks.Load(), c.fails.Load()) || dirUnproven(r, c.checks.Load(), c.fails.Load()) {
			check = true
		}
		c.mu.Lock()
		c.credit += floor
		if c.credit >= 1 {
			sampled = !check
			check = true
		}
		c.mu.Unlock()
	}
	if check {
		for _, r := range refs {
			c := r.counter()
			c.mu.Lock()
			c.credit = max(0, c.credit-1)
			c.mu.Unlock()
			if sampled {
				c.sampled.Add(1)
			}
		}
		o.stats.verifications.Add(1)
	}
	return check
}

// Unchecked reports that a check VerifyMatch(k, kept) asked for was not made: the URL was not
// fetched, or its page could not be compared with the kept URL's (not fetched yet, or no longer
// the holder of the key). A rule's first uses, overall and in each context, are counted down to
// its checks made so far, so that its next use is checked in the check's place: the uses asked
// about meanwhile (the other links of a listing, found together) counted as uses after a check,
// and the rule's later uses there would go unchecked, whatever pages they are. It is a no-op
// when no rule makes the match any more.
func (o *Online) Unchecked(k, kept Key) {
	if ablate.NoUnchecked {
		return
	}
	for _, r := range decisive(k, kept) {
		c := r.counter()
		ctx := ruleContext(r.ver, r.i, r.in, r.key)
		lower(&c.uses, c.checks.Load())
		lower(counter(&c.ctx, ctx), counter(&c.ctxChecks, ctx).Load())
	}
}

// lower sets n to to if it is above it.
func lower(n *atomic.Int64, to int64) {
	for {
		v := n.Load()
		if v <= to || n.CompareAndSwap(v, to) {
			return
		}
	}
}

// Recheck is called when the crawler comes to fetch a URL that VerifyMatch(k, kept) asked it
// to check, some time after the ask: a crawler that queues the URLs it finds asks when it finds
// a link, and the checks of other URLs (and the matches it compares) may have answered since.
// It reports whether the check is still due, by the reasons VerifyMatch has, as the checks made
// so far stand: a decisive rule has had fewer checks than its first uses to check, none in the
// key's context (or fewer than 3 after a failure), an upper bound on its error rate still high,
// or a check asked by the sampling credit alone that no check has made since. It counts no
// use. A match that no rule makes any more is not due; one to a kept URL whose page is an error
// page (see VerifyMatch) always is.
func (o *Online) Recheck(k, kept Key) bool {
	refs := decisive(k, kept)
	if o.hubMatch(refs, k, kept) || len(refs) > 0 && o.series(refs, k, kept) {
		return true
	}
	for _, r := range refs {
		c := r.counter()
		if c.sampled.Load() > 0 {
			return true
		}
		if o.opt.VerifyFirst < 0 {
			continue
		}
		p := r.ver.prior[r.i]
		checks, fails := c.checks.Load(), c.fails.Load()
		if checks < int64(o.opt.VerifyFirst) || p.risky && checks < riskyFirst {
			return true
		}
		if n, ok := c.ctxChecks.Load(ruleContext(r.ver, r.i, r.in, r.key)); !ok || n.(*atomic.Int64).Load() < contextFirst(p, fails) {
			return true
		}
		if boundHigh(r.ver, p, checks, fails) || dirUnproven(r, checks, fails) {
			return true
		}
	}
	return false
}

// addCount adds 1 to the count of key in m (key -> *atomic.Int64).
func addCount(m *sync.Map, key string) { counter(m, key).Add(1) }

// counter returns the count of key in m (key -> *atomic.Int64), made at 0 if m has none.
func counter(m *sync.Map, key string) *atomic.Int64 {
	n, ok := m.Load(key)
	if !ok {
		n, _ = m.LoadOrStore(key, new(atomic.Int64))
	}
	return n.(*atomic.Int64)
}

// contextFirst returns how many of a rule's first uses (VerifyMatch) or checks (Recheck) in
// one context are checked, for a rule of prior p with fails failures: 1; 3 once the rule
// failed somewhere, so that it is checked again in every context; caseFirst for a case rule in
// a tree where it has not been checked yet; riskyContextFirst for a rule of a risky shape.
func contextFirst(p riskPrior, fails int64) int64 {
	switch {
	case p.pathCase:
		return caseFirst
	case fails > 0:
		return 3
	case p.risky && !ablate.NoRiskyContexts:
		return riskyContextFirst
	}
	return 1
}

// boundHigh reports whether the upper confidence bound on the error rate of rule prior p of
// ver, with its edit's failures remembered from retracted rules and the failures of its tree
// family (see familyFails) added, given checks and fails, is above boundAt (never with
// ablate.NoBound).
func boundHigh(ver *siteVersion, p riskPrior, checks, fails int64) bool {
	if ablate.NoBound {
		return false
	}
	// The family's failures include the rule's own, counted in fails already.
	if f := editFails(ver, p) + max(0, familyFails(ver, p)-float64(fails)); f > 0 {
		p.fails += f
		p.checks += f
	}
	return bound(p, checks, fails) > boundAt || pairsHigh(p, checks, fails)
}

// Confirm is ConfirmMatch(k, Key{}, same).
func (o *Online) Confirm(k Key, same bool) { o.ConfirmMatch(k, Key{}, same) }

// ConfirmMatch reports the outcome of a check that VerifyMatch(k, kept) asked for: same says
// whether the URL of k served the page of the kept URL. It counts a check of each rule decisive
// for the match, and a confirmation or a failure. A mismatch retracts at once the rules to
// blame: of the decisive rules, those confirmed by fewer than VerifyFirst checks (at least 1),
// or else the least confirmed one; a rule confirmed that often is retracted in the context of
// the URL it rewrote only, any other rule entirely, for the current set (a new one is
// published) and every later relearn. Then, while the two URLs still have one key, the rules
// decisive for it are blamed the same way. A mismatch also drops the site's inferred evidence
// that rested on the rules retracted or on a rule that rewrites more than the query (see
// Skipped). The crawler keeps the URL as a new page and should Observe it. A check of a match
// to an error page (see VerifyMatch) counts for no rule, and so does a mismatch whose URL met
// proves later, when the crawl has observed that page under more URLs, to have served an error
// page: what it counted and retracted is undone then (OnlineStats.Reinstated).
func (o *Online) ConfirmMatch(k, kept Key, same bool) {
	if o.hub(kept.in) {
		return // the kept URL's page is no page of its own: the check says nothing of the rules
	}
	refs := decisive(k, kept)
	if len(refs) == 0 {
		return
	}
	for _, r := range refs {
		c := r.counter()
		c.checks.Add(1)
		addCount(&c.ctxChecks, ruleContext(r.ver, r.i, r.in, r.key))
		for n := c.sampled.Load(); n > 0 && !c.sampled.CompareAndSwap(n, n-1); n = c.sampled.Load() {
		}
		if same {
			c.confirmed.Add(1)
		} else {
			c.fails.Add(1)
		}
	}
	if same {
		o.stats.confirmed.Add(1)
		return
	}
	o.stats.mismatches.Add(1)
	sp := &suspect{in: k.in}
	for _, r := range refs {
		sp.refs = append(sp.refs, suspectRef{r.counter(), r.ver.prior[r.i].key, ruleContext(r.ver, r.i, r.in, r.key)})
		if t := r.ver.prior[r.i].tree; t != "" && r.ver.site != nil {
			n, _ := r.ver.site.treeFails.LoadOrStore(t, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
			sp.trees = append(sp.trees, siteCount{r.ver.site, t})
		}
	}
	trust := int64(max(o.opt.VerifyFirst, 1))
	for range rules.DefaultMaxRewrites {
		for _, r := range blame(refs, trust) {
			sp.outs = append(sp.outs, o.retract(r, trust))
		}
		// Another rule may make the same keys (a site-wide "delete t" behind the rule that
		// deletes t on one path): it rests on the same mistaken merge and goes too.
		nk, nkept := o.rekey(k), kept
		if kept.Key != "" {
			nkept = o.rekey(kept)
		}
		if want := cmp.Or(nkept.Key, k.Key); nk.Key != want {
			break
		}
		if refs = decisive(nk, nkept); len(refs) == 0 {
			break
		}
		k, kept = nk, nkept
	}
	for _, s := range o.sitesOf(k, kept) {
		s.mu.Lock()
		s.dropInferred()
		s.mu.Unlock()
	}
	o.suspect(sp)
}

// rekey returns the Key of k's URL under the current rules.
func (o *Online) rekey(k Key) Key {
	v := o.version(k.in)
	if v == nil {
		return Key{Key: k.in, in: k.in}
	}
	nk, err := v.key(k.in)
	if err != nil {
		return Key{Key: k.in, in: k.in}
	}
	return nk
}

// sitesOf returns the sites of the URLs of k and kept.
func (o *Online) sitesOf(k, kept Key) []*onlineSite {
	var out []*onlineSite
	for _, x := range []Key{k, kept} {
		if x.in == "" {
			continue
		}
		if s := o.site(hostOf(x.in), true); len(out) == 0 || out[0] != s {
			out = append(out, s)
		}
	}
	return out
}

// retract retracts rule r: in the context of the URL it rewrote if it was confirmed by at
// least trust checks, entirely otherwise; and publishes the site's set without it. It returns
// what it did, for exonerate to undo.
func (o *Online) retract(r ruleRef, trust int64) retraction {
	s := r.ver.site
	if s == nil { // a widened rule on a site without rules of its own
		s = o.site(hostOf(r.in), true)
	}
	out := retraction{site: s, rule: r.ver.prior[r.i].key}
	if e := r.ver.prior[r.i].edit; e != "" {
		n, _ := s.editFails.LoadOrStore(e, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		out.edit = e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, fresh := out.rule, false
	if r.counter().confirmed.Load() >= trust {
		out.ctx = ruleContext(r.ver, r.i, r.in, r.key)
		if s.outCtx[c] == nil {
			s.outCtx[c] = map[string]bool{}
		}
		if !s.outCtx[c][out.ctx] {
			s.outCtx[c][out.ctx] = true
			o.stats.retracts.Add(1)
			fresh = true
		}
	} else if !s.retracted[c] {
		s.retracted[c] = true
		o.stats.retracts.Add(1)
		fresh = true
	}
	s.publish(o.global.Load())
	if !fresh {
		out.ctx, out.rule = "", "" // the edit's failure only: the rule was out already
	}
	return out
}

// blame returns the rules of a mismatch to retract: those confirmed by fewer than trust
// checks, or else the least confirmed one. A match made by a rule that has held many times
// (http to https) and a new one (a suffix deleted) is the new rule's fault.
func blame(refs []ruleRef, trust int64) []ruleRef {
	var out []ruleRef
	least := -1
	for j, r := range refs {
		n := r.counter().confirmed.Load()
		if n < trust {
			out = append(out, r)
		}
		if least < 0 || n < refs[least].counter().confirmed.Load() {
			least = j
		}
	}
	if len(out) == 0 {
		out = append(out, refs[least])
	}
	return out
}
