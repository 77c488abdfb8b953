package trafilatura

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzExtractText checks that ExtractText neither panics nor hangs on any
// input, fails only in the documented ways, gives well-formed paragraphs
// and is deterministic.
func FuzzExtractText(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.html")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{"", "<p>a", "<pre>x\n\ny</pre>", "<table><td>a<td>b", "\xff<b>\x00</i>", strings.Repeat("<div>", 520)} {
		f.Add([]byte(s))
	}
	// Small limits keep every run fast: the extractor's time grows faster
	// than linearly in the number of elements.
	e := Extractor{MaxBytes: 1 << 13, MaxElements: 1000}
	f.Fuzz(func(t *testing.T, page []byte) {
		got, err := e.ExtractText(page)
		if err != nil {
			var pe *PanicError
			if errors.As(err, &pe) {
				t.Fatalf("ExtractText(%q) panicked: %v\n%s", page, pe.Value, pe.Stack)
			}
			if !errors.Is(err, ErrTooLarge) && !strings.HasPrefix(err.Error(), "trafilatura: parse: ") {
				t.Fatalf("ExtractText(%q): undocumented error %v", page, err)
			}
			return
		}
		for _, p := range append([]string{got.Title}, got.Paragraphs...) {
			if p != collapse(p) {
				t.Fatalf("ExtractText(%q): paragraph or title %q not collapsed", page, p)
			}
		}
		for _, p := range got.Paragraphs {
			if p == "" {
				t.Fatalf("ExtractText(%q): empty paragraph", page)
			}
		}
		again, err := e.ExtractText(page)
		if err != nil || !reflect.DeepEqual(got, again) {
			t.Fatalf("ExtractText(%q) not deterministic: %+v then %+v, %v", page, got, again, err)
		}
	})
}
