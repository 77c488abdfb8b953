package align

import (
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/hashid"
	"github.com/undust/undust/internal/versionkey"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// kv is a token value at a key.
type kv struct {
	key   urlnorm.Key
	value string
}

// pv is a token value in a part (and query name), whatever its position.
type pv struct {
	part  urlnorm.Part
	name  string
	value string
}

// freqs counts, over a site's generation clusters, the clusters in which a value occurs at a
// key (for literals in contexts) and in a part (for choosing a canonical value).
type freqs struct {
	atKey  map[kv]int
	inPart map[pv]int
}

func newFreqs(items []item, clusters [][]int) *freqs {
	f := &freqs{atKey: map[kv]int{}, inPart: map[pv]int{}}
	for _, idx := range clusters {
		k1 := map[kv]bool{}
		k2 := map[pv]bool{}
		for _, i := range idx {
			for _, t := range items[i].toks {
				k1[kv{t.Key, tokenText(t)}] = true
				k2[pv{t.Part, t.Name, tokenText(t)}] = true
			}
		}
		for k := range k1 {
			f.atKey[k]++
		}
		for k := range k2 {
			f.inPart[k]++
		}
	}
	return f
}

// canonical returns the value of vals that the site uses most (clusters at the part), ties to
// the shorter, then the smaller value: the value that every cluster rewrites to, so that the
// rules of different clusters agree.
func (f *freqs) canonical(part urlnorm.Part, name string, vals []string) string {
	best := vals[0]
	for _, v := range vals[1:] {
		a, b := f.inPart[pv{part, name, v}], f.inPart[pv{part, name, best}]
		if a > b || a == b && (len(v) < len(best) || len(v) == len(best) && v < best) {
			best = v
		}
	}
	return best
}

// A candidate is a rule generated from the consensus of at least one cluster.
type candidate struct {
	rule     rules.Rule
	text     string
	clusters int // generation clusters that yield it
	last     int // the last cluster counted
	nseg     int // path segments of the URLs its context matches
}

// candidates aligns the sampled URLs of every generation cluster and returns the candidate rules
// that at least opt.MinFreq clusters yield (the paper's Algorithm 3.3), in a deterministic order.
func candidates(items []item, clusters [][]int, ids []string, fr *freqs, opt Options, st *learn.Stats) []*candidate {
	byText := map[string]*candidate{}
	var order []*candidate
	var s seqs
	for ci, idx := range clusters {
		if len(idx) < 2 {
			continue
		}
		smp := sample(items, idx, ids[ci], opt.K, opt.Seed)
		s = s[:0]
		for _, i := range smp {
			s = append(s, items[i].toks)
		}
		k := len(smp)
		st.Pairs += k * (k - 1) / 2
		p := multiAlign(s)
		tgt := -1
		if moved(s) {
			tgt = target(s)
		}
		for r := range p.rows {
			it := &items[smp[p.rows[r]]]
			rs, bad := ruleOf(s, p, r, it.host, fr, opt)
			if bad {
				st.Overwriting++
			}
			if tgt >= 0 && p.rows[r] != tgt {
				if tr, ok := targetRule(s[p.rows[r]], s[tgt], it.host, fr, opt); ok {
					rs = append(rs, tr)
				}
			}
			for _, rule := range rs {
				text := rule.String()
				c := byText[text]
				if c == nil {
					c = &candidate{rule: rule, text: text, last: -1, nseg: shape(&rule)}
					byText[text] = c
					order = append(order, c)
				}
				if c.last != ci {
					c.last = ci
					c.clusters++
				}
			}
		}
	}
	st.Classes += len(order)
	var out []*candidate
	for _, c := range order {
		if c.clusters >= opt.MinFreq {
			out = append(out, c)
		}
	}
	st.Leaves += len(out)
	return out
}

// ruleOf returns the rule that rewrites row r of the consensus p of sequences s to the
// cluster's canonical form, and whether there is one: false when the row is already in it, or
// when its rewrite needs what package rules cannot express (inexpressible set).
func ruleOf(s seqs, p *profile, r int, host string, fr *freqs, opt Options) (out []rules.Rule, inexpressible bool) {
	toks := s[p.rows[r]]
	var acts rules.Transformation
	var actCols []int // the column of each action
	for c := range p.cols {
		col := &p.cols[c]
		ti := col.cells[r]
		if ti < 0 {
			continue
		}
		t := toks[ti]
		key := actionKey(t)
		vals := p.vals[c]
		gap := slices.Contains(col.cells, -1)
		switch {
		case !gap && len(vals) == 1:
			// A fixed token: kept.
		case gap && t.Part != urlnorm.PartScheme && t.Part != urlnorm.PartHost:
			// An optional token: the canonical form lacks it.
			acts = append(acts, rules.Action{Key: key, Op: rules.Delete})
		case t.Part == urlnorm.PartScheme || t.Part == urlnorm.PartHost || t.Part == urlnorm.PartPort:
			if v := fr.canonical(t.Part, t.Name, vals); v != t.Value {
				acts = append(acts, rules.Action{Key: key, Op: rules.Assign, Value: v})
			}
		case !ablate.NoHashPrefix && prefixLen(vals) > 0:
			// Abbreviations of one hash: cut to the shortest (a shorter one keeps its value).
			if n := prefixLen(vals); !t.Bare && len(t.Value) > n {
				acts = append(acts, rules.Action{Key: key, Op: rules.Convert, Conv: rules.Prefix(n)})
			}
		case caseVariants(vals):
			if t.Bare {
				continue
			}
			lo := strings.ToLower(t.Value)
			if lo == t.Value {
				continue
			}
			if !sameButFirst(vals) {
				// Only the first letter varies (a wiki title): the model has no first-letter
				// conversion, and lowercasing the whole value would merge distinct titles.
				return nil, true
			}
			acts = append(acts, rules.Action{Key: key, Op: rules.Copy, From: key, Conv: rules.Lower})
		case allFrequent(t, vals, fr, opt.LiteralMin):
			// Synonyms (photogallery, mediaindex): rewrite to the one the site uses most.
			if v := fr.canonical(t.Part, t.Name, vals); v != tokenText(t) {
				if v == "\x00bare" {
					return nil, true
				}
				acts = append(acts, rules.Action{Key: key, Op: rules.Assign, Value: v})
			}
		default:
			// Rare values that differ between duplicates carry no content: deleted, so the
			// rule's output is a signature of the cluster rather than one of its URLs.
			acts = append(acts, rules.Action{Key: key, Op: rules.Delete})
		}
		for len(actCols) < len(acts) {
			actCols = append(actCols, c)
		}
	}
	if len(acts) == 0 {
		return nil, false
	}
	// The whole rewrite of the row, its context naming every token of the row.
	whole := rules.Rule{Scope: rules.Scope{Host: host}, Transform: acts}
	for _, t := range toks {
		if t.Part != urlnorm.PartHost {
			whole.Context = append(whole.Context, cond(t, fr, opt))
		}
	}
	if whole.Validate() != nil {
		return nil, true
	}
	out = append(out, whole)
	out = append(out, wideRules(toks, acts, actCols, colOf(p, r), host, fr, opt)...)
	if len(acts) == 1 {
		return out, false
	}
	// One rule per action, whose context names the row's path segments (they fix its length),
	// the tokens of columns every row has, and the token it acts on: it applies whatever the
	// other optional tokens are, and chains with the rules for them.
	cols := colOf(p, r)
	for i, a := range acts {
		one := rules.Rule{Scope: rules.Scope{Host: host}, Transform: rules.Transformation{a}}
		for ti, t := range toks {
			c := cols[ti]
			col := &p.cols[c]
			switch {
			case t.Part == urlnorm.PartHost:
				continue
			case c == actCols[i] || !slices.Contains(col.cells, -1) && len(p.vals[c]) == 1:
				one.Context = append(one.Context, cond(t, fr, opt))
			case t.Part == urlnorm.PartPath || !slices.Contains(col.cells, -1):
				one.Context = append(one.Context, rules.Condition{Key: actionKey(t), Op: rules.Any})
			}
		}
		if one.Validate() == nil {
			out = append(out, one)
		}
	}
	return out, false
}

// cond is the context condition on token t: its literal value when the site's generation
// clusters have that value at that key at least opt.LiteralMin times, else the wildcard.
func cond(t urlnorm.Token, fr *freqs, opt Options) rules.Condition {
	c := rules.Condition{Key: actionKey(t), Op: rules.Any}
	if fr.atKey[kv{t.Key, tokenText(t)}] >= opt.LiteralMin {
		c.Op, c.Value = rules.Equal, t.Value
	}
	return c
}

// colOf returns, for every token of row r, its column in p.
func colOf(p *profile, r int) []int {
	n := 0
	for c := range p.cols {
		if p.cols[c].cells[r] >= 0 {
			n++
		}
	}
	out := make([]int, n)
	for c := range p.cols {
		if ti := p.cols[c].cells[r]; ti >= 0 {
			out[ti] = c
		}
	}
	return out
}

// actionKey is the key of token t as a rule names it.
func actionKey(t urlnorm.Token) urlnorm.Key {
	k := t.Key
	if k.Part == urlnorm.PartQuery && k.Pos == 0 {
		k.Pos = 1
	}
	return k
}

// caseVariants reports whether the values are equal up to ASCII case.
// prefixLen returns the length of the shortest of vals when every one of them looks like a hash
// (hashid.Like) and the shortest is a prefix of all (and at most rules.MaxPrefix long): they
// are abbreviations of one hash. It returns 0 otherwise.
func prefixLen(vals []string) int {
	short := vals[0]
	for _, v := range vals[1:] {
		if len(v) < len(short) {
			short = v
		}
	}
	if len(short) > rules.MaxPrefix {
		return 0
	}
	for _, v := range vals {
		if !strings.HasPrefix(v, short) || !hashid.Like(v) {
			return 0
		}
	}
	return len(short)
}

func caseVariants(vals []string) bool {
	lo := strings.ToLower(vals[0])
	for _, v := range vals[1:] {
		if strings.ToLower(v) != lo {
			return false
		}
	}
	return true
}

// sameButFirst reports whether the case variants differ in more than their first letter: whole
// lowercasing then does what the duplicates show. It returns false when they are equal but for
// the case of the first byte.
func sameButFirst(vals []string) bool {
	for _, v := range vals[1:] {
		if len(v) > 1 && v[1:] != vals[0][1:] {
			return true
		}
	}
	return false
}

func allFrequent(t urlnorm.Token, vals []string, fr *freqs, min int) bool {
	for _, v := range vals {
		if fr.inPart[pv{t.Part, t.Name, v}] < min {
			return false
		}
	}
	return true
}

// wideRules returns, for the actions of a row that mean the same wherever the path goes, a rule
// for the whole host whose context names only the token acted on: deleting a query parameter
// (context: the parameter, whatever its value), deleting or setting a last path segment
// with a frequent value (index.html, the empty segment of a trailing slash: context the last
// segment, keyed from the end), and setting the scheme or host. Validation decides whether they hold
// across the host; they let the rules of clusters of different shapes agree.
func wideRules(toks []urlnorm.Token, acts rules.Transformation, actCols []int, cols []int, host string, fr *freqs, opt Options) []rules.Rule {
	var out []rules.Rule
	for i, a := range acts {
		var t urlnorm.Token
		found := false
		for ti := range toks {
			if cols[ti] == actCols[i] {
				t, found = toks[ti], true
				break
			}
		}
		if !found {
			continue
		}
		w := rules.Rule{Scope: rules.Scope{Host: host}}
		switch {
		case t.Part == urlnorm.PartQuery && a.Op == rules.Delete:
			// Whatever the value: rules "delete f if f=10", "... if f=12" would each pass
			// validation alone and together merge every page that f tells apart.
			w.Context = rules.Context{{Key: actionKey(t), Op: rules.Any}}
			w.Transform = rules.Transformation{a}
		case t.Part == urlnorm.PartPath && (a.Op == rules.Delete || a.Op == rules.Assign) && t.RPos == 1 && fr.atKey[kv{t.Key, tokenText(t)}] >= opt.LiteralMin:
			k := urlnorm.Key{Part: urlnorm.PartPath, RPos: 1}
			w.Context = rules.Context{{Key: k, Op: rules.Equal, Value: t.Value}}
			w.Transform = rules.Transformation{{Key: k, Op: a.Op, Value: a.Value}}
		case t.Part == urlnorm.PartScheme || t.Part == urlnorm.PartHost:
			w.Transform = rules.Transformation{a}
			if t.Part == urlnorm.PartScheme {
				w.Context = rules.Context{{Key: t.Key, Op: rules.Equal, Value: t.Value}}
			}
		default:
			continue
		}
		if w.Validate() == nil {
			out = append(out, w)
		}
	}
	return out
}

// shape returns the number of path segments of the URLs that r's context can match: Pos+RPos-1
// of a path condition that gives both, or -1 when none does.
func shape(r *rules.Rule) int {
	for _, c := range r.Context {
		if c.Key.Part == urlnorm.PartPath && c.Key.Pos > 0 && c.Key.RPos > 0 && c.Op != rules.Absent {
			return int(c.Key.Pos) + int(c.Key.RPos) - 1
		}
	}
	return -1
}

// moved reports whether a value moves between path and query among the sequences: a path
// segment of one URL is a query value of another URL that does not have it as a path segment
// (/wiki/T and /w/index.php?title=T). The alignment keeps parts apart, so such clusters get
// target rules besides (see targetRule).
func moved(s seqs) bool {
	inPath := map[string]int{} // value -> bitmask of rows (first 64) with it as a path segment
	for r, toks := range s {
		for _, t := range toks {
			if t.Part == urlnorm.PartPath && len(t.Value) > 1 {
				inPath[t.Value] |= 1 << (r % 64)
			}
		}
	}
	for r, toks := range s {
		for _, t := range toks {
			if t.Part == urlnorm.PartQuery && !t.Bare {
				if m, ok := inPath[t.Value]; ok && m&^(1<<(r%64)) != 0 {
					return true
				}
			}
		}
	}
	return false
}

// target returns the index of the sequence that the target rules rewrite a cluster to: fewest
// query parameters, then fewest path segments, then fewest tokens, then shortest text, then
// fewest capitals, then the smallest text. The order is structural, as in package learn's
// target selection, so that similar clusters choose similar targets.
func target(s seqs) int {
	type rank struct{ q, p, n, l, caps int }
	rk := func(toks []urlnorm.Token) (rank, string) {
		var r rank
		var b []byte
		for _, t := range toks {
			switch t.Part {
			case urlnorm.PartQuery:
				r.q++
			case urlnorm.PartPath:
				r.p++
			}
			for i := 0; i < len(t.Value); i++ {
				if 'A' <= t.Value[i] && t.Value[i] <= 'Z' {
					r.caps++
				}
			}
			r.l += len(t.Name) + len(t.Value) + 1
		}
		r.n = len(toks)
		b = urlnorm.AppendJoin(b, toks)
		return r, string(b)
	}
	best, bestR, bestS := 0, rank{}, ""
	for i := range s {
		r, txt := rk(s[i])
		if i == 0 || r.q < bestR.q || r.q == bestR.q && (r.p < bestR.p || r.p == bestR.p && (r.n < bestR.n ||
			r.n == bestR.n && (r.l < bestR.l || r.l == bestR.l && (r.caps < bestR.caps || r.caps == bestR.caps && txt < bestS)))) {
			best, bestR, bestS = i, r, txt
		}
	}
	return best
}

// targetRule returns the rule that rewrites the URL src into the cluster's target tgt, and
// whether it can be expressed: every value of the target is the value at the same key, a value
// found elsewhere in src (a key reference, as when a title moves from ?title=T to /wiki/T), or
// a literal frequent on the site; src's other path segments and parameters are deleted. Its
// context is src's tokens, literal where frequent. This is the alignment used the other way
// round: rather than a signature of the consensus, a URL of the cluster.
func targetRule(src, tgt []urlnorm.Token, host string, fr *freqs, opt Options) (rules.Rule, bool) {
	var acts rules.Transformation
	// find returns the key of a token of src with value v, other than at key not.
	find := func(v string, not urlnorm.Key) (urlnorm.Key, bool) {
		if v == "" {
			return urlnorm.Key{}, false
		}
		for _, t := range src {
			if (t.Part == urlnorm.PartPath || t.Part == urlnorm.PartQuery && !t.Bare) && t.Value == v && actionKey(t) != not {
				return actionKey(t), true
			}
		}
		return urlnorm.Key{}, false
	}
	set := func(k urlnorm.Key, t urlnorm.Token) bool {
		if t.Bare {
			return false
		}
		if from, ok := find(t.Value, k); ok {
			acts = append(acts, rules.Action{Key: k, Op: rules.Copy, From: from})
			return true
		}
		if t.Value == "" || fr.inPart[pv{t.Part, t.Name, t.Value}] >= opt.LiteralMin {
			acts = append(acts, rules.Action{Key: k, Op: rules.Assign, Value: t.Value})
			return true
		}
		return false
	}
	var sp, tp []urlnorm.Token
	for _, t := range src {
		if t.Part == urlnorm.PartPath {
			sp = append(sp, t)
		}
	}
	for _, t := range tgt {
		switch t.Part {
		case urlnorm.PartScheme, urlnorm.PartHost, urlnorm.PartPort:
			v, ok := versionkey.Lookup(src, t.Key)
			if !ok || v != t.Value {
				acts = append(acts, rules.Action{Key: t.Key, Op: rules.Assign, Value: t.Value})
			}
		case urlnorm.PartPath:
			tp = append(tp, t)
		}
	}
	for _, t := range src {
		if t.Part == urlnorm.PartPort {
			if _, ok := versionkey.Lookup(tgt, t.Key); !ok {
				acts = append(acts, rules.Action{Key: t.Key, Op: rules.Delete})
			}
		}
	}
	n := len(sp)
	for i, t := range tp {
		var k urlnorm.Key
		if i < n {
			if sp[i].Value == t.Value {
				continue
			}
			k = sp[i].Key
		} else {
			k = urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(i + 1)}
		}
		if !set(k, t) {
			return rules.Rule{}, false
		}
	}
	for i := len(tp); i < n; i++ {
		acts = append(acts, rules.Action{Key: sp[i].Key, Op: rules.Delete})
	}
	for _, t := range tgt {
		if t.Part != urlnorm.PartQuery {
			continue
		}
		k := actionKey(t)
		v, ok := versionkey.Lookup(src, k)
		if ok && v == t.Value && srcBare(src, k) == t.Bare {
			continue
		}
		if !set(k, t) {
			return rules.Rule{}, false
		}
	}
	for _, t := range src {
		if t.Part != urlnorm.PartQuery {
			continue
		}
		if _, ok := versionkey.Lookup(tgt, actionKey(t)); !ok {
			acts = append(acts, rules.Action{Key: actionKey(t), Op: rules.Delete})
		}
	}
	if len(acts) == 0 {
		return rules.Rule{}, false
	}
	r := rules.Rule{Scope: rules.Scope{Host: host}, Transform: acts}
	for _, t := range src {
		if t.Part != urlnorm.PartHost {
			r.Context = append(r.Context, cond(t, fr, opt))
		}
	}
	if r.Validate() != nil {
		return rules.Rule{}, false
	}
	return r, true
}

func srcBare(toks []urlnorm.Token, k urlnorm.Key) bool {
	for _, t := range toks {
		if t.Part == k.Part && t.Name == k.Name && t.Pos == max(k.Pos, 1) {
			return t.Bare
		}
	}
	return false
}
