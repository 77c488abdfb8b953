package undust

import (
	"bytes"
	"testing"

	"github.com/undust/undust/simsite"
)

// A saved state cut short or with a byte changed anywhere is an error, never a panic, and leaves
// no Crawl that answers from half a state.
func TestReadFromDamaged(t *testing.T) {
	s, err := simsite.New(40, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{NoTemplates: true}
	c := mustNew(t, o)
	tc, done := newTestCrawler(t, c, s, simsite.InSite)
	tc.max = 150
	tc.run(t, simsite.StartURL) // stops with URLs let through and not fetched
	done()
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	state := b.Bytes()
	if st := c.Stats(); st.Fetch <= int64(len(tc.fetches)) || st.Verify == 0 {
		t.Fatalf("the saved crawl has nothing under way: %+v", st)
	}
	step := max(1, len(state)/1500)
	for n := 0; n < len(state); n += step {
		if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(state[:n])); err == nil {
			t.Fatalf("ReadFrom of the first %d of %d bytes: no error", n, len(state))
		}
		bad := bytes.Clone(state)
		bad[n] ^= 0x40
		if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(bad)); err == nil {
			t.Fatalf("ReadFrom with byte %d of %d changed: no error", n, len(state))
		}
	}
	if _, err := mustNew(t, o).ReadFrom(bytes.NewReader(append(bytes.Clone(state), 0))); err == nil {
		t.Error("ReadFrom with a byte after the state: no error")
	}
}
