// Command beampages groups the pages of a crawl into dup clusters on Apache Beam
// (beamlearn.Clusters: MinHash signatures of the main text, LSH buckets, verified pairs,
// connected components) and writes them as a dup-cluster TSV file; with -rules it goes on to
// learn URL rewrite rules from them (beamlearn.Learn) and writes the rules file too.
//
// The input is JSON lines, one page per line with the fields "url" and "html" (other fields
// are ignored), gzip-compressed when the file name ends in .gz. On the embedded Prism runner
// (the default):
//
//	beampages -input pages.jsonl.gz -clusters clusters.tsv -rules rules.txt
//
// On Flink or Spark, through their Beam job server, and on Google Cloud Dataflow, with the
// runner flags of command beamlearn (see the package doc of beamlearn):
//
//	beampages -runner=universal -endpoint=localhost:8099 -environment_type=DOCKER \
//	    -input 'gs://bucket/pages-*.jsonl.gz' -clusters gs://bucket/clusters.tsv
//	beampages -runner=dataflow -project=P -region=us-central1 \
//	    -staging_location=gs://bucket/staging -input 'gs://bucket/pages-*.jsonl.gz' \
//	    -clusters gs://bucket/clusters.tsv -rules gs://bucket/rules.txt
//
// After the run it logs the pipeline's metrics where the runner reports them: buckets and
// their largest size, buckets over -max-bucket, pairs compared and verified.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3" // s3:// paths (gs:// and local come with beamx)
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/beamlearn"
)

func main() {
	input := flag.String("input", "", "page file or glob, JSON lines (required)")
	clusters := flag.String("clusters", "", "dup-cluster TSV file to write (required)")
	rules := flag.String("rules", "", "rules file to learn from the clusters and write (optional)")
	grouping := flag.String("grouping", "host", "the site of a page is its host or its domain")
	var cfg beamlearn.PageConfig
	flag.Float64Var(&cfg.Threshold, "threshold", 0, "estimated resemblance of duplicates (0: 0.8)")
	flag.IntVar(&cfg.MaxBucket, "max-bucket", 0, "pages of an LSH bucket compared in full; each page of a larger bucket is compared with the next max-bucket (0: 1000, negative: all)")
	flag.IntVar(&cfg.Rounds, "rounds", 0, "large/small-star rounds of the connected components (0: 12)")
	flag.BoolVar(&cfg.SkipBad, "skip-bad", false, "skip malformed lines instead of failing")
	flag.Parse()
	beam.Init() // before anything else: on a distributed runner this binary is also the worker

	if *input == "" || *clusters == "" {
		fmt.Fprintln(os.Stderr, "beampages: -input and -clusters are required")
		flag.Usage()
		os.Exit(2)
	}
	switch *grouping {
	case "host":
		cfg.Grouping = learn.ByHost
	case "domain":
		cfg.Grouping = learn.ByDomain
	default:
		log.Fatalf("beampages: unknown grouping %q", *grouping)
	}

	p, s := beam.NewPipelineWithRoot()
	cls, err := beamlearn.Clusters(s, beamlearn.ReadPages(s, *input, cfg.SkipBad), cfg)
	if err != nil {
		log.Fatal(err)
	}
	textio.Write(s, *clusters, cls)
	if *rules != "" {
		textio.Write(s, *rules, beamlearn.Learn(s, cls, beamlearn.Config{}))
	}
	start := time.Now()
	res, err := beamx.RunWithMetrics(context.Background(), p)
	if err != nil {
		log.Fatalf("beampages: %v", err)
	}
	log.Printf("beampages: wrote %s in %v", *clusters, time.Since(start).Round(time.Millisecond))
	if res == nil {
		return
	}
	m := res.Metrics().AllMetrics()
	for _, d := range m.Distributions() {
		v := d.Result()
		log.Printf("beampages: %s: %d, mean %.2f, max %d", d.Name(), v.Count, float64(v.Sum)/float64(max(v.Count, 1)), v.Max)
	}
	for _, c := range m.Counters() {
		log.Printf("beampages: %s: %d", c.Name(), c.Result())
	}
}
