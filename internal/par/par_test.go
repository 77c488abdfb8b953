package par

import (
	"sync/atomic"
	"testing"
)

// Every item is done exactly once, whatever the number of workers, including none and more
// workers than items.
func TestFor(t *testing.T) {
	for _, tt := range []struct{ n, workers int }{{0, 4}, {1, 0}, {5, 1}, {100, 3}, {3, 16}, {7, -2}} {
		var hits = make([]int32, tt.n)
		var calls atomic.Int32
		For(tt.n, tt.workers, func(i int) {
			atomic.AddInt32(&hits[i], 1)
			calls.Add(1)
		})
		if int(calls.Load()) != tt.n {
			t.Errorf("For(%d, %d): %d calls", tt.n, tt.workers, calls.Load())
		}
		for i, h := range hits {
			if h != 1 {
				t.Errorf("For(%d, %d): item %d done %d times", tt.n, tt.workers, i, h)
			}
		}
	}
}
