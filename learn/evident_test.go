package learn

import "testing"

func TestHashAbbrev(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://h/info/bb8308f945", "http://h/info/bb8308f9454618b1", true},
		{"http://h/info/bb8308f9454618b1", "http://h/info/bb8308f945", true},
		{"http://h/wdiff?id=85e26b2e46", "http://h/wdiff?id=85e26b2e46464e0e", true},
		{"http://h/wdiff?id=85e26b2e46&x=1", "http://h/wdiff?id=85e26b2e46464e0e&x=1", true},
		{"http://h/info/bb8308f945", "http://h/info/bb8308f945", false},             // one URL
		{"http://h/info/bb8308f945", "http://h/info/cc8308f9454618b1", false},       // not a prefix
		{"http://h/info/bb8308f", "http://h/info/bb8308f9454618b1", false},          // shorter than hashid.MinLen
		{"http://h/wiki?name=Hello", "http://h/wiki?name=HelloWorld", false},        // words, not hashes
		{"http://h/info/bb8308f945", "http://h/ci/bb8308f9454618b1", false},         // two tokens differ
		{"http://h/a/bb8308f945/x", "http://h/a/bb8308f9454618b1/y", false},         // two tokens differ
		{"http://h/a?id=bb8308f945", "http://h/a/id=bb8308f9454618b1", false},       // another delimiter
		{"http://h/a/bb8308f945", "http://h/a/bb8308f9454618b1/", false},            // a segment more
		{"http://h/info/bb8308f945?a", "http://h/info/bb8308f9454618b1?b=1", false}, // query differs too
		{"", "http://h/", false},
	} {
		if got := hashAbbrev(tc.a, tc.b); got != tc.want {
			t.Errorf("hashAbbrev(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
