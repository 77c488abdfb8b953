package learn

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/binfile"
)

// A suspect is what a mismatch did (see ConfirmMatch): the failure it counted for each decisive
// rule and tree family, and the rules it retracted, kept until the page that the URL met served
// shows what it is. A check whose URL served the site's error page ("your session has expired",
// given for an old session id of any page) found no fault in the rules that keyed it as
// another page: the URL's own page was not served at all. The error page is known for one only
// once the crawl has fetched it under several unrelated URLs (see hub), which is often after the
// first check that met it; exonerate then undoes what the mismatch did.
type suspect struct {
	in    string       // the URL met, in Prepare's form
	fp    uint64       // its page, once observed; 0 before
	refs  []suspectRef // the counters of the decisive rules, which counted a check and a failure
	trees []siteCount  // the tree families whose failures it counted
	outs  []retraction // what it retracted
}

// A suspectRef is a counter that a mismatch counted a check and a failure in, and the context of
// the check.
type suspectRef struct {
	c         *ruleCounter
	rule, ctx string // the rule's content key, and the context of the check
}

// A siteCount names a count of a site's (treeFails or editFails).
type siteCount struct {
	s   *onlineSite
	key string
}

// A retraction is what retract did: the rule's edit whose failure it counted (edit, "" if none)
// and the rule it retracted (rule, its content key; "" if the rule was out already), in the
// context ctx, or entirely when ctx is "".
type retraction struct {
	site            *onlineSite
	rule, ctx, edit string
}

// suspect records sp on the site of the URL met, until its page is known to be a page of its
// own (never undone) or an error page (undone by exonerate). A crawler may observe the URL
// before it confirms the check: then the page is known, and may be an error page already.
func (o *Online) suspect(sp *suspect) {
	if ablate.NoExonerate || sp.in == "" {
		return
	}
	s := o.site(hostOf(sp.in), true)
	s.mu.Lock()
	if m, ok := s.byURL[s.prepared[sp.in]]; ok {
		sp.fp = m.fp
	}
	s.pend(sp)
	s.mu.Unlock()
	if sp.fp != 0 {
		o.exonerate(s, sp.fp)
	}
}

// pend files sp among s's pending mismatches: by its page if known, else by its URL met until
// Observe gives the page (see observeSuspects). s.mu must be held.
func (s *onlineSite) pend(sp *suspect) {
	s.suspects = append(s.suspects, sp)
	if sp.fp != 0 {
		s.suspectFP[sp.fp]++
	} else {
		s.suspectIn[sp.in] = append(s.suspectIn[sp.in], sp)
	}
}

// observeSuspects is Observe's part: it gives the suspects of the URL p (in Prepare's form) met
// their page fp and reports whether a suspect is pending on page fp. s.mu must be held.
func (s *onlineSite) observeSuspects(p string, fp uint64) bool {
	if len(s.suspects) == 0 {
		return false
	}
	for _, sp := range s.suspectIn[p] {
		sp.fp = fp
		s.suspectFP[fp]++
	}
	delete(s.suspectIn, p)
	return s.suspectFP[fp] > 0
}

// exonerate undoes the mismatches of site s whose URL met served page fp, when fp has proved an
// error page (see hub): the checks and failures they counted, and the rules they retracted,
// which are published again. A mismatch whose page is not an error page stays pending: its
// page may prove one when the crawl fetches it under more URLs.
func (o *Online) exonerate(s *onlineSite, fp uint64) {
	s.mu.Lock()
	i := slices.IndexFunc(s.suspects, func(sp *suspect) bool { return sp.fp == fp })
	in := ""
	if i >= 0 {
		in = s.suspects[i].in
	}
	s.mu.Unlock()
	if in == "" || !o.hub(in) {
		return
	}
	var done []*suspect
	s.mu.Lock()
	s.suspects = slices.DeleteFunc(s.suspects, func(sp *suspect) bool {
		if sp.fp == fp {
			done = append(done, sp)
			return true
		}
		return false
	})
	delete(s.suspectFP, fp)
	s.mu.Unlock()
	sites := map[*onlineSite]bool{}
	for _, sp := range done {
		for _, r := range sp.refs {
			r.c.checks.Add(-1)
			r.c.fails.Add(-1)
			counter(&r.c.ctxChecks, r.ctx).Add(-1)
		}
		for _, t := range sp.trees {
			if n, ok := t.s.treeFails.Load(t.key); ok {
				n.(*atomic.Int64).Add(-1)
			}
		}
		for _, out := range sp.outs {
			if out.edit != "" {
				if n, ok := out.site.editFails.Load(out.edit); ok {
					n.(*atomic.Int64).Add(-1)
				}
			}
			if out.rule == "" {
				continue
			}
			t := out.site
			t.mu.Lock()
			if out.ctx == "" {
				delete(t.retracted, out.rule)
			} else {
				delete(t.outCtx[out.rule], out.ctx)
				if len(t.outCtx[out.rule]) == 0 {
					delete(t.outCtx, out.rule)
				}
			}
			t.mu.Unlock()
			o.stats.reinstated.Add(1)
			sites[t] = true
		}
	}
	for t := range sites {
		t.mu.Lock()
		t.publish(o.global.Load())
		t.mu.Unlock()
	}
}

// writeSuspects writes s's pending mismatches (see the saved form in online_save.go): the parts
// that concern s's own rule counters, tree families and retractions. s.mu must be held.
func (s *onlineSite) writeSuspects(x *binfile.Writer) {
	x.Uvarint(uint64(len(s.suspects)))
	for _, sp := range s.suspects {
		x.String(sp.in)
		x.Uint64(sp.fp)
		var refs []suspectRef
		for _, r := range sp.refs {
			if s.counters[r.rule] == r.c {
				refs = append(refs, r)
			}
		}
		x.Uvarint(uint64(len(refs)))
		for _, r := range refs {
			x.String(r.rule)
			x.String(r.ctx)
		}
		var trees []string
		for _, t := range sp.trees {
			if t.s == s {
				trees = append(trees, t.key)
			}
		}
		x.Uvarint(uint64(len(trees)))
		for _, t := range trees {
			x.String(t)
		}
		var outs []retraction
		for _, out := range sp.outs {
			if out.site == s {
				outs = append(outs, out)
			}
		}
		x.Uvarint(uint64(len(outs)))
		for _, out := range outs {
			x.String(out.rule)
			x.String(out.ctx)
			x.String(out.edit)
		}
	}
}

// readSuspects reads what writeSuspects wrote into s, whose counters are read already. A rule
// counted that s has no counter of is skipped; a retraction of a rule that s does not hold
// retracted is an error.
func (s *onlineSite) readSuspects(x *binfile.Reader) {
	for range each(x, "pending mismatches") {
		sp := &suspect{in: x.String(maxSavedString, "URL"), fp: x.Uint64()}
		for range each(x, "rules counted") {
			rule, ctx := x.String(maxSavedString, "rule text"), x.String(maxSavedString, "context")
			if c := s.counters[rule]; c != nil {
				sp.refs = append(sp.refs, suspectRef{c, rule, ctx})
			}
		}
		for range each(x, "tree families counted") {
			sp.trees = append(sp.trees, siteCount{s, x.String(maxSavedString, "segment")})
		}
		for range each(x, "retractions") {
			out := retraction{site: s, rule: x.String(maxSavedString, "rule text"),
				ctx: x.String(maxSavedString, "context"), edit: x.String(maxSavedString, "edit")}
			if x.Err() != nil {
				return
			}
			if out.rule != "" && (out.ctx == "" && !s.retracted[out.rule] || out.ctx != "" && !s.outCtx[out.rule][out.ctx]) {
				x.Fail(fmt.Sprintf("pending mismatch of %q: rule %q not retracted in context %q", sp.in, out.rule, out.ctx), binfile.ErrCorrupt)
				return
			}
			sp.outs = append(sp.outs, out)
		}
		if x.Err() != nil {
			return
		}
		if sp.in == "" {
			x.Fail("pending mismatch without a URL", binfile.ErrCorrupt)
			return
		}
		s.pend(sp)
	}
}
