package beamlearn

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/shingle"
)

// readPages reads the URLs and HTML of a JSON-lines page file (gzip by suffix).
func readPages(t *testing.T, path string) (urls, html []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sc *bufio.Scanner
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		sc = bufio.NewScanner(z)
	} else {
		sc = bufio.NewScanner(f)
	}
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var p pageJSON
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		urls = append(urls, p.URL)
		html = append(html, p.HTML)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return urls, html
}

// pair is a verified pair of page indexes.
type pair struct{ a, b int }

// inProcessPairs are the pairs the library's in-process MinHash method verifies: an LSH index
// (shingle.NewLSH for shingle.CandidateThreshold) of the pages' signatures queried by each
// page for the pages before it, and shingle.Estimate at the threshold.
func inProcessPairs(html []string, t float64) []pair {
	m := shingle.NewMinHasher(shingle.DefaultK, 1)
	index := shingle.NewLSH(shingle.DefaultK, shingle.CandidateThreshold(t))
	var pairs []pair
	sigs := make([][]uint64, len(html))
	for i := range html {
		set := PageShingles([]byte(html[i]))
		if len(set) == 0 {
			continue
		}
		sigs[i] = m.Signature(set)
		cands, _ := index.Query(sigs[i])
		for _, c := range cands {
			if shingle.Estimate(sigs[i], sigs[c]) >= t {
				pairs = append(pairs, pair{int(c), i})
			}
		}
		index.Insert(uint64(i), sigs[i])
	}
	return pairs
}

// unionFind is the dup-cluster TSV lines of the components of pairs over the pages urls, by
// union-find, named as Clusters names them; a URL given twice is one node.
func unionFind(urls []string, pairs []pair, g learn.Grouping) []string {
	parent := map[string]string{}
	var find func(string) string
	find = func(u string) string {
		p, ok := parent[u]
		if !ok || p == u {
			return u
		}
		r := find(p)
		parent[u] = r
		return r
	}
	for _, p := range pairs {
		a, b := find(urls[p.a]), find(urls[p.b])
		if a == b {
			continue
		}
		if b < a {
			a, b = b, a
		}
		parent[b] = a // the root is the smallest URL
	}
	var lines []string
	for _, u := range urls {
		lines = append(lines, ClusterID(u, find(u), g)+"\t"+u)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// runClusters runs Clusters on Prism on the page file in and returns its sorted lines.
func runClusters(t *testing.T, in string, cfg PageConfig) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "clusters.tsv")
	p, s := beam.NewPipelineWithRoot()
	if err := ClusterFiles(s, in, out, cfg); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	slices.Sort(lines)
	return lines
}

// multi counts the pages in clusters of more than one page.
func multi(lines []string) int {
	size := map[string]int{}
	for _, l := range lines {
		c, _, _ := strings.Cut(l, "\t")
		size[c]++
	}
	n := 0
	for _, k := range size {
		if k > 1 {
			n += k
		}
	}
	return n
}

// TestClustersParity checks that the page pipeline on Prism writes the clusters of an
// in-process union-find over the pairs of the in-process MinHash method, and that the
// comparison notices a pair dropped or a threshold moved.
func TestClustersParity(t *testing.T) {
	in := filepath.Join("testdata", "pages.jsonl.gz")
	urls, html := readPages(t, in)
	pairs := inProcessPairs(html, 0.8)
	want := unionFind(urls, pairs, learn.ByDomain)
	got := runClusters(t, in, PageConfig{Grouping: learn.ByDomain})
	t.Logf("%d lines, %d pairs, %d pages in clusters of two or more", len(got), len(pairs), multi(want))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clusters mismatch (-in-process +Prism):\n%s", diff)
	}
	if m := multi(want); m < 30 {
		t.Errorf("%d pages in clusters of two or more: the comparison checks little", m)
	}

	// Sabotage: the reference without one of its pairs, or at another threshold, must differ.
	// A dropped pair may be implied by the others (a triangle); some must not be.
	bridges := 0
	for i := range pairs {
		if !cmp.Equal(unionFind(urls, slices.Delete(slices.Clone(pairs), i, i+1), learn.ByDomain), got) {
			bridges++
		}
	}
	if bridges == 0 {
		t.Error("no dropped pair changes the clusters: the comparison cannot fail")
	}
	if cmp.Equal(unionFind(urls, inProcessPairs(html, 0.7), learn.ByDomain), got) {
		t.Error("the clusters at threshold 0.7 equal those at 0.8: the comparison cannot fail")
	}
}

// TestClustersHotBucket checks that a bucket cap bounds the comparisons yet keeps the
// clusters of a group of identical pages, which a window over the bucket chains together.
func TestClustersHotBucket(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pages.jsonl")
	var b strings.Builder
	body := "<html><body><main><p>" + strings.Repeat("the same article text of a template page repeated ", 20) + "</p></main></body></html>"
	for i := range 30 {
		line, _ := json.Marshal(pageJSON{URL: "https://hot.example/p/" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), HTML: body})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	urls, html := readPages(t, in)
	want := unionFind(urls, inProcessPairs(html, 0.8), learn.ByHost)
	for _, max := range []int{-1, 3, 1} {
		got := runClusters(t, in, PageConfig{MaxBucket: max})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MaxBucket %d: clusters mismatch (-in-process +Prism):\n%s", max, diff)
		}
	}
}

// TestClustersErrors checks the errors of bad configs and bad pages.
func TestClustersErrors(t *testing.T) {
	for _, cfg := range []PageConfig{{Threshold: 1}, {Threshold: -0.5}, {K: -1}, {Rounds: -2}} {
		p, s := beam.NewPipelineWithRoot()
		if _, err := Clusters(s, beam.Create(s, Page{URL: "https://a.example/"}), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
		_ = p
	}
	dir := t.TempDir()
	for _, line := range []string{`{"url": "https://a.example/x"`, `{"url": "/relative", "html": ""}`, `{"url": "https://a.example/\tx", "html": ""}`} {
		in := filepath.Join(dir, "bad.jsonl")
		if err := os.WriteFile(in, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p, s := beam.NewPipelineWithRoot()
		if err := ClusterFiles(s, in, filepath.Join(dir, "out.tsv"), PageConfig{}); err != nil {
			t.Fatal(err)
		}
		if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), "beamlearn") && !strings.Contains(err.Error(), "json") {
			t.Errorf("%q: error %v", line, err)
		}
	}
}

// TestRulesFromPages checks that pages to rules in one pipeline writes the rules file that the
// in-process learner writes for the clusters of the same pages. (These 24 pages give the
// learner too little evidence for a rule; the test checks the plumbing, header and key line.)
func TestRulesFromPages(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pages.jsonl")
	var b strings.Builder
	article := func(n int) string {
		var w []string
		for i := range 60 {
			w = append(w, strconv.FormatInt(int64(n*7919+i*104729), 36))
		}
		return "<html><body><main><p>" + strings.Join(w, " ") + "</p></main></body></html>"
	}
	for n := range 12 {
		for _, u := range []string{"https://shop.example/item?id=%d", "https://shop.example/item?id=%d&layout=print"} {
			line, _ := json.Marshal(pageJSON{URL: fmt.Sprintf(u, n), HTML: article(n)})
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	clusters := filepath.Join(dir, "clusters.tsv")
	if err := os.WriteFile(clusters, []byte(strings.Join(runClusters(t, in, PageConfig{}), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := inProcess(t, clusters, learn.Options{})
	out := filepath.Join(dir, "rules.txt")
	p, s := beam.NewPipelineWithRoot()
	if err := RulesFromPages(s, in, out, PageConfig{}, Config{}); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("rules mismatch (-in-process +Prism):\n%s", diff)
	}
}
