// Command sitebench measures what undust saves a crawler on a site you point it at.
//
// Usage:
//
//	sitebench run -seed URL -truth SELECTOR|undust [-ignore SELECTOR] [-crawler LIST] [-budget 3000] [-concurrency 4] [-scope PREFIX] [-articles FILE] [-faults P [-fault-seed S]] [-timeout 10s] [-off LIST] [-out DIR] [-json] [-q]
//	sitebench truth -truth SELECTOR|undust [-ignore SELECTOR] [-twice] < urls
//	sitebench dups -log FILE [-top 25]
//	sitebench clusters -log FILE [-prefix page]
//	sitebench validators -log FILE [-pairs 300] [-concurrency 4] [-timeout 10s]
//
// run crawls the site breadth first from the seed URL, once with each crawler of -crawler
// (default all, in this order): colly (plain colly v2, asynchronous, following every a[href]
// in scope), colly+undust (the same with undust's colly adapter attached), katana (katana's
// standard engine with its default unique filter), katana-fsu (with FilterSimilar, katana's
// -fsu) and katana+undust (undust's katana filter). Each crawl may fetch -budget URLs with
// -concurrency requests at a time; the scope is the seed's scheme, host and port, or the URL
// prefix -scope. Every crawler fetches through one forward HTTP proxy that the command runs on
// loopback: it records each request and response, refuses URLs out of scope, ends the crawl
// when the budget is spent, and with -faults P fails a share P of the responses on purpose (a
// 503, a response that never comes, or a body cut short, in equal shares; which ones is
// decided by the URL, how often it was fetched before and -fault-seed, so a crawl meets the
// same faults for the same fetches; the requests before the crawl's first complete page, the
// seed's and its redirects', never fail, so that no crawl ends at its first fetch).
//
// Pages are scored by a truth that does not use undust: the digest of the normalized text of
// the elements that the CSS selector -truth matches (the site's main-content element; a page
// without one is scored by its whole text and counted under nomatch), or with -truth undust,
// of the main content that undust's htmltext finds. The text is what a reader sees: scripts and
// styles are left out, and so are the elements that the selector -ignore matches. Choose
// selectors that leave out text that changes between two fetches of one page, such as a
// captcha or a relative age (sitebench truth -twice finds it). Per crawler, the
// table gives the fetches, those answered with status 200 (complete), the distinct pages
// (distinct truths among them), the fetches of an already-fetched page (a 200 whose truth an
// earlier 200 of the same crawl had), the articles reached (-articles FILE lists article URLs,
// one per line; each is fetched once directly, not counted, for its truth; an article is
// reached when some 200 of the crawl has its truth) and lost (reached by the plain crawler of
// the same family, colly or katana, and not by this one), the distinct pages the family's
// plain crawler reached and this one did not (a page whose URL this one fetched complete too is
// reached, whatever text the URL served then), the rules undust learned and the time; with
// -faults, the distinct pages whose first fetch failed on purpose, those of them that a later
// fetch got complete (undust gives the URLs it skipped as duplicates of a failed fetch back to
// the crawler) and those got through a URL whose fetch had not failed. Progress
// goes to standard error (-q: not). -json prints the rows as JSON instead of the table. -out
// DIR writes rows.json, distinct.svg (distinct pages against fetches, every crawler),
// fetches-CRAWLER.tsv (each fetch: order, milliseconds, status, fault, truth, URL, Location) and,
// for a crawler with undust, learned-CRAWLER.txt (undust's counters, the rules its verification
// retracted and the rules it learned, as the rules file writes them).
// -off LIST turns mechanisms of undust off in the crawlers with undust (content, templates,
// declared, learning, splits, signatures, roles, deeptokens: the options of undust.Options and
// learn.Options that carry those names; prefix, absent, young, urlids, rekeyout, compare, recheck,
// origin, treeprior, hubs, take, alternatives, series, inferredrecheck, copies, reservoir, head,
// originmap, firstletters, riskycontexts, kepttargets, checkwait, querycontexts, queryhead,
// readbranches, restedon, queryrested, tokenparams, navparams, rounds, onesided, treefamily,
// abbrevdue, freshdue, checked, viewwords, versionswap: switches of the whole process, for hash abbreviations, rules split on a
// key's absence, pages identified again while their template learns, paragraphs that are an id of
// the page's own URL left out of its identity, keys made again without a rule retracted in their
// context, checks of new rules made by comparing two pages fetched before, checks asked again when
// their URL comes up, targets on the site's main origin, more checks for rules that map one
// directory tree onto another, checks of matches to a site's error page that count for no rule, the
// key taken by a URL about to be sent from a URL still queued, the lookup of a URL under the keys
// its rules give it without each rule that made its key, checks of a literal rewritten to the path
// of pages fetched with a query, the key given back by a URL skipped under an alternative key when
// the rules no longer make it a duplicate of its page, the deletion of a parameter that repeats
// another part of its URL, the URLs of a page whose list is full that pair with a kept one in one
// key, the cut of a slug after a record's id, the training URLs of the main origin's aliases moved
// to it, trees whose case variants differ in first letters only kept case-sensitive, the first 3
// uses of a rule of a risky shape checked in each context, the targets that a site's rules already
// give a cluster's URLs, the duplicates skipped while a check of their page is under way given back
// when it fails, the first use of a rule on URLs with a parameter its training URLs lacked checked,
// the head of a query value learned for words, no branch on the value of a parameter that a rule
// copies, the skipped URLs kept as evidence at a retraction of another rule, and those of rules
// that rewrite the path dropped all the same, the query parameters whose values name no page
// deleted from the training URLs, and those of few values among them that vary on the URLs of pages
// of several types, the origin map, case lowering and token parameters run again on the URLs they
// rewrote, the rules that rewrote one of two URLs only informed by a check that no single rule
// decides, a failure of a tree swap counted against the site's other swaps at that segment, a
// relearn when a page is fetched under two abbreviations of one hash, a relearn when the duplicates
// fetched since the last one reach 8 and one per 64 URLs of the site, the URLs fetched by a check
// that found their page never fetched again, a word that is a whole segment under
// many records (a print view) as a verification context, the rules that map the pages
// of one commit named in the query onto another's, or delete the commit whatever its value, checked
// as tree swaps), to measure what each buys.
//
// truth prints the truth of each URL read from standard input: url, digest, "nomatch" when the
// selector matched nothing, and the start of the text. -twice fetches each URL twice and exits
// 1 if a truth changed: the selector holds text that changes between fetches.
//
// dups reads a fetches-CRAWLER.tsv file and groups the fetches of an already-fetched page by
// the pattern of their URL (digits, hexadecimal ids and values of many kinds generalized, the
// query's parameter names kept), beside the pattern of the URL that first fetched the page.
//
// validators measures whether the validators a server sends could stand in for the fetch with
// which undust checks a rule's use: it fetches again, with GET and with HEAD, pairs of URLs of
// one page and pairs of URLs of two pages of one pattern from a fetch log, and prints per
// signal (ETag, Last-Modified, Content-Length, all three) the share of responses that carry it
// and the share of each kind of pair whose kept URL's GET and second URL's HEAD agree on it.
//
// "sitebench -h" lists the commands, "sitebench CMD -h" a command's flags. Exit codes: 0
// success (and -h), 1 failure, 2 bad usage (an unknown command or flag, an argument that is
// not a flag, a missing or malformed flag value).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stdin))
}

// stderr receives messages and progress; tests replace it.
var stderr io.Writer = os.Stderr

var commands = []struct{ name, what string }{
	{"run", "crawl a site with each crawler, with and without undust, and score the crawls"},
	{"truth", "print the truth of each URL read from standard input"},
	{"dups", "group the fetches of already-fetched pages in a fetch log by URL pattern"},
	{"clusters", "write the pages of a fetch log as a dup-cluster file, for urldedup replay"},
	{"validators", "measure whether ETag, Last-Modified or Content-Length could stand in for a check's fetch"},
}

func usageText() string {
	var b strings.Builder
	b.WriteString("usage: sitebench <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-11s%s\n", c.name, c.what)
	}
	b.WriteString("\nRun \"sitebench <command> -h\" for the flags of a command.\n")
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
	case "run":
		err = cmdRun(args[1:], stdout)
	case "truth":
		err = cmdTruth(args[1:], stdin, stdout)
	case "dups":
		err = cmdDups(args[1:], stdout)
	case "clusters":
		err = cmdClusters(args[1:], stdout)
	case "validators":
		err = cmdValidators(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usageText())
		return 0
	default:
		fmt.Fprintf(stderr, "sitebench: unknown command %q\n%s", args[0], usageText())
		return 2
	}
	switch {
	case errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "sitebench %s: %v\n", args[0], err)
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
				fmt.Fprintf(fs.Output(), "sitebench %s: %s\n\nflags:\n", c.name, c.what)
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
		fmt.Fprintf(stderr, "sitebench %s: unexpected argument %q (flags only; -h lists them)\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}

// usagef reports a bad flag value and returns errUsage.
func usagef(cmd, format string, a ...any) error {
	fmt.Fprintf(stderr, "sitebench %s: %s\n", cmd, fmt.Sprintf(format, a...))
	return errUsage
}
