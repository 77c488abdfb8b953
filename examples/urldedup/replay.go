package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/cpubench"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/align"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// cmdReplay replays a dup-cluster file as a crawl: see replayer.
func cmdReplay(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	clusters := fs.String("clusters", "", "dup-cluster TSV file to replay")
	shuffle := fs.Uint64("shuffle", 0, "meet the URLs in a random order of this seed (0: file order)")
	static := fs.Bool("static", false, "static key only, no online learning (the baseline)")
	aggressive := fs.Bool("aggressive", false, "with -static: urlnorm's Aggressive key instead of Crawler")
	rulesOut := fs.String("rules-out", "", "without -static: write the online rules of the end of the replay to this file")
	showRetracted := fs.Bool("retracted", false, "list the rules that verification retracted")
	out := fs.String("o", "", "file for one line per URL: url<TAB>fetch|skip<TAB>key")
	rulesFile := fs.String("rules", "", "with -static: apply this rules file (urldedup learn -o) instead of a static key")
	var oo learn.OnlineOptions
	fs.Float64Var(&oo.Learn.MinPrecision, "min-precision", 0, "minimum estimated precision of a learned rule (0: learn's default)")
	fs.IntVar(&oo.MinURLs, "min-urls", 0, "URLs of a site before its first relearn (0: learn.OnlineOptions' default)")
	fs.Float64Var(&oo.Growth, "growth", 0, "growth of a site's URLs between relearns (0: the default)")
	fs.IntVar(&oo.VerifyFirst, "verify-first", 0, "first uses of each rule verified (0: the default, negative: none)")
	fs.IntVar(&oo.VerifyEvery, "verify-every", 0, "then one use in this many verified (0: the default, negative: none)")
	fs.Func("ablate", ablateUsage, ablateFunc(&oo.Learn, nil))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *clusters == "" || fs.NArg() > 0 || ((*aggressive || *rulesFile != "") && !*static) || (*aggressive && *rulesFile != "") {
		fmt.Fprintln(stderr, "urldedup replay: -clusters FILE [-shuffle SEED] [-static [-aggressive | -rules RULES]] [-o FILE]")
		return errUsage
	}
	f, err := os.Open(*clusters)
	if err != nil {
		return err
	}
	recs, err := readRecords(f)
	f.Close()
	if err != nil {
		return fileError(*clusters, err)
	}
	if *shuffle != 0 {
		r := rand.New(rand.NewPCG(*shuffle, *shuffle))
		r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	}
	rp := &replayer{}
	switch {
	case *rulesFile != "":
		rf, err := os.Open(*rulesFile)
		if err != nil {
			return err
		}
		set, err := rules.Load(rf, nil)
		rf.Close()
		if err != nil {
			return err
		}
		rp.static, rp.name = set, "fixed rules "+*rulesFile
	case *static && *aggressive:
		rp.static, rp.name = urlnorm.New(urlnorm.Aggressive), "static Aggressive key"
	case *static:
		rp.static, rp.name = urlnorm.New(urlnorm.Crawler), "static Crawler key"
	default:
		rp.online, rp.name = learn.NewOnline(oo), "online learning"
	}
	var w *bufio.Writer
	if *out != "" {
		of, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer of.Close()
		w = bufio.NewWriter(of)
	}
	sum, err := rp.run(recs, w)
	if err != nil {
		return err
	}
	if w != nil {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	order := "file order"
	if *shuffle != 0 {
		order = fmt.Sprintf("shuffle %d", *shuffle)
	}
	sum.print(stdout, rp.name, *clusters, order)
	if *rulesOut != "" && rp.online != nil {
		set, _, err := rp.online.Set()
		if err != nil {
			return err
		}
		rf, err := os.Create(*rulesOut)
		if err != nil {
			return err
		}
		_, err = set.WriteTo(rf)
		if cerr := rf.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if *showRetracted && rp.online != nil {
		for _, r := range rp.online.Retracted() {
			fmt.Fprintf(stdout, "  retracted: %s\n", r)
		}
	}
	return nil
}

// ablateUsage describes the -ablate flag of replay and families: the learners' options, then
// every switch of package ablate, so that the list cannot fall behind the switches.
var ablateUsage = "comma-separated `list` of mechanisms to turn off, to measure them: signatures, splits, roles (the learners' options); and " +
	strings.Join(ablate.Names(), ", ")

// ablateFunc parses an -ablate list: the learning mechanisms into the options of the learners
// (ao may be nil), the others into package ablate's switches.
func ablateFunc(lo *learn.Options, ao *align.Options) func(string) error {
	return func(s string) error {
		var rest []string
		for _, name := range strings.Split(s, ",") {
			switch name {
			case "signatures":
				lo.NoSignatures = true
			case "splits":
				lo.NoSplits = true
			case "roles":
				lo.NoRoles = true
				if ao != nil {
					ao.NoRoles = true
				}
			default:
				rest = append(rest, name)
			}
		}
		return ablate.Set(strings.Join(rest, ","))
	}
}

// readRecords reads the cluster file's records in file order.
func readRecords(r io.Reader) ([]learn.Record, error) {
	tr := learn.NewTSVReader(bufio.NewReader(r), learn.ReaderOptions{})
	var recs []learn.Record
	for tr.Next() {
		recs = append(recs, tr.Record())
	}
	return recs, tr.Err()
}

// A replayer replays a dup-cluster file as a crawl. URLs are met one by one; for each, the
// frontier's normalizer (the static key, or the static key and the rules that an online learner
// has learned so far from the pages fetched) gives a key. A URL whose key names no page fetched
// is fetched: the fetch reveals its cluster id as the page's content fingerprint, which feeds
// the learner. A URL whose key names a page fetched is skipped, unless the learner asks to
// verify the rules that made the key: then it is fetched too, and a page other than the one
// the key names retracts those rules and is kept as a new page. A page is lost when none of its
// URLs is fetched.
//
// The frontier's memory of fetched pages is kept per site: the key of each fetched URL under
// the site's current rules. When the site's rules change (a relearn or a retraction), the keys
// are made again from the fetched URLs, so that no key made by a retracted rule remains.
type replayer struct {
	name   string
	static learn.Normalizer // the static baseline (or a fixed rule set), or nil
	online *learn.Online    // the online learner, or nil
	// group, when set, names the group of a cluster id (its family): run counts per group too,
	// and keeps the URLs of lost pages with what they were taken for.
	group func(cluster string) string
	// causes, with group and online, sorts the fetches of pages fetched before by cause (see
	// fetchCauses); noise names the clusters known to group different pages.
	causes bool
	noise  map[string]bool
}

// replaySite is the frontier's state of one site.
type replaySite struct {
	seen    map[string]fetchedURL // key -> the first URL fetched under it, and its page
	fetched []fetchedURL
	set     any // the site's rule set the keys were made with
}

type fetchedURL struct {
	url string
	fp  uint64
}

// replaySummary is what a replay counts.
type replaySummary struct {
	replayCounts
	caughtLost int // mismatches whose page had not been fetched before
	keyErrors  int
	online     learn.OnlineStats
	wall, cpu  time.Duration
	groups     map[string]*replayCounts // per group, with replayer.group
	lostSkips  []lostSkip               // with replayer.group: the skipped URLs of lost pages
}

// replayCounts are the counts of a replay or of a group of its clusters.
type replayCounts struct {
	urls, pages, fetches, lost int
	verifications, caught      int // verification fetches; of them, mismatches
	fetchCauses                    // with replayer.causes
}

// fetchCauses sorts the fetches of a page fetched before (the avoidable fetches a replay made)
// by why the URL was fetched. A verification fetch was asked for by the learner. Of the others,
// a late fetch is of a URL that the rules at the end of the replay key as an earlier fetched
// URL of its page: a rule came after the URL. A never fetch is of a URL that they key apart
// from all of them: no rule covers it at the end, because none is expressible, none was learned,
// or verification retracted it. Noise counts apart the never fetches whose cluster is known
// to group different pages (sitefamily's noise), which no rule should merge.
type fetchCauses struct {
	verified, late, never, noise int
}

// A lostSkip is a URL of a page that was lost, skipped because its key named another page,
// that of the URL kept.
type lostSkip struct {
	url, cluster, key string
	kept, keptCluster string
}

func (rp *replayer) run(recs []learn.Record, w *bufio.Writer) (replaySummary, error) {
	var sum replaySummary
	t0, c0 := time.Now(), cpubench.ProcessTime()
	fps := map[string]uint64{} // cluster id -> fingerprint
	fetchedPage := map[uint64]bool{}
	sites := map[string]*replaySite{}
	var scratch replayCounts // the counts of the record's group when there are no groups
	var skips []lostSkip
	var firstURL map[uint64]int // fingerprint -> index of the record of its first fetch
	if rp.group != nil {
		sum.groups = map[string]*replayCounts{}
		firstURL = map[uint64]int{}
	}
	var again []refetch // with rp.causes: the fetches of pages fetched before
	for i, rec := range recs {
		fp, ok := fps[rec.Cluster]
		if !ok {
			fp = uint64(len(fps) + 1)
			fps[rec.Cluster] = fp
		}
		g := &scratch
		if rp.group != nil {
			name := rp.group(rec.Cluster)
			if g = sum.groups[name]; g == nil {
				g = &replayCounts{}
				sum.groups[name] = g
			}
		}
		sum.urls++
		g.urls++
		var siteName string
		var k learn.Key
		var err error
		if rp.online != nil {
			siteName, _ = rp.online.Site(rec.URL)
			k, err = rp.online.Key(rec.URL)
		} else {
			siteName = learn.SiteOf(rec.Cluster)
			k.Key, err = rp.static.Normalize(rec.URL)
		}
		if err != nil {
			sum.keyErrors++
			if k.Key == "" {
				k.Key = rec.URL
			}
		}
		s := sites[siteName]
		if s == nil {
			s = &replaySite{seen: map[string]fetchedURL{}}
			sites[siteName] = s
		}
		fetch, verified := true, false
		if prev, ok := s.seen[k.Key]; ok {
			fetch = false
			var kept learn.Key
			if rp.online != nil {
				// The kept URL's key under the current rules: a rule may have made it.
				kept, _ = rp.online.Key(prev.url)
			}
			if rp.online != nil && rp.online.VerifyMatch(k, kept) {
				fetch = true
				verified = true
				sum.verifications++
				g.verifications++
				same := prev.fp == fp
				if !same {
					sum.caught++
					g.caught++
					if !fetchedPage[fp] {
						sum.caughtLost++
					}
				}
				rp.online.ConfirmMatch(k, kept, same)
				if !same {
					// A retraction in one context leaves the site's set as it was, and
					// changes the keys of its URLs in that context: make them again.
					s.set = nil
				}
			}
			if !fetch && rp.group != nil && prev.fp != fp {
				skips = append(skips, lostSkip{url: rec.URL, cluster: rec.Cluster, key: k.Key, kept: recs[firstURL[prev.fp]].URL, keptCluster: recs[firstURL[prev.fp]].Cluster})
			}
			if !fetch && rp.online != nil {
				rp.online.Skipped(learn.URL{Raw: rec.URL}, k, prev.fp)
				rp.online.Relearn()
				rp.rekey(siteName, s)
			}
		}
		if fetch {
			if rp.causes && fetchedPage[fp] {
				again = append(again, refetch{i, verified})
			}
			sum.fetches++
			g.fetches++
			if _, ok := firstURL[fp]; !ok && firstURL != nil {
				firstURL[fp] = i
			}
			fetchedPage[fp] = true
			s.fetched = append(s.fetched, fetchedURL{rec.URL, fp})
			if _, ok := s.seen[k.Key]; !ok {
				s.seen[k.Key] = fetchedURL{rec.URL, fp}
			}
			if rp.online != nil {
				rp.online.Observe(learn.URL{Raw: rec.URL}, fp)
				rp.online.Relearn()
				rp.rekey(siteName, s)
			}
		}
		if w != nil {
			verdict := "skip"
			if fetch {
				verdict = "fetch"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", rec.URL, verdict, k.Key)
		}
	}
	sum.pages = len(fps)
	sum.lost = len(fps) - len(fetchedPage)
	if rp.group != nil {
		for id, fp := range fps {
			g := sum.groups[rp.group(id)]
			g.pages++
			if !fetchedPage[fp] {
				g.lost++
			}
		}
		for _, s := range skips {
			if !fetchedPage[fps[s.cluster]] {
				sum.lostSkips = append(sum.lostSkips, s)
			}
		}
	}
	if rp.online != nil {
		sum.online = rp.online.Stats()
		if rp.causes && rp.group != nil {
			rp.sortCauses(recs, fps, firstURL, again, &sum)
		}
	}
	sum.wall, sum.cpu = time.Since(t0), cpubench.ProcessTime()-c0
	return sum, nil
}

// A refetch is a fetch of a page fetched before: the index of its record, and whether the
// learner asked for it to verify a rule.
type refetch struct {
	i        int
	verified bool
}

// sortCauses counts the fetches of pages fetched before by cause (fetchCauses) per group and
// in all: it keys each with the rules at the end of the replay and compares the key with those
// of the page's URLs fetched before it.
func (rp *replayer) sortCauses(recs []learn.Record, fps map[string]uint64, firstURL map[uint64]int, again []refetch, sum *replaySummary) {
	keys := map[uint64]map[string]bool{} // page -> end keys of its URLs fetched so far
	for _, f := range again {
		rec := recs[f.i]
		g := sum.groups[rp.group(rec.Cluster)]
		c := [2]*fetchCauses{&g.fetchCauses, &sum.fetchCauses}
		if f.verified {
			c[0].verified++
			c[1].verified++
			continue
		}
		fp := fps[rec.Cluster]
		m := keys[fp]
		if m == nil {
			first, _ := rp.online.Normalize(recs[firstURL[fp]].URL)
			m = map[string]bool{first: true}
			keys[fp] = m
		}
		k, _ := rp.online.Normalize(rec.URL)
		for _, c := range c {
			switch {
			case m[k]:
				c.late++
			case rp.noise[rec.Cluster]:
				c.noise++
			default:
				c.never++
			}
		}
		m[k] = true
	}
}

// rekey makes the keys of the site's fetched URLs again when the site's rules have changed.
func (rp *replayer) rekey(name string, s *replaySite) {
	set := rp.online.SiteSet(name)
	if set == nil || any(set) == s.set {
		return
	}
	s.set = set
	s.seen = make(map[string]fetchedURL, len(s.fetched))
	for _, f := range s.fetched {
		k, _ := rp.online.Normalize(f.url)
		if _, ok := s.seen[k]; !ok {
			s.seen[k] = f
		}
	}
}

func (s replaySummary) print(w io.Writer, name, file, order string) {
	avoidable := s.urls - s.pages
	fmt.Fprintf(w, "replay of %s (%s), %s\n", file, order, name)
	fmt.Fprintf(w, "  URLs                      %d\n", s.urls)
	fmt.Fprintf(w, "  distinct pages            %d\n", s.pages)
	fmt.Fprintf(w, "  fetches                   %d (%.3f per page)\n", s.fetches, float64(s.fetches)/float64(max(s.pages, 1)))
	fmt.Fprintf(w, "  avoidable fetches saved   %.1f%% (%d of %d)\n", 100*float64(s.urls-s.fetches)/float64(max(avoidable, 1)), s.urls-s.fetches, avoidable)
	fmt.Fprintf(w, "  pages lost                %d (%.3f%% of pages)\n", s.lost, 100*float64(s.lost)/float64(max(s.pages, 1)))
	fmt.Fprintf(w, "  verification fetches      %d (counted in fetches); mismatches %d, of which %d pages not fetched before\n", s.verifications, s.caught, s.caughtLost)
	if s.keyErrors > 0 {
		fmt.Fprintf(w, "  key errors                %d\n", s.keyErrors)
	}
	if o := s.online; o.Sites > 0 {
		fmt.Fprintf(w, "  online learner            %d sites, %d relearns over %d URLs, %d rules at the end, %d retracted (%d undone)\n",
			o.Sites, o.Relearns, o.RelearnURLs, o.Rules, o.Retracted, o.Reinstated)
	}
	fmt.Fprintf(w, "  time                      wall %v, CPU %v\n", s.wall.Round(time.Millisecond), s.cpu.Round(time.Millisecond))
}
