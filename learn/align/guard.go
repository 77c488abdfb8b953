package align

import (
	"slices"
	"strings"

	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// A family is the URLs of a host that share their last path segment (a script, a kind of
// page), seen through one query parameter.
type family struct {
	urls      int
	values    map[string]bool // distinct values of the parameter, at most maxFamilyValues
	supported bool            // two URLs of one cluster meet when the parameter is deleted
}

// maxFamilyValues bounds the distinct values a family counts.
const maxFamilyValues = 64

// identifying reports whether the parameter looks like a page's key in the family: no pair
// shows it redundant there, and at least 3 URLs have mostly distinct values.
func (f *family) identifying() bool {
	return !f.supported && f.urls >= 3 && len(f.values) >= 3 && 2*len(f.values) >= min(f.urls, maxFamilyValues)
}

// famKey names a family: host, parameter, last path segment.
type famKey struct{ host, name, last string }

// families measures every query parameter of the site's URLs in every family.
func families(items ...[]item) map[famKey]*family {
	out := map[famKey]*family{}
	full := map[string]int32{}    // a URL's token text: its cluster
	without := map[string]int32{} // parameter, NUL, a URL's token text without it: a cluster
	var b strings.Builder
	sig := func(toks []urlnorm.Token, skip string) string {
		b.Reset()
		for _, t := range toks {
			if skip != "" && t.Part == urlnorm.PartQuery && t.Name == skip {
				continue
			}
			b.WriteByte(byte(t.Part))
			b.WriteString(t.Name)
			b.WriteByte(0)
			b.WriteString(tokenText(t))
			b.WriteByte(0)
		}
		return b.String()
	}
	for _, its := range items {
		for i := range its {
			full[sig(its[i].toks, "")] = its[i].cluster
		}
	}
	for _, its := range items {
		for i := range its {
			it := &its[i]
			last := ""
			for _, t := range it.toks {
				if t.Part == urlnorm.PartPath {
					last = t.Value
				}
			}
			seen := map[string]bool{}
			for _, t := range it.toks {
				if t.Part != urlnorm.PartQuery || seen[t.Name] {
					continue
				}
				seen[t.Name] = true
				k := famKey{it.host, t.Name, last}
				f := out[k]
				if f == nil {
					f = &family{values: map[string]bool{}}
					out[k] = f
				}
				f.urls++
				if len(f.values) < maxFamilyValues {
					f.values[t.Value] = true
				}
				s := sig(it.toks, t.Name)
				if c, ok := full[s]; ok && c == it.cluster {
					f.supported = true
				}
				w := t.Name + "\x00" + s
				if c, ok := without[w]; ok && c == it.cluster {
					f.supported = true
				} else if !ok {
					without[w] = it.cluster
				}
			}
		}
	}
	return out
}

// guard keeps the candidates that delete a query parameter on a whole host (wideRules) out of
// the families where the parameter looks identifying (see family.identifying): such a
// candidate is replaced by one per family where a pair supports the deletion, its context
// naming the family's last path segment. phpBB's f= is redundant in viewtopic.php, where pairs
// show it, and names the forum in viewforum.php: "delete f" must not reach viewforum.php even
// when no two validation URLs there happen to meet.
func guard(cands []*candidate, fams map[famKey]*family) []*candidate {
	byParam := map[[2]string][]string{} // host and parameter: last segments of its families
	for k := range fams {
		byParam[[2]string{k.host, k.name}] = append(byParam[[2]string{k.host, k.name}], k.last)
	}
	var out []*candidate
	for _, c := range cands {
		name, ok := wideDeletion(&c.rule)
		if !ok {
			out = append(out, c)
			continue
		}
		host := c.rule.Scope.Host
		lasts := byParam[[2]string{host, name}]
		slices.Sort(lasts)
		if !slices.ContainsFunc(lasts, func(l string) bool { return fams[famKey{host, name, l}].identifying() }) {
			out = append(out, c)
			continue
		}
		for _, l := range lasts {
			if !fams[famKey{host, name, l}].supported {
				continue
			}
			r := c.rule
			r.Context = append(rules.Context{{Key: urlnorm.Key{Part: urlnorm.PartPath, RPos: 1}, Op: rules.Equal, Value: l}}, c.rule.Context...)
			if r.Validate() != nil {
				continue
			}
			cc := *c
			cc.rule, cc.text = r, r.String()
			out = append(out, &cc)
		}
	}
	return out
}

// wideDeletion reports whether r deletes a query parameter whatever its value and wherever the
// path goes, and names the parameter.
func wideDeletion(r *rules.Rule) (string, bool) {
	if len(r.Context) != 1 || len(r.Transform) != 1 {
		return "", false
	}
	c, a := r.Context[0], r.Transform[0]
	if c.Key.Part != urlnorm.PartQuery || c.Op != rules.Any || a.Op != rules.Delete || a.Key != c.Key {
		return "", false
	}
	return c.Key.Name, true
}
