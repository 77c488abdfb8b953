// Command neardup evaluates near-duplicate detection methods on a corpus of
// web pages with ground truth.
//
// Usage:
//
//	neardup eval -corpus DIR [-method LIST] [-text both|main|full] [-learn=false] [-templates off|on] [-extracted FILE] [-json] [-q]
//	neardup index (-pages FILE | -dir DIR) -o INDEX [-t 0.8] [-full]
//	neardup query -index INDEX (-pages FILE | -dir DIR) [-t T]
//
// The corpus directory holds pages.jsonl or pages.jsonl.gz (one JSON object
// per line: {"id", "url", "lang", "html"}), truth_pairs.tsv and traps.tsv
// in the format of the undust neardup corpus. eval extracts every page once
// (full text and main content) and prints, per method and threshold,
// precision, recall and F1 against the near-duplicate label (J >= 0.8 on
// main text), recall of contained pairs, trap false positives, the removal
// rate of eliminators and the time taken. -method takes a comma-separated
// list of families, row names or path.Match patterns ("jaccard",
// "jaccard:0.80", "digest:*", "default"); the default is every method.
// See harness.go for how a method is added. The crawl rows ("crawl:s1"
// to "crawl:s3") measure the page identity of the crawl core itself: every
// page goes through undust.Crawl.After in an order shuffled by the seed,
// and pages with one page id are the pairs (see method_crawl.go). When
// the corpus has
// main_text.jsonl[.gz], eval also prints the extraction quality of every
// text variant against it, per doc set of pages_meta.tsv (see quality.go).
// -learn=false turns off the template blocks learned per host
// (htmltext.Site) in the main-content variant. -templates (off by default) drops the shingle
// features that are template on a host (shingle.Templates; see
// templates.go). -extracted adds a text variant "ext": the texts of FILE,
// JSON lines {"id", "title", "main"} like a corpus's main_text.jsonl (gzip
// allowed), made by another extractor and scored like the main variant (see
// extracted.go).
//
// index reads pages (JSON lines as above, or a directory of .html files
// whose ids are their relative paths), extracts the main content (or the
// full text with -full), and writes their 128-value MinHash signatures and
// an LSH index tuned for the Jaccard threshold -t to INDEX. query reads
// pages the same way and prints, as TSV, each indexed page whose signature
// agrees with the query's in at least a fraction -t of positions (the
// index's threshold by default): query id, match id, match URL, estimate.
//
// Input without a page (an empty JSON-lines file, a directory without .html
// files) is a failure for index and query alike. index writes INDEX through
// a temporary file that it renames once complete.
//
// The exact-digest, mod-m sampled shingle and SimHash batch methods are the
// ones of Ellis Horowitz's lecture notes "Deduplication" (University of
// Southern California, 2011-2022; "the lecture notes" in this command's
// comments).
//
// "neardup -h" lists the commands, "neardup CMD -h" a command's description
// and flags. Exit codes: 0 success (and -h), 1 failure (unreadable, malformed
// or empty input), 2 bad usage (unknown subcommand or flag, an argument that
// is not a flag, missing -corpus).
package main

//go:generate go run gen_testdata.go

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commands describe the subcommands for "neardup CMD -h"; usage lists them too.
var commands = map[string]string{
	"eval":  "evaluate near-duplicate methods on a labelled corpus",
	"index": "build a MinHash+LSH index of pages",
	"query": "find indexed near-duplicates of pages",
}

const usage = `usage: neardup <command> [flags]

commands:
  eval   evaluate near-duplicate methods on a labelled corpus
  index  build a MinHash+LSH index of pages
  query  find indexed near-duplicates of pages

Run "neardup <command> -h" for the flags of a command.
`

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "eval":
		return runEval(args[1:], stdout, stderr)
	case "index":
		return runIndex(args[1:], stdout, stderr)
	case "query":
		return runQuery(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "neardup: unknown command %q\n%s", args[0], usage)
	return 2
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus `directory` (pages.jsonl[.gz], truth_pairs.tsv, traps.tsv)")
	method := fs.String("method", "all", "comma-separated methods: families, row names or patterns; \"default\" for default rows")
	text := fs.String("text", "both", "text variants to evaluate: both, main or full")
	extracted := fs.String("extracted", "", "also evaluate the texts in `FILE` (JSON lines {id,title,main}, gzip allowed) as variant \"ext\"")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	fs.Var(resetTemplates(), "templates", "drop template features learned per host and directory: on, off, or min=N,frac=F,depth=D,scope=host|all")
	learn := fs.Bool("learn", true, "main content drops template blocks learned per host (htmltext.Site)")
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *corpus == "" {
		fmt.Fprintln(stderr, "neardup eval: -corpus is required")
		return 2
	}
	var variants []bool
	switch *text {
	case "both":
		variants = []bool{false, true}
	case "main":
		variants = []bool{true}
	case "full":
		variants = []bool{false}
	default:
		fmt.Fprintf(stderr, "neardup eval: -text %q: want both, main or full\n", *text)
		return 2
	}
	ms, err := selectMethods(*method)
	if err != nil {
		fmt.Fprintf(stderr, "neardup eval: %v\n", err)
		return 2
	}
	c, err := loadCorpusLearn(*corpus, *learn)
	if err != nil {
		fmt.Fprintf(stderr, "neardup eval: %v\n", err)
		return 1
	}
	var ext *Input
	if *extracted != "" {
		if ext, err = c.loadExtracted(*extracted); err != nil {
			fmt.Fprintf(stderr, "neardup eval: %v\n", err)
			return 1
		}
	}
	var progress io.Writer
	if !*quiet {
		progress = stderr
	}
	rows := evaluate(c, ms, variants, progress)
	vs := c.variants(variants)
	if ext != nil {
		rows = append(rows, evaluateExtracted(c, ext, ms, progress)...)
		vs = append(vs, Variant{extText, ext.Docs})
	}
	qrows, err := c.quality(*corpus, vs)
	if err != nil {
		fmt.Fprintf(stderr, "neardup eval: %v\n", err)
		return 1
	}
	if *asJSON {
		err = writeJSON(stdout, c, rows, qrows)
	} else {
		err = writeText(stdout, c, rows)
		if err == nil && qrows != nil {
			err = writeQuality(stdout, qrows)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "neardup eval: %v\n", err)
		return 1
	}
	return 0
}

// parseArgs parses a subcommand's flags and rejects positional arguments. When it returns
// false, the subcommand exits with code: 0 after -h, 2 for bad usage (the message is printed).
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "neardup %s: %s\n\nflags:\n", fs.Name(), commands[fs.Name()])
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neardup %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}
