package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command with stderr captured; it returns the exit code, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	old := stderr
	stderr = &errb
	defer func() { stderr = old }()
	code := run(args, &out, strings.NewReader(stdin))
	return code, out.String(), errb.String()
}

// TestHelp checks that -h exits 0 with the description of the command, for the command and
// every subcommand.
func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "-h")
	if code != 0 {
		t.Errorf("urldedup -h: exit %d, want 0", code)
	}
	for _, c := range commands {
		if !strings.Contains(out, c.name) || !strings.Contains(out, c.what) {
			t.Errorf("urldedup -h lacks %s: %q", c.name, out)
		}
		code, _, errOut := runCLI(t, "", c.name, "-h")
		if code != 0 || !strings.Contains(errOut, c.what) || !strings.Contains(errOut, "flags:") {
			t.Errorf("urldedup %s -h: exit %d, printed %q; want 0 and the command's description", c.name, code, errOut)
		}
	}
}

// TestBadUsage checks the exit code 2 and the message of an unknown subcommand, extra
// arguments and no arguments.
func TestBadUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{nil, "usage: urldedup"},
		{[]string{"lern"}, `unknown command "lern"`},
		{[]string{"learn", "-clusters", "x.tsv", "extra.tsv"}, `unexpected argument "extra.tsv"`},
		{[]string{"apply", "-rules", "r.txt", "x"}, `unexpected argument "x"`},
		{[]string{"eval", "-data", "d", "x"}, `unexpected argument "x"`},
		{[]string{"stats", "-clusters", "x.tsv", "x"}, `unexpected argument "x"`},
		{[]string{"replay", "-clusters", "x.tsv", "x"}, `unexpected argument "x"`},
		{[]string{"gen", "-out", "d", "x"}, `unexpected argument "x"`},
		{[]string{"families", "-clusters", "x.tsv", "x"}, `unexpected argument "x"`},
		{[]string{"learn", "-clusters", "x.tsv", "-sites", "path"}, `unknown grouping "path"`},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("urldedup %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// ownIDs rewrites the sample's cluster ids (h0000-p000135) into ids of a user's own making
// (cluster1, cluster2, ...), which name no site.
func ownIDs(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("testdata", "sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	var out strings.Builder
	for line := range strings.Lines(string(b)) {
		id, rest, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(id, "#") {
			continue
		}
		if ids[id] == "" {
			ids[id] = fmt.Sprintf("cluster%d", len(ids)+1)
		}
		out.WriteString(ids[id] + "\t" + rest)
	}
	name := filepath.Join(t.TempDir(), "own.tsv")
	if err := os.WriteFile(name, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestLearnOwnIDs checks that cluster ids that name no site still learn rules by default (the
// sites come from the URLs' hosts), and that -sites id, which makes every cluster its own site,
// warns.
func TestLearnOwnIDs(t *testing.T) {
	tsv := ownIDs(t)
	code, out, errOut := runCLI(t, "", "learn", "-clusters", tsv)
	if code != 0 || !strings.Contains(out, "\nrule ") {
		t.Errorf("learn with ids cluster1, ...: exit %d, no rule learned; stderr %q", code, errOut)
	}
	if strings.Contains(errOut, "warning") {
		t.Errorf("learn by host warns: %q", errOut)
	}
	code, out, errOut = runCLI(t, "", "learn", "-clusters", tsv, "-sites", "id")
	if code != 0 || strings.Contains(out, "\nrule ") || !strings.Contains(errOut, "is a site of its own") {
		t.Errorf("learn -sites id with ids cluster1, ...: exit %d, stderr %q; want 0 rules and a warning", code, errOut)
	}
}

// TestLearnBadLines checks that a malformed line names the file, the line and the field, and
// that -skip-bad skips it and says how many lines it skipped.
func TestLearnBadLines(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tsv := filepath.Join(t.TempDir(), "bad.tsv")
	bad := "h1-p1\thttp://a.example/\tabc\n" // line 1: importance is not a number
	if err := os.WriteFile(tsv, append([]byte(bad), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "", "learn", "-clusters", tsv)
	if want := tsv + `:1: importance "abc": malformed field`; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("learn on a bad line: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	code, out, errOut := runCLI(t, "", "learn", "-clusters", tsv, "-skip-bad")
	if code != 0 || !strings.Contains(errOut, "1 malformed lines skipped") || !strings.Contains(out, "\nrule ") {
		t.Errorf("learn -skip-bad: exit %d, stderr %q", code, errOut)
	}
}

// TestApplyErrorOnce checks that a URL without a key is named once in apply's message, with its
// line number.
func TestApplyErrorOnce(t *testing.T) {
	tsv := filepath.Join("testdata", "sample.tsv")
	rulesFile := filepath.Join(t.TempDir(), "rules.txt")
	if code, _, errOut := runCLI(t, "", "learn", "-clusters", tsv, "-o", rulesFile); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "http://a.example/\nhttp://[::1\n", "apply", "-rules", rulesFile)
	if code != 0 || out != "http://a.example/\nhttp://[::1\n" {
		t.Errorf("apply: exit %d, printed %q", code, out)
	}
	if want := `urldedup apply: line 2: "http://[::1": invalid host` + "\n"; errOut != want {
		t.Errorf("apply stderr %q, want %q", errOut, want)
	}
}

// TestEvalProgress checks that eval reports its stages on stderr, and that -q silences them.
func TestEvalProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("learns the sample twice")
	}
	b, err := os.ReadFile(filepath.Join("testdata", "sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"train.tsv", "dev.tsv"} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "", "eval", "-data", dir)
	if code != 0 || !strings.Contains(out, "## transfer") {
		t.Fatalf("eval: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"reading train.tsv", "train.tsv: learning", "reading dev.tsv", "transfer: learning"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("eval progress lacks %q: %q", want, errOut)
		}
	}
	if _, _, errOut := runCLI(t, "", "eval", "-data", dir, "-q"); errOut != "" {
		t.Errorf("eval -q printed %q", errOut)
	}
}
