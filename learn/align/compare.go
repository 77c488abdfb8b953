package align

import (
	"fmt"
	"io"
	"time"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

// A SetLearner learns a rule set from dup clusters; *Learner is one, and so is package learn's
// decision-tree learner once it returns a *rules.Set. Implementations must not modify the
// clusters.
type SetLearner interface {
	Learn(clusters []learn.Cluster) (*rules.Set, learn.Stats, error)
}

// A Contender is a learner with the name its row of the comparison gets. It is a plain value;
// Compare calls its Learner from one goroutine.
type Contender struct {
	Name    string
	Learner SetLearner
}

// A Row is one line of the side-by-side comparison. It is a plain value.
type Row struct {
	Method string
	Rules  int           // rules in the learned set; 0 for a baseline
	Time   time.Duration // learning time; 0 for a baseline
	Stats  learn.Stats   // learning statistics; zero for a baseline
	learn.Metrics
}

// Compare splits clusters 50/50 by learn.InHalf(id, seed), as learn.Evaluate does, learns with
// every contender on half 0, and measures each learned set (through learn.SetNormalizer) and each
// baseline with learn.Measure on half 1, the clusters no learner saw. Rows come in the order
// baselines, then contenders. It stops at the first learner error. It does not modify clusters;
// it calls the contenders and baselines one after the other, so they need not be safe for
// concurrent use.
func Compare(clusters []learn.Cluster, seed uint64, contenders []Contender, baselines []learn.Baseline) ([]Row, error) {
	train, test := learn.Split(clusters, seed)
	var rows []Row
	for _, b := range baselines {
		rows = append(rows, Row{Method: b.Name, Metrics: learn.Measure(test, b.Normalizer)})
	}
	for _, c := range contenders {
		t0 := time.Now()
		set, st, err := c.Learner.Learn(train)
		d := time.Since(t0)
		if err != nil {
			return rows, fmt.Errorf("align: learner %q: %w", c.Name, err)
		}
		rows = append(rows, Row{Method: c.Name, Rules: set.Len(), Time: d, Stats: st,
			Metrics: learn.Measure(test, learn.SetNormalizer(set))})
	}
	return rows, nil
}

// WriteTable writes rows as a Markdown table: rules, reduction (and its share of the maximum),
// pair precision, false-merge rate, false pairs and learning time.
func WriteTable(w io.Writer, rows []Row) error {
	if _, err := fmt.Fprintln(w, "| method | rules | reduction | max | of max | pair prec. | false-merge | false pairs | learn time |"); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"); err != nil {
		return err
	}
	for _, r := range rows {
		t := "-"
		if r.Time > 0 {
			t = r.Time.Round(10 * time.Millisecond).String()
		}
		if _, err := fmt.Fprintf(w, "| %s | %d | %.4f | %.4f | %.3f | %.4f | %.4f | %d | %s |\n",
			r.Method, r.Rules, r.Reduction, r.MaxReduction, r.OfMax, r.PairPrecision, r.FalseMergeRate, r.FalsePairs, t); err != nil {
			return err
		}
	}
	return nil
}
