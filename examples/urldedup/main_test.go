package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/undust/undust/urlnorm"
)

// TestLearnApply learns rules from a small cluster file, writes them in package rules' format,
// loads them back and checks the keys of unseen URLs. Four clusters give a rule of estimated
// precision 4/5, hence -min-precision 0.5.
func TestLearnApply(t *testing.T) {
	dir := t.TempDir()
	tsv := filepath.Join(dir, "clusters.tsv")
	var b strings.Builder
	b.WriteString("# cluster\turl\n")
	for i, id := range []string{"tt0810900", "tt0053198", "tt0120338", "tt0111161"} {
		c := "imdb-" + string(rune('a'+i))
		b.WriteString(c + "\thttp://www.imdb.com/title/" + id + "/photogallery\n")
		b.WriteString(c + "\thttp://www.imdb.com/title/" + id + "/mediaindex\n")
	}
	if err := os.WriteFile(tsv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rulesFile := filepath.Join(dir, "rules.txt")
	if err := cmdLearn([]string{"-clusters", tsv, "-o", rulesFile, "-min-precision", "0.5"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("http://www.imdb.com/title/tt0068646/photogallery\nhttp://www.imdb.com/name/nm0000001/photogallery\n")
	if err := cmdApply([]string{"-rules", rulesFile}, in, &out); err != nil {
		t.Fatal(err)
	}
	want := "http://www.imdb.com/title/tt0068646/mediaindex\nhttp://www.imdb.com/name/nm0000001/photogallery\n"
	if out.String() != want {
		t.Errorf("apply printed\n%s\nwant\n%s", out.String(), want)
	}
	// A rule file cut short is refused, not applied as a smaller set.
	full, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.txt")
	os.WriteFile(cut, full[:len(full)-1], 0o644)
	if err := cmdApply([]string{"-rules", cut}, strings.NewReader("http://a.example/\n"), &bytes.Buffer{}); err == nil {
		t.Errorf("apply with a rule file cut short: no error")
	}
	// learn -o into a directory that does not exist fails and leaves nothing; the temporary
	// file of a successful write is gone.
	if err := cmdLearn([]string{"-clusters", tsv, "-o", filepath.Join(dir, "no", "rules.txt"), "-min-precision", "0.5"}, &bytes.Buffer{}); err == nil {
		t.Errorf("learn -o into a missing directory: no error")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".rules.txt.tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
	// An input line over the limit stops apply with its line number.
	long := "http://a.example/\n" + strings.Repeat("x", maxURLLine+1) + "\n"
	if err := cmdApply([]string{"-rules", rulesFile}, strings.NewReader(long), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("apply with a line over %d bytes: %v, want an error naming line 2", maxURLLine, err)
	}
}

// TestUsage checks that a missing required flag is a usage error.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-min-coverage", "x"}} {
		if err := cmdLearn(args, &bytes.Buffer{}); err != errUsage {
			t.Errorf("learn %q: error %v, want usage", args, err)
		}
	}
	if err := cmdApply(nil, strings.NewReader(""), &bytes.Buffer{}); err != errUsage {
		t.Errorf("apply without -rules: error %v", err)
	}
	if err := cmdEval(nil, &bytes.Buffer{}); err != errUsage {
		t.Errorf("eval without -data: error %v", err)
	}
}

// TestApplyCycle applies a rules file whose host rules make a cycle (www -> m -> www): apply
// prints the URL's static key (urlnorm's Crawler key: session id and fragment dropped), not
// the raw URL.
func TestApplyCycle(t *testing.T) {
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "rules.txt")
	text := "undust-rules v1\nkey " + urlnorm.Crawler.String() + "\n" +
		"rule host=www.shop.example cov=5 prec=1 sup=1 if then host=\"m.shop.example\"\n" +
		"rule host=m.shop.example cov=4 prec=1 sup=1 if then host=\"www.shop.example\"\n"
	if err := os.WriteFile(rulesFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("http://www.shop.example/p?PHPSESSID=0123456789abcdef0123456789abcdef#top\n")
	if err := cmdApply([]string{"-rules", rulesFile}, in, &out); err != nil {
		t.Fatal(err)
	}
	if want := "http://www.shop.example/p\n"; out.String() != want {
		t.Errorf("apply printed %q, want %q", out.String(), want)
	}
}
