package sitefamily

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/undust/undust/learn"
)

var update = flag.Bool("update", false, "rewrite testdata/summary.golden")

// small are the options of the tests' dataset: every family, 2 sites each, at 0.15 of the
// default size.
var small = Options{Seed: 1, Sites: 2, Scale: 0.15}

func generate(t *testing.T, opt Options) (*Dataset, []byte) {
	t.Helper()
	d, err := Generate(opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return d, b.Bytes()
}

// TestDeterministic checks that the same options give the same bytes, another seed other
// bytes, and that a family's sites do not depend on the families generated beside them.
func TestDeterministic(t *testing.T) {
	_, a := generate(t, small)
	_, b := generate(t, small)
	if sha256.Sum256(a) != sha256.Sum256(b) {
		t.Fatalf("two runs of %+v differ", small)
	}
	other := small
	other.Seed = 2
	if _, c := generate(t, other); bytes.Equal(a, c) {
		t.Errorf("seeds 1 and 2 give the same bytes")
	}
	only := small
	only.Families = []string{"forum"}
	_, f := generate(t, only)
	var want []string
	for _, line := range strings.SplitAfter(string(a), "\n") {
		if strings.HasPrefix(line, "forum-") {
			want = append(want, line)
		}
	}
	got := strings.SplitAfter(strings.TrimPrefix(string(f), "# cluster\turl\timportance\tinlinks\n"), "\n")
	got = slices.DeleteFunc(got, func(s string) bool { return s == "" })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forum alone differs from forum among all families (-all +alone):\n%.2000s", diff)
	}
}

// TestGolden compares the per-family summary of the small dataset with
// testdata/summary.golden (go test -update rewrites it): a change of any family's sizes,
// clusters, noise or traps shows up here.
func TestGolden(t *testing.T) {
	d, _ := generate(t, small)
	var b bytes.Buffer
	if err := WriteSummaries(&b, d.Summaries()); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/summary.golden"
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("summary mismatch (-golden +got):\n%s", diff)
	}
}

// TestFile reads the written file back with learn.ReadClusters and checks what the package
// doc promises: every URL once, parsing with net/url to itself; the importance the same on
// every line of a cluster; in-links at least 1; every family present with every site; noise
// clusters of at least two URLs.
func TestFile(t *testing.T) {
	d, b := generate(t, small)
	cls, skipped, err := learn.ReadClusters(bytes.NewReader(b), learn.ReaderOptions{Sites: learn.ByID})
	if err != nil || skipped != 0 {
		t.Fatalf("ReadClusters: %d skipped, %v", skipped, err)
	}
	seen := map[string]bool{}
	sites := map[string]bool{}
	for _, c := range cls {
		sites[c.Site] = true
		for _, u := range c.URLs {
			if seen[u.Raw] {
				t.Errorf("URL %q twice", u.Raw)
			}
			seen[u.Raw] = true
			if p, err := url.Parse(u.Raw); err != nil || p.String() != u.Raw || p.Host == "" {
				t.Errorf("URL %q: parses to %v, %v", u.Raw, p, err)
			}
			if u.Importance != c.URLs[0].Importance || u.Importance <= 0 {
				t.Errorf("cluster %s: importance %g and %g", c.ID, u.Importance, c.URLs[0].Importance)
			}
			if u.Inlinks < 1 {
				t.Errorf("URL %q: %d in-links", u.Raw, u.Inlinks)
			}
		}
	}
	if want := len(families) * small.Sites; len(sites) != want {
		t.Errorf("%d sites, want %d", len(sites), want)
	}
	size := map[string]int{}
	for _, c := range cls {
		size[c.ID] = len(c.URLs)
	}
	for _, id := range d.Noise {
		if size[id] < 2 {
			t.Errorf("noise cluster %s has %d URLs", id, size[id])
		}
	}
}

// TestTraps checks that every trap is one: its two URLs are in the file, in different
// clusters, and its naive rule maps them to one URL; and that every family has traps and
// noise clusters.
func TestTraps(t *testing.T) {
	d, _ := generate(t, small)
	cluster := map[string]string{}
	for _, l := range d.Lines {
		cluster[l.URL] = l.Cluster
	}
	traps := map[string]int{}
	for _, tr := range d.Traps {
		traps[tr.Family]++
		a, b := tr.Naive.Apply(tr.A), tr.Naive.Apply(tr.B)
		switch {
		case cluster[tr.A] == "" || cluster[tr.B] == "":
			t.Errorf("%s %s: a URL is not in the file: %q, %q", tr.Family, tr.Kind, tr.A, tr.B)
		case cluster[tr.A] == cluster[tr.B]:
			t.Errorf("%s %s: %q and %q are one page (%s)", tr.Family, tr.Kind, tr.A, tr.B, cluster[tr.A])
		case a != b:
			t.Errorf("%s %s: %v maps %q to %q and %q to %q", tr.Family, tr.Kind, tr.Naive, tr.A, a, tr.B, b)
		}
	}
	noise := map[string]int{}
	for _, id := range d.Noise {
		noise[FamilyOf(id)]++
	}
	for _, f := range families {
		if traps[f.Name] == 0 || noise[f.Name] == 0 {
			t.Errorf("family %s: %d traps, %d noise clusters", f.Name, traps[f.Name], noise[f.Name])
		}
	}
}

// TestSeeds generates small datasets of many seeds: none may fail (a URL on two pages, two
// sites on one host) or hang. UNDUST_LONG=1 tries 100 seeds.
func TestSeeds(t *testing.T) {
	n := uint64(8)
	switch {
	case os.Getenv("UNDUST_LONG") != "":
		n = 100
	case testing.Short():
		n = 3
	}
	for seed := range n {
		if _, err := Generate(Options{Seed: seed, Sites: 2, Scale: 0.1}); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

// TestApply checks the naive rules on one URL each.
func TestApply(t *testing.T) {
	for _, tc := range []struct {
		rw      Rewrite
		in, out string
	}{
		{Rewrite{Op: DropParam, Arg: "f"}, "http://a.example/v.php?f=2&t=7#p9", "http://a.example/v.php?t=7#p9"},
		{Rewrite{Op: DropParam, Arg: "f"}, "http://a.example/v.php?f=2", "http://a.example/v.php"},
		{Rewrite{Op: DropParam, Arg: "f"}, "http://a.example/v.php?ff=2&f=1&f=3", "http://a.example/v.php?ff=2"}, // every occurrence, names exact
		{Rewrite{Op: SetSegment, Index: 1}, "http://a.example/docs/1.2/x.html?q=1", "http://a.example/docs/*/x.html?q=1"},
		{Rewrite{Op: SetSegment, Index: 5}, "http://a.example/docs/1.2", "http://a.example/docs/1.2"}, // no such segment
		{Rewrite{Op: DropSegment, Index: 3}, "http://a.example/t/x/7/print", "http://a.example/t/x/7"},
		{Rewrite{Op: DropSegment, Index: 3}, "http://a.example/2009/05/x/feed/", "http://a.example/2009/05/x/"},
		{Rewrite{Op: DropSegment, Index: 3}, "http://a.example/2009/05/x/", "http://a.example/2009/05/x/"}, // the empty segment after the slash stays
		{Rewrite{Op: CutSuffix}, "http://a.example/ann/photo-x7Kq?a=b-c", "http://a.example/ann/photo?a=b-c"},
		{Rewrite{Op: CutSuffix}, "http://a.example/a-b/photo", "http://a.example/a-b/photo"}, // only the last segment
		{Rewrite{Op: LowerPath}, "http://A.example/Docs/FAQ.html?Q=X", "http://A.example/docs/faq.html?Q=X"},
		{Rewrite{Op: StripIndex}, "http://a.example/dir/index.html", "http://a.example/dir"},
		{Rewrite{Op: StripIndex}, "http://a.example/dir/Default.aspx", "http://a.example/dir"},
		{Rewrite{Op: StripIndex}, "http://a.example/setup/", "http://a.example/setup"},
		{Rewrite{Op: StripIndex}, "http://a.example/", "http://a.example"},
		{Rewrite{Op: ReplacePrefix, Arg: "http://m.a.example", To: "https://a.example"}, "http://m.a.example/x", "https://a.example/x"},
		{Rewrite{Op: ReplacePrefix, Arg: "http://m.a.example", To: "https://a.example"}, "http://a.example/x", "http://a.example/x"},
	} {
		if got := tc.rw.Apply(tc.in); got != tc.out {
			t.Errorf("%v.Apply(%q) = %q, want %q", tc.rw, tc.in, got, tc.out)
		}
	}
}

// TestOptions checks the errors of Generate: an unknown family and sizes beyond the bounds.
func TestOptions(t *testing.T) {
	if _, err := Generate(Options{Families: []string{"forum", "nosuch"}}); !errors.Is(err, ErrUnknownFamily) {
		t.Errorf("unknown family: %v, want ErrUnknownFamily", err)
	}
	if _, err := Generate(Options{Sites: 2000}); err == nil {
		t.Errorf("2000 sites a family: no error")
	}
	if _, err := Generate(Options{Scale: 1e6}); err == nil {
		t.Errorf("scale 1e6: no error")
	}
	d, err := Generate(Options{Families: []string{"mirror", "mirror"}, Sites: 1, Scale: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Summaries(); len(s) != 2 || s[0].Family != "mirror" || s[0].Sites != 1 || s[1].Family != "all" {
		t.Errorf("a family named twice: summaries %+v", s)
	}
}
