package beamlearn

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/undust/undust/learn"
)

// TestMain runs the pipelines of the tests on Prism, Beam's embedded runner, unless
// --runner says otherwise.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// inProcess is the rules file that learn.Learn writes for the TSV file at path.
func inProcess(t *testing.T, path string, opt learn.Options) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := learn.ReadClusters(f, learn.ReaderOptions{Sites: learn.ByID})
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := learn.Learn(cls, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := set.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParity checks that the pipeline on Prism writes the rules file of the in-process
// learner, byte for byte, with the same options.
func TestParity(t *testing.T) {
	for _, tc := range []struct {
		file string
		opt  learn.Options
		gz   bool // the pipeline reads the file gzip-compressed
	}{
		{"sample.tsv", learn.Options{}, false},                                 // the defaults
		{"sample.tsv", learn.Options{MinCoverage: 1, MinPrecision: -1}, false}, // every rule, many scopes
		{"train-slice.tsv", learn.Options{}, false},                            // 25 sites, widening across them
		{"train-slice.tsv", learn.Options{}, true},                             // read whole, not cut at its compressed size
	} {
		in := filepath.Join("testdata", tc.file)
		want := inProcess(t, in, tc.opt)
		if tc.gz {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			in = filepath.Join(t.TempDir(), tc.file+".gz")
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			z.Write(data)
			z.Close()
			if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "rules.txt")
		p, s := beam.NewPipelineWithRoot()
		LearnFiles(s, in, out, Config{Options: tc.opt})
		if err := ptest.Run(p); err != nil {
			t.Fatalf("%s %+v: %v", tc.file, tc.opt, err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s %+v: pipeline mismatch (-in-process +Prism):\n%s", tc.file, tc.opt, diff)
		}
		if bytes.Count(want, []byte("\n")) < 10 {
			t.Errorf("%s %+v: %d lines of rules: the comparison checks little", tc.file, tc.opt, bytes.Count(want, []byte("\n")))
		}
	}
}

// rulesText is the rules file of set.
func rulesText(t *testing.T, cls []learn.Cluster, opt learn.Options) string {
	t.Helper()
	set, _, err := learn.Learn(cls, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	set.WriteTo(&b)
	return b.String()
}

// cdxjOf writes the URLs of the dup clusters in the TSV file at path as a CDXJ index, each
// cluster's id as the payload digest, with a redirect and a revisit record per cluster that
// the readers must skip.
func cdxjOf(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cls, _, err := learn.ReadClusters(f, learn.ReaderOptions{Sites: learn.ByID})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("!meta {\"format\": \"cdxj\"}\n")
	for _, c := range cls {
		for i, u := range c.URLs {
			for _, rec := range []struct{ status, mime string }{{"200", "text/html"}, {"302", "text/html"}, {"200", "warc/revisit"}} {
				j, _ := json.Marshal(map[string]string{"url": u.Raw, "status": rec.status, "mime": rec.mime, "digest": c.ID})
				fmt.Fprintf(&b, "key%d 2026010100%04d %s\n", i, i, j)
			}
		}
	}
	return b.String()
}

// TestParityCDX checks the pipeline on a crawl index: the rules file of learn.Learn on
// learn.CaptureClusters of the whole index, by host and by domain.
func TestParityCDX(t *testing.T) {
	index := cdxjOf(t, filepath.Join("testdata", "sample.tsv"))
	in := filepath.Join(t.TempDir(), "sample.cdxj")
	if err := os.WriteFile(in, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, g := range []learn.Grouping{learn.ByHost, learn.ByDomain} {
		cls, err := learn.CaptureClusters(learn.NewCDXReader(strings.NewReader(index), learn.ReaderOptions{}), g)
		if err != nil {
			t.Fatal(err)
		}
		want := rulesText(t, cls, learn.Options{})
		out := filepath.Join(t.TempDir(), "rules.txt")
		p, s := beam.NewPipelineWithRoot()
		LearnFiles(s, in, out, Config{Format: CDX, Grouping: g})
		if err := ptest.Run(p); err != nil {
			t.Fatalf("grouping %d: %v", g, err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("grouping %d: pipeline mismatch (-in-process +Prism):\n%s", g, diff)
		}
		if strings.Count(want, "\n") < 10 {
			t.Errorf("grouping %d: %d lines of rules: the comparison checks little", g, strings.Count(want, "\n"))
		}
	}
}

// TestBadLines checks that a malformed line fails the pipeline, and that SkipBad skips it.
func TestBadLines(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join("testdata", "sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	cls, _, err := learn.ReadClusters(bytes.NewReader(sample), learn.ReaderOptions{Sites: learn.ByID})
	if err != nil {
		t.Fatal(err)
	}
	want := rulesText(t, cls, learn.Options{})
	in := filepath.Join(t.TempDir(), "bad.tsv")
	// a line without a URL column, among good lines
	if err := os.WriteFile(in, append(sample, "h0000-p999\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, skip := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "rules.txt")
		p, s := beam.NewPipelineWithRoot()
		LearnFiles(s, in, out, Config{SkipBad: skip})
		err := ptest.Run(p)
		if !skip {
			if err == nil {
				t.Errorf("bad line, SkipBad false: the pipeline succeeded")
			}
			continue
		}
		if err != nil {
			t.Fatalf("SkipBad: %v", err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("SkipBad: the rules file differs from that of the good lines")
		}
	}
}

// TestTrain runs the pipeline on Prism on the dup-cluster file that UNDUST_TRAIN names (the
// project's train.tsv) and the in-process learner on its lines sorted bytewise, checks that
// they write the same rules file, and logs both times and the records per site key. Skipped
// without UNDUST_TRAIN: go test -run TestTrain -v with UNDUST_TRAIN=/path/to/train.tsv.
func TestTrain(t *testing.T) {
	in := os.Getenv("UNDUST_TRAIN")
	if in == "" {
		t.Skip("UNDUST_TRAIN not set")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	slices.Sort(lines)
	perSite := map[string]int{}
	for _, l := range lines {
		if site, ok, err := siteOf(strings.TrimSuffix(l, "\n"), TSV, learn.ByHost); err == nil && ok {
			perSite[site]++
		}
	}
	counts := make([]int, 0, len(perSite))
	largest := ""
	for site, n := range perSite {
		counts = append(counts, n)
		if largest == "" || n > perSite[largest] || n == perSite[largest] && site < largest {
			largest = site
		}
	}
	slices.Sort(counts)
	t.Logf("site keys %d: records per key min %d, median %d, p90 %d, max %d (%s)", len(counts),
		counts[0], counts[len(counts)/2], counts[len(counts)*9/10], counts[len(counts)-1], largest)

	start := time.Now()
	cls, _, err := learn.ReadClusters(strings.NewReader(strings.Join(lines, "")), learn.ReaderOptions{Sites: learn.ByID})
	if err != nil {
		t.Fatal(err)
	}
	want := rulesText(t, cls, learn.Options{})
	t.Logf("in-process (read and learn, %d workers): %v", runtime.GOMAXPROCS(0), time.Since(start))

	out := filepath.Join(t.TempDir(), "rules.txt")
	start = time.Now()
	p, s := beam.NewPipelineWithRoot()
	LearnFiles(s, in, out, Config{})
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	t.Logf("pipeline on %s: %v", ptest.DefaultRunner(), time.Since(start))
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("the pipeline's rules file differs from the in-process learner's")
	}
}
