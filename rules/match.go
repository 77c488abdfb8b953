package rules

import (
	"cmp"
	"slices"
	"strings"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/urlnorm"
)

// view is a tokenized URL: its whole tokens from urlnorm.Tokenize and, when its host has
// deep-token patterns, the same tokens with the covered ones split into deep tokens. The split
// is made when it is first needed (deepTokens): a URL that the index turns away before any
// deep key is read does not pay for it.
type view struct {
	whole   []urlnorm.Token
	deep    []urlnorm.Token // the split tokens, valid once deepDone if split (deepTokens)
	deepBuf []urlnorm.Token
	// deepAt[i] is the index in deep of the first deep token of whole[i] (deepAt[len(whole)] is
	// len(deep)), made with deep, so that lookup finds a deep key's token without a scan.
	deepAt    []int32
	pat       Patterns // the host's patterns, nil if none
	hostTree  *node    // the index tree of the host's own rules, nil if none
	doms      []*node  // the index trees of the domains the host is in, longest first
	host      string
	pathStart int // index in whole of the first path segment
	nseg      int // number of path segments
	hostAt    int // index in whole of the host, -1 if none
	queryAt   int // index in whole of the first query parameter, len(whole) if none
	// byName indexes the query parameters of whole by name and occurrence, when there are more
	// than linearQuery of them, so that a lookup costs O(log n), not O(n): a URL of many
	// parameters that many rules match would otherwise cost rules × parameters.
	byName []int32
	// treesSet and treesHost are the set and host whose trees hostTree, doms and pat are.
	// treesHost is a copy of the host (in hostBuf), not a part of the URL, so that it stays
	// true when the URL's buffer is written over: the view of the next URL of the same host,
	// in this call or the next one with the same scratch, keeps the trees.
	treesSet  *Set
	treesHost string
	hostBuf   []byte
	// treesOf is the answer of the host filter's find (ok) that the trees are made of: they
	// depend on it alone, so that the first view of a key, whose host mayMatch found (walk),
	// keeps the trees when that answer is the same, without comparing hosts.
	treesOf hostWalk
	// hostHas says that the host has an entry of its own or a domain in s.hosts (the trees found
	// something), so that mayMatch of any URL with this host is certainly true.
	hostHas bool
	// walk, if ok, is mayHave's walk over the host of the view that index makes next (the
	// first view of a key, from its layout); index uses it and resets it.
	walk     hostWalk
	split    bool // the host has patterns: deep may differ from whole
	deepDone bool // deep is made
	// masks[i] is the URL's presence mask for the tree of slot i if made has bit i (maskFor).
	masks [64]uint64
	made  uint64
	// one holds the deep tokens of the whole token oneOf alone, split by the patterns oneBy
	// with splitter, for the deep keys that lookup reads before deep is made (oneToken); oneBy
	// is nil if none. It is kept from one view to the next of a Normalize call: a rewrite
	// seldom changes the token that the rules read the deep tokens of.
	// oneAt is the index of oneOf in whole if oneGen is gen, the number of the URL loaded.
	one      []urlnorm.Token
	oneOf    urlnorm.Token
	oneBy    *deeptoken.Patterns
	oneAt    int
	oneGen   uint64
	gen      uint64
	splitter deeptoken.Splitter
}

// linearQuery is the number of query parameters up to which lookup scans them.
const linearQuery = 16

// load tokenizes u into v, reusing v's buffers.
func (v *view) load(u string, s *Set) error {
	var err error
	v.whole, err = urlnorm.Tokenize(v.whole[:0], u)
	if err != nil {
		return err
	}
	v.index(s)
	return nil
}

// indexTokens makes the rest of the view from its tokens, v.whole, which are those that
// urlnorm.Tokenize gives of a URL (urlnorm's KeyLayout.AppendTokens and appendJoined make them
// so): their positions from their shape (place), without a pass over them.
func (v *view) indexTokens(s *Set) { v.indexRest(s, placeTokens) }

// scan finds the host, the first path segment and the first query parameter of v.whole, and
// counts the path segments, by a pass over the tokens: the reference for place.
func (v *view) scan() {
	v.host, v.hostAt, v.pathStart, v.nseg, v.queryAt = "", -1, -1, 0, len(v.whole)
	for i := range v.whole {
		switch t := &v.whole[i]; t.Part {
		case urlnorm.PartHost:
			v.host, v.hostAt = t.Value, i
		case urlnorm.PartQuery:
			if v.queryAt == len(v.whole) {
				v.queryAt = i
			}
		case urlnorm.PartPath:
			if v.pathStart < 0 {
				v.pathStart = i
			}
			v.nseg++
		}
	}
}

// place is scan for tokens in the shape that urlnorm.Tokenize gives: the scheme, the userinfo
// if any, the host, the port if any, one or more path segments numbered from both ends, the
// query parameters, the fragment if any. It reads the places where the shape puts the parts,
// and the number of segments from the first one's RPos, instead of every token. It reports
// false, setting nothing, if the tokens are not in that shape where it looks.
func (v *view) place() bool {
	w := v.whole
	if len(w) < 3 {
		return false
	}
	h := 1
	if w[1].Part == urlnorm.PartUserinfo {
		h = 2
	}
	p := h + 1
	if p < len(w) && w[p].Part == urlnorm.PartPort {
		p++
	}
	if p >= len(w) {
		return false
	}
	host, first := &w[h], &w[p]
	n := int(first.RPos)
	q := p + n // after the last segment
	if w[0].Part != urlnorm.PartScheme || host.Part != urlnorm.PartHost || first.Part != urlnorm.PartPath ||
		first.Pos != 1 || n < 1 || q > len(w) {
		return false
	}
	if last := &w[q-1]; last.Part != urlnorm.PartPath || last.RPos != 1 || int(last.Pos) != n {
		return false
	}
	queryAt := len(w)
	if q < len(w) {
		switch w[q].Part {
		case urlnorm.PartQuery:
			queryAt = q
		case urlnorm.PartFragment:
		default:
			return false
		}
	}
	v.host, v.hostAt, v.pathStart, v.nseg, v.queryAt = host.Value, h, p, n, queryAt
	return true
}

// indexSame makes the rest of the view from its tokens, v.whole, which are at the places of
// those of the view before (a rewrite set some of them and deleted none): the positions stay,
// the host is read again.
func (v *view) indexSame(s *Set) { v.indexRest(s, samePlaces) }

// index makes the rest of the view from its tokens, v.whole, as urlnorm.Tokenize gives them,
// finding their positions by a pass over them (scan).
func (v *view) index(s *Set) { v.indexRest(s, scanTokens) }

// How indexRest finds the positions of a view's tokens.
const (
	placeTokens = iota // from their shape (place), or by scan if they are not in it
	scanTokens         // by a pass over them (scan)
	samePlaces         // those of the view before; the host is read again
)

// indexRest makes the rest of the view from its tokens, v.whole: their positions, found as how
// says, then the rest, in one call per view (what most views do not need, indexNames and
// findTrees, is called).
func (v *view) indexRest(s *Set, how int) {
	switch how {
	case placeTokens:
		if !v.place() {
			v.scan()
		}
	case scanTokens:
		v.scan()
	default:
		v.host = ""
		if v.hostAt >= 0 {
			v.host = v.whole[v.hostAt].Value
		}
	}
	v.byName = v.byName[:0]
	if len(v.whole)-v.queryAt > linearQuery {
		v.indexNames()
	}
	// The index trees of the host and its domains and the host's patterns, from one pass over
	// the host (see hostFilter), unless they are those of the view before: a rewrite seldom
	// changes the host.
	if v.walk.ok {
		if v.treesSet != s || v.treesOf != v.walk {
			v.findTrees(s)
		}
	} else if v.treesSet != s || v.treesHost != v.host {
		v.findTrees(s)
	}
	v.walk.ok = false
	v.split, v.deepDone = v.pat != nil, v.pat == nil
	v.loadMasks()
}

// indexNames indexes the query parameters of v.whole by name and occurrence (byName).
func (v *view) indexNames() {
	for i := v.queryAt; i < len(v.whole); i++ {
		if v.whole[i].Part == urlnorm.PartQuery {
			v.byName = append(v.byName, int32(i))
		}
	}
	slices.SortFunc(v.byName, func(a, b int32) int {
		x, y := &v.whole[a], &v.whole[b]
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return cmp.Compare(x.Pos, y.Pos)
	})
}

// findTrees sets the index trees of v's host and its domains and the host's patterns, of set s.
func (v *view) findTrees(s *Set) {
	w := v.walk
	if !w.ok {
		w.e, w.whole = s.hosts.find(v.host)
		w.ok = true
	}
	e, doms := s.hosts.treesOf(w.e, w.whole, v.doms[:0])
	v.treesOf = w
	v.doms, v.hostTree, v.pat = doms, nil, nil
	v.hostHas = e != nil || len(doms) > 0
	if e != nil {
		v.hostTree, v.pat = e.tree, e.pat
	}
	v.hostBuf = append(v.hostBuf[:0], v.host...)
	v.treesSet, v.treesHost = s, bytesString(v.hostBuf)
}

// deepTokens returns the URL's tokens with the ones that the host's patterns cover split into
// deep tokens (the whole tokens if the host has no patterns), splitting them on first use.
func (v *view) deepTokens() []urlnorm.Token {
	if !v.split {
		return v.whole
	}
	if !v.deepDone {
		v.deep = v.pat.AppendSplit(v.deepBuf[:0], v.whole)
		v.deepBuf = v.deep
		v.deepDone = true
		// AppendSplit gives each whole token in order: as it is (Sub 0), or as its m >= 2 deep
		// tokens, Sub 1 to m.
		v.deepAt = v.deepAt[:0]
		j := 0
		for range v.whole {
			v.deepAt = append(v.deepAt, int32(j))
			if j >= len(v.deep) {
				continue
			}
			if t := &v.deep[j]; t.Sub == 0 {
				j++
			} else {
				j += int(t.Sub) + int(t.RSub) - 1
			}
		}
		v.deepAt = append(v.deepAt, int32(j))
		if j != len(v.deep) {
			v.deepAt = v.deepAt[:0] // not the shape above: lookup scans
		}
	}
	return v.deep
}

// oneToken returns the deep tokens of whole[i] (the token itself if p does not split it), what
// deepTokens would give for it, splitting it alone: a URL whose rules read the deep tokens of one
// token does not pay for splitting the others. It keeps the last token split, which the view
// of the next URL of the call, with the same patterns, may read again. It is inlined: most
// calls read the token that the call before read in the same view.
func (v *view) oneToken(p *deeptoken.Patterns, i int) []urlnorm.Token {
	if i != v.oneAt || v.oneGen != v.gen || v.oneBy != p {
		v.splitOne(p, i)
	}
	return v.one
}

// splitOne makes v.one the deep tokens of whole[i] for oneToken.
func (v *view) splitOne(p *deeptoken.Patterns, i int) {
	if t := &v.whole[i]; v.oneBy != p || t.Value != v.oneOf.Value || *t != v.oneOf {
		v.one = v.splitter.AppendToken(v.one[:0], p, *t)
		v.oneOf, v.oneBy = *t, p
	}
	v.oneAt, v.oneGen = i, v.gen
}

// sameToken reports whether a token with key t is the token (or a deep token of the token)
// that key k addresses, ignoring deep-token indexes.
func sameToken(t, k urlnorm.Key) bool {
	if t.Part != k.Part {
		return false
	}
	switch k.Part {
	case urlnorm.PartPath:
		return (k.Pos == 0 || t.Pos == k.Pos) && (k.RPos == 0 || t.RPos == k.RPos)
	case urlnorm.PartQuery:
		return t.Name == k.Name && t.Pos == k.Pos
	}
	return true
}

// sameDeep reports whether a deep token with key t is the one that the deep key k addresses:
// t.Sub != 0, sameToken(t, k), and t's deep-token indexes are those that k gives. It is written
// out, deep-token indexes first, so that it is inlined (with sameToken's call it is not, and
// its callers copy two Keys for each call).
func sameDeep(t, k urlnorm.Key) bool {
	if t.Sub == 0 || t.Part != k.Part || k.Sub != 0 && t.Sub != k.Sub || k.RSub != 0 && t.RSub != k.RSub {
		return false
	}
	if k.Part == urlnorm.PartPath {
		return (k.Pos == 0 || t.Pos == k.Pos) && (k.RPos == 0 || t.RPos == k.RPos)
	}
	return k.Part != urlnorm.PartQuery || t.Pos == k.Pos && t.Name == k.Name
}

// tokenAt returns the index in v.whole of the whole token of key k (no deep-token index, not
// the whole path), or -1: the token that lookup finds.
func (v *view) tokenAt(k urlnorm.Key) int {
	switch k.Part {
	case urlnorm.PartScheme:
		if len(v.whole) == 0 || v.whole[0].Part != urlnorm.PartScheme {
			return -1
		}
		return 0
	case urlnorm.PartHost:
		return v.hostAt
	case urlnorm.PartQuery:
		if len(v.byName) > 0 {
			j, ok := slices.BinarySearchFunc(v.byName, k, func(i int32, k urlnorm.Key) int {
				t := &v.whole[i]
				if c := strings.Compare(t.Name, k.Name); c != 0 {
					return c
				}
				return cmp.Compare(t.Pos, k.Pos)
			})
			if ok {
				return int(v.byName[j])
			}
			return -1
		}
		for i := v.queryAt; i < len(v.whole); i++ {
			t := &v.whole[i]
			if t.Pos == k.Pos && t.Part == urlnorm.PartQuery && t.Name == k.Name {
				return i
			}
		}
		return -1
	case urlnorm.PartPath:
		switch {
		case k.Pos != 0:
			if int(k.Pos) > v.nseg || (k.RPos != 0 && int(k.Pos)+int(k.RPos) != v.nseg+1) {
				return -1
			}
			return v.pathStart + int(k.Pos) - 1
		case k.RPos != 0:
			if int(k.RPos) > v.nseg {
				return -1
			}
			return v.pathStart + v.nseg - int(k.RPos)
		}
		return -1
	case urlnorm.PartUserinfo, urlnorm.PartPort, urlnorm.PartFragment:
		// Tokens come in URL order: the userinfo right before the host, the port right
		// after it, the fragment last.
		i := len(v.whole) - 1
		if k.Part != urlnorm.PartFragment {
			if v.hostAt < 0 {
				break
			}
			i = v.hostAt + 1
			if k.Part == urlnorm.PartUserinfo {
				i = v.hostAt - 1
			}
		}
		if i >= 0 && i < len(v.whole) && v.whole[i].Part == k.Part {
			return i
		}
		return -1
	}
	for i := range v.whole {
		if sameToken(v.whole[i].Key, k) {
			return i
		}
	}
	return -1
}

// lookup returns the value of key k in the URL, and whether the URL has it. Path keys are
// found by position; other keys by a scan of the few tokens of their part.
func (v *view) lookup(k urlnorm.Key) (string, bool) {
	if k.Sub != 0 || k.RSub != 0 {
		if !v.split {
			return "", false // whole tokens only: none is a deep token
		}
		if k.Part != urlnorm.PartPath || k.Pos != 0 || k.RPos != 0 {
			// The one whole token that k's part, position or name addresses, then the deep
			// token at k's index within it.
			base := k
			base.Sub, base.RSub = 0, 0
			i := v.tokenAt(base)
			if i < 0 {
				return "", false
			}
			var toks []urlnorm.Token
			shaped := false // toks are the deep tokens of whole[i]
			if p, ok := v.pat.(*deeptoken.Patterns); ok && !v.deepDone {
				toks, shaped = v.oneToken(p, i), true
			} else if v.deepTokens(); len(v.deepAt) > 0 {
				toks, shaped = v.deep[v.deepAt[i]:v.deepAt[i+1]], true
			}
			if shaped {
				j := -1
				switch {
				case k.Sub != 0 && int(k.Sub) <= len(toks):
					j = int(k.Sub) - 1
				case k.Sub == 0 && int(k.RSub) <= len(toks):
					j = len(toks) - int(k.RSub)
				}
				if j < 0 {
					return "", false
				}
				// sameDeep, inline, its cheap tests first.
				if t := &toks[j]; t.Sub != 0 && (k.Sub == 0 || t.Sub == k.Sub) && (k.RSub == 0 || t.RSub == k.RSub) && sameToken(t.Key, k) {
					return t.Value, true
				}
				return "", false
			}
		}
		deep := v.deepTokens()
		for i := range deep {
			if sameDeep(deep[i].Key, k) {
				return deep[i].Value, true
			}
		}
		return "", false
	}
	switch k.Part {
	case urlnorm.PartScheme:
		return v.whole[0].Value, true
	case urlnorm.PartHost:
		return v.host, true
	case urlnorm.PartQuery:
		if len(v.byName) > 0 {
			if i := v.tokenAt(k); i >= 0 {
				return v.whole[i].Value, true
			}
			return "", false
		}
		for i := v.queryAt; i < len(v.whole); i++ {
			t := &v.whole[i]
			if t.Pos == k.Pos && t.Part == urlnorm.PartQuery && t.Name == k.Name {
				return t.Value, true
			}
		}
		return "", false
	case urlnorm.PartPath:
		var i int
		switch {
		case k.Pos != 0:
			if int(k.Pos) > v.nseg || (k.RPos != 0 && int(k.Pos)+int(k.RPos) != v.nseg+1) {
				return "", false
			}
			i = v.pathStart + int(k.Pos) - 1
		default:
			if int(k.RPos) > v.nseg {
				return "", false
			}
			i = v.pathStart + v.nseg - int(k.RPos)
		}
		return v.whole[i].Value, true
	}
	if i := v.tokenAt(k); i >= 0 {
		return v.whole[i].Value, true
	}
	return "", false
}

// lookupSlow is lookup by a plain scan: the reference for tests.
func (v *view) lookupSlow(k urlnorm.Key) (string, bool) {
	toks := v.whole
	deep := k.Sub != 0 || k.RSub != 0
	if deep {
		toks = v.deepTokens()
	}
	for _, t := range toks {
		if deep && sameDeep(t.Key, k) || !deep && sameToken(t.Key, k) {
			return t.Value, true
		}
	}
	return "", false
}

// holds reports whether condition c holds in the URL, with the given lookup.
func holds(c *Condition, val string, ok bool) bool {
	switch c.Op {
	case Equal:
		return ok && val == c.Value
	case Any:
		return ok
	case Absent:
		return !ok
	}
	return false
}

// probe is a condition that matches checks, compiled: the path keys of most conditions of
// learned rules (a position from the start or from the end, no deep index) and the scheme are
// found in place, other keys by lookup.
type probe struct {
	kind  probeKind
	op    CondOp
	pos   int16        // a path key's position, for probePos and probeRPos
	key   *urlnorm.Key // the key, in the rule's Context or needs
	value string       // an Equal condition's value
}

// probeKind says how a probe finds its key.
type probeKind uint8

const (
	probeKey    probeKind = iota // by lookup
	probePos                     // path segment pos from the start
	probeRPos                    // path segment pos from the end
	probeScheme                  // the scheme
	probeQuery                   // a query parameter (name and occurrence), by a scan of the query
)

// compileProbe returns the probe of a condition op on key k with value (op Any for a key that
// must be present); it keeps k.
func compileProbe(k *urlnorm.Key, op CondOp, value string) probe {
	kind, pos := probeOf(*k)
	return probe{kind: kind, op: op, pos: pos, key: k, value: value}
}

// probeOf returns the kind of probe of key k and the position it reads.
func probeOf(k urlnorm.Key) (probeKind, int16) {
	switch {
	case k.Sub != 0 || k.RSub != 0:
	case k.Part == urlnorm.PartPath && k.Pos > 0 && k.RPos == 0:
		return probePos, k.Pos
	case k.Part == urlnorm.PartPath && k.Pos == 0 && k.RPos > 0:
		return probeRPos, k.RPos
	case k.Part == urlnorm.PartScheme:
		return probeScheme, 0
	case k.Part == urlnorm.PartQuery:
		return probeQuery, 0
	}
	return probeKey, 0
}

// matches reports whether the context of r holds in v (fast lookup), for a URL that reached r's
// leaf of the index and passed its prefilter there: it looks up the conditions and keys that
// neither the way to the leaf nor the prefilter decides (r.check).
func (r *crule) matches(v *view) bool { return v.holdsAll(r.check) }

// holdsAll reports whether every probe of ps holds in v, looking them up in order.
func (v *view) holdsAll(ps []probe) bool {
	for i := range ps {
		p := &ps[i]
		var val string
		var ok bool
		switch p.kind { // the key found in place by its kind, as find does
		case probePos:
			if ok = int(p.pos) <= v.nseg; ok {
				val = v.whole[v.pathStart+int(p.pos)-1].Value
			}
		case probeRPos:
			if ok = int(p.pos) <= v.nseg; ok {
				val = v.whole[v.pathStart+v.nseg-int(p.pos)].Value
			}
		case probeScheme:
			val, ok = v.whole[0].Value, true
		case probeQuery:
			if len(v.byName) > 0 {
				val, ok = v.lookup(*p.key)
				break
			}
			// lookup's scan, without the call
			k := p.key
			for j := v.queryAt; j < len(v.whole); j++ {
				if t := &v.whole[j]; t.Pos == k.Pos && t.Part == urlnorm.PartQuery && t.Name == k.Name {
					val, ok = t.Value, true
					break
				}
			}
		default:
			val, ok = v.lookup(*p.key)
		}
		switch p.op {
		case Equal:
			if !ok || val != p.value {
				return false
			}
		case Any:
			if !ok {
				return false
			}
		default:
			if ok {
				return false
			}
		}
	}
	return true
}

// matchesSlow is matches for the reference matcher: scope, every condition by a scan, and the
// keys that actions copy from, in rule order.
func matchesSlow(r *Rule, v *view) bool {
	if !r.Scope.Covers(v.host) {
		return false
	}
	for i := range r.Context {
		val, ok := v.lookupSlow(r.Context[i].Key)
		if !holds(&r.Context[i], val, ok) {
			return false
		}
	}
	for _, a := range r.Transform {
		if a.Op == Copy {
			if _, ok := v.lookupSlow(a.From); !ok {
				return false
			}
		}
	}
	return true
}

// insertion is a token that a rewrite adds, with the number of the URL's path segments that
// come before it (for path segments).
type insertion struct {
	tok    urlnorm.Token
	before int
}

// unchanged reports whether rule r, whose context holds in v, certainly changes no token of
// v, as rewrite would find, at the cost of a lookup per action instead of a copy of the URL's
// tokens. It answers false, "maybe changed", for what it does not check: deep tokens (split by
// the host's patterns, or a deep key), insertions, and a Convert of the whole path. A URL that
// many rules match and leave as they are costs then a lookup per rule, not a copy per rule.
func unchanged(r *Rule, v *view) bool {
	if v.split {
		return false
	}
	for _, a := range r.Transform {
		if a.Insert || a.Key.Sub != 0 || a.Key.RSub != 0 || a.Key == wholePath {
			return false
		}
		i := v.tokenAt(a.Key)
		if a.Op == Delete {
			if i >= 0 {
				return false
			}
			continue
		}
		if i < 0 {
			if a.Op == Convert {
				continue // nothing to convert
			}
			return false // an Assign or Copy adds the token
		}
		t := &v.whole[i]
		if t.Bare {
			return false
		}
		switch a.Op {
		case Copy:
			val, _ := v.lookup(a.From)
			if !a.Conv.converts(val, t.Value) {
				return false
			}
		case Convert:
			if !a.Conv.converts(t.Value, t.Value) {
				return false
			}
		default:
			if t.Value != a.Value {
				return false
			}
		}
	}
	return true
}

// rewrite leaves in sc.joined the tokens of the URL that rule c makes of v, before
// canonicalization, for urlnorm.AppendJoin (or appendJoined) to write, and reports whether the
// rule changed a token; if not, sc.joined is nil. The context must hold. sc provides buffers.
//
// With whole set, it works on the URL's whole tokens, not its deep tokens: for a rule that
// crule.wholeOK allows, the URL it writes is the same (a whole-key action on a split token sets
// its first deep token and empties the others, which join to the same text), and the host's
// patterns need not split the URL.
func rewrite(c *crule, v *view, sc *scratch, whole bool) bool {
	r := &c.Rule
	changed := false
	toks := v.whole
	if !whole {
		toks = v.deepTokens()
	}
	// On whole tokens, in normalizeFast, the rewritten tokens go into sc.next, whose tokens
	// (those of the URL before) are no longer needed: apply makes them the next view's when it
	// can (appendEdited), without a copy. Otherwise into sc.out.
	buf := &sc.out
	if whole {
		buf = &sc.next
	}
	out := append((*buf)[:0], toks...)
	sc.ins = sc.ins[:0]
	// touched lists the indexes of out that an action may have changed (deleted or set), so
	// that keyCleanAt and appendEdited look at those alone: every other token is as in toks.
	sc.touched = sc.touched[:0]
	// A Convert of the whole path applies first; path Copies read its result.
	var pathConv Conversion
	for ai := range r.Transform {
		if !c.convPath {
			break
		}
		if a := &r.Transform[ai]; a.Op == Convert && a.Key == wholePath {
			pathConv = a.Conv
			for i := range out {
				if t := &out[i]; t.Part == urlnorm.PartPath {
					if c := sc.convert(pathConv, t.Value); c != t.Value {
						t.Value, changed = c, true
						sc.touched = append(sc.touched, int32(i))
					}
				}
			}
		}
	}
	// On whole tokens, a whole key addresses at most one token, which tokenAt finds without a
	// scan of every token per action; out holds the URL's tokens at their indexes in v.whole.
	indexed := whole || !v.split
	for ai := range r.Transform {
		a := &r.Transform[ai]
		val := a.Value
		switch a.Op {
		case Copy:
			val, _ = v.lookup(a.From)
			if a.From.Part == urlnorm.PartPath {
				val = sc.convert(pathConv, val)
			}
			val = sc.convert(a.Conv, val)
		case Convert:
			if a.Key == wholePath {
				continue
			}
			var ok bool
			if val, ok = v.lookup(a.Key); !ok {
				continue // nothing to convert
			}
			if a.Key.Part == urlnorm.PartPath {
				val = sc.convert(pathConv, val)
			}
			val = sc.convert(a.Conv, val)
		}
		if a.Insert {
			sc.ins = append(sc.ins, insertion{urlnorm.Token{Key: a.Key, Value: val}, insertBefore(a.Key, v.nseg)})
			continue
		}
		found := false
		if a.Key.Sub != 0 || a.Key.RSub != 0 {
			for i := range out {
				if out[i].Part != 0 && sameDeep(out[i].Key, a.Key) {
					found = true
					if a.Op == Delete {
						val = ""
					}
					changed = changed || out[i].Value != val || out[i].Bare
					out[i].Value, out[i].Bare = val, false
					sc.touched = append(sc.touched, int32(i))
					break
				}
			}
			// An absent deep token is left absent: there is no place to put it.
			continue
		}
		if indexed && (a.Key.Part != urlnorm.PartPath || a.Key.Pos != 0 || a.Key.RPos != 0) {
			if i := v.tokenAt(a.Key); i >= 0 && out[i].Part != 0 {
				t := &out[i]
				if a.Op == Delete {
					t.Part = 0 // AppendJoin skips tokens of no part
					changed = true
				} else {
					changed = changed || t.Value != val || t.Bare
					t.Value, t.Bare = val, false
				}
				sc.touched = append(sc.touched, int32(i))
			} else if a.Op != Delete {
				sc.ins = append(sc.ins, insertion{urlnorm.Token{Key: a.Key, Value: val}, insertBefore(a.Key, v.nseg)})
			}
			continue
		}
		for i := range out {
			t := &out[i]
			if t.Part == 0 || !sameToken(t.Key, a.Key) {
				continue
			}
			switch {
			case a.Op == Delete:
				t.Part = 0 // AppendJoin skips tokens of no part
				changed = true
			case !found:
				changed = changed || t.Value != val || t.Bare
				t.Value, t.Bare = val, false
			default:
				changed = changed || t.Value != ""
				t.Value = "" // later deep tokens of a replaced token
			}
			sc.touched = append(sc.touched, int32(i))
			found = true
		}
		if !found && a.Op != Delete {
			sc.ins = append(sc.ins, insertion{urlnorm.Token{Key: a.Key, Value: val}, insertBefore(a.Key, v.nseg)})
		}
	}
	sc.joined = nil
	*buf = out // keyCleanAt reads the tokens; the next rewrite starts from (*buf)[:0]
	if !whole {
		sc.outUsed = max(sc.outUsed, len(out))
	}
	ins := sc.ins
	if !changed && len(ins) == 0 {
		return false
	}
	if len(ins) > 0 {
		fin := sc.fin[:0]
		seg := 0
		for _, t := range out {
			if t.Part == urlnorm.PartPath && t.Sub <= 1 {
				// t starts path segment number seg: insertions before it come first.
				for _, x := range ins {
					if x.tok.Part == urlnorm.PartPath && x.before == seg {
						fin = append(fin, x.tok)
					}
				}
				seg++
			}
			fin = append(fin, t)
		}
		for _, x := range ins {
			if x.tok.Part != urlnorm.PartPath || x.before >= seg {
				fin = append(fin, x.tok)
			}
		}
		sc.fin = fin
		out = fin
	}
	sc.joined = out
	return true
}

// insertBefore returns the number of the URL's nseg path segments that come before a segment
// inserted at key k: with Pos p, p-1 (at most nseg); with only RPos r, so that r-1 follow it.
// It is 0 for other parts.
func insertBefore(k urlnorm.Key, nseg int) int {
	switch {
	case k.Part != urlnorm.PartPath:
		return 0
	case k.Pos != 0:
		return min(int(k.Pos)-1, nseg)
	}
	return max(nseg-int(k.RPos)+1, 0)
}

// convert is c.convert(v), but in normalizeFast (sc.inArena) a changed value is written into
// sc.conv, a buffer that only grows during the call, not into a new string: a rewrite that
// converts values then allocates nothing of its own.
func (sc *scratch) convert(c Conversion, v string) string {
	if !sc.inArena || c == NoConversion || c.cuts() {
		return c.convert(v) // a head or a prefix is a substring: nothing to write
	}
	i := convertAt(c, v)
	if i == len(v) {
		return v
	}
	start := len(sc.conv)
	sc.conv = append(sc.conv, v...)
	b := sc.conv[start:]
	for ; i < len(b); i++ {
		b[i] = convertByte(c, i, b[i])
	}
	return bytesString(b)
}

// convertAt returns the index of the first byte of v that case conversion c changes, or len(v).
func convertAt(c Conversion, v string) int {
	i := 0
	switch c {
	case Lower:
		for i < len(v) && (v[i] < 'A' || 'Z' < v[i]) {
			i++
		}
	case Upper:
		for i < len(v) && (v[i] < 'a' || 'z' < v[i]) {
			i++
		}
	case LowerFirst, UpperFirst:
		if v == "" || convertByte(c, 0, v[0]) == v[0] {
			return len(v)
		}
	default:
		return len(v)
	}
	return i
}

// convertByte is what conversion c makes of byte x at index i of a value.
func convertByte(c Conversion, i int, x byte) byte {
	switch {
	case (c == Lower || c == LowerFirst && i == 0) && 'A' <= x && x <= 'Z':
		return x + 'a' - 'A'
	case (c == Upper || c == UpperFirst && i == 0) && 'a' <= x && x <= 'z':
		return x - 'a' + 'A'
	}
	return x
}

// converts reports whether c.convert(v) == want, without making the converted value.
func (c Conversion) converts(v, want string) bool {
	if c.cuts() {
		return c.convert(v) == want
	}
	if len(v) != len(want) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if convertByte(c, i, v[i]) != want[i] {
			return false
		}
	}
	return true
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func upperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'a' <= c && c <= 'z' {
					b[j] = c - 'a' + 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
