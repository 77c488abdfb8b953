package rules

import (
	"bytes"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// TestPrefilter checks the presence prefilter against the reference matcher, rule by rule: for
// every URL of a set and every rule of the trees the URL is matched in, a rule that matchesSlow
// accepts passes its prefilter and matches, and a rule that passes, matches and whose routing
// conditions (crule.known) hold is one that matchesSlow accepts, so that the conditions the
// prefilter decides are decided right. It also checks every inner node's presence test
// against a lookup. The sets: the learned rules on every 10th dev URL (tier.Step), rules
// generated from the first 3000 dev URLs (10000 in the exhaustive tier) with deep-token
// patterns, and hostile sets with more keys than a mask has bits.
func TestPrefilter(t *testing.T) {
	learned := loadLearned(t)
	dev := loadDev(t, 0)
	step := tier.Step(10)
	var learnedURLs []string
	for i := 0; i < len(dev); i += step {
		learnedURLs = append(learnedURLs, dev[i].URL)
	}
	gd, nrules := loadDev(t, 3000), 600
	if tier.Long() {
		gd, nrules = loadDev(t, 10000), 2000
	}
	gen, err := NewSet(genRules(gd, nrules, 7), &Options{Patterns: learnPatterns(gd)})
	if err != nil {
		t.Fatal(err)
	}
	var genURLs []string
	for _, l := range gd {
		genURLs = append(genURLs, l.URL)
	}
	sets := []struct {
		name string
		s    *Set
		urls []string
	}{
		{"learned", learned, learnedURLs},
		{"generated", gen, genURLs},
	}
	for _, h := range []struct {
		name  string
		rules string
		urls  []string
	}{
		{"distinct keys", hostile.DistinctKeyRules(200), []string{hostile.DistinctKeyURL(200), hostile.DistinctKeyURL(50), "http://h.example/?k70=v&k3=w"}},
		{"distinct segments", hostile.DistinctSegmentRules(200), []string{hostile.DistinctSegmentURL(200), hostile.DistinctSegmentURL(40), hostile.DistinctSegmentURL(3)}},
		{"shared keys", hostile.SharedKeyRules(200), []string{hostile.SharedKeyURL, "http://h.example/a?x=1&d3=2", "http://h.example/b"}},
	} {
		s, err := Load(bytes.NewReader(hostile.RulesFileV1(h.rules)), nil)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, struct {
			name string
			s    *Set
			urls []string
		}{h.name, s, h.urls})
	}
	for _, d := range sets {
		accepted, rejected, gated, early := checkPrefilter(t, d.name, d.s, d.urls)
		t.Logf("%s: %d rules, %d URLs: %d rule checks accepted, %d rejected by the prefilter, %d by a tree's gate; %d trees closed by mayOpen", d.name, d.s.Len(), len(d.urls), accepted, rejected, gated, early)
		if accepted == 0 || rejected == 0 {
			t.Errorf("%s: %d accepted, %d rejected: the test checks nothing", d.name, accepted, rejected)
		}
		if d.name == "learned" && gated == 0 {
			t.Errorf("%s: no tree's gate closed: the test of the gates checks nothing", d.name)
		}
		if d.name == "learned" && early == 0 {
			t.Errorf("%s: mayOpen closed no tree: the test of it checks nothing", d.name)
		}
	}
}

// checkPrefilter is TestPrefilter on set s and urls (keyed first if s has a Key); it returns the
// number of rule checks that the reference accepts, that the prefilter rejects and that the gate
// of the rule's tree rejects (node.opens), which must all be checks that the reference rejects,
// and the number of (URL, tree) pairs that keyTable.mayOpen closes without the mask, each of
// which the gate must close.
func checkPrefilter(t *testing.T, name string, s *Set, urls []string) (accepted, rejected, gated, early int) {
	t.Helper()
	type place struct {
		leaf *node
		j    int
	}
	where := map[int32]place{}
	inner := map[*node]*node{} // inner node -> root
	var root *node
	var walk func(n *node)
	walk = func(n *node) {
		for ; n != nil; n = n.rest {
			if n.leaf != nil {
				if len(n.ents) != len(n.leaf) {
					t.Fatalf("%s: leaf of %d rules has %d prefilters", name, len(n.leaf), len(n.ents))
				}
				for j, i := range n.leaf {
					if e := &n.ents[j]; e.i != i || len(e.check) != len(s.rules[i].check) || len(e.check) > 0 && &e.check[0] != &s.rules[i].check[0] {
						t.Fatalf("%s: leaf entry %d is rule %d with %d checks; the leaf has rule %d with %d", name, j, e.i, len(e.check), i, len(s.rules[i].check))
					}
				}
				for j, i := range n.leaf {
					where[i] = place{n, j}
				}
				continue
			}
			inner[n] = root
			for _, k := range n.kids {
				walk(k.node)
			}
			for _, c := range n.children {
				walk(c)
			}
			walk(n.present)
			walk(n.absent)
		}
	}
	roots := map[*node]bool{}
	for _, m := range []map[string]*node{s.exact, s.domain} {
		for _, r := range m {
			roots[r] = true
			root = r
			walk(r)
		}
	}
	var v view
	for _, u := range urls {
		if s.keyer != nil {
			k, err := s.keyer.Key(u)
			if err != nil {
				continue
			}
			u = k
		}
		if v.load(u, s) != nil {
			continue
		}
		masks := map[*node]uint64{}
		for r := range roots {
			if r.keys != nil {
				masks[r] = r.keys.mask(&v)
			}
		}
		for r := range roots {
			if !r.keys.mayOpen(&v) {
				if r.opens(masks[r]) {
					t.Fatalf("%s: %q: mayOpen closes a tree whose gate %x opens to mask %x", name, u, r.keys.gate, masks[r])
				}
				early++
			}
		}
		for n, root := range inner {
			if n.bit == 0 {
				continue
			}
			_, want := v.lookup(n.key)
			if got := masks[root]&(1<<(n.bit-1)) != 0; got != want {
				t.Fatalf("%s: %q: mask says %v is present %v, lookup %v", name, u, n.key, got, want)
			}
		}
		for i := range s.rules {
			r := &s.rules[i]
			if !r.Scope.Covers(v.host) {
				continue
			}
			p, ok := where[int32(i)]
			if !ok {
				continue // a twin, out of the index
			}
			root := s.domain[r.Scope.Host]
			if !r.Scope.Domain {
				root = s.exact[r.Scope.Host]
			}
			m := v.maskOf(root, s)
			if m != masks[root] {
				t.Fatalf("%s: %q: mask %x, kept %x", name, u, m, masks[root])
			}
			slow := matchesSlow(&r.Rule, &v)
			pass := p.leaf.ents[p.j].pass(m)
			fast := pass && r.matches(&v)
			for j := range min(len(r.Context), 64) {
				if r.known&(1<<j) != 0 {
					val, ok := v.lookupSlow(r.Context[j].Key)
					fast = fast && holds(&r.Context[j], val, ok)
				}
			}
			if fast != slow {
				t.Fatalf("%s: %q: rule %d %v: prefilter %v, match %v; reference %v", name, u, i, r.Rule, pass, fast, slow)
			}
			if slow {
				accepted++
			}
			if !pass {
				rejected++
			}
			if !root.opens(m) {
				if slow {
					t.Fatalf("%s: %q: rule %d %v matches, but the gate %x of its tree is closed to mask %x", name, u, i, r.Rule, root.keys.gate, m)
				}
				gated++
			}
		}
	}
	return accepted, rejected, gated, early
}

// TestPrefilterBits checks the keys that get a bit: their presence follows from the segment
// count or the query alone, positions of paths below maxPathBit.
func TestPrefilterBits(t *testing.T) {
	for _, tc := range []struct {
		k    urlnorm.Key
		want bool
	}{
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "id", Pos: 1}, true},
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "id", Pos: 1, Sub: 2}, false}, // deep: its base's bit
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 3}, true},
		{urlnorm.Key{Part: urlnorm.PartPath, RPos: 2}, true},
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 2, RPos: 2}, true},
		{urlnorm.Key{Part: urlnorm.PartPath}, false},                    // the whole path
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 31}, true},            // below maxPathBit
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 32}, false},           // a table entry per count
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 20, RPos: 13}, false}, // 32 segments
		{urlnorm.Key{Part: urlnorm.PartScheme}, false},                  // lookup finds it in every URL
		{urlnorm.Key{Part: urlnorm.PartHost}, false},
		{urlnorm.Key{Part: urlnorm.PartFragment}, true},
	} {
		if got := bitKey(tc.k); got != tc.want {
			t.Errorf("bitKey(%v) = %v, want %v", tc.k, got, tc.want)
		}
	}
}
