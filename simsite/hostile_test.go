package simsite

import (
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// New's time and memory grow linearly with the site's size, up to the largest it accepts
// (the sort of the pages adds a log factor that the doubling ratios absorb).
func TestNewLinear(t *testing.T) {
	sizes := []int{MaxPages / 8, MaxPages / 4, MaxPages / 2, MaxPages}
	if testing.Short() {
		sizes = sizes[:3]
	}
	hostile.Linear(t, hostile.Growth{Sizes: sizes}, func(n int) int {
		if _, err := New(n, 1); err != nil {
			t.Fatal(err)
		}
		return 0
	})
}
