package urlnorm

import (
	"os"
	"strings"
	"testing"
)

// FuzzResolve checks the properties of checkResolve on a base and a
// reference, seeded with every WPT case that has a base, the crawler-commons
// resolution cases, the unit tables and some dot segments (TestResolveLinear has the long
// hostile references).
func FuzzResolve(f *testing.F) {
	for _, c := range loadWPTWithBase(&testing.T{}) {
		f.Add(*c.Base, c.Input)
	}
	if data, err := os.ReadFile("testdata/crawler-commons/url-resolve.csv"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rec := strings.Split(line, ","); len(rec) == 3 && !strings.HasPrefix(line, "#") {
				f.Add(strings.Trim(rec[1], ` "`), strings.Trim(rec[0], ` "`))
			}
		}
	}
	for _, b := range []string{"http://h.com/a/b?q#f", "file:///C:/a/b", "https://u:p@www.h.com:8443/a;jsessionid=1/b.html?utm_x=1&b=2&a=1"} {
		for _, r := range []string{"", "x", "../x", "/x", "//o.com/x", "?y", "#g", "http:x", "file:x", "C|/x", `\\o\x`,
			strings.Repeat("../", 20) + "x", strings.Repeat("a/", 20), strings.Repeat("%2e%2E/", 5)} {
			f.Add(b, r)
		}
	}
	f.Fuzz(checkResolve)
}
