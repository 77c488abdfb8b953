package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/undust/undust/internal/svgplot"
)

// A bench is one run command: the sites' target, the crawlers and how their fetches are scored.
type bench struct {
	target
	crawlers  []string
	budget    int
	faults    float64
	faultSeed uint64
	truth     *truther
	quiet     bool
}

func cmdRun(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	seed := fs.String("seed", "", "the `URL` the crawls start from (required)")
	crawlerList := fs.String("crawler", strings.Join(crawlers, ","), "comma-separated `crawlers` to run, of "+strings.Join(crawlers, ", "))
	budget := fs.Int("budget", 3000, "fetches each crawl may make")
	conc := fs.Int("concurrency", 4, "requests each crawler makes at a time")
	prefix := fs.String("scope", "", "URL `prefix` the crawls stay in (default the seed's scheme, host and port)")
	truthSpec := fs.String("truth", "", "CSS `selector` of the main-content element whose text is a page's truth, or undust for undust's main-content extraction (required)")
	ignore := fs.String("ignore", "", "CSS `selector` of elements inside the -truth elements whose text is left out (text that changes between fetches of one page)")
	articlesFile := fs.String("articles", "", "`file` of article URLs, one a line, to count the articles each crawl reached")
	faults := fs.Float64("faults", 0, "share of responses to fail on purpose (0 to 1)")
	faultSeed := fs.Uint64("fault-seed", 1, "seed of the faults")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout of the crawlers")
	out := fs.String("out", "", "`directory` for rows.json, distinct.svg, the fetch logs and what undust learned in each crawl")
	asJSON := fs.Bool("json", false, "print the rows as JSON instead of the table")
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	off := fs.String("off", "", "comma-separated `mechanisms` of undust to turn off in the crawlers with undust, to measure what each buys: "+offNames())
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	b := bench{budget: *budget, faults: *faults, faultSeed: *faultSeed, quiet: *quiet}
	b.concurrency, b.timeout, b.seed = *conc, *timeout, *seed
	var err error
	switch {
	case *seed == "":
		return usagef("run", "-seed is required")
	case *truthSpec == "":
		return usagef("run", "-truth is required (a CSS selector, or undust)")
	case *budget < 1:
		return usagef("run", "-budget %d: want at least 1", *budget)
	case *conc < 1:
		return usagef("run", "-concurrency %d: want at least 1", *conc)
	case !(*faults >= 0 && *faults <= 1):
		return usagef("run", "-faults %v: want a share from 0 to 1", *faults)
	case *timeout < time.Second:
		return usagef("run", "-timeout %v: want at least 1s", *timeout)
	}
	if b.undust, err = offOptions(*off); err != nil {
		return usagef("run", "%v", err)
	}
	if b.scope, err = newScope(*seed, *prefix); err != nil {
		return usagef("run", "%v", err)
	}
	if b.truth, err = newTruther(*truthSpec, *ignore); err != nil {
		return usagef("run", "%v", err)
	}
	for _, c := range strings.Split(*crawlerList, ",") {
		c = strings.TrimSpace(c)
		if !slices.Contains(crawlers, c) {
			return usagef("run", "-crawler: unknown crawler %q (want some of %s)", c, strings.Join(crawlers, ", "))
		}
		if !slices.Contains(b.crawlers, c) {
			b.crawlers = append(b.crawlers, c)
		}
	}
	var articles map[truth]bool
	var nArticles int
	if *articlesFile != "" {
		if articles, nArticles, err = b.loadArticles(*articlesFile); err != nil {
			return err
		}
	}
	rows, logs, err := b.run(articles)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := writeOutputs(*out, rows, logs, b.budget); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return writeTable(stdout, b, rows, nArticles)
}

// run crawls with each crawler in turn through one proxy and scores the crawls.
func (b *bench) run(articles map[truth]bool) ([]row, []crawl, error) {
	p, err := newProxy()
	if err != nil {
		return nil, nil, err
	}
	defer p.Close()
	b.proxy = p.URL()
	var crawls []crawl
	for _, name := range b.crawlers {
		s := &session{scope: b.scope, budget: b.budget, faults: b.faults, seed: b.faultSeed,
			timeout: b.timeout + 5*time.Second, truth: b.truth}
		p.begin(s)
		stopProgress := b.progress(name, s)
		start := time.Now()
		learnt, err := runCrawler(name, b.target, s.exhausted)
		elapsed := time.Since(start)
		stopProgress()
		p.end()
		s.wait()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		c := crawl{crawler: name, rules: learnt.rules, learned: learnt.text, key: learnt.key, elapsed: elapsed}
		c.fetches, c.refused, c.outScope, c.errors = s.record()
		crawls = append(crawls, c)
		if !b.quiet {
			fmt.Fprintf(stderr, "sitebench: %s: %d fetches in %v\n", name, len(c.fetches), elapsed.Round(time.Millisecond))
		}
	}
	return score(crawls, articles), crawls, nil
}

// progress prints a line on stderr every 5 seconds while a crawl runs; the function it returns
// stops it.
func (b *bench) progress(name string, s *session) (stop func()) {
	if b.quiet {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			fs, _, _, _ := s.record()
			r := score([]crawl{{crawler: name, fetches: fs}}, nil)[0]
			fmt.Fprintf(stderr, "sitebench: %s: %d fetches, %d ok, %d distinct, %d already fetched, %v\n",
				name, r.Fetches, r.OK, r.Distinct, r.Again, time.Since(s.start).Round(time.Second))
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// loadArticles reads the article URLs of file and fetches each once, directly, for its truth.
// It returns the set of the articles' truths and their number; an article that is not served
// with status 200 is an error.
func (b *bench) loadArticles(file string) (map[truth]bool, int, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var urls []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if _, err := parseHTTP(s); err != nil {
			return nil, 0, fmt.Errorf("%s:%d: %v", file, line, err)
		}
		urls = append(urls, s)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", file, err)
	}
	truths := make([]truth, len(urls))
	errs := make([]error, len(urls))
	client := &http.Client{Timeout: b.timeout}
	var wg sync.WaitGroup
	next := make(chan int)
	for range b.concurrency {
		wg.Go(func() {
			for i := range next {
				truths[i], errs[i] = b.fetchTruth(client, urls[i])
			}
		})
	}
	for i := range urls {
		next <- i
	}
	close(next)
	wg.Wait()
	set := map[truth]bool{}
	for i, err := range errs {
		if err != nil {
			return nil, 0, fmt.Errorf("article %s: %w", urls[i], err)
		}
		set[truths[i]] = true
	}
	if len(set) < len(urls) && !b.quiet {
		fmt.Fprintf(stderr, "sitebench: %d articles have %d distinct truths: some articles are one page\n", len(urls), len(set))
	}
	return set, len(set), nil
}

func (b *bench) fetchTruth(client *http.Client, raw string) (truth, error) {
	resp, err := client.Get(raw)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d", resp.StatusCode)
	}
	tr, _ := b.truth.of(resp.Header.Get("Content-Type"), body)
	return tr, nil
}

// writeTable prints the rows as an aligned table with a legend.
func writeTable(w io.Writer, b bench, rows []row, nArticles int) error {
	fmt.Fprintf(w, "sitebench: %s, scope %s, budget %d fetches, concurrency %d", b.seed, b.scope.prefix, b.budget, b.concurrency)
	if b.faults > 0 {
		fmt.Fprintf(w, ", %.3g%% of responses failed on purpose (seed %d)", 100*b.faults, b.faultSeed)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	failedCol := ""
	if b.faults > 0 {
		failedCol = "failed first\t"
	}
	fmt.Fprintln(tw, "crawler\tfetches\t200\tdistinct\talready fetched\tarticles\tarticles lost\tpages lost\t"+failedCol+"rules\tnomatch\ttime\t")
	for _, r := range rows {
		failed := ""
		if b.faults > 0 {
			failed = fmt.Sprintf("%d (%d, %d)\t", r.FailedFirst, r.FailedRefetched, r.FailedOther)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d (%.1f%%)\t%s\t%s\t%s\t%s%s\t%d\t%.1fs\t\n", r.Crawler, r.Fetches, r.OK,
			r.Distinct, r.Again, r.AgainPct, articlesCell(r, nArticles), lostCell(r.ArticlesLost, r.ArticlesMerged), lostCell(r.Lost, r.Merged),
			failed, dash(r.Rules), r.NoMatch, r.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprint(w, `
200: complete responses with status 200; distinct: distinct truths among them; already fetched:
200s whose truth an earlier 200 of the crawl had (share of all fetches); articles: articles whose
truth some 200 had; lost: articles or distinct pages that the plain crawler of the same family
reached and this one did not (a page of a URL this one fetched too counts as reached, though the
URL served other text then), and in brackets those of them that undust merged with a page it
fetched (a URL of the page in the plain crawl has, by the rules at the end, the key of a URL
fetched), the others being still queued when the budget ran out or never found; rules: rules
undust learned; nomatch: 200s scored by their whole text because the truth selector matched
nothing in them.
`)
	if err == nil && b.faults > 0 {
		_, err = fmt.Fprint(w, `failed first: distinct pages whose first fetch (a status 200 at the site) was failed on
purpose, and in brackets those of them that a later fetch got complete, and of those the ones
got through a URL whose fetch had not failed.
`)
	}
	return err
}

func articlesCell(r row, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", r.ArticlesReached, n)
}

// lostCell is a lost cell: the number lost, and merged in brackets when known.
func lostCell(lost, merged int) string {
	if lost < 0 || merged < 0 {
		return dash(lost)
	}
	return fmt.Sprintf("%d (%d)", lost, merged)
}

func dash(n int) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

// writeOutputs writes rows.json, distinct.svg, one fetch log per crawler and what undust learned
// in each crawl with undust into dir.
func writeOutputs(dir string, rows []row, crawls []crawl, budget int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	chart := svgplot.Chart{Title: "distinct pages against fetches", XLabel: "fetches", YLabel: "distinct pages",
		XMax: svgplot.NiceCeil(float64(budget)), LegendBottomLeft: false}
	for _, r := range rows {
		s := svgplot.Series{Name: r.Crawler}
		for i, d := range r.Curve {
			s.Points = append(s.Points, svgplot.Point{X: float64(i + 1), Y: float64(d)})
		}
		chart.Series = append(chart.Series, s)
	}
	var svg strings.Builder
	if err := chart.WriteSVG(&svg); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "distinct.svg"), []byte(svg.String()), 0o644); err != nil {
		return err
	}
	for i, c := range crawls {
		var b strings.Builder
		b.WriteString("# seq\tms\tstatus\tfault\ttruth\turl\tlocation\n")
		for i, f := range c.fetches {
			tr := "-"
			if f.ok() {
				tr = fmt.Sprintf("%016x", uint64(f.Truth))
			}
			flt := f.Fault.String()
			if flt == "" {
				flt = "-"
			}
			fmt.Fprintf(&b, "%d\t%d\t%d\t%s\t%s\t%s\t%s\n", i+1, f.At.Milliseconds(), f.Status, flt, tr, f.URL, f.Location)
		}
		name := strings.ReplaceAll(c.crawler, "+", "-")
		if err := os.WriteFile(filepath.Join(dir, "fetches-"+name+".tsv"), []byte(b.String()), 0o644); err != nil {
			return err
		}
		if c.learned == "" {
			continue
		}
		var text strings.Builder
		for _, u := range rows[i].mergedURLs {
			k, _ := c.key(u)
			fmt.Fprintf(&text, "# lost, merged: %s has the key %s\n", u, k)
		}
		text.WriteString(c.learned)
		if err := os.WriteFile(filepath.Join(dir, "learned-"+name+".txt"), []byte(text.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
