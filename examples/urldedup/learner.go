package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/align"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// learnerNamed returns the learner a -learner flag names: "koppula", the decision-tree learner
// of package learn, or "align", the multiple-alignment learner of package learn/align. Koppula
// is the default. On the held-out halves of the dupclusters sets (2026-11-24, through the rules
// file) it reduces a little more than align on train.tsv (0.824 of the maximum against 0.819)
// and a little less on dev.tsv (0.835 against 0.840), with about 60% of the rules (1058 against
// 1763 on train.tsv), both learners at pair precision >= 0.9998; only its widened rules carry
// to unseen sites. opt sets
// the selection thresholds of the Koppula learner; the alignment learner validates its rules on
// a split of its own and keeps its defaults.
func learnerNamed(name string, opt learn.Options) (align.SetLearner, error) {
	switch name {
	case "koppula":
		return &learn.TreeLearner{Options: opt}, nil
	case "align":
		return &align.Learner{}, nil
	}
	fmt.Fprintf(stderr, "urldedup: -learner %q: want koppula or align\n", name)
	return nil, errUsage
}

// baselines are the static keys every evaluation table starts with.
func baselines() []learn.Baseline {
	return []learn.Baseline{
		{Name: "urlnorm Crawler key (static)", Normalizer: urlnorm.New(urlnorm.Crawler)},
		{Name: "urlnorm Aggressive key (static)", Normalizer: urlnorm.New(urlnorm.Aggressive)},
	}
}

// throughFile returns the set that a rules file written from set gives back: set written with
// WriteTo and read with rules.Load, as urldedup learn and apply do.
func throughFile(set *rules.Set) (*rules.Set, error) {
	var buf bytes.Buffer
	if _, err := set.WriteTo(&buf); err != nil {
		return nil, err
	}
	return rules.Load(&buf, nil)
}

// fileRow measures set through its rules file on clusters as urldedup apply uses it: the loaded
// set's Normalize on the raw URLs, a URL it fails on keeping the key Normalize returns with the
// error (the URL itself when that is empty).
func fileRow(name string, set *rules.Set, st learn.Stats, d time.Duration, clusters []learn.Cluster) (align.Row, error) {
	loaded, err := throughFile(set)
	if err != nil {
		return align.Row{}, fmt.Errorf("%s: rules file: %w", name, err)
	}
	return align.Row{Method: name + ", through the file", Rules: loaded.Len(), Time: d, Stats: st, Metrics: learn.Measure(clusters, fileNormalizer(loaded))}, nil
}

// sideBySide prints, for train.tsv and dev.tsv, the static keys and the alignment learner (and
// with both, the Koppula learner too) learned on one half and measured on the other: in memory,
// and through the rules file (written, loaded and applied to raw URLs as urldedup apply does).
// It ends with the transfer: rules learned on all of train.tsv, through the file, on dev.tsv.
func sideBySide(w io.Writer, dir string, seed uint64, both bool, g learn.Grouping, progress func(string, ...any)) error {
	contenders := []align.Contender{{Name: "DUSTER (learn/align)", Learner: &align.Learner{}}}
	if both {
		contenders = append([]align.Contender{{Name: "Koppula (learn)", Learner: &learn.TreeLearner{}}}, contenders...)
	}
	sets := map[string][]learn.Cluster{}
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		progress("reading %s", name)
		cls, err := readClusters(filepath.Join(dir, name), "", g, false)
		if err != nil {
			return err
		}
		sets[name] = cls
		train, test := learn.Split(cls, seed)
		var rows []align.Row
		for _, b := range baselines() {
			rows = append(rows, align.Row{Method: b.Name, Metrics: learn.Measure(test, b.Normalizer)})
		}
		for _, c := range contenders {
			progress("%s: %s", name, c.Name)
			t0 := time.Now()
			set, st, err := c.Learner.Learn(train)
			d := time.Since(t0)
			if err != nil {
				return fmt.Errorf("learner %q: %w", c.Name, err)
			}
			rows = append(rows, align.Row{Method: c.Name + ", in memory", Rules: set.Len(), Time: d, Stats: st,
				Metrics: learn.Measure(test, learn.SetNormalizer(set))})
			r, err := fileRow(c.Name, set, st, d, test)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		fmt.Fprintf(w, "## %s, unseen half\n\n", name)
		if err := writeRows(w, rows); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## transfer: rules learned on all of train.tsv, through the file, on dev.tsv\n\n")
	var rows []align.Row
	for _, b := range baselines() {
		rows = append(rows, align.Row{Method: b.Name, Metrics: learn.Measure(sets["dev.tsv"], b.Normalizer)})
	}
	for _, c := range contenders {
		progress("transfer: %s", c.Name)
		t0 := time.Now()
		set, st, err := c.Learner.Learn(sets["train.tsv"])
		d := time.Since(t0)
		if err != nil {
			return fmt.Errorf("learner %q: %w", c.Name, err)
		}
		r, err := fileRow(c.Name, set, st, d, sets["dev.tsv"])
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	return writeRows(w, rows)
}

// writeRows writes rows as align.WriteTable does, with a column of rules per learned site.
func writeRows(w io.Writer, rows []align.Row) error {
	if _, err := fmt.Fprintln(w, "| method | rules | rules/site | reduction | max | of max | pair prec. | false-merge | false pairs | learn time |"); err != nil {
		return err
	}
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		t, per := "-", "-"
		if r.Time > 0 {
			t = r.Time.Round(10 * time.Millisecond).String()
		}
		if r.Stats.Sites > 0 {
			per = fmt.Sprintf("%.1f", float64(r.Rules)/float64(r.Stats.Sites))
		}
		if _, err := fmt.Fprintf(w, "| %s | %d | %s | %.4f | %.4f | %.3f | %.4f | %.4f | %d | %s |\n",
			r.Method, r.Rules, per, r.Reduction, r.MaxReduction, r.OfMax, r.PairPrecision, r.FalseMergeRate, r.FalsePairs, t); err != nil {
			return err
		}
	}
	return nil
}
