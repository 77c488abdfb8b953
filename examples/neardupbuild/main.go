// Command neardupbuild builds a near-duplicate evaluation corpus, in the
// format that neardup eval reads, from directories of real HTML
// documentation, and checks the ground truth of an existing corpus.
//
// Usage:
//
//	neardupbuild build -config FILE -out DIR [-seed N] [-reprints 0.16] [-edits 0.16] [-q]
//	neardupbuild check -corpus DIR
//
// build reads a tab-separated config with a header line and one doc set
// per line:
//
//	docset  package  version  licence  dir  include  host  content  drop  lang  max
//
// docset names the doc set; package, version and licence are copied into
// the corpus README (write "-" when unknown); dir is the directory of the
// HTML files (relative to the config file's directory unless absolute); include is a comma-separated list of path.Match patterns on
// the file paths relative to dir ("*.html", "library/*.html"), where a
// pattern starting with "!" excludes; host is the made-up host name of the
// doc set's URLs (several doc sets may share one host, as manuals on one
// site do); content selects the element whose text is the page's true
// main text and drop the elements removed from it (comma-separated, "-"
// for none); lang is "en", "zh" or another code and only pairs pages with
// templates (a page's lang in the corpus is set by its content); max caps
// the pages sampled from the doc set (0: all).
//
// Regular files are read; symbolic links (Apache's untranslated pages) are
// not followed. A page in another charset than UTF-8 is converted to UTF-8
// and otherwise kept as shipped.
//
// A selector is a tag, tag.class, tag#id, .class or #id. The first
// element in document order that matches content is the main element; a
// page without one is skipped and counted. For example:
//
//	Sphinx            div.body
//	DocBook           body minus div.navheader, div.navfooter
//	AsciiDoc          body minus div#footer
//	Apache httpd docs div#page-content minus div.toplang, div.bottomlang
//	gtk-doc           body minus table.navigation
//
// build writes to DIR: pages.jsonl.gz, main_text.jsonl.gz, truth_pairs.tsv,
// traps.tsv, pages_meta.tsv, stats.json and README.md. Besides the shipped
// pages it makes reprints (a page's main content in the chrome of a page
// of another doc set of the same language, between portal blocks; some of
// them excerpts), edits (words changed, a paragraph dropped, a sentence
// appended), and traps (short articles of real pages wrapped in one
// heavy template per group). README.md says how. The truth lists every
// pair of pages whose main texts have max(J, containments) >= 0.5 over
// 5-token shingles and share an 8-token shingle, with tokens as in
// package shingle's defaults. The same -seed gives the same corpus.
//
// check recomputes the truth pairs of the corpus in DIR from its
// main_text.jsonl(.gz) and prints how many of truth_pairs.tsv it
// reproduces, with the same values to 4 decimals.
//
// "neardupbuild -h" lists the commands, "neardupbuild CMD -h" a command's
// description and flags. Exit codes: 0 success (and -h), 1 failure, 2 bad
// usage (an unknown command or flag, an argument that is not a flag).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/undust/undust/internal/par"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commands describe the subcommands for "neardupbuild CMD -h"; usage lists them too.
var commands = map[string]string{
	"build": "build a corpus from doc sets listed in a config file",
	"check": "recompute a corpus's truth pairs and compare them with truth_pairs.tsv",
}

const usage = `usage: neardupbuild <command> [flags]

commands:
  build  build a corpus from doc sets listed in a config file
  check  recompute a corpus's truth pairs and compare them with truth_pairs.tsv
`

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return runBuild(args[1:], stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "neardupbuild: unknown command %q\n%s", args[0], usage)
	return 2
}

// parseArgs parses a subcommand's flags and rejects positional arguments.
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "neardupbuild %s: %s\n\nflags:\n", fs.Name(), commands[fs.Name()])
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neardupbuild %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

func runBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "doc set config `file` (TSV)")
	out := fs.String("out", "", "output corpus `directory`")
	seed := fs.Uint64("seed", 1, "random seed")
	reprints := fs.Float64("reprints", 0.16, "reprints per shipped page")
	edits := fs.Float64("edits", 0.16, "edits per shipped page")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *reprints < 0 || *reprints > 4 || *edits < 0 || *edits > 4 {
		fmt.Fprintln(stderr, "neardupbuild build: -reprints and -edits must be in [0, 4]")
		return 2
	}
	if *config == "" || *out == "" {
		fmt.Fprintln(stderr, "neardupbuild build: -config and -out are required")
		return 2
	}
	sets, err := readConfig(*config)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var progress io.Writer = stderr
	if *quiet {
		progress = io.Discard
	}
	c, err := build(sets, *seed, shares{*reprints, *edits}, progress)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := c.write(*out); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\t%d pages\t%d truth pairs\t%d traps\n", *out, len(c.pages), len(c.pairs), len(c.traps))
	return 0
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("corpus", "", "corpus `directory` (main_text.jsonl[.gz], truth_pairs.tsv)")
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *dir == "" {
		fmt.Fprintln(stderr, "neardupbuild check: -corpus is required")
		return 2
	}
	r, err := checkTruth(*dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "listed %d, computed %d, in both %d, same values %d\n", r.Listed, r.Computed, r.Both, r.SameValues)
	for _, k := range r.Missing {
		fmt.Fprintf(stdout, "missing\t%s\n", k)
	}
	for _, k := range r.Extra {
		fmt.Fprintf(stdout, "extra\t%s\n", k)
	}
	if r.Both != r.Listed || r.Computed != r.Listed {
		return 1
	}
	return 0
}

// parallelFor calls f(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallelFor(n int, f func(i int)) { par.For(n, runtime.GOMAXPROCS(0), f) }
