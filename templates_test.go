package undust

import (
	"strings"
	"testing"
)

// The hosts that keep a template are the MaxTemplates used most recently; a host whose template
// was dropped gets none again, and its pages are read by their own markup.
func TestTemplatesLRU(t *testing.T) {
	c := mustNew(t, Options{MaxTemplates: 2})
	for _, tc := range []struct {
		host    string
		want    bool     // the host has a template after its page
		kept    []string // the hosts keeping a template, most recent first
		dropped string   // a host dropped, if any
	}{
		{"a.test", true, []string{"a.test"}, ""},
		{"b.test", true, []string{"b.test", "a.test"}, ""},
		{"a.test", true, []string{"a.test", "b.test"}, ""},
		{"c.test", true, []string{"c.test", "a.test"}, "b.test"},  // b used least recently
		{"b.test", false, []string{"c.test", "a.test"}, "b.test"}, // dropped for good
		{"a.test", true, []string{"a.test", "c.test"}, "b.test"},
	} {
		u := "http://" + tc.host + "/p"
		p := c.identify(u, []byte(page("P", words(len(tc.host), 30))))
		if p.n == 0 {
			t.Fatalf("page of %s has no text", tc.host)
		}
		if got := c.template(tc.host) != nil; got != tc.want {
			t.Errorf("after a page of %s: template %v, want %v", tc.host, got, tc.want)
		}
		var kept []string
		for ht := c.lru.next; ht != &c.lru; ht = ht.next {
			kept = append(kept, ht.host)
		}
		if strings.Join(kept, " ") != strings.Join(tc.kept, " ") || len(c.hosts) != len(tc.kept) {
			t.Errorf("after a page of %s: templates of %v (%d), want %v", tc.host, kept, len(c.hosts), tc.kept)
		}
		if tc.dropped != "" && !c.dropped[tc.dropped] {
			t.Errorf("after a page of %s: %s not dropped", tc.host, tc.dropped)
		}
	}
}
