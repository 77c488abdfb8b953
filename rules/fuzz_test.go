package rules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/urlnorm"
)

// FuzzReadFrom checks that the reader never panics and that whatever it accepts writes a file
// that reads back to a set writing the same bytes.
func FuzzReadFrom(f *testing.F) {
	f.Add([]byte(sampleFile))
	f.Add([]byte("undust-rules v1\nrule host=a.example cov=1 prec=1 sup=1 if then port=-\n"))
	f.Add([]byte("undust-rules v1\n# c\n\nrule domain=example.com cov=3 prec=0.5 sup=2 if query(\"a\",2)[1,-]=- path(-.2,1)=\"\\x00\" then query(\"q\")=upper(@path(1,-))\n"))
	f.Add([]byte("undust-rules v1\nkey " + urlnorm.Crawler.String() + "\nrule host=* cov=1 prec=1 sup=1 if then path(-,-)=upperfirst path(-,1)+=\"\"\n"))
	f.Add([]byte("undust-rules v1\nrule host=f.example cov=1 prec=1 sup=1 if path(2,1)=* then path(2,1)=prefix16\n"))
	f.Add([]byte("undust-rules v2\n"))
	// Hostile shapes: a line longer than the reader's buffer with a "#" at its boundary, CRLF
	// line endings, rules that each have a key of their own, a rule of many conditions, a
	// version 2 file and the same file cut short.
	f.Add(hostile.RulesFileV1(hostile.LongLiteralRule(70_000, 65536-len(`rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`))))
	f.Add([]byte(strings.ReplaceAll(sampleFile, "\n", "\r\n")))
	f.Add(hostile.RulesFileV1(hostile.DistinctKeyRules(40)))
	f.Add(hostile.RulesFileV1(hostile.ManyConditionsRule(200)))
	if s, err := Load(strings.NewReader(sampleFile), &Options{ParsePatterns: parseSplitter}); err == nil {
		var b bytes.Buffer
		s.WriteTo(&b)
		f.Add(b.Bytes())
		f.Add(b.Bytes()[:b.Len()-5])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := &Options{ParsePatterns: parseSplitter}
		s, err := Load(bytes.NewReader(data), opts)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: line ") {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		var b1, b2 bytes.Buffer
		s.WriteTo(&b1)
		s2, err := Load(bytes.NewReader(b1.Bytes()), opts)
		if err != nil {
			t.Fatalf("Load(WriteTo()) = %v\n%s", err, b1.Bytes())
		}
		s2.WriteTo(&b2)
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", b1.Bytes(), b2.Bytes())
		}
		// The written file cut short is an error, not a smaller set.
		cut := len(data) % b1.Len()
		if s3, err := Load(bytes.NewReader(b1.Bytes()[:cut]), opts); err == nil {
			t.Fatalf("Load(written file cut at %d of %d) = %d rules, no error", cut, b1.Len(), s3.Len())
		}
	})
}

// FuzzParseRule checks that a parsed rule's text parses back to the same text.
func FuzzParseRule(f *testing.F) {
	for _, l := range strings.Split(sampleFile, "\n") {
		if r, ok := strings.CutPrefix(l, "rule "); ok {
			f.Add(r)
		}
	}
	f.Add(`host=h.example cov=1 prec=0.5 sup=1 if then fragment=- userinfo=- path(1,-)=@fragment`)
	f.Add(strings.TrimSuffix(strings.TrimPrefix(hostile.LongLiteralRule(70_000, 100), "rule "), "\n"))
	f.Add(strings.TrimSuffix(strings.TrimPrefix(hostile.ManyConditionsRule(300), "rule "), "\n"))
	f.Add(`host=* cov=3 prec=1 sup=5 if query("sid")=* then query("sid")=-`)
	f.Add(`host=h.example cov=1 prec=1 sup=1 if path(-,1)=* then path(-,-)=lower path(-,1)=upperfirst(@path(-,1)) path(-,1)+="" path(-,1)+=lowerfirst(@query("t")) query("t")=upper`)
	f.Add(`host=f.example cov=1 prec=1 sup=1 if path(1,2)="info" path(2,1)=* then path(2,1)=prefix16 query("id")=prefix10(@query("id"))`)
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRule(line)
		if err != nil {
			return
		}
		txt := r.String()
		r2, err := ParseRule(txt)
		if err != nil {
			t.Fatalf("ParseRule(%q) = %v", txt, err)
		}
		if r2.String() != txt {
			t.Fatalf("text changed: %q -> %q", txt, r2.String())
		}
	})
}

// byteSource hands out choices from fuzz bytes, then zeros.
type byteSource struct{ b []byte }

func (s *byteSource) n(k int) int {
	if len(s.b) == 0 {
		return 0
	}
	v := int(s.b[0]) % k
	s.b = s.b[1:]
	return v
}

// randomRules builds up to 8 rules for URLs of host from fuzz bytes, with keys and values drawn
// from a small vocabulary and from the URL's own tokens so that they often match.
func randomRules(src *byteSource, host string, toks []urlnorm.Token) []Rule {
	vals := []string{"a", "b", "x", "", "index.html", "A", "a-b", "1"}
	for _, t := range toks {
		vals = append(vals, t.Value)
	}
	names := []string{"a", "b", "id", "", "sid"}
	for _, t := range toks {
		if t.Part == urlnorm.PartQuery {
			names = append(names, t.Name)
		}
	}
	key := func() urlnorm.Key {
		var k urlnorm.Key
		switch src.n(8) {
		case 0:
			k.Part = urlnorm.PartScheme
		case 1:
			k.Part = urlnorm.PartHost
		case 2:
			k.Part = urlnorm.PartPort
		case 3:
			k.Part = urlnorm.PartFragment
		case 4, 5:
			k.Part = urlnorm.PartQuery
			k.Name = names[src.n(len(names))]
			k.Pos = int16(1 + src.n(2))
		default:
			k.Part = urlnorm.PartPath
			k.Pos, k.RPos = int16(src.n(4)), int16(src.n(4))
			if k.Pos == 0 && k.RPos == 0 {
				k.Pos = 1
			}
		}
		if src.n(4) == 0 {
			k.Sub, k.RSub = int16(src.n(3)), int16(src.n(3))
		}
		return k
	}
	scopes := []Scope{{Host: host}, {Host: host}, {Host: "example.com", Domain: true}, {Host: "other.example"}, {Host: AllHosts}}
	var rs []Rule
	for range 1 + src.n(8) {
		r := Rule{Scope: scopes[src.n(len(scopes))]}
		for range src.n(4) {
			c := Condition{Key: key(), Op: CondOp(1 + src.n(3))}
			if c.Op == Equal {
				c.Value = vals[src.n(len(vals))]
			}
			r.Context = append(r.Context, c)
		}
		for range 1 + src.n(3) {
			a := Action{Key: key(), Op: ActOp(1 + src.n(4))}
			switch a.Op {
			case Assign:
				a.Value = vals[src.n(len(vals))]
			case Copy:
				a.From = key()
				a.Conv = fuzzConvs[src.n(len(fuzzConvs))]
			case Convert:
				a.Conv = fuzzConvs[1+src.n(len(fuzzConvs)-1)]
				if src.n(2) == 0 {
					a.Key = wholePath
				}
			}
			if (a.Op == Assign || a.Op == Copy) && a.Key.Part == urlnorm.PartPath && a.Key.Sub == 0 && a.Key.RSub == 0 {
				a.Insert = src.n(3) == 0
			}
			r.Transform = append(r.Transform, a)
		}
		r.Stats = Stats{Coverage: src.n(3), Precision: float64(src.n(3)) / 2, Support: src.n(2)}
		if r.Validate() == nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// FuzzNormalize checks on random rules and URLs that the indexed matcher and the linear scan
// agree, that a rule's text parses back to the rule, that output without an error is a URL
// urlnorm can tokenize, and that each view built from tokens equals that of the URL tokenized.
// fuzzConvs are the conversions randomRules chooses from; NoConversion first.
var fuzzConvs = []Conversion{NoConversion, Lower, Upper, LowerFirst, UpperFirst, Head, Prefix(1), Prefix(3)}

func FuzzNormalize(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, "http://www.example.com/a/b/index.html?id=1&sid=x#f")
	f.Add([]byte{7, 6, 5, 4, 3, 2, 1, 0, 9, 9, 9}, "https://shop.example.com:8080/a-b/A?a=1&a=2&b")
	f.Add([]byte("rules!rules!rules!"), "http://m.example.com/?")
	// URLs of many keys: query names (indexed by name in the view) and path segments.
	f.Add([]byte("many query keys, each a rule"), hostile.DistinctKeyURL(40)+"&k3=w&k5")
	f.Add([]byte{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9}, hostile.DistinctSegmentURL(40))
	f.Fuzz(func(t *testing.T, seed []byte, u string) {
		toks, err := urlnorm.Tokenize(nil, u)
		host := "h.example"
		if err == nil {
			for _, tk := range toks {
				if tk.Part == urlnorm.PartHost {
					host = tk.Value
				}
			}
		}
		src := &byteSource{b: seed}
		rs := randomRules(src, host, toks)
		for _, r := range rs {
			r2, err := ParseRule(r.String())
			if err != nil || r2.String() != r.String() {
				t.Fatalf("ParseRule(%q) = %v, %v", r.String(), r2, err)
			}
		}
		var opts Options
		if src.n(2) == 0 {
			opts.Patterns = map[string]Patterns{host: &splitter{seps: "-_."}}
		}
		if src.n(2) == 0 {
			// A set on dedup keys: rewritten URLs keyed again, or known to be keys, and their
			// views built from tokens, each checked against the tokenized URL.
			opts.Key = urlnorm.Crawler
		}
		s, err := NewSet(rs, &opts)
		if err != nil {
			t.Fatal(err)
		}
		checkViews(t, s)
		checkEditRefs(t)
		fast, ferr := s.Normalize(u)
		checkTokenView, checkEdits = nil, nil
		slow, serr := s.normalizeSlow(u)
		if fast != slow || fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("Normalize(%q) = %q, %v; reference %q, %v\nrules:\n%v", u, fast, ferr, slow, serr, rs)
		}
		if ferr == nil && fast != u {
			if _, err := urlnorm.Tokenize(nil, fast); err != nil {
				t.Fatalf("Normalize(%q) = %q, which does not tokenize: %v", u, fast, err)
			}
		}
	})
}
