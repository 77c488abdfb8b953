package deeptoken

// Unit kinds. A token value is cut into units: maximal runs of one character class (the paper's
// "unit change" is a boundary between classes) and single delimiters (any other character; a
// percent-escape "%2F" is one delimiter because it encodes one character).
const (
	kindLower uint8 = iota + 1 // "abc"
	kindUpper                  // "QQ", "ID"
	kindCap                    // "Austria": one capital and the lowercase letters after it
	kindDigit                  // "0810900"
	kindOther                  // a run of bytes >= 0x80 (UTF-8 letters of other scripts)
	kindDelim                  // one delimiter: "-", "[", "%2F"
)

// unit is a piece of a token value: value[start:end].
type unit struct {
	start, end int32
	kind       uint8
}

// alnum reports whether the unit can be a candidate anchor (WSDM'10 Definition 3).
func (u unit) alnum() bool { return u.kind != kindDelim }

// numeric reports whether the unit is a number; other candidate anchors are alphabetic.
func (u unit) numeric() bool { return u.kind == kindDigit }

func classOf(c byte) uint8 {
	switch {
	case 'a' <= c && c <= 'z':
		return kindLower
	case 'A' <= c && c <= 'Z':
		return kindUpper
	case '0' <= c && c <= '9':
		return kindDigit
	case c >= 0x80:
		return kindOther
	}
	return kindDelim
}

// classes is classOf as a table, for appendUnits.
var classes = func() (t [256]uint8) {
	for c := range t {
		t[c] = classOf(byte(c))
	}
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// appendUnits appends the units of s to dst. An uppercase letter followed by a lowercase one
// starts a capitalized word ("Austria", the "Parser" of "HTMLParser") unless a lowercase letter
// comes before it (the "Z" of eBay's "nkwZtips" is a delimiter); otherwise a change of class
// ends a unit.
func appendUnits(dst []unit, s string) []unit {
	for i := 0; i < len(s); {
		c := s[i]
		k := classes[c]
		j := i + 1
		switch k {
		case kindDelim:
			if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				j = i + 3
			}
		case kindUpper:
			if j < len(s) && classes[s[j]] == kindLower && (i == 0 || classes[s[i-1]] != kindLower) {
				k = kindCap
				for j < len(s) && classes[s[j]] == kindLower {
					j++
				}
				break
			}
			// An uppercase run stops before the capital of a following word: "HTMLParser".
			for j < len(s) && classes[s[j]] == kindUpper && !(j+1 < len(s) && classes[s[j+1]] == kindLower) {
				j++
			}
		default:
			for j < len(s) && classes[s[j]] == k {
				j++
			}
		}
		dst = append(dst, unit{start: int32(i), end: int32(j), kind: k})
		i = j
	}
	return dst
}
