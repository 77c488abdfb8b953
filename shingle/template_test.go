package shingle

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/internal/hostile"
)

// slowTemplates is the reference learner: it keeps every page and, to
// judge a feature, counts the pages of each group that have it.
type slowTemplates struct {
	o     TemplateOptions
	pages []slowPage
}

type slowPage struct {
	host, path string
	fs         map[uint64]bool
}

// slowSplit parses a URL the obvious way: host lower-cased, and the
// directories of the path, each one a prefix ending in '/'.
func slowSplit(rawURL string, depth int) (host string, groups []string, ok bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", nil, false
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	groups = []string{"/"}
	segs := strings.Split(p[1:], "/")
	dir := "/"
	for _, s := range segs[:len(segs)-1] { // the last segment is a file name
		if len(groups) > depth {
			break
		}
		dir += s + "/"
		groups = append(groups, dir)
	}
	return strings.ToLower(u.Host), groups, true
}

func (s *slowTemplates) add(rawURL string, fs []uint64) {
	host, _, ok := slowSplit(rawURL, s.o.Depth)
	if !ok {
		return
	}
	p := slowPage{host: host, path: rawURL, fs: map[uint64]bool{}}
	for _, f := range fs {
		p.fs[f] = true
	}
	s.pages = append(s.pages, p)
}

func (s *slowTemplates) kept(rawURL string, fs []uint64) []uint64 {
	host, groups, ok := slowSplit(rawURL, s.o.Depth)
	if !ok {
		return nil
	}
	var out []uint64
	for _, f := range fs {
		template := false
		for _, g := range groups {
			n, df := 0, 0
			for _, p := range s.pages {
				_, pg, _ := slowSplit(p.path, s.o.Depth)
				if p.host != host || !slices.Contains(pg, g) {
					continue
				}
				n++
				if p.fs[f] {
					df++
				}
			}
			if df >= s.o.MinPages && float64(df) >= s.o.Fraction*float64(n) {
				template = true
			}
		}
		if !template {
			out = append(out, f)
		}
	}
	return out
}

func TestTemplates(t *testing.T) {
	toc := []uint64{100, 101, 102} // a manual's table of contents
	footer := []uint64{900}        // the whole site's footer
	page := func(own ...uint64) []uint64 {
		return append(append(append([]uint64{}, toc...), footer...), own...)
	}
	type add struct {
		url string
		fs  []uint64
	}
	var adds []add
	// Manual m1: 6 pages under /m1/, each with the TOC, the footer and
	// text of its own; pages 1 and 2 are near duplicates (share 10, 11).
	for i := range 6 {
		own := []uint64{uint64(10 + i*10)}
		if i == 1 {
			own = []uint64{10, 11}
		}
		if i == 0 {
			own = []uint64{10, 11, 12}
		}
		adds = append(adds, add{fmt.Sprintf("https://Docs.Example/m1/p%d.html", i), page(own...)})
	}
	// Manuals m2..m9: 6 pages each with the footer and their own TOC.
	for m := 2; m <= 9; m++ {
		for i := range 6 {
			adds = append(adds, add{fmt.Sprintf("https://docs.example/m%d/p%d.html", m, i),
				[]uint64{900, uint64(1000 * m), uint64(1000*m + 100 + i)}})
		}
	}
	tl := NewTemplates(TemplateOptions{Fraction: 0.5})
	for _, a := range adds {
		if err := tl.Add(a.url, a.fs); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		url  string
		fs   []uint64
		want []uint64
	}{
		// TOC on 6 of 54 host pages but 6 of 6 in /m1/; footer on all 54.
		{"https://docs.example/m1/p0.html", page(10, 11, 12), []uint64{10, 11, 12}},
		// Near-duplicate text on 2 pages stays (MinPages).
		{"https://docs.example/m1/p1.html", page(10, 11), []uint64{10, 11}},
		// Repetitions and order are kept.
		{"https://docs.example/m1/p9.html", []uint64{7, 100, 7, 900, 3}, []uint64{7, 7, 3}},
		// The host is case-insensitive; query strings do not matter.
		{"https://DOCS.example/m3/x.html?a=1", []uint64{3000, 900, 3101}, []uint64{3101}},
		// Another host has learned nothing.
		{"https://other.example/m1/p0.html", page(1), page(1)},
		// m1's TOC is not template in /m2/ (0 of 6), only the footer is.
		{"https://docs.example/m2/p0.html", page(1), []uint64{100, 101, 102, 1}},
		// A page at the root has only the host's group.
		{"https://docs.example/", page(1), []uint64{100, 101, 102, 1}},
	}
	for _, tt := range tests {
		got, err := tl.AppendKept(nil, tt.url, tt.fs)
		if err != nil {
			t.Fatalf("AppendKept(%q): %v", tt.url, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("AppendKept(%q, %v) mismatch (-want +got):\n%s", tt.url, tt.fs, diff)
		}
	}
	if got := tl.Pages("https://docs.example/x"); got != len(adds) {
		t.Errorf("Pages = %d, want %d", got, len(adds))
	}
}

func TestTemplatesBadURL(t *testing.T) {
	tl := NewTemplates(TemplateOptions{})
	for _, u := range []string{
		"/relative/path.html", // no host
		"http://[::1",         // does not parse
		"",                    // empty
	} {
		if err := tl.Add(u, []uint64{1}); err == nil {
			t.Errorf("Add(%q) = nil error, want one", u)
		} else if !strings.HasPrefix(err.Error(), "shingle: ") {
			t.Errorf("Add(%q) error %q lacks the package prefix", u, err)
		}
		dst := []uint64{7}
		got, err := tl.AppendKept(dst, u, []uint64{1})
		if err == nil || !slices.Equal(got, dst) {
			t.Errorf("AppendKept(%q) = %v, %v; want [7] and an error", u, got, err)
		}
	}
}

func TestAppendGroups(t *testing.T) {
	tests := []struct {
		path  string
		depth int
		want  []string
	}{
		{"/a/b/c/x.html", 3, []string{"/", "/a/", "/a/b/", "/a/b/c/"}},
		{"/a/b/c/x.html", 1, []string{"/", "/a/"}},
		{"/a/b/", 5, []string{"/", "/a/", "/a/b/"}}, // a trailing '/' names a directory
		{"/x.html", 3, []string{"/"}},
		{"", 3, []string{"/"}},
		{"a/b", 3, []string{"/", "/a/"}}, // opaque-looking paths get a leading '/'
		{"/a//b", 3, []string{"/", "/a/", "/a//"}},
		{"/a/b/c", 0, []string{"/"}},
	}
	for _, tt := range tests {
		if got := appendGroups(nil, tt.path, tt.depth); !slices.Equal(got, tt.want) {
			t.Errorf("appendGroups(%q, %d) = %q, want %q", tt.path, tt.depth, got, tt.want)
		}
	}
}

// randomSite returns pages of a site with manuals in directories: each page
// has its manual's template, a site template and text of its own, and some
// pages are copies of others.
func randomSite(r *rand.Rand, n int) (urls []string, fss [][]uint64) {
	hosts := []string{"a.example", "B.example"}
	for i := range n {
		host := hosts[r.IntN(len(hosts))]
		m := r.IntN(4)
		dir := fmt.Sprintf("/doc/m%d/", m)
		if r.IntN(3) == 0 {
			dir += fmt.Sprintf("s%d/", r.IntN(3))
		}
		u := fmt.Sprintf("https://%s%sp%d.html", host, dir, i)
		var fs []uint64
		for range r.IntN(6) {
			fs = append(fs, uint64(1000+m*10+r.IntN(10))) // manual template, patchy
		}
		if r.IntN(4) > 0 {
			fs = append(fs, 7) // site template
		}
		for range r.IntN(8) {
			fs = append(fs, r.Uint64N(200)) // own text, sometimes shared
		}
		if len(fss) > 0 && r.IntN(5) == 0 {
			fs = append(fs, fss[r.IntN(len(fss))]...) // a copy
		}
		urls = append(urls, u)
		fss = append(fss, fs)
	}
	return urls, fss
}

// TestTemplatesReference compares the learner with the reference on random
// sites, and checks that the order of adding pages does not matter.
func TestTemplatesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		o := TemplateOptions{MinPages: 1 + r.IntN(6), Fraction: []float64{0.05, 0.3, 0.5, 0.9}[r.IntN(4)], Depth: r.IntN(4) - 1}
		urls, fss := randomSite(r, 5+r.IntN(80))
		fast := NewTemplates(o)
		fast2 := NewTemplates(o)
		slow := &slowTemplates{o: fast.o}
		for i := range urls {
			if err := fast.Add(urls[i], fss[i]); err != nil {
				t.Fatal(err)
			}
			slow.add(urls[i], fss[i])
		}
		for _, i := range r.Perm(len(urls)) {
			fast2.Add(urls[i], fss[i])
		}
		for i := range urls {
			want := slow.kept(urls[i], fss[i])
			got, _ := fast.AppendKept(nil, urls[i], fss[i])
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d %+v: AppendKept(%q, %v) = %v, reference %v", trial, o, urls[i], fss[i], got, want)
			}
			got2, _ := fast2.AppendKept(nil, urls[i], fss[i])
			if !slices.Equal(got2, want) {
				t.Fatalf("trial %d %+v: in another order AppendKept(%q) = %v, want %v", trial, o, urls[i], got2, want)
			}
		}
	}
}

// TestTemplatesBound checks MaxEntries: a host never holds more, and a full
// host keeps features it has not counted.
func TestTemplatesBound(t *testing.T) {
	const max = 50
	tl := NewTemplates(TemplateOptions{MaxEntries: max, MinPages: 2, Fraction: 0.1})
	for i := range 100 {
		fs := []uint64{1, 2, uint64(100 + i), uint64(200 + i)}
		if err := tl.Add(fmt.Sprintf("https://h.example/d%d/p.html", i%3), fs); err != nil {
			t.Fatal(err)
		}
		if n := tl.Entries("https://h.example/"); n > max {
			t.Fatalf("after %d pages: %d entries, bound %d", i+1, n, max)
		}
	}
	// 1 and 2 were counted from the start: template. 999 was never seen,
	// 250 came after the host was full: kept.
	got, _ := tl.AppendKept(nil, "https://h.example/d0/p.html", []uint64{1, 2, 999, 250})
	if want := []uint64{999, 250}; !slices.Equal(got, want) {
		t.Errorf("full host: AppendKept = %v, want %v", got, want)
	}
	if n := tl.Entries("https://other.example/"); n != 0 {
		t.Errorf("Entries of an unknown host = %d, want 0", n)
	}
}

func TestTemplatesAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	tl := NewTemplates(TemplateOptions{})
	fs := []uint64{1, 2, 3, 4, 5}
	const u = "https://h.example/a/b/c/d/e.html"
	for range 10 {
		tl.Add(u, fs)
	}
	dst := make([]uint64, 0, 8)
	// url.Parse allocates the *URL; nothing else may.
	if n := testing.AllocsPerRun(100, func() { dst, _ = tl.AppendKept(dst[:0], u, fs) }); n > 1 {
		t.Errorf("AppendKept allocates %v times, want at most 1", n)
	}
}

// TestAppendTemplate checks the union over hosts against the reference:
// a feature is in it when some page has it and AppendKept drops it there.
func TestAppendTemplate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		o := TemplateOptions{MinPages: 1 + r.IntN(5), Fraction: []float64{0.05, 0.5}[r.IntN(2)], Depth: r.IntN(3)}
		urls, fss := randomSite(r, 5+r.IntN(60))
		tl := NewTemplates(o)
		slow := &slowTemplates{o: tl.o}
		for i := range urls {
			tl.Add(urls[i], fss[i])
			slow.add(urls[i], fss[i])
		}
		want := map[uint64]bool{}
		for i := range urls {
			kept := slow.kept(urls[i], fss[i])
			for _, f := range fss[i] {
				if !slices.Contains(kept, f) {
					want[f] = true
				}
			}
		}
		got := tl.AppendTemplate([]uint64{42})
		if got[0] != 42 || !slices.IsSorted(got[1:]) || len(slices.Compact(slices.Clone(got[1:]))) != len(got)-1 {
			t.Fatalf("trial %d: AppendTemplate([42]) = %v: want 42 then a sorted set", trial, got)
		}
		set := Set(got[1:])
		if len(set) != len(want) {
			t.Fatalf("trial %d %+v: %d template features, reference %d", trial, o, len(set), len(want))
		}
		for f := range want {
			if !set.Contains(f) {
				t.Fatalf("trial %d: %d missing from AppendTemplate", trial, f)
			}
		}
	}
}

// TestTemplatesLinear feeds pages whose URLs have n directories and n
// features: with the default Depth, learning and filtering stay linear in
// n, and memory stays under MaxEntries.
func TestTemplatesLinear(t *testing.T) {
	sizes := []int{1 << 12, 1 << 13, 1 << 14}
	if testing.Short() {
		sizes = sizes[:2]
	}
	// Map operations on maps outgrowing the caches of a shared machine
	// vary in CPU time beyond any ratio a doubling check can allow (the
	// per-feature cost was flat from 4K to 64K features in a benchmark),
	// so CPU time is not checked; bytes and allocations are.
	hostile.Linear(t, hostile.Growth{Sizes: sizes, MaxCPURatio: -1}, func(n int) int {
		u := "https://h.example" + strings.Repeat("/d", n) + "/p.html"
		fs := make([]uint64, n)
		for i := range fs {
			fs[i] = uint64(i) * 0x9E3779B97F4A7C15
		}
		tl := NewTemplates(TemplateOptions{MaxEntries: 4 * n})
		for range 8 {
			if err := tl.Add(u, fs); err != nil {
				t.Fatal(err)
			}
		}
		kept, _ := tl.AppendKept(nil, u, fs)
		if len(kept) != 0 || tl.Entries(u) > 4*n {
			t.Fatalf("n=%d: %d kept, %d entries", n, len(kept), tl.Entries(u))
		}
		return 0
	})
}
