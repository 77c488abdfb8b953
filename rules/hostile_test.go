package rules

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
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
