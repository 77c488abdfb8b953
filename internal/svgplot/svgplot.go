// Package svgplot draws small line charts as SVG for the example commands, so that they need
// no plotting dependency. It knows linear axes, lines with optional point markers, a legend,
// and an optional reference line; nothing more.
package svgplot

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// A Point is one (x, y) pair of a series.
type Point struct{ X, Y float64 }

// A Series is one line of a chart.
type Series struct {
	Name    string
	Color   string // any SVG color; "" picks one from a fixed palette
	Points  []Point
	Markers bool // draw a dot at every point
}

// A Chart is a line chart. The zero value of each field has a sensible meaning: axes start at
// 0 and end at a round number above the largest value.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	XMax, YMax            float64 // fixed axis ends; 0 means a round number above the data
	// Diagonal draws the dashed line y = x, the ideal of a discovery curve.
	Diagonal bool
	// LegendBottomLeft puts the legend in the lower left corner instead of the upper right.
	LegendBottomLeft bool
}

var palette = []string{"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}

const (
	width, height = 640, 400
	left, right   = 64, 20
	top, bottom   = 40, 50
	plotW, plotH  = width - left - right, height - top - bottom
	maxPoints     = 600 // per series; longer series are thinned for a small file
)

// WriteSVG writes the chart as an SVG document.
func (c *Chart) WriteSVG(w io.Writer) error {
	xmax, ymax := c.XMax, c.YMax
	if xmax <= 0 || ymax <= 0 {
		dx, dy := 0.0, 0.0
		for _, s := range c.Series {
			for _, p := range s.Points {
				dx, dy = math.Max(dx, p.X), math.Max(dy, p.Y)
			}
		}
		if xmax <= 0 {
			xmax = NiceCeil(dx)
		}
		if ymax <= 0 {
			ymax = NiceCeil(dy)
		}
	}
	px := func(x float64) float64 { return left + x*plotW/xmax }
	py := func(y float64) float64 { return top + plotH - y*plotH/ymax }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" text-anchor="middle">%s</text>`+"\n", width/2, html.EscapeString(c.Title))
	for i := 0; i <= 5; i++ {
		x, y := xmax*float64(i)/5, ymax*float64(i)/5
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", px(x), top, px(x), top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px(x), top+plotH+16, tick(x))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, py(y), left+plotW, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, py(y)+4, tick(y))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", left, top, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", left+plotW/2, height-12, html.EscapeString(c.XLabel))
	fmt.Fprintf(&b, `<text x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">%s</text>`+"\n", top+plotH/2, top+plotH/2, html.EscapeString(c.YLabel))
	if c.Diagonal {
		d := math.Min(xmax, ymax)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 4"/>`+"\n", px(0), py(0), px(d), py(d))
	}
	for i, s := range c.Series {
		color := s.Color
		if color == "" {
			color = palette[i%len(palette)]
		}
		step := max(1, len(s.Points)/maxPoints)
		var pts strings.Builder
		for j := 0; j < len(s.Points); j += step {
			fmt.Fprintf(&pts, "%.1f,%.1f ", px(s.Points[j].X), py(s.Points[j].Y))
		}
		if n := len(s.Points); n > 0 && (n-1)%step != 0 {
			fmt.Fprintf(&pts, "%.1f,%.1f", px(s.Points[n-1].X), py(s.Points[n-1].Y))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", color, strings.TrimSpace(pts.String()))
		if s.Markers {
			for _, p := range s.Points {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(p.X), py(p.Y), color)
			}
		}
		lx, ly := left+plotW-220, top+16+18*i
		if c.LegendBottomLeft {
			lx, ly = left+12, top+plotH-12-18*(len(c.Series)-1-i)
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", lx, ly, lx+24, ly, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", lx+30, ly+4, html.EscapeString(s.Name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// NiceCeil rounds v up to 5 times 1, 2 or 5 times a power of ten (so that ticks in fifths are
// round); 1 for v <= 0.
func NiceCeil(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v/5)))
	for {
		for _, m := range []float64{1, 2, 5} {
			if 5*m*p >= v*(1-1e-12) {
				return 5 * m * p
			}
		}
		p *= 10
	}
}

func tick(v float64) string {
	switch {
	case v >= 1e6 && math.Mod(v, 1e5) == 0:
		return tick(v/1e6) + "M"
	case v >= 1e4 && math.Mod(v, 100) == 0:
		return tick(v/1e3) + "k"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}
