package align

import (
	"os"
	"testing"

	"github.com/undust/undust/learn"
)

// BenchmarkMultiAlign measures the multiple alignment of k URLs of one cluster (session and
// tracking variants of one forum page), O(k^2) pairwise alignments.
func BenchmarkMultiAlign(b *testing.B) {
	urls := []string{
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&highlight=bag&sid=55660cac38b3efa0e1a74e594cc69a70",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&sid=a61ef033bfa50867937c7d0652d3eb61",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&highlight=bag",
		"http://forum.example.org/board/viewtopic.php?t=2985",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&view=print",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&view=print&sid=2a2408e3823760c7b7b65a0fc1840b80",
		"https://forum.example.org/board/viewtopic.php?t=2985&start=0",
		"https://www.forum.example.org/board/viewtopic.php?t=2985",
		"https://forum.example.org/board/viewtopic.php?f=10&t=2985&highlight=hospital",
	}
	s := mustSeqs(b, urls...)
	b.ReportAllocs()
	for b.Loop() {
		multiAlign(s)
	}
}

// BenchmarkLearnSynthetic measures learning on 400 made-up clusters of one site.
func BenchmarkLearnSynthetic(b *testing.B) {
	cls := imdbClusters(200)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := (&Learner{}).Learn(cls); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLearnTrain measures learning on the whole of train.tsv (all of it, not a half) when
// UNDUST_DUPCLUSTERS names the dupclusters directory.
func BenchmarkLearnTrain(b *testing.B) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		b.Skip("UNDUST_DUPCLUSTERS not set")
	}
	cls := readDataset(b, dir, "train.tsv")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := (&Learner{}).Learn(cls); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNormalizeTrain measures the learned set's normalization of the unseen half of
// train.tsv, per URL.
func BenchmarkNormalizeTrain(b *testing.B) {
	dir := os.Getenv("UNDUST_DUPCLUSTERS")
	if dir == "" {
		b.Skip("UNDUST_DUPCLUSTERS not set")
	}
	train, test := learn.Split(readDataset(b, dir, "train.tsv"), 1)
	set, _, err := (&Learner{}).Learn(train)
	if err != nil {
		b.Fatal(err)
	}
	n := learn.SetNormalizer(set)
	var urls []string
	for _, c := range test {
		for _, u := range c.URLs {
			urls = append(urls, u.Raw)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n.Normalize(urls[i%len(urls)])
		i++
	}
}
