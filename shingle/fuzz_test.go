package shingle

import (
	"slices"
	"strings"
	"testing"
)

// FuzzHashes checks that the fast tokenizer and hasher agree with the
// reference on any text and any options, and that tokenizing the
// space-joined tokens again is the identity (tokens are normalized).
func FuzzHashes(f *testing.F) {
	for _, tt := range tokenTests {
		f.Add(tt.in, uint8(tt.o.Width), uint8(tt.o.Case), uint8(tt.o.Unit), tt.o.NoNFKC, tt.o.Punct, tt.o.StopWords)
	}
	f.Fuzz(func(t *testing.T, s string, w, c, u uint8, noNFKC, punct, stop bool) {
		o := Options{Width: int(w % 9), Case: Case(c % 3), Unit: Unit(u % 2), NoNFKC: noNFKC, Punct: punct, StopWords: stop}
		want := slowTokens(s, o)
		got := Tokens(s, o)
		if !slices.Equal(want, got) {
			t.Fatalf("Tokens(%q, %+v) = %q, reference %q", s, o, got, want)
		}
		if h, sh := Hashes(s, o), slowHashes(s, o); !slices.Equal(h, sh) {
			t.Fatalf("Hashes(%q, %+v) = %x, reference %x", s, o, h, sh)
		}
		if o.Unit == Words && !o.Punct && !o.NoNFKC && o.Case == Lower {
			again := Tokens(strings.Join(got, " "), o)
			if !slices.Equal(again, got) {
				t.Fatalf("Tokens not idempotent on %q: %q then %q", s, got, again)
			}
		}
	})
}
