// Package acyclic removes rewrite cycles from a learned rule set (package rules), for the
// learners of package learn and learn/align.
//
// Two rules learned from different clusters can undo each other: "www.example.com ->
// m.example.com" beside "m.example.com -> www.example.com", or http -> https beside https ->
// http on one site. rules.Set.Normalize then stops with rules.ErrCycle. A learner calls Break
// with its training URLs before it returns a set, so that the set is acyclic on them: of the
// rules of each cycle found, the weakest one is dropped (see Break), and the search runs again
// on the smaller set until no training URL cycles.
package acyclic

import (
	"cmp"
	"errors"
	"net/url"
	"slices"

	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// maxRounds bounds the rounds of Break: each round drops at least one rule, and a round is a
// pass over the URLs.
const maxRounds = 64

// Break returns set without the rules that make a rewrite cycle on some of urls (raw URLs if
// the set has an Options.Key, else URLs in the form the set takes), and the rules it dropped.
// Of the rules that take part in one cycle, it drops the weakest: the smallest training
// coverage (Stats.Coverage), then the lower precision, then the later in precedence order. When
// no URL cycles it returns set itself. It does not modify set or urls.
func Break(set *rules.Set, urls []string) (*rules.Set, []rules.Rule, error) {
	var dropped []rules.Rule
	for range maxRounds {
		drop := map[int]bool{}
		t := newTracer(set)
		for _, u := range urls {
			if _, err := set.Normalize(u); !errors.Is(err, rules.ErrCycle) {
				continue
			}
			cyc := t.cycle(u)
			if len(cyc) == 0 || slices.ContainsFunc(cyc, func(i int) bool { return drop[i] }) {
				continue
			}
			drop[weakest(set, cyc)] = true
		}
		if len(drop) == 0 {
			return set, dropped, nil
		}
		var keep []rules.Rule
		for i := range set.Len() {
			if drop[i] {
				dropped = append(dropped, set.Rule(i))
			} else {
				keep = append(keep, set.Rule(i))
			}
		}
		next, err := rules.NewSet(keep, set.Options())
		if err != nil {
			return nil, nil, err
		}
		set = next
	}
	return set, dropped, nil
}

// weakest returns the rule of cyc (indexes into set) that Break drops.
func weakest(set *rules.Set, cyc []int) int {
	return slices.MaxFunc(cyc, func(a, b int) int {
		ra, rb := set.Rule(a).Stats, set.Rule(b).Stats
		if c := cmp.Compare(rb.Coverage, ra.Coverage); c != 0 {
			return c
		}
		if c := cmp.Compare(rb.Precision, ra.Precision); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// A tracer replays Normalize one rewrite at a time, with a one-rule set per rule, to name the
// rule of each rewrite.
type tracer struct {
	set   *rules.Set
	opts  *rules.Options
	keyer *urlnorm.Normalizer
	one   map[int]*rules.Set
}

func newTracer(set *rules.Set) *tracer {
	o := set.Options()
	t := &tracer{set: set, one: map[int]*rules.Set{}}
	if o.Key != 0 {
		t.keyer = urlnorm.New(o.Key)
	}
	o.MaxRewrites = 1
	t.opts = o
	return t
}

// step returns the rewrite of u by rule i alone, u if the rule does not change it.
func (t *tracer) step(i int, u string) string {
	s := t.one[i]
	if s == nil {
		var err error
		s, err = rules.NewSet([]rules.Rule{t.set.Rule(i)}, t.opts)
		if err != nil {
			return u
		}
		t.one[i] = s
	}
	out, err := s.Normalize(u)
	if out == "" || err != nil && !errors.Is(err, rules.ErrRewriteLimit) && !errors.Is(err, rules.ErrCycle) {
		return u
	}
	return out
}

// cycle returns the indexes of the rules that rewrite u round a cycle, or nil.
func (t *tracer) cycle(u string) []int {
	cur := u
	if t.keyer != nil {
		k, err := t.keyer.Key(u)
		if err != nil {
			return nil
		}
		cur = k
	}
	seen := map[string]int{} // URL: its position in the chain
	var used []int           // the rule of each rewrite
	for range 4 * rules.DefaultMaxRewrites {
		seen[cur] = len(used)
		host := ""
		if pu, err := url.Parse(cur); err == nil {
			host = pu.Hostname()
		}
		next, rule := cur, -1
		for i := range t.set.Len() {
			if host != "" && !t.set.Rule(i).Scope.Covers(host) {
				continue
			}
			if out := t.step(i, cur); out != cur {
				next, rule = out, i
				break
			}
		}
		if rule < 0 {
			return nil
		}
		used = append(used, rule)
		if p, ok := seen[next]; ok {
			return used[p:]
		}
		cur = next
	}
	return nil
}
