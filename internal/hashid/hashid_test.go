package hashid

import "testing"

func TestLike(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"bb8308f9454618b1", true},                         // a hex abbreviation (Fossil)
		{"329b166b75", true},                               // 10 hex digits
		{"0123ABCD", true},                                 // upper-case hex, MinLen long
		{"0123abc", false},                                 // shorter than MinLen
		{"12345678901", false},                             // a number: no letter
		{"deadbeefcafe", false},                            // hex letters, no digit: a word can be
		{"0123abCD", false},                                // hex of two cases, too few class changes
		{"dQw4w9WgXcQ", true},                              // base62 id
		{"dQw4w9Wg-cQ", false},                             // not of the alphabet
		{"MFRGGZDFMZTWQ2LK", false},                        // upper-case base32: too few class changes
		{"Release2024Notes", false},                        // a title with a number
		{"Main_Page", false},                               // a wiki title: no digit
		{"bb8308f9.54618b1", false},                        // not of the alphabet
		{"page-2024-05-apple", false},                      // a slug
		{"f896228a8bc577f22dd1eb0f84a743c9125e4815", true}, // a full SHA-1
	} {
		if got := Like(tc.v); got != tc.want {
			t.Errorf("Like(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
