package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// summaryNumber returns the first integer after label in a replay summary.
func summaryNumber(t *testing.T, out, label string) int {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(label) + `\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("summary lacks %q:\n%s", label, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestReplay replays the sample clusters with the static keys and with online learning, in
// file order and shuffled, and checks the summary against the per-URL lines: one line per URL
// in the order met, fetches counted, no page lost by the static Crawler key, and online
// learning fetching fewer URLs than the static Crawler key.
func TestReplay(t *testing.T) {
	const file = "testdata/sample.tsv"
	dir := t.TempDir()
	fetches := map[string]int{}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"crawler", []string{"-static"}},
		{"aggressive", []string{"-static", "-aggressive"}},
		{"online", nil},
		{"online-shuffled", []string{"-shuffle", "2"}},
	} {
		lines := filepath.Join(dir, tc.name+".tsv")
		var out bytes.Buffer
		if err := cmdReplay(append([]string{"-clusters", file, "-o", lines}, tc.args...), &out); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		s := out.String()
		urls, pages := summaryNumber(t, s, "URLs"), summaryNumber(t, s, "distinct pages")
		if urls != 356 || pages != 109 {
			t.Errorf("%s: %d URLs, %d pages; want 356, 109", tc.name, urls, pages)
		}
		b, err := os.ReadFile(lines)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(rows) != urls {
			t.Fatalf("%s: %d lines, want %d", tc.name, len(rows), urls)
		}
		n := 0
		for _, r := range rows {
			f := strings.Split(r, "\t")
			if len(f) != 3 || (f[1] != "fetch" && f[1] != "skip") || f[2] == "" {
				t.Fatalf("%s: bad line %q", tc.name, r)
			}
			if f[1] == "fetch" {
				n++
			}
		}
		if got := summaryNumber(t, s, "fetches"); got != n {
			t.Errorf("%s: summary says %d fetches, lines %d", tc.name, got, n)
		}
		if tc.name == "online" && !strings.HasPrefix(rows[0], "https://vistamesa.com.br/North-Queen/p/6861439677\tfetch\t") {
			t.Errorf("online: first line %q is not the file's first URL, fetched", rows[0])
		}
		fetches[tc.name] = n
		if tc.name == "crawler" {
			if lost := summaryNumber(t, s, "pages lost"); lost != 0 {
				t.Errorf("static Crawler key lost %d pages", lost)
			}
		}
	}
	if fetches["online"] >= fetches["crawler"] {
		t.Errorf("online learning made %d fetches, the static Crawler key %d: want fewer", fetches["online"], fetches["crawler"])
	}
}

// TestReplayUsage checks the replay's usage errors.
func TestReplayUsage(t *testing.T) {
	for _, args := range [][]string{
		{},                                       // no file
		{"-clusters", "x.tsv", "-aggressive"},    // -aggressive without -static
		{"-clusters", "x.tsv", "-rules", "r"},    // -rules without -static
		{"-clusters", "x.tsv", "extra-argument"}, // a stray argument
	} {
		if err := cmdReplay(args, &bytes.Buffer{}); err != errUsage {
			t.Errorf("replay %q: error %v, want usage", args, err)
		}
	}
}
