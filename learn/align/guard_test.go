package align

import (
	"fmt"
	"testing"

	"github.com/undust/undust/learn"
)

// TestForumGuard is TestForumTrap with a start= of its own on every forum page: deleting f=
// then merges no two clusters of the training or validation half, and only the guard keeps the
// host-wide "delete f" out of viewforum.php, where f= names the forum.
func TestForumGuard(t *testing.T) {
	var cls []learn.Cluster
	for i := range 60 {
		f, tp := i%6+1, 1000+i
		cls = append(cls, cluster(fmt.Sprintf("bb-t%d", tp),
			fmt.Sprintf("http://bb.org/viewtopic.php?f=%d&t=%d", f, tp),
			fmt.Sprintf("http://bb.org/viewtopic.php?t=%d", tp),
			fmt.Sprintf("http://bb.org/viewtopic.php?f=%d&t=%d&sid=%08x", f, tp, i*7919)))
	}
	for f := 1; f <= 12; f++ {
		cls = append(cls, cluster(fmt.Sprintf("bb-f%d", f), fmt.Sprintf("http://bb.org/viewforum.php?f=%d&start=%d", f, 25*f)))
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"http://bb.org/viewtopic.php?f=3&t=5555", "http://bb.org/viewtopic.php?t=5555"},
		{"http://bb.org/viewforum.php?f=3&start=50", "http://bb.org/viewforum.php?f=3&start=50"},
		{"http://bb.org/viewforum.php?f=4&start=50", "http://bb.org/viewforum.php?f=4&start=50"},
	}
	for _, tt := range tests {
		if got, err := set.Normalize(tt.in); err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
