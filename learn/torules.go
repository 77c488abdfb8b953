package learn

import (
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// ToRules converts the selected rules of m (site rules, not the widened ones) into package rules'
// model, one rule per host for a rule whose context does not name its host. It returns the rules
// that rules.Rule can express and the number it cannot: a first-letter conversion, a path edit
// that inserts more segments than it replaces (rules' actions insert a segment only at a key the
// URL lacks), a whole-path case conversion combined with another path edit, a repeated query name
// or a bare parameter. The converted rules carry coverage and training precision in their Stats;
// rules.NewSet orders them by its own precedence, which is not this package's most-specific-first
// order, so a Set can rewrite a URL differently where two rules compete.
func (m *Model) ToRules() (out []rules.Rule, skipped int) {
	for i, s := range m.sites {
		for j := range s.rules {
			if !m.on[i][j] {
				continue
			}
			rs, ok := convertRule(&s.rules[j], s.hosts)
			if !ok {
				skipped++
				continue
			}
			out = append(out, rs...)
		}
	}
	return out, skipped
}

func convertRule(r *Rule, siteHosts []string) ([]rules.Rule, bool) {
	var hosts []string
	var ctx rules.Context
	maxPos := 0
	for _, c := range r.Context {
		if c.Key.Part == urlnorm.PartHost && c.Kind == CondEq {
			hosts = []string{c.Value}
			continue
		}
		op := map[CondKind]rules.CondOp{CondEq: rules.Equal, CondAny: rules.Any, CondAbsent: rules.Absent}[c.Kind]
		ctx = append(ctx, rules.Condition{Key: c.Key, Op: op, Value: c.Value})
		if c.Key.Part == urlnorm.PartPath && int(c.Key.Pos) > maxPos && c.Kind != CondAbsent {
			maxPos = int(c.Key.Pos)
		}
	}
	if hosts == nil {
		hosts = siteHosts
	}
	t := &r.Transform
	var acts rules.Transformation
	action := func(k urlnorm.Key, o Op) bool {
		switch o.Kind {
		case OpLiteral:
			if o.Bare {
				return false
			}
			acts = append(acts, rules.Action{Key: k, Op: rules.Assign, Value: o.Lit})
		case OpRef:
			acts = append(acts, rules.Action{Key: k, Op: rules.Copy, From: o.Ref})
		case OpLower:
			acts = append(acts, rules.Action{Key: k, Op: rules.Copy, From: o.Ref, Conv: rules.Lower})
		case OpUpper:
			acts = append(acts, rules.Action{Key: k, Op: rules.Copy, From: o.Ref, Conv: rules.Upper})
		default:
			return false
		}
		return true
	}
	if t.Scheme != nil && !action(urlnorm.Key{Part: urlnorm.PartScheme}, *t.Scheme) {
		return nil, false
	}
	if t.Host != nil && !action(urlnorm.Key{Part: urlnorm.PartHost}, *t.Host) {
		return nil, false
	}
	if t.PathCase != 0 {
		conv := map[OpKind]rules.Conversion{OpLower: rules.Lower, OpUpper: rules.Upper}[t.PathCase]
		if conv == 0 || t.Del != 0 || len(t.Ins) != 0 || maxPos == 0 {
			return nil, false
		}
		for p := 1; p <= maxPos; p++ {
			k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(p)}
			acts = append(acts, rules.Action{Key: k, Op: rules.Copy, From: k, Conv: conv})
		}
	}
	if len(t.Ins) > t.Del {
		return nil, false
	}
	for i := range t.Del {
		// The i-th segment of the window from the left.
		k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(t.Skip + 1 + i)}
		if t.FromEnd {
			k = urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(t.Skip + t.Del - i)}
		}
		if i < len(t.Ins) {
			if !action(k, t.Ins[i]) {
				return nil, false
			}
		} else {
			acts = append(acts, rules.Action{Key: k, Op: rules.Delete})
		}
	}
	for i, q := range t.Query {
		if i > 0 && t.Query[i-1].Name == q.Name {
			return nil, false
		}
		k := urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}
		if q.Delete {
			acts = append(acts, rules.Action{Key: k, Op: rules.Delete})
		} else if !action(k, q.Op) {
			return nil, false
		}
	}
	var out []rules.Rule
	for _, h := range hosts {
		rr := rules.Rule{
			Scope:     rules.Scope{Host: h},
			Context:   ctx,
			Transform: acts,
			Stats:     rules.Stats{Coverage: r.Coverage, Precision: r.Precision()},
		}
		if rr.Validate() != nil {
			return nil, false
		}
		out = append(out, rr)
	}
	return out, true
}

// RuleSet is ToRules followed by rules.NewSet, with urlnorm's Crawler normalizer as the set's
// canonicalizer; n is the number of rules.Rule in the set.
func (m *Model) RuleSet() (set *rules.Set, n int, err error) {
	rs, _ := m.ToRules()
	set, err = rules.NewSet(rs, &rules.Options{Canonicalizer: crawler})
	return set, len(rs), err
}

// SetNormalizer returns the dedup key of a URL under a rule set learned by this package: the
// URL's Prepare form (urlnorm's Crawler key), rewritten by set and brought back to that form.
func SetNormalizer(set *rules.Set) Normalizer {
	return NormalizerFunc(func(raw string) (string, error) {
		p, ok := Prepare(raw)
		if !ok {
			return "", ErrNotURL
		}
		k, err := set.Normalize(p)
		if err != nil {
			return "", err
		}
		return finalize(k), nil
	})
}
