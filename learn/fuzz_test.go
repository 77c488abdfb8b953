package learn

import (
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// FuzzTSVReader checks that any input reads without panic, that every record read has the shape
// the reader promises, and that skipping bad lines yields exactly the records that a strict read
// yields before its first error.
func FuzzTSVReader(f *testing.F) {
	for _, s := range []string{
		"# c\turl\nh1-p1\thttp://a.com/x\t0.5\t3\n",
		"h1-p1\thttp://a.com/\r\nh1-p2\thttp://a.com/y\t2",
		"a\thttp://a/\tNaN\n", "x\n\t\t\t\t\t\n", "a\thttp://a/\t1\t-1\n",
		// Hostile shapes (the fuzz reads with a 64-byte line limit): lines over the limit
		// between good ones, a line of many fields, many clusters.
		"a\thttp://a/\n" + hostile.TSVLongURL(100) + "b\thttp://b/\n" + hostile.TSVLongURL(65),
		hostile.TSVManyFields(50), hostile.TSVManyClusters(40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		strict, _, err := readAllTSV(in, ReaderOptions{MaxLineBytes: 64})
		lenient, skipped, err2 := readAllTSV(in, ReaderOptions{MaxLineBytes: 64, SkipBad: true})
		if err2 != nil {
			t.Fatalf("SkipBad read failed: %v", err2)
		}
		if len(lenient) < len(strict) || (err == nil && (skipped != 0 || len(lenient) != len(strict))) {
			t.Fatalf("strict %d (err %v), lenient %d (skipped %d)", len(strict), err, len(lenient), skipped)
		}
		for i, r := range strict {
			if lenient[i] != r {
				t.Fatalf("record %d: strict %+v lenient %+v", i, r, lenient[i])
			}
		}
		for _, r := range lenient {
			if r.Cluster == "" || !validURLField([]byte(r.URL)) || strings.ContainsAny(r.Cluster, "\t\n") || r.Importance < 0 || r.Inlinks < 0 || r.Line < 1 {
				t.Fatalf("bad record %+v", r)
			}
		}
	})
}

// FuzzCDXReader checks that any input reads without panic and that a lenient read yields the
// strict read's captures and then some.
func FuzzCDXReader(f *testing.F) {
	f.Add(cdxFixture)
	f.Add(cdxjFixture)
	f.Add(" CDX N b a\nx y z\n")
	// Hostile shapes (the fuzz reads with a 256-byte line limit).
	f.Add(hostile.CDXLongURL(300) + hostile.CDXLongURL(100))
	f.Add(hostile.CDXManyFields(40) + hostile.CDXManyCaptures(8))
	f.Add(hostile.CDXManyCaptures(40))
	f.Add(hostile.CDXJNested(50) + hostile.CDXJNested(5))
	f.Fuzz(func(t *testing.T, in string) {
		var strict, lenient []Capture
		r := NewCDXReader(strings.NewReader(in), ReaderOptions{MaxLineBytes: 256})
		for r.Next() {
			strict = append(strict, r.Capture())
		}
		r2 := NewCDXReader(strings.NewReader(in), ReaderOptions{MaxLineBytes: 256, SkipBad: true})
		for r2.Next() {
			lenient = append(lenient, r2.Capture())
		}
		if r2.Err() != nil {
			t.Fatalf("SkipBad read failed: %v", r2.Err())
		}
		if len(lenient) < len(strict) {
			t.Fatalf("strict %d, lenient %d", len(strict), len(lenient))
		}
		for i, c := range strict {
			if lenient[i] != c {
				t.Fatalf("capture %d: strict %+v lenient %+v", i, c, lenient[i])
			}
			if c.URL == "" || c.Status == "" || c.Digest == "" {
				t.Fatalf("empty field in %+v", c)
			}
		}
		if _, err := CaptureClusters(NewCDXReader(strings.NewReader(in), ReaderOptions{SkipBad: true}), ByDomain); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDeriveApply checks, for any two URLs, that Prepare is idempotent and that applying the
// pairwise transformation derived from a source and a target to the source gives the target
// (Algorithm 3 loses nothing), and that the transformation's text names it uniquely enough to
// be stable: deriving twice gives the same text.
func FuzzDeriveApply(f *testing.F) {
	for _, p := range [][2]string{
		{"http://en.wikipedia.org/wiki?title=Web_crawler", "http://en.wikipedia.org/wiki/Web_crawler"},
		{"http://allrecipes.com/Recipe/Smores/default.aspx", "http://allrecipes.com/RECIPE/Smores/default.aspx"},
		{"http://x.com/story/123", "http://x.com/story.php?id=123"},
		{"https://m.x.com/a?b&c=1&c=2", "http://www.x.com/a/?c=1"},
		{"http://x.com/", "http://x.com/a//b/"},
		{"http://x.com/info/bb8308f9454618b1c3689c6b1c76?id=329b166b7549591d", "http://x.com/info/bb8308f9454618b1?id=329b166b75"},
		{"http://x.com/threads/5000-stone-ember?id=12:welcome", "http://x.com/threads/5000?id=12"},
		// Many keys: query names and path segments.
		{hostile.DistinctKeyURL(30), hostile.DistinctKeyURL(29) + "&k30=w"},
		{hostile.DistinctSegmentURL(40), hostile.DistinctSegmentURL(39)},
	} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		pa, ok1 := Prepare(a)
		pb, ok2 := Prepare(b)
		if !ok1 || !ok2 {
			return
		}
		if again, ok := Prepare(pa); !ok || again != pa {
			t.Fatalf("Prepare not idempotent: %q -> %q -> %q (%v)", a, pa, again, ok)
		}
		sa, _, ok1 := parse(pa, nil)
		sb, _, ok2 := parse(pb, nil)
		if !ok1 || !ok2 {
			return
		}
		if sa.String() != pa {
			t.Fatalf("parse(%q).String() = %q", pa, sa.String())
		}
		tr := derive(&sa, &sb)
		out, ok := tr.apply(&sa)
		if !ok || finalize(out.String()) != pb {
			t.Fatalf("apply(derive(%q, %q)) = %q, %v (transform %s)", pa, pb, out.String(), ok, tr.String())
		}
		tr2 := derive(&sa, &sb)
		if tr.String() != tr2.String() {
			t.Fatalf("derive not deterministic: %s vs %s", tr.String(), tr2.String())
		}
		// Written as a rules.Rule, the transformation rewrites a to b too, unless a repeats a
		// parameter name that the rule sets or deletes (the rule changes the first occurrence;
		// see toRule).
		if tr.isIdentity() {
			return
		}
		for i, q := range sa.query {
			if i > 0 && sa.query[i-1].Name == q.Name && slices.ContainsFunc(tr.Query, func(o queryOp) bool { return o.Name == q.Name }) {
				return
			}
		}
		rr, ok := toRule(&lrule{edit: tr})
		if !ok {
			return // not expressible: counted in Stats.Unexpressed
		}
		rr.Scope = rules.Scope{Host: rules.AllHosts}
		set, err := rules.NewSet([]rules.Rule{rr}, &rules.Options{Key: urlnorm.Crawler, MaxRewrites: 1})
		if err != nil {
			t.Fatalf("NewSet(%s): %v", rr.String(), err)
		}
		if got, _ := set.Normalize(pa); got != pb {
			t.Fatalf("rule %s (from %s) rewrote %q to %q, want %q", rr.String(), tr.String(), pa, got, pb)
		}
	})
}
