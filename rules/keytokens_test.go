package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/urlnorm"
)

// splitTokens is urlnorm.Tokenize of a key by splitting strings, token by token: the reference
// for the tokens that urlnorm.KeyLayout.AppendTokens makes of a key, which Tokenize shares.
func splitTokens(key string) []urlnorm.Token {
	tok := func(p urlnorm.Part, v string) urlnorm.Token {
		return urlnorm.Token{Key: urlnorm.Key{Part: p}, Value: v}
	}
	scheme, rest, _ := strings.Cut(key, "://")
	toks := []urlnorm.Token{tok(urlnorm.PartScheme, scheme)}
	slash := strings.IndexByte(rest, '/')
	auth, rest := rest[:slash], rest[slash:]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		toks = append(toks, tok(urlnorm.PartUserinfo, auth[:at]))
		auth = auth[at+1:]
	}
	if c := strings.LastIndex(auth, ":"); c >= 0 && !strings.Contains(auth[c:], "]") {
		toks = append(toks, tok(urlnorm.PartHost, auth[:c]), tok(urlnorm.PartPort, auth[c+1:]))
	} else {
		toks = append(toks, tok(urlnorm.PartHost, auth))
	}
	rest, frag, hasFrag := strings.Cut(rest, "#")
	path, query, hasQuery := strings.Cut(rest, "?")
	segs := strings.Split(path[1:], "/")
	for i, seg := range segs {
		t := tok(urlnorm.PartPath, seg)
		t.Pos, t.RPos = int16(i+1), int16(len(segs)-i)
		toks = append(toks, t)
	}
	if hasQuery {
		seen := map[string]int16{}
		for _, p := range strings.Split(query, "&") {
			name, value, eq := strings.Cut(p, "=")
			seen[name]++
			t := tok(urlnorm.PartQuery, value)
			t.Name, t.Pos, t.Bare = name, seen[name], !eq
			toks = append(toks, t)
		}
	}
	if hasFrag {
		toks = append(toks, tok(urlnorm.PartFragment, frag))
	}
	return toks
}

// TestKeyTokensLearned checks the tokens that the learned set's key writer gives with each key
// (KeyLayout.AppendTokens, as normalizeFast makes its first view) against splitTokens and
// urlnorm.Tokenize of the key, for the URLs of placeInputs and hostile shapes:
// empty segments and parameters, '=' in values, repeated names, long paths and queries. Keys
// are written one after another into one buffer, and their tokens into one slice, at offsets
// that vary, as the scratch of Normalize reuses them.
func TestKeyTokensLearned(t *testing.T) {
	s := loadLearned(t)
	in := placeInputs(t)
	in = append(in,
		"http://h.example/a//b///c/", "http://h.example//", "http://h.example/?a=b=c&a==&=&==x",
		"http://h.example/?a&a&a=1&b&a=2&a", "http://h.example/?=1&=2&", "http://h.example/x?&&a=&",
		"http://h.example/"+strings.Repeat("seg/", 200)+"?"+strings.Repeat("k=v=w&k&", 60),
		"http://h.example/"+strings.Repeat("abcdefg/", 9)+"?"+strings.Repeat("x=1&", 23)+"y",
	)
	var buf []byte
	var toks, ref []urlnorm.Token
	checked := 0
	for i, u := range in {
		var l urlnorm.KeyLayout
		start := i % 7
		b, err := s.keyer.AppendKeyLayout(append(buf[:0], "prefix"[:start]...), u, &l)
		if err != nil {
			continue
		}
		buf = b
		key := bytesString(b[start:])
		pre := i % 3
		got, err := l.AppendTokens(toks[:min(pre, len(toks))], key)
		if err != nil {
			t.Fatalf("AppendTokens of the key %.200q: %v", key, err)
		}
		toks = got
		got = got[min(pre, len(got)):]
		if want := splitTokens(key); !slices.Equal(want, got) {
			t.Fatalf("AppendTokens of the key %.200q mismatch with splitTokens (-want +got):\n%s", key, cmp.Diff(want, got))
		}
		if ref, err = urlnorm.Tokenize(ref[:0], key); err != nil || !slices.Equal(ref, got) {
			t.Fatalf("AppendTokens of the key %.200q mismatch with Tokenize (%v):\n%s", key, err, cmp.Diff(ref, got))
		}
		checked++
	}
	if checked < len(in)/2 {
		t.Errorf("%d of %d keys checked", checked, len(in))
	}
}
