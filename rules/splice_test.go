package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// spliceCounts counts what checkSpliceRefs checked.
type spliceCounts struct {
	calls   int // rewrites by applySplice
	changed int // of them, the URL changed
}

// checkSpliceRefs sets checkSplice to check each rewrite by applySplice against the general
// path (applyRewrite) on a copy of the scratch as it was: the same URL, the same tokens left for
// the next view (which must also be those that urlnorm.Tokenize gives of the URL), the same
// clean and nextOK. The caller resets checkSplice to nil.
func checkSpliceRefs(t testing.TB) *spliceCounts {
	n := new(spliceCounts)
	checkSplice = func(s *Set, sc *scratch, before *view, i int, cur, next string) {
		n.calls++
		mark := len(sc.arena)
		if next != cur {
			n.changed++
			mark -= len(next)
		}
		ref := &scratch{v: *before, inArena: true, arena: slices.Clone(sc.arena[:mark])}
		want, err := s.applyRewrite(ref, i, cur)
		if err != nil || want != next {
			t.Fatalf("rule %v on %q: applySplice gives %q, applyRewrite %q, %v", s.rules[i].Rule, cur, next, want, err)
		}
		if ref.nextOK != sc.nextOK {
			t.Fatalf("rule %v on %q to %q: applySplice nextOK %v, applyRewrite %v", s.rules[i].Rule, cur, next, sc.nextOK, ref.nextOK)
		}
		if next == cur {
			return
		}
		// A rule that rewrite applies to deep tokens (a conversion of each segment's first
		// letter) has its result keyed again: the URL and its tokens are compared.
		if !ref.clean && s.rules[i].wholeOK || !sc.clean {
			t.Fatalf("rule %v on %q to %q: applySplice clean %v, applyRewrite %v", s.rules[i].Rule, cur, next, sc.clean, ref.clean)
		}
		if !slices.Equal(ref.next, sc.next) {
			t.Fatalf("rule %v on %q to %q: applySplice tokens\n%+v\napplyRewrite\n%+v", s.rules[i].Rule, cur, next, sc.next, ref.next)
		}
		toks, err := urlnorm.Tokenize(nil, next)
		if err != nil || !slices.Equal(toks, sc.next) {
			t.Fatalf("rule %v on %q to %q: applySplice tokens\n%+v\nTokenize\n%+v, %v", s.rules[i].Rule, cur, next, sc.next, toks, err)
		}
	}
	return n
}

// TestSpliceLearned checks the rewrites by applySplice of every 10th dev URL (tier.Step; and its
// noRulesURL variant) by the learned set with checkSpliceRefs.
func TestSpliceLearned(t *testing.T) {
	s := loadLearned(t)
	n := checkSpliceRefs(t)
	defer func() { checkSplice = nil }()
	normalizeDev(t, s)
	t.Logf("%d rewrites by applySplice, %d changed the URL", n.calls, n.changed)
	if n.changed == 0 {
		t.Errorf("no URL changed by applySplice: the test checks too little")
	}
}

// TestSpliceGenerated checks applySplice with checkSpliceRefs, the views made of the tokens it
// leaves with checkViews, and Normalize against the reference path, on hand-made URLs (repeated
// query names, a single parameter or segment, a port, upper-case and escaped segments) by
// hand-made deletions and assignments of every token and conversions of the path, with and
// without deep-token patterns, and by random rules (randomRules) on them and on dev URLs.
func TestSpliceGenerated(t *testing.T) {
	urls := []string{
		"http://h.example/a/b/c?a=1&a=2&b=3&a=4&a",
		"http://h.example/a?a&a!=1&a=1&a=2&b&b=&c=1",
		"https://u:p@h.example:8080/a/b/?id=1&id=2&sid=x",
		"http://h.example/",
		"http://h.example/a",
		"http://h.example/a?a=1",
		"http://h.example:81/a/b?a=1&b=2",
		"http://h.example/x/y/z/index.html?a=1&b=2&b=3&b=4",
		"http://h.example/A/b/Cd/e?X=Y#F",
		"http://h.example/a%C3%A9B/Cd/e.HTML/",
		"http://h.example/ab-Cd/E_f-G",
	}
	hands := len(urls)
	step := 839 // 1 dev URL in 839, 120 of them; 1 in 211 in the exhaustive tier
	if tier.Long() {
		step = 211
	}
	for i, l := range loadDev(t, 0) {
		if i%step == 0 {
			urls = append(urls, l.URL)
		}
	}
	path := func(p, r int16) urlnorm.Key { return urlnorm.Key{Part: urlnorm.PartPath, Pos: p, RPos: r} }
	query := func(name string, p int16) urlnorm.Key {
		return urlnorm.Key{Part: urlnorm.PartQuery, Name: name, Pos: p}
	}
	del := func(k urlnorm.Key) Action { return Action{Key: k, Op: Delete} }
	set := func(k urlnorm.Key, v string) Action { return Action{Key: k, Op: Assign, Value: v} }
	conv := func(c Conversion) Action { return Action{Key: wholePath, Op: Convert, Conv: c} }
	scheme, host := urlnorm.Key{Part: urlnorm.PartScheme}, urlnorm.Key{Part: urlnorm.PartHost}
	port, user := urlnorm.Key{Part: urlnorm.PartPort}, urlnorm.Key{Part: urlnorm.PartUserinfo}
	hand := [][]Action{
		{del(query("a", 1))}, {del(query("a", 2))}, {del(query("a", 3))}, {del(query("b", 1))},
		{del(query("c", 1))}, {del(query("sid", 1))}, {del(query("id", 1)), del(query("id", 2))},
		{del(query("a", 1)), del(query("b", 1))}, {del(query("a", 1)), del(query("a", 2)), del(query("a", 3))},
		{del(query("b", 1)), del(query("b", 2)), del(query("b", 3))},
		{del(path(1, 0))}, {del(path(0, 1))}, {del(path(2, 0))}, {del(path(1, 0)), del(path(2, 0))},
		{del(path(1, 0)), del(query("a", 1))}, {del(path(0, 1)), del(query("b", 2))},
		{set(path(1, 0), "x")}, {set(path(0, 1), "a")}, {set(path(1, 0), "ab"), set(path(2, 0), "")},
		{set(path(1, 0), "x"), del(path(2, 0))}, {set(path(1, 0), "x"), del(path(0, 1))},
		{del(path(1, 0)), set(path(0, 1), "a")}, {del(query("a", 1)), del(query("a", 2))}, {set(path(3, 1), "c")},
		{set(scheme, "https")}, {set(scheme, "http")}, {set(scheme, "https"), del(port)},
		{set(host, "g.example"), del(port), del(user)}, {set(host, "h.example")},
		{set(scheme, "http"), set(host, "g.example"), del(port), del(user), set(path(1, 0), "m"), del(path(2, 0))},
		{del(port)}, {del(user)}, {del(urlnorm.Key{Part: urlnorm.PartFragment})},
		{conv(Lower)}, {conv(Upper)}, {conv(LowerFirst)}, {conv(Lower), del(path(1, 0))},
	}
	n := checkSpliceRefs(t)
	defer func() { checkSplice = nil }()
	check := func(u string, rs []Rule, pat Patterns) {
		opts := &Options{Key: urlnorm.Crawler}
		if pat != nil {
			opts.Patterns = map[string]Patterns{"h.example": pat}
		}
		s, err := NewSet(rs, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkViews(t, s)
		fast, ferr := s.Normalize(u)
		checkTokenView = nil
		ref, rerr := s.normalizeRef(u)
		if fast != ref || fmt.Sprint(ferr) != fmt.Sprint(rerr) {
			t.Fatalf("Normalize(%q) = %q, %v; reference %q, %v\nrules:\n%v", u, fast, ferr, ref, rerr, rs)
		}
	}
	for _, u := range urls[:hands] {
		for _, acts := range hand {
			check(u, []Rule{{Scope: Scope{Host: "h.example"}, Transform: acts}}, nil)
			// Deep tokens: a first letter after a "-" is one that LowerFirst converts.
			check(u, []Rule{{Scope: Scope{Host: "h.example"}, Transform: acts}}, &splitter{seps: "-_."})
		}
	}
	rng := rand.New(rand.NewPCG(23, 0))
	for _, u := range urls {
		k, err := urlnorm.New(urlnorm.Crawler).Key(u)
		if err != nil {
			continue
		}
		toks, _ := urlnorm.Tokenize(nil, k)
		host := tokensHost(toks)
		for range 40 {
			seed := make([]byte, 64)
			for i := range seed {
				seed[i] = byte(rng.Uint32())
			}
			check(u, randomRules(&byteSource{b: seed}, host, toks), nil)
		}
	}
	t.Logf("%d rewrites by applySplice, %d changed the URL", n.calls, n.changed)
	if n.changed < 100 {
		t.Errorf("%d URLs changed by applySplice: the test checks too little", n.changed)
	}
}
