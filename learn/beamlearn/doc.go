// Package beamlearn runs the rule learning of package learn as an Apache Beam pipeline, for crawl
// logs that outgrow one machine: the MapReduce stages of Koppula, Leela, Agarwal, Chitrapura,
// Garg and Sasturkar, "Learning URL patterns for webpage de-duplication" (WSDM 2010) §4 (deep
// tokenization, pairwise rules, generalization, all keyed by host, on 100-200 Hadoop nodes),
// on whichever engine runs Beam: the embedded Prism runner, Flink, Spark or Google Cloud
// Dataflow. It is a module of its own, so that users of the core library never download Beam.
//
// The pipeline is glue around package learn, which owns every algorithm:
//
//	ReadLines              the lines of a dup-cluster TSV file or a CDX/CDXJ index (any
//	                       filesystem Beam reads: local, gs://, s3://; gzip by the .gz
//	                       suffix), each file read whole by one worker
//	ParDo key by site      the site of each line, by the core's readers (learn.SiteOf of the
//	                       cluster id, learn.ByID; for a crawl index its host or domain)
//	GroupByKey             one group per site
//	ParDo learn a site     the site's lines read into clusters (learn.ReadClusters or
//	                       learn.CaptureClusters) and learned by learn.LearnSite: deep-token
//	                       patterns, target and source selection, pairwise rules,
//	                       generalization, measurement and selection
//	GroupByKey on one key  every learn.SiteResult on one worker (they are small: a site's
//	                       selected rules, patterns and per-parameter evidence)
//	ParDo assemble         learn.Assemble: widening across sites, scopes, the rule set, its file
//	textio.Write           one rules file
//
// The paper's stages I-III (deep tokenization, pairwise rules, generalization) run inside the
// per-site step rather than as separate shuffles: within a site they are the core's functions,
// and a site's URLs fit one worker (the largest site of the project's train.tsv is 8% of its
// lines). A site larger than a worker's memory would need the stages split further; the paper
// keys them by host for the same reason.
//
// # Choices
//
// Order. Beam keeps no order of lines. The learner does not depend on the order of clusters or
// of their URLs (learn sorts each site's clusters by id and their URLs by text; a test in learn
// shuffles them), and each site's lines are also sorted bytewise before they are read, so that a
// URL repeated with other importance or in-link figures resolves the same way on every runner.
// So the pipeline writes the rules file that learn.Learn writes for the same lines, on every
// runner and however the input is split. A test checks this on Prism, byte for byte.
//
// CDX headers. Each line is read on its own, so a CDX index is read in the common 11-field
// layout or as CDXJ; a " CDX ..." header line that lays out other fields does not reach the
// other workers. Convert such an index to CDXJ first.
//
// Bad lines fail the pipeline with the core's *learn.ParseError (its line number is 1: lines
// are read one by one), unless Config.SkipBad is set.
//
// Coders. learn.SiteResult crosses the shuffle with a coder of its own, registered with
// beam.RegisterCoder: encoding/gob of its exported fields. The DoFns, emitters and iterators
// are registered with package register, so no reflection is needed at run time.
//
// # Pages to dup clusters
//
// A crawl log holds pages, not dup clusters. Clusters (command cmd/beampages) makes them on the
// same runners, and RulesFromPages (beampages -rules) goes on into Learn, so a crawl's pages
// become a rules file in one pipeline:
//
//	ReadPages              JSON lines {"url", "html"}, gzip by the .gz suffix; each file is
//	                       read whole by one worker, so shard large crawls into many files
//	ParDo features         PageShingles (the one feature step: htmltext main content, 5-word
//	                       shingles), a 128-value MinHash signature (seed 1), one record per
//	                       LSH band keyed by the band's values (shingle.OptimalBands)
//	GroupByKey             one group per LSH bucket
//	ParDo verify           pairs whose signatures agree in >= Threshold of their values, each
//	                       pair in the first band the two share only
//	large/small star       Rounds rounds of connected components (Kiveris et al., SoCC 2014),
//	                       each step a GroupByKey by node holding one node's neighbours
//	GroupByKey by node     the root of each page's component, checked for convergence, and
//	                       the line ClusterID(page, root, grouping) TAB url
//
// The pairs are those of the in-process MinHash method of the library's near-dup evaluation (an
// LSH index of the same signatures and shingle.Estimate at the same threshold), and the clusters
// those of an in-process union-find over them; a test checks this on Prism.
//
// Hot buckets. A band value shared by a large template cluster makes a bucket of n pages and
// n(n-1)/2 candidate pairs. A bucket of more than PageConfig.MaxBucket pages (default 1000) is
// sorted by URL and each page is compared with the next MaxBucket pages only, so its work is
// n*MaxBucket; its pages still come to one worker (memory O(n)). In a true duplicate cluster the
// window chains the pages together, and other bands find the pairs it skips, but pairs it skips
// in their first shared band are lost: on the library's 4,042-page near-dup corpus a cap of 1
// (every bucket of two or more pages capped) split 4 of 3,217 clusters and lowered the recall of
// the clusters' pairs from 0.931 to 0.924.
//
// # Runners
//
// The commands cmd/beamlearn and cmd/beampages run the pipelines; beamx picks the runner from --runner:
//
//   - prism (the default): embedded, nothing to set up; a test runner that runs on one
//     machine with its workers in the process.
//   - universal, for Flink or Spark: start the runner's Beam job server (Flink:
//     apache/beam_flink1.x_job_server, Spark: apache/beam_spark3_job_server) and pass
//     --endpoint=HOST:8099; workers run the Go SDK container (--environment_type=DOCKER, the
//     default, needs Docker on every task manager) or an external worker pool
//     (--environment_type=EXTERNAL --environment_config=HOST:PORT). Input and output must be on
//     a filesystem every worker reads (gs://, s3://, or a shared mount).
//   - dataflow: --project, --region, --staging_location=gs://..., and Google Cloud credentials
//     (gcloud auth application-default login); the command cross-compiles itself as the worker
//     binary for linux/amd64.
package beamlearn
