package rules

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/urlnorm"
)

// benchData is the dev.tsv URLs of testdata and a 10,000-rule set learned from them, made once:
// pairwise rules (genRules), kept when Evaluate gives them a precision of at least 0.9 on the
// same URLs, as a learner's filter would, with their coverage and precision as statistics.
var benchData = sync.OnceValues(func() ([]Labeled, []Rule) {
	ls := loadDev(nopTB{}, 0)
	cands := genRules(ls, 0, 1)
	s, err := NewSet(cands, nil)
	if err != nil {
		panic(err)
	}
	m := s.Evaluate(ls)
	var out []Rule
	for i, rm := range m.Rules {
		if rm.Coverage > 0 && rm.Precision >= 0.9 {
			r := s.Rule(i)
			r.Stats.Coverage, r.Stats.Precision = rm.Coverage, rm.Precision
			out = append(out, r)
		}
	}
	benchCandidates = len(cands)
	// Spread the 10,000 over the sites, as genRules does.
	rng := rand.New(rand.NewPCG(2, 0))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return ls, out[:min(len(out), 10000)]
})

var benchCandidates int

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
// all of them, those that some rule rewrites, those that no rule changes, and those whose context
// no rule matches; Tokenize is the
// floor that every URL pays, and urlnorm's Key the static normalization before the rules.
func BenchmarkNormalize(b *testing.B) {
	s, ls := benchSet(b)
	var all, changed, same, nomatch []string
	var v view
	for _, l := range ls {
		all = append(all, l.URL)
		if v.load(l.URL, s) == nil && s.match(&v) < 0 {
			nomatch = append(nomatch, l.URL)
		}
		if out, _ := s.Normalize(l.URL); out != l.URL {
			changed = append(changed, l.URL)
		} else {
			same = append(same, l.URL)
		}
	}
	b.Logf("%d rules, %d URLs: %d rewritten, %d unchanged, %d matched by no rule", s.Len(), len(all), len(changed), len(same), len(nomatch))
	run := func(name string, urls []string, f func(string)) { benchURLs(b, name, urls, f) }
	norm := func(u string) { s.Normalize(u) }
	run("all", all, norm)
	// The median and 90th percentile of the time per URL, each URL timed on its own over
	// 16 runs (every 10th URL), reported by the "quantiles" benchmark: wall time and the CPU time
	// of the benchmark's thread (cpubench.ThreadTime, where available), which leaves out the time
	// other processes of the shared machine held the core.
	b.Run("quantiles", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var per, perCPU []time.Duration
		for b.Loop() {
			per, perCPU = per[:0], perCPU[:0]
			for i := 0; i < len(all); i += 10 {
				c0 := cpubench.ThreadTime()
				t0 := time.Now()
				for range 16 {
					s.Normalize(all[i])
				}
				per = append(per, time.Since(t0)/16)
				perCPU = append(perCPU, (cpubench.ThreadTime()-c0)/16)
			}
		}
		slices.Sort(per)
		slices.Sort(perCPU)
		b.ReportMetric(float64(per[len(per)/2].Nanoseconds()), "p50-ns/URL")
		b.ReportMetric(float64(per[len(per)*9/10].Nanoseconds()), "p90-ns/URL")
		if perCPU[len(perCPU)-1] > 0 {
			b.ReportMetric(float64(perCPU[len(perCPU)/2].Nanoseconds()), "p50-cpu-ns/URL")
			b.ReportMetric(float64(perCPU[len(perCPU)*9/10].Nanoseconds()), "p90-cpu-ns/URL")
		}
	})
	run("rewritten", changed, norm)
	run("unchanged", same, norm)
	run("nomatch", nomatch, norm)
	var toks []urlnorm.Token
	run("tokenize", all, func(u string) { toks, _ = urlnorm.Tokenize(toks[:0], u) })
	// The static dedup key of the same URLs, which a URL that no rule matches should cost
	// little more than.
	key := urlnorm.New(urlnorm.Crawler)
	var buf []byte
	run("urlnorm-key", all, func(u string) { buf, _ = key.AppendKey(buf[:0], u) })
}

// benchURLs runs f over urls, one URL per op in turn, as the sub-benchmark name, reporting the
// mean URL's bytes, allocations and CPU time.
func benchURLs(b *testing.B, name string, urls []string, f func(string)) {
	b.Run(name, func(b *testing.B) {
		n := 0
		for _, u := range urls {
			n += len(u)
		}
		b.SetBytes(int64(n / len(urls)))
		b.ReportAllocs()
		i := 0
		cpu := cpubench.Start(b)
		for b.Loop() {
			f(urls[i])
			if i++; i == len(urls) {
				i = 0
			}
		}
		cpu.Report(int64(n / len(urls)))
	})
}

// BenchmarkLoad reads a 10,000-rule file and reports the heap the set keeps per rule.
func BenchmarkLoad(b *testing.B) {
	s, _ := benchSet(b)
	var file bytes.Buffer
	s.WriteTo(&file)
	b.SetBytes(int64(file.Len()))
	b.ReportAllocs()
	var kept *Set
	cpu := cpubench.Start(b)
	for b.Loop() {
		var err error
		kept, err = Load(bytes.NewReader(file.Bytes()), nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(int64(file.Len()))
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

// BenchmarkHostile measures the loader, the index build and Normalize on the adversarial
// shapes of internal/hostile: rules that each have a key of their own (built, and all matching
// one URL), a 512 KB rule line, and many conditions in one rule. Per op, one load, build or URL.
func BenchmarkHostile(b *testing.B) {
	load := func(name string, file []byte) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			b.ReportAllocs()
			cpu := cpubench.Start(b)
			for b.Loop() {
				if _, err := Load(bytes.NewReader(file), nil); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(int64(len(file)))
		})
	}
	load("load-distinct-keys-4096", hostile.RulesFileV1(hostile.DistinctKeyRules(4096)))
	load("load-long-line-512KB", hostile.RulesFileV1(hostile.LongLiteralRule(512<<10, -1)))
	load("load-4096-conditions", hostile.RulesFileV1(hostile.ManyConditionsRule(4096)))
	s, err := Load(bytes.NewReader(hostile.RulesFileV1(hostile.DistinctSegmentRules(1024))), nil)
	if err != nil {
		b.Fatal(err)
	}
	u := hostile.DistinctSegmentURL(1024)
	b.Run("normalize-1024-matching", func(b *testing.B) {
		b.SetBytes(int64(len(u)))
		b.ReportAllocs()
		cpu := cpubench.Start(b)
		for b.Loop() {
			s.Normalize(u)
		}
		cpu.Report(int64(len(u)))
	})
}
