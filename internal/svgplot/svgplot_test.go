package svgplot

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestNiceCeil(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{0, 1},       // empty data
		{-3, 1},      // nonsense input
		{1, 1},       // 5 x 0.2
		{5, 5},       // exact
		{6, 10},      // next step
		{11, 25},     // 5 x 5
		{333, 500},   // 5 x 100
		{4000, 5000}, // 5 x 1000
		{0.42, 0.5},  // fractions
		{0.0731, 0.1},
	}
	for _, tt := range tests {
		if got := NiceCeil(tt.in); got < tt.want*(1-1e-9) || got > tt.want*(1+1e-9) {
			t.Errorf("NiceCeil(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// The output is well-formed XML with one polyline per series, markers when asked, and the
// labels escaped.
func TestWriteSVG(t *testing.T) {
	c := Chart{
		Title: "a <b> & c", XLabel: "x", YLabel: "y", Diagonal: true,
		Series: []Series{
			{Name: "one", Points: []Point{{0, 0}, {1, 2}, {2, 3}}},
			{Name: "two", Points: []Point{{0, 1}, {2, 1}}, Markers: true},
			{Name: "empty"},
		},
	}
	var b strings.Builder
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v\n%s", err, s)
			}
			break
		}
	}
	if n := strings.Count(s, "<polyline"); n != 3 {
		t.Errorf("%d polylines, want 3", n)
	}
	if n := strings.Count(s, "<circle"); n != 2 {
		t.Errorf("%d markers, want 2", n)
	}
	if !strings.Contains(s, "a &lt;b&gt; &amp; c") {
		t.Errorf("title not escaped")
	}
	if !strings.Contains(s, "stroke-dasharray") {
		t.Errorf("no diagonal")
	}
}

// A long series is thinned to about maxPoints points but keeps its last point.
func TestThinning(t *testing.T) {
	pts := make([]Point, 10001)
	for i := range pts {
		pts[i] = Point{float64(i), float64(i)}
	}
	var b strings.Builder
	(&Chart{Series: []Series{{Name: "long", Points: pts}}}).WriteSVG(&b)
	s := b.String()
	i := strings.Index(s, `points="`)
	line := s[i+8:]
	line = line[:strings.IndexByte(line, '"')]
	n := len(strings.Fields(line))
	if n > 2*maxPoints || n < maxPoints/2 {
		t.Errorf("%d points drawn of 10001, want about %d", n, maxPoints)
	}
	if !strings.HasSuffix(line, "620.0,40.0") {
		t.Errorf("last point missing: ...%s", line[len(line)-30:])
	}
}

func TestTick(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{{0, "0"}, {5, "5"}, {0.2, "0.2"}, {0.25, "0.25"}, {2000, "2000"}, {20000, "20k"}, {250000, "250k"}, {1e6, "1M"}, {1.5e6, "1.5M"}} {
		if got := tick(tt.v); got != tt.want {
			t.Errorf("tick(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
