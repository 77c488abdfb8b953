package learn

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readAllTSV(in string, opt ReaderOptions) ([]Record, int, error) {
	r := NewTSVReader(strings.NewReader(in), opt)
	var out []Record
	for r.Next() {
		out = append(out, r.Record())
	}
	return out, r.Skipped(), r.Err()
}

func TestTSVReader(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		opt     ReaderOptions
		want    []Record
		skipped int
		err     error // errors.Is target; nil means success
		errLine int
	}{
		// four columns, header comment and blank line skipped
		{"full", "# cluster\turl\timportance\tinlinks\n\nh1-p1\thttp://a.com/x\t0.5\t3\n",
			ReaderOptions{}, []Record{{"h1-p1", "http://a.com/x", 0.5, 3, 3}}, 0, nil, 0},
		// two and three columns are allowed; CRLF trimmed; no final newline
		{"short", "h1-p1\thttp://a.com/\r\nh1-p2\thttp://a.com/y\t2",
			ReaderOptions{}, []Record{{"h1-p1", "http://a.com/", 0, 0, 1}, {"h1-p2", "http://a.com/y", 2, 0, 2}}, 0, nil, 0},
		// one column is a field-count error with its line number
		{"one col", "h1-p1\thttp://a/\nbad\n", ReaderOptions{}, []Record{{"h1-p1", "http://a/", 0, 0, 1}}, 0, ErrFieldCount, 2},
		// five columns too
		{"five col", "a\thttp://a/\t1\t1\tx\n", ReaderOptions{}, nil, 0, ErrFieldCount, 1},
		// importance must be a non-negative number
		{"bad importance", "a\thttp://a/\tNaN\n", ReaderOptions{}, nil, 0, ErrBadField, 1},
		// inlinks must be an integer
		{"bad inlinks", "a\thttp://a/\t1\t1.5\n", ReaderOptions{}, nil, 0, ErrBadField, 1},
		// a URL with a space is malformed
		{"bad url", "a\thttp://a/ b\n", ReaderOptions{}, nil, 0, ErrBadField, 1},
		// an empty cluster id is malformed
		{"empty id", "\thttp://a/\n", ReaderOptions{}, nil, 0, ErrBadField, 1},
		// SkipBad counts and skips
		{"skip", "x\nh-1\thttp://a/\n\t\t\t\t\t\n", ReaderOptions{SkipBad: true}, []Record{{"h-1", "http://a/", 0, 0, 2}}, 2, nil, 0},
		// over-long line is an error, then reading resumes when skipping
		{"long", "h-1\thttp://a/" + strings.Repeat("x", 100) + "\nh-2\thttp://b/\n", ReaderOptions{SkipBad: true, MaxLineBytes: 50},
			[]Record{{"h-2", "http://b/", 0, 0, 2}}, 1, nil, 0},
		// over-long line without skipping
		{"long err", strings.Repeat("y", 200000), ReaderOptions{MaxLineBytes: 1000}, nil, 0, ErrLineTooLong, 1},
	}
	for _, tc := range tests {
		got, skipped, err := readAllTSV(tc.in, tc.opt)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: records mismatch (-want +got):\n%s", tc.name, diff)
		}
		if skipped != tc.skipped {
			t.Errorf("%s: skipped %d, want %d", tc.name, skipped, tc.skipped)
		}
		if tc.err == nil {
			if err != nil {
				t.Errorf("%s: error %v", tc.name, err)
			}
			continue
		}
		var pe *ParseError
		if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Line != tc.errLine {
			t.Errorf("%s: error %v, want %v at line %d", tc.name, err, tc.err, tc.errLine)
		}
	}
}

func TestParseErrorMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\n", `learn: line 1: "a": wrong number of fields`},
		{"c\thttp://a.com/\nc\thttp://a.com/\tabc\n", `learn: line 2: importance "abc": malformed field`}, // the column is named
		{"c\thttp://a.com/\t1\t-2\n", `learn: line 1: inlinks "-2": malformed field`},
		{"c\thttp://a b/\n", `learn: line 1: url "http://a b/": malformed field`},
		{"\thttp://a.com/\n", `learn: line 1: cluster "": malformed field`},
	}
	for _, tc := range tests {
		_, _, err := readAllTSV(tc.in, ReaderOptions{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("read %q: error %v, want %s", tc.in, err, tc.want)
		}
	}
}

func TestReadClusters(t *testing.T) {
	in := "h1-p1\thttp://a.com/x\t1\t5\nh2-p1\thttp://b.com/\t1\t1\nh1-p1\thttp://a.com/x?s=1\t1\t1\nh1-p1\thttp://a.com/x\t1\t5\n"
	cls, _, err := ReadClusters(strings.NewReader(in), ReaderOptions{Sites: ByID})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cluster{
		{ID: "h1-p1", Site: "h1", URLs: []URL{{"http://a.com/x", 1, 5}, {"http://a.com/x?s=1", 1, 1}}}, // duplicate line dropped
		{ID: "h2-p1", Site: "h2", URLs: []URL{{"http://b.com/", 1, 1}}},
	}
	if diff := cmp.Diff(want, cls); diff != "" {
		t.Errorf("ReadClusters mismatch (-want +got):\n%s", diff)
	}
}

// TestReadClustersSites checks the site of every cluster under each Grouping.
func TestReadClustersSites(t *testing.T) {
	// Site x: www.x.com and x.com share cluster a; mirror.y.org joins them through cluster c;
	// x.com has the most URLs (3). blog.x.com shares no cluster with them. z.net is alone,
	// "bad" has no host.
	in := "a\thttp://www.x.com/1\na\thttp://x.com/1\nb\thttp://x.com/2\nc\thttp://x.com/3\n" +
		"c\thttps://MIRROR.y.org/3\nd\thttp://blog.x.com/p\ne-1\thttp://z.net/\nbad\tnot-a-url\n" +
		"frost-atlas.com-17\thttp://frost-atlas.com/\n"
	tests := []struct {
		g    Grouping
		want []string // sites of a, b, c, d, e-1, bad, frost-atlas.com-17
	}{
		{ByHost, []string{"x.com", "x.com", "x.com", "blog.x.com", "z.net", "", "frost-atlas.com"}},
		{ByDomain, []string{"x.com", "x.com", "x.com", "x.com", "z.net", "", "frost-atlas.com"}}, // blog.x.com joins by its domain
		{ByID, []string{"a", "b", "c", "d", "e", "bad", "frost-atlas.com"}},                      // up to the last "-"
	}
	for _, tc := range tests {
		cls, _, err := ReadClusters(strings.NewReader(in), ReaderOptions{Sites: tc.g})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cls {
			got = append(got, c.Site)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ReadClusters Sites=%v mismatch (-want +got):\n%s", tc.g, diff)
		}
	}
}

// TestJoinSitesReference compares JoinSites with a slow reference: two clusters are in one site
// iff a chain of clusters sharing hosts links them.
func TestJoinSitesReference(t *testing.T) {
	hosts := []string{"a.com", "www.a.com", "b.com", "c.com", "d.com", "e.com"}
	for seed := range 50 {
		var cls []Cluster
		x := uint32(seed*7919 + 1)
		next := func(n int) int { x = x*1103515245 + 12345; return int(x>>16) % n }
		for i := range 12 {
			c := Cluster{ID: strconv.Itoa(i)}
			for range 1 + next(2) {
				c.URLs = append(c.URLs, URL{Raw: "http://" + hosts[next(len(hosts))] + "/" + strconv.Itoa(next(9))})
			}
			cls = append(cls, c)
		}
		JoinSites(cls, ByHost)
		// Reference: linked[i][j] by transitive closure over shared hosts.
		n := len(cls)
		linked := make([][]bool, n)
		for i := range n {
			linked[i] = make([]bool, n)
			for j := range n {
				linked[i][j] = i == j || shareHost(cls[i], cls[j])
			}
		}
		for k := range n {
			for i := range n {
				for j := range n {
					linked[i][j] = linked[i][j] || linked[i][k] && linked[k][j]
				}
			}
		}
		for i := range n {
			for j := range n {
				if (cls[i].Site == cls[j].Site) != linked[i][j] {
					t.Fatalf("seed %d: clusters %v and %v: sites %q and %q, linked %v", seed, cls[i].URLs, cls[j].URLs, cls[i].Site, cls[j].Site, linked[i][j])
				}
			}
		}
	}
}

func shareHost(a, b Cluster) bool {
	for _, u := range a.URLs {
		for _, v := range b.URLs {
			if hostOfRaw(u.Raw) == hostOfRaw(v.Raw) {
				return true
			}
		}
	}
	return false
}

func TestSplit(t *testing.T) {
	var cls []Cluster
	for i := range 2000 {
		cls = append(cls, Cluster{ID: "h" + string(rune('a'+i%4)) + "-p" + strings.Repeat("1", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26))})
	}
	a, b := Split(cls, 1)
	if len(a)+len(b) != len(cls) || len(a) < 900 || len(b) < 900 {
		t.Fatalf("split %d/%d of %d", len(a), len(b), len(cls))
	}
	for _, c := range a {
		if InHalf(c.ID, 1) != 0 {
			t.Fatalf("%s in half a but InHalf=1", c.ID)
		}
	}
	// a different seed gives a different split
	a2, _ := Split(cls, 2)
	if cmp.Equal(a, a2) {
		t.Error("seeds 1 and 2 give the same split")
	}
}

// cdxFixture is written for these tests (not copied): a CDX header, two http/https captures of
// one page, a revisit, two redirects sharing a digest, a 404 and a capture on another host.
const cdxFixture = ` CDX N b a m s k r M S V g
com,example)/ 20200101000000 http://example.com/ text/html 200 AAAA - - 10 0 x.warc.gz
com,example)/ 20200101000001 https://example.com/ text/html 200 AAAA - - 10 10 x.warc.gz
com,example)/ 20200101000002 https://example.com/ warc/revisit - AAAA - - 10 20 x.warc.gz
com,example)/a 20200101000003 http://example.com/a unk 302 RRRR - - 10 30 x.warc.gz
com,example)/b 20200101000004 http://example.com/b unk 302 RRRR - - 10 40 x.warc.gz
com,example)/c 20200101000005 http://example.com/c text/html 404 NNNN - - 10 50 x.warc.gz
com,example,www)/ 20200101000006 http://www.example.com/ text/html 200 AAAA - - 10 60 x.warc.gz
`

const cdxjFixture = `!meta {"x": 1}
com,example)/ 20200101000000 {"url": "http://example.com/", "mime": "text/html", "status": "200", "digest": "AAAA"}
com,example)/ 20200101000001 {"url": "https://example.com/", "mime": "text/html", "status": "200", "digest": "AAAA"}
com,example)/ 20200101000002 {"url": "https://example.com/", "mime": "warc/revisit", "digest": "AAAA"}
com,example)/a 20200101000003 {"url": "http://example.com/a", "status": "302", "digest": "RRRR"}
com,example)/b 20200101000004 {"url": "http://example.com/b", "status": "302", "digest": "RRRR"}
com,example,www)/ 20200101000006 {"url": "http://www.example.com/", "status": "200", "digest": "AAAA"}
`

func TestCaptureClusters(t *testing.T) {
	tests := []struct {
		name string
		in   string
		g    Grouping
		want []Cluster
	}{
		// by host: the www host is its own site; revisit, redirects and 404 skipped
		{"cdx host", cdxFixture, ByHost, []Cluster{
			{ID: "example.com AAAA", Site: "example.com", URLs: []URL{{Raw: "http://example.com/"}, {Raw: "https://example.com/"}}},
			{ID: "www.example.com AAAA", Site: "www.example.com", URLs: []URL{{Raw: "http://www.example.com/"}}},
		}},
		// by registrable domain: the www capture joins the cluster
		{"cdx domain", cdxFixture, ByDomain, []Cluster{
			{ID: "example.com AAAA", Site: "example.com", URLs: []URL{{Raw: "http://example.com/"}, {Raw: "http://www.example.com/"}, {Raw: "https://example.com/"}}},
		}},
		// CDXJ gives the same clusters as CDX
		{"cdxj host", cdxjFixture, ByHost, []Cluster{
			{ID: "example.com AAAA", Site: "example.com", URLs: []URL{{Raw: "http://example.com/"}, {Raw: "https://example.com/"}}},
			{ID: "www.example.com AAAA", Site: "www.example.com", URLs: []URL{{Raw: "http://www.example.com/"}}},
		}},
	}
	for _, tc := range tests {
		got, err := CaptureClusters(NewCDXReader(strings.NewReader(tc.in), ReaderOptions{}), tc.g)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: CaptureClusters mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestCDXReaderErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
		line int
	}{
		// a CDX line with too few fields for the header's layout
		{"fields", " CDX N b a m s k\nx y z\n", ErrFieldCount, 2},
		// a header without the digest field
		{"header", " CDX N b a m s\n", ErrNoField, 1},
		// broken JSON in a CDXJ line
		{"json", "k 2020 {\"url\": \n", ErrBadField, 1},
		// a CDXJ line without a URL
		{"json url", "k 2020 {\"status\": \"200\"}\n", ErrBadField, 1},
	}
	for _, tc := range tests {
		r := NewCDXReader(strings.NewReader(tc.in), ReaderOptions{})
		for r.Next() {
		}
		var pe *ParseError
		if !errors.Is(r.Err(), tc.err) || !errors.As(r.Err(), &pe) || pe.Line != tc.line {
			t.Errorf("%s: error %v, want %v at line %d", tc.name, r.Err(), tc.err, tc.line)
		}
		r = NewCDXReader(strings.NewReader(tc.in), ReaderOptions{SkipBad: true})
		for r.Next() {
		}
		if r.Err() != nil || r.Skipped() != 1 {
			t.Errorf("%s: with SkipBad: err %v, skipped %d", tc.name, r.Err(), r.Skipped())
		}
	}
}

// TestTSVReaderAllocs checks the streaming promise: a record costs one allocation (its URL
// string) once the cluster id is interned.
func TestTSVReaderAllocs(t *testing.T) {
	line := "h1-p1\thttp://a.com/x?sid=0123456789\t0.5\t3\n"
	in := strings.Repeat(line, 1000)
	r := NewTSVReader(strings.NewReader(in), ReaderOptions{})
	r.Next() // intern the id, warm the buffers
	allocs := testing.AllocsPerRun(500, func() {
		if !r.Next() {
			t.Fatal("input exhausted")
		}
	})
	if allocs > 1 {
		t.Errorf("%.1f allocations per record, want at most 1", allocs)
	}
}
