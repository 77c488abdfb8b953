package align

import (
	"strconv"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

// FuzzAlign checks, on two URLs: the consensus of a URL with itself has only fixed columns,
// equal to the URL's tokens; the alignment score is symmetric and equals the slow reference's;
// the consensus of the pair holds each URL's tokens in order.
func FuzzAlign(f *testing.F) {
	seeds := [][2]string{
		{"http://a.com/x/y?id=1", "http://a.com/x/y?id=1&sid=9"},
		{"http://shop.com/Some-Product/dp/B01", "http://shop.com/dp/B01"},
		{"http://www.imdb.com/title/tt1/photogallery", "http://www.imdb.com/title/tt1/mediaindex"},
		{"http://a.com/dir/", "http://a.com/dir/index.html"},
		{"http://www.a.com/x", "https://a.com/x"},
		{"http://a.com/a?b&b=1&b=2", "http://a.com:8080/"},
		// Many keys: path segments and query names.
		{hostile.DistinctSegmentURL(50), hostile.DistinctSegmentURL(49) + "/w"},
		{hostile.DistinctKeyURL(40), hostile.DistinctKeyURL(39)},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, u, v string) {
		x, ok1 := prepare(u)
		y, ok2 := prepare(v)
		if !ok1 || !ok2 || len(x.toks) > 40 || len(y.toks) > 40 {
			return
		}
		self := multiAlign(seqs{x.toks, x.toks})
		if len(self.cols) != len(x.toks) {
			t.Fatalf("self-consensus of %q has %d columns, want %d", x.prep, len(self.cols), len(x.toks))
		}
		for c, col := range self.cols {
			if col.cells[0] != int32(c) || col.cells[1] != int32(c) || len(self.vals[c]) != 1 {
				t.Fatalf("self-consensus of %q: column %d not fixed: %+v", x.prep, c, col)
			}
		}
		s := seqs{x.toks, y.toks}
		a, b := s.single(0), s.single(1)
		ab, p := alignScore(s, a, b, true)
		ba, _ := alignScore(s, b, a, false)
		if ab != ba {
			t.Fatalf("score(%q, %q) = %d, reversed %d", x.prep, y.prep, ab, ba)
		}
		if len(x.toks)+len(y.toks) <= 10 {
			if slow := slowScore(s, a, b, 0, 0); slow != ab {
				t.Fatalf("score(%q, %q) = %d, slow %d", x.prep, y.prep, ab, slow)
			}
		}
		for r := range 2 {
			next := int32(0)
			for _, col := range p.cols {
				if ti := col.cells[r]; ti >= 0 {
					if ti != next {
						t.Fatalf("consensus of %q, %q: row %d out of order", x.prep, y.prep, r)
					}
					next++
				}
			}
			if int(next) != len(s[r]) {
				t.Fatalf("consensus of %q, %q: row %d lost tokens", x.prep, y.prep, r)
			}
		}
	})
}

// FuzzLearnApply learns from clusters made of the fuzzed URLs and checks that every rule that
// validates is a valid rule and applies without error to the URLs it was learned from.
func FuzzLearnApply(f *testing.F) {
	f.Add("http://a.com/p?id=1\thttp://a.com/p?id=1&sid=77\nhttp://a.com/p?id=2\thttp://a.com/p?id=2&sid=78\nhttp://a.com/p?id=3\thttp://a.com/p?id=3&sid=79\nhttp://a.com/p?id=4")
	f.Add("http://www.a.com/X/y\thttp://a.com/x/y\nhttp://www.a.com/X/z\thttp://a.com/x/z\nhttp://www.a.com/X/w\thttp://a.com/x/w")
	// Pairs of many-keyed URLs, each pair its own site so that a learner groups them.
	var many strings.Builder
	for i := range 4 {
		many.WriteString(strings.Replace(hostile.DistinctKeyURL(20+i), "h.example", "m.example", 1) + "&sid=" + strconv.Itoa(i))
		many.WriteString("\t" + strings.Replace(hostile.DistinctKeyURL(20+i), "h.example", "m.example", 1) + "\n")
	}
	f.Add(many.String())
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		if len(lines) > 20 {
			return
		}
		var cls []learn.Cluster
		var all []string
		for i, l := range lines {
			c := learn.Cluster{ID: "s-" + string(rune('a'+i)), Site: "s"}
			for _, u := range strings.Split(l, "\t") {
				c.URLs = append(c.URLs, learn.URL{Raw: u})
				all = append(all, u)
			}
			cls = append(cls, c)
		}
		for _, seed := range []uint64{0, 1, 2} {
			set, _, err := (&Learner{Options: Options{MinFreq: 1, Seed: seed, Workers: 1}}).Learn(cls)
			if err != nil {
				t.Fatal(err)
			}
			for i := range set.Len() {
				r := set.Rule(i)
				if err := r.Validate(); err != nil {
					t.Fatalf("rule %s: %v", r.String(), err)
				}
				one, err := rules.NewSet([]rules.Rule{r}, &rules.Options{Canonicalizer: canonicalizer})
				if err != nil {
					t.Fatalf("rule %s: %v", r.String(), err)
				}
				for _, u := range all {
					p, ok := learn.Prepare(u)
					if !ok {
						continue
					}
					if _, err := one.Normalize(p); err != nil {
						t.Fatalf("rule %s on %q: %v", r.String(), p, err)
					}
				}
			}
		}
	})
}
