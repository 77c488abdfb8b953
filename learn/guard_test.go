package learn

import (
	"fmt"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// phpbbClusters is a phpBB forum: in viewtopic.php f= is redundant (t= names the topic), in
// viewforum.php f= names the forum. Every forum page of the training clusters has a start= of
// its own, so deleting f= merges no two training clusters: only the guard against
// over-generalization (Evidence.Identifying) keeps the deletion out of viewforum.php.
func phpbbClusters() []Cluster {
	var cls []Cluster
	for i := range 60 {
		f, tp := i%6+1, 1000+i
		cls = append(cls, Cluster{ID: fmt.Sprintf("bb-t%d", tp), Site: "bb", URLs: []URL{
			{Raw: fmt.Sprintf("http://bb.org/viewtopic.php?f=%d&t=%d", f, tp)},
			{Raw: fmt.Sprintf("http://bb.org/viewtopic.php?t=%d", tp)},
			{Raw: fmt.Sprintf("http://bb.org/viewtopic.php?f=%d&t=%d&sid=%08x", f, tp, i*7919)},
		}})
	}
	for f := 1; f <= 12; f++ {
		cls = append(cls, Cluster{ID: fmt.Sprintf("bb-f%d", f), Site: "bb", URLs: []URL{
			{Raw: fmt.Sprintf("http://bb.org/viewforum.php?f=%d&start=%d", f, 25*f)},
		}})
	}
	return cls
}

func TestPhpbbForumGuard(t *testing.T) {
	normalizes(t, phpbbClusters(), []struct{ in, want string }{
		// an unseen topic: f goes
		{"http://bb.org/viewtopic.php?f=3&t=5555", "http://bb.org/viewtopic.php?t=5555"},
		// unseen forum pages keep f: it names the forum
		{"http://bb.org/viewforum.php?f=3&start=50", "http://bb.org/viewforum.php?f=3&start=50"},
		{"http://bb.org/viewforum.php?f=4&start=50", "http://bb.org/viewforum.php?f=4&start=50"},
	})
}

// normalizes learns rules from cls with the default options and checks what they make of each
// URL in.
func normalizes(t *testing.T, cls []Cluster, tests []struct{ in, want string }) {
	t.Helper()
	set, _, err := Learn(cls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if got, err := set.Normalize(tt.in); err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// commitSite is a repository browser's file view, /r/tree/src/f<i>.c?id=<commit>, seen at 30
// commits: every third commit changes one of the 10 files, and a crawl saw most files at each
// commit. A file is one page between the commits that change it.
func commitSite() []Cluster {
	byPage := map[string]*Cluster{}
	var order []string
	ver := make([]int, 10)
	for c := range 30 {
		commit := fmt.Sprintf("%08x%032x", uint32(c+1)*2654435761, c*7919)
		if c%3 == 2 {
			ver[(c*7)%10]++
		}
		for f := range 10 {
			if (c+f)%4 == 0 {
				continue
			}
			id := fmt.Sprintf("f%d-v%d", f, ver[f])
			cl := byPage[id]
			if cl == nil {
				cl = &Cluster{ID: "git.example.org-" + id, Site: "git.example.org"}
				byPage[id] = cl
				order = append(order, id)
			}
			cl.URLs = append(cl.URLs, URL{Raw: fmt.Sprintf("http://git.example.org/r/tree/src/f%d.c?id=%s", f, commit)})
		}
	}
	out := make([]Cluster, len(order))
	for i, id := range order {
		out[i] = *byPage[id]
	}
	return out
}

// TestLearnVersionSwaps checks that a rules file holds no rule that maps one commit's files onto
// another's on a site of several commits (DropVersionSwaps): each is right for the files that
// its training clusters saw at both commits, wrong for a file changed between them, and a rules
// file has no verification. With that off, the learner writes such rules and they join
// versions of one file.
func TestLearnVersionSwaps(t *testing.T) {
	joined := func() (int, int) {
		cls := commitSite()
		set, _, err := Learn(cls, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pages := map[string]map[string]bool{} // key -> clusters
		for _, c := range cls {
			for _, u := range c.URLs {
				k, err := set.Normalize(u.Raw)
				if err != nil {
					t.Fatal(err)
				}
				if pages[k] == nil {
					pages[k] = map[string]bool{}
				}
				pages[k][c.ID] = true
			}
		}
		n := 0
		for _, p := range pages {
			if len(p) > 1 {
				n++
			}
		}
		return set.Len(), n
	}
	if rules, n := joined(); n != 0 {
		t.Errorf("%d rules join two versions of a file under %d keys", rules, n)
	}
	turnOff(t, &ablate.NoVersionSwap)
	if rules, n := joined(); n == 0 {
		t.Errorf("with version swaps kept, %d rules join no two versions of a file: the test shows nothing", rules)
	}
}
