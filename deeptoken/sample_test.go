package deeptoken

import (
	"bufio"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/undust/undust/urlnorm"
)

// readHosts reads a dupclusters TSV and returns the URLs of each host name, in file order, and
// the host names in order of first appearance. With a normalizer, URLs are replaced by their
// dedup keys (and URLs it rejects are left out).
func readHosts(tb testing.TB, r io.Reader, norm *urlnorm.Normalizer) (map[string][]string, []string) {
	tb.Helper()
	hosts := make(map[string][]string)
	var order []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			tb.Fatalf("bad line %q", line)
		}
		u := f[1]
		if norm != nil {
			k, err := norm.Key(u)
			if err != nil {
				continue
			}
			u = k
		}
		_, rest, ok := strings.Cut(u, "://")
		if !ok {
			continue
		}
		h, _, _ := strings.Cut(rest, "/")
		if hosts[h] == nil {
			order = append(order, h)
		}
		hosts[h] = append(hosts[h], u)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return hosts, order
}

func sampleHosts(tb testing.TB) map[string][]string {
	f, err := os.Open("testdata/sample.tsv")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	h, _ := readHosts(tb, f, nil)
	return h
}

// TestSample checks the hosts of testdata/sample.tsv: the eBay-like host gets its QQ/Z patterns
// on path segment 1, the hosts of product slugs and wiki titles get no path patterns, and every
// URL splits losslessly.
func TestSample(t *testing.T) {
	hosts := sampleHosts(t)
	for h, urls := range hosts {
		p := Learn(slices.Values(urls), Options{})
		t.Logf("%s (%d URLs):\n%s", h, len(urls), p)
		for _, u := range urls {
			checkLossless(t, p, u)
		}
		hasPath := false
		for k := range p.trees {
			hasPath = hasPath || k.part == urlnorm.PartPath
		}
		switch h {
		case "juniperacme.com": // eBay-like W0QQ_fclsZ1 segments
			got := deep(t, p, "http://juniperacme.com/Football-Wheel-Movie_UPC_502312657160_W0QQ_fclsZ1QQ_pcatidZ45QQ_pidZ49900014QQ_tabZ2", 1)
			want := []string{"Football-Wheel-Movie", "_", "UPC", "_", "502312657160", "_", "W", "0", "QQ", "_", "fcls", "Z", "1",
				"QQ", "_", "pcatid", "Z", "45", "QQ", "_", "pid", "Z", "49900014", "QQ", "_", "tab", "Z", "2"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: split mismatch (-want +got):\n%s", h, diff)
			}
		case "vistamesa.com.br", "wiki.canysummit.com", "shorecedar.es": // slugs, titles, directories
			if hasPath {
				t.Errorf("%s: path patterns learned from unstructured segments:\n%s", h, p)
			}
		}
	}
}
