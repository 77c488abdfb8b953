package urlnorm

import (
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/undust/undust/internal/hostile"
	"github.com/undust/undust/internal/tier"
)

// seedCorpus adds every input of the conformance suites and unit tables.
func seedCorpus(f *testing.F) {
	f.Helper()
	// Hostile shapes, large but under the default length cap.
	for _, h := range hostileURLs {
		f.Add(h.gen(6000))
	}
	f.Add(hostile.LeadingInvisible("https://www.sec.gov/edgar.shtml"))
	f.Add("h\ufeffttps://a.com/")
	// Semicolon queries beside parameters the key drops (SemicolonParams).
	f.Add("http://a.com/?p=a.git;a=blob;h=1&utm_source=x;y&&PHPSESSID=0123456789abcdef")
	f.Add("http://a.com/?=1&p=a;b=c&utm_medium=x&q=r;s")
	for _, c := range loadWPT(&testing.T{}) {
		f.Add(c.Input)
	}
	if data, err := os.ReadFile("testdata/urlcanon/aggressive.json"); err == nil {
		var m map[string]string
		if json.Unmarshal(data, &m) == nil {
			for k := range m {
				f.Add(k)
			}
		}
	}
	if data, err := os.ReadFile("testdata/urlcanon/funky_ipv4.json"); err == nil {
		var m map[string]*string
		if json.Unmarshal(data, &m) == nil {
			for k := range m {
				f.Add("http://" + k + "/")
			}
		}
	}
	for _, p := range []string{"weirdToNormalizedUrls.csv", "invalidUrls.csv"} {
		data, _ := os.ReadFile("testdata/crawler-commons/" + p)
		for _, line := range strings.Split(string(data), "\n") {
			if in, _, _ := strings.Cut(line, ","); in != "" && in[0] != '#' {
				f.Add(strings.TrimSpace(in))
			}
		}
	}
	for _, s := range []string{
		"http://a.com\\@b.com/", "http://a.com%2f@b.com/", "http://a@b@c/", "http://[::1]:80/",
		"http://a.com/%2e%2E/%2e/x", "https://u:p@www.a.com:443/index.html?b&a=1&utm_x=1#f",
		"http://a.com/(S(4hqa0555fwsecu455xqckv45))/x;jsessionid=1?PHPSESSID=1",
		"http://a.com/timeline?c=2019-02-28+12%3A00%3A00", "http://a.com/?%24top=5&%61=%2f%2B%26%3d%25%3B%5b%7C%60%27",
		"http://a.com/?x=%%3A1&y=%253A&z=%3", // a stray '%' before, an escaped one, a cut escape
	} {
		f.Add(s)
	}
}

func checkError(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	for _, s := range []error{ErrTooLong, ErrNotAbsolute, ErrUnsupportedScheme, ErrInvalidHost, ErrInvalidPort} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps no sentinel", err)
}

// checkOutput checks that out parses with net/url, with the form
// scheme://[userinfo@]host[:port]/path[?query][#fragment].
func checkOutput(t *testing.T, in, out string) *url.URL {
	t.Helper()
	u, err := url.Parse(out)
	if err != nil {
		t.Fatalf("%q -> %q does not parse with net/url: %v", in, out, err)
	}
	i := strings.Index(out, "://")
	if i < 0 || !strings.HasPrefix(out[i+3:][strings.IndexAny(out[i+3:]+"/", "/"):], "/") {
		t.Fatalf("%q -> %q lacks scheme:// or path", in, out)
	}
	rest := out[i+3:]
	rest = rest[strings.IndexByte(rest, '/'):]
	path, _, _ := strings.Cut(rest, "#")
	path, query, _ := strings.Cut(path, "?")
	if strings.ContainsAny(path, "?#") || strings.Contains(query, "#") {
		t.Fatalf("%q -> %q has a raw ? or # inside path or query", in, out)
	}
	return u
}

var (
	fuzzSafe       = New(Safe)
	fuzzCrawler    = New(Crawler)
	fuzzAggressive = New(Aggressive)
)

// checkCanonical checks the properties of Canonical for one input: errors
// are typed, the result is idempotent (also for Crawler), parses with
// net/url and connects to the host and port a WHATWG parser would.
func checkCanonical(t *testing.T, in string) {
	t.Helper()
	c, err := fuzzSafe.Canonical(in)
	if err != nil {
		checkError(t, err)
		if rh, _, ok := refConnect(in); ok && !errors.Is(err, ErrTooLong) {
			t.Fatalf("Canonical(%q) failed with %v; a WHATWG parser connects to %q", in, err, rh)
		}
		return
	}
	if c2, err := fuzzSafe.Canonical(c); err != nil || c2 != c {
		t.Fatalf("not idempotent: %q -> %q -> %q, %v", in, c, c2, err)
	}
	if k, err := fuzzCrawler.Canonical(in); err != nil {
		t.Fatalf("Crawler.Canonical(%q) failed (%v) where Safe succeeded", in, err)
	} else if k2, err := fuzzCrawler.Canonical(k); err != nil || k2 != k {
		t.Fatalf("Crawler.Canonical not idempotent: %q -> %q -> %q, %v", in, k, k2, err)
	}
	u := checkOutput(t, in, c)
	if u.Scheme == "file" {
		return
	}
	rh, rp, ok := refConnect(in)
	if !ok {
		t.Fatalf("Canonical(%q) = %q, but a WHATWG parser rejects it", in, c)
	}
	gh := u.Hostname()
	if strings.HasPrefix(rh, "[") {
		ga, err1 := netip.ParseAddr(gh)
		ra, err2 := netip.ParseAddr(rh[1 : len(rh)-1])
		if err1 != nil || err2 != nil || ga != ra {
			t.Fatalf("Canonical(%q) = %q: host %q, WHATWG host %q", in, c, gh, rh)
		}
	} else if gh != rh {
		t.Fatalf("Canonical(%q) = %q: host %q, WHATWG host %q", in, c, gh, rh)
	}
	if u.Port() != rp {
		t.Fatalf("Canonical(%q) = %q: port %q, WHATWG port %q", in, c, u.Port(), rp)
	}
}

// checkKey checks the properties of Key for one input: idempotent for
// Crawler and Aggressive, parses with net/url, AppendKey agrees with Key,
// and the Crawler key equals the string-function reference.
func checkKey(t *testing.T, in string) {
	t.Helper()
	for _, n := range []*Normalizer{fuzzCrawler, fuzzAggressive} {
		k, err := n.Key(in)
		if err != nil {
			checkError(t, err)
			continue
		}
		if k2, err := n.Key(k); err != nil || k2 != k {
			t.Fatalf("%v: not idempotent: %q -> %q -> %q, %v", n.Flags(), in, k, k2, err)
		}
		checkOutput(t, in, k)
		var buf [8]byte
		if b, err := n.AppendKey(buf[:3], in); err != nil || string(b[3:]) != k || string(b[:3]) != string(buf[:3]) {
			t.Fatalf("AppendKey(%q) = %q, %v; Key = %q", in, b, err, k)
		}
	}
	c, err := fuzzCrawler.Canonical(in)
	if err != nil {
		return
	}
	k, _ := fuzzCrawler.Key(in)
	if want := refCrawlerKey(fuzzCrawler, c); k != want {
		t.Fatalf("Key(%q) = %q; reference from canonical %q gives %q", in, k, c, want)
	}
}

func FuzzCanonical(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(checkCanonical)
}

func FuzzKey(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(checkKey)
}

// TestCorpusProperties runs the fuzz properties over the real URLs: every
// fourth (tier.Step).
func TestCorpusProperties(t *testing.T) {
	urls, _ := loadCorpus(t)
	step := tier.Step(4)
	for i := 0; i < len(urls); i += step {
		u := urls[i]
		checkCanonical(t, u)
		checkKey(t, u)
	}
}

// FuzzParamNames checks the summary of a key's parameter names (KeyLayout.ParamNames) against the
// names that Tokenize finds in the key, for two URLs keyed one after the other into one KeyLayout
// (the summary must not outlive its key), under the Crawler flags and the default ones.
func FuzzParamNames(f *testing.F) {
	f.Add("highlight=1&a", "a%20b=1")
	f.Add("", "&&=x&ab")
	f.Add("ref_=x", "ref_=a b#f")
	f.Add("z=1", "=&a=")
	f.Add("%61=1", "a=1")
	f.Add("%24top=5&%3D=x", "b%3A=1&%2B")
	ns := []*Normalizer{New(Crawler), New(Safe)}
	f.Fuzz(func(t *testing.T, q1, q2 string) {
		for _, n := range ns {
			var l KeyLayout
			for _, q := range []string{q1, q2} {
				k, err := n.AppendKeyLayout(nil, "http://h.example/p?"+q, &l)
				if err == nil {
					checkParamNames(t, string(k), &l)
				}
			}
		}
	})
}
