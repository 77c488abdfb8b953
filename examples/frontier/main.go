// Command frontier runs undust's closed loop end to end on a simulated web site served on
// loopback, and scores itself against the site's truth.
//
//	go run ./examples/frontier [-size 300] [-seed 1] [-max 4000] [-out DIR] [-q] [-ablate LIST]
//
// Pass 1 crawls the site breadth first with urlnorm's static dedup key only, fingerprints every
// page it fetches (a digest and a SimHash of the main text) and groups the URLs into dup
// clusters by content. The learn package turns those clusters into rewrite rules, written to a
// rules file. Pass 2 crawls again with the static key chained with the learned rules before
// enqueueing, and a SimHash index after fetching. Pass 3 is the crawl a crawler makes of a site
// it meets for the first time: one pass that learns as it goes, with package learn's Online
// learner fed each fetched page's content id, its rules applied before enqueueing as they are
// learned (and again when a queued URL comes up for fetching), and their first uses (and a
// sample after) verified by fetching anyway. The site (package simsite) has a finite URL space,
// so a pass ends when its frontier is empty or its budget is spent. The report's headline is the
// fetches each pass spent per distinct page; it also says how many duplicates were avoided
// before fetching and caught after, why passes 2 and 3 fetched pages they had fetched before (a
// check of a rule's use; a URL that pass 3's final rules merge with an earlier URL of its page,
// so that pass 3 learned the rule too late for it; one that only the offline rules merge; one
// that no rules merge), and how many distinct pages passes 2 and 3 lost (it must be 0); the
// picture plots distinct pages discovered against fetches for the three passes.
// Progress goes to stderr unless -q. -ablate turns mechanisms of the learner off (the names of
// package internal/ablate's switches, as urldedup replay -ablate takes them), to measure what
// each buys.
//
// Nothing leaves the machine: the site is an in-process HTTP server on 127.0.0.1 that answers
// for every host name, and the crawler's transport dials only it. The rules file and the picture
// go to -out; without it, to a temporary directory that is removed when the report is printed.
//
// Exit status: 0 on success (and -h), 1 when the run fails, 2 for bad flags or an argument that
// is not a flag.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/undust/undust"
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/svgplot"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/simsite"
)

type config struct {
	size       int
	seed       uint64
	maxFetches int
	out        string
	quiet      bool
}

func main() {
	c, code, ok := parseConfig(os.Args[1:], os.Stderr)
	if !ok {
		os.Exit(code)
	}
	if err := run(c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "frontier:", err)
		os.Exit(1)
	}
}

// parseConfig parses the flags. When it returns false, the command exits with code: 0 after
// -h, which prints what the command does and its flags, 2 for bad flags or an argument that is
// not a flag (the message is printed to stderr).
func parseConfig(args []string, stderr io.Writer) (c config, code int, ok bool) {
	fs := flag.NewFlagSet("frontier", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.size, "size", 300, fmt.Sprintf("distinct pages of the simulated site (%d to %d)", simsite.MinPages, simsite.MaxPages))
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the simulated site")
	fs.IntVar(&c.maxFetches, "max", 4000, "fetch budget of each pass")
	fs.StringVar(&c.out, "out", "", "`directory` to keep the rules file and the picture in (default: a temporary directory, removed at the end)")
	fs.BoolVar(&c.quiet, "q", false, "no progress on stderr")
	fs.Func("ablate", "comma-separated `list` of mechanisms to turn off, to measure them (the names of urldedup replay -ablate that package internal/ablate holds)", ablate.Set)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: frontier [-size 10..100000] [-seed N] [-max N] [-out DIR] [-q] [-ablate LIST]

frontier crawls a simulated site on loopback three times: with the static key only, with the
rules learned from the first crawl's content clusters, and once learning as it goes; it reports
the fetches each crawl needed and the pages it lost.

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, 0, false
		}
		return c, 2, false
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "frontier: unexpected argument %q (flags only; -h lists them)\n", fs.Arg(0))
		return c, 2, false
	case c.size < simsite.MinPages || c.size > simsite.MaxPages:
		fmt.Fprintf(stderr, "frontier: -size %d: want %d to %d\n", c.size, simsite.MinPages, simsite.MaxPages)
		return c, 2, false
	case c.maxFetches < 1:
		fmt.Fprintf(stderr, "frontier: -max %d: want at least 1\n", c.maxFetches)
		return c, 2, false
	}
	return c, 0, true
}

// A report is what a run found: the crawls, what the site's truth says of them, and where the
// rules and the picture went.
type report struct {
	config
	pages          int // distinct pages of the site
	p1, p2, p3     *crawl
	r1, r2, r3     passScore
	online         learn.OnlineStats // of pass 3
	verified       int               // verification fetches of pass 3 (Before answered Verify)
	mismatches     int               // checks that found another page
	compared       int               // checks of pass 3's rules from pages fetched before
	causes2        dupCauses         // of pass 2's fetches of an already-fetched page
	causes3        dupCauses         // of pass 3's
	comparedBad    int               // of them, those of two pages
	clusters       int
	rules          int
	learnTime      time.Duration
	rulesPath, svg string
	temp           bool // rulesPath and svg are in a temporary directory, deleted after the report
	total          time.Duration
}

// lost counts the distinct pages pass 2 lost: it must be 0. See lostIn.
func (r *report) lost() int { return lostIn(r.r1, r.r2, r.p2.finished) }

// lost3 counts the distinct pages pass 3 lost: it must be 0. See lostIn.
func (r *report) lost3() int { return lostIn(r.r1, r.r3, r.p3.finished) }

// lostIn counts the distinct pages a pass lost: when it finished (its frontier emptied), the
// pages of base (pass 1) that it did not fetch and keep; when the budget stopped it, which
// pages it reached depends on its order, so only the pages it fetched and never kept (all their
// fetches judged duplicates).
func lostIn(base, pass passScore, finished bool) int {
	n := 0
	if !finished {
		for id := range pass.pages {
			if !pass.kept[id] {
				n++
			}
		}
		return n
	}
	for id := range base.pages {
		if !pass.kept[id] {
			n++
		}
	}
	return n
}

func run(c config, w io.Writer) error {
	temp := c.out == ""
	if temp {
		dir, err := os.MkdirTemp("", "undust-frontier-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		c.out = dir
	}
	r, err := loop(c)
	if err != nil {
		return err
	}
	r.temp = temp
	r.print(w)
	return nil
}

// loop runs pass 1, learning, pass 2 and pass 3 against a new simulated site, and writes the
// rules and the picture to c.out.
func loop(c config) (*report, error) {
	start := time.Now()
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	s, err := simsite.New(c.size, c.seed)
	if err != nil {
		return nil, err
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := httpClient(srv.Listener.Addr().String())
	seed := simsite.StartURL
	rep := &report{config: c, pages: s.NumPages()}
	pass := func(name string, o undust.Options, followDups bool) (*crawl, error) {
		d, err := undust.New(o)
		if err != nil {
			return nil, err
		}
		p := &crawl{name: name, client: client, dedup: d, followDups: followDups, maxFetches: c.maxFetches,
			progress: newProgress(name, c.maxFetches, c.quiet)}
		return p, p.run(seed)
	}

	// Pass 1: the static key alone; it follows every page, and undust's page identity groups
	// the URLs it fetched into dup clusters.
	if rep.p1, err = pass("pass 1", undust.Options{NoLearning: true}, true); err != nil {
		return nil, err
	}
	if !c.quiet {
		fmt.Fprintf(os.Stderr, "learning rules from the %d fetches of pass 1\n", len(rep.p1.fetches))
	}
	clusters := clusterByContent(rep.p1.fetches)
	rep.clusters = len(clusters)

	t0 := time.Now()
	learned, nrules, err := learnRules(clusters)
	if err != nil {
		return nil, err
	}
	rep.rules, rep.learnTime = nrules, time.Since(t0)
	rep.rulesPath = filepath.Join(c.out, "rules.txt")
	if err := writeRules(rep.rulesPath, learned); err != nil {
		return nil, err
	}

	// Pass 2: the rules learned offline from pass 1, and the page identity after fetching.
	if rep.p2, err = pass("pass 2", undust.Options{Rules: learned}, false); err != nil {
		return nil, err
	}
	// Pass 3: a site met for the first time, learning as it goes.
	if rep.p3, err = pass("pass 3", undust.Options{}, false); err != nil {
		return nil, err
	}
	st := rep.p3.dedup.Stats()
	rep.online, rep.mismatches = st.Learner, int(st.Mismatches)
	for _, f := range rep.p3.fetches {
		if f.verify {
			rep.verified++
		}
	}
	rep.compared, rep.comparedBad = int(st.Compared), int(st.CompareMismatches)

	rep.r1, rep.r2, rep.r3 = score(s, rep.p1), score(s, rep.p2), score(s, rep.p3)
	offline, err := undust.New(undust.Options{Rules: learned})
	if err != nil {
		return nil, err
	}
	rep.causes2 = causesOf(s, rep.p2, rep.p3.dedup, offline)
	rep.causes3 = causesOf(s, rep.p3, rep.p3.dedup, offline)
	rep.svg = filepath.Join(c.out, "discovery.svg")
	if err := writePlot(rep.svg, rep); err != nil {
		return nil, err
	}
	rep.total = time.Since(start)
	return rep, nil
}

// dupCauses sorts a pass's fetches of an already-fetched page by why the pass made them, each
// fetch in the first class that holds it.
type dupCauses struct {
	verify  int // Before answered Verify: a check of a rule's use
	late    int // the rules pass 3 had at its end give it the key of an earlier URL of its page: for pass 3, learned too late
	offline int // the rules learned offline from pass 1 do: for pass 3, not learned online
	neither int // no rule set merges it with an earlier URL of its page
}

// causesOf sorts the fetches of a pass (c) of a page it had fetched before by cause (see
// dupCauses): online keys URLs by the rules pass 3 ended with, offline by the rules learned
// from pass 1.
func causesOf(s *simsite.Site, c *crawl, online, offline *undust.Crawl) dupCauses {
	var n dupCauses
	type keys struct{ online, offline map[string]bool }
	seen := map[simsite.Page]keys{}
	for _, f := range c.fetches {
		if f.status != 200 {
			continue
		}
		id, _ := s.Page(f.url)
		on, _ := online.Key(f.url)
		off, _ := offline.Key(f.url)
		k, ok := seen[id]
		switch {
		case !ok:
			k = keys{map[string]bool{}, map[string]bool{}}
			seen[id] = k
		case f.verify:
			n.verify++
		case k.online[on]:
			n.late++
		case k.offline[off]:
			n.offline++
		default:
			n.neither++
		}
		k.online[on], k.offline[off] = true, true
	}
	return n
}

// A passScore is what the site's truth says of one pass.
type passScore struct {
	fetches  int
	ok       int                   // fetches answered 200
	pages    map[simsite.Page]bool // distinct pages fetched
	kept     map[simsite.Page]bool // distinct pages fetched and not judged duplicate
	curve    []int                 // distinct pages discovered after each fetch
	dupFetch int                   // fetches of a page fetched before
}

func score(s *simsite.Site, c *crawl) passScore {
	r := passScore{fetches: len(c.fetches), pages: map[simsite.Page]bool{}, kept: map[simsite.Page]bool{}}
	for _, f := range c.fetches {
		if f.status == 200 {
			r.ok++
			id, _ := s.Page(f.url)
			if r.pages[id] {
				r.dupFetch++
			}
			r.pages[id] = true
			if !f.dup {
				r.kept[id] = true
			}
		}
		r.curve = append(r.curve, len(r.pages))
	}
	return r
}

func writePlot(path string, r *report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	curve := func(ys []int) []svgplot.Point {
		pts := make([]svgplot.Point, len(ys)+1)
		for i, y := range ys {
			pts[i+1] = svgplot.Point{X: float64(i + 1), Y: float64(y)}
		}
		return pts
	}
	c := svgplot.Chart{
		Title:    fmt.Sprintf("Distinct pages discovered per fetch (site of %d pages, seed %d)", r.pages, r.seed),
		XLabel:   "pages fetched",
		YLabel:   "distinct pages discovered",
		Diagonal: true,
		Series: []svgplot.Series{
			{Name: "pass 1: static key", Points: curve(r.r1.curve)},
			{Name: "pass 2: static + learned", Points: curve(r.r2.curve)},
			{Name: "pass 3: online, learning as it goes", Points: curve(r.r3.curve)},
		},
	}
	err = c.WriteSVG(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (r *report) print(w io.Writer) {
	fmt.Fprintf(w, "undust frontier: simulated site of %d distinct pages (seed %d), fetch budget %d a pass\n\n",
		r.pages, r.seed, r.maxFetches)
	fmt.Fprintf(w, "%-38s %10s %10s %10s\n", "", "pass 1", "pass 2", "pass 3")
	fmt.Fprintf(w, "%-38s %10s %10s %10s\n", "", "static", "+learned", "online")
	row := func(name string, a, b, c any) { fmt.Fprintf(w, "%-38s %10v %10v %10v\n", name, a, b, c) }
	row("fetches per distinct page", ratio(r.r1.fetches, len(r.r1.pages)), ratio(r.r2.fetches, len(r.r2.pages)), ratio(r.r3.fetches, len(r.r3.pages)))
	row("pages fetched", r.r1.fetches, r.r2.fetches, r.r3.fetches)
	row("distinct pages discovered", len(r.r1.pages), len(r.r2.pages), len(r.r3.pages))
	row("crawl finished (frontier empty)", yesNo(r.p1.finished), yesNo(r.p2.finished), yesNo(r.p3.finished))
	row("fetches of an already-fetched page", r.r1.dupFetch, r.r2.dupFetch, r.r3.dupFetch)
	row("duplicate links skipped before fetch", r.p1.avoided, r.p2.avoided, r.p3.avoided)
	row("duplicates caught after fetching", countDup(r.p1), countDup(r.p2), countDup(r.p3))
	row("verification fetches", "-", "-", r.verified)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-50s %10s %10s %10s\n", "fetches of an already-fetched page, by cause", "pass 2", "pass 3", "extra")
	cause := func(name string, a, b int) { fmt.Fprintf(w, "%-50s %10d %10d %+10d\n", "  "+name, a, b, b-a) }
	c2, c3 := r.causes2, r.causes3
	cause("checks a rule's use (verification)", c2.verify, c3.verify)
	cause("pass 3's final rules merge it (for 3: late)", c2.late, c3.late)
	cause("only the offline rules merge it", c2.offline, c3.offline)
	cause("no rules merge it", c2.neither, c3.neither)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "dup clusters from pass 1:   %d\n", r.clusters)
	fmt.Fprintf(w, "rules learned:              %d in %v\n", r.rules, r.learnTime.Round(time.Millisecond))
	fmt.Fprintf(w, "pass 2 against pass 1:      %s fetches per distinct page%s\n", fewer(r.r1, r.r2), finishNote(r.p1, r.p2))
	fmt.Fprintf(w, "distinct pages lost:        %d (%s; must be 0)\n", r.lost(), lostWhat(2, r.p2.finished))
	fmt.Fprintf(w, "pass 3, learning as it goes: %d rules at the end (%d relearns, %v), %d verification fetches, %d mismatches, %d checks without a fetch, %d mismatches, %d rules retracted\n",
		r.online.Rules, r.online.Relearns, r.p3.learnTime.Round(time.Millisecond), r.verified, r.mismatches, r.compared, r.comparedBad, r.online.Retracted)
	fmt.Fprintf(w, "pass 3 against pass 1:      %s fetches per distinct page%s\n", fewer(r.r1, r.r3), finishNote(r.p1, r.p3))
	fmt.Fprintf(w, "pass 3 pages lost:          %d (%s; must be 0)\n", r.lost3(), lostWhat(3, r.p3.finished))
	if r.temp {
		fmt.Fprintln(w, "rules and picture:          not kept (-out DIR keeps rules.txt and discovery.svg)")
	} else {
		fmt.Fprintf(w, "rules:                      %s\n", r.rulesPath)
		fmt.Fprintf(w, "picture:                    %s\n", r.svg)
	}
	fmt.Fprintf(w, "time:                       %v\n", r.total.Round(time.Millisecond))
}

// fewer compares the fetches per distinct page of a pass with pass 1's: "2.02 against 6.86,
// 3.40x fewer".
func fewer(base, pass passScore) string {
	if len(base.pages) == 0 || len(pass.pages) == 0 || pass.fetches == 0 {
		return "-"
	}
	b := float64(base.fetches) / float64(len(base.pages))
	p := float64(pass.fetches) / float64(len(pass.pages))
	return fmt.Sprintf("%.2f against %.2f, %.2fx fewer", p, b, b/p)
}

// finishNote warns when a comparison of fetches per distinct page is between crawls of which
// one was cut off by the budget.
func finishNote(base, pass *crawl) string {
	if base.finished && pass.finished {
		return ""
	}
	return " (a pass stopped at the budget: raise -max to compare whole crawls)"
}

func lostWhat(pass int, finished bool) string {
	if finished {
		return fmt.Sprintf("pages of pass 1 that pass %d did not fetch and keep", pass)
	}
	return fmt.Sprintf("pages pass %d fetched and judged duplicates only", pass)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func countDup(c *crawl) int {
	n := 0
	for _, f := range c.fetches {
		if f.dup {
			n++
		}
	}
	return n
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
