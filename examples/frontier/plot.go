package main

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// A series is one line of the plot: y (distinct pages discovered so far) after each fetch.
type series struct {
	name  string
	color string
	y     []int
}

// writeSVG draws the discovery curves of the passes: distinct pages discovered (y) against
// pages fetched (x). A crawler that wastes no fetch on duplicates climbs at 45 degrees.
// Hand-written SVG keeps the example free of plotting dependencies.
func writeSVG(w io.Writer, title string, ss []series) error {
	const (
		width, height = 640, 400
		left, right   = 60, 20
		top, bottom   = 40, 50
		plotW, plotH  = width - left - right, height - top - bottom
	)
	maxX, maxY := 1, 1
	for _, s := range ss {
		maxX = max(maxX, len(s.y))
		for _, v := range s.y {
			maxY = max(maxY, v)
		}
	}
	maxX, maxY = niceCeil(maxX), niceCeil(maxY)
	px := func(x int) float64 { return left + float64(x)*plotW/float64(maxX) }
	py := func(y int) float64 { return top + plotH - float64(y)*plotH/float64(maxY) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" text-anchor="middle">%s</text>`+"\n", width/2, html.EscapeString(title))
	// Axes, ticks and grid.
	for i := 0; i <= 5; i++ {
		x, y := maxX*i/5, maxY*i/5
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", px(x), top, px(x), top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", px(x), top+plotH+16, x)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, py(y), left+plotW, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%d</text>`+"\n", left-6, py(y)+4, y)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", left, top, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">pages fetched</text>`+"\n", left+plotW/2, height-12)
	fmt.Fprintf(&b, `<text x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">distinct pages discovered</text>`+"\n", top+plotH/2, top+plotH/2)
	// The ideal: every fetch a new page.
	d := min(maxX, maxY)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 4"/>`+"\n", px(0), py(0), px(d), py(d))
	for i, s := range ss {
		var pts strings.Builder
		fmt.Fprintf(&pts, "%.1f,%.1f", px(0), py(0))
		// At most ~600 points a line: a step that keeps the plot small.
		step := max(1, len(s.y)/600)
		for x := 0; x < len(s.y); x += step {
			fmt.Fprintf(&pts, " %.1f,%.1f", px(x+1), py(s.y[x]))
		}
		if n := len(s.y); n > 0 {
			fmt.Fprintf(&pts, " %.1f,%.1f", px(n), py(s.y[n-1]))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", s.color, pts.String())
		ly := top + 16 + 18*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", left+plotW-200, ly, left+plotW-176, ly, s.color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", left+plotW-170, ly+4, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// niceCeil rounds n up to 5 times 1, 2 or 5 times a power of ten, for axis ticks in fifths.
func niceCeil(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if 5*m*p >= n {
				return 5 * m * p
			}
		}
	}
}
