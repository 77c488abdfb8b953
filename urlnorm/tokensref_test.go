package urlnorm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// tokenizeRef is Tokenize by splitting strings, token by token: the reference for Tokenize and
// KeyLayout.AppendTokens, which find the separators a word at a time. ok is false where
// Tokenize fails.
func tokenizeRef(s string) (toks []Token, ok bool) {
	scheme, rest, found := strings.Cut(s, "://")
	if !found || scheme == "" {
		return nil, false
	}
	toks = append(toks, Token{Key: Key{Part: PartScheme}, Value: scheme})
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return nil, false
	}
	auth, rest := rest[:slash], rest[slash:]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		toks = append(toks, Token{Key: Key{Part: PartUserinfo}, Value: auth[:at]})
		auth = auth[at+1:]
	}
	host, port, hasPort := auth, "", false
	if c := strings.LastIndex(auth, ":"); c >= 0 && !strings.Contains(auth[c:], "]") {
		host, port, hasPort = auth[:c], auth[c+1:], true
	}
	toks = append(toks, Token{Key: Key{Part: PartHost}, Value: host})
	if hasPort {
		toks = append(toks, Token{Key: Key{Part: PartPort}, Value: port})
	}
	rest, frag, hasFrag := strings.Cut(rest, "#")
	path, query, hasQuery := strings.Cut(rest, "?")
	segs := strings.Split(path[1:], "/")
	if len(segs) > maxTokens {
		return nil, false
	}
	for i, seg := range segs {
		toks = append(toks, Token{Key: Key{Part: PartPath, Pos: int16(i + 1), RPos: int16(len(segs) - i)}, Value: seg})
	}
	if hasQuery {
		params := strings.Split(query, "&")
		if len(params) > maxTokens {
			return nil, false
		}
		seen := map[string]int16{}
		for _, p := range params {
			name, value, eq := strings.Cut(p, "=")
			seen[name]++
			toks = append(toks, Token{Key: Key{Part: PartQuery, Name: name, Pos: seen[name]}, Value: value, Bare: !eq})
		}
	}
	if hasFrag {
		toks = append(toks, Token{Key: Key{Part: PartFragment}, Value: frag})
	}
	return toks, true
}

// tokenShapes returns URLs of the shapes whose tokens are easy to get wrong: empty segments and
// parameters, '=' in values, repeated names, separators at each offset of an 8-byte word, and
// long paths and queries.
func tokenShapes() []string {
	in := []string{
		"http://h/", "http://h//", "http://h///", "http://h/a//b/", "http://h/?", "http://h/?&", "http://h/?&&",
		"http://h/?a=b=c&a==&=&==x", "http://h/?a&a&a=1&b&a", "http://h/?=1&=2&", "http://h/#", "http://h/?#",
		"http://u:p@h:8/a/b?c=d#e", "http://@h:/", "http://[::1]/x", "http://[::1]:80/x", "a://h/x", "ab://h/",
		"http://h/a?b/c&d=/e#f/g?h&i", "http://h/" + strings.Repeat("a/", 40), "http://h/" + strings.Repeat("/", 70),
		"http://h/?" + strings.Repeat("a=1&b&", 40), "http://h/?" + strings.Repeat("&", 70),
		"http://h/?" + strings.Repeat("x&", scanParams) + "x", "http://h/?" + strings.Repeat("x=1&y=2&", scanParams),
		hostile.QueryParams(100, false), hostile.QueryParams(100, true), hostile.RepeatedSegments("/", 300),
	}
	// A separator at every offset, in paths and queries of every length up to three words.
	for n := 0; n <= 26; n++ {
		for i := 0; i < n; i++ {
			b := []byte(strings.Repeat("x", n))
			b[i] = '/'
			in = append(in, "http://h/"+string(b), "s://h/"+string(b)+"?q")
			b[i] = '&'
			in = append(in, "http://h/?"+string(b), "s://h/p?"+string(b)+"#f")
			b[i] = '='
			in = append(in, "http://h/?"+string(b)+"&"+string(b))
		}
	}
	return in
}

// TestTokenizeRef checks Tokenize against tokenizeRef on the shapes of tokenShapes and every
// 10th URL of the corpus of testdata (tier.Step), several times with one buffer.
func TestTokenizeRef(t *testing.T) {
	in := tokenShapes()
	urls, _ := loadCorpus(t)
	for i, step := 0, tier.Step(10); i < len(urls); i += step {
		in = append(in, urls[i])
	}
	var buf []Token
	for _, s := range in {
		checkTokenizeRef(t, &buf, s)
	}
}

// checkTokenizeRef checks Tokenize of s, appended to the tokens left in *buf, against
// tokenizeRef.
func checkTokenizeRef(t *testing.T, buf *[]Token, s string) {
	t.Helper()
	pre := len(*buf) % 3
	got, err := Tokenize((*buf)[:pre], s)
	checkAgainstRef(t, "Tokenize of", s, buf, pre, got, err)
}

// checkAgainstRef checks got and err, what what made of the tokens of s after the pre tokens of
// *buf, against tokenizeRef of s: its tokens, or an error and *buf's tokens untouched. It keeps
// got in *buf for the next call.
func checkAgainstRef(t *testing.T, what, s string, buf *[]Token, pre int, got []Token, err error) {
	t.Helper()
	want, ok := tokenizeRef(s)
	if !ok {
		if err == nil || len(got) != pre {
			t.Fatalf("%s %q = %d tokens, %v; want an error", what, clip(s), len(got), err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s %q: %v", what, clip(s), err)
	}
	*buf = got
	if diff := cmp.Diff(want, got[pre:]); diff != "" {
		t.Fatalf("%s %q mismatch with tokenizeRef (-want +got):\n%s", what, clip(s), diff)
	}
}

// TestAppendKeyTokensRef checks the tokens of the keys of tokenShapes that KeyLayout.AppendTokens
// makes against tokenizeRef of the key, several keys in a row into one buffer.
func TestAppendKeyTokensRef(t *testing.T) {
	var toks []Token
	var key []byte
	for _, f := range []Flags{Safe, Crawler &^ DropUserinfo, 0} {
		n := New(f)
		for _, raw := range tokenShapes() {
			checkKeyTokensRef(t, n, &key, &toks, raw)
		}
	}
}

// checkKeyTokensRef checks AppendTokens of the layout of the key of raw, written after the bytes
// left in *key and appended to the tokens left in *toks, against tokenizeRef of the key.
func checkKeyTokensRef(t *testing.T, n *Normalizer, key *[]byte, toks *[]Token, raw string) {
	t.Helper()
	var l KeyLayout
	start, pre := len(*key)%5, len(*toks)%3
	b, err := n.AppendKeyLayout((*key)[:start], raw, &l)
	if err != nil {
		return
	}
	*key = b
	k := string(b[start:])
	got, err := l.AppendTokens((*toks)[:pre], k)
	checkAgainstRef(t, "AppendTokens of", k, toks, pre, got, err)
}
