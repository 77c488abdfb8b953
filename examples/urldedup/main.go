// Command urldedup learns URL rewrite rules from dup clusters, applies them, and evaluates them
// by the protocol of Koppula et al. (WSDM 2010) §5.
//
// Usage:
//
//	urldedup learn (-clusters FILE | -cdx FILE) [-sites host|domain|id] [-skip-bad] [-min-precision P] [-min-coverage N] [-o RULES]
//	urldedup apply -rules RULES < urls > keys
//	urldedup eval -data DIR [-seed S] [-plot DIR] [-learner koppula|align|both] [-sites host|domain|id] [-q]
//	urldedup stats (-clusters FILE | -cdx FILE) [-sites host|domain|id]
//	urldedup replay -clusters FILE [-shuffle SEED] [-static [-aggressive]] [-o FILE] [-ablate LIST]
//	urldedup gen -out DIR [-seed N] [-family LIST] [-sites N] [-scale F]
//	urldedup families -clusters FILE [-orders N] [-learner koppula|align|both] [-only LIST | -exclude LIST] [-explain N] [-ablate LIST]
//
// learn reads dup clusters (the TSV format cluster<TAB>url[<TAB>importance[<TAB>inlinks]]
// described at learn.ReadClusters, or a CDX/CDXJ crawl index grouped by payload digest), groups
// them into sites (-sites: by default the URLs' hosts, joined by the clusters they share; domain
// for registrable domains; id for the cluster id up to its last "-", as in h0042-p000123; -domain
// is -sites domain), learns rules with package learn and writes
// the rule set in package rules' file format (-o, standard output by default), each rule with
// its training coverage and precision. apply loads that file with rules.Load, reads URLs, one
// per line, and prints the dedup key of each: urlnorm's Crawler key rewritten by the rules.
// eval runs the 50/50 protocol on DIR/train.tsv and DIR/dev.tsv and the cross-site transfer
// from train to dev, and prints Markdown tables; with -plot it also draws, per data set, the
// precision-reduction trade-off on the held-out half (NAME-tradeoff.svg) and the rule coverage
// distribution, the paper's Figure 3 (NAME-coverage.svg); its stages are reported on standard
// error (-q: not). stats prints a data set's sites, hosts,
// clusters, cluster sizes, maximum possible reduction and what urlnorm's static keys reach.
//
// replay replays a dup-cluster file as a crawl that meets every site for the first time: URLs
// are met in file order (-shuffle SEED for another order), and each is fetched or skipped by the
// frontier's key, urlnorm's Crawler key and the rules that package learn's Online learner has
// learned so far from the pages fetched (a fetched URL reveals its cluster id as its content).
// Rules are verified at crawl time: their first uses and a sample after that are fetched anyway,
// and a mismatch retracts them. -static replays with the static Crawler key alone (-aggressive:
// the Aggressive key), the baseline. -o writes url<TAB>fetch|skip<TAB>key per URL in the order
// met; the summary gives fetches, the share of avoidable fetches (URLs - pages) saved, the pages
// lost (none of whose URLs was fetched), the verification fetches and the time taken. -ablate
// (replay and families) turns mechanisms off to measure what each buys: signatures, splits,
// roles, support, keypairs, mirrors, absent, absentsupport, prefix and casetrees of the learners
// (learn.Options, align.Options, internal/ablate), bound, shape, treeprior, hubs, decisive, kept,
// edits and casecontexts of the online learner's verification.
//
// gen writes a seeded dup-cluster file of site families (versioned documentation, web
// archives, social networks, forums, shops, URL sessions, wikis, CMSs, tracking tokens, print
// and mobile views, case-insensitive paths, mirrors; see internal/sitefamily), each family with
// its own duplicates, traps (distinct pages that look like duplicates) and label noise:
// DIR/clusters.tsv, DIR/traps.tsv (family, kind, the naive rule that would merge them, the two
// URLs), DIR/noise.txt (the ids of the clusters that group different pages) and a summary per
// family on standard output. The same flags write the same bytes.
//
// families evaluates per family a file whose cluster ids start with the family (FAMILY-...,
// as gen writes them): it replays the file with online learning in -orders orders (file
// order, then -shuffle 1, 2, ...: the same orders replay -shuffle gives) and prints per family
// the worst order and the spread of the pages lost, the avoidable fetches saved (verification
// fetches counted as fetches) and the verification fetches; then it learns offline on one half
// of each site's clusters with each learner, writes and loads the rules file, and prints per
// family the reduction (of the maximum), the pair precision and the false pairs on the other
// half. -only and -exclude keep or leave out families: tune a default with -exclude F and
// report F with -only F, so that no default is tuned on the family it is reported on.
// -explain N lists per family the N rules with the most false pairs offline (charged to the
// rules that rewrote one URL of the pair and not the other) and N URLs of pages lost in the
// worst order, with the URL each was taken for.
//
// -learner picks the learner: koppula (the default: decision-tree generalization, Koppula et
// al.) or align (multiple URL alignment, DUSTER). eval -learner align or both prints, instead of
// the paper's tables, the learners side by side with the static keys on the held-out halves.
//
// learn -o writes the rule file through a temporary file that it renames once complete. apply
// refuses a rule file that is malformed, cut short (version 2 files end with a checked line) or
// holds more than rules.DefaultMaxRules rules, and stops at an input line over 1 MiB.
//
// A malformed input line stops learn, stats and eval with the file's name, the line number and
// the field (learn -skip-bad skips such lines and counts them). learn and stats warn when every
// cluster is a site of its own: nothing can be learned then.
//
// "urldedup -h" lists the commands, "urldedup CMD -h" a command's flags. Exit codes: 0 success
// (and -h), 1 failure (unreadable or malformed input), 2 bad usage (an unknown command or flag,
// an argument that is not a flag).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/undust/undust/internal/atomicfile"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stdin))
}

// stderr receives messages, warnings and progress; tests replace it.
var stderr io.Writer = os.Stderr

// commands are the subcommands with what each does, as -h shows them.
var commands = []struct{ name, what string }{
	{"learn", "learn URL rewrite rules from dup clusters (a TSV file or a CDX/CDXJ index)"},
	{"apply", "print the dedup key of each URL read from standard input under a rules file"},
	{"eval", "evaluate the learned rules on the held-out halves of DIR/train.tsv and DIR/dev.tsv"},
	{"stats", "describe a data set: sites, hosts, clusters, maximum reduction, static keys"},
	{"replay", "replay a dup-cluster file as a crawl that learns its rules online"},
	{"gen", "generate a dup-cluster file of site families, with their traps"},
	{"families", "replay and evaluate offline per site family, in several orders"},
}

func usageText() string {
	var b strings.Builder
	b.WriteString("usage: urldedup <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s%s\n", c.name, c.what)
	}
	b.WriteString("\nRun \"urldedup <command> -h\" for the flags of a command.\n")
	return b.String()
}

// run is main without the process: it returns the exit code.
func run(args []string, stdout io.Writer, stdin io.Reader) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return 2
	}
	var err error
	switch args[0] {
	case "learn":
		err = cmdLearn(args[1:], stdout)
	case "apply":
		err = cmdApply(args[1:], stdin, stdout)
	case "eval":
		err = cmdEval(args[1:], stdout)
	case "stats":
		err = cmdStats(args[1:], stdout)
	case "replay":
		err = cmdReplay(args[1:], stdout)
	case "gen":
		err = cmdGen(args[1:], stdout)
	case "families":
		err = cmdFamilies(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usageText())
		return 0
	default:
		fmt.Fprintf(stderr, "urldedup: unknown command %q\n%s", args[0], usageText())
		return 2
	}
	switch {
	case errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "urldedup %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

var (
	errUsage = errors.New("usage")
	errHelp  = errors.New("help shown")
)

// parseFlags parses a subcommand's flags; -h prints the command's description and flags
// (errHelp), and a positional argument is a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		for _, c := range commands {
			if c.name == fs.Name() {
				fmt.Fprintf(fs.Output(), "urldedup %s: %s\n\nflags:\n", c.name, c.what)
			}
		}
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "urldedup %s: unexpected argument %q (flags only; -h lists them)\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}

// sitesFlag adds the -sites flag: how a dup-cluster file's clusters are grouped into sites.
func sitesFlag(fs *flag.FlagSet) *learn.Grouping {
	g := new(learn.Grouping)
	fs.Func("sites", "`host|domain|id`: how clusters are grouped into sites: host (the URLs' hosts, joined by the clusters they share; the default), domain (registrable domains, joined likewise) or id (the cluster id up to its last \"-\", as in h0042-p000123)", func(s string) error {
		v, err := learn.ParseGrouping(s)
		*g = v
		return err
	})
	return g
}

// warnSites warns when every cluster is a site of its own: the learner generalizes over
// several clusters of a site, so such a grouping learns nothing.
func warnSites(cls []learn.Cluster, g learn.Grouping) {
	sites := map[string]bool{}
	for _, c := range cls {
		sites[c.Site] = true
	}
	if len(cls) > 1 && len(sites) == len(cls) {
		fmt.Fprintf(stderr, "urldedup: warning: each of the %d clusters is a site of its own (-sites %v): rules are learned from several clusters of a site, so none can be learned\n", len(cls), g)
	}
}

func cmdLearn(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("learn", flag.ContinueOnError)
	clusters := fs.String("clusters", "", "dup-cluster TSV `file`: cluster<TAB>url[<TAB>importance[<TAB>inlinks]] per line")
	cdx := fs.String("cdx", "", "CDX or CDXJ crawl index `file`, grouped into clusters by payload digest")
	sites := sitesFlag(fs)
	domain := fs.Bool("domain", false, "the same as -sites domain")
	skipBad := fs.Bool("skip-bad", false, "skip malformed lines (counted on standard error) instead of stopping at the first")
	minPrec := fs.Float64("min-precision", 0.95, "minimum estimated precision of a rule")
	minCov := fs.Int("min-coverage", 3, "minimum training coverage of a rule")
	out := fs.String("o", "", "rules `file` to write (default standard output)")
	which := fs.String("learner", "koppula", "koppula (decision trees, WSDM 2010) or align (multiple URL alignment, DUSTER)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*clusters == "") == (*cdx == "") {
		fmt.Fprintln(stderr, "urldedup learn: give one of -clusters or -cdx")
		return errUsage
	}
	if *domain {
		*sites = learn.ByDomain
	}
	l, err := learnerNamed(*which, learn.Options{MinPrecision: *minPrec, MinCoverage: *minCov})
	if err != nil {
		return err
	}
	cls, err := readClusters(*clusters, *cdx, *sites, *skipBad)
	if err != nil {
		return err
	}
	warnSites(cls, *sites)
	set, st, err := l.Learn(cls)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "urldedup: %d sites, %d URLs, %d pairwise rules (%d signature targets), %d generalized (%d by splitting), %d selected (%d not expressible, %d dropped for cycles), %d rules written\n",
		st.Sites, st.URLs, st.Pairs, st.Signatures, st.Rules, st.Splits, st.Selected, st.Unexpressed, st.Cycles, set.Len())
	if *out == "" {
		_, err = set.WriteTo(stdout)
		return err
	}
	return writeFile(*out, set)
}

// writeFile writes the set to the file name (package atomicfile: a failed write, a full disk,
// leaves neither a cut rule file nor a destroyed earlier one; a cut earlier version 1 file
// would load).
func writeFile(name string, set io.WriterTo) error {
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := set.WriteTo(w)
		return err
	})
}

// readClusters reads the dup clusters of a TSV file (tsv) or a crawl index (cdx), grouped into
// sites by g. With skipBad, malformed lines are skipped and counted on stderr. A malformed line
// is reported with the file's name, the line and the field.
func readClusters(tsv, cdx string, g learn.Grouping, skipBad bool) ([]learn.Cluster, error) {
	name := tsv
	if name == "" {
		name = cdx
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opt := learn.ReaderOptions{SkipBad: skipBad, Sites: g}
	var cls []learn.Cluster
	skipped := 0
	if tsv != "" {
		cls, skipped, err = learn.ReadClusters(bufio.NewReader(f), opt)
	} else {
		r := learn.NewCDXReader(f, opt)
		if g != learn.ByDomain {
			g = learn.ByHost
		}
		cls, err = learn.CaptureClusters(r, g)
		skipped = r.Skipped()
	}
	if err != nil {
		return nil, fileError(name, err)
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "urldedup: %s: %d malformed lines skipped\n", name, skipped)
	}
	return cls, nil
}

// fileError names the file in a parse error: "clusters.tsv:3: importance \"abc\": malformed
// field".
func fileError(name string, err error) error {
	var pe *learn.ParseError
	if errors.As(err, &pe) {
		field := ""
		if pe.Name != "" {
			field = pe.Name + " "
		}
		return fmt.Errorf("%s:%d: %s%q: %w", name, pe.Line, field, pe.Field, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func cmdApply(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	rulesFile := fs.String("rules", "", "rules file written by urldedup learn")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *rulesFile == "" {
		fmt.Fprintln(stderr, "urldedup apply: -rules is required")
		return errUsage
	}
	f, err := os.Open(*rulesFile)
	if err != nil {
		return err
	}
	// The file's key line makes the set key its input and output with urlnorm's Crawler flags.
	set, err := rules.Load(f, nil)
	f.Close()
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), maxURLLine)
	bw := bufio.NewWriter(stdout)
	line := 0
	for sc.Scan() {
		// On a rewrite cycle or at the rewrite bound, Normalize still returns a key (on a cycle,
		// the URL's static key): it is printed with the error reported.
		line++
		key, err := set.Normalize(sc.Text())
		if err != nil {
			fmt.Fprintf(stderr, "urldedup apply: line %d: %q: %v\n", line, sc.Text(), causeOf(err))
			if key == "" {
				key = sc.Text()
			}
		}
		fmt.Fprintln(bw, key)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("apply: line %d: longer than %d bytes", line+1, maxURLLine)
	}
	return sc.Err()
}

// causeOf returns the cause of a key error without the layers that repeat the URL: rules'
// "rules: key URL: urlnorm: key URL: invalid host" is "invalid host".
func causeOf(err error) error {
	var ue *urlnorm.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// maxURLLine bounds a line of apply's input.
const maxURLLine = 1 << 20

func cmdEval(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	dir := fs.String("data", "", "`directory` holding train.tsv and dev.tsv")
	seed := fs.Uint64("seed", 1, "seed of the 50/50 split")
	plotDir := fs.String("plot", "", "`directory` for the trade-off and coverage pictures (none by default)")
	which := fs.String("learner", "koppula", "koppula (the paper's tables), align (side by side with the static keys), or both")
	sites := sitesFlag(fs)
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		fmt.Fprintln(stderr, "urldedup eval: -data is required")
		return errUsage
	}
	if *which != "koppula" && *which != "align" && *which != "both" {
		fmt.Fprintf(stderr, "urldedup eval: -learner %q: want koppula, align or both\n", *which)
		return errUsage
	}
	progress := newProgress("eval", *quiet)
	if *which != "koppula" {
		return sideBySide(stdout, *dir, *seed, *which == "both", *sites, progress)
	}
	sets := map[string][]learn.Cluster{}
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		progress("reading %s", name)
		cls, err := readClusters(filepath.Join(*dir, name), "", *sites, false)
		if err != nil {
			return err
		}
		sets[name] = cls
		progress("%s: learning on one half of %d clusters, measuring on the other", name, len(cls))
		rep, err := learn.Evaluate(cls, *seed, learn.Options{}, baselines())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "## %s\n\nlearned on one half in %v: %+v\n\n### unseen half\n\n", name, rep.LearnTime, rep.Learn)
		learn.WriteTable(stdout, rep.Unseen)
		fmt.Fprintf(stdout, "\n### both halves\n\n")
		learn.WriteTable(stdout, rep.Both)
		fmt.Fprintln(stdout)
		if *plotDir != "" {
			progress("%s: drawing the pictures", name)
			if err := plotEval(*plotDir, name, cls, rep); err != nil {
				return err
			}
		}
	}
	progress("transfer: learning on train.tsv, measuring on dev.tsv")
	static, got, global, err := learn.Transfer(sets["train.tsv"], sets["dev.tsv"], learn.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## transfer: rules learned on train.tsv applied to dev.tsv\n\n%d widened rules:\n\n", len(global))
	for _, r := range global {
		fmt.Fprintf(stdout, "- `%s`\n", r.String())
	}
	fmt.Fprintf(stdout, "\nstatic reduction %.4f (%.3f of max), with widened rules %.4f (%.3f of max), pair precision %.4f, false pairs %d\n",
		static.Reduction, static.OfMax, got.Reduction, got.OfMax, got.PairPrecision, got.FalsePairs)
	return nil
}

// newProgress returns a function that prints a progress line of command cmd on stderr with the
// time since the start, or, when quiet, one that prints nothing.
func newProgress(cmd string, quiet bool) func(format string, args ...any) {
	if quiet {
		return func(string, ...any) {}
	}
	t0 := time.Now()
	return func(format string, args ...any) {
		fmt.Fprintf(stderr, "urldedup %s: %5.1fs %s\n", cmd, time.Since(t0).Seconds(), fmt.Sprintf(format, args...))
	}
}

// plotEval draws the pictures of one data set's evaluation into dir.
func plotEval(dir, name string, cls []learn.Cluster, rep learn.Report) error {
	base := filepath.Join(dir, strings.TrimSuffix(name, ".tsv"))
	if err := writeTradeoff(base+"-tradeoff.svg", "Precision vs reduction, unseen half of "+name, rep.Unseen); err != nil {
		return err
	}
	// Figure 3 plots every generalized rule: learn on the whole set without selection.
	set, _, err := learn.Learn(cls, learn.Options{MinPrecision: -1, MinCoverage: 1})
	if err != nil {
		return err
	}
	var cov []int
	for i := range set.Len() {
		if r := set.Rule(i); r.Scope.Host != rules.AllHosts {
			cov = append(cov, r.Stats.Coverage)
		}
	}
	return writeCoverage(base+"-coverage.svg", "Rule coverage distribution, "+name, cov)
}
