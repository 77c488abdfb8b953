// Package hashid tells values that look like hashes or random ids from words and numbers, for
// the learners of package learn and learn/align: a content-addressed store (the web front-end of
// a version-control system) links one object by abbreviations of its hash of several lengths,
// and a value that is a prefix of another is evidence of one object only when both are random:
// a word is a prefix of other words by chance.
package hashid

// MinLen is the shortest value that Like takes for a hash, and so the shortest abbreviation
// of a hash that a learned prefix keeps: 8 characters. Two objects of a site share a random
// 8-hex-digit prefix (32 bits) with probability 2^-32, so a site of 10,000 objects has about
// 0.01 such pairs (n²/2^33); at 7 digits, git's shortest abbreviation, 0.19. Base62 digits carry
// almost 48 bits in 8 characters. Fossil links by 10 and 16 hex digits, gitweb by whole hashes.
const MinLen = 8

// Like reports whether v looks like a hash or a random id, not a word or a number: at least
// MinLen characters, and either hexadecimal of one case with a digit and a letter, or of
// digits and ASCII letters (base62, base36) with a digit and a change of class (digit, lower,
// upper) at one place in three at least. A random hex value of 8 digits or more almost surely
// has a digit and a letter, a random base62 value changes class at about two places in three,
// and a title such as "Release2024Notes" at 4 places of 15. An upper-case base32 value changes
// class too rarely to be told from a code word and is not taken; nor is a value with another
// byte ('-', '_', '.'), which slugs and file names have.
func Like(v string) bool {
	if len(v) < MinLen {
		return false
	}
	class := func(c byte) int {
		switch {
		case '0' <= c && c <= '9':
			return 1
		case 'a' <= c && c <= 'z':
			return 2
		case 'A' <= c && c <= 'Z':
			return 3
		}
		return 0
	}
	lowerHex, upperHex, digit := true, true, false
	changes := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		k := class(c)
		if k == 0 {
			return false
		}
		digit = digit || k == 1
		lowerHex = lowerHex && (k == 1 || 'a' <= c && c <= 'f')
		upperHex = upperHex && (k == 1 || 'A' <= c && c <= 'F')
		if i > 0 && class(v[i-1]) != k {
			changes++
		}
	}
	switch {
	case !digit:
		return false
	case lowerHex || upperHex:
		return changes > 0 // a digit and a letter
	}
	return 3*changes >= len(v)-1
}
