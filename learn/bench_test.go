package learn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
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

// BenchmarkReadHostile reads the adversarial inputs of internal/hostile: long lines, a line of
// many fields, many clusters, a nested CDXJ record. One op reads the whole input.
func BenchmarkReadHostile(b *testing.B) {
	big := ReaderOptions{MaxLineBytes: 1 << 24, SkipBad: true}
	for _, tc := range []struct {
		name string
		in   string
		cdx  bool
	}{
		{"tsv-long-url-1MB", hostile.TSVLongURL(1 << 20), false},
		{"tsv-fields-256K", hostile.TSVManyFields(1 << 18), false},
		{"tsv-clusters-16K", hostile.TSVManyClusters(1 << 14), false},
		{"cdx-fields-64K", hostile.CDXManyFields(1 << 16), true},
		{"cdx-captures-16K", hostile.CDXManyCaptures(1 << 14), true},
		{"cdxj-nested-8K", hostile.CDXJNested(1 << 13), true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for b.Loop() {
				if tc.cdx {
					r := NewCDXReader(strings.NewReader(tc.in), big)
					for r.Next() {
					}
				} else {
					r := NewTSVReader(strings.NewReader(tc.in), big)
					for r.Next() {
					}
				}
			}
		})
	}
}
