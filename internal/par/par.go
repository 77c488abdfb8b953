// Package par runs independent work items on a fixed number of goroutines, for the learners'
// sites-in-parallel stage.
package par

import "sync"

// For calls f(i) for every i in [0, n), on min(workers, n) goroutines (at least one), and returns
// when every call has returned. Items are handed out in increasing order; f must be safe to call
// from several goroutines for different i. Results that f writes to index i of a slice need no
// further synchronization once For returns.
func For(n, workers int, f func(i int)) {
	workers = min(max(workers, 1), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
