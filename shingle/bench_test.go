package shingle

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/undust/undust/internal/corpus"
	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// benchText returns about n bytes of deterministic documentation-like
// text: English words with some Chinese sentences and punctuation.
func benchText(n int, seed uint64) string {
	words := strings.Fields(`the printer is set up once on the main server and then shared with every
		workstation choose format conditional condition dialog cells value average total numbers
		function returns date time string characters package upload release changelog kernel module
		install configure network user password backup restore service file directory option`)
	zh := []string{"您可以从文件中插入图片。", "选择「插入 - 图像」，然后选择文件。", "此函数返回绝对值。"}
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for b.Len() < n {
		if r.IntN(10) == 0 {
			b.WriteString(zh[r.IntN(len(zh))])
			continue
		}
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(12) {
		case 0:
			b.WriteString(". ")
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func BenchmarkAppendHashes(b *testing.B) {
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10} {
		text := benchText(size, 1)
		b.Run(byteSize(size), func(b *testing.B) {
			dst := make([]uint64, 0, len(text))
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				dst = AppendHashes(dst[:0], text, Options{})
			}
			cpu.Report(int64(len(text)))
		})
	}
}

func BenchmarkTokens(b *testing.B) {
	text := benchText(10<<10, 1)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	cpu := cpubench.Start(b)
	for b.Loop() {
		Tokens(text, Options{})
	}
	cpu.Report(int64(len(text)))
}

func byteSize(n int) string {
	if n >= 1<<10 {
		return strconv.Itoa(n>>10) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

// BenchmarkAppendHashesCorpus hashes the main texts of the neardup corpus
// named by UNDUST_NEARDUP; it skips without it.
func BenchmarkAppendHashesCorpus(b *testing.B) {
	benchHashTexts(b, corpus.MainTexts(b, 4042))
}

// BenchmarkAppendHashesPages hashes the committed pages of
// testdata/pages.jsonl (the Debian FAQ in Chinese and English), so that a
// figure on real text is at hand without the neardup corpus.
func BenchmarkAppendHashesPages(b *testing.B) {
	benchHashTexts(b, corpusTexts(b))
}

// benchHashTexts hashes texts with the default Options, all of them per op.
func benchHashTexts(b *testing.B, texts []string) {
	var n int64
	for _, t := range texts {
		n += int64(len(t))
	}
	var dst []uint64
	b.SetBytes(n)
	b.ReportAllocs()
	cpu := cpubench.Start(b)
	for b.Loop() {
		for _, t := range texts {
			dst = AppendHashes(dst[:0], t, Options{})
		}
	}
	cpu.Report(n)
}

func BenchmarkMinHash(b *testing.B) {
	// A 10 KB document: shingling plus the signature, per document.
	text := benchText(10<<10, 2)
	m := NewMinHasher(128, 1)
	var hs, sig []uint64
	b.Run("10KB/shingle+sign", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			hs = AppendHashes(hs[:0], text, Options{})
			sig = m.AppendSignature(sig[:0], hs)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sigs/s")
		if d := cpu.Elapsed(); d > 0 {
			b.ReportMetric(float64(b.N)/d.Seconds(), "cpu-sigs/s")
		}
	})
	hs = AppendHashes(hs[:0], text, Options{})
	b.Run("10KB/sign", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			sig = m.AppendSignature(sig[:0], hs)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sigs/s")
		if d := cpu.Elapsed(); d > 0 {
			b.ReportMetric(float64(b.N)/d.Seconds(), "cpu-sigs/s")
		}
	})
}

// BenchmarkLSHQuery queries an index of n documents of random signatures
// with a near-duplicate of an indexed one. n is 100,000, or 1,000,000 with
// UNDUST_LONG=1 (about 1 GB of memory).
func BenchmarkLSHQuery(b *testing.B) {
	n := 100_000
	if tier.Long() {
		n = 1_000_000
	}
	r := rand.New(rand.NewPCG(1, 2))
	l := NewLSH(128, 0.8)
	sigs := make([][]uint64, 1000)
	sig := make([]uint64, 128)
	for i := range n {
		for j := range sig {
			sig[j] = r.Uint64()
		}
		if i < len(sigs) {
			sigs[i] = slices.Clone(sig)
		}
		l.Insert(uint64(i), sig)
	}
	queries := make([][]uint64, len(sigs))
	for i, s := range sigs {
		queries[i] = mutate(r, s, 0.1)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.Run(strconv.Itoa(n), func(b *testing.B) {
		b.ReportAllocs()
		var dst []uint64
		i := 0
		cpu := cpubench.Start(b)
		for b.Loop() {
			dst, _ = l.AppendQuery(dst[:0], queries[i%len(queries)])
			i++
		}
		cpu.Report(0)
		b.ReportMetric(float64(ms.HeapAlloc)/float64(n), "heapB/doc")
	})
}

// BenchmarkTemplates learns and filters the pages of a site of 256 pages
// of about 4 KB in 8 manuals, each page its manual's 1 KB table of
// contents and text of its own. "hashes" shingles the pages and is the
// yardstick; "add+kept" shingles them, adds them to a Templates and
// filters them; "kept" only filters, as a crawler does for a page of a
// host whose template it has learned. cpu-MB/s counts page text.
func BenchmarkTemplates(b *testing.B) {
	const pages = 256
	var urls, texts []string
	var n int64
	for i := range pages {
		m := i % 8
		t := benchText(1<<10, uint64(100+m)) + " " + benchText(3<<10, uint64(i+1))
		urls = append(urls, "https://docs.example/manual"+strconv.Itoa(m)+"/ch"+strconv.Itoa(i%5)+"/p"+strconv.Itoa(i)+".html")
		texts = append(texts, t)
		n += int64(len(t))
	}
	var hs, kept []uint64
	b.Run("hashes", func(b *testing.B) {
		b.SetBytes(n)
		cpu := cpubench.Start(b)
		for b.Loop() {
			for _, t := range texts {
				hs = AppendHashes(hs[:0], t, Options{})
			}
		}
		cpu.Report(n)
	})
	b.Run("add+kept", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			tl := NewTemplates(TemplateOptions{})
			for i, t := range texts {
				hs = AppendHashes(hs[:0], t, Options{})
				tl.Add(urls[i], hs)
			}
			for i, t := range texts {
				hs = AppendHashes(hs[:0], t, Options{})
				kept, _ = tl.AppendKept(kept[:0], urls[i], hs)
			}
		}
		cpu.Report(n)
	})
	tl := NewTemplates(TemplateOptions{})
	all := make([][]uint64, len(texts))
	for i, t := range texts {
		all[i] = Hashes(t, Options{})
		tl.Add(urls[i], all[i])
	}
	b.Run("kept", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			for i := range texts {
				kept, _ = tl.AppendKept(kept[:0], urls[i], all[i])
			}
		}
		cpu.Report(n)
	})
}

// BenchmarkReadLSH loads a saved index of 10,000 documents in 9 bands.
func BenchmarkReadLSH(b *testing.B) {
	file := hostile.LSHIndex(9, 14, 10000)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadLSH(bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
	}
}
