package htmltext

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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

// BenchmarkExtractCorpus extracts the pages of the neardup corpus named by
// UNDUST_NEARDUP (the directory holding pages.jsonl.gz); it skips without it.
func BenchmarkExtractCorpus(b *testing.B) {
	dir := os.Getenv("UNDUST_NEARDUP")
	if dir == "" {
		b.Skip("UNDUST_NEARDUP not set")
	}
	f, err := os.Open(filepath.Join(dir, "pages.jsonl.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<28)
	var pages [][]byte
	var n int64
	for sc.Scan() && len(pages) < 1000 {
		var p struct{ HTML string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			b.Fatal(err)
		}
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
