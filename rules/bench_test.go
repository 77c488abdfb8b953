package rules

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/undust/undust/urlnorm"
)

// benchData is the dev.tsv URLs of testdata and a 10,000-rule set generated from them, made once.
var benchData = sync.OnceValues(func() ([]Labeled, []Rule) {
	ls := loadDev(nopTB{}, 0)
	return ls, genRules(ls, 10000, 1)
})

// nopTB lets loadDev run outside a test; a failure panics.
type nopTB struct{ testing.TB }

func (nopTB) Helper()               {}
func (nopTB) Fatal(args ...any)     { panic(args) }
func (nopTB) Fatalf(string, ...any) { panic("loadDev failed") }

func benchSet(b *testing.B) (*Set, []Labeled) {
	ls, rs := benchData()
	if len(rs) < 10000 {
		b.Fatalf("only %d rules generated", len(rs))
	}
	s, err := NewSet(rs, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s, ls
}

// BenchmarkNormalize normalizes the ~100,000 URLs of dev.tsv, one per op, with 10,000 rules:
// all of them, those that some rule rewrites, and those that no rule changes; Tokenize is the
// floor that every URL pays.
func BenchmarkNormalize(b *testing.B) {
	s, ls := benchSet(b)
	var all, changed, same []string
	for _, l := range ls {
		all = append(all, l.URL)
		if out, _ := s.Normalize(l.URL); out != l.URL {
			changed = append(changed, l.URL)
		} else {
			same = append(same, l.URL)
		}
	}
	b.Logf("%d rules, %d URLs: %d rewritten, %d unchanged", s.Len(), len(all), len(changed), len(same))
	run := func(name string, urls []string, f func(string)) {
		b.Run(name, func(b *testing.B) {
			n := 0
			for _, u := range urls {
				n += len(u)
			}
			b.SetBytes(int64(n / len(urls)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f(urls[i])
				if i++; i == len(urls) {
					i = 0
				}
			}
		})
	}
	norm := func(u string) { s.Normalize(u) }
	run("all", all, norm)
	run("rewritten", changed, norm)
	run("unchanged", same, norm)
	var toks []urlnorm.Token
	run("tokenize", all, func(u string) { toks, _ = urlnorm.Tokenize(toks[:0], u) })
}

// BenchmarkLoad reads a 10,000-rule file and reports the heap the set keeps per rule.
func BenchmarkLoad(b *testing.B) {
	s, _ := benchSet(b)
	var file bytes.Buffer
	s.WriteTo(&file)
	b.SetBytes(int64(file.Len()))
	b.ReportAllocs()
	var kept *Set
	for b.Loop() {
		var err error
		kept, err = Load(bytes.NewReader(file.Bytes()), nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	kept = nil
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	kept, _ = Load(bytes.NewReader(file.Bytes()), nil)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/float64(kept.Len()), "heapB/rule")
	runtime.KeepAlive(kept)
}

// BenchmarkEvaluate computes the metrics of 10,000 rules on the dev URLs.
func BenchmarkEvaluate(b *testing.B) {
	s, ls := benchSet(b)
	b.ReportAllocs()
	for b.Loop() {
		s.Evaluate(ls)
	}
}
