package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/undust/undust/internal/svgplot"
	"github.com/undust/undust/learn"
)

// writeTradeoff draws the precision-reduction trade-off of the evaluation rows: one line per
// minimum coverage through the precision thresholds, x the reduction as a fraction of the
// maximum possible, y the pair precision on the held-out half. Static baselines are single
// points.
func writeTradeoff(path, title string, rows []learn.Row) error {
	byCov := map[int][]svgplot.Point{}
	var covs []int
	var series []svgplot.Series
	for _, r := range rows {
		p := svgplot.Point{X: r.OfMax, Y: r.PairPrecision}
		switch {
		case r.Method == "learned":
			if _, ok := byCov[r.MinCoverage]; !ok {
				covs = append(covs, r.MinCoverage)
			}
			byCov[r.MinCoverage] = append(byCov[r.MinCoverage], p)
		case r.Precision == "":
			series = append(series, svgplot.Series{Name: r.Method, Points: []svgplot.Point{p}, Markers: true})
		}
	}
	for _, c := range covs {
		series = append(series, svgplot.Series{Name: fmt.Sprintf("learned, min coverage %d", c), Points: byCov[c], Markers: true})
	}
	return writeChart(path, &svgplot.Chart{
		Title: title, XLabel: "reduction, fraction of the maximum possible", YLabel: "pair precision (held-out half)",
		XMax: 1, YMax: 1, Series: series, LegendBottomLeft: true,
	})
}

// writeCoverage draws the paper's Figure 3: rules sorted by coverage (x) against the cumulative
// coverage of the first x rules (y).
func writeCoverage(path, title string, coverages []int) error {
	cov := sortedCoverages(coverages)
	pts := make([]svgplot.Point, 0, len(cov)+1)
	pts = append(pts, svgplot.Point{})
	sum := 0
	for i, c := range cov {
		sum += c
		pts = append(pts, svgplot.Point{X: float64(i + 1), Y: float64(sum)})
	}
	return writeChart(path, &svgplot.Chart{
		Title: title, XLabel: "number of rules (sorted by coverage)", YLabel: "cumulative coverage (URLs)",
		Series: []svgplot.Series{{Name: "all generalized rules", Points: pts}},
	})
}

func writeChart(path string, c *svgplot.Chart) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = c.WriteSVG(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
