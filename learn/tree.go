package learn

import (
	"strconv"

	"github.com/undust/undust/urlnorm"
)

// condKind is the kind of a context condition. The zero value is not a valid kind.
type condKind uint8

// Context conditions (the paper's c(k) = v, c(k) = *, and k absent).
const (
	condEq     condKind = iota + 1 // the key has this value
	condAny                        // the key is present, with any value (the paper's wildcard)
	condAbsent                     // the key is absent (⊥)
)

// A cond is one condition of a rule's context. It is a plain value, safe to copy and share.
type cond struct {
	Key   urlnorm.Key // a path key gives Pos or RPos, not both
	Kind  condKind
	Value string // for condEq
}

func (c cond) String() string {
	switch c.Kind {
	case condEq:
		return c.Key.String() + "=" + strconv.Quote(c.Value)
	case condAny:
		return c.Key.String() + "=*"
	}
	return c.Key.String() + "=!"
}

// attrKeys enumerates the keys of p that the decision tree may test: scheme, host, every path
// segment by position from the start and from the end, every query parameter by name, and
// every deep token.
func attrKeys(p *parsed, fn func(k urlnorm.Key, v string)) {
	fn(urlnorm.Key{Part: urlnorm.PartScheme}, p.scheme)
	fn(urlnorm.Key{Part: urlnorm.PartHost}, p.host)
	n := len(p.path)
	for i, s := range p.path {
		fn(urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(i + 1)}, s)
		fn(urlnorm.Key{Part: urlnorm.PartPath, RPos: int16(n - i)}, s)
	}
	for i, q := range p.query {
		if i > 0 && p.query[i-1].Name == q.Name {
			continue
		}
		fn(urlnorm.Key{Part: urlnorm.PartQuery, Name: q.Name}, q.Value)
	}
	// Deep tokens (package deeptoken), by index within their token: a segment's by its
	// position from the start, as deeptoken keys them; a value's by its name, first occurrence.
	for _, t := range p.deep {
		switch {
		case t.Part == urlnorm.PartPath:
			fn(urlnorm.Key{Part: urlnorm.PartPath, Pos: t.Pos, Sub: t.Sub}, t.Value)
		case t.Pos <= 1:
			fn(urlnorm.Key{Part: urlnorm.PartQuery, Name: t.Name, Sub: t.Sub}, t.Value)
		}
	}
}

// holds reports whether p satisfies every condition.
func holds(conds []cond, p *parsed) bool {
	for _, c := range conds {
		v, ok := p.lookup(c.Key)
		switch c.Kind {
		case condEq:
			if !ok || v != c.Value {
				return false
			}
		case condAny:
			if !ok {
				return false
			}
		case condAbsent:
			if ok {
				return false
			}
		}
	}
	return true
}
