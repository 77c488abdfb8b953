package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/sitefamily"
	"github.com/undust/undust/learn"
)

// genTiny writes a tiny dataset of every family (one small site each) into a temporary
// directory and returns the cluster file's path.
func genTiny(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	if err := cmdGen([]string{"-out", dir, "-seed", "3", "-sites", "1", "-scale", "0.03"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range sitefamily.Families() {
		if !strings.Contains(out.String(), "| "+f.Name+" |") {
			t.Errorf("gen summary lacks %s:\n%s", f.Name, out.String())
		}
	}
	for _, name := range []string{"traps.tsv", "noise.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	return filepath.Join(dir, "clusters.tsv")
}

// tinyRecords writes the tiny dataset of genTiny and returns the cluster file's path and its
// records, in file order.
func tinyRecords(t *testing.T) (string, []learn.Record) {
	t.Helper()
	file := genTiny(t)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := readRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return file, recs
}

// tableRows returns the first cells of the rows of the Markdown table after heading.
func tableRows(t *testing.T, out, heading string) []string {
	t.Helper()
	i := strings.Index(out, heading)
	if i < 0 {
		t.Fatalf("no %q in\n%s", heading, out)
	}
	var rows []string
	for _, line := range strings.Split(out[i:], "\n")[1:] {
		if strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| family") {
			continue
		}
		if !strings.HasPrefix(line, "| ") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		rows = append(rows, strings.TrimSpace(strings.Split(line, "|")[1]))
	}
	return rows
}

// replayTable returns the lines of the replay table of a families report (not its times).
func replayTable(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out[strings.Index(out, "## replay")+1:], "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if strings.HasPrefix(line, "| ") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestFamilies runs the per-family report on a tiny generated file: a row per family and one
// for all in the replay and offline tables, both learners' columns, the orders named, and
// -only and -exclude keeping the families they say.
func TestFamilies(t *testing.T) {
	file := genTiny(t)
	var want []string
	for _, f := range sitefamily.Families() {
		want = append(want, f.Name)
	}
	want = append(slices.Sorted(slices.Values(want)), "all")
	var out bytes.Buffer
	if err := cmdFamilies([]string{"-clusters", file, "-orders", "2", "-explain", "1", "-q"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if got := tableRows(t, s, "## replay"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("replay rows %q, want %q", got, want)
	}
	if got := tableRows(t, s, "## offline"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("offline rows %q, want %q", got, want)
	}
	for _, w := range []string{"Koppula pair prec.", "align pair prec.", "file ", "shuffle 1 "} {
		if !strings.Contains(s, w) {
			t.Errorf("report lacks %q:\n%s", w, s)
		}
	}
	out.Reset()
	if err := cmdFamilies([]string{"-clusters", file, "-orders", "1", "-learner", "koppula", "-only", "forum,docs", "-q"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := tableRows(t, out.String(), "## offline"); strings.Join(got, ",") != "docs,forum,all" {
		t.Errorf("-only forum,docs: offline rows %q", got)
	}
	if strings.Contains(out.String(), "align pair prec.") {
		t.Errorf("-learner koppula printed align's columns")
	}
	out.Reset()
	if err := cmdFamilies([]string{"-clusters", file, "-no-offline", "-orders", "1", "-exclude", "forum", "-q"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := tableRows(t, out.String(), "## replay"); len(got) != len(want)-1 || strings.Contains(strings.Join(got, ","), "forum") {
		t.Errorf("-exclude forum: replay rows %q", got)
	}
	// -growth reaches the replays: relearning a site only when its URLs grow a thousandfold
	// learns from its first URLs alone.
	var grown bytes.Buffer
	if err := cmdFamilies([]string{"-clusters", file, "-no-offline", "-orders", "1", "-growth", "1000", "-q"}, &grown); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := cmdFamilies([]string{"-clusters", file, "-no-offline", "-orders", "1", "-q"}, &out); err != nil {
		t.Fatal(err)
	}
	if a, b := tableRows(t, out.String(), "## replay"), tableRows(t, grown.String(), "## replay"); !slices.Equal(a, b) {
		t.Fatalf("-growth 1000: replay rows %q, want %q", b, a)
	}
	if replayTable(out.String()) == replayTable(grown.String()) {
		t.Errorf("-growth 1000 left the replay table as it was:\n%s", out.String())
	}
	for _, args := range [][]string{
		{},                                   // no file
		{"-clusters", file, "-learner", "x"}, // an unknown learner
		{"-clusters", file, "-orders", "-1"},
		{"-clusters", file, "-growth", "-1"},
	} {
		if err := cmdFamilies(args, &bytes.Buffer{}); err != errUsage {
			t.Errorf("families %q: %v, want a usage error", args, err)
		}
	}
	if err := cmdFamilies([]string{"-clusters", file, "-only", "nosuch", "-q"}, &bytes.Buffer{}); err == nil {
		t.Errorf("-only nosuch: no error")
	}
}

// TestReplayGroups checks the per-group counts of a replay against its totals, and that every
// URL kept as a lost page's is a URL of a page that was lost.
func TestReplayGroups(t *testing.T) {
	_, recs := tinyRecords(t)
	rp := &replayer{online: learn.NewOnline(learn.OnlineOptions{}), group: sitefamily.FamilyOf}
	sum, err := rp.run(recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var total replayCounts
	for _, g := range sum.groups {
		total.urls += g.urls
		total.pages += g.pages
		total.fetches += g.fetches
		total.lost += g.lost
		total.verifications += g.verifications
		total.caught += g.caught
	}
	if total != sum.replayCounts {
		t.Errorf("groups add up to %+v, the replay counted %+v", total, sum.replayCounts)
	}
	lost := map[string]bool{}
	for _, s := range sum.lostSkips {
		lost[s.cluster] = true
		if s.cluster == s.keptCluster || s.kept == "" {
			t.Errorf("lost URL %q of %s kept as %q of %s", s.url, s.cluster, s.kept, s.keptCluster)
		}
	}
	if len(lost) > sum.lost {
		t.Errorf("%d lost pages named, %d lost", len(lost), sum.lost)
	}
	for _, f := range sitefamily.Families() {
		if sum.groups[f.Name] == nil {
			t.Errorf("no counts of family %s", f.Name)
		}
	}
	if len(sum.groups) != len(sitefamily.Families()) {
		t.Errorf("%d groups, want %d", len(sum.groups), len(sitefamily.Families()))
	}
}

// TestFetchCauses checks that the causes of the avoidable fetches a replay made add up, per
// family and in all, to its fetches of pages fetched before, and that -causes prints them per
// family.
func TestFetchCauses(t *testing.T) {
	file, recs := tinyRecords(t)
	noise, err := readNoise(filepath.Join(filepath.Dir(file), "noise.txt"))
	if err != nil || len(noise) == 0 {
		t.Fatalf("readNoise: %d ids, %v", len(noise), err)
	}
	rp := &replayer{online: learn.NewOnline(learn.OnlineOptions{}), group: sitefamily.FamilyOf, causes: true, noise: noise}
	sum, err := rp.run(recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := sum.replayCounts
	sum.groups["all"] = &all
	for name, c := range sum.groups {
		again := c.fetches - (c.pages - c.lost)
		if got := c.verified + c.late + c.never + c.noise; got != again || c.verified > c.verifications {
			t.Errorf("%s: causes %+v add up to %d, want the %d fetches of pages fetched before (%d verifications)", name, c.fetchCauses, got, again, c.verifications)
		}
	}
	if c := all.fetchCauses; c.verified == 0 || c.late == 0 || c.never == 0 || c.noise == 0 {
		t.Errorf("a cause never seen: %+v", c)
	}
	var out bytes.Buffer
	if err := cmdFamilies([]string{"-clusters", file, "-orders", "2", "-no-offline", "-causes", "-q"}, &out); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range sitefamily.Families() {
		want = append(want, f.Name)
	}
	want = append(slices.Sorted(slices.Values(want)), "all")
	if got := tableRows(t, out.String(), "### avoidable fetches made, by cause"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("causes rows %q, want %q", got, want)
	}
}

// TestRepoEntitySplits replays one site of the repository browsers' family (gitweb over a line
// of commits, seed 5151), whose blobs are linked as h=<blob id>&hb=<commit> and as hb=<commit>
// alone. Deleting hb from every blob merges the versions of a file, which the site's
// single-URL versions show (separations), and the rule is not selected; split on the file's
// path, it becomes a rule per file for the files whose versions the crawl has not met apart
// yet, and one of them merges a file's current version with an old one. Split only on keys of
// few values, no page is lost.
func TestRepoEntitySplits(t *testing.T) {
	if testing.Short() {
		t.Skip("a replay of one generated site")
	}
	dir := t.TempDir()
	if err := cmdGen([]string{"-out", dir, "-seed", "5151", "-family", "repo", "-sites", "1"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lost := func(args ...string) string {
		var out bytes.Buffer
		if err := cmdReplay(append([]string{"-clusters", filepath.Join(dir, "clusters.tsv")}, args...), &out); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[0] == "pages" && f[1] == "lost" {
				return f[2]
			}
		}
		t.Fatalf("no pages lost in\n%s", out.String())
		return ""
	}
	if n := lost(); n != "0" {
		t.Errorf("%s pages lost, want 0", n)
	}
	defer func() { ablate.NoEntitySplits = false }()
	if n := lost("-ablate", "entitysplits"); n == "0" {
		t.Errorf("with splits per file no page lost: the case does not need the limit")
	}
}
