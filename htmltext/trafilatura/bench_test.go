package trafilatura

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
)

// BenchmarkExtract extracts the pages in testdata with htmltext's main
// content (the yardstick), this package, and this package with Fallback, in
// one run; compare their cpu-MB/s.
func BenchmarkExtract(b *testing.B) {
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		b.Fatal("no testdata pages", err)
	}
	var pages [][]byte
	for _, f := range files {
		p, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	benchExtract(b, "testdata/", pages)
}

// BenchmarkExtractCorpus is BenchmarkExtract on the first 300 pages of the
// neardup corpus named by UNDUST_NEARDUP (the directory holding
// pages.jsonl.gz); it skips without it.
func BenchmarkExtractCorpus(b *testing.B) {
	var pages [][]byte
	for _, p := range corpus.Pages(b, 300) {
		pages = append(pages, []byte(p.HTML))
	}
	benchExtract(b, "", pages)
}

func benchExtract(b *testing.B, prefix string, pages [][]byte) {
	var n int64
	for _, p := range pages {
		n += int64(len(p))
	}
	for _, x := range []struct {
		name string
		e    htmltext.Extractor
	}{
		{"htmltext-main", htmltext.Options{MainContent: true}},
		{"trafilatura", Extractor{}},
		{"trafilatura-fallback", Extractor{Fallback: true}},
	} {
		b.Run(prefix+x.name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				for _, p := range pages {
					if _, err := x.e.ExtractText(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu.Report(n)
		})
	}
}
