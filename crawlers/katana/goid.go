package undustkatana

import (
	"runtime"
	"strconv"
)

// goid returns the id of the calling goroutine, read from the first line of its stack trace
// ("goroutine 123 [running]:"). Go gives no goroutine-local storage; this is how a body
// that katana's standard engine hands to UniqueContent is paired with the result it writes
// next on the same goroutine (see the package documentation). It returns 0 if the line does
// not have that form.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return 0
	}
	b = b[len(prefix):]
	i := 0
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	n, err := strconv.ParseUint(string(b[:i]), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
