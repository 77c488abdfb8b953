package align

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// TestPortSameRules checks that a site served on a port learns the rules it learns without
// one: the sample clusters with every host on port 8080 give the sample's rules, each with the
// condition port = 8080, and the same keys but for the port.
func TestPortSameRules(t *testing.T) {
	plain := readClusters(t, "sample.tsv", learn.ReaderOptions{Sites: learn.ByID})
	ported := make([]learn.Cluster, len(plain))
	for i, c := range plain {
		ported[i] = learn.Cluster{ID: c.ID, Site: c.Site}
		for _, u := range c.URLs {
			pu, err := url.Parse(u.Raw)
			if err != nil {
				t.Fatal(err)
			}
			pu.Host = pu.Hostname() + ":8080"
			ported[i].URLs = append(ported[i].URLs, learn.URL{Raw: pu.String(), Importance: u.Importance, Inlinks: u.Inlinks})
		}
	}
	want, _, err := (&Learner{}).Learn(plain)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := (&Learner{}).Learn(ported)
	if err != nil {
		t.Fatal(err)
	}
	// got's rules without their port conditions.
	pk := urlnorm.Key{Part: urlnorm.PartPort}
	var rs []rules.Rule
	for i := range got.Len() {
		r := got.Rule(i)
		r.Context = slices.DeleteFunc(slices.Clone(r.Context), func(c rules.Condition) bool {
			return c.Key == pk && c.Op == rules.Equal && c.Value == "8080"
		})
		rs = append(rs, r)
	}
	unported, err := rules.NewSet(rs, got.Options())
	if err != nil {
		t.Fatal(err)
	}
	var g, w bytes.Buffer
	if _, err := unported.WriteTo(&g); err != nil {
		t.Fatal(err)
	}
	if _, err := want.WriteTo(&w); err != nil {
		t.Fatal(err)
	}
	if g.String() != w.String() || want.Len() == 0 {
		t.Errorf("rules with a port, the port taken out:\n%s\nwant\n%s", g.String(), w.String())
	}
	for ci, c := range plain {
		for ui, u := range c.URLs {
			wk, werr := want.Normalize(u.Raw)
			gk, gerr := got.Normalize(ported[ci].URLs[ui].Raw)
			if (werr == nil) != (gerr == nil) || strings.Replace(gk, ":8080", "", 1) != wk {
				t.Errorf("Normalize(%q) = %q, %v; without the port %q, %v", ported[ci].URLs[ui].Raw, gk, gerr, wk, werr)
			}
		}
	}
}
