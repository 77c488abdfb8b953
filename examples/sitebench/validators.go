package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"
)

// A response's validators: what a server says of a page in its headers, which a crawler could
// read from a HEAD request instead of fetching the page.
type validators struct {
	status       int
	etag         string
	lastModified string
	length       string // the Content-Length header, "" when absent
	body         []byte // GET only
	took         time.Duration
}

// signals are the validators compared, and the body as their yardstick.
var signals = []struct {
	name string
	of   func(v *validators) string
}{
	{"ETag", func(v *validators) string { return v.etag }},
	{"Last-Modified", func(v *validators) string { return v.lastModified }},
	{"Content-Length", func(v *validators) string { return v.length }},
	{"ETag+Last-Modified+Content-Length", func(v *validators) string {
		if v.etag == "" && v.lastModified == "" && v.length == "" {
			return ""
		}
		return v.etag + "\x00" + v.lastModified + "\x00" + v.length
	}},
}

// cmdValidators measures whether the validators a server sends (ETag, Last-Modified,
// Content-Length) could stand in for the fetch with which undust checks a rule's use: a check
// compares a new URL with a page fetched before under another URL, so a HEAD of the new URL
// would do when its validators equal the kept URL's for URLs of one page and differ for URLs
// of two pages. The pairs come from a fetch log of a plain crawl: the URLs of one page (its
// first URL and each later one) and the first URLs of two pages whose URLs have one pattern
// (dups' patterns: pages of one type, the pairs a wrong rule would join). Each URL is fetched
// again with GET and with HEAD; the table gives, per signal, the share of responses that carry
// it and, per kind of pair, the share that a HEAD of the second URL would confirm (both carry
// the signal, equal). A signal pays where it confirms most pairs of one page and no pair of two.
func cmdValidators(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("validators", flag.ContinueOnError)
	logFile := fs.String("log", "", "fetch log `file` (fetches-CRAWLER.tsv) written by run -out (required)")
	pairs := fs.Int("pairs", 300, "at most this many pairs of each kind")
	concurrency := fs.Int("concurrency", 4, "requests at a time")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *logFile == "" {
		return usagef("validators", "-log is required")
	}
	if *pairs < 1 || *concurrency < 1 {
		return usagef("validators", "-pairs and -concurrency must be at least 1")
	}
	fetches, err := readLogFile(*logFile)
	if err != nil {
		return err
	}
	same, other := validatorPairs(fetches, *pairs)
	if len(same) == 0 {
		return fmt.Errorf("%s: no page was fetched under two URLs", *logFile)
	}
	var urls []string
	seen := map[string]bool{}
	for _, p := range slices.Concat(same, other) {
		for _, u := range p {
			if !seen[u] {
				seen[u] = true
				urls = append(urls, u)
			}
		}
	}
	client := &http.Client{
		Timeout: *timeout,
		// A redirect is a response of its own: its validators are not the target's.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get, head := fetchValidators(client, urls, *concurrency)
	writeValidators(stdout, same, other, get, head)
	return nil
}

// validatorPairs returns up to n pairs of URLs of one page and n pairs of first URLs of two
// pages of one pattern, spread evenly over those the log holds.
func validatorPairs(fetches []loggedFetch, n int) (same, other [][2]string) {
	var urls []string
	for _, f := range fetches {
		urls = append(urls, f.url)
	}
	p := newPatterner(urls)
	first := map[string]string{}
	byPattern := map[string][]string{} // pattern -> first URLs of pages
	var patterns []string
	done := map[string]bool{}
	for _, f := range fetches {
		if f.truth == "-" || done[f.url] {
			continue
		}
		done[f.url] = true
		kept, seen := first[f.truth]
		if seen {
			same = append(same, [2]string{kept, f.url})
			continue
		}
		first[f.truth] = f.url
		pat := p.pattern(f.url)
		if byPattern[pat] == nil {
			patterns = append(patterns, pat)
		}
		byPattern[pat] = append(byPattern[pat], f.url)
	}
	for _, pat := range patterns {
		us := byPattern[pat]
		for i := 1; i < len(us); i++ {
			other = append(other, [2]string{us[i-1], us[i]})
		}
	}
	return spread(same, n), spread(other, n)
}

// spread returns at most n elements of xs, evenly spaced.
func spread[T any](xs []T, n int) []T {
	if len(xs) <= n {
		return xs
	}
	out := make([]T, n)
	for i := range out {
		out[i] = xs[i*len(xs)/n]
	}
	return out
}

// fetchValidators fetches each URL with GET and with HEAD, concurrency at a time.
func fetchValidators(client *http.Client, urls []string, concurrency int) (get, head map[string]*validators) {
	get, head = map[string]*validators{}, map[string]*validators{}
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			for u := range work {
				g := fetchOne(client, http.MethodGet, u)
				h := fetchOne(client, http.MethodHead, u)
				mu.Lock()
				get[u], head[u] = g, h
				mu.Unlock()
			}
		})
	}
	for _, u := range urls {
		work <- u
	}
	close(work)
	wg.Wait()
	return get, head
}

// fetchOne requests raw with the method; a failed request gives status 0.
func fetchOne(client *http.Client, method, raw string) *validators {
	v := &validators{}
	start := time.Now()
	req, err := http.NewRequest(method, raw, nil)
	if err != nil {
		return v
	}
	resp, err := client.Do(req)
	if err != nil {
		return v
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	v.took = time.Since(start)
	if err != nil {
		return v
	}
	v.status = resp.StatusCode
	v.etag = resp.Header.Get("ETag")
	v.lastModified = resp.Header.Get("Last-Modified")
	v.length = resp.Header.Get("Content-Length")
	if method == http.MethodGet {
		v.body = body
	}
	return v
}

// writeValidators prints the table of cmdValidators: the kept URL's validators are those of
// its GET (read when it was fetched), the second URL's those of its HEAD.
func writeValidators(w io.Writer, same, other [][2]string, get, head map[string]*validators) {
	ok := func(p [2]string) bool {
		return get[p[0]].status == http.StatusOK && head[p[1]].status == http.StatusOK && get[p[1]].status == http.StatusOK
	}
	same, other = slices.DeleteFunc(slices.Clone(same), func(p [2]string) bool { return !ok(p) }),
		slices.DeleteFunc(slices.Clone(other), func(p [2]string) bool { return !ok(p) })
	var oks []*validators // the HEADs of every URL of a kept pair
	seen := map[string]bool{}
	for _, p := range slices.Concat(same, other) {
		for _, u := range p {
			if !seen[u] {
				seen[u] = true
				oks = append(oks, head[u])
			}
		}
	}
	pct := func(k, n int) string {
		if n == 0 {
			return "-"
		}
		return strconv.FormatFloat(100*float64(k)/float64(n), 'f', 1, 64) + "%"
	}
	confirms := func(pairs [][2]string, of func(*validators) string) int {
		k := 0
		for _, p := range pairs {
			a, b := of(get[p[0]]), of(head[p[1]])
			if a != "" && a == b {
				k++
			}
		}
		return k
	}
	fmt.Fprintf(w, "%d URLs, %d pairs of one page, %d pairs of two pages of one type (every response 200)\n\n", len(oks), len(same), len(other))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "signal\tcarried by\tconfirms one page\tconfirms two pages\t")
	for _, s := range signals {
		carried := 0
		for _, v := range oks {
			if s.of(v) != "" {
				carried++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", s.name, pct(carried, len(oks)), pct(confirms(same, s.of), len(same)), pct(confirms(other, s.of), len(other)))
	}
	bodies := func(pairs [][2]string) int {
		k := 0
		for _, p := range pairs {
			if bytes.Equal(get[p[0]].body, get[p[1]].body) {
				k++
			}
		}
		return k
	}
	fmt.Fprintf(tw, "identical body (GET, the yardstick)\t100.0%%\t%s\t%s\t\n", pct(bodies(same), len(same)), pct(bodies(other), len(other)))
	tw.Flush()
	median := func(m map[string]*validators) time.Duration {
		var ds []time.Duration
		for u := range seen {
			ds = append(ds, m[u].took)
		}
		if len(ds) == 0 {
			return 0
		}
		slices.SortFunc(ds, cmp.Compare)
		return ds[len(ds)/2]
	}
	bytesGET := 0
	for u := range seen {
		bytesGET += len(get[u].body)
	}
	fmt.Fprintf(w, "\nmedian time: GET %v, HEAD %v; mean GET body %d bytes (a HEAD has none)\n",
		median(get).Round(100*time.Microsecond), median(head).Round(100*time.Microsecond), bytesGET/max(1, len(seen)))
}
