package rules

import (
	"bytes"
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/urlnorm"
)

// TestLoadLongLine checks that lines longer than the reader's 64 KiB buffer (up to the 1 MiB
// limit) are read whole: a rule written with a 70 KB literal reads back equal, a "#" at the
// buffer boundary does not make the line a comment, and a line above 1 MiB is refused.
func TestLoadLongLine(t *testing.T) {
	for _, tc := range []struct {
		name        string
		lit, hashAt int
	}{
		{"70KB literal", 70_000, -1},
		{"at the limit", maxLineLen - 200, -1},
		{"# at byte 65536 of the file", 70_000, 65536 - (len(hostile.RulesHeaderV1) + len(`rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`))},
		{"# at byte 65535 of the line", 70_000, 65535 - len(`rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`)},
		// The old reader's second chunk overwrote the first from the line's byte 65536 on: a
		// "#" there made the line a comment, and the rule was dropped without an error.
		{"# at byte 65536 of the line", 70_000, 65536 - len(`rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := hostile.LongLiteralRule(tc.lit, tc.hashAt)
			s, err := Load(bytes.NewReader(hostile.RulesFileV1(line)), nil)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if s.Len() != 1 {
				t.Fatalf("Len() = %d, want 1", s.Len())
			}
			r := s.Rule(0)
			if got := r.Transform[0].Value; got != line[len(line)-2-tc.lit:len(line)-2] {
				t.Fatalf("literal of %d bytes read back as %d bytes", tc.lit, len(got))
			}
			// What WriteTo writes of it, Load reads back.
			var b bytes.Buffer
			s.WriteTo(&b)
			s2, err := Load(&b, nil)
			if err != nil || s2.Len() != 1 || s2.Rule(0).Transform[0].Value != r.Transform[0].Value {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
	// Above 1 MiB: refused with ErrFormat, having read no more than a buffer past the limit.
	line := hostile.LongLiteralRule(4*maxLineLen, -1)
	s := &Set{}
	n, err := s.ReadFrom(strings.NewReader(hostile.RulesHeaderV1 + line))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrFormat) {
		t.Fatalf("ReadFrom(line of 4 MiB) = %v, want a ParseError of line 2 wrapping ErrFormat", err)
	}
	if n > maxLineLen+256<<10 {
		t.Errorf("ReadFrom read %d bytes of a 4 MiB line, want about 1 MiB", n)
	}
}

// truncationSet is a learned-like set with deep-token patterns, for the truncation tests.
func truncationSet(t *testing.T) []byte {
	t.Helper()
	rs := genRules(loadSample(t), 60, 1)
	s, err := NewSet(rs, &Options{Patterns: map[string]Patterns{"360.yahoo.com": &splitter{seps: "-"}, "a.example": &splitter{seps: "_."}}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadTruncated cuts a written set at every offset: each cut file is an error, and only the
// whole file loads, to the set that was written.
func TestLoadTruncated(t *testing.T) {
	file := truncationSet(t)
	opts := &Options{ParsePatterns: parseSplitter}
	whole, err := Load(bytes.NewReader(file), opts)
	if err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut < len(file); cut++ {
		s, err := Load(bytes.NewReader(file[:cut]), opts)
		if err == nil {
			t.Fatalf("Load(file cut at %d of %d) = %d rules, no error; the cut is after %q", cut, len(file), s.Len(), tail(file[:cut]))
		}
		if !errors.Is(err, ErrFormat) {
			t.Fatalf("Load(file cut at %d) = %v, want ErrFormat", cut, err)
		}
	}
	// A changed byte is an error too (the checksum), wherever it is.
	for i := 0; i < len(file); i += 97 {
		c := bytes.Clone(file)
		c[i] ^= 0x01
		if c[i] == '\n' || file[i] == '\n' {
			continue
		}
		if s, err := Load(bytes.NewReader(c), opts); err == nil {
			t.Fatalf("Load(file with byte %d changed) = %d rules, no error", i, s.Len())
		}
	}
	var b bytes.Buffer
	whole.WriteTo(&b)
	if !bytes.Equal(b.Bytes(), file) {
		t.Errorf("the whole file does not read back to the set written")
	}
}

func tail(b []byte) string {
	if len(b) > 40 {
		b = b[len(b)-40:]
	}
	return string(b)
}

// TestLoadCRLF checks that a file with CRLF line endings reads as the same set, in both
// versions (the v2 checksum is over lines, not bytes).
func TestLoadCRLF(t *testing.T) {
	file := truncationSet(t)
	opts := &Options{ParsePatterns: parseSplitter}
	want, err := Load(bytes.NewReader(file), opts)
	if err != nil {
		t.Fatal(err)
	}
	v1 := bytes.Replace(file, []byte("undust-rules v2\n"), []byte("undust-rules v1\n"), 1)
	v1 = v1[:bytes.LastIndex(v1[:len(v1)-1], []byte("\n"))+1] // without the end line
	for name, f := range map[string][]byte{"v1": v1, "v2": file} {
		crlf := bytes.ReplaceAll(f, []byte("\n"), []byte("\r\n"))
		got, err := Load(bytes.NewReader(crlf), opts)
		if err != nil {
			t.Fatalf("%s: Load(CRLF) = %v", name, err)
		}
		var a, b bytes.Buffer
		want.WriteTo(&a)
		got.WriteTo(&b)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: CRLF file reads as another set", name)
		}
	}
}

// TestMaxRules checks the bound on the number of rules, in NewSet and in the reader.
func TestMaxRules(t *testing.T) {
	text := hostile.ManyHostRules(10)
	for _, tc := range []struct {
		max  int
		fail bool
	}{
		{0, false},  // the default, DefaultMaxRules
		{10, false}, // exactly at the bound
		{9, true},
		{-1, false}, // no bound
	} {
		_, err := Load(bytes.NewReader(hostile.RulesFileV1(text)), &Options{MaxRules: tc.max})
		if tc.fail != errors.Is(err, ErrTooManyRules) {
			t.Errorf("Load(10 rules, MaxRules %d) = %v, want ErrTooManyRules: %v", tc.max, err, tc.fail)
		}
		var pe *ParseError
		if tc.fail && (!errors.As(err, &pe) || pe.Line != 11) {
			t.Errorf("Load(10 rules, MaxRules %d) = %v, want the error at line 11", tc.max, err)
		}
	}
	s, err := Load(bytes.NewReader(hostile.RulesFileV1(text)), nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]Rule, s.Len())
	for i := range rs {
		rs[i] = s.Rule(i)
	}
	if _, err := NewSet(rs, &Options{MaxRules: 9}); !errors.Is(err, ErrTooManyRules) {
		t.Errorf("NewSet(10 rules, MaxRules 9) = %v, want ErrTooManyRules", err)
	}
}

// TestNormalizeDistinctKeys compares Normalize and AppendNormalize with the reference path with
// the linear scan (normalizeSlow, computed first; then each fast function over the URLs back to
// back, most of one host) on rules that each have a key of their own, on URLs of many query
// parameters (indexed by name in the view) that match all, some or none of them, and
// view.lookup with the scan (lookupSlow) on each.
func TestNormalizeDistinctKeys(t *testing.T) {
	const n = 300
	text := hostile.DistinctKeyRules(n) +
		// rules that change a URL, below and above the others in precedence
		"rule host=h.example cov=1000 prec=1 sup=1 if query(\"k7\")=\"w\" then query(\"k7\")=\"v\"\n" +
		"rule host=h.example cov=0 prec=1 sup=1 if query(\"k3\")=* then query(\"k3\")=-\n" +
		"rule host=h.example cov=0 prec=1 sup=1 if query(\"k5\")=* then query(\"k5\")=upper\n"
	s, err := Load(bytes.NewReader(hostile.RulesFileV1(text)), nil)
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{
		hostile.DistinctKeyURL(n), // every rule matches
		hostile.DistinctKeyURL(20),
		hostile.DistinctKeyURL(3),
		strings.Replace(hostile.DistinctKeyURL(40), "k7=v", "k7=w", 1),
		strings.Replace(hostile.DistinctKeyURL(40), "k5=v", "k5=V", 1) + "&k5=v&k9", // a second occurrence, a bare name
		"http://h.example/?" + strings.Repeat("k1=v&", 30) + "k2",
		"http://other.example/?k1=v",
	}
	want := refResults(urls, s.normalizeSlow)
	checkFastSeq(t, "distinct keys", s, urls, want, s.normalizeSlow)
	for _, u := range urls {
		var v view
		if err := v.load(u, s); err != nil {
			t.Fatal(err)
		}
		for i := range n + 2 {
			for _, pos := range []int16{1, 2, 30} {
				k := urlnorm.Key{Part: urlnorm.PartQuery, Name: "k" + strconv.Itoa(i), Pos: pos}
				gv, gok := v.lookup(k)
				wv, wok := v.lookupSlow(k)
				if gv != wv || gok != wok {
					t.Fatalf("lookup(%v) in %.60q = %q, %v; the scan gives %q, %v", k, u, gv, gok, wv, wok)
				}
			}
		}
	}
}

// The costs of the loader, the index build and Normalize grow at most linearly with the input
// (hostile.Linear: bytes allocated and CPU time per doubling).

// growth is the bound of the rules tests: bytes may grow by 3.2 per doubling, for the jitter
// of slices that double their capacity (quadratic growth is 4).
func growth(sizes []int) hostile.Growth {
	return hostile.Growth{Sizes: sizes, MaxBytesRatio: 3.2, Repeat: 5}
}

func TestLinearLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	files := map[int][]byte{}
	sizes := []int{1 << 11, 1 << 12, 1 << 13}
	for _, n := range sizes {
		files[n] = hostile.RulesFileV1(hostile.ManyHostRules(n))
	}
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		if _, err := Load(bytes.NewReader(files[n]), nil); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}

func TestLinearLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	files := map[int][]byte{}
	sizes := []int{1 << 17, 1 << 18, 1 << 19}
	for _, n := range sizes {
		files[n] = hostile.RulesFileV1(hostile.LongLiteralRule(n, -1))
	}
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		if _, err := Load(bytes.NewReader(files[n]), nil); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}

func TestLinearManyConditions(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	files := map[int][]byte{}
	sizes := []int{1 << 10, 1 << 11, 1 << 12}
	for _, n := range sizes {
		files[n] = hostile.RulesFileV1(strings.Repeat(hostile.ManyConditionsRule(n), 8))
	}
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		if _, err := Load(bytes.NewReader(files[n]), nil); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}

// TestLinearBuild builds the index of rules that each have a key of their own: the tree split
// on the key most rules share, one rule at a time, in quadratic time before the split bound.
func TestLinearBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	sizes := []int{1 << 9, 1 << 10, 1 << 11}
	sets := ruleSets(t, sizes, hostile.DistinctKeyRules)
	noGC(t)
	hostile.Linear(t, growth(sizes), func(n int) int {
		if _, err := NewSet(sets[n], nil); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}

// TestLinearNormalize normalizes a URL that every rule of a set matches and none changes, so
// that Normalize tries them all: with rules that each have a key of their own (and a URL with
// all the keys), and with rules that share their conditions (and a URL of fixed size).
func TestLinearNormalize(t *testing.T) {
	if testing.Short() {
		t.Skip("measures costs")
	}
	sizes := []int{1 << 8, 1 << 9, 1 << 10}
	for _, tc := range []struct {
		name  string
		rules func(int) string
		url   func(int) string
	}{
		// Keys of their own, here path segments: with query names, urlnorm.Tokenize itself
		// (counting each name's occurrences) is quadratic in the number of parameters.
		{"distinct keys", hostile.DistinctSegmentRules, hostile.DistinctSegmentURL},
		{"shared keys", hostile.SharedKeyRules, func(int) string { return hostile.SharedKeyURL }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sets := map[int]*Set{}
			for _, n := range sizes {
				s, err := Load(bytes.NewReader(hostile.RulesFileV1(tc.rules(n))), nil)
				if err != nil {
					t.Fatal(err)
				}
				sets[n] = s
			}
			noGC(t)
			hostile.Linear(t, growth(sizes), func(n int) int {
				u := tc.url(n)
				for range 20 {
					if got, err := sets[n].Normalize(u); got != u || err != nil {
						t.Fatalf("Normalize = %q, %v; want the URL unchanged", got, err)
					}
				}
				return 0
			})
		})
	}
}

// noGC turns the collector off for the rest of the test, so that the CPU time measured is the
// function's own, not that of collections its allocations trigger at sizes that vary from run
// to run (Measure collects before each run).
func noGC(t *testing.T) {
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
