package learn

import (
	"fmt"
	"testing"
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
