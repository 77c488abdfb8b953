package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/undust/undust/internal/sitefamily"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/align"
	"github.com/undust/undust/rules"
)

// cmdGen writes a dataset of site families (package internal/sitefamily): DIR/clusters.tsv,
// DIR/traps.tsv, DIR/noise.txt, and the per-family summary on stdout.
func cmdGen(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("out", "", "`directory` to write clusters.tsv, traps.tsv and noise.txt into (made if missing)")
	seed := fs.Uint64("seed", 1, "seed: the same flags write the same bytes")
	var names []string
	for _, f := range sitefamily.Families() {
		names = append(names, f.Name)
	}
	fams := fs.String("family", "", "comma-separated `families` to generate (default all): "+strings.Join(names, ","))
	sites := fs.Int("sites", 4, "sites per family")
	scale := fs.Float64("scale", 1, "multiplies every site's size (pages)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" || *sites < 1 || *scale <= 0 {
		fmt.Fprintln(stderr, "urldedup gen: -out DIR [-seed N] [-family LIST] [-sites N >= 1] [-scale F > 0]")
		return errUsage
	}
	t0 := time.Now()
	d, err := sitefamily.Generate(sitefamily.Options{Seed: *seed, Families: splitList(*fams), Sites: *sites, Scale: *scale})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		w    io.WriterTo
	}{{"clusters.tsv", d}, {"traps.tsv", trapsWriter{d}}, {"noise.txt", noiseWriter{d}}} {
		if err := writeFile(filepath.Join(*out, f.name), f.w); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "site families (seed %d, %d sites a family, scale %g) in %s, written in %v\n\n", *seed, *sites, *scale, *out, time.Since(t0).Round(time.Millisecond))
	return sitefamily.WriteSummaries(stdout, d.Summaries())
}

// noiseWriter writes the ids of a dataset's noise clusters, one a line.
type noiseWriter struct{ d *sitefamily.Dataset }

func (n noiseWriter) WriteTo(w io.Writer) (int64, error) {
	b := []byte("# ids of clusters that group different pages (label noise)\n")
	for _, id := range n.d.Noise {
		b = append(append(b, id...), '\n')
	}
	k, err := w.Write(b)
	return int64(k), err
}

// trapsWriter writes a dataset's traps as a file.
type trapsWriter struct{ d *sitefamily.Dataset }

func (t trapsWriter) WriteTo(w io.Writer) (int64, error) { return 0, t.d.WriteTraps(w) }

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	return slices.DeleteFunc(strings.Split(s, ","), func(x string) bool { return x == "" })
}

// familyFilter keeps the families of only (all when empty) that exclude does not name.
type familyFilter struct{ only, exclude []string }

func (f familyFilter) keep(family string) bool {
	return (len(f.only) == 0 || slices.Contains(f.only, family)) && !slices.Contains(f.exclude, family)
}

// cmdFamilies evaluates online and offline learning per family of a dup-cluster file whose
// cluster ids start with a family name (FAMILY-...), as urldedup gen writes them.
// familyLearn and familyAlign are the options of the learners that families runs: the
// defaults, less the mechanisms -ablate turns off; familyGrowth is the replays'
// learn.OnlineOptions.Growth (-growth).
var (
	familyLearn  learn.Options
	familyAlign  align.Options
	familyGrowth float64
)

func cmdFamilies(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("families", flag.ContinueOnError)
	clusters := fs.String("clusters", "", "dup-cluster TSV `file` whose cluster ids start with the family: FAMILY-...")
	orders := fs.Int("orders", 5, "replay orders: file order, then -shuffle 1, 2, ...")
	which := fs.String("learner", "both", "offline learner: koppula, align or both")
	only := fs.String("only", "", "comma-separated `families` to evaluate (default all)")
	exclude := fs.String("exclude", "", "comma-separated `families` to leave out (leave one family out when tuning)")
	seed := fs.Uint64("seed", 1, "seed of the offline 50/50 split")
	noReplay := fs.Bool("no-replay", false, "skip the replays")
	noOffline := fs.Bool("no-offline", false, "skip the offline evaluation")
	explain := fs.Int("explain", 0, "per family, list the `N` rules with the most false pairs offline and N URLs of lost pages of the worst order")
	causes := fs.Bool("causes", false, "per family, sort the avoidable fetches of the order that saves least by cause: verification, a rule learned late, no rule at the end (noise.txt beside the file names the noise clusters)")
	sites := sitesFlag(fs)
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	fs.Float64Var(&familyGrowth, "growth", 0, "growth of a site's URLs between relearns in the replays (0: the default)")
	fs.Func("ablate", ablateUsage, ablateFunc(&familyLearn, &familyAlign))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *clusters == "" || *orders < 0 || familyGrowth < 0 || (*which != "koppula" && *which != "align" && *which != "both") {
		fmt.Fprintln(stderr, "urldedup families: -clusters FILE [-orders N] [-learner koppula|align|both] [-only LIST | -exclude LIST] [-explain N] [-growth F >= 0]")
		return errUsage
	}
	filter := familyFilter{splitList(*only), splitList(*exclude)}
	progress := newProgress("families", *quiet)
	t0 := time.Now()
	fmt.Fprintf(stdout, "# families of %s\n\n", *clusters)
	if len(filter.only) > 0 || len(filter.exclude) > 0 {
		fmt.Fprintf(stdout, "families: only %q, excluded %q\n\n", filter.only, filter.exclude)
	}
	if !*noReplay && *orders > 0 {
		if err := familyReplays(stdout, *clusters, *orders, filter, *explain, *causes, progress); err != nil {
			return err
		}
	}
	if !*noOffline {
		if err := familyOffline(stdout, *clusters, *which, *seed, *sites, filter, *explain, progress); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "time: %v\n", time.Since(t0).Round(time.Second))
	return nil
}

// orderName names replay order i: 0 is the file order, i > 0 -shuffle i.
func orderName(i int) string {
	if i == 0 {
		return "file"
	}
	return fmt.Sprintf("shuffle %d", i)
}

// familyReplays replays the file in orders orders with online learning and prints, per
// family and for all, the worst order and the spread of the pages lost, the avoidable fetches
// saved and the verification fetches.
func familyReplays(w io.Writer, file string, orders int, filter familyFilter, explain int, causes bool, progress func(string, ...any)) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	recs, err := readRecords(f)
	f.Close()
	if err != nil {
		return fileError(file, err)
	}
	recs = slices.DeleteFunc(recs, func(r learn.Record) bool { return !filter.keep(sitefamily.FamilyOf(r.Cluster)) })
	if len(recs) == 0 {
		return fmt.Errorf("%s: no URLs of the families asked for", file)
	}
	var noise map[string]bool
	if causes {
		if noise, err = readNoise(filepath.Join(filepath.Dir(file), "noise.txt")); err != nil {
			return err
		}
	}
	byOrder := make([]map[string]*replayCounts, orders)
	var lostSkips [][]lostSkip
	var times []time.Duration
	for i := range orders {
		order := slices.Clone(recs)
		if i > 0 {
			r := rand.New(rand.NewPCG(uint64(i), uint64(i))) // as replay -shuffle i
			r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		progress("replay, %s order, %d URLs", orderName(i), len(order))
		rp := &replayer{online: learn.NewOnline(learn.OnlineOptions{Learn: familyLearn, Growth: familyGrowth}), group: sitefamily.FamilyOf, causes: causes, noise: noise}
		sum, err := rp.run(order, nil)
		if err != nil {
			return err
		}
		all := sum.replayCounts
		sum.groups["all"] = &all
		byOrder[i] = sum.groups
		lostSkips = append(lostSkips, sum.lostSkips)
		times = append(times, sum.wall)
	}
	fams := groupNames(byOrder[0])
	fmt.Fprintf(w, "## replay with online learning, %d orders (file order, shuffle 1-%d): worst order and spread\n\n", orders, orders-1)
	fmt.Fprintln(w, "| family | URLs | pages | lost % worst | lost % range | lost pages max | saved % worst | saved % range | verif. fetches range | mismatches max |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, fam := range fams {
		var lost, saved, verif, lostN, caught []float64
		for _, g := range byOrder {
			c := g[fam]
			lost = append(lost, 100*float64(c.lost)/float64(max(c.pages, 1)))
			saved = append(saved, 100*float64(c.urls-c.fetches)/float64(max(c.urls-c.pages, 1)))
			verif = append(verif, float64(c.verifications))
			lostN = append(lostN, float64(c.lost))
			caught = append(caught, float64(c.caught))
		}
		c := byOrder[0][fam]
		worstLost, worstSaved := slices.Index(lost, slices.Max(lost)), slices.Index(saved, slices.Min(saved))
		fmt.Fprintf(w, "| %s | %d | %d | %.3f (%s) | %.3f-%.3f | %.0f | %.1f (%s) | %.1f-%.1f | %.0f-%.0f | %.0f |\n", fam, c.urls, c.pages,
			lost[worstLost], orderName(worstLost), slices.Min(lost), slices.Max(lost), slices.Max(lostN),
			saved[worstSaved], orderName(worstSaved), slices.Min(saved), slices.Max(saved), slices.Min(verif), slices.Max(verif), slices.Max(caught))
	}
	fmt.Fprintf(w, "\nlost: pages none of whose URLs was fetched; saved: avoidable fetches (URLs - pages) not made, verification fetches counted as fetches. Replay times:")
	for i, d := range times {
		fmt.Fprintf(w, " %s %v;", orderName(i), d.Round(100*time.Millisecond))
	}
	fmt.Fprintf(w, "\n\n")
	if causes {
		printCauses(w, byOrder, fams)
	}
	if explain > 0 {
		// The worst order by pages lost over all families.
		worst := 0
		for i, g := range byOrder {
			if g["all"].lost > byOrder[worst]["all"].lost {
				worst = i
			}
		}
		fmt.Fprintf(w, "### URLs of lost pages, %s order: URL (page) skipped as key, the key of the kept URL (page)\n\n", orderName(worst))
		per := map[string]int{}
		for _, s := range lostSkips[worst] {
			fam := sitefamily.FamilyOf(s.cluster)
			if per[fam] >= explain {
				continue
			}
			per[fam]++
			fmt.Fprintf(w, "- %s: `%s` (%s) as `%s`, kept `%s` (%s)\n", fam, s.url, s.cluster, s.key, s.kept, s.keptCluster)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// printCauses prints, per family, the avoidable fetches of the order that saves the least of
// them by cause (fetchCauses).
func printCauses(w io.Writer, byOrder []map[string]*replayCounts, fams []string) {
	fmt.Fprintf(w, "### avoidable fetches made, by cause, in the order that saves least\n\n")
	fmt.Fprintln(w, "| family | order | avoidable | saved | verification | late | never | noise |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
	saved := func(c *replayCounts) float64 { return float64(c.urls-c.fetches) / float64(max(c.urls-c.pages, 1)) }
	for _, fam := range fams {
		worst := 0
		for i, g := range byOrder {
			if saved(g[fam]) < saved(byOrder[worst][fam]) {
				worst = i
			}
		}
		c := byOrder[worst][fam]
		pct := func(n int) string {
			return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(max(c.urls-c.pages, 1)))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", fam, orderName(worst), c.urls-c.pages, pct(c.urls-c.fetches),
			pct(c.verified), pct(c.late), pct(c.never), pct(c.noise))
	}
	fmt.Fprintf(w, "\nverification: fetches the learner asked for to check a rule; late: of a URL that the rules at the end key as a URL of its page fetched before; never: of a URL that they key apart; noise: never fetches of clusters that group different pages (noise.txt). Percentages of the avoidable fetches.\n\n")
}

// readNoise reads the ids of noise clusters, one a line, "#" comments, as urldedup gen writes
// them; a missing file is no noise.
func readNoise(name string) (map[string]bool, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m, nil
}

// groupNames returns the groups' names sorted, "all" last.
func groupNames[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		if k != "all" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return append(out, "all")
}

// familyOffline learns on one half of each site's clusters with each learner and measures the
// rules, through the rules file, on the other half, per family.
func familyOffline(w io.Writer, file, which string, seed uint64, g learn.Grouping, filter familyFilter, explain int, progress func(string, ...any)) error {
	progress("offline: reading %s", file)
	cls, err := readClusters(file, "", g, false)
	if err != nil {
		return err
	}
	cls = slices.DeleteFunc(cls, func(c learn.Cluster) bool { return !filter.keep(sitefamily.FamilyOf(c.ID)) })
	if len(cls) == 0 {
		return fmt.Errorf("%s: no clusters of the families asked for", file)
	}
	train, test := learn.Split(cls, seed)
	byFam := map[string][]learn.Cluster{}
	for _, c := range test {
		f := sitefamily.FamilyOf(c.ID)
		byFam[f] = append(byFam[f], c)
	}
	byFam["all"] = test
	fams := groupNames(byFam)
	type result struct {
		name    string
		rules   int
		time    time.Duration
		metrics map[string]learn.Metrics
		blame   map[string][]ruleBlame
	}
	var results []result
	for _, l := range []struct {
		name    string
		learner align.SetLearner
	}{{"Koppula", &learn.TreeLearner{Options: familyLearn}}, {"align", &align.Learner{Options: familyAlign}}} {
		if which != "both" && !strings.EqualFold(which, l.name) {
			continue
		}
		progress("offline: %s learning on %d clusters", l.name, len(train))
		t0 := time.Now()
		set, _, err := l.learner.Learn(train)
		d := time.Since(t0)
		if err != nil {
			return fmt.Errorf("learner %s: %w", l.name, err)
		}
		loaded, err := throughFile(set)
		if err != nil {
			return fmt.Errorf("%s: rules file: %w", l.name, err)
		}
		progress("offline: %s measuring %d rules", l.name, loaded.Len())
		r := result{name: l.name, rules: loaded.Len(), time: d, metrics: map[string]learn.Metrics{}}
		n := fileNormalizer(loaded)
		for _, f := range fams {
			r.metrics[f] = learn.Measure(byFam[f], n)
		}
		if explain > 0 {
			r.blame = blameRules(test, loaded)
		}
		results = append(results, r)
	}
	fmt.Fprintf(w, "## offline: learned on one half of each site's clusters (split seed %d), through the rules file, on the other half\n\n", seed)
	fmt.Fprint(w, "| family | URLs | max reduction |")
	sep := "|---|---:|---:|"
	for _, r := range results {
		fmt.Fprintf(w, " %s of max | %s pair prec. | %s false pairs |", r.name, r.name, r.name)
		sep += "---:|---:|---:|"
	}
	fmt.Fprintf(w, "\n%s\n", sep)
	for _, f := range fams {
		m0 := results[0].metrics[f]
		fmt.Fprintf(w, "| %s | %d | %.4f |", f, m0.URLs, m0.MaxReduction)
		for _, r := range results {
			m := r.metrics[f]
			fmt.Fprintf(w, " %.3f | %.4f | %d |", m.OfMax, m.PairPrecision, m.FalsePairs)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, r := range results {
		fmt.Fprintf(w, "%s: %d rules, learned in %v. ", r.name, r.rules, r.time.Round(100*time.Millisecond))
	}
	fmt.Fprintf(w, "\n\n")
	for _, r := range results {
		if r.blame == nil {
			continue
		}
		fmt.Fprintf(w, "### %s: rules with the most false pairs on the held-out half\n\n", r.name)
		for _, f := range fams[:len(fams)-1] {
			for i, b := range r.blame[f] {
				if i == explain {
					break
				}
				fmt.Fprintf(w, "- %s: %d false pairs: `%s`, e.g. `%s` (%s) and `%s` (%s)\n", f, b.pairs, b.rule, b.a, b.ca, b.b, b.cb)
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

// fileNormalizer returns the key of a URL under a loaded rules file as urldedup apply gives
// it: the key Normalize returns, or the URL itself when that is empty.
func fileNormalizer(set *rules.Set) learn.Normalizer {
	return learn.NormalizerFunc(func(raw string) (string, error) {
		if k, _ := set.Normalize(raw); k != "" {
			return k, nil
		}
		return raw, nil
	})
}

// A ruleBlame is a rule that made keys of URLs of different pages equal: the false pairs it
// took part in, with one of them.
type ruleBlame struct {
	rule   string
	pairs  int
	a, b   string
	ca, cb string
}

// blameRules finds the URL pairs of different clusters with one key under set and charges each
// to the rules that rewrote one URL and not the other (rules.Set.NormalizeTrace), or to the
// rules that rewrote either when both went through the same rules; it returns per family the
// rules by false pairs, most first.
func blameRules(test []learn.Cluster, set *rules.Set) map[string][]ruleBlame {
	type member struct {
		url, cluster string
		rules        []int
	}
	byKey := map[string][]member{}
	var trace []int
	for _, c := range test {
		for _, u := range c.URLs {
			k, tr, _ := set.NormalizeTrace(trace[:0], u.Raw)
			if k == "" {
				k = u.Raw
			}
			byKey[k] = append(byKey[k], member{u.Raw, c.ID, slices.Clone(tr)})
			trace = tr
		}
	}
	type tally struct {
		ruleBlame
		fam string
	}
	tallies := map[string]*tally{} // family + rule index
	for _, ms := range byKey {
		if len(ms) < 2 {
			continue
		}
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				a, b := ms[i], ms[j]
				if a.cluster == b.cluster {
					continue
				}
				fam := sitefamily.FamilyOf(a.cluster)
				rs := blamed(a.rules, b.rules)
				if len(rs) == 0 {
					rs = []int{-1} // the static key alone
				}
				for _, r := range rs {
					id := fmt.Sprintf("%s\t%d", fam, r)
					t := tallies[id]
					if t == nil {
						text := "(no rule: the static key)"
						if r >= 0 {
							text = set.Rule(r).String()
						}
						t = &tally{ruleBlame{rule: text, a: a.url, b: b.url, ca: a.cluster, cb: b.cluster}, fam}
						tallies[id] = t
					}
					t.pairs++
				}
			}
		}
	}
	out := map[string][]ruleBlame{}
	for _, t := range tallies {
		out[t.fam] = append(out[t.fam], t.ruleBlame)
	}
	for _, bs := range out {
		slices.SortFunc(bs, func(x, y ruleBlame) int {
			if x.pairs != y.pairs {
				return y.pairs - x.pairs
			}
			return strings.Compare(x.rule, y.rule)
		})
	}
	return out
}

// blamed returns the rules of a false pair: those in one trace and not the other (a scheme rule
// that rewrote both URLs did not make them equal), or, when the traces hold the same rules,
// all of them. The result is sorted.
func blamed(a, b []int) []int {
	var out []int
	for _, r := range a {
		if !slices.Contains(b, r) {
			out = append(out, r)
		}
	}
	for _, r := range b {
		if !slices.Contains(a, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = append(append(out, a...), b...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
