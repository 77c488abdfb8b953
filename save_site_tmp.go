package undust

import (
	"errors"
	"io"
)

// Until htmltext.Site can be saved.
func siteWriteTo(s any, w io.Writer) (int64, error) {
	if wt, ok := s.(io.WriterTo); ok {
		return wt.WriteTo(w)
	}
	return 0, errors.New("undust: templates cannot be saved yet")
}

func siteReadFrom(s any, r io.Reader) (int64, error) {
	if rf, ok := s.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return 0, errors.New("undust: templates cannot be loaded yet")
}
