package hostile

import (
	"strconv"
	"strings"
)

// Generators for package deeptoken's pattern text (Patterns.AppendText, read by
// ParsePatterns): one host's patterns, lines of "key", "node" and "anchor" statements.

// PatternManyKeys returns the patterns of n query keys q<i>, each a root "*" with one anchor.
func PatternManyKeys(n int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString("key query =q")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\nnode 0 *\nanchor 0 0 ^ - a\nnode 1 a - *\n")
	}
	return []byte(b.String())
}

// PatternHighPaths returns n path keys at the highest positions a path key can have
// (32767, 32766, ...), each a bare root: a reader that indexes path trees by position in a
// slice allocates a slot for every position below the highest, whatever n is.
func PatternHighPaths(n int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString("key path ")
		b.WriteString(strconv.Itoa(32767 - i))
		b.WriteString("\nnode 0 *\n")
	}
	return []byte(b.String())
}

// PatternDeep returns one path key whose tree is a chain n nodes deep (deeptoken reads at most
// 1000 levels), each node with one anchor.
func PatternDeep(n int) []byte {
	var b strings.Builder
	b.WriteString("key path 1\nnode 0 *\n")
	for d := 1; d <= n; d++ {
		b.WriteString("anchor 0 0 ^ - a\nnode ")
		b.WriteString(strconv.Itoa(d))
		b.WriteString(" a - *\n")
	}
	return []byte(b.String())
}

// PatternWide returns one path key whose root has n children, each with a literal of its own
// (x<i> in base 26 letters), and n anchors.
func PatternWide(n int) []byte {
	var b strings.Builder
	b.WriteString("key path 1\nnode 0 *\n")
	for i := range n {
		b.WriteString("anchor 0 0 ^ - ")
		b.WriteString(letters(i))
		b.WriteByte('\n')
	}
	for i := range n {
		b.WriteString("node 1 ")
		b.WriteString(letters(i))
		b.WriteString(" - *\n")
	}
	return []byte(b.String())
}

// PatternLongLiteral returns one path key whose root has an anchor and a child with a literal
// unit of n letters.
func PatternLongLiteral(n int) []byte {
	lit := strings.Repeat("a", n)
	return []byte("key path 1\nnode 0 *\nanchor 0 0 ^ - " + lit + "\nnode 1 " + lit + " - *\n")
}

// letters spells i in base 26 with the letters a to z, least significant first: 0 is "a",
// 26 is "ab".
func letters(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			break
		}
	}
	return string(b)
}
