package htmltext

import (
	"strings"
	"testing"

	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
)

func BenchmarkExtract(b *testing.B) {
	var pages [][]byte
	for _, p := range readTestdata(b) {
		pages = append(pages, p)
	}
	benchExtract(b, "testdata/", pages)
}

// BenchmarkExtractCorpus extracts the first 1000 pages of the neardup corpus
// named by UNDUST_NEARDUP (the directory holding pages.jsonl.gz); it skips
// without it.
func BenchmarkExtractCorpus(b *testing.B) {
	var pages [][]byte
	for _, p := range corpus.Pages(b, 1000) {
		pages = append(pages, []byte(p.HTML))
	}
	benchExtract(b, "", pages)
}

// benchExtract extracts every page per op in two sub-benchmarks,
// prefix+"full" (the whole text) and prefix+"main" (MainContent).
func benchExtract(b *testing.B, prefix string, pages [][]byte) {
	var n int64
	for _, p := range pages {
		n += int64(len(p))
	}
	for _, main := range []bool{false, true} {
		name := "full"
		if main {
			name = "main"
		}
		b.Run(prefix+name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				for _, p := range pages {
					if _, err := Extract(p, Options{MainContent: main}); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu.Report(n)
		})
	}
}

// BenchmarkSite learns the hand-made manual site (Add of every page) and
// extracts every page with what it learned, per op.
func BenchmarkSite(b *testing.B) {
	pages := manualSite(b)
	var n int64
	for _, p := range pages {
		n += int64(len(p.html))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	cpu := cpubench.Start(b)
	for b.Loop() {
		var s Site
		for _, p := range pages {
			s.Add(p.url, p.html)
		}
		for _, p := range pages {
			if _, err := s.Extract(p.url, p.html); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu.Report(n)
}

// BenchmarkHostilePages extracts each hostile page shape of 256 KiB; its
// cpu-MB/s should be of the order of BenchmarkExtract's.
func BenchmarkHostilePages(b *testing.B) {
	for _, h := range hostilePages {
		page := h.gen(256 << 10)
		b.Run(strings.ReplaceAll(h.name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				if _, err := Extract(page, Options{MainContent: true}); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(int64(len(page)))
		})
	}
}

// BenchmarkSiteCorpus learns the first 1000 pages of the neardup corpus
// named by UNDUST_NEARDUP, one Site per host (Add of every page), and
// extracts every page with what it learned, per op; it skips without it.
func BenchmarkSiteCorpus(b *testing.B) {
	pages := corpus.Pages(b, 1000)
	var n int64
	for _, p := range pages {
		n += int64(len(p.HTML))
	}
	host := func(u string) string {
		u = u[strings.Index(u, "//")+2:]
		if i := strings.IndexByte(u, '/'); i >= 0 {
			u = u[:i]
		}
		return u
	}
	b.SetBytes(n)
	b.ReportAllocs()
	cpu := cpubench.Start(b)
	for b.Loop() {
		sites := map[string]*Site{}
		for _, p := range pages {
			s := sites[host(p.URL)]
			if s == nil {
				s = &Site{}
				sites[host(p.URL)] = s
			}
			s.Add(p.URL, []byte(p.HTML))
		}
		for _, p := range pages {
			if _, err := sites[host(p.URL)].Extract(p.URL, []byte(p.HTML)); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu.Report(n)
}
