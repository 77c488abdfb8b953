package rules

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/urlnorm"
)

const sampleFile = `undust-rules v1
# hand-made rules; comments and blank lines are ignored

pattern 360.yahoo.com split -
rule host=360.yahoo.com cov=2 prec=1 sup=1 if path(1.1,1)="friends" path(1.3,1)=* then path(1.3,1)="x"
rule host=www.imdb.com cov=2 prec=1 sup=2 if path(1,3)="title" path(2,2)=* path(3,1)="photogallery" then path(3,1)="mediaindex"
rule domain=example.com cov=1 prec=1 sup=1 if host="m.example.com" then host="www.example.com"
`

func TestReadWriteRoundTrip(t *testing.T) {
	s, err := Load(strings.NewReader(sampleFile), &Options{ParsePatterns: parseSplitter})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 3 {
		t.Fatalf("Len() = %d, want 3", s.Len())
	}
	var b1 bytes.Buffer
	n, err := s.WriteTo(&b1)
	if err != nil || n != int64(b1.Len()) {
		t.Fatalf("WriteTo = %d, %v; wrote %d", n, err, b1.Len())
	}
	// What the writer writes, the reader reads back to a set that writes the same bytes.
	s2, err := Load(bytes.NewReader(b1.Bytes()), &Options{ParsePatterns: parseSplitter})
	if err != nil {
		t.Fatalf("Load(WriteTo()): %v\n%s", err, b1.Bytes())
	}
	var b2 bytes.Buffer
	s2.WriteTo(&b2)
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Errorf("second write differs:\n%s\n---\n%s", b1.Bytes(), b2.Bytes())
	}
	// The deep-token rule works after the round trip.
	got, err := s2.Normalize("http://360.yahoo.com/friends-lttU7d6kIuGq")
	if want := "http://360.yahoo.com/friends-x"; got != want || err != nil {
		t.Errorf("Normalize = %q, %v; want %q", got, err, want)
	}
}

func TestWriteDeterministic(t *testing.T) {
	rs := genRules(loadSample(t), 0, 1)
	if len(rs) < 50 {
		t.Fatalf("only %d generated rules", len(rs))
	}
	var outs [][]byte
	// The same rules in two orders make one set and one file.
	for _, rev := range []bool{false, true} {
		in := append([]Rule(nil), rs...)
		if rev {
			for i, j := 0, len(in)-1; i < j; i, j = i+1, j-1 {
				in[i], in[j] = in[j], in[i]
			}
		}
		s, err := NewSet(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		s.WriteTo(&b)
		outs = append(outs, b.Bytes())
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("rule order changed the file")
	}
	s, err := Load(bytes.NewReader(outs[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	s.WriteTo(&b)
	if !bytes.Equal(b.Bytes(), outs[0]) {
		t.Error("read and write changed the file")
	}
}

func TestReadErrors(t *testing.T) {
	const rule = "rule host=a.example cov=1 prec=1 sup=1 if then port=-\n"
	tests := []struct {
		in   string
		line int
		err  error
	}{
		{"", 1, ErrFormat},                                     // empty file
		{"undust-rules v3\n", 1, ErrFormat},                    // other version
		{"rules v1\n" + rule, 1, ErrFormat},                    // no magic
		{"undust-rules v1\n" + rule + "bogus\n", 3, ErrFormat}, // unknown line
		{"undust-rules v1\n# c\n\nrule host=a.example cov=x prec=1 sup=1 if then port=-\n", 4, ErrFormat},           // bad number
		{"undust-rules v1\n" + rule + "rule host=a.example cov=1 prec=1 sup=1 if then host=-\n", 3, ErrInvalidRule}, // invalid rule, by line
		{"undust-rules v1\npattern a.example split -\n", 2, ErrFormat},                                              // patterns without a parser
		{"undust-rules v1\npattern a.example\n", 2, ErrFormat},                                                      // pattern without a line
		{"undust-rules v1\n" + strings.Repeat("x", 2<<20) + "\n", 2, ErrFormat},                                     // line too long
	}
	for _, tt := range tests {
		_, err := Load(strings.NewReader(tt.in), nil)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tt.line || !errors.Is(err, tt.err) {
			t.Errorf("Load(%.40q) error %v, want line %d wrapping %v", tt.in, err, tt.line, tt.err)
		}
	}
	// A failed read leaves the set as it was.
	s, _ := Load(strings.NewReader(sampleFile), &Options{ParsePatterns: parseSplitter})
	if _, err := s.ReadFrom(strings.NewReader("undust-rules v1\nbogus\n")); err == nil || s.Len() != 3 {
		t.Errorf("ReadFrom(bad) = %v, Len() = %d; want an error and 3", err, s.Len())
	}
	// A file without a final newline reads.
	if s, err := Load(strings.NewReader("undust-rules v1\n"+strings.TrimSuffix(rule, "\n")), nil); err != nil || s.Len() != 1 {
		t.Errorf("Load(no final newline) = %v", err)
	}
}

// TestDeepTokenPatterns runs rules on deep tokens of patterns that package deeptoken learned,
// through a file and back with the default pattern reader.
func TestDeepTokenPatterns(t *testing.T) {
	var us []string
	for _, l := range loadSample(t) {
		if strings.Contains(l.URL, "//juniperacme.com/") {
			us = append(us, l.URL)
		}
	}
	p := deeptoken.Learn(slices.Values(us), deeptoken.Options{})
	// The slug before _UPC_ is lower-cased: a rule on deep tokens 1 and 3 of segment 1.
	r := mustRule(t, `host=juniperacme.com cov=1 prec=1 sup=1 if path(1.3,-)="UPC" path(1.5,-)=* then path(1.1,-)=lower(@path(1.1,-))`)
	s, err := NewSet([]Rule{r}, &Options{Patterns: map[string]Patterns{"juniperacme.com": p}})
	if err != nil {
		t.Fatal(err)
	}
	const in = "http://juniperacme.com/Physics-Boat-Player_UPC_593018169856_W0?_fcls=0&_pcatid=60"
	const want = "http://juniperacme.com/physics-boat-player_UPC_593018169856_W0?_fcls=0&_pcatid=60"
	if got, err := s.Normalize(in); got != want || err != nil {
		t.Fatalf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
	}
	var b1, b2 bytes.Buffer
	s.WriteTo(&b1)
	if !strings.Contains(b1.String(), "\npattern juniperacme.com ") {
		t.Fatalf("no pattern lines in\n%s", b1.String())
	}
	s2, err := Load(bytes.NewReader(b1.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	s2.WriteTo(&b2)
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Errorf("round trip with deep-token patterns differs")
	}
	if got, _ := s2.Normalize(in); got != want {
		t.Errorf("after the round trip, Normalize(%q) = %q, want %q", in, got, want)
	}
	// Without its patterns the host's segment is one token: the rule does not apply.
	s3, _ := NewSet([]Rule{r}, nil)
	if got, _ := s3.Normalize(in); got != in {
		t.Errorf("without patterns, Normalize(%q) = %q", in, got)
	}
}

// TestKeyedSet checks Options.Key: input and output in urlnorm's Crawler key form, the key line
// of the file, and that a loaded set writes the same bytes and rewrites alike.
func TestKeyedSet(t *testing.T) {
	s := mustSet(t, &Options{Key: urlnorm.Crawler},
		`host=k.example cov=3 prec=1 sup=1 if path(-,1)="index.html" then path(-,1)=-`,
		`host=* cov=3 prec=1 sup=1 if query("ref")=* then query("ref")=-`)
	tests := []struct{ in, want string }{
		// The input is keyed (query sorted, fragment dropped), then rewritten.
		{"HTTP://K.example:80/a/index.html?b=2&a=1#top", "http://k.example/a?a=1&b=2"},
		// The every-host rule on another host, output keyed.
		{"http://other.example/x?ref=abc&z=1", "http://other.example/x?z=1"},
		// No rule applies: the key comes back.
		{"http://k.example/?b=1&a=2", "http://k.example/?a=2&b=1"},
	}
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\nkey "+urlnorm.Crawler.String()+"\n") {
		t.Fatalf("no key line in\n%s", buf.String())
	}
	l, err := Load(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if _, err := l.WriteTo(&again); err != nil || again.String() != buf.String() {
		t.Errorf("loaded set writes\n%s\nwant\n%s (err %v)", again.String(), buf.String(), err)
	}
	for _, tt := range tests {
		for _, set := range []*Set{s, l} {
			if got, err := set.Normalize(tt.in); err != nil || got != tt.want {
				t.Errorf("Normalize(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
			}
		}
	}
	// A bad key line is a parse error.
	if _, err := Load(strings.NewReader(header+"\nkey NoSuchFlag\n"), nil); !errors.Is(err, ErrFormat) {
		t.Errorf("bad key line: error %v, want ErrFormat", err)
	}
}
