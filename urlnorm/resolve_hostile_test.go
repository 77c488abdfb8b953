package urlnorm

import (
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// hostileRefs are adversarial (base, reference) shapes of about n bytes or
// more each.
var hostileRefs = []struct {
	name string
	gen  func(n int) (base, ref string)
}{
	{"dotdot", func(n int) (string, string) { return "http://a.com/b/c", hostile.RelativeRef("../", n/3) }},
	{"dot", func(n int) (string, string) { return "http://a.com/b/c", hostile.RelativeRef("./", n/2) }},
	{"escaped-dotdot", func(n int) (string, string) { return "http://a.com/b/c", hostile.RelativeRef("%2e%2E/", n/7) }},
	{"segments", func(n int) (string, string) { return "http://a.com/b/c", hostile.RelativeRef("a/", n/2) }},
	{"slashes", func(n int) (string, string) { return "http://a.com/b/c", "/" + hostile.RelativeRef("/", n) }},
	{"backslashes", func(n int) (string, string) { return "http://a.com/b/c", hostile.RelativeRef(`a\`, n/2) }},
	{"deep-base-dotdot", func(n int) (string, string) {
		return hostile.RepeatedSegments("a/", n/4), hostile.RelativeRef("../", n/6)
	}},
	{"file-drive-dotdot", func(n int) (string, string) { return "file:///C:/a/b", hostile.RelativeRef("../", n/3) }},
	{"query", func(n int) (string, string) { return "http://a.com/b?x=1#f", "?" + strings.Repeat("k=v&", n/4) }},
	{"fragment", func(n int) (string, string) { return "http://a.com/b?x=1#f", "#" + strings.Repeat("f", n) }},
	{"tabs", func(n int) (string, string) { return "http://a.com/b/c", strings.Repeat("a\t", n/2) }},
	{"scheme-relative-labels", func(n int) (string, string) {
		return "https://a.com/", "//" + strings.Repeat("www.", n/4) + "a.com/"
	}},
}

// TestResolveLinear checks that Resolve and ResolveKey cost at most linear
// bytes, CPU time and output in the length of the reference and base.
func TestResolveLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	key, err := NewOptions(Aggressive, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	canon, err := NewOptions(Safe, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	sizes := hostile.Growth{Sizes: []int{1 << 12, 1 << 13, 1 << 14, 1 << 15}, MaxBytesRatio: 3, Repeat: 5}
	if raceEnabled {
		sizes.MaxCPURatio = -1 // see race_test.go
	}
	for _, h := range hostileRefs {
		t.Run(h.name, func(t *testing.T) {
			type in struct{ base, ref string }
			ins := map[int]in{}
			for _, k := range sizes.Sizes {
				b, r := h.gen(k)
				ins[k] = in{b, r}
			}
			for _, f := range []struct {
				name string
				run  func(base, ref string) (string, error)
			}{{"ResolveKey", key.ResolveKey}, {"Resolve", canon.Resolve}} {
				run := func(k int) int {
					out, err := f.run(ins[k].base, ins[k].ref)
					if err != nil {
						t.Fatalf("%s: %v", f.name, err)
					}
					return len(out) + len(ins[k].ref)
				}
				run(sizes.Sizes[0])
				hostile.Linear(t, sizes, run)
			}
		})
	}
}

// TestGuessLinear checks that deciding whether scheme-less input starts with
// a host costs linear time: long dotted names, long relative paths.
func TestGuessLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	n, err := NewOptions(Aggressive, Options{MaxLength: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	sizes := hostile.Growth{Sizes: []int{1 << 12, 1 << 13, 1 << 14, 1 << 15}, MaxBytesRatio: 3, Repeat: 5}
	if raceEnabled {
		sizes.MaxCPURatio = -1
	}
	for _, g := range []func(k int) string{
		func(k int) string { return strings.Repeat("a.", k/2) + "com/x" },
		func(k int) string { return strings.Repeat("a.", k/2) + "php" },
		func(k int) string { return hostile.RelativeRef("../", k/3) },
		func(k int) string { return strings.Repeat("u@", k/2) + "a.com/" },
	} {
		hostile.Linear(t, sizes, func(k int) int {
			out, _ := n.Key(g(k))
			return len(out) + k
		})
	}
}
