package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// Shorthands for keys in tests.
func pathKey(pos, rpos int16) urlnorm.Key {
	return urlnorm.Key{Part: urlnorm.PartPath, Pos: pos, RPos: rpos}
}
func queryKey(name string) urlnorm.Key {
	return urlnorm.Key{Part: urlnorm.PartQuery, Name: name, Pos: 1}
}

var (
	hostKey   = urlnorm.Key{Part: urlnorm.PartHost}
	schemeKey = urlnorm.Key{Part: urlnorm.PartScheme}
)

// mustRule parses a rule's text form or fails the test.
func mustRule(t testing.TB, s string) Rule {
	t.Helper()
	r, err := ParseRule(s)
	if err != nil {
		t.Fatalf("ParseRule(%q): %v", s, err)
	}
	return r
}

func mustSet(t testing.TB, opts *Options, lines ...string) *Set {
	t.Helper()
	var rs []Rule
	for _, l := range lines {
		rs = append(rs, mustRule(t, l))
	}
	s, err := NewSet(rs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		rules   []string
		in, out string
		err     error
	}{
		// WSDM'10 §2.1, alignment: c(k(-,1)) = index.html, t(k(-,1)) = ⊥ on any depth.
		{[]string{`host=ag.arizona.edu cov=2 prec=1 sup=2 if path(-,1)="index.html" then path(-,1)=-`},
			"http://ag.arizona.edu/srnr/about/art/index.html", "http://ag.arizona.edu/srnr/about/art", nil},
		// The same rule on a shallower URL.
		{[]string{`host=ag.arizona.edu cov=2 prec=1 sup=2 if path(-,1)="index.html" then path(-,1)=-`},
			"http://ag.arizona.edu/art/index.html", "http://ag.arizona.edu/art", nil},
		// Another host is out of scope.
		{[]string{`host=ag.arizona.edu cov=2 prec=1 sup=2 if path(-,1)="index.html" then path(-,1)=-`},
			"http://www.arizona.edu/art/index.html", "http://www.arizona.edu/art/index.html", nil},
		// WSDM'10 §3.2.2 imdb: a wildcard passes the id through; a literal replaces the last segment.
		{[]string{`host=www.imdb.com cov=2 prec=1 sup=2 if path(1,3)="title" path(2,2)=* path(3,1)="photogallery" then path(3,1)="mediaindex"`},
			"http://www.imdb.com/title/tt0810900/photogallery", "http://www.imdb.com/title/tt0810900/mediaindex", nil},
		// Value conversion: Uppercase(k(3,3)) as in the allrecipes example (path(1,3) here).
		{[]string{`host=allrecipes.com cov=1 prec=1 sup=1 if path(1,3)="Recipe" then path(1,3)=upper(@path(1,3))`},
			"http://allrecipes.com/Recipe/Smores/default.aspx", "http://allrecipes.com/RECIPE/Smores/default.aspx", nil},
		// Key reference: query title into path segment 2, segment 1 set, the parameter deleted.
		{[]string{`host=en.wiki.org cov=1 prec=1 sup=1 if path(1,2)="w" path(2,1)="index.php" query("title")=* then path(1,2)="wiki" path(2,1)=@query("title") query("title")=-`},
			"http://en.wiki.org/w/index.php?title=Apple", "http://en.wiki.org/wiki/Apple", nil},
		// Key reference into a segment the URL lacks: /?title=X -> /wiki/X (insertion after segment 1).
		{[]string{`host=en.wiki.org cov=1 prec=1 sup=1 if path(1,1)="" query("title")=* then path(1,1)="wiki" path(2,-)=@query("title") query("title")=-`},
			"http://en.wiki.org/?title=Apple", "http://en.wiki.org/wiki/Apple", nil},
		// Path to query: /story/123 -> /story.php?id=123 (added parameter).
		{[]string{`host=news.example cov=1 prec=1 sup=1 if path(1,2)="story" path(2,1)=* then path(1,2)="story.php" path(2,1)=- query("id")=@path(2,1)`},
			"http://news.example/story/123", "http://news.example/story.php?id=123", nil},
		// Assigning to a key the URL has replaces its value.
		{[]string{`host=a.example cov=1 prec=1 sup=1 if path(-,1)="p" then path(-,2)="x"`},
			"http://a.example/a/b/p", "http://a.example/a/x/p", nil},
		// Insertion by position from the end: two of the URL's segments follow the new one.
		{[]string{`host=a.example cov=1 prec=1 sup=1 if path(-,1)="p" then path(-,3)="x"`},
			"http://a.example/a/p", "http://a.example/x/a/p", nil},
		// Insertion by position from the start, past the end: appended.
		{[]string{`host=a.example cov=1 prec=1 sup=1 if path(-,1)="p" then path(5,-)="x"`},
			"http://a.example/a/p", "http://a.example/a/p/x", nil},
		// A session parameter deleted, other parameters kept in order.
		{[]string{`host=shop.example cov=1 prec=1 sup=1 if query("sid")=* then query("sid")=-`},
			"http://shop.example/p?a=1&sid=abc&b=2", "http://shop.example/p?a=1&b=2", nil},
		// An Absent condition: rule applies only without the parameter.
		{[]string{`host=shop.example cov=1 prec=1 sup=1 if query("id")=- then query("page")=-`},
			"http://shop.example/p?id=1&page=2", "http://shop.example/p?id=1&page=2", nil},
		// Domain scope and host rewrite: the mobile host to www.
		{[]string{`domain=example.com cov=1 prec=1 sup=1 if host="m.example.com" then host="www.example.com"`},
			"https://m.example.com/a?b", "https://www.example.com/a?b", nil},
		// Scheme rewrite chained with a host rewrite: two rewrites reach the fixed point.
		{[]string{
			`domain=example.com cov=1 prec=1 sup=1 if scheme="http" then scheme="https"`,
			`domain=example.com cov=1 prec=1 sup=1 if host="example.com" then host="www.example.com"`},
			"http://example.com/x", "https://www.example.com/x", nil},
		// The most specific rule wins: two literals beat one.
		{[]string{
			`host=h.example cov=9 prec=1 sup=1 if path(1,-)="a" then path(1,-)="one"`,
			`host=h.example cov=1 prec=0.5 sup=1 if path(1,-)="a" path(2,-)="b" then path(1,-)="two"`},
			"http://h.example/a/b", "http://h.example/two/b", nil},
		// Equal specificity: higher precision wins.
		{[]string{
			`host=h.example cov=9 prec=0.9 sup=1 if path(1,-)="a" then path(1,-)="one"`,
			`host=h.example cov=1 prec=1 sup=1 if path(2,-)="b" then path(2,-)="two"`},
			"http://h.example/a/b", "http://h.example/one/two", nil},
		// A cycle a -> b -> a stops with the input URL and is reported.
		{[]string{
			`host=c.example cov=1 prec=1 sup=1 if path(1,1)="a" then path(1,1)="b"`,
			`host=c.example cov=1 prec=1 sup=1 if path(1,1)="b" then path(1,1)="a"`},
			"http://c.example/a", "http://c.example/a", ErrCycle},
		// Entered from outside (x -> a -> b -> a), a cycle gives the input back, not a URL of the
		// cycle.
		{[]string{
			`host=c.example cov=1 prec=1 sup=1 if path(1,1)="x" then path(1,1)="a"`,
			`host=c.example cov=1 prec=1 sup=1 if path(1,1)="a" then path(1,1)="b"`,
			`host=c.example cov=1 prec=1 sup=1 if path(1,1)="b" then path(1,1)="a"`},
			"http://c.example/x", "http://c.example/x", ErrCycle},
		// A rule that grows the URL forever stops at the bound.
		{[]string{`host=g.example cov=1 prec=1 sup=1 if path(1,-)="x" then path(1,-)="x/x"`},
			"http://g.example/x", "", ErrRewriteLimit},
		// A URL that is not hierarchical comes back with the error.
		{[]string{`host=g.example cov=1 prec=1 sup=1 if then path(1,-)="x"`},
			"mailto:a@b", "mailto:a@b", urlnorm.ErrNotHierarchical},
		// A rule with an empty context applies to every URL of its host, once (fixed point).
		{[]string{`host=g.example cov=1 prec=1 sup=1 if then scheme="https"`},
			"http://g.example/a", "https://g.example/a", nil},
		// UpperFirst: the wiki first-letter case, only the first letter changes.
		{[]string{`host=w.example cov=1 prec=1 sup=1 if path(1,2)="wiki" path(2,1)=* then path(2,1)=upperfirst(@path(2,1))`},
			"http://w.example/wiki/main_page", "http://w.example/wiki/Main_page", nil},
		// LowerFirst from a query value into the path.
		{[]string{`host=w.example cov=1 prec=1 sup=1 if query("t")=* then path(1,-)=lowerfirst(@query("t")) query("t")=-`},
			"http://w.example/x?t=Main_Page", "http://w.example/main_Page", nil},
		// A first-letter conversion leaves a value that starts with no letter as it is.
		{[]string{`host=w.example cov=1 prec=1 sup=1 if path(1,-)=* then path(1,-)=upperfirst`},
			"http://w.example/%C3%A9t%C3%A9", "http://w.example/%C3%A9t%C3%A9", nil},
		// A Prefix cuts a hash to its abbreviation; a Copy takes a prefix of another key's value.
		{[]string{`host=f.example cov=1 prec=1 sup=1 if path(1,2)="info" path(2,1)=* then path(2,1)=prefix16`},
			"http://f.example/info/bb8308f9454618b1c3689c6b1c76653ea6df4895", "http://f.example/info/bb8308f9454618b1", nil},
		{[]string{`host=f.example cov=1 prec=1 sup=1 if query("id")=* then query("id")=prefix10(@query("id"))`},
			"http://f.example/wdiff?id=329b166b7549591d", "http://f.example/wdiff?id=329b166b75", nil},
		// A value no longer than the prefix keeps its value.
		{[]string{`host=f.example cov=1 prec=1 sup=1 if path(1,2)="info" path(2,1)=* then path(2,1)=prefix16`},
			"http://f.example/info/bb8308f9", "http://f.example/info/bb8308f9", nil},
		// Head cuts a record's id from the slug after it, in a segment or in a query value
		// (copied or in place); a value without a delimiter, or starting with one, is kept.
		{[]string{`host=v.example cov=1 prec=1 sup=1 if path(1,2)="threads" path(2,1)=* then path(2,1)=head`},
			"http://v.example/threads/5000-stone-ember", "http://v.example/threads/5000", nil},
		{[]string{`host=v.example cov=1 prec=1 sup=1 if path(1,2)="threads" path(2,1)=* then path(2,1)=head`},
			"http://v.example/threads/5000", "http://v.example/threads/5000", nil},
		{[]string{`host=v.example cov=1 prec=1 sup=1 if path(1,2)="threads" path(2,1)=* then path(2,1)=head`},
			"http://v.example/threads/-5000", "http://v.example/threads/-5000", nil},
		{[]string{`host=j.example cov=1 prec=1 sup=1 if query("id")=* then query("id")=head(@query("id"))`},
			"http://j.example/index.php?id=12:welcome-home&view=article", "http://j.example/index.php?id=12&view=article", nil},
		{[]string{`host=j.example cov=1 prec=1 sup=1 if query("t")=* then path(2,-)+=head(@query("t")) query("t")=-`},
			"http://j.example/t?t=77.some-topic", "http://j.example/t/77", nil},
		// A Convert of the whole path lowercases every segment, at any depth.
		{[]string{`host=c.example cov=1 prec=1 sup=1 if query("a")=- then path(-,-)=lower`},
			"http://c.example/Recipe/Smores/Default.ASPX", "http://c.example/recipe/smores/default.aspx", nil},
		// The same rule on a shallower URL.
		{[]string{`host=c.example cov=1 prec=1 sup=1 if query("a")=- then path(-,-)=lower`},
			"http://c.example/X", "http://c.example/x", nil},
		// A whole-path Convert applies before the other actions: a copy from the path reads the
		// converted segment, and an action on a segment overrides its conversion.
		{[]string{`host=c.example cov=1 prec=1 sup=1 if path(-,1)="Index.html" then path(-,-)=upper path(-,1)=- query("p")=@path(1,-)`},
			"http://c.example/ab/cd/Index.html", "http://c.example/AB/CD?p=AB", nil},
		// A Convert of one key converts it in place; an absent key is left absent.
		{[]string{`host=c.example cov=1 prec=1 sup=1 if then query("q")=lower query("z")=upper`},
			"http://c.example/?q=ABC", "http://c.example/?q=abc", nil},
		// Insert at the end: a trailing slash (an empty segment appended).
		{[]string{`host=s.example cov=1 prec=1 sup=1 if path(-,1)="dir" then path(-,1)+=""`},
			"http://s.example/a/dir", "http://s.example/a/dir/", nil},
		// Insert replaces one segment by two, in the order of the actions: the learner's window.
		{[]string{`host=s.example cov=1 prec=1 sup=1 if path(1,-)="a-b" then path(1,-)="a" path(2,-)+="b" path(2,-)+=@path(1,-)`},
			"http://s.example/a-b/z", "http://s.example/a/b/a-b/z", nil},
		// Insert by position from the end, before the last segment, with a converted reference.
		{[]string{`host=s.example cov=1 prec=1 sup=1 if path(-,2)="a" path(-,1)="p" then path(-,2)+=upper(@path(-,1))`},
			"http://s.example/a/p", "http://s.example/a/P/p", nil},
		// An insertion at the key of an assignment: the last segment replaced by two.
		{[]string{`host=s.example cov=1 prec=1 sup=1 if path(-,1)="p" then path(-,1)="q" path(-,1)+="r"`},
			"http://s.example/a/p", "http://s.example/a/q/r", nil},
		// The every-host scope: a widened rule applies to any host.
		{[]string{`host=* cov=1 prec=1 sup=1 if query("replytocom")=* then query("replytocom")=-`},
			"http://any.example/p?replytocom=3&x=1", "http://any.example/p?x=1", nil},
		// A host rule goes before the every-host rule of equal specificity and statistics.
		{[]string{
			`host=* cov=1 prec=1 sup=1 if query("s")=* then query("s")=-`,
			`host=h.example cov=1 prec=1 sup=1 if query("s")=* then path(1,-)=@query("s") query("s")=-`},
			"http://h.example/?s=x", "http://h.example/x", nil},
		// Absent conditions count as literals: the rule with one beats the wildcard rule.
		{[]string{
			`host=h.example cov=9 prec=1 sup=1 if query("w")=* then query("w")=- query("k")="w"`,
			`host=h.example cov=1 prec=1 sup=1 if query("k")=- then query("w")=- query("k")="x"`},
			"http://h.example/?w=1", "http://h.example/?k=x", nil},
		// Equal literals: more conditions go first.
		{[]string{
			`host=h.example cov=9 prec=1 sup=1 if path(1,-)="a" then path(1,-)="one"`,
			`host=h.example cov=1 prec=1 sup=1 if path(1,-)="a" path(2,-)=* then path(1,-)="two"`},
			"http://h.example/a/b", "http://h.example/two/b", nil},
		// Equal conditions: higher coverage goes first.
		{[]string{
			`host=h.example cov=1 prec=1 sup=1 if path(1,-)="a" then path(1,-)="one"`,
			`host=h.example cov=9 prec=0.96 sup=1 if path(1,-)="a" then path(1,-)="two"`},
			"http://h.example/a", "http://h.example/two", nil},
	}
	for _, tt := range tests {
		s := mustSet(t, nil, tt.rules...)
		for _, slow := range []bool{false, true} {
			got, err := s.normalize(tt.in, slow)
			if !errors.Is(err, tt.err) || tt.err == nil && err != nil {
				t.Errorf("Normalize(%q) slow=%v error %v, want %v", tt.in, slow, err, tt.err)
			}
			if tt.out != "" && got != tt.out {
				t.Errorf("Normalize(%q) slow=%v = %q, want %q", tt.in, slow, got, tt.out)
			}
		}
		// The fast path (normalizeFast) gives the same, cycles and the bound included.
		got, err := s.Normalize(tt.in)
		if !errors.Is(err, tt.err) || tt.err == nil && err != nil {
			t.Errorf("Normalize(%q) fast error %v, want %v", tt.in, err, tt.err)
		}
		if tt.out != "" && got != tt.out {
			t.Errorf("Normalize(%q) fast = %q, want %q", tt.in, got, tt.out)
		}
	}
}

func TestParseRuleRoundTrip(t *testing.T) {
	lines := []string{
		`host=www.imdb.com cov=120 prec=0.98 sup=4 if path(1,-)="title" path(2.1,-.2)="tt" path(2.2,-)=* path(-,1)="photogallery" then path(-,1)="mediaindex"`,
		`domain=example.com cov=0 prec=1 sup=0 if host="m.example.com" query("a b",2)=- query("x")[1,-]="y" then host="www.example.com" query("q")=lower(@query("Q")) port=-`,
		`host=h.example cov=1 prec=0.5 sup=1 if then fragment=- userinfo=- path(1,-)=@fragment`,
		`host=* cov=3 prec=1 sup=5 if query("sid")=* then query("sid")=-`,
		`host=h.example cov=1 prec=1 sup=1 if path(-,1)=* then path(-,-)=lower path(-,1)=upperfirst(@path(-,1)) path(-,1)+="" path(-,1)+=lowerfirst(@query("t")) query("t")=upper`,
		`host=h.example cov=1 prec=1 sup=1 if then path(2,-)=prefix16 query("id")=prefix128(@query("h")) query("x")=prefix1`,
	}
	for _, l := range lines {
		r := mustRule(t, l)
		if got := r.String(); got != l {
			t.Errorf("ParseRule(%q).String() = %q", l, got)
		}
	}
	bad := []string{
		`host=h.example cov=1 prec=1 sup=1 if then`,                            // empty transformation
		`host=h.example cov=1 prec=2 sup=1 if then scheme="a"`,                 // precision out of range
		`host= cov=1 prec=1 sup=1 if then scheme="a"`,                          // empty scope
		`domain=www.example.com cov=1 prec=1 sup=1 if then scheme="a"`,         // not a registrable domain
		`host=h.example cov=1 prec=1 sup=1 if then host=-`,                     // host deleted
		`host=h.example cov=1 prec=1 sup=1 if path(-,-)="a" then port=-`,       // path key without position
		`host=h.example cov=1 prec=1 sup=1 if path(0,1)="a" then port=-`,       // position 0
		`host=h.example cov=1 prec=1 sup=1 if then port=- port=-`,              // two actions on a key
		`host=h.example cov=1 prec=1 sup=1 if then port="1`,                    // unterminated quote
		`host=h.example cov=1 prec=1 sup=1 if then nokey="1"`,                  // unknown part
		`host=h.example cov=1 prec=1 sup=1 if then path(99999,-)="1"`,          // position overflow
		`host=h.example cov=1 prec=NaN sup=1 if then port=-`,                   // NaN precision
		`host=h.example cov=1 prec=1 sup=1 if x then port=-`,                   // garbage condition
		`host=h.example cov=1 prec=1 sup=1 if then query("a")=@query("b"`,      // unclosed reference
		`host=h.example cov=1 prec=1 sup=1 if then path(-,-)=@path(1,-)`,       // whole path not a Convert
		`host=h.example cov=1 prec=1 sup=1 if then query("a")+="x"`,            // insert outside the path
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)+=-`,               // insert of a deletion
		`host=h.example cov=1 prec=1 sup=1 if then path(1.2,-)+="x"`,           // insert of a deep token
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)="x" path(1,-)=-`,  // two actions, neither an insert
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=titlecase`,        // unknown conversion
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=lower(@path(2,-)`, // unclosed conversion
		`domain=* cov=1 prec=1 sup=1 if then port=-`,                           // every host is no domain
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix`,           // prefix without a length
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix0`,          // prefix of nothing
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix016`,        // leading zero: not the one spelling
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix129`,        // longer than MaxPrefix
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix99999999`,   // length overflow
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=prefix-1`,         // negative length
		`host=h.example cov=1 prec=1 sup=1 if then path(-,-)=prefix8`,          // prefix of every segment
		`host=h.example cov=1 prec=1 sup=1 if then path(-,-)=head`,             // head of every segment
		`host=h.example cov=1 prec=1 sup=1 if then path(1,-)=heads`,            // unknown conversion
	}
	for _, l := range bad {
		if _, err := ParseRule(l); err == nil {
			t.Errorf("ParseRule(%q) accepted", l)
		} else if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrInvalidRule) {
			t.Errorf("ParseRule(%q) error %v wraps neither ErrFormat nor ErrInvalidRule", l, err)
		} else if !strings.HasPrefix(err.Error(), "invalid rule") && !strings.HasPrefix(err.Error(), "malformed") {
			t.Errorf("ParseRule(%q) error %q", l, err)
		}
	}
}

// TestOrderIsPrecedence checks that NewSet's sort (on copied statistics, then content) puts the
// rules in the order of precedence, the reference comparison, with statistics drawn so that
// every tie-breaker is reached.
func TestOrderIsPrecedence(t *testing.T) {
	rs := genRules(loadDev(t, 5000), 2000, 3)
	rng := rand.New(rand.NewPCG(5, 0))
	for i := range rs {
		rs[i].Stats = Stats{Coverage: rng.IntN(3), Precision: float64(rng.IntN(3)) / 2, Support: rng.IntN(3)}
	}
	s, err := NewSet(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(s.rules); i++ {
		if precedence(&s.rules[i-1], &s.rules[i]) > 0 {
			t.Fatalf("rule %d %s before rule %d %s", i-1, s.rules[i-1].String(), i, s.rules[i].String())
		}
	}
}

// TestEqualsFirst checks that of two matching rules with as many literal conditions and as many
// conditions, the one with more Equal conditions applies first, whatever their coverage, and
// that with ablate.NoEqualsFirst coverage decides: a rule carved out by an absence (action
// absent) and a rule for a value the URL has (printable=yes) both match the printable view.
func TestEqualsFirst(t *testing.T) {
	const h = `host=w.example `
	lines := []string{
		h + `cov=50 prec=1 sup=0 if path(1,1)="index.php" query("action")=- query("title")=* then path(1,1)=@query("title") query("title")=-`,
		h + `cov=3 prec=1 sup=0 if path(1,1)="index.php" query("printable")="yes" query("title")=* then path(1,1)=@query("title") query("printable")=- query("title")=-`,
	}
	for _, tt := range []struct {
		off  bool
		want string
	}{
		{false, "http://w.example/Zebra"},
		{true, "http://w.example/Zebra?printable=yes"}, // the general rule, and none after it
	} {
		ablate.NoEqualsFirst = tt.off
		s := mustSet(t, nil, lines...)
		ablate.NoEqualsFirst = false
		for _, slow := range []bool{false, true} {
			got, err := s.normalize("http://w.example/index.php?title=Zebra&printable=yes", slow)
			if err != nil || got != tt.want {
				t.Errorf("NoEqualsFirst=%v slow=%v: Normalize = %q, %v; want %q", tt.off, slow, got, err, tt.want)
			}
		}
		if got, _ := s.Normalize("http://w.example/index.php?title=Zebra&printable=yes"); got != tt.want {
			t.Errorf("NoEqualsFirst=%v: Normalize (fast) = %q, want %q", tt.off, got, tt.want)
		}
	}
}

// TestNormalizeCycleAtBound checks that a cycle closed by the last rewrite that MaxRewrites
// allows is reported as a cycle, by the fast path as by the reference: the fast path compares
// each new URL with every URL met before it, the input included.
func TestNormalizeCycleAtBound(t *testing.T) {
	const h = `host=c.example cov=1 prec=1 sup=1 `
	tests := []struct {
		rules []string
		max   int
		in    string
		want  error
	}{
		// a -> b -> a: the second rewrite comes back to the input.
		{[]string{h + `if path(1,1)="a" then path(1,1)="b"`, h + `if path(1,1)="b" then path(1,1)="a"`},
			2, "http://c.example/a", ErrCycle},
		{[]string{h + `if path(1,1)="a" then path(1,1)="b"`, h + `if path(1,1)="b" then path(1,1)="a"`},
			1, "http://c.example/a", ErrRewriteLimit},
		// x -> a -> b -> a: the third rewrite comes back to a URL after the input.
		{[]string{h + `if path(1,1)="x" then path(1,1)="a"`, h + `if path(1,1)="a" then path(1,1)="b"`,
			h + `if path(1,1)="b" then path(1,1)="a"`},
			3, "http://c.example/x", ErrCycle},
		{[]string{h + `if path(1,1)="x" then path(1,1)="a"`, h + `if path(1,1)="a" then path(1,1)="b"`,
			h + `if path(1,1)="b" then path(1,1)="a"`},
			2, "http://c.example/x", ErrRewriteLimit},
	}
	for _, tt := range tests {
		s := mustSet(t, &Options{MaxRewrites: tt.max}, tt.rules...)
		ref, rerr := s.normalizeRef(tt.in)
		got, err := s.Normalize(tt.in)
		if !errors.Is(rerr, tt.want) || !errors.Is(err, tt.want) || got != ref || fmt.Sprint(err) != fmt.Sprint(rerr) {
			t.Errorf("MaxRewrites %d: Normalize(%q) = %q, %v; reference %q, %v; want error %v",
				tt.max, tt.in, got, err, ref, rerr, tt.want)
		}
	}
}
