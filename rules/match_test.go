package rules

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// TestFastMatchesSlow checks that the fast path (indexed matcher) and the reference path with the
// linear scan (normalizeSlow) normalize every URL of a data set alike, with rules generated from
// the same data: the references first, then Normalize and AppendNormalize each over the data set
// back to back, in its order (a site's URLs together), so that each call meets what the one before
// left in the set's scratch.
func TestFastMatchesSlow(t *testing.T) {
	type dataSet struct {
		name  string
		urls  []Labeled
		rules int
	}
	sets := []dataSet{{"sample", loadSample(t), 0}}
	switch {
	case tier.Long():
		sets = append(sets, dataSet{"dev", loadDev(t, 10000), 2000}, dataSet{"dev-all", loadDev(t, 0), 10000})
	case !testing.Short():
		sets = append(sets, dataSet{"dev", loadDev(t, 3000), 600})
	}
	for _, d := range sets {
		rs := genRules(d.urls, d.rules, 7)
		s, err := NewSet(rs, &Options{Patterns: learnPatterns(d.urls)})
		if err != nil {
			t.Fatal(err)
		}
		seq := make([]string, len(d.urls))
		for i, l := range d.urls {
			seq[i] = l.URL
		}
		want := refResults(seq, s.normalizeSlow)
		changed := 0
		for i, u := range seq {
			if want[i].out != u {
				changed++
			}
		}
		checkFastSeq(t, d.name, s, seq, want, s.normalizeSlow)
		t.Logf("%s: %d rules, %d of %d URLs rewritten", d.name, s.Len(), changed, len(d.urls))
		if changed == 0 {
			t.Errorf("%s: no URL rewritten: the test checks nothing", d.name)
		}
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	s := mustSet(t, nil,
		`host=h.example cov=1 prec=1 sup=1 if query("sid")=* then query("sid")=-`,
		`host=h.example cov=1 prec=1 sup=1 if path(1,-)="old" then path(1,-)="new"`,
	)
	tests := []struct {
		in   string
		max  float64
		desc string
	}{
		{"http://other.example/a?sid=1", 0, "host without rules"},
		{"http://h.example/a?x=1", 0, "no rule matches"},
		{"http://h.example/a?sid=1", 1, "one rewrite"},
		{"http://h.example/old?sid=1", 1, "two rewrites"},
	}
	for _, tt := range tests {
		s.Normalize(tt.in) // warm the pool
		n := testing.AllocsPerRun(200, func() { s.Normalize(tt.in) })
		if n > tt.max {
			t.Errorf("Normalize(%q) (%s): %v allocs, want <= %v", tt.in, tt.desc, n, tt.max)
		}
	}
	// A set with a Key: a URL whose key the rules leave as it is costs no allocation with
	// AppendNormalize, nor with Normalize when the URL is its own key; a rewritten URL one
	// (the result).
	k := mustSet(t, &Options{Key: urlnorm.Crawler},
		`host=h.example cov=1 prec=1 sup=1 if query("sid")=* then query("sid")=-`,
		`host=h.example cov=1 prec=1 sup=1 if path(1,-)="old" then path(1,-)="new"`,
		`host=* cov=1 prec=1 sup=1 if query("ref")=* then query("ref")=-`,
	)
	keyed := []struct {
		in             string
		norm, appended float64
		desc           string
	}{
		{"http://other.example/a?x=1", 0, 0, "host without rules, its own key"},
		{"HTTP://other.example/a?x=1#f", 1, 0, "host without rules, keyed"},
		{"http://h.example/a?x=1", 0, 0, "no rule matches"},
		{"http://other.example/a?ref=1", 1, 0, "a rule of every host"},
		{"http://h.example/old?sid=1", 1, 0, "two rewrites"},
	}
	buf := make([]byte, 0, 256)
	for _, tt := range keyed {
		k.Normalize(tt.in)
		if n := testing.AllocsPerRun(200, func() { k.Normalize(tt.in) }); n > tt.norm {
			t.Errorf("Key set: Normalize(%q) (%s): %v allocs, want <= %v", tt.in, tt.desc, n, tt.norm)
		}
		if n := testing.AllocsPerRun(200, func() { buf, _ = k.AppendNormalize(buf[:0], tt.in) }); n > tt.appended {
			t.Errorf("Key set: AppendNormalize(%q) (%s): %v allocs, want <= %v", tt.in, tt.desc, n, tt.appended)
		}
	}
}

// TestLearnedFastRef checks the fast path against the reference path (a string per URL met, each
// rewrite canonicalized from a fresh string), on every 10th dev URL (dev-urls.tsv.gz; tier.Step)
// and its variant on a host without rules (noRulesURL), in the file's order (a site's URLs
// together), with the rules learned from them (dev-rules.txt.gz). The references come first, those
// of every 10th dev URL also checked against the reference matcher (normalizeSlow); then Normalize runs over the
// whole sequence back to back, then AppendNormalize, so that each call meets what the call before
// it left in the set's scratch (the host's trees, the splits the view's Splitter remembers), as in
// a crawler's queue; then the reference path again, each URL's right after Normalize of the URL
// before it, taking the scratch that Normalize gave back (checkFastSeq). It also checks that mayMatch turns away no key
// that a rule matches.
func TestLearnedFastRef(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	step := tier.Step(10)
	var seq []string
	for i := 0; i < len(ls); i += step {
		seq = append(seq, ls[i].URL, noRulesURL(ls[i].URL))
	}
	want := refResults(seq, s.normalizeRef)
	changed, filtered := 0, 0
	for i, u := range seq {
		if i/2*step%10 == 0 { // every 10th dev URL and its variant
			slow, serr := s.normalizeSlow(u)
			if w := want[i]; !w.same(refResult{slow, serr}) {
				t.Fatalf("normalizeRef(%q) = %q, %v; reference matcher %q, %v", u, w.out, w.err, slow, serr)
			}
		}
		k, err := s.keyer.Key(u)
		if err != nil {
			continue
		}
		if want[i].out != k {
			changed++
		}
		if !s.mayMatch(k) {
			filtered++
			var v view
			if v.load(k, s) == nil && s.matchSlow(&v, 0) >= 0 {
				t.Fatalf("mayMatch(%q) = false, but rule %v matches it", k, s.Rule(s.matchSlow(&v, 0)))
			}
		}
	}
	checkFastSeq(t, "dev", s, seq, want, s.normalizeRef)
	t.Logf("%d rules: %d URLs rewritten, %d turned away by mayMatch", s.Len(), changed, filtered)
	if changed == 0 || filtered == 0 {
		t.Errorf("%d URLs rewritten, %d turned away by mayMatch: the test checks nothing", changed, filtered)
	}
}

func TestConcurrent(t *testing.T) {
	urls := loadSample(t)
	s, err := NewSet(genRules(urls, 0, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(urls))
	for i, l := range urls {
		want[i], _ = s.Normalize(l.URL)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range urls {
				j := (i + g*37) % len(urls)
				if got, _ := s.Normalize(urls[j].URL); got != want[j] {
					t.Errorf("concurrent Normalize(%q) = %q, want %q", urls[j].URL, got, want[j])
				}
			}
		})
	}
	wg.Wait()
}

func TestNewSetErrors(t *testing.T) {
	good := mustRule(t, `host=h.example cov=1 prec=1 sup=1 if then port=-`)
	bad := good
	bad.Transform = Transformation{{Key: hostKey, Op: Delete}}
	_, err := NewSet([]Rule{good, bad}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Op != "rule 1" || !errors.Is(err, ErrInvalidRule) {
		t.Errorf("NewSet(bad) error %v, want rule 1 wrapping ErrInvalidRule", err)
	}
	// NewSet copies: changing the caller's rule afterwards does not change the set.
	rs := []Rule{mustRule(t, `host=h.example cov=1 prec=1 sup=1 if path(1,-)="a" then path(1,-)="b"`)}
	s, _ := NewSet(rs, nil)
	rs[0].Transform[0].Value = "zzz"
	if got, _ := s.Normalize("http://h.example/a"); got != "http://h.example/b" {
		t.Errorf("set changed with the caller's rule: %q", got)
	}
}

// learnPatterns learns deep-token patterns per host with package deeptoken.
func learnPatterns(ls []Labeled) map[string]Patterns {
	byHost := map[string][]string{}
	for _, l := range ls {
		if toks, err := urlnorm.Tokenize(nil, l.URL); err == nil {
			for _, t := range toks {
				if t.Part == urlnorm.PartHost {
					byHost[t.Value] = append(byHost[t.Value], l.URL)
				}
			}
		}
	}
	m := map[string]Patterns{}
	for h, us := range byHost {
		if p := deeptoken.Learn(slices.Values(us), deeptoken.Options{}); p.Len() > 0 {
			m[h] = p
		}
	}
	return m
}

// TestKeyCleanFastRef checks rewrites whose result is or is not its own key, with a set that
// has a Key, against the reference path, which keys every rewritten URL from its text; and
// keyClean's verdict against that of urlnorm.
func TestKeyCleanFastRef(t *testing.T) {
	tests := []struct {
		rule, in string
	}{
		{`if path(1,-)="a" then path(1,-)="b"`, "http://h.example/a?x=1"},                   // plain: no new key
		{`if path(1,-)="a" then path(1,-)="%7euser"`, "http://h.example/a"},                 // decodes to ~user
		{`if path(1,-)="a" then path(1,-)="."`, "http://h.example/a/b"},                     // dot segment
		{`if path(1,-)="a" then path(1,-)=".."`, "http://h.example/a/b"},                    // dot segment
		{`if path(1,-)="a" then path(1,-)="A B"`, "http://h.example/a"},                     // escaped
		{`if path(1,-)="a" then path(1,-)="x;jsessionid=1"`, "http://h.example/a"},          // session id cut
		{`if path(1,-)="a" then path(1,-)="index.html"`, "http://h.example/a"},              // no DropIndex in Crawler
		{`if path(1,-)="a" then path(1,-)=upper`, "http://h.example/a/b"},                   // conversion, plain
		{`if path(1,-)="a" then path(2,-)+=@query("x")`, "http://h.example/a?x=1%2F2"},      // copied escape
		{`if path(1,-)="a" then host="Other.Example"`, "http://h.example/a"},                // lower-cased
		{`if path(1,-)="a" then host="other.example."`, "http://h.example/a"},               // trailing dot
		{`if path(1,-)="a" then host="1.2.3.4"`, "http://h.example/a"},                      // IPv4
		{`if path(1,-)="a" then host="0x7f.1"`, "http://h.example/a"},                       // IPv4 in hex
		{`if path(1,-)="a" then host="a.0x1f"`, "http://h.example/a"},                       // ends in a number
		{`if path(1,-)="a" then host="xn--nxasmq6b.example"`, "http://h.example/a"},         // punycode
		{`if path(1,-)="a" then host="b.example"`, "http://h.example/a"},                    // plain host
		{`if path(1,-)="a" then scheme="https"`, "http://h.example:443/a"},                  // port becomes default
		{`if path(1,-)="a" then scheme="https" port=-`, "http://h.example:8080/a"},          // plain
		{`if path(1,-)="a" then query("b")=-`, "http://h.example/a?a=1&b=2&c=3"},            // delete keeps order
		{`if path(1,-)="a" then query("a")="9"`, "http://h.example/a?a=1&b=2"},              // value set: keyed again
		{`if path(1,-)="a" then query("a")=""`, "http://h.example/a?a=1&b=2"},               // empty value dropped
		{`if path(1,-)="a" then query("sid")="0a1b2c3d4e5f6a7b8c9d"`, "http://h.example/a"}, // a session id
		{`if path(1,-)="a" then query("0")="x"`, "http://h.example/a?b=1"},                  // added out of order
		{`if path(1,-)="a" then path(1,-)=- path(2,-)=-`, "http://h.example/a/b"},           // whole path deleted
		{`if path(1,-)="a" then port=- userinfo=-`, "http://u:p@h.example:81/a"},            // deletions
		// Plain, but longer than a key may be: the key writer refuses it.
		{`if path(1,-)="a" then path(1,-)="` + strings.Repeat("x", 1000) + `"`, "http://h.example/a/" + strings.Repeat("b", 7600)},
	}
	for _, tt := range tests {
		s := mustSet(t, &Options{Key: urlnorm.Crawler}, `host=h.example cov=1 prec=1 sup=1 `+tt.rule)
		checkViews(t, s)
		checkEditRefs(t)
		fast, ferr := s.Normalize(tt.in)
		checkTokenView, checkEdits = nil, nil
		ref, rerr := s.normalizeRef(tt.in)
		if fast != ref || fmt.Sprint(ferr) != fmt.Sprint(rerr) {
			t.Errorf("rule %s: Normalize(%q) = %q, %v; reference %q, %v", tt.rule, tt.in, fast, ferr, ref, rerr)
		}
		if k, err := s.keyer.Key(fast); ferr == nil && (err != nil || k != fast) {
			t.Errorf("rule %s: Normalize(%q) = %q, whose key is %q, %v", tt.rule, tt.in, fast, k, err)
		}
	}
	// keyClean against urlnorm: every token a plainSegment or plainHost passes is kept by the
	// key as it is.
	for _, seg := range []string{"a", "~", "a.b", "...", "A-Z_0", "%41", ".", "..", "a b", "é", "a;b", "(x)"} {
		u := "http://h.example/" + seg + "/x"
		k, err := urlnorm.New(urlnorm.Crawler).Key(u)
		if plainSegment(seg) && (err != nil || k != u) {
			t.Errorf("plainSegment(%q) = true, but the key of %q is %q, %v", seg, u, k, err)
		}
	}
	for _, h := range []string{"a.example", "a-b.c", "0x1.example", "a.0x1", "1.2.3.4", "a.1", "ab--c.example", "xn--a.example", "A.example", "a..b", "-a.example", "a.example."} {
		u := "http://" + h + "/"
		k, err := urlnorm.New(urlnorm.Crawler).Key(u)
		if plainHost(h) && (err != nil || k != u) {
			t.Errorf("plainHost(%q) = true, but the key of %q is %q, %v", h, u, k, err)
		}
	}
}

// TestLearnedDeepLookup checks lookup against the scan (lookupSlow) for every deep key that a
// learned rule reads and its variants (the other end's index, a position past the end), in the
// keys of the dev URLs.
func TestLearnedDeepLookup(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	var keys []urlnorm.Key
	seen := map[urlnorm.Key]bool{}
	add := func(k urlnorm.Key) {
		if (k.Sub != 0 || k.RSub != 0) && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for i := range s.Len() {
		r := s.Rule(i)
		for _, c := range r.Context {
			add(c.Key)
		}
		for _, a := range r.Transform {
			add(a.Key)
			add(a.From)
		}
	}
	for _, k := range slices.Clone(keys) {
		k.Sub, k.RSub = k.RSub, k.Sub
		add(k)
		k.Sub, k.RSub = 9, 0
		add(k)
	}
	if len(keys) == 0 {
		t.Fatal("no deep keys in the learned rules")
	}
	step := tier.Step(10)
	found := 0
	// The fast lookups and the scans go to views of their own: a scan splits the whole URL,
	// after which lookup reads the whole split, not the token it splits alone. v is reused from
	// URL to URL, as in a Normalize call, with the token it split last.
	var v, w view
	for i := 0; i < len(ls); i += step {
		k, err := s.keyer.Key(ls[i].URL)
		if err != nil || v.load(k, s) != nil || w.load(k, s) != nil {
			continue
		}
		for _, dk := range keys {
			gv, gok := v.lookup(dk)
			wv, wok := w.lookupSlow(dk)
			if gv != wv || gok != wok {
				t.Fatalf("lookup(%v) in %q = %q, %v; the scan gives %q, %v", dk, k, gv, gok, wv, wok)
			}
			if gok {
				found++
			}
		}
	}
	t.Logf("%d deep keys, %d found", len(keys), found)
	if found == 0 {
		t.Error("no deep key found: the test checks nothing")
	}
}

// TestTokenViewLearned checks that every view normalizeFast builds from the tokens apply left
// (the rewritten tokens renumbered, or urlnorm's key tokens) equals the view of the URL they
// spell, tokenized, for every URL met in normalizing the dev URLs and their noRulesURL variants
// (normalizeDev) with the learned set.
func TestTokenViewLearned(t *testing.T) {
	s := loadLearned(t)
	built := checkViews(t, s)
	defer func() { checkTokenView = nil }()
	normalizeDev(t, s)
	t.Logf("%d views built from tokens", *built)
	if *built == 0 {
		t.Error("no view built from tokens: the test checks nothing")
	}
}

// checkViews sets checkTokenView to check each view built from tokens against the view of the
// URL tokenized, with set s, and returns the count of views it checks. The caller resets
// checkTokenView to nil.
func checkViews(t *testing.T, s *Set) *int {
	built := new(int)
	var w view
	checkTokenView = func(v *view, u string) {
		*built++
		// u is in the call's arena, which the next call overwrites: w must not take the host
		// of the URL before for that of u.
		w.treesSet = nil
		if err := w.load(u, s); err != nil {
			t.Fatalf("a view was built from tokens of %q, which does not tokenize: %v", u, err)
		}
		if !sameView(v, &w) {
			t.Fatalf("view of %q built from tokens:\n%+v\ntokenized:\n%+v", u, v.whole, w.whole)
		}
	}
	return built
}

// sameView reports whether the views v and w have the same tokens and index.
func sameView(v, w *view) bool {
	return slices.Equal(v.whole, w.whole) && v.host == w.host && v.hostAt == w.hostAt &&
		v.pathStart == w.pathStart && v.nseg == w.nseg && v.queryAt == w.queryAt &&
		slices.Equal(v.byName, w.byName) && v.hostTree == w.hostTree && slices.Equal(v.doms, w.doms) &&
		v.pat == w.pat && v.hostHas == w.hostHas && v.split == w.split && v.deepDone == w.deepDone
}

// TestJoinedTokens checks appendJoined against urlnorm.AppendJoin (the URL it writes) and
// urlnorm.Tokenize of that URL (its tokens), of rewritten tokens: deleted (Part 0), set and
// inserted tokens, in any order of parts.
func TestJoinedTokens(t *testing.T) {
	tok := func(p urlnorm.Part, v string) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: p}, Value: v}
	}
	seg := func(pos, rpos int16, v string) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: pos, RPos: rpos}, Value: v}
	}
	par := func(name string, pos int16, v string, bare bool) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: name, Pos: pos}, Value: v, Bare: bare}
	}
	deleted := urlnorm.Token{Value: "gone"}
	tests := []struct {
		name string
		toks []urlnorm.Token
		ok   bool
	}{
		{"unchanged", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 2, "a"), seg(2, 1, "b"), par("x", 1, "1", false)}, true},
		// A deleted segment renumbers the others from both ends.
		{"segment deleted", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 3, "a"), deleted, seg(3, 1, "c")}, true},
		// A path with every segment deleted is "/", one empty segment.
		{"path deleted", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), deleted, deleted, par("q", 1, "", true)}, true},
		// An inserted segment at the end comes after the query in the list, not in the URL.
		{"segment appended", []urlnorm.Token{tok(urlnorm.PartScheme, "https"), tok(urlnorm.PartHost, "h"), seg(1, 1, "a"), par("x", 1, "1", false), tok(urlnorm.PartFragment, "f"), seg(2, 0, "new")}, true},
		// A deleted parameter renumbers the later occurrences of its name.
		{"occurrence deleted", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 1, ""), par("a", 1, "1", false), deleted, par("a", 3, "3", false), par("b", 1, "", true), par("a", 4, "4", false)}, true},
		// A fragment, right after the path or after a path left empty.
		{"fragment", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 2, "a"), seg(2, 1, "b"), tok(urlnorm.PartFragment, "f")}, true},
		{"fragment, no path", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), deleted, tok(urlnorm.PartFragment, "")}, true},
		{"no path", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), deleted}, true},
		{"segment inserted, fragment", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 1, "a"), tok(urlnorm.PartFragment, "f"), seg(0, 1, "z")}, true},
		// Userinfo, port, deleted port.
		{"authority", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartUserinfo, "u:p"), tok(urlnorm.PartHost, "h"), deleted, seg(1, 1, "x")}, true},
		{"port", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "[::1]"), tok(urlnorm.PartPort, "81"), seg(1, 1, "x")}, true},
		// Not numbered: a deep token, two hosts.
		{"deep token", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), {Key: urlnorm.Key{Part: urlnorm.PartPath, Sub: 1, RSub: 1}, Value: "a"}}, false},
		{"two hosts", []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), tok(urlnorm.PartHost, "i"), seg(1, 1, "")}, false},
	}
	many := []urlnorm.Token{tok(urlnorm.PartScheme, "http"), tok(urlnorm.PartHost, "h"), seg(1, 1, "")}
	for i := range scanParams + 1 {
		many = append(many, par("p", int16(i+1), "", true))
	}
	tests = append(tests, struct {
		name string
		toks []urlnorm.Token
		ok   bool
	}{"too many parameters", many, false})
	for _, tt := range tests {
		pre := []urlnorm.Token{{Value: "before"}}
		b, got, ok := appendJoined([]byte("before "), slices.Clone(pre), tt.toks)
		u := string(urlnorm.AppendJoin(nil, tt.toks))
		if string(b) != "before "+u {
			t.Errorf("%s: appendJoined wrote %q, AppendJoin %q", tt.name, b, "before "+u)
		}
		if ok != tt.ok {
			t.Errorf("%s: appendJoined ok = %v, want %v", tt.name, ok, tt.ok)
			continue
		}
		if !ok {
			if !slices.Equal(got, pre) {
				t.Errorf("%s: appendJoined failed but changed dst: %v", tt.name, got)
			}
			continue
		}
		want, err := urlnorm.Tokenize(slices.Clone(pre), u)
		if err != nil {
			t.Fatalf("%s: Tokenize(%q): %v", tt.name, u, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: appendJoined of %q =\n%+v\nTokenize:\n%+v", tt.name, u, got, want)
		}
	}
	// The keys of dev URLs, each token but the scheme and host deleted in turn, with a segment
	// inserted at the end (after the query in the list) or not.
	key := urlnorm.New(urlnorm.Crawler)
	checked := 0
	for _, l := range loadDev(t, 2000) {
		k, err := key.Key(l.URL)
		if err != nil {
			continue
		}
		toks, err := urlnorm.Tokenize(nil, k)
		if err != nil {
			t.Fatal(err)
		}
		for i := range toks {
			if p := toks[i].Part; p == urlnorm.PartScheme || p == urlnorm.PartHost {
				continue
			}
			for _, insert := range []bool{false, true} {
				rw := slices.Clone(toks)
				rw[i].Part = 0
				if insert {
					rw = append(rw, seg(0, 1, "new"))
				}
				b, got, ok := appendJoined(nil, nil, rw)
				u := string(urlnorm.AppendJoin(nil, rw))
				if string(b) != u {
					t.Fatalf("appendJoined wrote %q, AppendJoin %q", b, u)
				}
				want, err := urlnorm.Tokenize(nil, u)
				if err != nil || len(want) > 2+scanParams {
					continue
				}
				checked++
				if !ok || !slices.Equal(got, want) {
					t.Fatalf("appendJoined of %q (%v) =\n%+v\nTokenize:\n%+v", u, ok, got, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no dev URL checked")
	}
}

// TestLearnedAllocs checks the allocation promises on dev URLs with the learned set: at most one
// allocation (the result) for Normalize of a URL the rules rewrite, none for AppendNormalize of
// one whose key they leave as it is.
func TestLearnedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	s := loadLearned(t)
	ls := loadDev(t, 0)
	step := tier.Step(25)
	buf := make([]byte, 0, 1024)
	var worst struct {
		u string
		n float64
	}
	rewritten, unchanged := 0, 0
	for i := 0; i < len(ls); i += step {
		u := ls[i].URL
		k, err := s.keyer.Key(u)
		if err != nil {
			continue
		}
		out, err := s.Normalize(u)
		if err != nil {
			continue
		}
		if out != k {
			rewritten++
			if n := testing.AllocsPerRun(5, func() { s.Normalize(u) }); n > 1 && n > worst.n {
				worst.u, worst.n = u, n
			}
			continue
		}
		unchanged++
		if n := testing.AllocsPerRun(5, func() { buf, _ = s.AppendNormalize(buf[:0], u) }); n > 0 {
			t.Errorf("AppendNormalize(%q), left as its key: %v allocs, want 0", u, n)
		}
	}
	if worst.n > 0 {
		t.Errorf("Normalize(%q), rewritten: %v allocs, want <= 1", worst.u, worst.n)
	}
	t.Logf("%d rewritten, %d unchanged URLs checked", rewritten, unchanged)
}

// TestScratchConvert checks the conversions that normalizeFast writes into its buffer, and
// converts, against Conversion.convert.
func TestScratchConvert(t *testing.T) {
	vals := []string{"", "a", "A", "recipe", "Recipe", "RECIPE", "main_Page", "Main_Page", "x-Y_z9", "É", "ÀB", "1a", "@[`{", "rec", "12:welcome", "x-", "-x", "x"}
	sc := &scratch{inArena: true}
	convs := []Conversion{Prefix(1), Prefix(3), Prefix(6), Prefix(MaxPrefix)}
	for c := NoConversion; c <= Head+1; c++ {
		convs = append(convs, c)
	}
	for _, c := range convs {
		for _, v := range vals {
			want := c.convert(v)
			if got := sc.convert(c, v); got != want {
				t.Errorf("scratch.convert(%v, %q) = %q, want %q", c, v, got, want)
			}
			for _, w := range vals {
				if got := c.converts(v, w); got != (want == w) {
					t.Errorf("%v.converts(%q, %q) = %v, want %v", c, v, w, got, want == w)
				}
			}
		}
	}
	// Values converted earlier in the call stay as they were.
	sc.conv = sc.conv[:0]
	a := sc.convert(Lower, "ABC")
	b := sc.convert(Upper, "def")
	if a != "abc" || b != "DEF" {
		t.Errorf("scratch.convert: %q, %q; want abc, DEF", a, b)
	}
}

// TestLearnedKeyTokens checks urlnorm's AppendKeyLayout and the layout's AppendTokens, with the
// learned set's key flags, against Tokenize of the key, on every 10th dev URL (tier.Step) and its
// noRulesURL variant.
func TestLearnedKeyTokens(t *testing.T) {
	s := loadLearned(t)
	var buf []byte
	var toks []urlnorm.Token
	checked := 0
	ls, step := loadDev(t, 0), tier.Step(10)
	for i := 0; i < len(ls); i += step {
		for _, u := range []string{ls[i].URL, noRulesURL(ls[i].URL)} {
			k, kerr := s.keyer.Key(u)
			var err error
			var lay urlnorm.KeyLayout
			buf, err = s.keyer.AppendKeyLayout(buf[:0], u, &lay)
			if err == nil {
				toks, err = lay.AppendTokens(toks[:0], string(buf))
			}
			if kerr != nil || err != nil {
				if fmt.Sprint(kerr) != fmt.Sprint(err) {
					t.Fatalf("AppendKeyLayout(%q) and its tokens: %v; Key: %v", u, err, kerr)
				}
				continue
			}
			want, err := urlnorm.Tokenize(nil, k)
			if err != nil {
				t.Fatal(err)
			}
			if string(buf) != k || !slices.Equal(toks, want) {
				t.Fatalf("AppendKeyLayout(%q) = %q, tokens %+v; key %q, Tokenize %+v", u, buf, toks, k, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no URL checked")
	}
}

// TestHostKeptLearned checks that each rewritten URL that normalizeFast takes on without
// mayMatch, because its host is that of the URL before and has rules, is one that mayMatch lets
// through.
func TestHostKeptLearned(t *testing.T) {
	s := loadLearned(t)
	kept := 0
	checkHostKept = func(s *Set, u string) {
		kept++
		if !s.mayMatch(u) {
			t.Errorf("%q was taken on as keeping a host with rules, but mayMatch turns it away", u)
		}
	}
	defer func() { checkHostKept = nil }()
	normalizeDev(t, s)
	t.Logf("%d rewritten URLs kept their host", kept)
	if kept == 0 {
		t.Error("no rewritten URL kept its host: the test checks nothing")
	}
}

// TestLookupRef checks lookup and tokenAt against the scan (lookupSlow) on URLs of every part
// (userinfo, port, fragment, none of them, repeated and bare parameters, long paths), with
// patterns that split their path segments and values, for every key of every part: path
// positions in and out of range from either end, parameter occurrences, deep indexes from either
// end. The fast view is reused from URL to URL, as in a Normalize call; the scans use a view of
// their own, since a scan splits the whole URL.
func TestLookupRef(t *testing.T) {
	var train []string
	for i := range 60 {
		train = append(train, fmt.Sprintf("http://h.example/tt%07d/tt%07d/a-%d?id=tt%07d&id=tt%07d&q=x", 810900+i*7919, 12+i*31, i, 4000+i*7, 77+i))
	}
	pats := deeptoken.Learn(slices.Values(train), deeptoken.Options{})
	if pats.Len() == 0 {
		t.Fatal("no patterns learned")
	}
	s := mustSet(t, &Options{Patterns: map[string]Patterns{"h.example": pats}},
		`host=h.example cov=1 prec=1 sup=1 if path(1,-)="a" then path(1,-)="b"`)
	urls := []string{
		"http://h.example/tt0810900/tt0810900/a-1?id=tt0810900&id=tt0810900&q=x",
		"http://u:p@h.example:8080/tt0000001/x?id=tt0000002&id&id=tt3#frag",
		"http://u@h.example/tt0000001#",
		"http://h.example:81/",
		"http://h.example/?id=tt1234567",
		"http://h.example/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/tt0000009#f?x=y",
		"http://h.example/x?" + strings.Repeat("id=tt0000001&", 20) + "q=tt7654321",
		"http://other.example/tt0810900?id=tt0810900",
		"http://h.example/tt0810900",
	}
	var keys []urlnorm.Key
	for p := urlnorm.PartScheme; p <= urlnorm.PartFragment; p++ {
		if p != urlnorm.PartPath { // the whole path is no token
			keys = append(keys, urlnorm.Key{Part: p})
		}
	}
	for _, deep := range [][2]int16{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {3, 0}, {1, 2}, {2, 1}} {
		for pos := int16(0); pos <= 28; pos++ {
			for rpos := int16(0); rpos <= 28; rpos += 1 + 26*int16(boolInt(pos > 3)) {
				if pos != 0 || rpos != 0 || deep != [2]int16{} { // the whole path is no token
					keys = append(keys, urlnorm.Key{Part: urlnorm.PartPath, Pos: pos, RPos: rpos, Sub: deep[0], RSub: deep[1]})
				}
			}
		}
		for _, name := range []string{"id", "q", "x", ""} {
			for pos := int16(1); pos <= 22; pos++ {
				keys = append(keys, urlnorm.Key{Part: urlnorm.PartQuery, Name: name, Pos: pos, Sub: deep[0], RSub: deep[1]})
			}
		}
		if deep != [2]int16{} {
			for p := urlnorm.PartScheme; p <= urlnorm.PartFragment; p++ {
				if p != urlnorm.PartPath && p != urlnorm.PartQuery {
					keys = append(keys, urlnorm.Key{Part: p, Sub: deep[0], RSub: deep[1]})
				}
			}
		}
	}
	found, split := 0, 0
	var v, w view
	for round := range 2 {
		for _, u := range urls {
			if err := v.load(u, s); err != nil {
				t.Fatal(err)
			}
			if err := w.load(u, s); err != nil {
				t.Fatal(err)
			}
			// In the second round, each key is read twice and the URL's keys in reverse order.
			ks := keys
			if round == 1 {
				ks = slices.Clone(keys)
				slices.Reverse(ks)
			}
			for _, k := range ks {
				for range round + 1 {
					gv, gok := v.lookup(k)
					wv, wok := w.lookupSlow(k)
					if gv != wv || gok != wok {
						t.Fatalf("lookup(%v) in %q = %q, %v; the scan gives %q, %v", k, u, gv, gok, wv, wok)
					}
					if gok {
						found++
						if k.Sub != 0 || k.RSub != 0 {
							split++
						}
					}
					if k.Sub != 0 || k.RSub != 0 || k.Part == urlnorm.PartPath && k.Pos == 0 && k.RPos == 0 {
						continue
					}
					i := v.tokenAt(k)
					if (i >= 0) != wok || i >= 0 && v.whole[i].Value != wv {
						t.Fatalf("tokenAt(%v) in %q = %d; the scan gives %q, %v", k, u, i, wv, wok)
					}
				}
			}
		}
	}
	t.Logf("%d keys, %d found, %d of them deep", len(keys), found, split)
	if split == 0 {
		t.Error("no deep key found: the test checks nothing")
	}
}

// TestFastRefAfterVariant normalizes URLs, each followed by variants of the same shape (its path
// lower- and upper-cased) and by itself again, the whole sequence back to back on one set (first
// with Normalize, then with AppendNormalize), and compares every result with the reference,
// computed before: what the fast path keeps from one call for the next (the host's trees, the
// last token split into deep tokens, the splits its Splitter remembers) must not outlive the
// bytes it was made of, which the next call's key overwrites in place. It runs on the dev rules
// and URLs (in the file's order, a site's URLs together), and on the rules of
// testdata/kestrel-rules.txt, whose deep keys split a path segment at its dashes, together and
// each rule alone.
func TestFastRefAfterVariant(t *testing.T) {
	step := tier.Step(10)
	var dev []string
	for i, l := range loadDev(t, 0) {
		if i%step == 0 {
			dev = append(dev, l.URL)
		}
	}
	f, err := os.Open("testdata/kestrel-rules.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kestrel, err := Load(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	kurls := []string{
		"http://www.kestreltidal.net/Cake-Guide-Taco-Course-Phone-Exam/p/B0YT2G0SDP",
		"http://www.kestreltidal.net/Bridge-Soup-Berry/p/B0F29IM2NN?from=rss",
		"http://www.kestreltidal.net/berry-Jazz-King/p/X12?from=feed",
		"http://www.kestreltidal.net/o/B0F29IM2NN",
		"http://www.kestreltidal.net/Tea-Math-Door-Screen/p/Q9",
	}
	type setURLs struct {
		name string
		s    *Set
		urls []string
	}
	sets := []setURLs{{"dev", loadLearned(t), dev}, {"kestrel", kestrel, kurls}}
	// Each rule alone, one rewrite at most, as a tool that names the rule of each step of a
	// chain replays it.
	o := kestrel.Options()
	o.MaxRewrites = 1
	for i := range kestrel.Len() {
		one, err := NewSet([]Rule{kestrel.Rule(i)}, o)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, setURLs{fmt.Sprintf("kestrel rule %d alone", i), one, kurls})
	}
	for _, tt := range sets {
		var seq []string
		for _, u := range tt.urls {
			p := strings.Index(u, "://")
			if p < 0 {
				continue
			}
			q := p + 3 + strings.IndexByte(u[p+3:], '/')
			if q < p+3 {
				continue
			}
			seq = append(seq, u, u[:q]+strings.ToLower(u[q:]), u[:q]+strings.ToUpper(u[q:]), u)
		}
		want := refResults(seq, tt.s.normalizeRef)
		checkFastSeq(t, tt.name, tt.s, seq, want, tt.s.normalizeRef)
	}
}
