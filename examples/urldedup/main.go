// Command urldedup learns URL rewrite rules from dup clusters, applies them, and evaluates them
// by the protocol of Koppula et al. (WSDM 2010) §5.
//
// Usage:
//
//	urldedup learn (-clusters FILE | -cdx FILE [-domain]) [-min-precision P] [-min-coverage N] [-o RULES]
//	urldedup apply -rules RULES < urls > keys
//	urldedup eval -data DIR [-seed S] [-plot DIR] [-learner koppula|align|both]
//	urldedup stats (-clusters FILE | -cdx FILE [-domain])
//	urldedup replay -clusters FILE [-shuffle SEED] [-static [-aggressive]] [-o FILE]
//
// learn reads dup clusters (the TSV format cluster<TAB>url[<TAB>importance[<TAB>inlinks]], or a
// CDX/CDXJ crawl index grouped by payload digest), learns rules with package learn and writes
// the rule set in package rules' file format (-o, standard output by default), each rule with
// its training coverage and precision. apply loads that file with rules.Load, reads URLs, one
// per line, and prints the dedup key of each: urlnorm's Crawler key rewritten by the rules.
// eval runs the 50/50 protocol on DIR/train.tsv and DIR/dev.tsv and the cross-site transfer
// from train to dev, and prints Markdown tables; with -plot it also draws, per data set, the
// precision-reduction trade-off on the held-out half (NAME-tradeoff.svg) and the rule coverage
// distribution, the paper's Figure 3 (NAME-coverage.svg). stats prints a data set's sites, hosts,
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
// lost (none of whose URLs was fetched), the verification fetches and the time taken.
//
// -learner picks the learner: koppula (the default: decision-tree generalization, Koppula et
// al.) or align (multiple URL alignment, DUSTER). eval -learner align or both prints, instead of
// the paper's tables, the learners side by side with the static keys on the held-out halves.
//
// learn -o writes the rule file through a temporary file that it renames once complete. apply
// refuses a rule file that is malformed, cut short (version 2 files end with a checked line) or
// holds more than rules.DefaultMaxRules rules, and stops at an input line over 1 MiB.
//
// Exit codes: 0 success, 1 failure (unreadable or malformed input), 2 bad usage.
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

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "learn":
		err = cmdLearn(os.Args[2:], os.Stdout)
	case "apply":
		err = cmdApply(os.Args[2:], os.Stdin, os.Stdout)
	case "eval":
		err = cmdEval(os.Args[2:], os.Stdout)
	case "stats":
		err = cmdStats(os.Args[2:], os.Stdout)
	case "replay":
		err = cmdReplay(os.Args[2:], os.Stdout)
	default:
		usage()
	}
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "urldedup:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func usage() {
	fmt.Fprintln(os.Stderr, "usage: urldedup learn|apply|eval|stats|replay [flags]; urldedup CMD -h for flags")
	os.Exit(2)
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	return nil
}

func cmdLearn(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("learn", flag.ContinueOnError)
	clusters := fs.String("clusters", "", "dup-cluster TSV file")
	cdx := fs.String("cdx", "", "CDX or CDXJ crawl index")
	domain := fs.Bool("domain", false, "with -cdx: group by registrable domain instead of host")
	minPrec := fs.Float64("min-precision", 0.95, "minimum estimated precision of a rule")
	minCov := fs.Int("min-coverage", 3, "minimum training coverage of a rule")
	out := fs.String("o", "", "rules file to write (default standard output)")
	which := fs.String("learner", "koppula", "koppula (decision trees, WSDM 2010) or align (multiple URL alignment, DUSTER)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*clusters == "") == (*cdx == "") {
		fmt.Fprintln(os.Stderr, "urldedup learn: give one of -clusters or -cdx")
		return errUsage
	}
	l, err := learnerNamed(*which, learn.Options{MinPrecision: *minPrec, MinCoverage: *minCov})
	if err != nil {
		return err
	}
	cls, err := readClusters(*clusters, *cdx, *domain)
	if err != nil {
		return err
	}
	set, st, err := l.Learn(cls)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "urldedup: %d sites, %d URLs, %d pairwise rules, %d generalized, %d selected (%d not expressible, %d dropped for cycles), %d rules written\n",
		st.Sites, st.URLs, st.Pairs, st.Rules, st.Selected, st.Unexpressed, st.Cycles, set.Len())
	if *out == "" {
		_, err = set.WriteTo(stdout)
		return err
	}
	return writeFile(*out, set)
}

// writeFile writes the set to a temporary file beside name and renames it to name once it is
// written and closed without error: a failed write (a full disk) leaves neither a cut rule file
// nor a destroyed earlier one. (A cut file of version 2 would not load, but a cut earlier
// version 1 file would.)
func writeFile(name string, set io.WriterTo) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriter(f)
	if _, err := set.WriteTo(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

func readClusters(tsv, cdx string, domain bool) ([]learn.Cluster, error) {
	name := tsv
	if name == "" {
		name = cdx
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if tsv != "" {
		cls, _, err := learn.ReadClusters(bufio.NewReader(f), learn.ReaderOptions{})
		return cls, err
	}
	g := learn.ByHost
	if domain {
		g = learn.ByDomain
	}
	return learn.CaptureClusters(learn.NewCDXReader(f, learn.ReaderOptions{}), g)
}

func cmdApply(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	rulesFile := fs.String("rules", "", "rules file written by urldedup learn")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *rulesFile == "" {
		fmt.Fprintln(os.Stderr, "urldedup apply: -rules is required")
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
			fmt.Fprintf(os.Stderr, "urldedup apply: %q: %v\n", sc.Text(), err)
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

// maxURLLine bounds a line of apply's input.
const maxURLLine = 1 << 20

func cmdEval(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	dir := fs.String("data", "", "directory holding train.tsv and dev.tsv")
	seed := fs.Uint64("seed", 1, "seed of the 50/50 split")
	plotDir := fs.String("plot", "", "directory for the trade-off and coverage pictures (none by default)")
	which := fs.String("learner", "koppula", "koppula (the paper's tables), align (side by side with the static keys), or both")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "urldedup eval: -data is required")
		return errUsage
	}
	if *which != "koppula" && *which != "align" && *which != "both" {
		fmt.Fprintf(os.Stderr, "urldedup eval: -learner %q: want koppula, align or both\n", *which)
		return errUsage
	}
	if *which != "koppula" {
		return sideBySide(stdout, *dir, *seed, *which == "both")
	}
	sets := map[string][]learn.Cluster{}
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		cls, err := readClusters(filepath.Join(*dir, name), "", false)
		if err != nil {
			return err
		}
		sets[name] = cls
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
			if err := plotEval(*plotDir, name, cls, rep); err != nil {
				return err
			}
		}
	}
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
