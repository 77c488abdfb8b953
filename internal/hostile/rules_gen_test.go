package hostile

import (
	"bytes"
	"strings"
	"testing"
)

// TestRuleGenerators checks that every rule, TSV and pattern generator is deterministic and has the shape its doc
// promises: line counts, lengths, the byte placed at an offset.
func TestRuleGenerators(t *testing.T) {
	for _, tc := range []struct {
		name   string
		gen    func() string
		lines  int // newlines, or -1 not to check
		minLen int
	}{
		{"LongLiteralRule", func() string { return LongLiteralRule(70_000, 5) }, 1, 70_000},
		{"DistinctKeyRules", func() string { return DistinctKeyRules(100) }, 100, 0},
		{"DistinctSegmentRules", func() string { return DistinctSegmentRules(100) }, 100, 0},
		{"SharedKeyRules", func() string { return SharedKeyRules(100) }, 100, 0},
		{"ManyHostRules", func() string { return ManyHostRules(100) }, 100, 0},
		{"ManyConditionsRule", func() string { return ManyConditionsRule(100) }, 1, 100 * 8},
		{"DistinctKeyURL", func() string { return DistinctKeyURL(100) }, 0, 100 * 4},
		{"DistinctSegmentURL", func() string { return DistinctSegmentURL(100) }, 0, 200},
		{"TSVLongURL", func() string { return TSVLongURL(1000) }, 1, 1000},
		{"TSVManyFields", func() string { return TSVManyFields(100) }, 1, 100},
		{"TSVManyClusters", func() string { return TSVManyClusters(100) }, 100 + 7, 0},
		{"CDXLongURL", func() string { return CDXLongURL(1000) }, 1, 1000},
		{"CDXManyFields", func() string { return CDXManyFields(100) }, 2, 200},
		{"CDXManyCaptures", func() string { return CDXManyCaptures(100) }, 100, 0},
		{"CDXJNested", func() string { return CDXJNested(100) }, 1, 300},
		{"PatternManyKeys", func() string { return string(PatternManyKeys(10)) }, 40, 0},
		{"PatternHighPaths", func() string { return string(PatternHighPaths(10)) }, 20, 0},
		{"PatternDeep", func() string { return string(PatternDeep(10)) }, 22, 0},
		{"PatternWide", func() string { return string(PatternWide(30)) }, 62, 0},
		{"PatternLongLiteral", func() string { return string(PatternLongLiteral(100)) }, 4, 200},
	} {
		a, b := tc.gen(), tc.gen()
		if a != b {
			t.Errorf("%s: two calls differ", tc.name)
		}
		if n := strings.Count(a, "\n"); tc.lines >= 0 && n != tc.lines {
			t.Errorf("%s: %d lines, want %d", tc.name, n, tc.lines)
		}
		if len(a) < tc.minLen {
			t.Errorf("%s: %d bytes, want at least %d", tc.name, len(a), tc.minLen)
		}
	}
	// The "#" of LongLiteralRule is where it is asked for, and only there.
	const pre = `rule host=h.example cov=1 prec=1 sup=1 if then query("q")="`
	l := LongLiteralRule(100, 42)
	if strings.Count(l, "#") != 1 || l[len(pre)+42] != '#' {
		t.Errorf("LongLiteralRule(100, 42) has its # at %d, want %d", strings.IndexByte(l, '#'), len(pre)+42)
	}
	if !bytes.HasPrefix(RulesFileV1("x"), []byte(RulesHeaderV1)) {
		t.Errorf("RulesFileV1 does not start with the header")
	}
	if letters(0) != "a" || letters(26) != "ab" {
		t.Errorf("letters(0), letters(26) = %q, %q", letters(0), letters(26))
	}
}
