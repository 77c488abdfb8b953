package learn

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/undust/undust/urlnorm"
)

func readDataset(t testing.TB, dir, name string) []Cluster {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := ReadClusters(f, ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

// TestEvaluateDupclusters runs the paper's protocol on the dupclusters data sets when
// UNDUST_DUPCLUSTERS names their directory; run it with -v to see the tables.
func TestEvaluateDupclusters(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	sets := map[string][]Cluster{}
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		cls := readDataset(t, dir, name)
		sets[name] = cls
		rep, err := Evaluate(cls, 1, Options{}, []Baseline{
			{"urlnorm Crawler key (static)", urlnorm.New(urlnorm.Crawler)},
			{"urlnorm Aggressive key (static)", urlnorm.New(urlnorm.Aggressive)},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: learn on half %v, stats %+v", name, rep.LearnTime, rep.Learn)
		var b strings.Builder
		WriteTable(&b, rep.Unseen)
		t.Logf("%s, unseen half:\n%s", name, b.String())
		b.Reset()
		WriteTable(&b, rep.Both)
		t.Logf("%s, both halves:\n%s", name, b.String())
	}
	static, learned, global, err := Transfer(sets["train.tsv"], sets["dev.tsv"], Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range global {
		fmt.Fprintf(&b, "%s\n", r.String())
	}
	t.Logf("transfer train.tsv -> dev.tsv: %d widened rules\n%s", len(global), b.String())
	t.Logf("transfer: static reduction %.4f (of max %.3f), learned reduction %.4f (of max %.3f), pair precision %.4f, false-merge rate %.4f, false pairs %d",
		static.Reduction, static.OfMax, learned.Reduction, learned.OfMax, learned.PairPrecision, learned.FalseMergeRate, learned.FalsePairs)
}

// TestScaling learns on 25%, 50% and 100% of the sites of train.tsv when UNDUST_DUPCLUSTERS is
// set, and logs wall time, CPU time and peak heap. Run it alone: the heap is the process's.
func TestScaling(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	cls := readDataset(t, dir, "train.tsv")
	var sites []string
	seen := map[string]bool{}
	for _, c := range cls {
		if !seen[c.Site] {
			seen[c.Site] = true
			sites = append(sites, c.Site)
		}
	}
	for _, frac := range []int{25, 50, 100} {
		keep := map[string]bool{}
		for i, s := range sites {
			if i*100 < frac*len(sites) {
				keep[s] = true
			}
		}
		var sub []Cluster
		urls := 0
		for _, c := range cls {
			if keep[c.Site] {
				sub = append(sub, c)
				urls += len(c.URLs)
			}
		}
		runtime.GC()
		peak := heapPeak()
		cpu0 := cpuTime()
		t0 := time.Now()
		m, st, err := Learn(sub, Options{})
		wall := time.Since(t0)
		cpu := cpuTime() - cpu0
		hp := peak()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%3d%% of sites: %d sites, %d URLs: wall %v, CPU %v, peak heap %d MB, %d rules selected of %d",
			frac, st.Sites, urls, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), hp>>20, m.Len(), st.Rules)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapPeak samples the live heap every 5 ms until the returned function is called, which
// returns the largest sample.
func heapPeak() func() uint64 {
	var mu sync.Mutex
	var max uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(stopped)
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			max = maxU(max, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tk.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return max
	}
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// TestDeterminismDupclusters learns on train.tsv twice, with 1 and 2 workers, when
// UNDUST_DUPCLUSTERS is set, and compares the rules files byte for byte (the sample is too small
// to show an order that depends on map iteration; train.tsv did).
func TestDeterminismDupclusters(t *testing.T) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		t.Skip("UNDUST_DUPCLUSTERS not set")
	}
	cls := readDataset(t, dir, "train.tsv")
	var outs []string
	for _, w := range []int{1, 2} {
		m, _, err := Learn(cls, Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		m.WriteTo(&b)
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Error("two runs on train.tsv wrote different rules files")
	}
}
