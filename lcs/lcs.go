package lcs

import "unicode/utf8"

// Longest returns the longest common substring of a and b, compared rune by
// rune (an invalid UTF-8 byte counts as U+FFFD), as a substring of b. Of
// several, it returns the one that ends first in b. It takes time linear in
// len(a)+len(b), times log σ for σ distinct runes: it builds the suffix
// automaton of a and walks b through it.
func Longest(a, b string) string {
	if a == "" || b == "" {
		return ""
	}
	var m automaton
	m.insert(a, 0)
	n, end, _ := m.longest(b, utf8.RuneCountInString(b), 0)
	if n == 0 {
		return ""
	}
	// Find the start going forwards: the runes of b are those of ranging
	// over it, which backward decoding of invalid UTF-8 need not match.
	k := utf8.RuneCountInString(b[:end]) - n
	for i := range b {
		if k == 0 {
			return b[i:end]
		}
		k--
	}
	panic("unreachable")
}

// Repeatability returns S_ij of Guo et al. (Definition 2): the share of the
// feature code cj, in runes, covered by its longest common substring with
// ci. It is not symmetric: Repeatability(ci, cj) >= δ says page j duplicates
// page i, its content being (almost) contained in page i's. It returns 0
// when cj is empty.
func Repeatability(ci, cj string) float64 {
	n := utf8.RuneCountInString(cj)
	if n == 0 {
		return 0
	}
	return float64(utf8.RuneCountInString(Longest(ci, cj))) / float64(n)
}
