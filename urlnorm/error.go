package urlnorm

import "strconv"

// An Error reports a URL that could not be normalized or tokenized: the operation, the input
// and the cause, which is one of this package's sentinel errors or an error from a lower layer.
type Error struct {
	Op  string // "canonical", "key", "tokenize"
	URL string // the input, as given
	Err error
}

func (e *Error) Error() string {
	return "urlnorm: " + e.Op + " " + quote(e.URL) + ": " + e.Err.Error()
}

// Unwrap returns the cause, so errors.Is(err, urlnorm.ErrTooLong) works.
func (e *Error) Unwrap() error { return e.Err }

// quote quotes s for an error message, shortened to keep messages readable.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}
