// Package corpus gives benchmarks and opt-in tests the evaluation corpora
// that stay out of the repository: the near-duplicate page corpus in the
// directory named by $UNDUST_NEARDUP and the dupclusters URL corpus in the
// directory named by $UNDUST_DUPCLUSTERS (see DESIGN.md for both formats).
//
// Every function takes the running test or benchmark and skips it when its
// variable is unset, so the default test run never needs the data; with the
// variable set, a missing or malformed file fails it.
//
// It is for _test.go files only: it imports package testing.
package corpus
