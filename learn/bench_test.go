package learn

import (
	"os"
	"path/filepath"
	"testing"
)

func sampleSite(b *testing.B) []*Cluster {
	var out []*Cluster
	cls := loadSample(b)
	for i := range cls {
		if cls[i].Site == "h0000" {
			out = append(out, &cls[i])
		}
	}
	return out
}

// BenchmarkPairwise measures the pairwise stage (preparation, target and source selection,
// Algorithm 3) on the largest site of the sample (191 URLs).
func BenchmarkPairwise(b *testing.B) {
	cls := sampleSite(b)
	opt := Options{}.withDefaults()
	b.ReportAllocs()
	for b.Loop() {
		pairwise(cls, opt)
	}
}

// BenchmarkGeneralize measures generalization and rule measurement (Algorithm 5 and selection)
// on the same site, after the pairwise stage.
func BenchmarkGeneralize(b *testing.B) {
	cls := sampleSite(b)
	opt := Options{}.withDefaults()
	pw := pairwise(cls, opt)
	b.ReportAllocs()
	for b.Loop() {
		s := &site{name: "h0000", hosts: pw.hosts}
		s.finish(pw, opt)
	}
}

// BenchmarkNormalize measures the online side: one URL through Prepare and the learned rules.
func BenchmarkNormalize(b *testing.B) {
	cls := loadSample(b)
	m, _, err := Learn(cls, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var urls []string
	n := 0
	for _, c := range cls {
		for _, u := range c.URLs {
			urls = append(urls, u.Raw)
			n += len(u.Raw)
		}
	}
	b.SetBytes(int64(n / len(urls)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Normalize(urls[i%len(urls)])
		i++
	}
}

// BenchmarkLearnDupclusters learns on all of train.tsv when UNDUST_DUPCLUSTERS names the
// dupclusters directory.
func BenchmarkLearnDupclusters(b *testing.B) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		b.Skip("UNDUST_DUPCLUSTERS not set")
	}
	f, err := os.Open(filepath.Join(dir, "train.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	cls, _, err := ReadClusters(f, ReaderOptions{})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Learn(cls, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
