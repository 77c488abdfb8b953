package rules

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
	"github.com/undust/undust/urlnorm"
)

// splitter is a hand-made stand-in for package deeptoken's patterns: it splits every path
// segment and query value of its host at the bytes of seps, each separator a deep token of its
// own, as in the paper's friends, "-", lttU7d6kIuGq.
type splitter struct{ seps string }

func (p *splitter) AppendSplit(dst, toks []urlnorm.Token) []urlnorm.Token {
	for _, t := range toks {
		if (t.Part != urlnorm.PartPath && t.Part != urlnorm.PartQuery) || !strings.ContainsAny(t.Value, p.seps) {
			dst = append(dst, t)
			continue
		}
		var parts []string
		v := t.Value
		for v != "" {
			i := strings.IndexAny(v, p.seps)
			switch {
			case i < 0:
				parts, v = append(parts, v), ""
			case i == 0:
				parts, v = append(parts, v[:1]), v[1:]
			default:
				parts, v = append(parts, v[:i]), v[i:]
			}
		}
		for i, s := range parts {
			d := t
			d.Sub, d.RSub, d.Value = int16(i+1), int16(len(parts)-i), s
			dst = append(dst, d)
		}
	}
	return dst
}

func (p *splitter) AppendText(dst []byte) []byte {
	return append(append(dst, "split "...), strings.TrimSpace(p.seps)+"\n"...)
}

func parseSplitter(text []byte) (Patterns, error) {
	s, ok := bytes.CutPrefix(bytes.TrimSuffix(text, []byte("\n")), []byte("split "))
	if !ok || len(s) == 0 || bytes.ContainsAny(s, " \n") {
		return nil, errors.New("splitter: bad line")
	}
	return &splitter{seps: string(s)}, nil
}

// readLabeled reads dupclusters TSV (cluster<TAB>url[<TAB>...], # comments).
func readLabeled(t testing.TB, r io.Reader) []Labeled {
	t.Helper()
	var out []Labeled
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 2 {
			t.Fatalf("bad line %q", line)
		}
		out = append(out, Labeled{Cluster: f[0], URL: f[1]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func loadSample(t testing.TB) []Labeled {
	f, err := os.Open("testdata/sample.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readLabeled(t, f)
}

// loadDev reads the cluster and URL columns of dupclusters dev.tsv from testdata; n > 0 keeps
// the first n lines.
func loadDev(t testing.TB, n int) []Labeled {
	f, err := os.Open("testdata/dev-urls.tsv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	ls := readLabeled(t, z)
	if n > 0 && n < len(ls) {
		ls = ls[:n]
	}
	return ls
}

// genRules makes pairwise rules the way a learner would (Koppula et al., Algorithm 3), with a
// light generalization, so that tests and benchmarks run on realistic rules: per cluster, the
// shortest URL is the target and every other URL of the same site a source. The context is the
// source's tokens, values with a digit generalized to "*" and, at random, a path key to one
// position; the transformation is the difference to the target (copy where the target's value is
// a source value or its case conversion, literal otherwise, delete, add). At most max rules,
// deduplicated; deterministic for a seed.
func genRules(ls []Labeled, max int, seed uint64) []Rule {
	rng := rand.New(rand.NewPCG(seed, 0))
	byCluster := map[string][]string{}
	var order []string
	for _, l := range ls {
		if _, ok := byCluster[l.Cluster]; !ok {
			order = append(order, l.Cluster)
		}
		byCluster[l.Cluster] = append(byCluster[l.Cluster], l.URL)
	}
	// Pairwise rules per site, then taken round-robin over the sites, so that a limited set
	// still covers every site.
	seen := map[string]bool{}
	perSite := map[string][]Rule{}
	var sites []string
	for _, c := range order {
		us := byCluster[c]
		if len(us) < 2 {
			continue
		}
		tgt := slices.MinFunc(us, func(a, b string) int {
			if len(a) != len(b) {
				return len(a) - len(b)
			}
			return strings.Compare(a, b)
		})
		site, _, _ := strings.Cut(c, "-")
		for _, u := range us {
			if u == tgt {
				continue
			}
			r, ok := pairwise(u, tgt, rng)
			if !ok {
				continue
			}
			txt := r.String()
			if seen[txt] || r.Validate() != nil {
				continue
			}
			seen[txt] = true
			if _, ok := perSite[site]; !ok {
				sites = append(sites, site)
			}
			perSite[site] = append(perSite[site], r)
		}
	}
	var out []Rule
	for i := 0; ; i++ {
		added := false
		for _, site := range sites {
			if rs := perSite[site]; i < len(rs) {
				out = append(out, rs[i])
				added = true
				if len(out) == max {
					return out
				}
			}
		}
		if !added {
			return out
		}
	}
}

func pairwise(u, v string, rng *rand.Rand) (Rule, bool) {
	tu, err1 := urlnorm.Tokenize(nil, u)
	tv, err2 := urlnorm.Tokenize(nil, v)
	if err1 != nil || err2 != nil {
		return Rule{}, false
	}
	var r Rule
	val := func(toks []urlnorm.Token, k urlnorm.Key) (string, bool) {
		for _, t := range toks {
			if sameToken(t.Key, k) {
				return t.Value, true
			}
		}
		return "", false
	}
	nseg := func(toks []urlnorm.Token) int {
		n := 0
		for _, t := range toks {
			if t.Part == urlnorm.PartPath {
				n++
			}
		}
		return n
	}
	for _, t := range tu {
		if t.Part == urlnorm.PartHost {
			r.Scope.Host = t.Value
		}
	}
	copied := map[urlnorm.Key]bool{}
	// source finds a key of u whose value, maybe case-converted, is want.
	source := func(want string) (Action, bool) {
		for _, t := range tu {
			if t.Part != urlnorm.PartPath && t.Part != urlnorm.PartQuery || t.Value == "" {
				continue
			}
			k := t.Key
			if k.Part == urlnorm.PartPath {
				k.RPos = 0
			}
			switch want {
			case t.Value:
				return Action{Op: Copy, From: k}, true
			case lowerASCII(t.Value):
				return Action{Op: Copy, From: k, Conv: Lower}, true
			case upperASCII(t.Value):
				return Action{Op: Copy, From: k, Conv: Upper}, true
			}
		}
		return Action{}, false
	}
	set := func(k urlnorm.Key, want string) {
		a, ok := source(want)
		if !ok {
			a = Action{Op: Assign, Value: want}
		} else {
			copied[a.From] = true
		}
		a.Key = k
		r.Transform = append(r.Transform, a)
	}
	for _, p := range []urlnorm.Part{urlnorm.PartScheme, urlnorm.PartHost} {
		k := urlnorm.Key{Part: p}
		a, _ := val(tu, k)
		b, _ := val(tv, k)
		if a != b {
			r.Transform = append(r.Transform, Action{Key: k, Op: Assign, Value: b})
		}
	}
	nu, nv := nseg(tu), nseg(tv)
	for i := 1; i <= max(nu, nv); i++ {
		k := urlnorm.Key{Part: urlnorm.PartPath, Pos: int16(i)}
		a, okA := val(tu, k)
		b, okB := val(tv, k)
		switch {
		case okA && !okB:
			r.Transform = append(r.Transform, Action{Key: k, Op: Delete})
		case okB && (!okA || a != b):
			set(k, b)
		}
	}
	for _, t := range tu {
		if t.Part == urlnorm.PartQuery {
			b, ok := val(tv, t.Key)
			if !ok {
				r.Transform = append(r.Transform, Action{Key: t.Key, Op: Delete})
			} else if b != t.Value {
				set(t.Key, b)
			}
		}
	}
	for _, t := range tv {
		if t.Part == urlnorm.PartQuery {
			if _, ok := val(tu, t.Key); !ok {
				set(t.Key, t.Value)
			}
		}
	}
	if len(r.Transform) == 0 {
		return Rule{}, false
	}
	// Generalize ids to "*" only when the transformation does not write an id literally: a
	// literal id in the target means the rule is about this one page.
	general := !slices.ContainsFunc(r.Transform, func(a Action) bool {
		return a.Op == Assign && strings.ContainsAny(a.Value, "0123456789")
	})
	// One way of addressing path segments per rule, as a generalizing learner leaves it: both
	// positions (the pairwise rule), from the start only, or from the end only.
	style := rng.IntN(3)
	for _, t := range tu {
		k := t.Key
		if k.Part == urlnorm.PartHost || k.Part == urlnorm.PartPort || k.Part == urlnorm.PartUserinfo {
			continue
		}
		c := Condition{Key: k, Op: Equal, Value: t.Value}
		if general && (strings.ContainsAny(t.Value, "0123456789") || len(t.Value) > 24) {
			c.Op, c.Value = Any, ""
		}
		if k.Part == urlnorm.PartPath {
			kk := k
			kk.RPos = 0
			if copied[kk] {
				c.Op, c.Value = Any, ""
			}
			switch style {
			case 1:
				c.Key.RPos = 0
			case 2:
				c.Key.Pos = 0
			}
		} else if copied[k] {
			c.Op, c.Value = Any, ""
		}
		r.Context = append(r.Context, c)
	}
	r.Stats = Stats{Coverage: 1 + rng.IntN(100), Precision: float64(rng.IntN(11)) / 10, Support: 1 + rng.IntN(5)}
	return r, true
}

// normalizeDev runs s.Normalize on every 10th dev URL and its noRulesURL variant (tier.Step),
// for the tests whose hooks check what each call does.
func normalizeDev(t *testing.T, s *Set) {
	t.Helper()
	ls := loadDev(t, 0)
	step := tier.Step(10)
	for i := 0; i < len(ls); i += step {
		for _, u := range []string{ls[i].URL, noRulesURL(ls[i].URL)} {
			s.Normalize(u)
		}
	}
}

// ruleSets returns, for each size n, the rules of the rule file body gen(n) (a generator of
// internal/hostile, read as a version 1 file without a bound on the rules), for the tests that
// build sets of growing size.
func ruleSets(t *testing.T, sizes []int, gen func(n int) string) map[int][]Rule {
	t.Helper()
	sets := map[int][]Rule{}
	for _, n := range sizes {
		s, err := Load(bytes.NewReader(hostile.RulesFileV1(gen(n))), &Options{MaxRules: -1})
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Len() {
			sets[n] = append(sets[n], s.Rule(i))
		}
	}
	return sets
}

// refResult is a result of one of the normalize paths: the URL and the error.
type refResult struct {
	out string
	err error
}

// same reports whether r and o are the same URL and the same error (by its text).
func (r refResult) same(o refResult) bool {
	return r.out == o.out && fmt.Sprint(r.err) == fmt.Sprint(o.err)
}

// refResults returns the result of ref (normalizeRef or normalizeSlow of s) for each URL of seq.
// The tests compute them before any fast call: the reference path gives its scratch back cleared
// (putScratch), so a reference call between two fast calls would make the second start afresh,
// and what the fast path keeps from one call for the next would go untested.
func refResults(seq []string, ref func(string) (string, error)) []refResult {
	want := make([]refResult, len(seq))
	for i, u := range seq {
		out, err := ref(u)
		want[i] = refResult{out, err}
	}
	return want
}

// checkFastSeq runs s.Normalize over seq, one call after another with nothing between, then
// s.AppendNormalize over seq likewise (each call appending to a buffer that holds a prefix), and
// reports the first result of each that differs from want[i], the result of ref (normalizeRef or
// normalizeSlow of s) computed beforehand by refResults, naming the URL called before it.
// AppendNormalize's bytes are compared unless the error is one of the key (of a URL that the key
// writer refuses, for which Normalize gives the URL back and AppendNormalize what the key writer
// wrote). Last, it calls ref of each URL again right after Normalize of the URL before it, and
// checks its results against want: the reference path takes the scratch that the fast call gave
// back, with its view's state (the host's trees, of the last URL that call met), as
// NormalizeTrace and Evaluate do after a Normalize, and must give what it gives from a cleared
// one.
func checkFastSeq(t *testing.T, name string, s *Set, seq []string, want []refResult, ref func(string) (string, error)) {
	t.Helper()
	before := func(i int) string {
		if i == 0 {
			return "nothing"
		}
		return fmt.Sprintf("%q", seq[i-1])
	}
	got := make([]refResult, len(seq))
	for i, u := range seq {
		out, err := s.Normalize(u)
		got[i] = refResult{out, err}
	}
	for i := range seq {
		if !got[i].same(want[i]) {
			t.Errorf("%s: after %s: Normalize(%q) = %q, %v; reference %q, %v", name, before(i), seq[i], got[i].out, got[i].err, want[i].out, want[i].err)
			break
		}
	}
	const prefix = "x"
	buf := []byte(prefix)
	for i, u := range seq {
		var err error
		buf, err = s.AppendNormalize(buf[:len(prefix)], u)
		var e *Error
		keyErr := errors.As(err, &e) && e.Op == "key"
		if fmt.Sprint(err) != fmt.Sprint(want[i].err) || string(buf[:len(prefix)]) != prefix || !keyErr && string(buf[len(prefix):]) != want[i].out {
			t.Errorf("%s: after %s: AppendNormalize(%q, %q) = %q, %v; reference %q, %v", name, before(i), prefix, u, buf, err, want[i].out, want[i].err)
			break
		}
	}
	for i, u := range seq {
		if i > 0 {
			s.Normalize(seq[i-1])
		}
		if out, err := ref(u); !want[i].same(refResult{out, err}) {
			t.Errorf("%s: after Normalize(%s): reference(%q) = %q, %v; from a cleared scratch %q, %v", name, before(i), u, out, err, want[i].out, want[i].err)
			break
		}
	}
}
