package urlnorm

import (
	"strconv"
	"unicode/utf8"
)

// An Error reports a URL that could not be normalized or tokenized: the operation, the input
// and the cause, which is one of this package's sentinel errors or an error from a lower layer.
type Error struct {
	Op  string // "canonical", "key", "tokenize", "resolve", "resolve key", "resolve base"
	URL string // the input at fault, as given (the base for "resolve base")
	Err error
}

func (e *Error) Error() string {
	msg := "unknown error"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return "urlnorm: " + e.Op + " " + quote(e.URL) + ": " + msg
}

// Unwrap returns the cause, so errors.Is(err, urlnorm.ErrTooLong) works.
func (e *Error) Unwrap() error { return e.Err }

// quote quotes s for an error message, shortened to keep messages readable.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		// Cut at a rune boundary so the quoted text stays valid UTF-8.
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "..."
	}
	return strconv.Quote(s)
}
