package deeptoken

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/urlnorm"
)

// unitTexts returns the texts of the units of s.
func unitTexts(s string) []string {
	var out []string
	for _, u := range appendUnits(nil, s) {
		out = append(out, s[u.start:u.end])
	}
	return out
}

// slowUnits is the reference for appendUnits: a rune-free, character-at-a-time restatement of
// the unit rules.
func slowUnits(s string) []string {
	class := func(i int) string {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			return "a"
		case c >= 'A' && c <= 'Z':
			return "A"
		case c >= '0' && c <= '9':
			return "0"
		case c >= 0x80:
			return "u"
		}
		return "."
	}
	var out []string
	cur := ""
	curClass := ""
	flush := func() {
		if cur != "" {
			out = append(out, cur)
		}
		cur, curClass = "", ""
	}
	for i := 0; i < len(s); i++ {
		k := class(i)
		switch {
		case k == ".":
			flush()
			if s[i] == '%' && i+2 < len(s) && strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i+1])) &&
				strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i+2])) {
				out = append(out, s[i:i+3])
				i += 2
			} else {
				out = append(out, s[i:i+1])
			}
		case k == "A" && i+1 < len(s) && class(i+1) == "a" && (i == 0 || class(i-1) != "a"):
			// A capital starts a word, even after capitals, but not after a lowercase letter.
			flush()
			cur, curClass = s[i:i+1], "Aa"
		case k == "a" && curClass == "Aa":
			cur += s[i : i+1]
		case k == curClass:
			cur += s[i : i+1]
		default:
			flush()
			cur, curClass = s[i:i+1], k
		}
	}
	flush()
	return out
}

func TestUnits(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ctattractions-17876002-Austria-Vienna-attractions.html", // Figure 2: capitalized words are one unit
			[]string{"ctattractions", "-", "17876002", "-", "Austria", "-", "Vienna", "-", "attractions", ".", "html"}},
		{"accelerate.php[id]100019[SiteID]softwareoasis", // §2: custom "[" "]" delimiters
			[]string{"accelerate", ".", "php", "[", "id", "]", "100019", "[", "Site", "ID", "]", "softwareoasis"}},
		{"W0QQ_fclsZ1QQ_pcatidZ1", // Definition 3: unit changes are delimiters
			[]string{"W", "0", "QQ", "_", "fcls", "Z", "1", "QQ", "_", "pcatid", "Z", "1"}},
		{"tt0810900", []string{"tt", "0810900"}},           // IMDb id: letters then digits
		{"HTMLParser", []string{"HTML", "Parser"}},         // an uppercase run stops before a capitalized word
		{"New%20York", []string{"New", "%20", "York"}},     // a percent-escape is one delimiter
		{"100%", []string{"100", "%"}},                     // a lone "%" is a delimiter
		{"caf\xc3\xa9s", []string{"caf", "\xc3\xa9", "s"}}, // non-ASCII bytes are a unit of their own class
		{"", nil},                  // empty token: no units
		{"--", []string{"-", "-"}}, // every delimiter is its own unit
		{"lttU7d6kIuGq", []string{"ltt", "U", "7", "d", "6", "k", "I", "u", "G", "q"}},       // random id
		{"_nkwZtipsQQ_pgnZ4", []string{"_", "nkw", "Z", "tips", "QQ", "_", "pgn", "Z", "4"}}, // eBay: a capital after lowercase is no word start
		{"SiteID", []string{"Site", "ID"}},                                                   // capitalized word, then an uppercase run
	}
	for _, tt := range tests {
		got := unitTexts(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("units(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
		if diff := cmp.Diff(slowUnits(tt.in), got); diff != "" {
			t.Errorf("units(%q) differs from slowUnits (-slow +fast):\n%s", tt.in, diff)
		}
	}
}

// figure2 returns path segments shaped like WSDM'10 Figure 2.
func figure2() []string {
	cities := []string{"Vienna", "Salzburg", "Graz"}
	sights := []string{"Belvedere", "Dommuseum", "Eisriesenwelt", "Hofburg"}
	var segs []string
	for i := range 12 {
		segs = append(segs, fmt.Sprintf("ctattractions-%d-Austria-%s-attractions.html", 17876002+i*4711, cities[i%3]))
		segs = append(segs, fmt.Sprintf("profile-%d-Austria-%s-%s.html", 78587305+i*977, cities[i%3], sights[i%4]))
	}
	return segs
}

func urlsOf(host string, segs []string) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = "http://" + host + "/" + s
	}
	return out
}

// deep returns the values of the deep tokens of url (or the whole tokens it does not split) for
// the path segment at position pos.
func deep(t *testing.T, p *Patterns, url string, pos int16) []string {
	t.Helper()
	toks, err := urlnorm.Tokenize(nil, url)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range p.AppendSplit(nil, toks) {
		if d.Part == urlnorm.PartPath && d.Pos == pos {
			out = append(out, d.Value)
		}
	}
	return out
}

func nodeTexts(n *node, dst []string) []string {
	dst = append(dst, string(appendElems(nil, n.elems)))
	for _, k := range n.kids {
		dst = nodeTexts(k, dst)
	}
	return dst
}

func TestFigure2(t *testing.T) {
	p := Learn(slices.Values(urlsOf("example.com", figure2())), Options{})
	root := p.trees[treeKey{part: urlnorm.PartPath, pos: 1}]
	if root == nil {
		t.Fatalf("no tree for path 1:\n%s", p)
	}
	nodes := nodeTexts(root, nil)
	for _, want := range []string{
		"* - Austria - * . html",                               // the first refinement of "*" ({Austria}, {html})
		"ctattractions - * - Austria - * . html",               // the ctattractions branch
		"profile - * - Austria - * . html",                     // the profile branch separates
		"ctattractions - * - Austria - * - attractions . html", // the ctattractions leaf
	} {
		if !slices.Contains(nodes, want) {
			t.Errorf("pattern %q not learned; tree:\n%s", want, p)
		}
	}
	tests := []struct {
		url  string
		want []string
	}{
		{"http://example.com/ctattractions-17876002-Austria-Vienna-attractions.html", // Figure 2's deep tokens
			[]string{"ctattractions", "-", "17876002", "-", "Austria", "-", "Vienna", "-", "attractions", ".", "html"}},
		{"http://example.com/ctattractions-99999999-Austria-Linz-attractions.html", // unseen id and city: stars
			[]string{"ctattractions", "-", "99999999", "-", "Austria", "-", "Linz", "-", "attractions", ".", "html"}},
		{"http://example.com/profile-78587305-Austria-Graz-Belvedere.html", // profile branch
			[]string{"profile", "-", "78587305", "-", "Austria", "-", "Graz", "-", "Belvedere", ".", "html"}},
		{"http://example.com/about-us", // not covered: whole
			[]string{"about-us"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, deep(t, p, tt.url, 1)); diff != "" {
			t.Errorf("AppendSplit(%q) mismatch (-want +got):\n%s", tt.url, diff)
		}
	}
}

// TestLossless checks urlnorm.Join(AppendSplit(toks)) == urlnorm.Join(toks) and the deep-token
// keys on learned patterns.
func TestLossless(t *testing.T) {
	p := Learn(slices.Values(urlsOf("example.com", figure2())), Options{})
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ09-._[]%~QqAustria"
	for i := range 2000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		seg := b.String()
		if i%2 == 0 {
			seg = figure2()[r.IntN(24)] + seg
		}
		checkLossless(t, p, "http://example.com/"+strings.ReplaceAll(seg, "/", "")+"?q="+seg)
	}
}

func checkLossless(t *testing.T, p *Patterns, url string) {
	t.Helper()
	seg := strings.NewReplacer("?", "", "#", "").Replace(url[len("http://"):])
	url = "http://" + seg
	toks, err := urlnorm.Tokenize(nil, url)
	if err != nil {
		return
	}
	split := p.AppendSplit(nil, toks)
	if got, want := urlnorm.Join(split), urlnorm.Join(toks); got != want {
		t.Fatalf("Join(AppendSplit(%q)) = %q, want %q", url, got, want)
	}
	for i := 0; i < len(split); {
		d := split[i]
		if d.Sub == 0 {
			i++
			continue
		}
		m := int(d.RSub) + int(d.Sub) - 1
		if d.Sub != 1 || m < 2 || i+m > len(split) {
			t.Fatalf("AppendSplit(%q): bad deep-token run at %d: %v", url, i, d.Key)
		}
		for j := range m {
			e := split[i+j]
			if int(e.Sub) != j+1 || int(e.RSub) != m-j || e.Part != d.Part || e.Pos != d.Pos || e.Name != d.Name || e.Value == "" {
				t.Fatalf("AppendSplit(%q): deep token %d of run at %d: %v %q", url, j, i, e.Key, e.Value)
			}
		}
		i += m
	}
}

// TestSplitterAppendSplit checks that a Splitter, one token at a time and reused across hosts,
// gives what AppendSplit gives for the whole URL, on the URLs of every host of the sample with
// the host's learned patterns, and on hostile tokens: longer than the working memory, bare,
// already deep, of parts that are never split, or of no pattern tree.
func TestSplitterAppendSplit(t *testing.T) {
	var sp Splitter
	var one []urlnorm.Token
	tokens, split := 0, 0
	check := func(p *Patterns, toks []urlnorm.Token) {
		t.Helper()
		want := p.AppendSplit(nil, toks)
		var got []urlnorm.Token
		for _, tok := range toks {
			one = sp.AppendToken(one[:0], p, tok)
			got = append(got, one...)
			if len(one) > 1 {
				split++
			}
			tokens++
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Splitter.AppendToken of each of %v mismatch (-AppendSplit +got):\n%s", toks, diff)
		}
	}
	for _, us := range sampleHosts(t) {
		p := Learn(slices.Values(us), Options{})
		for _, u := range us {
			toks, err := urlnorm.Tokenize(nil, u)
			if err != nil {
				continue
			}
			check(p, toks)
			// The same tokens made deep, bare, longer than 96 units, of another part.
			for i := range toks {
				tok := toks[i]
				if tok.Part != urlnorm.PartPath && tok.Part != urlnorm.PartQuery {
					continue
				}
				deep, bare, long, other := tok, tok, tok, tok
				deep.Sub, deep.RSub = 1, 1
				bare.Bare = true
				long.Value = strings.Repeat(tok.Value+"-", 60)
				other.Part = urlnorm.PartFragment
				check(p, []urlnorm.Token{deep, bare, long, other})
			}
		}
		check(nil, []urlnorm.Token{{Key: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1, RPos: 1}, Value: "tt1"}})
	}
	t.Logf("%d tokens, %d split", tokens, split)
	if split == 0 {
		t.Error("no token split: the test checks nothing")
	}
}

// TestSplitterMemo checks a Splitter's memory of the tokens it split on tokens that it could
// take for one another: the same bytes under two keys with different trees, values of the same
// length and the same first and last 8 bytes (which the memory's fingerprint holds) that differ
// in the middle, values of every length around the fingerprint's and the memory's bounds, and
// more distinct values than it has slots. Each is split twice, among the others, and compared
// with AppendSplit, which has no memory.
func TestSplitterMemo(t *testing.T) {
	p, err := ParsePatterns([]byte("key path 1\nnode 0 *\nanchor 0 0 - - x\nnode 1 * - x - *\n" +
		"key path 2\nnode 0 *\nanchor 0 1 ^ - x\nnode 1 x - *\n" +
		"key query =q\nnode 0 *\nanchor 0 0 - - y\nnode 1 * - y - *\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1, RPos: 1}
	query := urlnorm.Key{Part: urlnorm.PartQuery, Name: "q", Pos: 1}
	var vals []string
	for _, mid := range []string{"x", "y", "z", "xx", "yx"} {
		for n := range 20 {
			for _, side := range []string{"", "abcdefgh"} {
				vals = append(vals, side+strings.Repeat("a", n)+"-"+mid+"-"+strings.Repeat("b", n/2)+side)
			}
		}
	}
	// Short values, of which the fingerprint holds three bytes (or four and four), and
	// values whose first and last 8 bytes are those of a value of another length.
	vals = append(vals, "x", "x-", "-x", "x-a", "xba", "x-ab", "xb-a", "x-a-b", "x-x-x-x-", "x-x-x-x-x-", "x-x-x-x-x-x-")
	var toks []urlnorm.Token
	for _, v := range vals {
		toks = append(toks, urlnorm.Token{Key: path, Value: v}, urlnorm.Token{Key: query, Value: v})
		path2 := urlnorm.Token{Key: path, Value: v}
		path2.Pos = 2
		toks = append(toks, path2)
	}
	var sp Splitter
	var one []urlnorm.Token
	split := 0
	for round := range 4 {
		for i, tok := range toks {
			// Round 0 goes through the tokens in order, round 1 backwards, round 2 in pairs of
			// a token and one far away, round 3 through those of each key in turn.
			switch round {
			case 1:
				tok = toks[len(toks)-1-i]
			case 2:
				tok = toks[i/2+i%2*len(toks)/2]
			case 3:
				tok = toks[i%len(vals)*3+i/len(vals)]
			}
			want := p.AppendSplit(nil, []urlnorm.Token{tok})
			one = sp.AppendToken(one[:0], p, tok)
			if diff := cmp.Diff(want, one); diff != "" {
				t.Fatalf("round %d: Splitter.AppendToken(%v %q) mismatch (-AppendSplit +got):\n%s", round, tok.Key, tok.Value, diff)
			}
			if len(want) > 1 {
				split++
			}
		}
	}
	if split == 0 || sp.memoHits == 0 {
		t.Errorf("%d tokens split, %d found in memory: the test checks nothing", split, sp.memoHits)
	}
}
