package urlnorm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestKeyCrawler(t *testing.T) {
	n := New(Crawler)
	tests := []struct {
		in, want string
	}{
		{"http://a.com/x?b=2&a=1", "http://a.com/x?a=1&b=2"},                                                   // sort by name
		{"http://a.com/x?a=2&b=1&a=1", "http://a.com/x?a=1&a=2&b=1"},                                           // then by value
		{"http://a.com/x?a&a=", "http://a.com/x?a&a"},                                                          // empty value loses its '='
		{"http://a.com/x?&&a=1&&", "http://a.com/x?a=1"},                                                       // empty parameters
		{"http://a.com/x?=1&a=1", "http://a.com/x?a=1"},                                                        // nameless parameter
		{"http://a.com/x?", "http://a.com/x"},                                                                  // bare ?
		{"http://a.com/x?&", "http://a.com/x"},                                                                 // only empty parameters
		{"http://a.com/x#frag", "http://a.com/x"},                                                              // fragment dropped
		{"http://a.com/x?id=7&utm_source=tw&utm_medium=s&gclid=Z&fbclid=Q", "http://a.com/x?id=7"},             // tracking
		{"http://a.com/x?UTM_Source=tw&id=7", "http://a.com/x?id=7"},                                           // tracking names ignore case
		{"http://a.com/x?jsessionid=1&a=1", "http://a.com/x?a=1"},                                              // jsessionid
		{"http://a.com/x?PHPSESSID=9682993c8daa2c5497996114facdc805", "http://a.com/x"},                        // phpsessid
		{"http://a.com/x?ASPSESSIONIDQQGGGNCU=EOHBLBDDPFCLHKPGGKLILNAM&a=1", "http://a.com/x?a=1"},             // ASPSESSIONIDxxxxxxxx
		{"http://a.com/x?CFID=1&CFTOKEN=2&a=1", "http://a.com/x?a=1"},                                          // ColdFusion
		{"http://a.com/x?sid=9682993c8daa2c5497996114facdc805&a=1", "http://a.com/x?a=1"},                      // sid with an id-like value
		{"http://a.com/story?sid=42", "http://a.com/story?sid=42"},                                             // sid naming content kept
		{"http://a.com/story?sessionid=alllettersnodigits", "http://a.com/story?sessionid=alllettersnodigits"}, // not id-like
		{"http://a.com/a/b;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "http://a.com/a/b"},                   // path parameter
		{"http://a.com/a;JSESSIONID=x;v=1/b", "http://a.com/a;v=1/b"},                                          // path parameter before another
		{"http://a.com/(S(4hqa0555fwsecu455xqckv45))/p.aspx", "http://a.com/p.aspx"},                           // ASP.NET cookieless
		{"http://a.com/(4hqa0555fwsecu455xqckv45)/p.aspx", "http://a.com/p.aspx"},                              // ASP.NET 1.x cookieless
		{"http://a.com/(about)/p", "http://a.com/(about)/p"},                                                   // parenthesized word kept
		{"http://a.com/a/(S(x1))", "http://a.com/a/"},                                                          // session segment last
		{"https://www.a.com/index.html", "https://www.a.com/index.html"},                                       // Crawler keeps www, https, index
		{"http://a.com/A//B", "http://a.com/A//B"},                                                             // Crawler keeps case and slashes
		{"http://a.com/x?q=%7e&b=%41", "http://a.com/x?b=A&q=~"},                                               // sort after escape normalization
	}
	for _, tc := range tests {
		got, err := n.Key(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Key(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestKeyAggressive(t *testing.T) {
	n := New(Aggressive)
	tests := []struct {
		in, want string
	}{
		{"https://www.a.com/", "http://a.com/"},                        // https -> http, www folded
		{"https://a.com:443/", "http://a.com/"},                        // port 443 removed before folding
		{"http://www2.a.com/", "http://a.com/"},                        // www2
		{"http://www.co.uk/", "http://www.co.uk/"},                     // www before a public suffix kept
		{"http://wwwx.a.com/", "http://wwwx.a.com/"},                   // not a www label
		{"http://www.www.a.com/", "http://a.com/"},                     // repeated www labels
		{"http://www.www.com/", "http://www.com/"},                     // until a public suffix would remain
		{"http://www.www..a/", "http://www..a/"},                       // not into an empty label (fuzz)
		{"http://a.com/dir/index.html", "http://a.com/dir/"},           // index file
		{"http://a.com/dir/Default.ASPX?x=1", "http://a.com/dir/?x=1"}, // index file, any case
		{"http://a.com/A/B%c3%A9.HTML", "http://a.com/a/b%C3%A9.html"}, // lower-case path, escapes stay upper
		{"http://a.com//a//b/", "http://a.com/a/b/"},                   // duplicate slashes
		{"http://u:p@a.com/", "http://a.com/"},                         // userinfo dropped
		{"a.com/b", "http://a.com/b"},                                  // scheme guessed
		{"a.com:8080/b", "http://a.com:8080/b"},                        // scheme guessed before a port
		{"wss://www.a.com/", "ws://a.com/"},                            // wss -> ws
	}
	for _, tc := range tests {
		got, err := n.Key(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Key(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCanonicalIgnoresKeyFlags(t *testing.T) {
	n := New(Aggressive)
	in := "https://u@www.a.com/A//index.html?b=1&a=1&utm_source=x#f"
	got, err := n.Canonical(in)
	if want := "https://www.a.com/A//index.html?b=1&a=1&utm_source=x"; err != nil || got != want {
		t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, err, want)
	}
}

func TestExceptions(t *testing.T) {
	n, err := NewOptions(Aggressive, Options{Exceptions: []Exception{
		{Domain: "slashdot.org", Keep: []string{"SID"}},
		{Host: "www.keep.com", Clear: FoldWWW | LowercasePath},
	}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want string
	}{
		{"http://news.slashdot.org/a?sid=06/12/26/1234567890abcdef", "http://news.slashdot.org/a?sid=06/12/26/1234567890abcdef"}, // kept by domain
		{"http://slashdot.org/a?sid=1234567890abcdefgh", "http://slashdot.org/a?sid=1234567890abcdefgh"},                         // the domain itself
		{"http://other.org/a?sid=1234567890abcdefgh", "http://other.org/a"},                                                      // no exception
		{"http://www.keep.com/A", "http://www.keep.com/A"},                                                                       // flags cleared by host
		{"http://www.sub.keep.com/A", "http://sub.keep.com/a"},                                                                   // host exceptions are exact
	}
	for _, tc := range tests {
		got, err := n.Key(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Key(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNewOptionsErrors(t *testing.T) {
	tests := []struct {
		name string
		e    Exception
	}{
		{"neither host nor domain", Exception{Keep: []string{"a"}}},
		{"both host and domain", Exception{Host: "a.com", Domain: "a.com"}},
		{"domain is a public suffix", Exception{Domain: "co.uk"}},
		{"domain is not registrable", Exception{Domain: "www.a.com"}},
	}
	for _, tc := range tests {
		if _, err := NewOptions(Crawler, Options{Exceptions: []Exception{tc.e}}); err == nil {
			t.Errorf("%s: NewOptions succeeded, want an error", tc.name)
		}
	}
}

func TestOptionsLists(t *testing.T) {
	n, err := NewOptions(Crawler|DropIndex, Options{
		SessionParams:  []ParamRule{{Name: "s"}},
		TrackingParams: []ParamRule{{Name: "ref*"}},
		IndexFiles:     []string{"start.htm"},
		MaxLength:      64,
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want string
	}{
		{"http://a.com/start.htm?s=1&referrer=x&utm_source=y", "http://a.com/?utm_source=y"}, // custom lists replace defaults
		{"http://a.com/index.html?jsessionid=1", "http://a.com/index.html?jsessionid=1"},     // defaults gone
	}
	for _, tc := range tests {
		got, err := n.Key(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Key(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	long := "http://a.com/" + string(make([]byte, 60))
	if _, err := n.Key(long); !errors.Is(err, ErrTooLong) {
		t.Errorf("Key(%d bytes) error = %v, want ErrTooLong", len(long), err)
	}
}

func TestErrorType(t *testing.T) {
	_, err := New(Crawler).Key("http://a.com:99999/")
	var e *Error
	if !errors.As(err, &e) || e.Op != "key" || e.URL != "http://a.com:99999/" || !errors.Is(err, ErrInvalidPort) {
		t.Fatalf("Key error = %#v, want *Error{Op: key, URL, ErrInvalidPort}", err)
	}
	if got, want := err.Error(), `urlnorm: key "http://a.com:99999/": invalid port`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

type upper struct{}

func (upper) Normalize(s string) (string, error) { return s + "!", nil }

type failing struct{}

func (failing) Normalize(s string) (string, error) { return "", errors.New("boom") }

func TestChain(t *testing.T) {
	c := Chain(New(Crawler), upper{})
	if got, err := c.Normalize("HTTP://A.com/?b&a"); err != nil || got != "http://a.com/?a&b!" {
		t.Errorf("Chain.Normalize = %q, %v", got, err)
	}
	if _, err := Chain(upper{}, failing{}).Normalize("x"); err == nil {
		t.Error("Chain with a failing stage succeeded")
	}
	if got, err := Chain().Normalize("x"); err != nil || got != "x" {
		t.Errorf("empty Chain = %q, %v", got, err)
	}
}

// keyed is a stage that keys its input with its own flags, as a learned rule set does.
type keyed Flags

func (k keyed) Normalize(s string) (string, error) { return New(Flags(k)).Key(s) }
func (k keyed) KeyFlags() Flags                    { return Flags(k) }

// TestChainRefusesStaticBeforeKeyed checks that Chain refuses a Normalizer with flags beyond
// the key of a later stage that keys its own input, and accepts one within it.
func TestChainRefusesStaticBeforeKeyed(t *testing.T) {
	tests := []struct {
		stages []Stage
		panics bool
	}{
		{[]Stage{New(Aggressive), keyed(Crawler)}, true},              // Aggressive merges what the learner kept apart
		{[]Stage{New(Aggressive), upper{}, keyed(Crawler)}, true},     // a stage in between does not hide it
		{[]Stage{New(Crawler), keyed(Crawler)}, false},                // redundant, harmless
		{[]Stage{New(Safe), keyed(Crawler)}, false},                   // within the key
		{[]Stage{keyed(Crawler), New(Aggressive)}, false},             // after the set: the caller's choice
		{[]Stage{New(Aggressive), keyed(0)}, false},                   // a set that takes canonical URLs
		{[]Stage{New(Crawler | FoldWWW), keyed(Crawler)}, true},       // one flag beyond is enough
		{[]Stage{New(Crawler), keyed(Crawler | FoldWWW)}, false},      // the set's key covers it
		{[]Stage{New(Aggressive), keyed(Aggressive), upper{}}, false}, // same flags
	}
	for i, tc := range tests {
		func() {
			defer func() {
				if r := recover(); (r != nil) != tc.panics {
					t.Errorf("case %d: Chain panicked: %v, want a panic: %v", i, r, tc.panics)
				}
			}()
			Chain(tc.stages...)
		}()
	}
}

func TestFlagsString(t *testing.T) {
	tests := []struct {
		f    Flags
		want string
	}{
		{0, "0"},                       // none
		{DropFragment, "DropFragment"}, // one
		{SortQuery | DropFragment, "DropFragment|SortQuery"}, // declaration order
		{1 << 40, "0x10000000000"},                           // unknown bit
	}
	for _, tc := range tests {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("Flags(%#x).String() = %q, want %q", uint64(tc.f), got, tc.want)
		}
	}
}

func TestPresetsGraded(t *testing.T) {
	if Safe&^Crawler != 0 || Crawler&^Aggressive != 0 || Safe == Crawler || Crawler == Aggressive {
		t.Errorf("presets not graded: Safe %v, Crawler %v, Aggressive %v", Safe, Crawler, Aggressive)
	}
	if Safe&^CanonicalFlags != 0 {
		t.Errorf("Safe has key-class flags: %v", Safe&^CanonicalFlags)
	}
}

func TestCutJSessionID(t *testing.T) {
	n := New(Crawler)
	tests := []struct{ in, want string }{
		{"http://a.com/x;jsessionid=1", "http://a.com/x"},                              // the one session parameter
		{"http://a.com/x;jsessionid=1;jsessionid=2", "http://a.com/x"},                 // every one, so that Key is idempotent
		{"http://a.com/x;a=1;JSESSIONID=2;b=3;jsessionid=4", "http://a.com/x;a=1;b=3"}, // others stay
		{"http://a.com/;jsessionid=0/y;jsessionid=", "http://a.com//y"},                // in each segment
		{"http://a.com/x;jsessionid", "http://a.com/x;jsessionid"},                     // no '=': not the parameter
	}
	for _, tt := range tests {
		if got, err := n.Key(tt.in); got != tt.want || err != nil {
			t.Errorf("Key(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestFlagsDocList checks that the list of flags in the Flags doc comment (what "go doc urlnorm
// Flags" shows) names every flag once, with the presets that hold it.
func TestFlagsDocList(t *testing.T) {
	src, err := os.ReadFile("flags.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{} // flag name -> its preset marks, "S C A"
	for line := range strings.Lines(string(src)) {
		if line == "type Flags uint64\n" {
			break
		}
		// Rows are "//\tName<padded to 24>S C A  before -> after".
		row, ok := strings.CutPrefix(line, "//\t")
		if !ok || !strings.Contains(row, " -> ") || len(row) < 29 {
			continue
		}
		name := strings.TrimSpace(row[:24])
		if _, dup := listed[name]; dup {
			t.Errorf("%s listed twice", name)
		}
		listed[name] = strings.Join(strings.Fields(row[24:29]), " ")
	}
	if len(listed) != len(flagNames) {
		t.Errorf("the Flags doc lists %d flags, there are %d", len(listed), len(flagNames))
	}
	for _, fn := range flagNames {
		var want []string
		for _, p := range []struct {
			mark  string
			flags Flags
		}{{"S", Safe}, {"C", Crawler}, {"A", Aggressive}} {
			if p.flags&fn.f != 0 {
				want = append(want, p.mark)
			}
		}
		if got, ok := listed[fn.name]; !ok || got != strings.Join(want, " ") {
			t.Errorf("the Flags doc gives %s the presets %q (listed: %v), want %q", fn.name, got, ok, strings.Join(want, " "))
		}
	}
}

// TestSortQueryMatchesReference checks the Crawler key of queries of 0 to 20
// parameters, in random orders with repeated names and values, some of them
// dropped, against refCrawlerKey: the insertion sort of a few parameters and
// the stable sort of many must both order them by name, then value.
func TestSortQueryMatchesReference(t *testing.T) {
	n := New(Crawler)
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "ab", "b", "B", "a_", "", "utm_x", "sid", "aa"}
	values := []string{"", "=", "=1", "=2", "=10", "=1", "=a&"}
	for range 3000 {
		var ps []string
		for range rng.IntN(21) {
			ps = append(ps, names[rng.IntN(len(names))]+values[rng.IntN(len(values))])
		}
		u := "http://a.com/?" + strings.Join(ps, "&")
		c, err := n.Canonical(u)
		if err != nil {
			t.Fatal(err)
		}
		k, err := n.Key(u)
		if want := refCrawlerKey(n, c); err != nil || k != want {
			t.Fatalf("Key(%q) = %q, %v; reference %q", u, k, err, want)
		}
	}
}

// keyCase is a Key call under flags f and the key it must give.
type keyCase struct {
	f        Flags
	in, want string
}

// checkKeyCases checks each case's key and that the key is its own key.
func checkKeyCases(t *testing.T, tests []keyCase) {
	t.Helper()
	for _, tc := range tests {
		got, err := New(tc.f).Key(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%v: Key(%q) = %q, %v; want %q", tc.f, tc.in, got, err, tc.want)
		}
		if again, err := New(tc.f).Key(got); err != nil || again != got {
			t.Errorf("%v: Key(%q) = %q, %v; not idempotent", tc.f, got, again, err)
		}
	}
}

// TestDecodeQuery checks the escapes DecodeQuery decodes and keeps, under the presets that set
// it, EncodeStrict off, and the flag alone.
func TestDecodeQuery(t *testing.T) {
	tests := []keyCase{
		{Crawler, "http://a.com/timeline?c=2019-02-28+12%3A00%3A00", "http://a.com/timeline?c=2019-02-28+12:00:00"},             // a Fossil link; '+' stays
		{Crawler, "http://a.com/?u=http%3A%2F%2Fb.com%2Fx%3Fy%2C%40%24%21%28%29%2A", "http://a.com/?u=http://b.com/x?y,@$!()*"}, // sub-delims, gen-delims but '#'
		{Crawler, "http://a.com/?%24top=5&%24filter=x", "http://a.com/?$filter=x&$top=5"},                                       // names too, then sorted
		{Crawler, "http://a.com/?a=%26%3D%2B%25%3B", "http://a.com/?a=%26%3D%2B%25%3B"},                                         // form delimiters stay
		{Crawler, "http://a.com/?a=%23%27%22%3C%3E%20%00%7F%C3%A9", "http://a.com/?a=%23%27%22%3C%3E%20%00%7F%C3%A9"},           // the special-query set stays
		{Crawler, "http://a.com/?a=%5B%5D%7B%7D%7C%5E%60%5C", "http://a.com/?a=%5B%5D%7B%7D%7C%5E%60%5C"},                       // so does EncodeStrict's
		{Crawler, "http://a.com/?a=%3a%2f%2b", "http://a.com/?a=:/%2B"},                                                         // lower-case hex
		{Crawler, "http://a.com/?a=%3", "http://a.com/?a=%253"},                                                                 // a stray '%' is no escape
		{Crawler, "http://a.com/?a=%253A", "http://a.com/?a=%253A"},                                                             // decoded once: %25 stays
		{Crawler, "http://a.com/%3A?a=%3A#%3A", "http://a.com/%3A?a=:"},                                                         // the query only
		{Crawler, "http://a.com/?utm%5Fsource=x&a%3Ab=1", "http://a.com/?a:b=1"},                                                // names are matched decoded
		{Crawler &^ EncodeStrict, "http://a.com/?a=%5B%5D%7B%7D%7C%5E%60%5C%3A", "http://a.com/?a=[]{}|^`\\:"},                  // left raw without EncodeStrict
		{Crawler &^ EncodeStrict, "http://a.com/?a=%23%27%26", "http://a.com/?a=%23%27%26"},                                     // still kept
		{DecodeQuery, "http://a.com/?a=%3a%41%2b", "http://a.com/?a=:A%2b"},                                                     // alone: unreserved too, hex case kept
		{Crawler &^ DecodeQuery, "http://a.com/?a=%3A", "http://a.com/?a=%3A"},                                                  // off
		{Aggressive, "https://www.a.com/?c=12%3A00", "http://a.com/?c=12:00"},                                                   // in Aggressive
	}
	checkKeyCases(t, tests)
	// Canonical keeps the escapes: a server that reads the raw query may tell them apart.
	if got, _ := New(Crawler).Canonical("http://a.com/?c=12%3A00"); got != "http://a.com/?c=12%3A00" {
		t.Errorf("Canonical decodes the query: %q", got)
	}
}

// TestSemicolonParams checks which queries SemicolonParams reads as joined by '&', under the
// presets that set it, the flag alone and off, on the fast path's shapes and the slow path's.
func TestSemicolonParams(t *testing.T) {
	tests := []keyCase{
		{Crawler, "http://a.com/?p=a.git;a=tree;h=HEAD", "http://a.com/?a=tree&h=HEAD&p=a.git"},                               // gitweb: then sorted
		{Crawler, "http://a.com/index.pl?id=2184;isa=Category;op=show", "http://a.com/index.pl?id=2184&isa=Category&op=show"}, // a Perl CGI link
		{Crawler, "http://a.com/?sid=1;utm_source=x;b=", "http://a.com/?b&sid=1"},                                             // "b=": a name and an empty value
		{Crawler, "http://a.com/?b=2;utm_source=x;a=1", "http://a.com/?a=1&b=2"},                                              // then tracking dropped
		{Crawler, "http://a.com/?q=a;b", "http://a.com/?q=a;b"},                                                               // a piece without '=': a value
		{Crawler, "http://a.com/?a=1;=2", "http://a.com/?a=1;=2"},                                                             // a piece without a name
		{Crawler, "http://a.com/?a=1&b=2;c=3", "http://a.com/?a=1&b=2;c=3"},                                                   // '&' already separates
		{Crawler, "http://a.com/?p=a.git;a=tree&utm_source=x", "http://a.com/?a=tree&p=a.git"},                                // beside a tracker's parameter
		{Crawler, "http://a.com/?p=a.git;a=tree&utm_source=x&&PHPSESSID=0123456789abcdef", "http://a.com/?a=tree&p=a.git"},    // an empty one, a session id
		{Crawler, "http://a.com/?utm_source=x&p=a.git;a=tree&h=1", "http://a.com/?h=1&p=a.git;a=tree"},                        // beside a kept one
		{Crawler, "http://a.com/?p=a;b=c&utm_source=x;y", "http://a.com/?b=c&p=a"},                                            // a dropped one with ';'
		{Crawler, "http://a.com/?p=a;b=c&x=1;y=2", "http://a.com/?p=a;b=c&x=1;y=2"},                                           // two kept with ';'
		{SemicolonParams, "http://a.com/?b=1;a=2&utm_source=x", "http://a.com/?b=1;a=2&utm_source=x"},                         // nothing dropped
		{Crawler, "http://a.com/?a=1%3Bb=2", "http://a.com/?a=1%3Bb=2"},                                                       // %3B is no separator
		{Crawler, "http://a.com/?a=1;", "http://a.com/?a=1;"},                                                                 // an empty last piece
		{Crawler, "http://A.com/?p=x%41;a=b", "http://a.com/?a=b&p=xA"},                                                       // the slow path
		{Crawler, "http://a.com/b;c?x=1;y=2#f", "http://a.com/b;c?x=1&y=2"},                                                   // ';' in the path stays
		{SemicolonParams, "http://a.com/?b=1;a=2", "http://a.com/?b=1&a=2"},                                                   // alone: not sorted
		{Crawler &^ SemicolonParams, "http://a.com/?b=1;a=2", "http://a.com/?b=1;a=2"},                                        // off
		{Aggressive, "https://www.a.com/?b=1;a=2", "http://a.com/?a=2&b=1"},                                                   // in Aggressive
	}
	checkKeyCases(t, tests)
	if got, _ := New(Crawler).Canonical("http://a.com/?b=1;a=2"); got != "http://a.com/?b=1;a=2" {
		t.Errorf("Canonical reads ';' as '&': %q", got)
	}
}

// TestDecodeQuerySet checks the escape of every byte, in a name and in a value, under Crawler
// with and without EncodeStrict, against refFormSame (the WHATWG query sets and net/url's form
// decoding), and the set of bytes decoded against the list of the DecodeQuery doc comment.
func TestDecodeQuerySet(t *testing.T) {
	for _, tc := range []struct {
		f    Flags
		list string // the bytes decoded beyond the unreserved ones
	}{
		{Crawler, "!$()*,/:?@"},
		{Crawler &^ EncodeStrict, "!$()*,/:?@`{}|[]^\\"},
	} {
		n := New(tc.f)
		var decoded []byte
		for c := range 256 {
			u := fmt.Sprintf("http://a.com/?x%%%02Xy=1&z=x%%%02Xy", c, c)
			k, err := n.Key(u)
			if err != nil {
				t.Fatalf("%v: Key(%q): %v", tc.f, u, err)
			}
			cn, _ := n.Canonical(u)
			if want := refCrawlerKey(n, cn); k != want {
				t.Errorf("%v: Key(%q) = %q; reference %q", tc.f, u, k, want)
			}
			if refFormSame(byte(c), tc.f&EncodeStrict != 0) && !unreserved[c] {
				decoded = append(decoded, byte(c))
			}
		}
		slices.Sort(decoded)
		want := []byte(tc.list)
		slices.Sort(want)
		if string(decoded) != string(want) {
			t.Errorf("%v: DecodeQuery decodes %q beyond the unreserved bytes, its doc lists %q", tc.f, decoded, want)
		}
	}
}

// TestDecodeQuerySameKey checks that links that spell one query raw and escaped share a key, and
// the summary of parameter names, whose names are decoded too: the bit of each name.
func TestDecodeQuerySameKey(t *testing.T) {
	for _, pair := range [][2]string{
		{"http://a.com/timeline?c=2019-02-28+12%3A00%3A00", "http://a.com/timeline?c=2019-02-28+12:00:00"}, // Fossil's link, katana's parse
		{"http://a.com/?%61=1", "http://a.com/?a=1"},                                                       // an unreserved name
		{"http://a.com/?%24top=5&a=%2C", "http://a.com/?a=,&$top=5"},                                       // a reserved one
		{"http://a.com/?next=%2Fb%3Fc%3D1", "http://a.com/?next=/b?c%3D1"},                                 // '=' stays escaped
	} {
		for _, f := range []Flags{Crawler, Aggressive} {
			n := New(f)
			var keys [2]string
			for i, u := range pair {
				var l KeyLayout
				b, err := n.AppendKeyLayout(nil, u, &l)
				if err != nil {
					t.Fatal(err)
				}
				keys[i] = string(b)
				checkParamNames(t, keys[i], &l)
			}
			if keys[0] != keys[1] {
				t.Errorf("%v: %q and %q key as %q and %q", f, pair[0], pair[1], keys[0], keys[1])
			}
		}
	}
}
