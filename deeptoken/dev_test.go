package deeptoken

import (
	"bufio"
	"compress/gzip"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// devPatterns reads the hosts' deep-token patterns from the "pattern HOST LINE" lines of package
// rules' testdata/dev-rules.txt.gz (see rules/testdata/ORIGIN.md: learned from the URLs of
// rules/testdata/dev-urls.tsv.gz, synthetic, Apache-2.0), by host.
func devPatterns(tb testing.TB) map[string]*Patterns {
	tb.Helper()
	texts := make(map[string][]byte)
	readGzipLines(tb, "../rules/testdata/dev-rules.txt.gz", func(line string) {
		rest, ok := strings.CutPrefix(line, "pattern ")
		if !ok {
			return
		}
		h, l, ok := strings.Cut(rest, " ")
		if !ok {
			tb.Fatalf("bad pattern line %q", line)
		}
		texts[h] = append(append(texts[h], l...), '\n')
	})
	out := make(map[string]*Patterns, len(texts))
	for h, text := range texts {
		p, err := ParsePatterns(text)
		if err != nil {
			tb.Fatalf("patterns of %s: %v", h, err)
		}
		out[h] = p
	}
	return out
}

func readGzipLines(tb testing.TB, name string, f func(string)) {
	tb.Helper()
	file, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer file.Close()
	z, err := gzip.NewReader(file)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for sc.Scan() {
		f(sc.Text())
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
}

// TestSplitDev splits every token of every 10th URL of rules/testdata/dev-urls.tsv.gz
// (tier.Step; its dedup key by urlnorm.Crawler, as package rules splits it, and the raw URL)
// with its host's learned patterns, in file order, and compares AppendSplit and one Splitter
// reused for every token, split one at a time and each twice in a row, with the reference
// slowSplit. In file order the same token comes back often, so the Splitter's memory of recent
// tokens is exercised on tokens of the same bytes, of the same bytes under another key, and of
// other bytes at the same place of a reused buffer.
func TestSplitDev(t *testing.T) {
	ps := devPatterns(t)
	norm := urlnorm.New(urlnorm.Crawler)
	var (
		sp                  Splitter
		one, got            []urlnorm.Token
		buf                 []byte
		urls, tokens, split int
		memoHits            int
	)
	check := func(p *Patterns, u string) {
		// The URL in a buffer that the next URL overwrites, as a caller's arena.
		buf = append(buf[:0], u...)
		toks, err := urlnorm.Tokenize(nil, string(buf))
		if err != nil {
			return
		}
		urls++
		want := slowSplit(p, toks)
		if all := p.AppendSplit(nil, toks); !slices.Equal(want, all) {
			t.Fatalf("AppendSplit(%q) differs from slowSplit (-slow +fast):\n%s", u, cmp.Diff(want, all))
		}
		for round := range 2 {
			got = got[:0]
			for _, tok := range toks {
				h := sp.memoHits
				one = sp.AppendToken(one[:0], p, tok)
				got = append(got, one...)
				if round == 0 {
					tokens++
					if len(one) > 1 {
						split++
					}
					memoHits += sp.memoHits - h
				}
			}
			if !slices.Equal(want, got) {
				t.Fatalf("Splitter.AppendToken of each token of %q (round %d) differs from slowSplit (-slow +fast):\n%s", u, round, cmp.Diff(want, got))
			}
		}
	}
	step, n := tier.Step(10), 0
	readGzipLines(t, "../rules/testdata/dev-urls.tsv.gz", func(line string) {
		_, u, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			return
		}
		if n++; (n-1)%step != 0 {
			return
		}
		key, err := norm.Key(u)
		if err != nil {
			return
		}
		rest := key[strings.Index(key, "://")+3:]
		host := rest[:strings.IndexAny(rest+"/", ":/")]
		p := ps[host]
		if p == nil {
			return
		}
		check(p, key)
		check(p, u)
	})
	t.Logf("%d URLs of %d hosts with patterns, %d tokens, %d split, %d found in the Splitter's memory", urls, len(ps), tokens, split, memoHits)
	if split == 0 || memoHits == 0 {
		t.Error("no token split or none found again: the test checks nothing")
	}
}
