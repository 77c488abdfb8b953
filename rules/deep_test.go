package rules

import (
	"testing"

	"github.com/undust/undust/urlnorm"
)

// TestSameDeep checks sameDeep, written out so that it is inlined, against its definition by
// sameToken on every pair of keys of a grid of parts, positions, deep-token indexes and names.
func TestSameDeep(t *testing.T) {
	ref := func(t, k urlnorm.Key) bool {
		return t.Sub != 0 && sameToken(t, k) && (k.Sub == 0 || t.Sub == k.Sub) && (k.RSub == 0 || t.RSub == k.RSub)
	}
	var keys []urlnorm.Key
	for _, part := range []urlnorm.Part{urlnorm.PartPath, urlnorm.PartQuery, urlnorm.PartHost, urlnorm.PartFragment} {
		for _, name := range []string{"", "a", "b"} {
			for pos := range int16(3) {
				for rpos := range int16(3) {
					for sub := range int16(3) {
						for rsub := range int16(3) {
							keys = append(keys, urlnorm.Key{Part: part, Pos: pos, RPos: rpos, Sub: sub, RSub: rsub, Name: name})
						}
					}
				}
			}
		}
	}
	same := 0
	for _, a := range keys {
		for _, b := range keys {
			want := ref(a, b)
			if got := sameDeep(a, b); got != want {
				t.Fatalf("sameDeep(%+v, %+v) = %v, want %v", a, b, got, want)
			}
			if want {
				same++
			}
		}
	}
	if same == 0 {
		t.Error("no pair of keys is the same: the test checks nothing")
	}
}
