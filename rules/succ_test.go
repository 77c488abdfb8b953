package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// cleanRewrite returns the URL that rule i writes of the URL in v when the rewrite takes apply's
// keyClean path (its tokens are the rewritten ones), and false if it does not.
func cleanRewrite(s *Set, v *view, i int) (string, bool) {
	r := &s.rules[i]
	var sc scratch
	if !s.tokenKey || !r.wholeOK || !rewrite(r, v, &sc, true) || !keyClean(v.whole, sc.next, sc.ins) {
		return "", false
	}
	u := string(urlnorm.AppendJoin(nil, sc.joined))
	if len(u) > urlnorm.DefaultMaxLength {
		return "", false
	}
	return u, true
}

// succStats counts what checkSuccessors saw.
type succStats struct {
	pairs    int // (rule, URL) pairs whose clean rewrite was checked against a successor list
	full     int // pairs whose rule has too many successors (the index is walked)
	empty    int // pairs whose rule has no successor (the URL is final)
	ents     int // successors over the pairs with a list
	matched  int // pairs whose rewritten URL a rule matches
	excluded int // rules that a list left out and that the reference found not matching
	final    int // pairs whose rewritten URL is known final before its view (Set.final)
}

// checkSuccessors checks, for every rule i that matches the key u (not only the first: every
// rule's list must hold) and rewrites it on the keyClean path, that every rule that matches the
// rewritten URL is in i's successors, and that a successor's entry (what it checks, what it
// takes as known) gives what the reference matcher gives.
func checkSuccessors(t *testing.T, s *Set, u string, st *succStats, all bool) {
	t.Helper()
	var v, w view
	if v.load(u, s) != nil {
		return
	}
	for i := range s.rules {
		if !matchesSlow(&s.rules[i].Rule, &v) {
			continue
		}
		if !all && i != s.matchSlow(&v, 0) {
			continue
		}
		out, ok := cleanRewrite(s, &v, i)
		if !ok || w.load(out, s) != nil {
			continue
		}
		st.pairs++
		l := &s.succ[i]
		if l.full {
			st.full++
			continue
		}
		if len(l.ents) == 0 {
			st.empty++
		}
		st.ents += len(l.ents)
		if s.final(l, w.whole) {
			st.final++
			if s.matchSlow(&w, 0) >= 0 {
				t.Fatalf("%q, which rule %d wrote, is taken as final, but rule %d matches it", out, i, s.matchSlow(&w, 0))
			}
		}
		if s.matchSlow(&w, 0) >= 0 {
			st.matched++
		}
		k := 0
		for j := range s.rules {
			m := matchesSlow(&s.rules[j].Rule, &w)
			for k < len(l.ents) && int(l.ents[k].j) < j {
				k++
			}
			in := k < len(l.ents) && int(l.ents[k].j) == j
			if !in {
				if m && !isTwin(s, j) {
					t.Fatalf("rule %d (%v) matches %q, which rule %d (%v) wrote of %q, but is not among its successors", j, s.Rule(j), out, i, s.Rule(i), u)
				}
				st.excluded++
				continue
			}
			if got := s.matchSucc(&w, l.ents[k:k+1], 0) == 0; got != m {
				t.Fatalf("successor %d (%v) of rule %d (%v): matchSucc on %q = %v, reference %v", j, s.Rule(j), i, s.Rule(i), out, got, m)
			}
		}
	}
}

// isTwin reports whether rule j is equal to a rule before it (never the first that matches).
func isTwin(s *Set, j int) bool {
	for _, ts := range s.twins {
		if slices.Contains(ts, int32(j)) {
			return true
		}
	}
	return false
}

// TestSuccessorsLearned checks the successors of the learned rules on the dev URLs (every rule
// that matches each URL, and the chains of first rules as Normalize takes them), and logs how
// often a rewrite by the first rule finds a list, an empty one, and a rule that matches again.
func TestSuccessorsLearned(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	step := tier.Step(20)
	var every, first succStats
	hist := map[int]int{}
	for i := 0; i < len(ls); i += step {
		k, err := s.keyer.Key(ls[i].URL)
		if err != nil {
			continue
		}
		if i%10 == 0 {
			checkSuccessors(t, s, k, &every, true)
		}
		// The chain of first rules, each rewrite on the keyClean path.
		var v view
		for cur, n := k, 0; n <= s.maxRw && v.load(cur, s) == nil; n++ {
			j := s.matchSlow(&v, 0)
			if j < 0 {
				break
			}
			before := first
			checkSuccessors(t, s, cur, &first, false)
			if first.pairs == before.pairs {
				break
			}
			if !s.succ[j].full {
				hist[len(s.succ[j].ents)]++
			}
			next, _ := cleanRewrite(s, &v, j)
			if next == cur {
				break
			}
			cur = next
		}
	}
	full, empty, sum := 0, 0, 0
	for i := range s.succ {
		switch l := &s.succ[i]; {
		case l.full:
			full++
		case len(l.ents) == 0:
			empty++
		default:
			sum += len(l.ents)
		}
	}
	t.Logf("%d rules: %d with too many successors (more than %d, or more than %d not of every host), %d with none, %.2f on average for the others",
		len(s.rules), full, maxSucc, maxSuccLocal, empty, float64(sum)/float64(max(len(s.rules)-full-empty, 1)))
	t.Logf("every rule that matches a URL: %+v", every)
	t.Logf("the first rule, chained: %+v; list sizes %v", first, hist)
	if every.pairs == 0 || first.pairs == 0 || first.pairs == first.full {
		t.Errorf("no successor list checked: the test checks nothing")
	}
}

// succURLs are URLs for generated rules: paths of several segments and empty ones, repeated
// query names, deep-splittable values.
var succURLs = []string{
	"http://h.example/a/b/c?s=1&s=2&x=y",
	"https://h.example/a/b/",
	"http://h.example/",
	"http://h.example/a",
	"http://www.example.com/a/index.html?id=1&sid=x",
	"https://shop.example.com/A-b/c_d.html?a=1&a=2&b",
	"http://h.example/x/y/z/w?id=a-b&id=c",
	"http://m.example.com/a/a/a?a=a",
	"http://other.example/b/a?x=1",
}

// TestNormalizeSuccGenerated compares Normalize with the reference on generated rule sets of a
// set with a Key (whose rewrites take the successor lists), with and without deep-token
// patterns, and checks every successor list on their URLs.
func TestNormalizeSuccGenerated(t *testing.T) {
	urls := slices.Clone(succURLs)
	for _, l := range loadSample(t) {
		urls = append(urls, l.URL)
	}
	urls = append(urls, hostile.DistinctSegmentURL(6), hostile.DistinctKeyURL(6))
	rng := rand.New(rand.NewPCG(17, 3))
	sets := 5000
	if testing.Short() {
		sets = 1000
	}
	var st succStats
	var rewritten, cycles, limits int
	seed := make([]byte, 48)
	for n := range sets {
		u := urls[n%len(urls)]
		toks, err := urlnorm.Tokenize(nil, u)
		if err != nil {
			t.Fatal(err)
		}
		host := tokensHost(toks)
		for i := range seed {
			seed[i] = byte(rng.IntN(256))
		}
		src := &byteSource{b: seed}
		rs := randomRules(src, host, toks)
		opts := Options{Key: urlnorm.Crawler}
		if n%3 == 0 {
			opts.Patterns = map[string]Patterns{host: &splitter{seps: "-_."}}
		}
		s, err := NewSet(rs, &opts)
		if err != nil {
			t.Fatal(err)
		}
		fast, ferr := s.Normalize(u)
		slow, serr := s.normalizeSlow(u)
		if fast != slow || fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("Normalize(%q) = %q, %v; reference %q, %v\nrules:\n%v", u, fast, ferr, slow, serr, rs)
		}
		k, kerr := s.keyer.Key(u)
		if kerr != nil {
			continue
		}
		if fast != k {
			rewritten++
		}
		switch {
		case errors.Is(ferr, ErrCycle):
			cycles++
		case errors.Is(ferr, ErrRewriteLimit):
			limits++
		}
		checkSuccessors(t, s, k, &st, true)
	}
	t.Logf("%d sets: %d URLs rewritten, %d cycles, %d rewrite limits; successor lists: %+v", sets, rewritten, cycles, limits, st)
	if rewritten == 0 || st.pairs == st.full || st.excluded == 0 || !testing.Short() && (cycles == 0 || limits == 0) {
		t.Errorf("the generated sets do not exercise the successor lists")
	}
}

// TestSuccessorsHand checks the successors of hand-written rules: those that the facts of a
// rule's output exclude, and those that must stay; and Normalize and AppendNormalize of each
// case's URLs against the reference path with the linear scan (checkFastSeq: the references
// first, then each fast function over the URLs back to back).
func TestSuccessorsHand(t *testing.T) {
	const h = `host=h.example cov=1 prec=1 sup=1 `
	tests := []struct {
		name       string
		rule       string // the rule whose successors are checked
		stay, drop []string
		urls       []string // Normalize equals the reference on them
	}{
		{
			name: "assigned path value",
			urls: []string{"http://h.example/a"},
			rule: `if path(1,-)="a" path(2,-)=- then path(1,-)="b"`,
			stay: []string{`if path(1,-)="b" then path(1,-)="c"`, `if path(-,1)=* then query("x")=-`},
			drop: []string{`if path(1,-)="a" then path(1,-)="c"`, `if path(2,-)=* then path(2,-)=-`, `if path(1,2)=* then path(1,-)="d"`},
		},
		{
			name: "other host",
			urls: []string{"http://h.example/a"},
			rule: `if path(1,-)="a" then path(1,-)="b"`,
			stay: []string{`if path(1,-)="b" then path(1,-)="c"`},
			drop: []string{"host=other.example cov=1 prec=1 sup=1 if path(1,-)=* then path(1,-)=\"c\""},
		},
		{
			// Deleting the first s leaves the second in its place.
			name: "deleted query occurrence",
			urls: []string{"http://h.example/p?s=1&s=x", "http://h.example/p?s=1&s=2&s=3"},
			rule: `if query("s")=* then query("s")=-`,
			stay: []string{`if query("s")=* then query("t")="1"`, `if query("s")="x" then query("t")=-`},
		},
		{
			name: "deleted query, no second occurrence",
			urls: []string{"http://h.example/p?s=1"},
			rule: `if query("s")=* query("s",2)=- then query("s")=-`,
			drop: []string{`if query("s")=* then query("t")="1"`},
		},
		{
			// The last segment deleted of a path of exactly two: one segment is left.
			name: "deleted segment, exact path",
			urls: []string{"http://h.example/p/"},
			rule: `if path(-,1)="" path(2,-)="" path(1,-)="p" path(3,-)=- then path(-,1)=-`,
			stay: []string{`if path(1,1)="p" then query("t")="1"`, `if path(-,1)=* path(2,-)=- then query("t")="2"`},
			drop: []string{`if path(2,-)=* then path(2,-)=-`, `if path(-,2)=* then path(-,2)=-`, `if path(-,1)="" then query("t")="3"`},
		},
		{
			// The number of segments is not known: a deletion leaves every path key unknown.
			name: "deleted segment, unknown path",
			urls: []string{"http://h.example/q/x/x", "http://h.example/q/x"},
			rule: `if path(2,-)="x" then path(1,-)=-`,
			stay: []string{`if path(1,-)="x" then query("t")="1"`, `if path(2,-)="x" then query("t")="2"`, `if path(-,2)=* then query("t")="3"`},
		},
		{
			// A segment inserted at the front shifts every other.
			name: "inserted segment",
			urls: []string{"http://h.example/a"},
			rule: `if path(1,-)="a" path(2,-)=- then path(1,-)+="z"`,
			stay: []string{`if path(1,-)="z" path(2,-)="a" then query("t")="1"`},
			drop: []string{`if path(1,-)="a" then query("t")="2"`, `if path(3,-)=* then query("t")="3"`},
		},
		{
			name: "lower-cased path",
			urls: []string{"http://h.example/A"},
			rule: `if path(1,-)="A" path(2,-)=- then path(-,-)=lower`,
			stay: []string{`if path(1,-)="a" then query("t")="1"`},
			drop: []string{`if path(1,-)="A" then query("t")="2"`},
		},
		{
			// A segment replaced at the end: a key from the start may address it.
			name: "replaced segment, unknown path",
			urls: []string{"http://h.example/a", "http://h.example/a/a"},
			rule: `if path(-,1)="a" then path(-,1)="b"`,
			stay: []string{`if path(1,-)="a" then query("t")="1"`, `if path(-,1)="b" then query("t")="2"`},
			drop: []string{`if path(-,1)="a" then query("t")="3"`},
		},
		{
			name: "copied value",
			urls: []string{"http://h.example/A?q=Y"},
			rule: `if path(1,-)="A" path(2,-)=- query("q")="Y" then path(1,-)=lower(@query("q"))`,
			stay: []string{`if path(1,-)="y" then query("t")="1"`},
			drop: []string{`if path(1,-)="Y" then query("t")="2"`, `if path(1,-)="A" then query("t")="3"`},
		},
		{
			name: "changed host",
			urls: []string{"http://h.example/a"},
			rule: `if path(1,-)="a" then host="b.example"`,
			stay: []string{"host=b.example cov=1 prec=1 sup=1 if path(1,-)=* then path(1,-)=\"c\""},
			drop: []string{`if path(1,-)="a" then path(1,-)="c"`},
		},
		{
			name: "deep token",
			urls: []string{"http://h.example/a-b?x=1"},
			rule: `if path(1,-)="a-b" path(2,-)=- query("x",2)=- then query("x")=-`,
			stay: []string{`if path(1.1,-)="a" then query("t")="1"`, `if path(1.2,-)=* then query("t")="2"`},
			drop: []string{`if path(1.1,-)=* query("x")=* then query("t")="3"`},
		},
	}
	for _, tt := range tests {
		lines := []string{h + tt.rule}
		for _, r := range append(slices.Clone(tt.stay), tt.drop...) {
			if !strings.HasPrefix(r, "host=") {
				r = h + r
			}
			lines = append(lines, r)
		}
		s := mustSet(t, &Options{Key: urlnorm.Crawler, Patterns: map[string]Patterns{"h.example": &splitter{seps: "-"}}}, lines...)
		// A rule's text in the set (its conditions in the set's order).
		canon := func(r string) string {
			if !strings.HasPrefix(r, "host=") {
				r = h + r
			}
			return mustSet(t, nil, r).rules[0].String()
		}
		i := slices.IndexFunc(s.rules, func(r crule) bool { return r.String() == canon(tt.rule) })
		l := &s.succ[i]
		if l.full {
			t.Errorf("%s: rule %v has too many successors", tt.name, s.Rule(i))
			continue
		}
		in := func(r string) bool {
			want := canon(r)
			return slices.ContainsFunc(l.ents, func(e succ) bool { return s.rules[e.j].String() == want })
		}
		for _, r := range tt.stay {
			if !in(r) {
				t.Errorf("%s: %s is not a successor of %s", tt.name, r, tt.rule)
			}
		}
		for _, r := range tt.drop {
			if in(r) {
				t.Errorf("%s: %s is a successor of %s", tt.name, r, tt.rule)
			}
		}
		want := refResults(tt.urls, s.normalizeSlow)
		checkFastSeq(t, tt.name, s, tt.urls, want, s.normalizeSlow)
	}
}

// TestLinearSuccessors builds the successors of rules whose outputs exclude every other rule,
// which a check of every pair of rules would take quadratic time over.
func TestLinearSuccessors(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	sizes := []int{1 << 10, 1 << 11, 1 << 12}
	sets := ruleSets(t, sizes, hostile.ExclusiveRules)
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		s, err := NewSet(sets[n], &Options{Key: urlnorm.Crawler})
		if err != nil || s.succ == nil {
			t.Fatal(err)
		}
		return 0
	})
}
