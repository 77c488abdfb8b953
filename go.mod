module github.com/undust/undust

go 1.26.0

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
)
