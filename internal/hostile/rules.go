package hostile

import (
	"strconv"
	"strings"
)

// Generators for package rules: rule lines in the text format of rules.Rule.AppendText (with
// the "rule " prefix and a newline), and files around them. They write text only, so that the
// rules package can use them in its own tests without an import cycle.

// RulesHeaderV1 is the first line of a version 1 rule file, the version without an end line.
const RulesHeaderV1 = "undust-rules v1\n"

// RulesFileV1 returns a version 1 rule file: the header and then body.
func RulesFileV1(body string) []byte { return []byte(RulesHeaderV1 + body) }

// LongLiteralRule returns a rule line of host h.example whose Assign literal is n bytes of
// "a", except the byte at offset hashAt of the literal, which is "#" (no "#" if hashAt is
// negative or not below n). Placed so that the literal's byte lands at a reader's buffer
// boundary (64 KiB for a bufio.Reader of that size), it checks that a reader keeps long lines
// whole rather than cutting or dropping them.
func LongLiteralRule(n, hashAt int) string {
	var b strings.Builder
	b.Grow(n + 100)
	b.WriteString(`rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`)
	for i := range n {
		if i == hashAt {
			b.WriteByte('#')
		} else {
			b.WriteByte('a')
		}
	}
	b.WriteString("\"\n")
	return b.String()
}

// DistinctKeyRules returns n rule lines of one host, h.example, each with an Equal condition
// on a query key of its own, query("k<i>")="v", and an action that leaves a URL with that
// value as it is (it assigns the value again). Each rule has a different coverage, so their
// precedence is the order i = n-1 down to 0. A decision tree that splits on the key most rules
// share finds no shared key: naively it becomes a chain of n levels, each rescanning the rest.
func DistinctKeyRules(n int) string {
	var b strings.Builder
	for i := range n {
		k := strconv.Itoa(i)
		b.WriteString(`rule host=h.example cov=`)
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(` prec=1 sup=1 if query("k`)
		b.WriteString(k)
		b.WriteString(`")="v" then query("k`)
		b.WriteString(k)
		b.WriteString("\")=\"v\"\n")
	}
	return b.String()
}

// DistinctKeyURL returns the URL of host h.example that every rule of DistinctKeyRules(n)
// matches and none changes: http://h.example/?k0=v&k1=v&...&k<n-1>=v.
func DistinctKeyURL(n int) string {
	var b strings.Builder
	b.WriteString("http://h.example/?")
	for i := range n {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString("k")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("=v")
	}
	return b.String()
}

// SharedKeyRules returns n rule lines of one host, h.example, that all match the URL
// http://h.example/a?x=1 (SharedKeyURL) and none of which changes it: each deletes a query
// parameter d<i> that the URL lacks. They differ in coverage, so precedence tries them in the
// order i = n-1 down to 0; a matcher that starts every try from scratch does n² work.
func SharedKeyRules(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`rule host=h.example cov=`)
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(` prec=1 sup=1 if path(1,-)="a" query("x")=* then query("d`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\")=-\n")
	}
	return b.String()
}

// ExclusiveRules returns n rules of host h.example, each of which rewrites the one-segment path
// "a<i>" to "b<i>", which no rule matches: what each rule's output is known to be excludes
// every other rule, so a builder that checks every pair of rules takes quadratic time.
func ExclusiveRules(n int) string {
	var b strings.Builder
	for i := range n {
		k := strconv.Itoa(i)
		b.WriteString(`rule host=h.example cov=1 prec=1 sup=1 if path(1,-)="a`)
		b.WriteString(k)
		b.WriteString(`" path(2,-)=- then path(1,-)="b`)
		b.WriteString(k)
		b.WriteString("\"\n")
	}
	return b.String()
}

// SharedKeyURL is the URL that every rule of SharedKeyRules matches.
const SharedKeyURL = "http://h.example/a?x=1"

// ManyHostRules returns n rule lines, one per host h<i>.example, each rewriting the first path
// segment: the common shape of a learned set, for measuring load and build per rule.
func ManyHostRules(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`rule host=h`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`.example cov=2 prec=1 sup=2 if path(1,-)="a" path(2,-)=* then path(1,-)="b"`)
		b.WriteByte('\n')
	}
	return b.String()
}

// ManyConditionsRule returns one rule line of host h.example with n conditions, on the path
// segments 1..n, each "s".
func ManyConditionsRule(n int) string {
	var b strings.Builder
	b.WriteString(`rule host=h.example cov=1 prec=1 sup=1 if`)
	for i := range n {
		b.WriteString(" path(")
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(`,-)="s"`)
	}
	b.WriteString(" then scheme=\"https\"\n")
	return b.String()
}

// DistinctSegmentRules is DistinctKeyRules on path segments: rule i has the condition
// path(i+1,-)="v" and assigns it again. DistinctSegmentURL(n) has all n segments.
func DistinctSegmentRules(n int) string {
	var b strings.Builder
	for i := range n {
		k := strconv.Itoa(i + 1)
		b.WriteString(`rule host=h.example cov=`)
		b.WriteString(k)
		b.WriteString(` prec=1 sup=1 if path(`)
		b.WriteString(k)
		b.WriteString(`,-)="v" then path(`)
		b.WriteString(k)
		b.WriteString(",-)=\"v\"\n")
	}
	return b.String()
}

// DistinctSegmentURL returns http://h.example/v/v/.../v with n segments, the URL that every rule
// of DistinctSegmentRules(n) matches and none changes.
func DistinctSegmentURL(n int) string {
	return "http://h.example" + strings.Repeat("/v", n)
}
