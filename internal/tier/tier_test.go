package tier

import "testing"

func TestStep(t *testing.T) {
	tests := []struct {
		long string // UNDUST_LONG
		n    int
		want int // without -short
	}{
		{"", 7, 7},  // the default tier: every n-th item
		{"0", 7, 7}, // "0" does not ask for the exhaustive tier
		{"1", 7, 1}, // the exhaustive tier: every item
		{"yes", 1, 1},
	}
	for _, tt := range tests {
		t.Setenv("UNDUST_LONG", tt.long)
		want := tt.want
		if testing.Short() && tt.want != 1 {
			want *= 10
		}
		if got := Step(tt.n); got != want {
			t.Errorf("Step(%d) with UNDUST_LONG=%q = %d, want %d", tt.n, tt.long, got, want)
		}
		if got := Long(); got != (tt.want == 1) {
			t.Errorf("Long() with UNDUST_LONG=%q = %v", tt.long, got)
		}
	}
}
