//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFIFO checks that a file that is no regular file (a named pipe, as /dev/null is a
// device) is written in place, not replaced by a regular file.
func TestWriteFIFO(t *testing.T) {
	name := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(name)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := Write(name, func(w io.Writer) error { _, err := io.WriteString(w, "rules\n"); return err }); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe became %v", fi.Mode())
	}
	if s := <-got; s != "rules\n" {
		t.Errorf("read %q from the pipe", s)
	}
}
