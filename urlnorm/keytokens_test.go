package urlnorm

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// keyTokensFlags are the flag sets AppendKeyTokens is checked with: the presets, and the flags
// that move parts of the key after they are written (userinfo rotated in front of the host,
// https -> http, bare query dropped, no fragment dropped).
var keyTokensFlags = []Flags{
	Safe, Crawler, Aggressive, Crawler &^ DropUserinfo, Aggressive &^ DropUserinfo,
	Safe&^DropUserinfo | HTTPSToHTTP, Safe | DropBareQuery, 0, GuessScheme,
}

// appendKeyTokens appends the key of raw to dst and its tokens to toks, as a caller that wants
// both at once does: AppendKeyLayout, then the layout's AppendTokens. On an error it returns dst
// and toks as they were.
func appendKeyTokens(n *Normalizer, dst []byte, toks []Token, raw string) ([]byte, []Token, error) {
	start := len(dst)
	var l KeyLayout
	out, err := n.AppendKeyLayout(dst, raw, &l)
	if err != nil {
		return dst[:start], toks, err
	}
	toks, err = l.AppendTokens(toks, unsafe.String(unsafe.SliceData(out[start:]), len(out)-start))
	if err != nil {
		return dst[:start], toks, err
	}
	return out, toks, nil
}

// checkKeyTokens checks that appendKeyTokens of raw writes the key that AppendKey writes, after
// what dst held, and the tokens that Tokenize of that key gives, after what toks held.
func checkKeyTokens(t *testing.T, n *Normalizer, raw string) {
	t.Helper()
	prefix := []byte("prefix")
	pre := []Token{{Key: Key{Part: PartHost}, Value: "before"}}
	want, werr := n.AppendKey(append([]byte(nil), prefix...), raw)
	got, toks, err := appendKeyTokens(n, append([]byte(nil), prefix...), append([]Token(nil), pre...), raw)
	if werr != nil {
		if err == nil || err.Error() != werr.Error() || string(got) != string(prefix) || len(toks) != 1 {
			t.Fatalf("appendKeyTokens(%v, %q) = %q, %d tokens, %v; want the error %v and the buffers unchanged", n.Flags(), clip(raw), clip(string(got)), len(toks), err, werr)
		}
		return
	}
	key := string(want[len(prefix):])
	wtoks, terr := Tokenize(append([]Token(nil), pre...), key)
	if terr != nil {
		// Only a key of too many tokens fails, with the buffers as they were.
		if !errors.Is(err, ErrTooManyTokens) || !errors.Is(terr, ErrTooManyTokens) || string(got) != string(prefix) || len(toks) != 1 {
			t.Fatalf("appendKeyTokens(%v, %q) = %v; Tokenize of its key %v", n.Flags(), clip(raw), err, terr)
		}
		return
	}
	if err != nil {
		t.Fatalf("appendKeyTokens(%v, %q) = %v", n.Flags(), clip(raw), err)
	}
	if string(got) != string(want) {
		t.Fatalf("appendKeyTokens(%v, %q) wrote %q, AppendKey %q", n.Flags(), clip(raw), clip(string(got)), clip(string(want)))
	}
	if rtoks, ok := tokenizeRef(key); !ok || !slices.Equal(rtoks, wtoks[len(pre):]) {
		t.Fatalf("Tokenize(%q) mismatch with tokenizeRef (-want +got):\n%s", clip(key), cmp.Diff(rtoks, wtoks[len(pre):]))
	}
	checkKeyLayout(t, n, raw, prefix, key, wtoks[len(pre):])
	if slices.Equal(wtoks, toks) {
		return
	}
	if diff := cmp.Diff(wtoks, toks); diff != "" {
		t.Fatalf("appendKeyTokens(%v, %q) mismatch with Tokenize(%q) (-want +got):\n%s", n.Flags(), clip(raw), clip(key), diff)
	}
}

// checkKeyLayout checks that AppendKeyLayout of raw, after prefix, writes key, and that its
// layout gives the host and the query of key and, by AppendTokens, wtoks, the tokens of key.
func checkKeyLayout(t *testing.T, n *Normalizer, raw string, prefix []byte, key string, wtoks []Token) {
	t.Helper()
	var l KeyLayout
	got, err := n.AppendKeyLayout(append([]byte(nil), prefix...), raw, &l)
	if err != nil || string(got[len(prefix):]) != key {
		t.Fatalf("AppendKeyLayout(%v, %q) = %q, %v; want %q", n.Flags(), clip(raw), clip(string(got)), err, clip(key))
	}
	var host string
	for _, tok := range wtoks {
		if tok.Part == PartHost {
			host = tok.Value
		}
	}
	if i, j := l.Host(); key[i:j] != host {
		t.Fatalf("KeyLayout.Host of %q = %q, want %q", clip(key), key[i:j], host)
	}
	// The query runs from the first '?' to the first '#', unless that '#' comes first.
	wq, wqs, head := "", -1, key
	if f := strings.IndexByte(key, '#'); f >= 0 {
		head = key[:f]
	}
	if q := strings.IndexByte(head, '?'); q >= 0 {
		wq, wqs = head[q+1:], q+1
	}
	if i, j := l.Query(key); i != wqs || i >= 0 && key[i:j] != wq {
		t.Fatalf("KeyLayout.Query of %q = %d, %d, want the query %q at %d", clip(key), i, j, clip(wq), wqs)
	}
	pre := []Token{{Key: Key{Part: PartHost}, Value: "before"}}
	toks, err := l.AppendTokens(pre, key)
	if err != nil {
		t.Fatalf("KeyLayout.AppendTokens of %q: %v", clip(key), err)
	}
	if diff := cmp.Diff(wtoks, toks[1:]); diff != "" || toks[0] != pre[0] {
		t.Fatalf("KeyLayout.AppendTokens of %q mismatch with Tokenize (-want +got):\n%s", clip(key), diff)
	}
}

// keyTokensInputs returns the URLs of the conformance suites and the corpus of testdata: every
// input of WPT's urltestdata, urlcanon and crawler-commons, and every step-th of kasztp's URLs.
func keyTokensInputs(t *testing.T, step int) []string {
	var in []string
	for _, c := range loadWPT(t) {
		in = append(in, c.Input)
	}
	for _, p := range []string{"testdata/urlcanon/aggressive.json", "testdata/urlcanon/funky_ipv4.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for k := range m {
			in = append(in, k, "http://"+k+"/", "https://u:p@"+k+":443/a?b&c=#d")
		}
	}
	for _, p := range []string{"weirdToNormalizedUrls.csv", "invalidUrls.csv"} {
		data, err := os.ReadFile("testdata/crawler-commons/" + p)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(data), "\n") {
			if s, _, _ := strings.Cut(line, ","); s != "" && s[0] != '#' {
				in = append(in, strings.TrimSpace(s))
			}
		}
	}
	urls, _ := loadCorpus(t)
	for i := 0; i < len(urls); i += step {
		in = append(in, urls[i])
	}
	return in
}

// TestAppendKeyTokens checks that the tokens AppendKeyTokens takes from the key writer are those
// that Tokenize reads from the key, on the URLs of testdata (every 20th of the corpus, tier.Step),
// with several flag sets.
func TestAppendKeyTokens(t *testing.T) {
	in := keyTokensInputs(t, tier.Step(20))
	in = append(in,
		"https://u:p@www.a.com:443/index.html?b&a=1&utm_x=1#f",      // userinfo, default port, index, bare parameter
		"HTTPS://:@A.COM:8443/?",                                    // empty userinfo, a port, a bare query
		"wss://h:80/#",                                              // an empty fragment, a port that HTTPSToHTTP drops
		"http://[::1]:8080/a//b/?x=1&&y=&x=2#f?g",                   // IPv6, empty segments and parameters
		"file:///C:/x/y", "file://host/share", "file://localhost/a", // file URLs, with and without a host
		"http://a@b@c/", "http://%40:%3A@h/", // escaped userinfo
		"a.com/b?c", "//x.org/", // schemes GuessScheme adds
	)
	for _, f := range keyTokensFlags {
		n := New(f)
		for _, raw := range in {
			checkKeyTokens(t, n, raw)
		}
	}
}

// TestAppendKeyTokensTooMany checks the error for a key of more path segments or query
// parameters than a Key can number, which only a MaxLength above the default allows.
func TestAppendKeyTokensTooMany(t *testing.T) {
	n, err := NewOptions(Safe, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		"http://h" + strings.Repeat("/a", maxTokens+1),          // too many segments
		"http://h/?" + strings.Repeat("a&", maxTokens),          // too many parameters
		"http://h" + strings.Repeat("/a", maxTokens-1) + "?a&b", // as many segments as fit
	} {
		checkKeyTokens(t, n, raw)
	}
	dst, toks, err := appendKeyTokens(n, []byte("x"), nil, "http://h"+strings.Repeat("/a", maxTokens+1))
	if !errors.Is(err, ErrTooManyTokens) || string(dst) != "x" || len(toks) != 0 {
		t.Errorf("appendKeyTokens(too many segments) = %q, %d tokens, %v; want x, 0, ErrTooManyTokens", dst, len(toks), err)
	}
	var l KeyLayout
	b, err := n.AppendKeyLayout(nil, "http://h/?"+strings.Repeat("a&", maxTokens), &l)
	if err != nil {
		t.Fatal(err)
	}
	pre := []Token{{Key: Key{Part: PartHost}, Value: "before"}}
	if toks, err := l.AppendTokens(pre, string(b)); !errors.Is(err, ErrTooManyTokens) || len(toks) != 1 || toks[0] != pre[0] {
		t.Errorf("KeyLayout.AppendTokens(too many parameters) = %d tokens, %v; want 1, ErrTooManyTokens", len(toks), err)
	}
}

func TestAppendKeyTokensAllocs(t *testing.T) {
	n := New(Crawler)
	buf := make([]byte, 0, 256)
	toks := make([]Token, 0, 32)
	u := "https://www.example.com/a/b/c.html?z=1&y=2&utm_source=x#f"
	allocs := testing.AllocsPerRun(100, func() {
		buf, toks, _ = appendKeyTokens(n, buf[:0], toks[:0], u)
	})
	if allocs != 0 {
		t.Errorf("appendKeyTokens into reused buffers: %v allocs, want 0", allocs)
	}
	allocs = testing.AllocsPerRun(100, func() {
		var l KeyLayout
		buf, _ = n.AppendKeyLayout(buf[:0], u, &l)
		toks, _ = l.AppendTokens(toks[:0], unsafe.String(unsafe.SliceData(buf), len(buf)))
	})
	if allocs != 0 {
		t.Errorf("AppendKeyLayout and AppendTokens into reused buffers: %v allocs, want 0", allocs)
	}
}

func FuzzAppendKeyTokens(f *testing.F) {
	seedCorpus(f)
	f.Add(hostile.QueryParams(500, false))
	ns := make([]*Normalizer, len(keyTokensFlags))
	for i, fl := range keyTokensFlags {
		ns[i] = New(fl)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, n := range ns {
			checkKeyTokens(t, n, raw)
		}
	})
}

// clip cuts s for a failure message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
