// Package atomicfile writes the files of the example commands (rule files, indexes) so that a
// failed write leaves neither a cut file nor a destroyed earlier one.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write writes what fill writes to the file name. A regular file (or a new one) is written to
// a temporary file beside it, renamed onto name once written and closed without error, with
// the permissions of the file it replaces (0644 for a new one); any other file that name
// already is (a device such as /dev/null, a named pipe, or a symbolic link to one) is written
// in place, since renaming onto it would replace it with a regular file.
func Write(name string, fill func(w io.Writer) error) (err error) {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	} else if err == nil {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := buffered(f, fill); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := buffered(f, fill); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// buffered has fill write to f through a buffer and flushes it.
func buffered(f *os.File, fill func(w io.Writer) error) error {
	w := bufio.NewWriter(f)
	if err := fill(w); err != nil {
		return err
	}
	return w.Flush()
}
