package shingle

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/undust/undust/internal/tier"
)

// corpusTexts returns the texts of testdata/pages.jsonl (see
// testdata/ORIGIN.md), paragraphs joined by blank lines.
func corpusTexts(tb testing.TB) []string {
	tb.Helper()
	f, err := os.Open("testdata/pages.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct {
			Paragraphs []string `json:"paragraphs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatal(err)
		}
		texts = append(texts, strings.Join(p.Paragraphs, "\n\n"))
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return texts
}

// TestHashesCorpusMatchReference checks the fast tokenizer and hasher
// against the reference on real Chinese and English pages, whole and in
// pieces of 1000 bytes that start at every 485th byte (every 97th in the
// exhaustive tier, tier.Step; cuts that split runes included), under the
// default options and others.
func TestHashesCorpusMatchReference(t *testing.T) {
	opts := []Options{{}, {Width: 3, Case: Keep}, {Unit: Chars}, {Punct: true}, {StopWords: true}, {NoNFKC: true}}
	step := 97 * tier.Step(5)
	for _, text := range corpusTexts(t) {
		pieces := []string{text}
		for i := 0; i+97 <= len(text); i += step {
			pieces = append(pieces, text[i:min(i+1000, len(text))])
		}
		for _, s := range pieces {
			for _, o := range opts {
				if diff := cmp.Diff(slowHashes(s, o), Hashes(s, o)); diff != "" {
					t.Fatalf("Hashes(%q, %+v) differs from reference (-slow +fast):\n%s", s, o, diff)
				}
			}
		}
	}
}
