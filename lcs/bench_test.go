package lcs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/undust/undust/internal/cpubench"
)

// cjkAlphabet returns k CJK characters, the most frequent first.
func cjkAlphabet(k int) []rune {
	rs := make([]rune, k)
	for i := range rs {
		rs[i] = 0x4e00 + rune(i*7%0x5000)
	}
	return rs
}

// synthCodes returns n feature codes: runes drawn from a Zipf law over 3500
// characters (as Chinese text is), and a share dupShare made from an
// earlier code the way reprints are (a cut of 60 to 100 percent of it, with
// up to three runes changed). Lengths are log-normal with median median
// runes, clamped to 10..1000: median 73 and the spread of the codes of the
// Debian neardup corpus (median 73, 90th percentile 143 runes) by default.
func synthCodes(seed uint64, n int, dupShare float64) []string {
	return synthCodesLen(seed, n, dupShare, 73)
}

func synthCodesLen(seed uint64, n int, dupShare float64, median float64) []string {
	r := rand.New(rand.NewPCG(seed, 99))
	alpha := cjkAlphabet(3500)
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(alpha)-1))
	codes := make([]string, 0, n)
	var buf []rune
	for range n {
		buf = buf[:0]
		if len(codes) > 0 && r.Float64() < dupShare {
			src := []rune(codes[r.IntN(len(codes))])
			keep := len(src) * (60 + r.IntN(41)) / 100
			start := r.IntN(len(src) - keep + 1)
			buf = append(buf, src[start:start+keep]...)
			for range r.IntN(4) {
				if len(buf) > 0 {
					buf[r.IntN(len(buf))] = alpha[zipf.Uint64()]
				}
			}
		} else {
			l := int(median * math.Exp(0.525*r.NormFloat64()))
			for range min(max(l, 10), 1000) {
				buf = append(buf, alpha[zipf.Uint64()])
			}
		}
		codes = append(codes, string(buf))
	}
	return codes
}

// synthText returns a text of about n visible runes in paragraphs, Chinese
// (zh) or English, with the punctuation and function words of real text.
func synthText(seed uint64, n int, zh bool) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	var paras []string
	var sb strings.Builder
	count := 0
	if zh {
		alpha := cjkAlphabet(3500)
		zipf := rand.NewZipf(r, 1.1, 2, uint64(len(alpha)-1))
		for count < n {
			switch v := r.IntN(100); {
			case v < 4:
				sb.WriteString("的")
			case v < 12:
				sb.WriteString([]string{"，", "。", "、", "；", "“", "”"}[r.IntN(6)])
			default:
				sb.WriteRune(alpha[zipf.Uint64()])
			}
			count++
			if r.IntN(150) == 0 {
				paras = append(paras, sb.String())
				sb.Reset()
			}
		}
	} else {
		words := strings.Fields("system page web text code feature crawler duplicate near content paragraph " +
			"length anchor common string suffix tree automaton search engine index storage precision recall")
		stop := []string{"the", "of", "and", "a", "to", "in", "is", "that", "for", "with"}
		for count < n {
			w := words[r.IntN(len(words))]
			if r.IntN(4) == 0 {
				w = stop[r.IntN(len(stop))]
			}
			if r.IntN(10) == 0 {
				w += []string{",", "."}[r.IntN(2)]
			}
			sb.WriteString(w)
			sb.WriteByte(' ')
			count += utf8.RuneCountInString(w)
			if r.IntN(80) == 0 {
				paras = append(paras, sb.String())
				sb.Reset()
			}
		}
	}
	return append(paras, sb.String())
}

func textBytes(paras []string) int {
	n := 0
	for _, p := range paras {
		n += len(p)
	}
	return n
}

func BenchmarkCode(b *testing.B) {
	unlimited, err := NewExtractor(&Options{MaxChars: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, lang := range []string{"zh", "en"} {
		for _, size := range []int{1000, 10000, 100000} {
			paras := synthText(uint64(size), size, lang == "zh")
			for _, x := range []struct {
				name string
				x    *Extractor
			}{{"cut", defaultExtractor}, {"whole", unlimited}} {
				b.Run(fmt.Sprintf("%s/%s/chars=%d", lang, x.name, size), func(b *testing.B) {
					b.SetBytes(int64(textBytes(paras)))
					b.ReportAllocs()
					dst := make([]byte, 0, 1<<16)
					cpu := cpubench.Start(b)
					for b.Loop() {
						dst = x.x.AppendCode(dst[:0], paras)
					}
					cpu.Report(int64(textBytes(paras)))
				})
			}
		}
	}
}

// BenchmarkCodeRealPages codes the five real pages of testdata, with the
// paper's cut to the first 1000 characters and without it (MB/s of the
// whole text either way).
func BenchmarkCodeRealPages(b *testing.B) {
	pages := readPages(b)
	n := 0
	for _, p := range pages {
		n += textBytes(p.Paragraphs)
	}
	unlimited, err := NewExtractor(&Options{MaxChars: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, x := range []struct {
		name string
		x    *Extractor
	}{{"cut", defaultExtractor}, {"whole", unlimited}} {
		b.Run(x.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			dst := make([]byte, 0, 1<<16)
			cpu := cpubench.Start(b)
			for b.Loop() {
				for _, p := range pages {
					dst = x.x.AppendCode(dst[:0], p.Paragraphs)
				}
			}
			cpu.Report(int64(n))
		})
	}
}

func BenchmarkLongest(b *testing.B) {
	codes := synthCodes(1, 2, 0)
	b.SetBytes(int64(len(codes[0]) + len(codes[1])))
	b.ReportAllocs()
	cpu := cpubench.Start(b)
	for b.Loop() {
		Longest(codes[0], codes[1])
	}
	cpu.Report(int64(len(codes[0]) + len(codes[1])))
}

func BenchmarkEliminate(b *testing.B) {
	for _, bc := range []struct {
		n      int
		median float64
	}{{1000, 73}, {10000, 73}, {100000, 73}, {100000, 200}} {
		if testing.Short() && bc.n > 10000 {
			continue
		}
		b.Run(fmt.Sprintf("codes=%d/median=%v", bc.n, bc.median), func(b *testing.B) {
			codes := synthCodesLen(uint64(bc.n), bc.n, 0.2, bc.median)
			bytes, runes := 0, 0
			for _, c := range codes {
				bytes += len(c)
				runes += utf8.RuneCountInString(c)
			}
			b.SetBytes(int64(bytes))
			b.ReportAllocs()
			var kept, mem int
			cpu := cpubench.Start(b)
			for b.Loop() {
				// What Eliminate does, keeping the Eliminator for its
				// figures: sort longest first, add in that order.
				// Like Eliminate, count the runes of each code once,
				// not in every comparison of the sort.
				var e Eliminator
				e.Grow(runes)
				order := make([]int, len(codes))
				lens := make([]int, len(codes))
				for i, c := range codes {
					order[i], lens[i] = i, utf8.RuneCountInString(c)
				}
				slices.SortStableFunc(order, func(x, y int) int { return lens[y] - lens[x] })
				for _, i := range order {
					e.Add(codes[i])
				}
				kept, mem = e.Kept(), e.Bytes()
			}
			cpu.Report(0)
			b.ReportMetric(float64(kept), "kept")
			b.ReportMetric(float64(mem)/float64(kept), "B/kept")
		})
	}
}
