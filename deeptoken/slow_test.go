package deeptoken

import (
	"strings"

	"github.com/undust/undust/urlnorm"
)

// slowSplit is the reference for AppendSplit: it works on unit strings from slowUnits, marks
// selected anchors in a set and finds the child pattern by comparing pattern texts.
func slowSplit(p *Patterns, toks []urlnorm.Token) []urlnorm.Token {
	var out []urlnorm.Token
	for _, t := range toks {
		var root *node
		if p != nil && !t.Bare && t.Sub == 0 && t.RSub == 0 {
			switch {
			case t.Part == urlnorm.PartPath && t.Pos > 0:
				root = p.trees[treeKey{part: urlnorm.PartPath, pos: t.Pos}]
			case t.Part == urlnorm.PartQuery:
				root = p.trees[treeKey{part: urlnorm.PartQuery, name: t.Name}]
			}
		}
		us := slowUnits(t.Value)
		if root == nil || len(us) < 2 {
			out = append(out, t)
			continue
		}
		cur := []span{{a: 0, b: int32(len(us)), star: true}}
		for n := root; len(n.kids) > 0; {
			next, found := slowRefine(n, us, cur)
			if !found {
				break
			}
			text := slowText(us, next)
			var kid *node
			for _, k := range n.kids {
				if string(appendElems(nil, k.elems)) == text {
					kid = k
					break
				}
			}
			if kid == nil {
				break
			}
			n, cur = kid, next
		}
		if len(cur) < 2 {
			out = append(out, t)
			continue
		}
		for i, sp := range cur {
			d := t
			d.Sub, d.RSub = int16(i+1), int16(len(cur)-i)
			d.Value = strings.Join(us[sp.a:sp.b], "")
			out = append(out, d)
		}
	}
	return out
}

func isDelimUnit(u string) bool { return classOf(u[0]) == kindDelim }

func slowDelim(us []string, j int, edge delim) delim {
	switch {
	case j < 0 || j >= len(us):
		return edge
	case isDelimUnit(us[j]):
		return charDelim(us[j])
	}
	return delimChange
}

func slowRefine(n *node, us []string, spans []span) ([]span, bool) {
	var out []span
	found := false
	gap := int32(0)
	for _, sp := range spans {
		if !sp.star {
			out = append(out, sp)
			continue
		}
		var cands []int
		for i := int(sp.a); i < int(sp.b); i++ {
			if !isDelimUnit(us[i]) && len(us) > 1 {
				cands = append(cands, i)
			}
		}
		marked := make(map[int]bool)
		var anchors []int
		for k, i := range cands {
			key := anchorKey{gap: gap, pre: slowDelim(us, i-1, delimStart), post: slowDelim(us, i+1, delimEnd),
				num: classOf(us[i][0]) == kindDigit, value: us[i]}
			poss := []int16{0}
			if k+1 <= maxOrd {
				poss = append(poss, int16(k+1))
			}
			if r := len(cands) - k; r <= maxOrd {
				poss = append(poss, -int16(r))
			}
			for _, key.pos = range poss {
				if _, ok := n.sel[key]; ok && !marked[i] {
					marked[i] = true
					anchors = append(anchors, i)
				}
			}
		}
		for _, i := range anchors {
			found = true
			for _, j := range []int{i - 1, i + 1} {
				if j >= int(sp.a) && j < int(sp.b) && isDelimUnit(us[j]) {
					marked[j] = true
				}
			}
		}
		for i := int(sp.a); i < int(sp.b); {
			if marked[i] {
				out = append(out, span{a: int32(i), b: int32(i + 1)})
				i++
				continue
			}
			j := i
			for j < int(sp.b) && !marked[j] {
				j++
			}
			out = append(out, span{a: int32(i), b: int32(j), star: true})
			i = j
		}
		gap++
	}
	return out, found
}

func slowText(us []string, spans []span) string {
	var parts []string
	for _, sp := range spans {
		if sp.star {
			parts = append(parts, "*")
		} else {
			parts = append(parts, string(appendEscaped(nil, us[sp.a])))
		}
	}
	return strings.Join(parts, " ")
}
