package align

import (
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/learn"
)

// TestCaseInsensitiveHost: a host whose duplicates differ in path case gets one rule that
// lowercases the whole path (not one literal rule per token), which merges the case variants
// of pages not seen in training; a case-sensitive host of the same site gets none.
func TestCaseInsensitiveHost(t *testing.T) {
	var cls []learn.Cluster
	dirs := []string{"Shop", "Catalog/Garden", "Info", "Recipes/Main/Course"}
	for i := range 48 {
		p := fmt.Sprintf("/%s/Item%d/Detail.aspx", dirs[i%len(dirs)], i)
		cls = append(cls, cluster(fmt.Sprintf("iis-p%d", i),
			"http://www.iis.example"+p, "http://www.iis.example"+strings.ToUpper(p), "http://www.iis.example"+strings.ToLower(p)))
		q := fmt.Sprintf("/Docs/Page%d.html", i)
		cls = append(cls, cluster(fmt.Sprintf("iis-d%d", i), "http://docs.iis.example"+q),
			cluster(fmt.Sprintf("iis-e%d", i), "http://docs.iis.example"+strings.ToLower(q)))
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	whole, lower := 0, 0
	for i := range set.Len() {
		s := set.Rule(i).String()
		if strings.Contains(s, "path(-,-)=lower") {
			whole++
			if !strings.Contains(s, "host=www.iis.example ") {
				t.Errorf("case rule out of its host: %s", s)
			}
		} else if strings.Contains(s, "lower(") {
			lower++
		}
	}
	if whole != 1 || lower != 0 {
		t.Errorf("%d whole-path and %d per-token lowercasing rules, want 1 and 0", whole, lower)
	}
	tests := []struct{ a, b string }{
		{"http://www.iis.example/Shop/Item900/Detail.aspx", "http://www.iis.example/SHOP/ITEM900/DETAIL.ASPX"},
		{"http://www.iis.example/Other/Place/X1.aspx", "http://www.iis.example/other/place/x1.ASPX"},
	}
	for _, tt := range tests {
		ka, _ := set.Normalize(tt.a)
		kb, _ := set.Normalize(tt.b)
		if ka != kb {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q; want equal", tt.a, ka, tt.b, kb)
		}
	}
	ka, _ := set.Normalize("http://docs.iis.example/Docs/Page900.html")
	kb, _ := set.Normalize("http://docs.iis.example/docs/page900.html")
	if ka == kb {
		t.Errorf("the case-sensitive host's pages meet: %q", ka)
	}
}

// TestCaseInsensitiveHostKeepsOtherRules: on the IIS-like site shorecedar.es of the sample
// clusters (../testdata/sample.tsv, site h0004: pages linked in several letter cases, with and
// without the index file default.asp), the host gets the lowercasing rule and the rule that
// drops the index file from lowercased paths, so the case variants of a page with and without
// its index file get one key (the decision-tree learner once lost the second rule).
func TestCaseInsensitiveHostKeepsOtherRules(t *testing.T) {
	all := readClusters(t, "sample.tsv", learn.ReaderOptions{})
	var cls []learn.Cluster
	for _, c := range all {
		if learn.SiteOf(c.ID) == "h0004" {
			cls = append(cls, c)
		}
	}
	if len(cls) == 0 {
		t.Fatal("no cluster of site h0004 in ../testdata/sample.tsv")
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	norm := learn.SetNormalizer(set)
	tests := []struct{ a, b string }{
		{"https://shorecedar.es/Library/Wallet/Default.asp", "https://shorecedar.es/library/wallet/"},
		{"https://shorecedar.es/LIBRARY/WALLET/DEFAULT.ASP", "https://shorecedar.es/Library/Wallet/"},
		{"https://shorecedar.es/Library/NewPage/Default.asp", "https://shorecedar.es/library/newpage/"},
	}
	for _, tt := range tests {
		ka, err := norm.Normalize(tt.a)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := norm.Normalize(tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if ka != kb {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q; want equal", tt.a, ka, tt.b, kb)
		}
	}
}

// TestCaseSensitiveTree: a host that ignores case in its /Shop/ tree and not in its /go/ short
// links (codes that differ in case only are different pages) gets its paths lowercased in the
// first tree only.
func TestCaseSensitiveTree(t *testing.T) {
	var cls []learn.Cluster
	for i := range 200 {
		p := fmt.Sprintf("/Shop/Item%d/Detail.aspx", i)
		cls = append(cls, cluster(fmt.Sprintf("iis-p%d", i),
			"http://www.iis.example"+p, "http://www.iis.example"+strings.ToUpper(p), "http://www.iis.example"+strings.ToLower(p)))
	}
	for i := range 6 {
		cls = append(cls, cluster(fmt.Sprintf("iis-g%d", i), fmt.Sprintf("http://www.iis.example/go/aB%dxQ", i)),
			cluster(fmt.Sprintf("iis-h%d", i), fmt.Sprintf("http://www.iis.example/go/Ab%dXq", i)))
	}
	set, _, err := (&Learner{}).Learn(cls)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b string
		same bool
	}{
		{"http://www.iis.example/Shop/Item900/Detail.aspx", "http://www.iis.example/SHOP/ITEM900/DETAIL.ASPX", true},
		{"http://www.iis.example/sHoP/iTem901/Detail.aspx", "http://www.iis.example/shop/item901/detail.aspx", true},
		{"http://www.iis.example/go/zK9pWd", "http://www.iis.example/go/Zk9PwD", false},
	}
	for _, tt := range tests {
		ka, _ := set.Normalize(tt.a)
		kb, _ := set.Normalize(tt.b)
		if (ka == kb) != tt.same {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q; want equal %v", tt.a, ka, tt.b, kb, tt.same)
		}
	}
}
