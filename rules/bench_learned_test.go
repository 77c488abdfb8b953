package rules

import (
	"compress/gzip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/undust/undust/urlnorm"
)

// learnedSet loads testdata/dev-rules.txt.gz: the rules that package learn learns from the dup
// clusters of testdata/dev-urls.tsv.gz (see testdata/ORIGIN.md), a set with a Key (urlnorm's
// Crawler) and deep-token patterns, as a crawler loads it.
var learnedSet = sync.OnceValues(func() (*Set, error) {
	f, err := os.Open("testdata/dev-rules.txt.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return Load(z, nil)
})

func loadLearned(tb testing.TB) *Set {
	tb.Helper()
	s, err := learnedSet()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// noRulesURL moves u to a host that no rule of the learned set names, exactly or as a domain:
// ".example" after its host, so that only the rules of every host can apply.
func noRulesURL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	j := i + 3 + strings.IndexAny(u[i+3:], ":/?#")
	if j < i+3 {
		return u
	}
	return u[:j] + ".example" + u[j:]
}

// BenchmarkLearned is the hot path of a crawler frontier, measured as it runs: the raw URLs of
// dev.tsv (testdata/dev-urls.tsv.gz), one per op, through the rules learned from them
// (testdata/dev-rules.txt.gz), each figure beside net/url.Parse of the same URLs in the same run,
// the yardstick ("urlparse"). "key" is the static key alone (urlnorm's Crawler), which
// Normalize includes; "all" is Normalize of every URL, "rewritten" and "unchanged" those that
// the rules rewrite and leave as their key, "append-unchanged" AppendNormalize of the latter;
// "norules" is Normalize of the URLs that no rule can touch (moved to a host without rules, those
// that no rule of every host rewrites), "norules-append" AppendNormalize of them; each has its
// yardstick, the same URLs' static key alone: "norules-keystring" by Key, which returns a string
// as Normalize does (a new one when the URL is not its own key), and "norules-key" by AppendKey,
// which writes into a reused buffer as "norules-append" does.
func BenchmarkLearned(b *testing.B) {
	s := loadLearned(b)
	ls := loadDev(b, 0)
	key := urlnorm.New(urlnorm.Crawler)
	var all, changed, same, norules []string
	for _, l := range ls {
		all = append(all, l.URL)
		k, err := key.Key(l.URL)
		if err != nil {
			continue
		}
		if out, _ := s.Normalize(l.URL); out != k {
			changed = append(changed, l.URL)
		} else {
			same = append(same, l.URL)
		}
		// A URL that no rule can touch: moved to a host without rules, and without a
		// parameter that a rule of every host rewrites.
		nr := noRulesURL(l.URL)
		if nk, err := key.Key(nr); err == nil {
			if out, _ := s.Normalize(nr); out == nk {
				norules = append(norules, nr)
			}
		}
	}
	b.Logf("%d rules, %d URLs: %d rewritten, %d unchanged, %d on a host without rules untouched", s.Len(), len(all), len(changed), len(same), len(norules))
	run := func(name string, urls []string, f func(string)) { benchURLs(b, name, urls, f) }
	var buf []byte
	norm := func(u string) { s.Normalize(u) }
	run("urlparse", all, func(u string) { url.Parse(u) })
	run("key", all, func(u string) { buf, _ = key.AppendKey(buf[:0], u) })
	run("all", all, norm)
	run("rewritten", changed, norm)
	run("unchanged", same, norm)
	run("append-unchanged", same, func(u string) { buf, _ = s.AppendNormalize(buf[:0], u) })
	run("norules-key", norules, func(u string) { buf, _ = key.AppendKey(buf[:0], u) })
	run("norules-keystring", norules, func(u string) { key.Key(u) })
	run("norules", norules, norm)
	run("norules-append", norules, func(u string) { buf, _ = s.AppendNormalize(buf[:0], u) })
}
