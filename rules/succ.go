package rules

import (
	"math"
	"slices"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// Successors: which rules may match a URL that a rule wrote. A URL that rule i rewrote matched
// i's scope and context, and i's transformation says what became of it: a key that i deletes is
// absent, a key it assigns has that value, a condition of i on a key that i leaves where it was
// still holds. A rule j that one of those facts contradicts cannot match the rewritten URL, so
// normalizeFast, after a rewrite by i whose result is its own key token for token (apply's
// keyCleanAt path: its tokens are the rewritten ones, renumbered, nothing keyed again), looks
// only at the few rules left (i's successors) instead of walking the index again; when none is
// left, the URL is final. Every fact is one that holds of every URL that i may write: what is
// not certain (a deep token, a path key after a segment was inserted or deleted where the
// number of segments is not known, a query name with a value set, a host copied) is unknown,
// and an unknown fact excludes nothing.

// succ is a successor of a rule: rule j, which may match a URL that the rule wrote; scope says
// that j's scope must be checked (the host is not known to be in it), and check lists what of
// j must be looked up (index < len(Context): the condition; len(Context)+k: presence of
// needs[k]), the rest being known to hold.
type succ struct {
	j     int32
	scope bool
	every bool // j is a rule of every host
	check []int32
	// probes are the conditions of check compiled (compileProbe), in the same order, for
	// matchSucc.
	probes []probe
}

// succList is the successors of a rule, in precedence order; full says that they are too many
// (or not computed): the index is walked instead.
type succList struct {
	full bool
	ents []succ
	// local is the number of ents that are not rules of every host: with none, a URL that has
	// no query parameter of s.every's names is final.
	local int
}

// maxSucc bounds the successors that normalizeFast checks one by one, and maxSuccLocal those
// among them that are not rules of every host (which a URL without their query names skips
// together): past them, the index walk costs less. maxSuccScan bounds the candidates of a rule
// (the rules whose scope may cover its output's host); succBudget bounds the candidates looked
// at over all rules, per rule, so that building costs O(rules * succBudget) conditions: past
// it, the rules left walk the index.
const (
	maxSucc      = 32
	maxSuccLocal = 4
	maxSuccScan  = 4096
	succBudget   = 128
)

// factKind is what is known of a key in a URL.
type factKind uint8

const (
	unknown factKind = iota
	absent
	present // with a value not known
	equal   // with the value val
)

type fact struct {
	kind factKind
	val  string
}

// conv is f with its value converted by c.
func (f fact) conv(c Conversion) fact {
	if f.kind == equal {
		f.val = c.convert(f.val)
	}
	return f
}

// join is what is known of a key that has fact f or fact g.
func join(f, g fact) fact {
	switch {
	case f == g:
		return f
	case f.kind >= present && g.kind >= present:
		return fact{kind: present}
	}
	return fact{}
}

// qfact is a fact about the query parameter of a name at occurrence pos.
type qfact struct {
	pos int16
	f   fact
}

// pathKnow is what is known of a URL's path segments: their number n is in [lo, hi]; if
// lo == hi, segs (n entries) has the fact of each segment, else pos and rpos have the values of
// segments by position from the start and from the end (facts that hold if the segment is
// present: kind present or equal).
type pathKnow struct {
	lo, hi    int
	segs      []fact
	pos, rpos map[int]fact
}

func (p *pathKnow) exact() bool { return p.lo == p.hi }

// at is the fact of the whole path key k in a URL of whose path p is known.
func (p *pathKnow) at(k urlnorm.Key) fact {
	pp, r := int(k.Pos), int(k.RPos)
	if p.exact() {
		n := p.lo
		i := -1
		switch {
		case pp != 0:
			if pp <= n && (r == 0 || pp+r == n+1) {
				i = pp - 1
			}
		case r <= n:
			i = n - r
		}
		if i < 0 {
			return fact{kind: absent}
		}
		return p.segs[i]
	}
	var f fact
	switch {
	case pp != 0 && r != 0:
		if n := pp + r - 1; n < p.lo || n > p.hi {
			return fact{kind: absent}
		}
		return fact{} // present only for one number of segments
	case pp != 0:
		if pp > p.hi {
			return fact{kind: absent}
		}
		if pp > p.lo {
			return fact{}
		}
		f = p.pos[pp]
	default:
		if r > p.hi {
			return fact{kind: absent}
		}
		if r > p.lo {
			return fact{}
		}
		f = p.rpos[r]
	}
	if f.kind == unknown {
		f.kind = present
	}
	return f
}

// know is what is known of a URL.
type know struct {
	never  bool   // the facts contradict each other: no URL has them
	domain string // the host is in this domain (if host is not known)
	host   fact
	parts  [urlnorm.PartFragment + 1]fact // scheme, userinfo, port, fragment (host: host)
	query  map[string][]qfact
	path   pathKnow
}

// get returns the fact of key k (unknown for a deep key).
func (kn *know) get(k urlnorm.Key) fact {
	if k.Sub != 0 || k.RSub != 0 {
		return fact{}
	}
	switch k.Part {
	case urlnorm.PartHost:
		return kn.host
	case urlnorm.PartPath:
		return kn.path.at(k)
	case urlnorm.PartQuery:
		return queryFact(kn.query[k.Name], int(k.Pos))
	}
	if int(k.Part) < len(kn.parts) {
		return kn.parts[k.Part]
	}
	return fact{}
}

// queryFact is the fact of occurrence q of a name whose occurrences have the facts fs: an
// occurrence is present if a later one is, absent if an earlier one is.
func queryFact(fs []qfact, q int) fact {
	var f fact
	for _, x := range fs {
		switch {
		case int(x.pos) == q:
			return x.f
		case int(x.pos) > q && x.f.kind >= present:
			f = fact{kind: present}
		case int(x.pos) < q && x.f.kind == absent && f.kind == unknown:
			f = x.f
		}
	}
	return f
}

// add records that condition c holds.
func (kn *know) add(k urlnorm.Key, op CondOp, val string) {
	f := fact{kind: present}
	switch op {
	case Equal:
		f = fact{kind: equal, val: val}
	case Absent:
		f = fact{kind: absent}
	}
	if k.Sub != 0 || k.RSub != 0 {
		// A deep token is present only if its whole token is.
		if op == Absent {
			return
		}
		k.Sub, k.RSub, f = 0, 0, fact{kind: present}
	}
	switch k.Part {
	case urlnorm.PartHost:
		kn.host = meet(kn, kn.host, f)
	case urlnorm.PartQuery:
		fs := kn.query[k.Name]
		for i := range fs {
			if fs[i].pos == k.Pos {
				fs[i].f = meet(kn, fs[i].f, f)
				return
			}
		}
		kn.query[k.Name] = append(fs, qfact{k.Pos, f})
	case urlnorm.PartPath:
		p := &kn.path
		pp, r := int(k.Pos), int(k.RPos)
		if f.kind == absent {
			switch {
			case pp != 0 && r != 0: // says nothing of the number alone
			case pp != 0:
				p.hi = min(p.hi, pp-1)
			default:
				p.hi = min(p.hi, r-1)
			}
			return
		}
		switch {
		case pp != 0 && r != 0:
			p.lo, p.hi = max(p.lo, pp+r-1), min(p.hi, pp+r-1)
			p.pos[pp] = meet(kn, p.pos[pp], f)
		case pp != 0:
			p.lo = max(p.lo, pp)
			p.pos[pp] = meet(kn, p.pos[pp], f)
		default:
			p.lo = max(p.lo, r)
			p.rpos[r] = meet(kn, p.rpos[r], f)
		}
	default:
		if int(k.Part) < len(kn.parts) {
			kn.parts[k.Part] = meet(kn, kn.parts[k.Part], f)
		}
	}
}

// meet is what is known of a key that has both facts f and g; kn.never is set if none.
func meet(kn *know, f, g fact) fact {
	switch {
	case f.kind == unknown:
		return g
	case g.kind == unknown:
		return f
	case (f.kind == absent) != (g.kind == absent) || f.kind == equal && g.kind == equal && f.val != g.val:
		kn.never = true
		return f
	case g.kind == equal:
		return g
	}
	return f
}

// fixPath makes the segments of an exact path from the facts by position.
func (kn *know) fixPath() {
	p := &kn.path
	if p.lo > p.hi {
		kn.never = true
		return
	}
	if !p.exact() || p.segs != nil {
		return
	}
	n := p.lo
	p.segs = make([]fact, n)
	for i := range p.segs {
		p.segs[i] = meet(kn, meet(kn, fact{kind: present}, p.pos[i+1]), p.rpos[n-i])
	}
	for pp := range p.pos {
		if pp > n {
			kn.never = true
		}
	}
	for r := range p.rpos {
		if r > n {
			kn.never = true
		}
	}
}

// inputKnow is what is known of a URL that rule r matches.
func inputKnow(r *crule) *know {
	kn := &know{query: map[string][]qfact{}, path: pathKnow{hi: math.MaxInt, pos: map[int]fact{}, rpos: map[int]fact{}}}
	switch {
	case r.Scope.Domain:
		kn.domain = r.Scope.Host
	case r.Scope.Host != AllHosts:
		kn.host = fact{kind: equal, val: r.Scope.Host}
	}
	for _, c := range r.Context {
		kn.add(c.Key, c.Op, c.Value)
	}
	for _, k := range r.needs {
		kn.add(k, Any, "")
	}
	kn.fixPath()
	return kn
}

// outputKnow is what is known of every URL that rule r writes of a URL that in describes, when
// the rewritten tokens are the URL's (no key writer in between).
func outputKnow(r *crule, in *know) *know {
	out := &know{host: in.host, parts: in.parts, domain: in.domain, query: map[string][]qfact{}}
	var pathConv Conversion
	for _, a := range r.Transform {
		if a.Op == Convert && a.Key == wholePath {
			pathConv = a.Conv
		}
	}
	// value is the fact of the value that action a writes (a present token).
	value := func(a *Action) fact {
		var f fact
		switch a.Op {
		case Assign:
			return fact{kind: equal, val: a.Value}
		case Copy:
			f = in.get(a.From)
			if a.From.Part == urlnorm.PartPath {
				f = f.conv(pathConv)
			}
		case Convert:
			f = in.get(a.Key)
			if a.Key.Part == urlnorm.PartPath {
				f = f.conv(pathConv)
			}
		}
		f = f.conv(a.Conv)
		if f.kind != equal {
			f = fact{kind: present}
		}
		return f
	}
	// The query: a name that r deletes one occurrence of, and touches no other way, keeps the
	// facts of the others, shifted; a name r touches otherwise is unknown.
	touched := map[string]int{}
	for _, a := range r.Transform {
		if a.Key.Part == urlnorm.PartQuery {
			touched[a.Key.Name]++
			if a.Op != Delete || a.Key.Sub != 0 || a.Key.RSub != 0 {
				touched[a.Key.Name] += 2
			}
		}
	}
	for name, fs := range in.query {
		if touched[name] == 0 {
			out.query[name] = fs
		}
	}
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartQuery || touched[a.Key.Name] != 1 {
			continue
		}
		fs, p := in.query[a.Key.Name], int(a.Key.Pos)
		del := queryFact(fs, p)
		// The occurrences that the URL may have: the facts up to one past the last known.
		last := p
		for _, x := range fs {
			last = max(last, int(x.pos))
		}
		var nfs []qfact
		for q := 1; q <= last+1; q++ {
			var f fact
			switch {
			case q < p || del.kind == absent:
				f = queryFact(fs, q)
			case del.kind >= present:
				f = queryFact(fs, q+1)
			default:
				// Occurrence p absent, so is q; present, occurrence q+1 moved to q.
				f = join(fact{kind: absent}, queryFact(fs, q+1))
			}
			if f.kind != unknown {
				nfs = append(nfs, qfact{int16(q), f})
			}
		}
		out.query[a.Key.Name] = nfs
	}
	// The other parts but the path.
	for _, a := range r.Transform {
		p := a.Key.Part
		if p == urlnorm.PartPath || p == urlnorm.PartQuery {
			continue
		}
		var f fact
		switch {
		case a.Key.Sub != 0 || a.Key.RSub != 0:
			f = fact{} // a deep token of the part changed: the part's value is not known
			if in.get(urlnorm.Key{Part: p}).kind >= present {
				f.kind = present
			}
		case a.Op == Delete:
			f = fact{kind: absent}
		case a.Op == Convert:
			switch g := in.get(a.Key); g.kind {
			case absent:
				f = g
			case present, equal:
				f = value(&a)
			}
		default:
			f = value(&a)
		}
		if p == urlnorm.PartHost {
			out.host = f
			out.domain = ""
		} else if int(p) < len(out.parts) {
			out.parts[p] = f
		}
	}
	out.path = outputPath(r, in, pathConv, value)
	if out.path.lo > out.path.hi {
		out.never = true
	}
	return out
}

// outputPath is what is known of the path that r writes (see outputKnow).
func outputPath(r *crule, in *know, pathConv Conversion, value func(*Action) fact) pathKnow {
	ip := &in.path
	unknownPath := pathKnow{hi: math.MaxInt}
	if ip.exact() {
		// Every action is placed as rewrite places it: the URL has n segments.
		n := ip.lo
		segs := make([]fact, n)
		for i, f := range ip.segs {
			segs[i] = f.conv(pathConv)
		}
		deleted := make([]bool, n)
		type ins struct {
			f      fact
			before int
		}
		var inss []ins
		for ai := range r.Transform {
			a := &r.Transform[ai]
			if a.Key.Part != urlnorm.PartPath || a.Key == wholePath {
				continue
			}
			if a.Key.Sub != 0 || a.Key.RSub != 0 {
				return unknownPath
			}
			if a.Op == Convert && in.get(a.Key).kind != equal && in.get(a.Key).kind != present {
				continue // nothing to convert (the key is absent, the path being exact)
			}
			var f fact
			if a.Op != Delete {
				f = value(a)
			}
			if a.Insert {
				inss = append(inss, ins{f, insertBefore(a.Key, n)})
				continue
			}
			i := -1
			switch pp, rr := int(a.Key.Pos), int(a.Key.RPos); {
			case pp != 0:
				if pp <= n && (rr == 0 || pp+rr == n+1) {
					i = pp - 1
				}
			case rr <= n:
				i = n - rr
			}
			switch {
			case i >= 0 && !deleted[i]:
				if a.Op == Delete {
					deleted[i] = true
				} else {
					segs[i] = f
				}
			case a.Op != Delete:
				inss = append(inss, ins{f, insertBefore(a.Key, n)})
			}
		}
		var out []fact
		seg := 0
		for i := range segs {
			if deleted[i] {
				continue
			}
			for _, x := range inss {
				if x.before == seg {
					out = append(out, x.f)
				}
			}
			out = append(out, segs[i])
			seg++
		}
		for _, x := range inss {
			if x.before >= seg {
				out = append(out, x.f)
			}
		}
		if len(out) == 0 {
			out = []fact{{kind: equal}} // an empty segment for a URL without a path
		}
		return pathKnow{lo: len(out), hi: len(out), segs: out}
	}
	// The number of segments is not known: only actions that certainly replace a segment keep
	// what is known.
	p := pathKnow{lo: ip.lo, hi: ip.hi, pos: map[int]fact{}, rpos: map[int]fact{}}
	for k, f := range ip.pos {
		p.pos[k] = f.conv(pathConv)
	}
	for k, f := range ip.rpos {
		p.rpos[k] = f.conv(pathConv)
	}
	for ai := range r.Transform {
		a := &r.Transform[ai]
		if a.Key.Part != urlnorm.PartPath || a.Key == wholePath {
			continue
		}
		pp, rr := int(a.Key.Pos), int(a.Key.RPos)
		if a.Insert || a.Op == Delete || a.Key.Sub != 0 || a.Key.RSub != 0 || pp != 0 && rr != 0 {
			return unknownPath
		}
		at := max(pp, rr)
		if a.Op != Convert && at > ip.lo {
			return unknownPath // may add a segment
		}
		// The segment at a.Key gets a new value (a Convert, if it is present); a segment
		// addressed from the other end may be the same one.
		var f fact
		if a.Op != Convert || at <= ip.lo || in.get(a.Key).kind == equal {
			f = value(a)
		}
		if f.kind == present {
			f = fact{}
		}
		if pp != 0 {
			clear(p.rpos)
			p.pos[pp] = f
		} else {
			clear(p.pos)
			p.rpos[rr] = f
		}
	}
	for k, f := range p.pos {
		if f.kind == unknown {
			delete(p.pos, k)
		}
	}
	for k, f := range p.rpos {
		if f.kind == unknown {
			delete(p.rpos, k)
		}
	}
	return p
}

// relatedDomains reports whether a host can be in both domains a and b: one is b or ends with
// "." and the other.
func relatedDomains(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	return a == b || strings.HasSuffix(a, b) && a[len(a)-len(b)-1] == '.'
}

// successor returns the successor entry of rule j for a URL that kn describes, and false if j
// cannot match such a URL.
func (s *Set) successor(kn *know, j int) (succ, bool) {
	r := &s.rules[j]
	e := succ{j: int32(j)}
	switch {
	case r.Scope.Host == AllHosts && !r.Scope.Domain:
		e.every = true
	case kn.host.kind == equal:
		if !r.Scope.Covers(kn.host.val) {
			return e, false
		}
	case kn.domain != "":
		if r.Scope.Domain && !relatedDomains(r.Scope.Host, kn.domain) ||
			!r.Scope.Domain && !(Scope{Host: kn.domain, Domain: true}).Covers(r.Scope.Host) {
			return e, false
		}
		e.scope = true
	default:
		e.scope = true
	}
	for ci := range r.Context {
		c := &r.Context[ci]
		f := kn.get(c.Key)
		switch {
		case f.kind == unknown:
			e.check = append(e.check, int32(ci))
		case c.Op == Absent:
			if f.kind != absent {
				return e, false
			}
		case f.kind == absent:
			return e, false
		case c.Op == Equal && f.kind == equal:
			if f.val != c.Value {
				return e, false
			}
		case c.Op == Equal:
			e.check = append(e.check, int32(ci))
		}
	}
	for k, key := range r.needs {
		switch kn.get(key).kind {
		case absent:
			return e, false
		case unknown:
			e.check = append(e.check, int32(len(r.Context)+k))
		}
	}
	return e, true
}

// indexSuccessors computes the successors of every rule (Set.succ) for the rewrites that
// normalizeFast may take without the key writer: those of a set whose Key keyCleanAt knows, by a
// rule that works on whole tokens.
func (s *Set) indexSuccessors(twin []bool) {
	s.succ = nil
	if !s.tokenKey {
		return
	}
	s.succ = make([]succList, len(s.rules))
	for i := range s.succ {
		s.succ[i].full = true
	}
	// The rules by scope, in precedence order.
	var every []int32
	exact := map[string][]int32{}
	domain := map[string][]int32{}
	for j := range s.rules {
		if twin[j] {
			continue // never the first rule that matches: its equal before it is
		}
		sc := s.rules[j].Scope
		switch {
		case sc.Domain:
			domain[sc.Host] = append(domain[sc.Host], int32(j))
		case sc.Host == AllHosts:
			every = append(every, int32(j))
		default:
			exact[sc.Host] = append(exact[sc.Host], int32(j))
		}
	}
	var cand []int32
	budget := succBudget*len(s.rules) + maxSuccScan
	for i := range s.rules {
		if budget <= 0 {
			break // the rest stay full
		}
		r := &s.rules[i]
		l := &s.succ[i]
		if !r.wholeOK {
			continue // never a keyCleanAt rewrite
		}
		in := inputKnow(r)
		if in.never {
			l.full = false // matches no URL
			continue
		}
		out := outputKnow(r, in)
		if out.never {
			l.full = false
			continue
		}
		// The candidates: the rules whose scope may cover the output's host.
		cand = cand[:0]
		if out.host.kind == equal {
			h := out.host.val
			cand = append(cand, exact[h]...)
			for d := h; ; {
				cand = append(cand, domain[d]...)
				k := strings.IndexByte(d, '.')
				if k < 0 {
					break
				}
				d = d[k+1:]
			}
			cand = append(cand, every...)
			slices.Sort(cand)
		} else {
			if len(s.rules) > maxSuccScan {
				continue
			}
			for j := range s.rules {
				if !twin[j] {
					cand = append(cand, int32(j))
				}
			}
		}
		if len(cand) > maxSuccScan {
			continue
		}
		var ents []succ
		over, local := false, 0
		for _, j := range cand {
			budget--
			if e, ok := s.successor(out, int(j)); ok {
				if !e.every {
					local++
				}
				if len(ents) == maxSucc || local > maxSuccLocal {
					over = true
					break
				}
				ents = append(ents, e)
			}
		}
		if over {
			continue
		}
		l.full, l.ents = false, ents
		for _, e := range ents {
			if !e.every {
				l.local++
			}
		}
		s.compileSucc(ents)
	}
}

// compileSucc fills the probes of the successors ents from their checks, in one array.
func (s *Set) compileSucc(ents []succ) {
	n := 0
	for _, e := range ents {
		n += len(e.check)
	}
	all := make([]probe, 0, n)
	for x := range ents {
		e := &ents[x]
		r := &s.rules[e.j]
		a := len(all)
		nc := int32(len(r.Context))
		for _, ci := range e.check {
			if ci >= nc {
				all = append(all, compileProbe(&r.needs[ci-nc], Any, ""))
				continue
			}
			c := &r.Context[ci]
			all = append(all, compileProbe(&c.Key, c.Op, c.Value))
		}
		e.probes = all[a:len(all):len(all)]
	}
}

// final reports whether no successor in l can match the URL of tokens toks: l is empty, or has
// only rules of every host, which require a query parameter of s.every's names, and toks have
// none.
func (s *Set) final(l *succList, toks []urlnorm.Token) bool {
	if len(l.ents) == 0 {
		return true
	}
	if l.local > 0 || !s.every.ok {
		return false
	}
	for i := len(toks) - 1; i >= 0 && toks[i].Part >= urlnorm.PartQuery; i-- {
		if toks[i].Part == urlnorm.PartQuery && s.every.has(toks[i].Name) {
			return false
		}
	}
	return true
}

// matchSucc returns the position in ents of the first successor that matches v from position
// from on, or -1.
func (s *Set) matchSucc(v *view, ents []succ, from int) int {
	// A rule of every host requires a query parameter of s.every's names: a URL with none of
	// them skips them all.
	every := 0 // 1: v has such a name, 2: it has none
	for k := from; k < len(ents); k++ {
		e := &ents[k]
		if e.every && s.every.ok {
			if every == 0 {
				every = 2
				for i := v.queryAt; i < len(v.whole); i++ {
					if t := &v.whole[i]; t.Part == urlnorm.PartQuery && s.every.has(t.Name) {
						every = 1
						break
					}
				}
			}
			if every == 2 {
				continue
			}
		}
		if e.scope && !s.rules[e.j].Scope.Covers(v.host) {
			continue
		}
		if v.holdsAll(e.probes) {
			return k
		}
	}
	return -1
}
