package rules

import (
	"errors"
	"strconv"
)

// Sentinel errors that callers branch on. They come wrapped in an *Error (from [Set.Normalize]
// and [NewSet]) or a *ParseError (from [Set.ReadFrom]); use errors.Is.
var (
	// ErrCycle reports that the rewrites of a URL came back to a URL seen before: normalization
	// stopped instead of looping and returned its input (with Options.Key, the input's key).
	ErrCycle = errors.New("rewrite cycle")
	// ErrRewriteLimit reports that a URL was still being rewritten after the set's bound on
	// rewrites (Options.MaxRewrites, 8 by default): normalization stopped with the last URL.
	ErrRewriteLimit = errors.New("rewrite limit reached")
	// ErrInvalidRule reports a rule that NewSet or the reader rejects; the message says why.
	ErrInvalidRule = errors.New("invalid rule")
	// ErrFormat reports a rule file that is not in the format, or of another version.
	ErrFormat = errors.New("malformed rule file")
	// ErrTooManyRules reports a set of more rules than Options.MaxRules (DefaultMaxRules unless
	// set): NewSet and the reader refuse it rather than grow without bound.
	ErrTooManyRules = errors.New("too many rules")
)

// An Error reports a failure of an operation on one URL or one rule: the operation
// ("normalize", "rule 3"), the input and the cause, which is one of this package's sentinel
// errors or an error from package urlnorm. It is a plain value, safe to share once returned.
type Error struct {
	Op    string // "normalize", "canonical", "rule 3"
	Input string // the URL or the rule, as given
	Err   error
}

func (e *Error) Error() string {
	return "rules: " + e.Op + " " + quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns the cause, so errors.Is(err, rules.ErrCycle) works.
func (e *Error) Unwrap() error { return e.Err }

// A ParseError reports a line of a rule file that the reader rejects: its 1-based line number,
// the line (shortened) and the cause, which wraps ErrFormat or ErrInvalidRule. It is a plain
// value, safe to share once returned.
type ParseError struct {
	Line int
	Text string
	Err  error
}

func (e *ParseError) Error() string {
	return "rules: line " + strconv.Itoa(e.Line) + " " + quote(e.Text) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// detail is an error that adds a message to a sentinel: "invalid rule: delete of host".
type detail struct {
	sentinel error
	msg      string
}

func (d *detail) Error() string { return d.sentinel.Error() + ": " + d.msg }
func (d *detail) Unwrap() error { return d.sentinel }

func invalid(msg string) error   { return &detail{ErrInvalidRule, msg} }
func malformed(msg string) error { return &detail{ErrFormat, msg} }

// quote quotes s for an error message, shortened to keep messages readable.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}
