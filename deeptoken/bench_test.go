package deeptoken

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/urlnorm"
)

// mixedURL generates URLs of a host that mixes the paper's shapes on one path position.
func mixedURL(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return ebayURL(r)
	case 1:
		return "http://cgi.example.com/" + figure2()[r.IntN(24)]
	case 2:
		return fmt.Sprintf("http://cgi.example.com/title/tt%07d/trivia?ref_=tt_ov_inf_%d", r.IntN(3e6), r.IntN(9))
	}
	return "http://cgi.example.com/u/" + []string{"friends", "album"}[r.IntN(2)] + "-" + randID(r, 12, base62)
}

// BenchmarkLearn learns the patterns of one host from n, 2n and 4n distinct URLs, without
// sampling: ns/URL stays flat (Lemma 1: O(n·d)).
func BenchmarkLearn(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		urls := hostURLs(n, 11, mixedURL)
		var size int
		for _, u := range urls {
			size += len(u)
		}
		b.Run(fmt.Sprintf("urls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			m := cpubench.Start(b)
			for b.Loop() {
				Learn(slices.Values(urls), Options{MaxSample: -1})
			}
			cpu := m.Elapsed()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/url")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/url")
		})
	}
}

// BenchmarkSplit splits the tokens of one URL with learned patterns; "tokenize" is urlnorm alone
// for comparison, "tokenize+split" both.
func BenchmarkSplit(b *testing.B) {
	urls := hostURLs(4000, 11, mixedURL)
	p := Learn(slices.Values(urls), Options{})
	cases := []struct{ name, url string }{
		{"ebay", "http://cgi.example.com/The-Grudge_UPC_043396062603_W0QQ_fclsZ1QQ_pcatidZ1QQ_pidZ36743973QQ_tabZ2"},
		{"figure2", "http://cgi.example.com/ctattractions-17876002-Austria-Vienna-attractions.html"},
		{"imdb", "http://cgi.example.com/title/tt0810900/trivia?ref_=tt_ov_inf_3"},
		{"friends", "http://cgi.example.com/u/friends-lttU7d6kIuGq"},
		{"uncovered", "http://cgi.example.com/about/contact-us.html?from=footer"},
	}
	for _, c := range cases {
		toks, err := urlnorm.Tokenize(nil, c.url)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]urlnorm.Token, 0, 64)
		b.Run(c.name+"/split", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.url)))
			cpu := cpubench.Start(b)
			for b.Loop() {
				dst = p.AppendSplit(dst[:0], toks)
			}
			cpu.Report(0)
		})
		tbuf := make([]urlnorm.Token, 0, 16)
		b.Run(c.name+"/tokenize", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.url)))
			cpu := cpubench.Start(b)
			for b.Loop() {
				tbuf, _ = urlnorm.Tokenize(tbuf[:0], c.url)
			}
			cpu.Report(0)
		})
		b.Run(c.name+"/tokenize+split", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.url)))
			cpu := cpubench.Start(b)
			for b.Loop() {
				tbuf, _ = urlnorm.Tokenize(tbuf[:0], c.url)
				dst = p.AppendSplit(dst[:0], tbuf)
			}
			cpu.Report(0)
		})
	}
}

// trainHosts reads train.tsv from $UNDUST_DUPCLUSTERS, or skips, and returns the dedup keys
// (urlnorm.Crawler) of its URLs by host, as a crawler would learn from them.
func trainHosts(tb testing.TB) (map[string][]string, []string) {
	f, err := os.Open(corpus.DupClusters(tb, "train.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	return readHosts(tb, f, urlnorm.New(urlnorm.Crawler))
}

// learnAll learns the patterns of every host.
func learnAll(hosts map[string][]string, order []string) (map[string]*Patterns, int) {
	out := make(map[string]*Patterns, len(order))
	l := NewLearner(Options{})
	n := 0
	for _, h := range order {
		l.Reset()
		for _, u := range hosts[h] {
			if l.AddURL(u) == nil {
				n++
			}
		}
		out[h] = l.Patterns()
	}
	return out, n
}

// BenchmarkTrain learns the patterns of every host of train.tsv ($UNDUST_DUPCLUSTERS) from the
// dedup keys of its URLs; "read" reads the file, normalizes every URL to its key, groups the
// keys by host and tokenizes them, and "readraw" only reads the file and groups its raw URLs by
// host, for comparison.
func BenchmarkTrain(b *testing.B) {
	hosts, order := trainHosts(b)
	b.Run("learn", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			learnAll(hosts, order)
		}
		cpu.Report(0)
	})
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		var toks []urlnorm.Token
		cpu := cpubench.Start(b)
		for b.Loop() {
			h, _ := trainHosts(b)
			for _, us := range h {
				for _, u := range us {
					toks, _ = urlnorm.Tokenize(toks[:0], u)
				}
			}
		}
		cpu.Report(0)
	})
	b.Run("readraw", func(b *testing.B) {
		// Only reading and grouping the raw URLs, no urlnorm.
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			f, err := os.Open(corpus.DupClusters(b, "train.tsv"))
			if err != nil {
				b.Fatal(err)
			}
			readHosts(b, f, nil)
			f.Close()
		}
		cpu.Report(0)
	})
}

// TestTrain learns every host of train.tsv ($UNDUST_DUPCLUSTERS), logs the time, checks that
// every URL splits losslessly, and prints the patterns of the hosts in $UNDUST_HOSTS
// (comma-separated) with a few split URLs.
func TestTrain(t *testing.T) {
	hosts, order := trainHosts(t)
	start := time.Now()
	ps, n := learnAll(hosts, order)
	el := time.Since(start)
	withPatterns, lines := 0, 0
	for _, p := range ps {
		if p.Len() > 0 {
			withPatterns++
		}
		lines += strings.Count(p.String(), "\n")
	}
	t.Logf("learned %d hosts (%d URLs) in %v: %d hosts with patterns, %d text lines in all",
		len(order), n, el, withPatterns, lines)
	for _, h := range order {
		for _, u := range hosts[h] {
			checkLossless(t, ps[h], u)
		}
	}
	for h := range strings.SplitSeq(os.Getenv("UNDUST_HOSTS"), ",") {
		if h == "" {
			continue
		}
		p := ps[h]
		t.Logf("%s (%d URLs):\n%s", h, len(hosts[h]), p)
		for _, u := range hosts[h][:min(4, len(hosts[h]))] {
			toks, err := urlnorm.Tokenize(nil, u)
			if err != nil {
				continue
			}
			var parts []string
			for _, d := range p.AppendSplit(nil, toks) {
				if d.Sub > 0 {
					parts = append(parts, fmt.Sprintf("%s=%q", d.Key, d.Value))
				}
			}
			t.Logf("  %s\n    %s", u, strings.Join(parts, " "))
		}
	}
}
