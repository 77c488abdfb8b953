package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/align"
	"github.com/undust/undust/urlnorm"
)

// learnerNamed returns the learner a -learner flag names: "koppula", the decision-tree learner
// of package learn, or "align", the multiple-alignment learner of package learn/align. Koppula
// is the default: on the held-out halves of the dupclusters sets (2026-11-21) it reduces more
// on train.tsv (0.760 of the maximum against 0.732) with fewer rules (1232 against 1987), and
// less on dev.tsv (0.777 against 0.796), both learners at pair precision >= 0.9998. opt sets the
// selection thresholds of the Koppula learner; the alignment learner validates its rules on a
// split of its own and keeps its defaults.
func learnerNamed(name string, opt learn.Options) (align.SetLearner, error) {
	switch name {
	case "koppula":
		return &learn.TreeLearner{Options: opt}, nil
	case "align":
		return &align.Learner{}, nil
	}
	fmt.Fprintf(os.Stderr, "urldedup: -learner %q: want koppula or align\n", name)
	return nil, errUsage
}

// baselines are the static keys every evaluation table starts with.
func baselines() []learn.Baseline {
	return []learn.Baseline{
		{Name: "urlnorm Crawler key (static)", Normalizer: urlnorm.New(urlnorm.Crawler)},
		{Name: "urlnorm Aggressive key (static)", Normalizer: urlnorm.New(urlnorm.Aggressive)},
	}
}

// sideBySide prints, for train.tsv and dev.tsv, the static keys and the alignment learner (and
// with both, the Koppula learner too) learned on one half and measured on the other.
func sideBySide(w io.Writer, dir string, seed uint64, both bool) error {
	contenders := []align.Contender{{Name: "DUSTER (learn/align)", Learner: &align.Learner{}}}
	if both {
		contenders = append([]align.Contender{{Name: "Koppula (learn)", Learner: &learn.TreeLearner{}}}, contenders...)
	}
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		cls, err := readClusters(filepath.Join(dir, name), "", false)
		if err != nil {
			return err
		}
		rows, err := align.Compare(cls, seed, contenders, baselines())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "## %s, unseen half\n\n", name)
		if err := align.WriteTable(w, rows); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}
