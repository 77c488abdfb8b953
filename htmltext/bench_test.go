package htmltext

import (
	"testing"

	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
)

func BenchmarkExtract(b *testing.B) {
	pages := readTestdata(b)
	var all [][]byte
	var n int64
	for _, p := range pages {
		all = append(all, p)
		n += int64(len(p))
	}
	for _, main := range []bool{false, true} {
		name := "full"
		if main {
			name = "main"
		}
		b.Run("testdata/"+name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				for _, p := range all {
					if _, err := Extract(p, Options{MainContent: main}); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu.Report(n)
		})
	}
}

// BenchmarkExtractCorpus extracts the first 1000 pages of the neardup corpus
// named by UNDUST_NEARDUP (the directory holding pages.jsonl.gz); it skips
// without it.
func BenchmarkExtractCorpus(b *testing.B) {
	var pages [][]byte
	var n int64
	for _, p := range corpus.Pages(b, 1000) {
		pages = append(pages, []byte(p.HTML))
		n += int64(len(p.HTML))
	}
	for _, main := range []bool{false, true} {
		name := "full"
		if main {
			name = "main"
		}
		b.Run(name, func(b *testing.B) {
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
