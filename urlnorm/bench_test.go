package urlnorm

import (
	"bufio"
	"bytes"
	"net/url"
	"os"
	"testing"
	"unsafe"
)

// loadCorpus reads testdata/kasztp.txt: 48,009 real URLs, one a line.
func loadCorpus(tb testing.TB) (urls []string, avg int64) {
	tb.Helper()
	data, err := os.ReadFile("testdata/kasztp.txt")
	if err != nil {
		tb.Fatal(err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	sc := bufio.NewScanner(bytes.NewReader(data))
	var total int
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			urls = append(urls, line)
			total += len(line)
		}
	}
	return urls, int64(total / len(urls))
}

// Each benchmark op handles one URL of the corpus, in turn, so ns/op is
// time per URL.

// benchCorpus runs f on the corpus URLs in turn, one per benchmark op.
func benchCorpus(b *testing.B, f func(u string)) {
	urls, avg := loadCorpus(b)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

func BenchmarkCanonical(b *testing.B) {
	n := New(Crawler)
	benchCorpus(b, func(u string) { n.Canonical(u) })
}

func BenchmarkKey(b *testing.B) {
	n := New(Crawler)
	benchCorpus(b, func(u string) { n.Key(u) })
}

func BenchmarkAppendKey(b *testing.B) {
	n := New(Crawler)
	buf := make([]byte, 0, 4096)
	benchCorpus(b, func(u string) { buf, _ = n.AppendKey(buf[:0], u) })
}

// BenchmarkAppendKeyLayoutTokens is AppendKeyLayout then the layout's AppendTokens, a key with
// its tokens, and BenchmarkAppendKeyTokenize AppendKey then Tokenize of the key, the same
// result read again.
func BenchmarkAppendKeyLayoutTokens(b *testing.B) {
	n := New(Crawler)
	buf := make([]byte, 0, 4096)
	toks := make([]Token, 0, 64)
	var l KeyLayout
	benchCorpus(b, func(u string) {
		buf, _ = n.AppendKeyLayout(buf[:0], u, &l)
		toks, _ = l.AppendTokens(toks[:0], unsafe.String(unsafe.SliceData(buf), len(buf)))
	})
}

func BenchmarkAppendKeyTokenize(b *testing.B) {
	n := New(Crawler)
	buf := make([]byte, 0, 4096)
	toks := make([]Token, 0, 64)
	benchCorpus(b, func(u string) {
		buf, _ = n.AppendKey(buf[:0], u)
		toks, _ = Tokenize(toks[:0], unsafe.String(unsafe.SliceData(buf), len(buf)))
	})
}

func BenchmarkKeyAggressive(b *testing.B) {
	n := New(Aggressive)
	benchCorpus(b, func(u string) { n.Key(u) })
}

// BenchmarkNetURLParse is the yardstick: net/url.Parse over the same URLs.
func BenchmarkNetURLParse(b *testing.B) {
	benchCorpus(b, func(u string) { url.Parse(u) })
}

// BenchmarkHostileURLs computes the Aggressive key of each hostile URL shape
// of about 8,000 bytes, under the default length cap.
func BenchmarkHostileURLs(b *testing.B) {
	n := New(Aggressive)
	for _, h := range hostileURLs {
		u := h.gen(8000)
		for k := 7500; len(u) > DefaultMaxLength; k -= 500 {
			u = h.gen(k)
		}
		b.Run(h.name, func(b *testing.B) {
			b.SetBytes(int64(len(u)))
			b.ReportAllocs()
			for b.Loop() {
				n.Key(u)
			}
		})
	}
}
