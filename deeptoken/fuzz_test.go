package deeptoken

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/urlnorm"
)

func FuzzUnits(f *testing.F) {
	for _, s := range []string{"ctattractions-17876002-Austria-Vienna-attractions.html", "W0QQ_fclsZ1QQ_pcatidZ1",
		"HTMLParser", "New%20York", "100%", "caf\xc3\xa9s", "lttU7d6kIuGq", "_nkwZtipsQQ_pgnZ4", "%2", "%%41",
		strings.Repeat("aB1-%2F", 300), strings.Repeat("%", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := unitTexts(s)
		if diff := cmp.Diff(slowUnits(s), got); diff != "" {
			t.Fatalf("units(%q) differs from slowUnits (-slow +fast):\n%s", s, diff)
		}
		if strings.Join(got, "") != s {
			t.Fatalf("units(%q) do not join back: %q", s, got)
		}
	})
}

// FuzzSplit checks AppendSplit with learned patterns against the reference and for losslessness
// on arbitrary URLs.
func FuzzSplit(f *testing.F) {
	_, urls := learnedSet()
	for _, us := range urls {
		for _, u := range us[:20] {
			f.Add(u)
		}
	}
	f.Add("http://x.example/ctattractions-1-Austria--attractions.html")
	f.Add("http://cgi.example.com/__W0QQ_QQ_fclsZZ1QQ")
	f.Add(hostile.DistinctSegmentURL(60))
	f.Add(hostile.DistinctKeyURL(40))
	var sp Splitter
	f.Fuzz(func(t *testing.T, u string) {
		ps, _ := learnedSet()
		for _, p := range ps {
			toks, err := urlnorm.Tokenize(nil, u)
			if err != nil {
				return
			}
			split := p.AppendSplit(nil, toks)
			if got, want := urlnorm.Join(split), urlnorm.Join(toks); got != want {
				t.Fatalf("Join(AppendSplit(%q)) = %q, want %q", u, got, want)
			}
			if diff := cmp.Diff(slowSplit(p, toks), split); diff != "" {
				t.Fatalf("AppendSplit(%q) differs from slowSplit (-slow +fast):\n%s", u, diff)
			}
			// A Splitter, one token at a time and reused, gives the same.
			var one []urlnorm.Token
			for _, tok := range toks {
				one = sp.AppendToken(one, p, tok)
			}
			if diff := cmp.Diff(split, one); diff != "" {
				t.Fatalf("Splitter.AppendToken of each token of %q differs from AppendSplit (-AppendSplit +Splitter):\n%s", u, diff)
			}
		}
	})
}

// FuzzLearn learns from fuzzed values (one per line, as path segments of one host) and checks
// that every URL splits losslessly and as the reference does, and that the text form round-trips.
func FuzzLearn(f *testing.F) {
	f.Add(strings.Join(figure2(), "\n"), uint8(0))
	f.Add("tt1\ntt2\ntt3\ntt44\nab\nfriends-aB3\nfriends-x9Y\nfriends-Q1w", uint8(1))
	f.Add("a_W0QQ_fZ1\nb_W0QQ_fZ2\nc_W0QQ_fZ3\nd_W0QQ_gZ4", uint8(2))
	f.Fuzz(func(t *testing.T, in string, minSupport uint8) {
		vals := strings.Split(in, "\n")
		if len(vals) > 300 {
			vals = vals[:300]
		}
		var urls []string
		for _, v := range vals {
			v = strings.NewReplacer("/", "", "?", "", "#", "").Replace(v)
			urls = append(urls, "http://h.example/"+v+"?q="+v)
		}
		p := Learn(slices.Values(urls), Options{MinSupport: int(minSupport % 5)})
		text := p.AppendText(nil)
		q, err := ParsePatterns(text)
		if err != nil {
			t.Fatalf("ParsePatterns(AppendText): %v\n%s", err, text)
		}
		if again := q.AppendText(nil); !bytes.Equal(again, text) {
			t.Fatalf("text not stable:\n%s", cmp.Diff(string(text), string(again)))
		}
		for _, u := range urls {
			toks, err := urlnorm.Tokenize(nil, u)
			if err != nil {
				continue
			}
			split := p.AppendSplit(nil, toks)
			if got, want := urlnorm.Join(split), urlnorm.Join(toks); got != want {
				t.Fatalf("Join(AppendSplit(%q)) = %q, want %q", u, got, want)
			}
			if diff := cmp.Diff(slowSplit(p, toks), split); diff != "" {
				t.Fatalf("AppendSplit(%q) differs from slowSplit (-slow +fast):\n%s", u, diff)
			}
			if diff := cmp.Diff(split, q.AppendSplit(nil, toks)); diff != "" {
				t.Fatalf("parsed patterns split %q differently:\n%s", u, diff)
			}
		}
	})
}

// FuzzParsePatterns checks that ParsePatterns never panics, that what it accepts writes a text
// that parses to the same text, and that the patterns split losslessly.
func FuzzParsePatterns(f *testing.F) {
	ps, _ := learnedSet()
	for _, p := range ps {
		f.Add(p.AppendText(nil))
	}
	f.Add([]byte("key path 2\nnode 0 *\nanchor 0 1 ^ - friends\nnode 1 friends - *\n"))
	f.Add([]byte("key query =a%20b\nnode 0 *\nanchor 0 0 %25 $ x\nnode 1 * %25 x\n"))
	// Hostile shapes: many keys, positions at the top of the range, a deep chain, a node of
	// many anchors and children, a long literal.
	f.Add(hostile.PatternManyKeys(20))
	f.Add(hostile.PatternHighPaths(3))
	f.Add(hostile.PatternDeep(60))
	f.Add(hostile.PatternWide(40))
	f.Add(hostile.PatternLongLiteral(2000))
	var sp Splitter
	f.Fuzz(func(t *testing.T, text []byte) {
		p, err := ParsePatterns(text)
		if err != nil {
			return
		}
		out := p.AppendText(nil)
		q, err := ParsePatterns(out)
		if err != nil {
			t.Fatalf("ParsePatterns(AppendText(ParsePatterns(%q))): %v\n%s", text, err, out)
		}
		if again := q.AppendText(nil); !bytes.Equal(again, out) {
			t.Fatalf("text not stable:\n%s", cmp.Diff(string(out), string(again)))
		}
		for _, u := range []string{"http://h/friends-aB3?a%20b=100%x", "http://h/a/b-c_d.e?x=y-z"} {
			toks, _ := urlnorm.Tokenize(nil, u)
			split := p.AppendSplit(nil, toks)
			if got, want := urlnorm.Join(split), urlnorm.Join(toks); got != want {
				t.Fatalf("Join(AppendSplit(%q)) = %q, want %q", u, got, want)
			}
			if diff := cmp.Diff(slowSplit(p, toks), split); diff != "" {
				t.Fatalf("AppendSplit(%q) differs from slowSplit (-slow +fast):\n%s", u, diff)
			}
			// A Splitter, one token at a time and reused, gives the same.
			var one []urlnorm.Token
			for _, tok := range toks {
				one = sp.AppendToken(one, p, tok)
			}
			if diff := cmp.Diff(split, one); diff != "" {
				t.Fatalf("Splitter.AppendToken of each token of %q differs from AppendSplit (-AppendSplit +Splitter):\n%s", u, diff)
			}
		}
	})
}
