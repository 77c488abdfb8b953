package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestLoopDefault runs the loop as `go run ./examples/frontier` does (its flags' defaults) and
// checks that neither the learned pass nor the online pass loses a page: a case-folding rule
// learned from another host's evidence once lost one there, and on no smaller site.
func TestLoopDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("the default site takes seconds")
	}
	r, err := loop(config{size: 300, seed: 1, maxFetches: 4000, out: t.TempDir(), quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.lost() != 0 || r.lost3() != 0 {
		t.Errorf("pass 2 lost %d distinct pages, pass 3 %d; want 0", r.lost(), r.lost3())
	}
	// A verification fetch of an already-fetched page is one of pass 3's verification fetches.
	if r.causes3.verify > r.verified {
		t.Errorf("pass 3: %d verification fetches of an already-fetched page, of %d verification fetches", r.causes3.verify, r.verified)
	}
	// A URL fetched is not fetched again: a URL fetched to check a match, and found to be the
	// page it was checked against, is linked again while its rule's uses are still checked
	// (seen: a URL of the default site fetched twice as a check, without the crawl core's
	// memory of the URLs its checks fetched).
	for _, c := range []*crawl{r.p2, r.p3} {
		seen := map[string]bool{}
		for _, f := range c.fetches {
			if f.status == 200 && seen[f.url] {
				t.Errorf("%s fetched %s again", c.name, f.url)
			}
			seen[f.url] = true
		}
	}
}

// The closed loop on a small site: pass 2 needs fewer fetches than pass 1, loses no distinct
// page, and the rules file and the picture are written; pass 3, which learns as it goes, needs
// fewer fetches than pass 1 and loses no distinct page either.
func TestLoop(t *testing.T) {
	dir := t.TempDir()
	r, err := loop(config{size: 80, seed: 5, maxFetches: 1500, out: dir, quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.lost() != 0 {
		t.Errorf("pass 2 lost %d distinct pages", r.lost())
	}
	if len(r.r2.pages) != r.pages {
		t.Errorf("pass 2 discovered %d of the site's %d pages", len(r.r2.pages), r.pages)
	}
	if r.r2.fetches >= r.r1.fetches/2 {
		t.Errorf("pass 2 made %d fetches, pass 1 %d: want less than half", r.r2.fetches, r.r1.fetches)
	}
	if r.lost3() != 0 {
		t.Errorf("pass 3 (online) lost %d distinct pages", r.lost3())
	}
	if len(r.r3.pages) != r.pages {
		t.Errorf("pass 3 discovered %d of the site's %d pages", len(r.r3.pages), r.pages)
	}
	if r.r3.fetches >= r.r1.fetches || r.online.Relearns == 0 {
		t.Errorf("pass 3 made %d fetches (%d relearns), pass 1 %d: want fewer", r.r3.fetches, r.online.Relearns, r.r1.fetches)
	}
	if r.rules == 0 {
		t.Error("no rules learned")
	}
	// Every fetch of an already-fetched page has one cause, and pass 2 verifies nothing.
	for _, c := range []struct {
		name   string
		causes dupCauses
		want   int
	}{{"pass 2", r.causes2, r.r2.dupFetch}, {"pass 3", r.causes3, r.r3.dupFetch}} {
		if n := c.causes.verify + c.causes.late + c.causes.offline + c.causes.neither; n != c.want {
			t.Errorf("%s: causes %+v add up to %d, want its %d fetches of an already-fetched page", c.name, c.causes, n, c.want)
		}
	}
	if r.causes2.verify != 0 {
		t.Errorf("pass 2 made %d verification fetches", r.causes2.verify)
	}
	for _, p := range []string{r.rulesPath, r.svg} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	svg, _ := os.ReadFile(r.svg)
	if !bytes.HasPrefix(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("<polyline")) {
		t.Errorf("picture is not an SVG with lines: %.60q", svg)
	}
	var out strings.Builder
	r.print(&out)
	for _, want := range []string{"fetches per distinct page", "distinct pages lost:        0", "pass 3 pages lost:          0", "rules learned:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// Every -size in the flag's range finishes: the site at both ends of the range, each pass with
// a budget that stops it or lets it empty its frontier, and no page lost.
func TestLoopSizes(t *testing.T) {
	tests := []struct {
		size, budget int
		finished     bool // pass 1 empties its frontier within the budget
	}{
		{10, 4000, true},     // the least size: every pass ends by itself
		{100000, 300, false}, // the greatest: the budget stops every pass
	}
	for _, tt := range tests {
		r, err := loop(config{size: tt.size, seed: 2, maxFetches: tt.budget, out: t.TempDir(), quiet: true})
		if err != nil {
			t.Fatalf("size %d: %v", tt.size, err)
		}
		if r.p1.finished != tt.finished || (tt.finished && !(r.p2.finished && r.p3.finished)) {
			t.Errorf("size %d, budget %d: passes finished %v %v %v, want %v", tt.size, tt.budget,
				r.p1.finished, r.p2.finished, r.p3.finished, tt.finished)
		}
		if r.lost() != 0 || r.lost3() != 0 {
			t.Errorf("size %d: pass 2 lost %d distinct pages, pass 3 %d; want 0", tt.size, r.lost(), r.lost3())
		}
	}
}

// A site of ten thousand pages, crawled to the end, loses no page either. On it a rule that
// lowercases a whole wiki title is learned before the wiki shows its case-sensitive twins, and
// a URL of one twin is skipped under an alternative key as a duplicate of the other; once the
// rule is gone, that URL must give its key back, or every later URL of its page is skipped as
// a duplicate of the twin. It takes a minute or two: UNDUST_LONG=1.
func TestLoopLarge(t *testing.T) {
	if os.Getenv("UNDUST_LONG") == "" {
		t.Skip("set UNDUST_LONG=1 to crawl a site of 10000 pages three times")
	}
	r, err := loop(config{size: 10000, seed: 1, maxFetches: 200000, out: t.TempDir(), quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	if !(r.p1.finished && r.p2.finished && r.p3.finished) {
		t.Fatalf("passes finished %v %v %v, want all", r.p1.finished, r.p2.finished, r.p3.finished)
	}
	if r.lost() != 0 || r.lost3() != 0 {
		t.Errorf("pass 2 lost %d distinct pages, pass 3 %d; want 0", r.lost(), r.lost3())
	}
}

// Without -out the rules and the picture go to a temporary directory that run removes.
func TestRunRemovesTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out strings.Builder
	if err := run(config{size: 10, seed: 1, maxFetches: 100, quiet: true}, &out); err != nil {
		t.Fatal(err)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 || !strings.Contains(out.String(), "not kept") {
		t.Errorf("run left %d entries in the temporary directory; report:\n%s", len(left), out.String())
	}
}

// TestFlags checks the exit codes and messages of the flags: -h describes the command and exits
// 0; bad values and arguments that are not flags exit 2 with a message naming them.
func TestFlags(t *testing.T) {
	tests := []struct {
		args []string
		code int
		ok   bool
		msg  string // in stderr
	}{
		{nil, 0, true, ""},
		{[]string{"-size", "50", "-q"}, 0, true, ""},
		{[]string{"-h"}, 0, false, "frontier crawls a simulated site"},
		{[]string{"-size", "5"}, 2, false, "-size 5: want 10 to 100000"},
		{[]string{"-max", "0"}, 2, false, "-max 0: want at least 1"},
		{[]string{"extra"}, 2, false, `unexpected argument "extra"`},
		{[]string{"-bogus"}, 2, false, "flag provided but not defined"},
	}
	for _, tc := range tests {
		var errb strings.Builder
		_, code, ok := parseConfig(tc.args, &errb)
		if code != tc.code || ok != tc.ok || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("parseConfig(%q) = %d, %v, stderr %q; want %d, %v and %q", tc.args, code, ok, errb.String(), tc.code, tc.ok, tc.msg)
		}
	}
}
