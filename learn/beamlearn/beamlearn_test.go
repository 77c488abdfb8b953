package beamlearn

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
	cls, _, err := learn.ReadClusters(f, learn.ReaderOptions{})
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
	}{
		{"sample.tsv", learn.Options{}},                                 // the defaults
		{"sample.tsv", learn.Options{MinCoverage: 1, MinPrecision: -1}}, // every rule, many scopes
		{"train-slice.tsv", learn.Options{}},                            // 25 sites, widening across them
	} {
		in := filepath.Join("testdata", tc.file)
		want := inProcess(t, in, tc.opt)
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
