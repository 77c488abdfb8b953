package learn

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// withPort returns clusters with every URL's host served on port.
func withPort(t testing.TB, cls []Cluster, port string) []Cluster {
	out := make([]Cluster, len(cls))
	for i, c := range cls {
		out[i] = Cluster{ID: c.ID, Site: c.Site}
		for _, u := range c.URLs {
			pu, err := url.Parse(u.Raw)
			if err != nil {
				t.Fatal(err)
			}
			pu.Host = pu.Hostname() + ":" + port
			out[i].URLs = append(out[i].URLs, URL{Raw: pu.String(), Importance: u.Importance, Inlinks: u.Inlinks})
		}
	}
	return out
}

// unported returns the text of set's rules with what a port adds taken out: the port
// conditions, and an assigned port written as the port deletion a rule to a host without a port
// has.
func unported(t testing.TB, set *rules.Set, port string) string {
	var rs []rules.Rule
	pk := urlnorm.Key{Part: urlnorm.PartPort}
	for i := range set.Len() {
		r := set.Rule(i)
		r.Context = slices.DeleteFunc(slices.Clone(r.Context), func(c rules.Condition) bool {
			return c.Key == pk && c.Op == rules.Equal && c.Value == port
		})
		r.Transform = slices.Clone(r.Transform)
		for j, a := range r.Transform {
			if a.Key == pk && a.Op == rules.Assign && a.Value == port {
				r.Transform[j] = rules.Action{Key: pk, Op: rules.Delete}
			}
		}
		rs = append(rs, r)
	}
	s, err := rules.NewSet(rs, set.Options())
	if err != nil {
		t.Fatal(err)
	}
	return setText(t, s)
}

// TestPortSameRules checks that a site served on a port learns the rules it learns without
// one: the sample clusters with every host on port 8080 give the rules of the sample, each with
// the condition port = 8080 (a host literal keeps the port), and the same keys but for the port.
func TestPortSameRules(t *testing.T) {
	for _, sites := range []Grouping{ByHost, ByID} {
		t.Run(sites.String(), func(t *testing.T) {
			plain := loadSample(t)
			JoinSites(plain, sites)
			ported := withPort(t, plain, "8080")
			JoinSites(ported, sites)
			want, wst, err := Learn(plain, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, gst, err := Learn(ported, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if gst.Unexpressed != wst.Unexpressed || got.Len() != want.Len() || want.Len() == 0 {
				t.Errorf("with a port: %d rules, %d unexpressed; without: %d rules, %d unexpressed", got.Len(), gst.Unexpressed, want.Len(), wst.Unexpressed)
			}
			if g, w := unported(t, got, "8080"), setText(t, want); g != w {
				t.Errorf("rules with a port, the port taken out:\n%s\nwant\n%s", g, w)
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
		})
	}
}

// TestPortOtherSite checks that another port of a host is another site: rules learned on
// 127.0.0.1:8080 do not rewrite the URLs of 127.0.0.1:9090 nor of 127.0.0.1, offline and
// online.
func TestPortOtherSite(t *testing.T) {
	var cls []Cluster
	for i := range 20 {
		id := fmt.Sprintf("c%02d", i)
		c := Cluster{ID: id}
		c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("http://127.0.0.1:8080/item.php?id=%d", i)})
		for j := range 2 {
			c.URLs = append(c.URLs, URL{Raw: fmt.Sprintf("http://127.0.0.1:8080/item.php?id=%d&sid=%x", i, 1000*i+j+7)})
		}
		cls = append(cls, c)
	}
	// The other port's items and the same host's without a port: sid names the page there.
	for i := range 20 {
		cls = append(cls,
			Cluster{ID: fmt.Sprintf("n%02d", i), URLs: []URL{{Raw: fmt.Sprintf("http://127.0.0.1:9090/item.php?id=1&sid=%x", 5000+i)}}},
			Cluster{ID: fmt.Sprintf("d%02d", i), URLs: []URL{{Raw: fmt.Sprintf("http://127.0.0.1/item.php?id=1&sid=%x", 5000+i)}}})
	}
	JoinSites(cls, ByHost)
	set, _, err := Learn(cls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/item.php?id=3&sid=abc", "http://127.0.0.1:8080/item.php?id=3"},
		{"http://127.0.0.1:9090/item.php?id=3&sid=abc", "http://127.0.0.1:9090/item.php?id=3&sid=abc"},
		{"http://127.0.0.1/item.php?id=3&sid=abc", "http://127.0.0.1/item.php?id=3&sid=abc"},
	} {
		if got, err := set.Normalize(tc.in); err != nil || got != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q\n%s", tc.in, got, err, tc.want, setText(t, set))
		}
	}

	o := NewOnline(OnlineOptions{MinURLs: 8})
	for _, c := range cls {
		for _, u := range c.URLs {
			o.Observe(u, uint64(len(c.ID))<<8|uint64(c.ID[0])<<16|uint64(c.ID[1]-'0')<<4|uint64(c.ID[2]-'0'))
		}
	}
	o.Relearn()
	for _, tc := range []struct{ in, site, want string }{
		{"http://127.0.0.1:8080/item.php?id=3&sid=abc", "127.0.0.1:8080", "http://127.0.0.1:8080/item.php?id=3"},
		{"http://user@127.0.0.1:8080/item.php?id=3&sid=abc", "127.0.0.1:8080", "http://user@127.0.0.1:8080/item.php?id=3"},
		{"http://127.0.0.1:9090/item.php?id=3&sid=abc", "127.0.0.1:9090", "http://127.0.0.1:9090/item.php?id=3&sid=abc"},
		{"http://www.example.co.uk:8080/", "example.co.uk:8080", "http://www.example.co.uk:8080/"},
		{"http://127.0.0.1:80/item.php?id=3&sid=abc", "127.0.0.1", "http://127.0.0.1/item.php?id=3&sid=abc"},
	} {
		if site, _ := o.Site(tc.in); site != tc.site {
			t.Errorf("Online.Site(%q) = %q, want %q", tc.in, site, tc.site)
		}
		if got, err := o.Normalize(tc.in); err != nil || got != tc.want {
			t.Errorf("Online.Normalize(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
