package htmltext

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSiteFileRoundTrip checks that a Site read back from its file
// extracts exactly as the original and keeps learning identically.
func TestSiteFileRoundTrip(t *testing.T) {
	var pages []testPage
	pages = append(pages, manualSite(t)...)
	pages = append(pages, translatedSite(t)...)
	articles, actions := wikiSite()
	pages = append(append(pages, articles...), actions...)
	orig := Site{SamplePages: 16, MinFraction: 0.4, Options: Options{DropHidden: true}}
	half := len(pages) / 2
	for _, p := range pages[:half] {
		orig.Add(p.url, p.html)
	}
	var file bytes.Buffer
	n, err := orig.WriteTo(&file)
	if err != nil || n != int64(file.Len()) {
		t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n, err, file.Len())
	}
	var back Site
	if m, err := back.ReadFrom(bytes.NewReader(file.Bytes())); err != nil || m != n {
		t.Fatalf("ReadFrom = %d, %v; want %d, nil", m, err, n)
	}
	if back.SamplePages != 16 || back.MinFraction != 0.4 || !back.Options.DropHidden {
		t.Errorf("settings read back as %d, %v, %v", back.SamplePages, back.MinFraction, back.Options.DropHidden)
	}
	compare := func(stage string) {
		t.Helper()
		if diff := cmp.Diff(snapshot(&orig), snapshot(&back)); diff != "" {
			t.Errorf("%s: learned state differs (-original +read back):\n%s", stage, diff)
		}
		if diff := cmp.Diff(extractAll(t, &orig, pages), extractAll(t, &back, pages)); diff != "" {
			t.Errorf("%s: extraction differs (-original +read back):\n%s", stage, diff)
		}
	}
	compare("read back")
	for _, p := range pages[half:] {
		orig.Add(p.url, p.html)
		back.Add(p.url, p.html)
	}
	compare("after learning the rest")
	var again bytes.Buffer
	back.WriteTo(&again)
	var o2 bytes.Buffer
	orig.WriteTo(&o2)
	if !bytes.Equal(again.Bytes(), o2.Bytes()) {
		t.Errorf("the files of the original and the read-back Site differ after the same pages")
	}
}

// TestSiteFileBad checks that every truncation and every corrupted byte of
// a Site file is an error wrapping ErrSiteFile, never a panic, and leaves
// the Site as it was.
func TestSiteFileBad(t *testing.T) {
	var s Site
	for _, p := range manSite(t) {
		s.Add(p.url, p.html)
	}
	var file bytes.Buffer
	s.WriteTo(&file)
	b := file.Bytes()
	var keep Site
	for _, p := range articleSite(t) {
		keep.Add(p.url, p.html)
	}
	want := snapshot(&keep)
	check := func(what string, data []byte) {
		t.Helper()
		if _, err := keep.ReadFrom(bytes.NewReader(data)); !errors.Is(err, ErrSiteFile) {
			t.Errorf("ReadFrom(%s) error = %v, want ErrSiteFile", what, err)
		}
		if diff := cmp.Diff(want, snapshot(&keep)); diff != "" {
			t.Fatalf("ReadFrom(%s) changed the Site:\n%s", what, diff)
		}
	}
	step := max(1, len(b)/300)
	for n := 0; n < len(b); n += step {
		check("truncated", b[:n])
	}
	for i := 0; i < len(b); i += step {
		c := bytes.Clone(b)
		c[i] ^= 0x41
		check("corrupted", c)
	}
	// A count far over the limits is refused before anything is allocated
	// for it: a group count of 2^40 right after the settings.
	head := len(siteMagic) + 1 + 1 + 8 + 1 + 1 + 1 + 1
	huge := append(bytes.Clone(b[:head]), 0x80, 0x80, 0x80, 0x80, 0x80, 0x20)
	check("a huge group count", huge)
}
