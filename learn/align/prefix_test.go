package align

import (
	"testing"

	"github.com/undust/undust/learn"
)

// TestHashPrefixes checks that abbreviations of one hash of several lengths (a version-control
// front-end's /info/H and /wdiff?id=H) are cut to the shortest, and that other hashes, and a
// value shorter than the cut, stay apart.
func TestHashPrefixes(t *testing.T) {
	cls := readClusters(t, "patterns/hashes.tsv", learn.ReaderOptions{})
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	key := func(u string) string {
		k, err := set.Normalize(u)
		if err != nil {
			t.Fatalf("Normalize(%q): %v", u, err)
		}
		return k
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://vcs.example.org/info/0123456789abcdef0123456789abcdef01234567", "http://vcs.example.org/info/0123456789abcdef", true},
		{"http://vcs.example.org/wdiff?id=fedcba9876543210", "http://vcs.example.org/wdiff?id=fedcba9876", true},
		{"http://vcs.example.org/info/0123456789abcdef", "http://vcs.example.org/info/0123456789abcdee", false},
		{"http://vcs.example.org/info/0123456789ab", "http://vcs.example.org/info/0123456789abcdef", false},
		{"http://vcs.example.org/wdiff?id=fedcba9876", "http://vcs.example.org/wdiff?id=fedcba9875", false},
	} {
		if a, b := key(tc.a), key(tc.b); (a == b) != tc.same {
			t.Errorf("keys of %q and %q: %q, %q; want one key: %v", tc.a, tc.b, a, b, tc.same)
		}
	}
}
