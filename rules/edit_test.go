package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// editCounts counts what checkEditRefs checked.
type editCounts struct {
	rewrites int // rewrites on whole tokens
	clean    int // of them, keyClean
	written  int // of them, appendEdited wrote (no insertion, nothing it declines)
}

// checkEditRefs sets checkEdits to check each rewrite on whole tokens against the full
// comparisons it saves: every token that rewrite left in sc.next and that is not in sc.touched is
// the token of the view; keyCleanAt agrees with keyClean; appendEdited writes what
// urlnorm.AppendJoin writes of the rewritten tokens, and, for a URL that keyClean passes, the
// tokens that urlnorm.Tokenize gives of it. The caller resets checkEdits to nil.
func checkEditRefs(t testing.TB) *editCounts {
	n := new(editCounts)
	checkEdits = func(v *view, cur string, sc *scratch) {
		n.rewrites++
		if got := string(urlnorm.AppendJoin(nil, v.whole)); got != cur {
			t.Fatalf("the view's tokens join to %q, not to the URL %q", got, cur)
		}
		orig, out := v.whole, sc.next
		if len(out) != len(orig) {
			t.Fatalf("rewrite of %q: %d tokens out of %d", cur, len(out), len(orig))
		}
		for i := range out {
			if out[i] != orig[i] && !slices.Contains(sc.touched, int32(i)) {
				t.Fatalf("rewrite of %q changed token %d (%+v to %+v), not in touched %v", cur, i, orig[i], out[i], sc.touched)
			}
		}
		clean := keyClean(orig, out, sc.ins)
		if got := keyCleanAt(orig, out, sc.ins, sc.touched); got != clean {
			t.Fatalf("rewrite of %q to %q: keyCleanAt = %v, keyClean %v", cur, urlnorm.AppendJoin(nil, sc.joined), got, clean)
		}
		if clean {
			n.clean++
		}
		if len(sc.ins) > 0 {
			return
		}
		want := string(urlnorm.AppendJoin(nil, sc.joined))
		b, toks, ok := appendEdited([]byte("before "), cur, v, slices.Clone(out), slices.Clone(sc.touched))
		if !ok {
			if string(b) != "before " || !slices.Equal(toks, out) {
				t.Fatalf("rewrite of %q: appendEdited declined but wrote %q, %v", cur, b, toks)
			}
			return
		}
		n.written++
		if string(b) != "before "+want {
			t.Fatalf("rewrite of %q: appendEdited wrote %q, AppendJoin %q", cur, b, "before "+want)
		}
		if !clean {
			return
		}
		wantToks, err := urlnorm.Tokenize(nil, want)
		if err != nil {
			t.Fatalf("rewrite of %q to %q, which keyClean passes, does not tokenize: %v", cur, want, err)
		}
		if !slices.Equal(toks, wantToks) {
			t.Fatalf("rewrite of %q to %q: appendEdited tokens\n%+v\nTokenize:\n%+v", cur, want, toks, wantToks)
		}
	}
	return n
}

// TestEditsLearned checks the rewrites of every 10th dev URL (tier.Step; and its noRulesURL
// variant) by the learned set with checkEditRefs.
func TestEditsLearned(t *testing.T) {
	s := loadLearned(t)
	n := checkEditRefs(t)
	defer func() { checkEdits = nil }()
	normalizeDev(t, s)
	t.Logf("%d rewrites on whole tokens, %d keys, %d written by appendEdited", n.rewrites, n.clean, n.written)
	if n.written == 0 || n.written == n.clean {
		t.Errorf("%d rewrites written by appendEdited of %d keys: the test checks too little", n.written, n.clean)
	}
}

// TestEditsRandom checks, with checkEditRefs and against the reference path, rewrites of dev URLs
// and URLs of repeated parameters and many segments by random rules (randomRules: deleted,
// set, inserted and converted path segments, query parameters set and deleted, host, scheme and
// port changed) on a set with a Key, so that most results are their own keys.
func TestEditsRandom(t *testing.T) {
	ls := loadDev(t, 0)
	urls := []string{
		"http://h.example/a/b/c?a=1&a=2&b=3&a=4&a",
		"http://h.example/a?a&a!=1&a=1&a=2&b&b=&c=1",
		"https://u:p@h.example:8080/a/b/?id=1&id=2&sid=x",
		"http://h.example/",
		"http://h.example/x/y/z/index.html?a=1&b=2&b=3&b=4",
	}
	step := 401 // 1 dev URL in 401, 250 of them; 1 in 97 in the exhaustive tier
	if tier.Long() {
		step = 97
	}
	for i := 0; i < len(ls); i += step {
		urls = append(urls, ls[i].URL)
	}
	rng := rand.New(rand.NewPCG(17, 0))
	n := checkEditRefs(t)
	defer func() { checkEdits = nil }()
	for _, u := range urls {
		k, err := urlnorm.New(urlnorm.Crawler).Key(u)
		if err != nil {
			continue
		}
		toks, _ := urlnorm.Tokenize(nil, k)
		host := tokensHost(toks)
		for range 20 {
			seed := make([]byte, 64)
			for i := range seed {
				seed[i] = byte(rng.Uint32())
			}
			rs := randomRules(&byteSource{b: seed}, host, toks)
			s, err := NewSet(rs, &Options{Key: urlnorm.Crawler})
			if err != nil {
				t.Fatal(err)
			}
			fast, ferr := s.Normalize(u)
			ref, rerr := s.normalizeRef(u)
			if fast != ref || fmt.Sprint(ferr) != fmt.Sprint(rerr) {
				t.Fatalf("Normalize(%q) = %q, %v; reference %q, %v\nrules:\n%v", u, fast, ferr, ref, rerr, rs)
			}
		}
	}
	t.Logf("%d rewrites on whole tokens, %d keys, %d written by appendEdited", n.rewrites, n.clean, n.written)
	if n.written == 0 || n.clean == 0 {
		t.Errorf("%d keys, %d written by appendEdited: the test checks too little", n.clean, n.written)
	}
}

// TestTokenAt checks view.tokenAt, and spliceAct.find, against a scan of the tokens (sameToken)
// for keys of every part, in the keys of dev URLs and of URLs with a userinfo, a port, a fragment
// and more query parameters than linearQuery.
func TestTokenAt(t *testing.T) {
	s := loadLearned(t)
	urls := []string{
		"http://u:p@h.example:8080/a/b?x=1&x=2&y#frag",
		"http://u@h.example/#",
		"http://h.example:81/?",
		"https://h.example/a/",
		"http://h.example/a?" + strings.Repeat("w=1&x=2&", linearQuery) + "y",
	}
	for i, l := range loadDev(t, 0) {
		if i%50 == 0 {
			urls = append(urls, l.URL)
		}
	}
	keys := []urlnorm.Key{
		{Part: urlnorm.PartScheme}, {Part: urlnorm.PartUserinfo}, {Part: urlnorm.PartHost},
		{Part: urlnorm.PartPort}, {Part: urlnorm.PartFragment},
		{Part: urlnorm.PartQuery, Name: "x", Pos: 2}, {Part: urlnorm.PartQuery, Name: "y", Pos: 1},
	}
	for p := int16(0); p < 4; p++ {
		for r := int16(0); r < 4; r++ {
			if p != 0 || r != 0 {
				keys = append(keys, urlnorm.Key{Part: urlnorm.PartPath, Pos: p, RPos: r})
			}
		}
	}
	found := map[urlnorm.Part]int{}
	var v view
	for _, u := range urls {
		// The URL as it is (the hand-made ones keep their userinfo and fragment) and its key.
		k, err := s.keyer.Key(u)
		if err != nil {
			continue
		}
		for _, x := range []string{u, k} {
			if err := v.load(x, s); err != nil {
				continue
			}
			for _, key := range keys {
				want := slices.IndexFunc(v.whole, func(t urlnorm.Token) bool { return sameToken(t.Key, key) })
				if got := v.tokenAt(key); got != want {
					t.Fatalf("tokenAt(%v) in %q = %d, the scan gives %d", key, x, got, want)
				}
				a := spliceAct{key: key}
				if got := a.find(&v); got != want {
					t.Fatalf("find of %v in %q = %d, the scan gives %d", key, x, got, want)
				}
				if want >= 0 {
					found[key.Part]++
				}
			}
		}
	}
	for _, p := range []urlnorm.Part{urlnorm.PartUserinfo, urlnorm.PartPort, urlnorm.PartFragment, urlnorm.PartQuery} {
		if found[p] == 0 {
			t.Errorf("no %v key found: the test checks too little", p)
		}
	}
}

// plainHostRef is plainHost label by label, as it was written first: the reference.
func plainHostRef(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for len(h) > 0 {
		l := h
		if j := strings.IndexByte(h, '.'); j >= 0 {
			l, h = h[:j], h[j+1:]
			if h == "" {
				return false // a trailing dot
			}
		} else {
			h = ""
		}
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' || len(l) >= 4 && l[2] == '-' && l[3] == '-' {
			return false
		}
		letter := false
		for i := 0; i < len(l); i++ {
			c := l[i]
			switch {
			case 'a' <= c && c <= 'z':
				letter = true
			case '0' <= c && c <= '9' || c == '-':
			default:
				return false
			}
		}
		if h == "" && (!letter || len(l) >= 2 && l[0] == '0' && l[1] == 'x') {
			return false
		}
	}
	return true
}

// TestPlainHost checks plainHost against plainHostRef on hand-made hosts, every dev URL's host
// and variants of them.
func TestPlainHost(t *testing.T) {
	hosts := []string{"", "a", "a.b", "a.example", "a-b.c", "0x1.example", "a.0x1", "a.0x", "a.0", "0x", "1.2.3.4",
		"a.1", "ab--c.example", "xn--a.example", "A.example", "a..b", "-a.example", "a-.example", "a.example.",
		".a", ".", "..", "a.b-", "a.-b", "a_b.c", "a.b.c.d.e", strings.Repeat("a", 63) + ".b", strings.Repeat("a", 64) + ".b",
		strings.Repeat("a.", 126) + "b", strings.Repeat("a.", 127) + "bc", "a.9x", "a.b1", "ab-", "a--b"}
	for i, l := range loadDev(t, 0) {
		if i%7 != 0 {
			continue
		}
		toks, err := urlnorm.Tokenize(nil, l.URL)
		if err != nil {
			continue
		}
		h := tokensHost(toks)
		hosts = append(hosts, h, strings.ToLower(h), h+".", "x"+h, h+"-", "0x"+h)
	}
	for _, h := range hosts {
		if got, want := plainHost(h), plainHostRef(h); got != want {
			t.Errorf("plainHost(%q) = %v, the reference %v", h, got, want)
		}
	}
}

// FuzzPlainHost checks plainHost against plainHostRef.
func FuzzPlainHost(f *testing.F) {
	for _, h := range []string{"a.example", "a..b", "a.0x1", "ab--c.d", "a.example.", "-a", "A.b"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := plainHost(h), plainHostRef(h); got != want {
			t.Errorf("plainHost(%q) = %v, the reference %v", h, got, want)
		}
	})
}

// keyClean is keyCleanAt's reference: it reports whether the URL that the tokens out and the
// insertions ins spell is its own key under tokenKeyFlags, given that orig, the tokens of a key
// that out was copied from (token for token: a deleted token has Part 0), spell a key. It looks
// at every token, where keyCleanAt looks at the touched ones; the rules are keyCleanAt's.
func keyClean(orig, out []urlnorm.Token, ins []insertion) bool {
	port := false
	for i := range out {
		t, o := &out[i], &orig[i]
		if t.Part == 0 {
			if o.Part == urlnorm.PartScheme || o.Part == urlnorm.PartHost {
				return false
			}
			continue
		}
		if t.Part == urlnorm.PartPort {
			port = true
		}
		if t.Value == o.Value && t.Bare == o.Bare {
			continue
		}
		if !plainValue(t.Part, t.Value) {
			return false
		}
	}
	for _, x := range ins {
		if x.tok.Part != urlnorm.PartPath || !plainSegment(x.tok.Value) {
			return false
		}
	}
	if port {
		// A changed scheme could make the port its default; the check is not worth it.
		for i := range out {
			if out[i].Part == urlnorm.PartScheme && out[i].Value != orig[i].Value {
				return false
			}
		}
	}
	return true
}
