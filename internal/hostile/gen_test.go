package hostile

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// TestGenerators checks the worked values in the generators' docs, their
// sizes and that they are deterministic.
func TestGenerators(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{string(NestedTags("div", 2)), "<div>w0 <div>w1 </div></div>"},
		{RepeatedLabels("www.", 3), "http://www.www.www.a.com/"},
		{RepeatedSegments("../", 2), "http://a.com/../../x"},
		{QueryParams(3, true), "http://a.com/p?k0=v&k1=v&k2=v"},
		{QueryParams(3, false), "http://a.com/p?k=2&k=1&k=0"},
		{string(Repeated("w<br>", 2)), "w<br>w<br>"},
		{string(StrayEndTags(1, 2)), "<div>x</span></span>"},
		{string(NestedTags("p", 0)), ""},
		{RepeatedLabels("www.", -1), "http://a.com/"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if n := len(SimhashIndex(3, 4, 10)); n != 28+16*10+4 {
		t.Errorf("SimhashIndex of 10 entries has %d bytes", n)
	}
	if n := len(LSHIndex(9, 14, 10)); n != 11+32+8*10*10+8 {
		t.Errorf("LSHIndex of 10 documents has %d bytes", n)
	}
	if n := len(MixedText(1000, 1)); n < 1000 || n > 1100 {
		t.Errorf("MixedText(1000, 1) has %d bytes", n)
	}
	if MixedText(0, 1) != "" || MixedText(300, 1) == MixedText(300, 2) {
		t.Error("MixedText: not empty for 0 bytes, or the same text for two seeds")
	}
	if !bytes.Equal(LSHIndex(4, 4, 50), LSHIndex(4, 4, 50)) || !bytes.Equal(BadBytes(3), BadBytes(3)) || MixedText(500, 3) != MixedText(500, 3) {
		t.Error("generators are not deterministic")
	}
	cuts := Truncations(SimhashIndex(3, 4, 10), 4)
	if len(cuts) != 5 || len(cuts[0]) != 0 || len(cuts[4]) != 28+16*10+4-1 {
		t.Errorf("Truncations: %d cuts", len(cuts))
	}
	for _, n := range []int{0, 1, 5, 100, 1001} {
		if s := LongLine(n); len(s) > n || len(s) < n-3 || !utf8.ValidString(s) {
			t.Errorf("LongLine(%d) has %d bytes, valid UTF-8 %v", n, len(s), utf8.ValidString(s))
		}
	}
	if p := Paragraphs(3, 4); len(p) != 3 || p[0] == p[1] {
		t.Errorf("Paragraphs(3, 4) = %q", p)
	}
	if utf8.Valid(BadBytes(1)) || bytes.IndexByte(BadBytes(1), 0) < 0 {
		t.Error("BadBytes holds no invalid UTF-8 or no NUL")
	}
}
