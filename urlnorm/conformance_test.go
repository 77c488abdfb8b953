package urlnorm

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
)

// whatwgFlags are the flags whose effect the WHATWG URL Standard also has;
// with them alone the canonical URL should equal the WPT href.
const whatwgFlags = RemoveDefaultPort | RemoveDotSegments

// attribute returns the flags of f (outside whatwgFlags) that, each
// removed alone, change what Canonical prints for in.
func attribute(f Flags, in string) []string {
	base, _ := New(f).Canonical(in)
	var names []string
	for _, fn := range flagNames {
		if f&fn.f == 0 || whatwgFlags&fn.f != 0 {
			continue
		}
		if got, _ := New(f &^ fn.f).Canonical(in); got != base {
			names = append(names, fn.name)
		}
	}
	return names
}

type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
	Protocol string  `json:"protocol"`
	Failure  bool    `json:"failure"`
}

// wptDeviations lists the WPT cases where even the WHATWG-only flags do not
// give href, with the reason. Every other mismatch must be explained by a
// named Safe flag (see attribute).
var wptDeviations = map[string]string{
	"http://a.b.c.xn--pokxncvks":  idnaMapped,
	"http://10.0.0.xn--pokxncvks": idnaMapped,
	"http://a.b.c.XN--pokxncvks":  idnaMapped,
	"http://a.b.c.Xn--pokxncvks":  idnaMapped,
	"http://10.0.0.XN--pokxncvks": idnaMapped,
	"http://10.0.0.xN--pokxncvks": idnaMapped,
	"https://xn--/":               idnaEmpty,
	"file://xn--/p":               idnaEmpty,
}

const (
	idnaMapped = "x/net/idna (UTS #46 as of Unicode 15) rejects an xn-- label that decodes to mapped, not valid, code points; this WPT revision expects the ASCII label kept"
	idnaEmpty  = "x/net/idna rejects the empty xn-- label; this WPT revision expects it kept"
)

func loadWPT(t *testing.T) []wptCase { return loadWPTCases(t, false) }

// loadWPTCases reads the cases of urltestdata.json (comments skipped) that
// have a base, or those that have none.
func loadWPTCases(t *testing.T, withBase bool) []wptCase {
	t.Helper()
	data, err := os.ReadFile("testdata/wpt/urltestdata.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var cases []wptCase
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // comment
		}
		var c wptCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		if (c.Base != nil) == withBase {
			cases = append(cases, c)
		}
	}
	return cases
}

// isSpecialInput reports whether in, parsed the WHATWG way, has a special scheme.
func isSpecialInput(in string) bool {
	sch, _, ok := splitScheme(removeTabNewline(trimControlSpace(in)))
	return ok && lookupScheme(sch) != schemeNone
}

func TestWPTURLTestData(t *testing.T) {
	safe := New(Safe)
	whatwg := New(whatwgFlags)
	var total, exact, byFlag, listed, failures int
	flagCount := map[string]int{}
	for _, c := range loadWPT(t) {
		if !isSpecialInput(c.Input) {
			continue
		}
		total++
		got, err := safe.Canonical(c.Input)
		if c.Failure {
			failures++
			if err == nil {
				if reason, ok := wptDeviations[c.Input]; ok {
					listed++
					t.Logf("deviation %q: %s", c.Input, reason)
					continue
				}
				t.Errorf("Canonical(%q) = %q, want an error", c.Input, got)
				continue
			}
			exact++
			continue
		}
		if err == nil && got == c.Href {
			exact++
			continue
		}
		w, werr := whatwg.Canonical(c.Input)
		if werr == nil && w == c.Href {
			byFlag++
			names := attribute(Safe, c.Input)
			if len(names) == 0 {
				t.Errorf("Canonical(%q) = %q, want %q and no flag explains it", c.Input, got, c.Href)
			}
			for _, n := range names {
				flagCount[n]++
			}
			t.Logf("by flag %q -> %q (href %q): %s", c.Input, got, c.Href, strings.Join(names, ", "))
			continue
		}
		if reason, ok := wptDeviations[c.Input]; ok {
			listed++
			t.Logf("deviation %q: %s", c.Input, reason)
			continue
		}
		t.Errorf("Canonical(%q) = %q, %v (WHATWG flags only: %q, %v); want %q", c.Input, got, err, w, werr, c.Href)
	}
	var fs []string
	for k, v := range flagCount {
		fs = append(fs, k+"="+itoa(v))
	}
	sort.Strings(fs)
	t.Logf("WPT urltestdata (special schemes, no base): %d cases (%d must fail); %d equal href or fail as required, %d differ only by a Safe flag beyond WHATWG (%s), %d listed deviations",
		total, failures, exact, byFlag, strings.Join(fs, " "), listed)
}

func itoa(v int) string { return string(appendInt(nil, v)) }

func TestWPTToASCII(t *testing.T) {
	data, err := os.ReadFile("testdata/wpt/toascii.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	n := New(Safe)
	var total, pass int
	for _, r := range raw {
		if r[0] == '"' {
			continue
		}
		var c struct {
			Input  string  `json:"input"`
			Output *string `json:"output"`
		}
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		total++
		got, err := n.Canonical("https://" + c.Input + "/x")
		if c.Output == nil {
			if err == nil {
				t.Errorf("host %q: got %q, want an error", c.Input, got)
				continue
			}
			pass++
			continue
		}
		want := "https://" + strings.TrimSuffix(*c.Output, ".") + "/x" // RemoveTrailingDot
		if err != nil || got != want {
			t.Errorf("host %q: got %q, %v; want %q", c.Input, got, err, want)
			continue
		}
		pass++
	}
	t.Logf("WPT toascii: %d/%d", pass, total)
}

// ccProfile matches crawler-commons BasicURLNormalizer's defaults.
const ccProfile = Safe | DropFragment | SortQuery | DropEmptyParams | DropBareQuery |
	RemoveDuplicateSlashes | GuessScheme

// ccDeviations lists the crawler-commons cases undust deliberately answers
// differently, with the reason.
var ccDeviations = map[string]string{
	"ftp:/":                 "a special URL without a host fails (WHATWG); crawler-commons keeps it",
	"http:////":             "a special URL without a host fails (WHATWG); crawler-commons keeps it",
	"http:///////":          "a special URL without a host fails (WHATWG); crawler-commons keeps it",
	"file:/path/index.html": "file URLs serialize as file:///path (WHATWG); crawler-commons keeps file:/path",
	"file:/var/www/html/////./bar/index.html":  "file URLs serialize as file:///path (WHATWG); crawler-commons keeps file:/path",
	"file:/var/www/html/foo/../bar/index.html": "file URLs serialize as file:///path (WHATWG); crawler-commons keeps file:/path",
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		for i := range rec {
			rec[i] = strings.Trim(rec[i], " ")
		}
	}
	return recs
}

func TestCrawlerCommons(t *testing.T) {
	n := New(ccProfile)
	var total, pass, listed int
	for _, rec := range readCSV(t, "testdata/crawler-commons/weirdToNormalizedUrls.csv") {
		if len(rec) != 2 {
			t.Fatalf("bad record %q", rec)
		}
		in, want := rec[0], rec[1]
		total++
		got, err := n.Key(in)
		if err == nil && got == want {
			pass++
			continue
		}
		if reason, ok := ccDeviations[in]; ok {
			listed++
			t.Logf("deviation %q -> %q, %v (crawler-commons %q): %s", in, got, err, want, reason)
			continue
		}
		t.Errorf("Key(%q) = %q, %v; want %q", in, got, err, want)
	}
	t.Logf("crawler-commons weirdToNormalizedUrls: %d/%d pass, %d listed deviations", pass, total, listed)

	var bad, rejected int
	for _, rec := range readCSV(t, "testdata/crawler-commons/invalidUrls.csv") {
		bad++
		if got, err := n.Key(rec[0]); err == nil {
			t.Errorf("Key(%q) = %q, want an error", rec[0], got)
			continue
		}
		rejected++
	}
	t.Logf("crawler-commons invalidUrls: %d/%d rejected", rejected, bad)
}

func TestURLCanonFunkyIPv4(t *testing.T) {
	data, err := os.ReadFile("testdata/urlcanon/funky_ipv4.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]*string
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	n := New(Safe)
	pass := 0
	for host, want := range m {
		got, err := n.Canonical("http://" + host + "/")
		switch {
		case want == nil && err != nil:
			pass++
		case want == nil:
			// Not an IPv4 address: acceptable if kept as a domain name.
			if h := strings.TrimSuffix(strings.TrimPrefix(got, "http://"), "/"); endsInNumber([]byte(h)) {
				t.Errorf("host %q: got %q, want no IPv4 address", host, got)
				continue
			}
			pass++
		case err == nil && got == "http://"+*want+"/":
			pass++
		default:
			t.Errorf("host %q: got %q, %v; want %q", host, got, err, *want)
		}
	}
	t.Logf("urlcanon funky_ipv4: %d/%d", pass, len(m))
}

// aggressiveDeviations lists urlcanon aggressive.json cases undust answers
// differently with the Aggressive preset, with the reason.
var aggressiveDeviations = map[string]string{
	"foo.com/pa%21th":                   "'!' is reserved (sub-delims): undust decodes only unreserved escapes (RFC 3986 section 6.2.2.2)",
	"http://www.example.com/index.html": "Aggressive sets DropIndex; urlcanon's aggressive canonicalizer keeps index files",
}

func TestURLCanonAggressive(t *testing.T) {
	data, err := os.ReadFile("testdata/urlcanon/aggressive.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	n := New(Aggressive)
	pass, listed := 0, 0
	for in, want := range m {
		got, err := n.Key(in)
		if err == nil && got == want {
			pass++
			continue
		}
		if reason, ok := aggressiveDeviations[in]; ok {
			listed++
			t.Logf("deviation %q -> %q, %v (urlcanon %q): %s", in, got, err, want, reason)
			continue
		}
		t.Errorf("Key(%q) = %q, %v; want %q", in, got, err, want)
	}
	t.Logf("urlcanon aggressive: %d/%d pass, %d listed deviations", pass, len(m), listed)
}
