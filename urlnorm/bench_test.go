package urlnorm

import (
	"bufio"
	"bytes"
	"net/url"
	"os"
	"testing"
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

func BenchmarkCanonical(b *testing.B) {
	urls, avg := loadCorpus(b)
	n := New(Crawler)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n.Canonical(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

func BenchmarkKey(b *testing.B) {
	urls, avg := loadCorpus(b)
	n := New(Crawler)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n.Key(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	urls, avg := loadCorpus(b)
	n := New(Crawler)
	buf := make([]byte, 0, 4096)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf, _ = n.AppendKey(buf[:0], urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

func BenchmarkKeyAggressive(b *testing.B) {
	urls, avg := loadCorpus(b)
	n := New(Aggressive)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n.Key(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// BenchmarkNetURLParse is the yardstick: net/url.Parse over the same URLs.
func BenchmarkNetURLParse(b *testing.B) {
	urls, avg := loadCorpus(b)
	b.SetBytes(avg)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		url.Parse(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}
