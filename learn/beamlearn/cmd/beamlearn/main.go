// Command beamlearn learns URL rewrite rules from dup clusters (TSV) or a crawl index (CDX,
// CDXJ) on Apache Beam and writes one rules file, the file that learn.Learn writes for the same
// input sorted bytewise.
//
// On the embedded Prism runner (the default):
//
//	beamlearn -input train.tsv -output rules.txt
//
// On Flink or Spark, through their Beam job server:
//
//	beamlearn -runner=universal -endpoint=localhost:8099 -environment_type=DOCKER \
//	    -input gs://bucket/train-*.tsv -output gs://bucket/rules.txt
//
// On Google Cloud Dataflow:
//
//	beamlearn -runner=dataflow -project=P -region=us-central1 \
//	    -staging_location=gs://bucket/staging -input gs://bucket/train-*.tsv \
//	    -output gs://bucket/rules.txt
//
// Input and output are any path Beam's textio reads and writes: local paths, gs:// and s3://.
// The learner's options are flags (see -help); their zero values are learn.Options' defaults.
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
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/beamlearn"
)

func main() {
	input := flag.String("input", "", "input file or glob (required)")
	output := flag.String("output", "", "rules file to write (required)")
	format := flag.String("format", "tsv", "input format: tsv (dup clusters) or cdx (CDX or CDXJ)")
	grouping := flag.String("grouping", "host", "for cdx: the site of a URL is its host or its domain")
	skipBad := flag.Bool("skip-bad", false, "skip malformed lines instead of failing")
	var opt learn.Options
	flag.IntVar(&opt.Targets, "targets", 0, "targets per cluster (0: 1)")
	flag.IntVar(&opt.MaxSources, "max-sources", 0, "sources sampled per cluster and target (0: 32)")
	flag.IntVar(&opt.MinSupport, "min-support", 0, "rows for a tree branch (0: 2)")
	flag.IntVar(&opt.MaxDepth, "max-depth", 0, "decision tree depth (0: 16)")
	flag.IntVar(&opt.MinCoverage, "min-coverage", 0, "minimum coverage of a rule (0: 3)")
	flag.IntVar(&opt.MinSites, "min-sites", 0, "sites before a parameter is widened (0: 3, negative: never)")
	flag.Float64Var(&opt.MinPrecision, "min-precision", 0, "minimum estimated precision (0: 0.95, negative: keep all)")
	flag.BoolVar(&opt.NoDeepTokens, "no-deep-tokens", false, "do not split tokens into deep tokens")
	flag.Parse()
	beam.Init() // before anything else: on a distributed runner this binary is also the worker

	if *input == "" || *output == "" {
		fmt.Fprintln(os.Stderr, "beamlearn: -input and -output are required")
		flag.Usage()
		os.Exit(2)
	}
	cfg := beamlearn.Config{SkipBad: *skipBad, Options: opt}
	switch *format {
	case "tsv":
		cfg.Format = beamlearn.TSV
	case "cdx":
		cfg.Format = beamlearn.CDX
	default:
		log.Fatalf("beamlearn: unknown format %q", *format)
	}
	switch *grouping {
	case "host":
		cfg.Grouping = learn.ByHost
	case "domain":
		cfg.Grouping = learn.ByDomain
	default:
		log.Fatalf("beamlearn: unknown grouping %q", *grouping)
	}

	p, s := beam.NewPipelineWithRoot()
	beamlearn.LearnFiles(s, *input, *output, cfg)
	start := time.Now()
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("beamlearn: %v", err)
	}
	log.Printf("beamlearn: wrote %s in %v", *output, time.Since(start).Round(time.Millisecond))
}
