package beamlearn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/beamlearn"
)

// Group three pages into dup clusters on Prism: two URLs of one article and another article.
func ExampleClusters() {
	article := func(topic string) string {
		return "<html><body><main><p>" + strings.Repeat("A long article about "+topic+" and nothing else. ", 20) + "</p></main></body></html>"
	}
	var pages []beamlearn.Page
	for _, p := range []struct{ url, html string }{
		{"https://shop.example/item?id=7", article("garden tools")},
		{"https://shop.example/item?id=7&ref=mail", article("garden tools")},
		{"https://shop.example/item?id=8", article("kitchen knives")},
	} {
		pages = append(pages, beamlearn.Page{URL: p.url, HTML: []byte(p.html)})
	}
	dir, err := os.MkdirTemp("", "beampages")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "clusters.tsv")

	p, s := beam.NewPipelineWithRoot()
	cls, err := beamlearn.Clusters(s, beam.CreateList(s, pages), beamlearn.PageConfig{})
	if err != nil {
		panic(err)
	}
	textio.Write(s, out, cls)
	if err := ptest.Run(p); err != nil {
		panic(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		panic(err)
	}
	got := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Sort(got)
	for _, l := range got {
		fmt.Println(l)
	}
	// Output:
	// shop.example-2ac4556999213000	https://shop.example/item?id=7
	// shop.example-2ac4556999213000	https://shop.example/item?id=7&ref=mail
	// shop.example-2ac464699921497d	https://shop.example/item?id=8
}

// The cluster id of a page names its site (here its registrable domain, '-' written as '_')
// and the root of its component.
func ExampleClusterID() {
	fmt.Println(beamlearn.ClusterID("https://www.my-shop.co.uk/a?id=1", "https://my-shop.co.uk/a", learn.ByDomain))
	// Output:
	// my_shop.co.uk-53b12ee54e221bf9
}
