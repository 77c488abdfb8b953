package lcs

import (
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// TestHostileLinear checks that Code and Eliminate cost linear time and
// memory in their input: many paragraphs, many empty ones, one long line,
// many codes and one long code.
func TestHostileLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	// No cut and every paragraph a unit: the whole text makes the code.
	all, err := NewExtractor(&Options{MaxChars: -1, UnitChars: -1})
	if err != nil {
		t.Fatal(err)
	}
	sizes := hostile.Growth{Sizes: []int{1 << 14, 1 << 15, 1 << 16, 1 << 17}, MaxCPURatio: 4}
	codeShapes := []struct {
		name string
		gen  func(n int) []string
	}{
		{"paragraphs", func(n int) []string { return hostile.Paragraphs(n/40, 8) }},
		{"empty paragraphs", func(n int) []string { return make([]string, n) }},
		{"one-word paragraphs", func(n int) []string { return strings.Split(strings.Repeat("ab\n", n/3), "\n") }},
		{"long line", func(n int) []string { return []string{hostile.LongLine(n)} }},
	}
	for _, s := range codeShapes {
		t.Run("Code/"+s.name, func(t *testing.T) {
			in := map[int][]string{}
			for _, n := range sizes.Sizes {
				in[n] = s.gen(n)
			}
			hostile.Linear(t, sizes, func(n int) int { return len(all.Code(in[n])) })
		})
	}
	elimShapes := []struct {
		name string
		gen  func(n int) []string
	}{
		// Many codes of about 200 symbols, most of them unlike each other.
		{"many codes", func(n int) []string {
			codes := hostile.Paragraphs(n/200, 40)
			for i, c := range codes {
				codes[i] = strings.ReplaceAll(c, " ", "")
			}
			return codes
		}},
		// Two long codes sharing half their text.
		{"long codes", func(n int) []string {
			a := hostile.LongLine(n / 4)
			b := strings.ReplaceAll(strings.Join(hostile.Paragraphs(n/80, 8), ""), " ", "")
			return []string{a + b, b[:len(b)/2] + a}
		}},
		// Identical codes: every one a duplicate.
		{"same code", func(n int) []string {
			c := hostile.LongLine(300)
			codes := make([]string, n/len(c)+1)
			for i := range codes {
				codes[i] = c
			}
			return codes
		}},
	}
	for _, s := range elimShapes {
		t.Run("Eliminate/"+s.name, func(t *testing.T) {
			in := map[int][]string{}
			for _, n := range sizes.Sizes {
				in[n] = s.gen(n)
			}
			hostile.Linear(t, sizes, func(n int) int { return len(Eliminate(in[n], 0)) })
		})
	}
}
