package shingle

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
)

// FuzzHashes checks that the fast tokenizer and hasher, and the tokenizer
// without its fast path, agree with the reference on any text and any
// options, and that tokenizing the
// space-joined tokens again is the identity (tokens are normalized).
func FuzzHashes(f *testing.F) {
	for _, tt := range tokenTests {
		f.Add(tt.in, uint8(tt.o.Width), uint8(tt.o.Case), uint8(tt.o.Unit), tt.o.NoNFKC, tt.o.Punct, tt.o.StopWords)
	}
	// Large inputs: many short paragraphs, one long line.
	f.Add(strings.Join(hostile.Paragraphs(200, 8), "\n\n"), uint8(4), uint8(1), uint8(0), false, false, true)
	f.Add(hostile.LongLine(20000), uint8(5), uint8(0), uint8(1), false, true, false)
	// Text made for the edges of the fast paths.
	for seed := range uint64(4) {
		f.Add(hostile.MixedText(300, seed), uint8(0), uint8(seed%3), uint8(0), false, false, false)
	}
	// Real pages, Chinese and English.
	for _, text := range corpusTexts(f) {
		f.Add(text, uint8(0), uint8(0), uint8(0), false, false, false)
	}
	f.Fuzz(func(t *testing.T, s string, w, c, u uint8, noNFKC, punct, stop bool) {
		o := Options{Width: int(w % 9), Case: Case(c % 3), Unit: Unit(u % 2), NoNFKC: noNFKC, Punct: punct, StopWords: stop}
		want := slowTokens(s, o)
		got := Tokens(s, o)
		if !slices.Equal(want, got) {
			t.Fatalf("Tokens(%q, %+v) = %q, reference %q", s, o, got, want)
		}
		h, sh := Hashes(s, o), slowHashes(s, o)
		if !slices.Equal(h, sh) {
			t.Fatalf("Hashes(%q, %+v) = %x, reference %x", s, o, h, sh)
		}
		if g := generalHashes(s, o); !slices.Equal(g, sh) {
			t.Fatalf("general Hashes(%q, %+v) = %x, reference %x", s, o, g, sh)
		}
		if o.Unit == Words && !o.Punct && !o.NoNFKC && o.Case == Lower {
			again := Tokens(strings.Join(got, " "), o)
			if !slices.Equal(again, got) {
				t.Fatalf("Tokens not idempotent on %q: %q then %q", s, got, again)
			}
		}
	})
}

// FuzzReadLSH feeds arbitrary bytes, seeded with valid index files and
// their mutations, to the decoder: it must return an index or an error,
// never panic, and a returned index must save to the same bytes.
func FuzzReadLSH(f *testing.F) {
	for _, n := range []int{0, 1, 5} {
		l := NewLSHBands(3, 2)
		for i := range n {
			l.Insert(uint64(i), []uint64{uint64(i), 2, 3, uint64(i * 7), 5, 6})
		}
		var buf bytes.Buffer
		l.WriteTo(&buf)
		f.Add(buf.Bytes())
	}
	f.Add([]byte("undust-lsh\n"))
	// Large and crafted files: huge layouts, many documents, truncations.
	f.Add(hostile.LSHIndex(1<<16, 1, 0))
	f.Add(hostile.LSHIndex(256, 256, 1))
	f.Add(hostile.LSHIndex(9, 14, 300))
	for _, cut := range hostile.Truncations(hostile.LSHIndex(4, 4, 20), 8) {
		f.Add(cut)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The reader must read exactly the index's bytes: a tail after
		// the input is never consumed.
		r := bytes.NewReader(append(slices.Clip(data), "TAIL"...))
		l, err := ReadLSH(r)
		if err != nil {
			return
		}
		if r.Len() < len("TAIL") {
			t.Fatalf("ReadLSH read %d bytes past the end of a %d-byte input", len("TAIL")-r.Len(), len(data))
		}
		var buf bytes.Buffer
		if _, err := l.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		m, err := ReadLSH(bytes.NewReader(buf.Bytes()))
		if err != nil || m.Len() != l.Len() {
			t.Fatalf("round trip of a valid index failed: %v", err)
		}
	})
}

// FuzzSpotPairs checks the pruned all-pairs search against brute force on
// small random collections derived from the input.
func FuzzSpotPairs(f *testing.F) {
	f.Add([]byte{1, 2, 3, 1, 2, 3, 0, 1, 2}, uint8(50))
	f.Add([]byte("the cat sat on the mat; the cat sat"), uint8(80))
	f.Add(bytes.ReplaceAll([]byte(strings.Join(hostile.Paragraphs(60, 6), "\x00")), []byte(" "), nil), uint8(30))
	f.Fuzz(func(t *testing.T, data []byte, th uint8) {
		tt := float64(th%100+1) / 100
		var docs []Spots
		var cur []uint64
		for _, b := range data {
			if b == 0 {
				docs = append(docs, SpotsOf(cur))
				cur = cur[:0]
				continue
			}
			cur = append(cur, uint64(b%16))
		}
		docs = append(docs, SpotsOf(cur))
		got := SpotPairs(docs, tt)
		var want []ScoredPair
		for i := range docs {
			for j := i + 1; j < len(docs); j++ {
				if s := docs[i].Jaccard(docs[j]); s >= tt {
					want = append(want, ScoredPair{i, j, s})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("t=%v: SpotPairs %v, brute force %v", tt, got, want)
		}
	})
}

// FuzzTemplates checks that any URL either is rejected by both Add and
// AppendKept or is accepted by both, that AppendKept returns a subsequence
// of its input, and that it agrees with the reference learner.
func FuzzTemplates(f *testing.F) {
	for _, u := range []string{
		"https://docs.example/m1/p0.html", "https://DOCS.example/m3/x.html?a=1", "https://docs.example/",
		"/relative/path.html", "http://[::1", "", "https://h.example/a//b/c/", "mailto:x@y",
	} {
		f.Add(u, "https://docs.example/m1/other.html", []byte{1, 2, 3, 4, 5, 6, 7, 8})
	}
	f.Fuzz(func(t *testing.T, u1, u2 string, b []byte) {
		var fs []uint64
		for _, c := range b {
			fs = append(fs, uint64(c%16))
		}
		o := TemplateOptions{MinPages: 2, Fraction: 0.5, Depth: 2}
		tl := NewTemplates(o)
		slow := &slowTemplates{o: tl.o}
		for i, u := range []string{u1, u2, u1} {
			page := fs[min(i, len(fs)):]
			err := tl.Add(u, page)
			_, kerr := tl.AppendKept(nil, u, page)
			if (err == nil) != (kerr == nil) {
				t.Fatalf("url %q: Add error %v, AppendKept error %v", u, err, kerr)
			}
			slow.add(u, page)
		}
		for _, u := range []string{u1, u2} {
			got, err := tl.AppendKept(nil, u, fs)
			if err != nil {
				continue
			}
			rest := fs
			for _, g := range got {
				i := slices.Index(rest, g)
				if i < 0 {
					t.Fatalf("AppendKept(%q, %v) = %v: not a subsequence", u, fs, got)
				}
				rest = rest[i+1:]
			}
			if want := slow.kept(u, fs); !slices.Equal(got, want) {
				t.Fatalf("AppendKept(%q, %v) = %v, reference %v", u, fs, got, want)
			}
		}
	})
}
