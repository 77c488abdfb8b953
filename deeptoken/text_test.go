package deeptoken

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/urlnorm"
)

// learnedSet returns patterns learned from the paper-shaped hosts, and URLs of those hosts.
var learnedSet = sync.OnceValues(func() ([]*Patterns, [][]string) {
	gens := []func(r *rand.Rand) string{
		ebayURL,
		func(r *rand.Rand) string {
			return "http://x.example/" + figure2()[r.IntN(24)] + "?id=tt" + randID(r, 7, "0123456789")
		},
		func(r *rand.Rand) string {
			return "http://x.example/u/" + []string{"friends", "album"}[r.IntN(2)] + "-" + randID(r, 12, base62)
		},
	}
	var ps []*Patterns
	var us [][]string
	for i, g := range gens {
		urls := hostURLs(800, uint64(i), g)
		ps = append(ps, Learn(slices.Values(urls), Options{}))
		us = append(us, urls)
	}
	return ps, us
})

func TestTextRoundTrip(t *testing.T) {
	ps, urls := learnedSet()
	ps = append(ps, nil, &Patterns{})
	urls = append(urls, nil, nil)
	for i, p := range ps {
		text := p.AppendText(nil)
		checkTextShape(t, text)
		q, err := ParsePatterns(text)
		if err != nil {
			t.Fatalf("ParsePatterns(AppendText(p%d)): %v\n%s", i, err, text)
		}
		if again := q.AppendText(nil); !bytes.Equal(again, text) {
			t.Errorf("p%d: text not stable across ParsePatterns:\n%s", i, cmp.Diff(string(text), string(again)))
		}
		if i < 3 && q.Len() == 0 {
			t.Errorf("p%d: learned nothing", i)
		}
		for _, u := range urls[i] {
			toks, err := urlnorm.Tokenize(nil, u)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(p.AppendSplit(nil, toks), q.AppendSplit(nil, toks)); diff != "" {
				t.Fatalf("p%d: parsed patterns split %q differently (-learned +parsed):\n%s", i, u, diff)
			}
		}
	}
}

// checkTextShape checks the promises of AppendText: lines ending in "\n", none empty, none
// starting with "#".
func checkTextShape(t *testing.T, text []byte) {
	t.Helper()
	if len(text) == 0 {
		return
	}
	if text[len(text)-1] != '\n' {
		t.Errorf("text does not end in a newline: %q", text)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if l == "" || l[0] == '#' {
			t.Errorf("bad line %q in text:\n%s", l, text)
		}
	}
}

func TestTextDeterministic(t *testing.T) {
	_, urls := learnedSet()
	r := rand.New(rand.NewPCG(5, 5))
	for _, us := range urls {
		a := Learn(slices.Values(us), Options{}).AppendText(nil)
		shuffled := slices.Clone(us)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b := Learn(slices.Values(append(shuffled, shuffled[:10]...)), Options{}).AppendText(nil)
		if !bytes.Equal(a, b) {
			t.Errorf("learning depends on URL order or repeats:\n%s", cmp.Diff(string(a), string(b)))
		}
	}
}

func TestParseText(t *testing.T) {
	const good = "key path 2\nnode 0 *\nanchor 0 1 ^ - friends\nnode 1 friends - *\n" +
		"key query =a%20b\nnode 0 *\nanchor 0 0 %25 $ x\nnode 1 * %25 x\n"
	p, err := ParsePatterns([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != good {
		t.Errorf("String() = %q, want %q", got, good)
	}
	toks := []urlnorm.Token{
		{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 2, RPos: 1}, Value: "friends-x1Y"},
		{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: "a b", Pos: 1}, Value: "100%x"},
	}
	var got []string
	for _, d := range p.AppendSplit(nil, toks) {
		got = append(got, d.Key.String()+"="+d.Value)
	}
	want := []string{"path(2.1,1.3)=friends", "path(2.2,1.2)=-", "path(2.3,1.1)=x1Y",
		"query(a b)[1,3]=100", "query(a b)[2,2]=%", "query(a b)[3,1]=x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("split mismatch (-want +got):\n%s", diff)
	}

	tests := []struct {
		text string
		line int
	}{
		{"node 0 *\n", 1},   // node before key
		{"key path 0\n", 1}, // positions start at 1
		{"key path 1\nnode 0 *\nkey path 1\nnode 0 *\n", 3}, // duplicate key
		{"key path x\n", 1},                                   // position not a number
		{"key path +1\nnode 0 *\n", 1},                        // position not canonical
		{"key query x\nnode 0 *\n", 1},                        // query name without "="
		{"key host\n", 1},                                     // wrong field count
		{"key fragment x\n", 1},                               // unknown part
		{"key path 1\n", 1},                                   // key without patterns
		{"key path 1\nkey path 2\nnode 0 *\n", 1},             // key without patterns, then another
		{"key path 1\nnode 0 a\n", 2},                         // root must be "*"
		{"key path 1\nnode 0 *\nnode 0 *\n", 3},               // one root per key
		{"key path 1\nnode 0 *\nnode 2 a *\n", 3},             // depth skips a level
		{"key path 1\nnode 0 *\nnode 1 * *\n", 3},             // two stars in a row
		{"key path 1\nnode 0 *\nnode 1 ab- *\n", 3},           // literal of two units
		{"key path 1\nnode 0 *\nnode 1 %zz *\n", 3},           // bad escape
		{"key path 1\nnode 0 *\nnode 1 a^ *\n", 3},            // unescaped special byte
		{"key path 1\nnode 0 *\nnode 1\n", 3},                 // node without elements
		{"key path 1\nanchor 0 0 ^ - a\n", 2},                 // anchor before node
		{"key path 1\nnode 0 *\nanchor 0 0 ^ - a-b\n", 3},     // anchor of two units
		{"key path 1\nnode 0 *\nanchor 0 0 ^ - -\n", 3},       // anchor is a delimiter
		{"key path 1\nnode 0 *\nanchor 0 0 $ - a\n", 3},       // "$" as a start delimiter
		{"key path 1\nnode 0 *\nanchor 0 0 ^ ab a\n", 3},      // delimiter of two units
		{"key path 1\nnode 0 *\nanchor 0 9 ^ - a\n", 3},       // position beyond maxOrd
		{"key path 1\nnode 0 *\nanchor -1 0 ^ - a\n", 3},      // negative gap
		{"key path 1\nnode 0 *\nanchor 0 0 ^ - a\n\n", 4},     // empty line
		{"# comment\n", 1},                                    // comments are the caller's
		{"key path 1\nnode 0 *\nanchor 0 0 ^ - a extra\n", 3}, // too many fields
		{"key path 1\nnode 0 *\nanchor 0 0 ^  - a\n", 3},      // double space
	}
	for _, tt := range tests {
		_, err := ParsePatterns([]byte(tt.text))
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
			t.Errorf("ParsePatterns(%q) = %v, want a *ParseError", tt.text, err)
			continue
		}
		if pe.Line != tt.line {
			t.Errorf("ParsePatterns(%q): error on line %d, want %d: %v", tt.text, pe.Line, tt.line, err)
		}
		if !strings.HasPrefix(err.Error(), "deeptoken: line ") {
			t.Errorf("ParsePatterns(%q): error %q lacks the package prefix", tt.text, err)
		}
	}
}

func TestSplitMatchesSlow(t *testing.T) {
	ps, urls := learnedSet()
	r := rand.New(rand.NewPCG(9, 9))
	for i, p := range ps {
		for _, u := range urls[i] {
			// Mutate some URLs so that they match partially.
			if r.IntN(3) == 0 {
				b := []byte(u)
				j := len("http://x.example/") + r.IntN(len(b)-len("http://x.example/"))
				b[j] = "aZ9-_Q.[]"[r.IntN(9)]
				u = string(b)
			}
			compareSlow(t, p, u)
		}
	}
}

func compareSlow(t *testing.T, p *Patterns, u string) {
	t.Helper()
	toks, err := urlnorm.Tokenize(nil, u)
	if err != nil {
		return
	}
	if diff := cmp.Diff(slowSplit(p, toks), p.AppendSplit(nil, toks)); diff != "" {
		t.Fatalf("AppendSplit(%q) differs from slowSplit (-slow +fast):\n%s", u, diff)
	}
}

func TestSplitEdgeCases(t *testing.T) {
	ps, _ := learnedSet()
	p := ps[0]
	toks := []urlnorm.Token{
		{Key: urlnorm.Key{Part: urlnorm.PartHost}, Value: "a_W0QQ_fclsZ1QQ_pcatidZ1QQ_pidZ2QQ_tabZ2"},                          // host: never split
		{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1, Sub: 1, RSub: 1}, Value: "a_W0QQ_fclsZ1QQ_pcatidZ1QQ_pidZ2QQ_tabZ2"}, // already deep
		{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, Value: ""},                                                          // empty
		{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, Value: "QQ"},                                                        // one unit
		{Key: urlnorm.Key{Part: urlnorm.PartQuery, Name: "x"}, Bare: true},                                                     // bare
	}
	got := p.AppendSplit(nil, toks)
	if diff := cmp.Diff(toks, got); diff != "" {
		t.Errorf("AppendSplit changed tokens it must copy (-want +got):\n%s", diff)
	}
	var nilP *Patterns
	if diff := cmp.Diff(toks, nilP.AppendSplit(nil, toks)); diff != "" {
		t.Errorf("nil Patterns changed tokens (-want +got):\n%s", diff)
	}
	if nilP.Len() != 0 || nilP.String() != "" || (&Patterns{}).Len() != 0 {
		t.Errorf("nil or zero Patterns is not empty")
	}
}

func TestAllocs(t *testing.T) {
	ps, urls := learnedSet()
	for i, p := range ps {
		toks, err := urlnorm.Tokenize(nil, urls[i][0])
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]urlnorm.Token, 0, 128)
		if n := testing.AllocsPerRun(100, func() { dst = p.AppendSplit(dst[:0], toks) }); n != 0 {
			t.Errorf("AppendSplit(%q) allocates %v times, want 0", urls[i][0], n)
		}
	}
}
