package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteRegular checks that a file is replaced whole, and that a failed write leaves the
// earlier file as it was and no temporary file beside it.
func TestWriteRegular(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "rules.txt")
	write := func(s string, fail error) error {
		return Write(name, func(w io.Writer) error {
			if _, err := io.WriteString(w, s); err != nil {
				return err
			}
			return fail
		})
	}
	if err := write("one\n", nil); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	if err := write("two, cut", boom); !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want %v", err, boom)
	}
	if b, _ := os.ReadFile(name); string(b) != "one\n" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file: %v, %v; want mode 0644", fi.Mode(), err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := write("three\n", nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "three\n" {
		t.Errorf("the file holds %q", b)
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a replaced file of mode 0600: %v, %v", fi.Mode(), err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d files in the directory, want 1", len(es))
	}
}
