package rules

import (
	"slices"

	"github.com/undust/undust/urlnorm"
)

// A splice is the plan of a rule whose actions each delete one whole token or assign one a
// literal that a key keeps as it is, or whose one action converts the whole path, made when the
// set is built (splicePlan), so that apply rewrites a URL by it (applySplice) without the general
// rewrite: it finds each action's token, copies the key's bytes around the tokens it changes and
// the view's tokens around them, once.
type splice struct {
	acts []spliceAct
	// conv, if not NoConversion, is the rule's one action instead of acts: a Convert of the
	// whole path (spliceConv).
	conv Conversion
}

// spliceAct is one action of a splice: the token of key is deleted, or set to val.
type spliceAct struct {
	key urlnorm.Key
	val string
	del bool
}

// maxSpliceActs bounds the actions of a rule that gets a splice (applySplice keeps their tokens'
// indexes in an array).
const maxSpliceActs = 8

// splicePlan returns the splice of rule r, or nil if rewrite must apply it: an action that
// inserts, copies or converts, has a deep key or the whole path, deletes the scheme or the
// host, or sets anything but a path segment to a plainSegment, the host to a plainHost or the
// scheme to http or https (the changes after which keyCleanAt says that a key stays a key).
// A rule whose one action converts the whole path has a splice too.
func splicePlan(r *Rule) *splice {
	if len(r.Transform) == 0 || len(r.Transform) > maxSpliceActs {
		return nil
	}
	if a := &r.Transform[0]; len(r.Transform) == 1 && a.Op == Convert && a.Key == wholePath {
		if a.Conv == NoConversion {
			return nil
		}
		return &splice{conv: a.Conv}
	}
	p := &splice{acts: make([]spliceAct, 0, len(r.Transform))}
	for _, a := range r.Transform {
		k := a.Key
		if a.Insert || k.Sub != 0 || k.RSub != 0 || k.Part == urlnorm.PartPath && k.Pos == 0 && k.RPos == 0 {
			return nil
		}
		switch a.Op {
		case Delete:
			if k.Part == urlnorm.PartScheme || k.Part == urlnorm.PartHost {
				return nil
			}
		case Assign:
			if !plainValue(k.Part, a.Value) {
				return nil
			}
		default:
			return nil
		}
		p.acts = append(p.acts, spliceAct{key: k, val: a.Value, del: a.Op == Delete})
	}
	return p
}

// checkSplice, if not nil, is called after each rewrite that applySplice makes, with the scratch
// as the splice left it, a copy of the view before, the rule, the URL before and the one
// applySplice returned; for tests.
var checkSplice func(s *Set, sc *scratch, before *view, i int, cur, next string)

// applySpliceChecked is applySplice of rule i followed by checkSplice.
func (s *Set) applySpliceChecked(sc *scratch, i int, cur string) (string, bool) {
	before := sc.v
	before.whole = slices.Clone(sc.v.whole)
	next, ok := s.applySplice(sc, &s.rules[i], cur)
	if ok {
		checkSplice(s, sc, &before, i, cur, next)
	}
	return next, ok
}

// applySplice is apply(sc, i, cur) for the rule c (rule i) with a splice, on whole tokens of a
// set with tokenKey, in normalizeFast: the URL is written from cur and sc.v.whole, and its
// tokens, as apply would write them on its keyCleanAt path, are made of sc.v.whole in place and
// left in sc.next (sc.v.whole then holds sc.next's buffer: the view is not read again before
// normalizeFast makes the next one from sc.next), with sc.samePlace set when none is deleted.
// ok is false, with nothing changed, when the URL needs more than the plan knows: a token that
// an assignment sets is absent (it would be inserted), two actions meet the same token, a
// changed scheme with a port, every path segment deleted, a result longer than a key (and, for
// a conversion, what spliceConv declines).
func (s *Set) applySplice(sc *scratch, c *crule, cur string) (_ string, ok bool) {
	v := &sc.v
	whole := v.whole
	sc.nextOK = false
	p := c.splice
	if p.conv != NoConversion {
		return s.spliceConv(sc, cur, p.conv)
	}
	acts := p.acts
	if len(acts) == 1 {
		// Half the splices: one action, no order to find.
		a := &acts[0]
		i := a.find(v)
		switch {
		case i < 0:
			if a.del {
				return cur, true
			}
			return "", false
		case !a.del && whole[i].Value == a.val && !whole[i].Bare:
			return cur, true
		case a.key.Part == urlnorm.PartScheme && v.hasPort():
			return "", false
		}
		return s.spliceOne(sc, cur, i, a)
	}
	// The tokens the actions change, by index, in order; nop ones (an assignment of the
	// value the token has) are kept too, so that no two actions meet one token unseen.
	var at [maxSpliceActs]int32
	var act [maxSpliceActs]*spliceAct
	n, edits := 0, 0
	scheme := false
	for ai := range acts {
		a := &acts[ai]
		i := a.find(v)
		if i < 0 {
			if a.del {
				continue
			}
			return "", false
		}
		if a.del || whole[i].Value != a.val || whole[i].Bare {
			edits++
			scheme = scheme || a.key.Part == urlnorm.PartScheme
		} else {
			a = nil // no change
		}
		j := n
		for ; j > 0 && at[j-1] > int32(i); j-- {
			at[j], act[j] = at[j-1], act[j-1]
		}
		if j > 0 && at[j-1] == int32(i) {
			return "", false
		}
		at[j], act[j] = int32(i), a
		n++
	}
	if edits == 0 {
		return cur, true
	}
	if scheme && v.hasPort() {
		return "", false // a changed scheme could make the port its default (see keyCleanAt)
	}
	if edits == 1 {
		e := 0
		for act[e] == nil {
			e++
		}
		return s.spliceOne(sc, cur, int(at[e]), act[e])
	}
	// The URL: the bytes of cur from one changed token to the next, and the set tokens
	// written again, or left out.
	canon, mark := sc.arena, len(sc.arena)
	off, from, k := 0, 0, 0 // the byte offset in cur of token k; the start of the run to copy
	dels, delSeg, delBefore, needQ := 0, 0, 0, false
	for e := range n {
		a := act[e]
		if a == nil {
			continue
		}
		i := int(at[e])
		for ; k < i; k++ {
			off += textLen(&whole[k])
		}
		end := off + textLen(&whole[i])
		if end > len(cur) {
			return "", false
		}
		if needQ && from < off {
			// The query parameters before this run were all deleted: the run's first token,
			// a parameter after "&", starts the query.
			canon, from = firstParam(canon, from, cur)
			needQ = false
		}
		canon = append(canon, cur[from:off]...)
		off = end
		k, from = i+1, off
		t := &whole[i]
		if a.del {
			dels++
			switch t.Part {
			case urlnorm.PartPath:
				delSeg++
			case urlnorm.PartQuery:
				needQ = needQ || i == v.queryAt
			}
			if i < v.pathStart {
				delBefore++
			}
			continue
		}
		canon = appendPartText(canon, t.Part, a.val) // a scheme, a host or a path segment
	}
	if delSeg == v.nseg && delSeg > 0 {
		return "", false // AppendJoin writes "/"
	}
	if needQ && from < len(cur) {
		canon, from = firstParam(canon, from, cur)
	}
	canon = append(canon, cur[from:]...)
	if len(canon)-mark > urlnorm.DefaultMaxLength {
		return "", false // the key writer reports it
	}
	next := bytesString(canon[mark:])
	if next == cur {
		// Assignments that join to the same text: apply returns cur, not kept.
		return cur, true
	}
	// The tokens: those of the view, edited in place (the view of cur is not read again once
	// apply returns another URL), become sc.next; the view takes sc.next's buffer, which
	// normalizeFast gives back to it with the new tokens.
	toks := whole
	for e := range n {
		if a := act[e]; a != nil && !a.del {
			t := &toks[at[e]]
			t.Value, t.Bare = a.val, false
		}
	}
	if dels > 0 {
		w, r := -1, 0
		for e := range n {
			if a := act[e]; a == nil || !a.del {
				continue
			}
			i := int(at[e])
			if w < 0 {
				w = i
			} else {
				w += copy(toks[w:], toks[r:i])
			}
			r = i + 1
		}
		w += copy(toks[w:], toks[r:])
		clear(toks[w:]) // no token left twice in the buffer
		toks = toks[:w]
		if delSeg > 0 {
			nseg := int16(v.nseg - delSeg)
			seg := toks[v.pathStart-delBefore:][:nseg]
			for p := range seg {
				seg[p].Pos, seg[p].RPos = int16(p+1), nseg-int16(p)
			}
		}
		d := 0
		for e := range n {
			a := act[e]
			if a == nil || !a.del {
				continue
			}
			d++
			if a.key.Part != urlnorm.PartQuery {
				continue
			}
			// The occurrences of its name (that of the key) after a deleted parameter, from
			// where the token after it is now, move down one.
			for i := int(at[e]) + 1 - d; i < len(toks) && toks[i].Part == urlnorm.PartQuery; i++ {
				if toks[i].Name == a.key.Name {
					toks[i].Pos--
				}
			}
		}
	}
	v.whole, sc.next = sc.next[:0], toks
	sc.arena, sc.nextOK, sc.clean, sc.samePlace = canon, true, true, dels == 0
	return next, true
}

// spliceOne is applySplice when one action, a, changes the URL: it deletes or sets token i of
// the view. The tokens after a deleted one move down by one in place; the positions of the
// tokens that a set changes stay, and sc.samePlace says so.
func (s *Set) spliceOne(sc *scratch, cur string, i int, a *spliceAct) (_ string, ok bool) {
	v := &sc.v
	whole := v.whole
	t := &whole[i]
	part := t.Part
	if a.del && part == urlnorm.PartPath && v.nseg == 1 {
		return "", false // AppendJoin writes "/"
	}
	off := textOffset(whole, i, len(cur))
	end := off + textLen(t)
	if off < 0 || end > len(cur) {
		return "", false
	}
	canon, mark := sc.arena, len(sc.arena)
	canon = append(canon, cur[:off]...)
	rest := cur[end:]
	switch {
	case !a.del:
		canon = appendPartText(canon, part, a.val) // a scheme, a host or a path segment
	case i == v.queryAt && rest != "" && rest[0] == '&':
		// The first query parameter deleted: the next one starts the query.
		canon, rest = append(canon, '?'), rest[1:]
	}
	canon = append(canon, rest...)
	if len(canon)-mark > urlnorm.DefaultMaxLength {
		return "", false // the key writer reports it
	}
	next := bytesString(canon[mark:])
	if next == cur {
		return cur, true // not kept
	}
	if !a.del {
		t.Value, t.Bare = a.val, false
		sc.samePlace = true
	} else {
		name := t.Name
		last := len(whole) - 1
		copy(whole[i:], whole[i+1:])
		whole[last] = urlnorm.Token{} // no token left twice in the buffer
		whole = whole[:last]
		switch part {
		case urlnorm.PartPath:
			nseg := int16(v.nseg - 1)
			seg := whole[v.pathStart:][:nseg]
			for p := range seg {
				seg[p].Pos, seg[p].RPos = int16(p+1), nseg-int16(p)
			}
		case urlnorm.PartQuery:
			// The later occurrences of its name move down one.
			for j := i; j < len(whole) && whole[j].Part == urlnorm.PartQuery; j++ {
				if whole[j].Name == name {
					whole[j].Pos--
				}
			}
		}
	}
	v.whole, sc.next = sc.next[:0], whole
	sc.arena, sc.nextOK, sc.clean = canon, true, true
	return next, true
}

// textOffset returns the byte offset of token i of whole in the URL of n bytes that
// urlnorm.AppendJoin writes of whole, from the lengths of the tokens before it or after it,
// whichever are fewer; it is negative if the tokens do not fit in n bytes.
func textOffset(whole []urlnorm.Token, i, n int) int {
	if i <= len(whole)/2 {
		off := 0
		for k := range i {
			off += textLen(&whole[k])
		}
		return off
	}
	for k := i; k < len(whole); k++ {
		n -= textLen(&whole[k])
	}
	return n
}

// find returns v.tokenAt(a.key), the index in v.whole of the token of a's key, or -1, without
// copying the key, and without a call for the parts other than the query and the fragment.
func (a *spliceAct) find(v *view) int {
	k := &a.key
	w := v.whole
	switch k.Part {
	case urlnorm.PartScheme:
		if len(w) > 0 && w[0].Part == urlnorm.PartScheme {
			return 0
		}
		return -1
	case urlnorm.PartHost:
		return v.hostAt
	case urlnorm.PartPort:
		if i := v.hostAt + 1; v.hostAt >= 0 && i < len(w) && w[i].Part == urlnorm.PartPort {
			return i
		}
		return -1
	case urlnorm.PartUserinfo:
		if i := v.hostAt - 1; i >= 0 && w[i].Part == urlnorm.PartUserinfo {
			return i
		}
		return -1
	case urlnorm.PartPath:
		if k.Pos != 0 {
			if int(k.Pos) > v.nseg || (k.RPos != 0 && int(k.Pos)+int(k.RPos) != v.nseg+1) {
				return -1
			}
			return v.pathStart + int(k.Pos) - 1
		}
		if k.RPos != 0 && int(k.RPos) <= v.nseg {
			return v.pathStart + v.nseg - int(k.RPos)
		}
		return -1
	}
	return v.tokenAt(*k)
}

// hasPort reports whether the URL of v has a port: right after the host in its tokens, or
// within the first four without a host.
func (v *view) hasPort() bool {
	w := v.whole
	if h := v.hostAt; h >= 0 {
		return h+1 < len(w) && w[h+1].Part == urlnorm.PartPort
	}
	for i := range min(len(w), 4) {
		if w[i].Part == urlnorm.PartPort {
			return true
		}
	}
	return false
}

// spliceConv is applySplice for a plan that converts the whole path by conv: the URL is cur with
// the bytes of the path segments that conv changes converted, and those segments' tokens take
// their new values from it. ok is false, with nothing changed, for a changed segment that is not
// a plainSegment (the key writer must read it again), more than 64 segments, a URL longer than a
// key, or a conversion of each segment's first letter (LowerFirst, UpperFirst) where the host's
// patterns split the URL: rewrite then converts the first letter of each deep token, where a
// whole token's is not enough (see crule.wholeOK). Where they do not, the deep tokens are the
// whole ones, and the URL is the same as rewrite's, which the key writer reads again.
func (s *Set) spliceConv(sc *scratch, cur string, conv Conversion) (_ string, ok bool) {
	v := &sc.v
	if v.split && conv != Lower && conv != Upper {
		return "", false
	}
	if v.nseg == 0 {
		return cur, true
	}
	if v.nseg > 64 {
		return "", false
	}
	seg := v.whole[v.pathStart:][:v.nseg]
	var changed uint64 // bit k: conv changes segment k
	first := -1
	for k := range seg {
		val := seg[k].Value
		if convertAt(conv, val) == len(val) {
			continue
		}
		if !plainSegment(val) {
			return "", false
		}
		changed |= 1 << k
		if first < 0 {
			first = k
		}
	}
	if first < 0 {
		return cur, true
	}
	off := textOffset(v.whole, v.pathStart+first, len(cur))
	if off < 0 || len(cur) > urlnorm.DefaultMaxLength {
		return "", false
	}
	// The segments from the first changed one, in the URL: a check before anything is written.
	end := off
	for k := first; k < len(seg); k++ {
		end += 1 + len(seg[k].Value)
	}
	if end > len(cur) {
		return "", false
	}
	canon, mark := sc.arena, len(sc.arena)
	canon = append(canon, cur...)
	b := canon[mark:]
	for k := first; k < len(seg); k++ {
		t := &seg[k]
		start := off + 1 // after the "/"
		off = start + len(t.Value)
		if changed&(1<<k) == 0 {
			continue
		}
		x := b[start:off]
		for j := range x {
			x[j] = convertByte(conv, j, x[j])
		}
		t.Value = bytesString(x)
	}
	v.whole, sc.next = sc.next[:0], v.whole
	sc.arena, sc.nextOK, sc.clean, sc.samePlace = canon, true, true, true
	return bytesString(b), true
}
