package beamlearn_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/undust/undust/learn/beamlearn"
)

// Learn the rules of the sample dup clusters on Prism (the test binary's runner) and print the
// rules learned for one host.
func Example() {
	dir, err := os.MkdirTemp("", "beamlearn")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "rules.txt")

	p, s := beam.NewPipelineWithRoot()
	beamlearn.LearnFiles(s, "testdata/sample.tsv", out, beamlearn.Config{})
	if err := ptest.Run(p); err != nil {
		panic(err)
	}

	f, err := os.Open(out)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "rule host=shorecedar.es ") {
			fmt.Println(sc.Text())
		}
	}
	// Output:
	// rule host=shorecedar.es cov=25 prec=1 sup=7 if host="shorecedar.es" path(-,1)="default.asp" path(-,3)="library" path(1,-)="library" path(3,-)="default.asp" scheme="https" path(-,2)=* path(2,-)=* then path(-,1)=""
	// rule host=shorecedar.es cov=24 prec=1 sup=0 if host="shorecedar.es" then path(-,-)=lower
}
