// Package undust_test holds the README's "API in a dozen lines" as code that compiles and runs:
// TestREADMEAPI runs the lines between its README markers, and TestREADMEShowsAPI checks that
// the README shows exactly those lines.
package undust_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/undust/undust"
	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/lcs"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/shingle"
	"github.com/undust/undust/simhash"
	"github.com/undust/undust/urlnorm"
)

// readmeClusters is a dup-cluster file of a made-up site where /title/ID/photogallery and
// /title/ID/mediaindex are one page.
func readmeClusters() *strings.Reader {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "c%d\thttp://www.movies.example/title/tt%07d/photogallery\n", i, 810900+i)
		fmt.Fprintf(&b, "c%d\thttp://www.movies.example/title/tt%07d/mediaindex\n", i, 810900+i)
	}
	return strings.NewReader(b.String())
}

const readmePage = `<html><head><title>Soup</title></head><body><nav><a href="/">Home</a></nav>
<article><p>Bring the water to a boil, add the lentils and let them simmer for twenty minutes.</p>
<p>Season with salt, cumin and a squeeze of lemon before serving the soup hot.</p></article></body></html>`

func TestREADMEAPI(t *testing.T) {
	raw := "HTTP://www.movies.example:80/title/tt0068646/photogallery?utm_source=x#top"
	tsv, html := readmeClusters(), []byte(readmePage)
	var buf bytes.Buffer
	w, f, state := &buf, &buf, io.Discard
	id, contentID := uint64(1), uint64(42)
	pageURL, href := "https://www.movies.example/title/tt0068646/", "../tt0068647/?utm_medium=mail"

	// README begin
	crawl, err := undust.New(undust.Options{})                              // one crawl's dedup state; safe for concurrent use
	d := crawl.Before(raw)                                                  // before a fetch: d.Action is Fetch, Verify or Skip (as a duplicate of d.Of)
	page := crawl.After(undust.Response{URL: raw, Status: 200, Body: html}) // after it: page.ID, page.Duplicate (then don't follow), page.Of
	_, err = crawl.WriteTo(state)                                           // save; ReadFrom into a new Crawl resumes the crawl
	static := urlnorm.New(urlnorm.Crawler)                                  // presets Safe ⊂ Crawler ⊂ Aggressive, or any Flags
	canon, err := static.Canonical(raw)                                     // safe to fetch: semantics-preserving only
	key, err := static.Key(raw)                                             // the dedup key: query sorted, session ids gone, ...
	key, err = static.ResolveKey(pageURL, href)                             // an href's key, resolved the WHATWG way
	clusters, _, err := learn.ReadClusters(tsv, learn.ReaderOptions{})      // lines cluster<TAB>url; sites from the hosts
	set, stats, err := learn.Learn(clusters, learn.Options{})               // offline: dup clusters -> *rules.Set
	key, err = set.Normalize(raw)                                           // raw URL -> learned key (the set keys it first)
	_, err = set.WriteTo(w)                                                 // the versioned, diffable rules file ...
	set, err = rules.Load(f, nil)                                           // ... and back
	online := learn.NewOnline(learn.OnlineOptions{})                        // or online; go online.Run(ctx) relearns
	online.Observe(learn.URL{Raw: raw}, contentID)                          // this URL's page has this content id
	key, err = online.Normalize(raw)                                        // lock-free
	toks, err := urlnorm.Tokenize(nil, key)                                 // keyed tokens k(x,y) for rules and learners

	text, err := htmltext.Extract(html, htmltext.Options{MainContent: true}) // paragraphs of the main content
	hashes := shingle.AppendHashes(nil, text.String(), shingle.Options{})    // word 5-shingle hashes
	fp, index := simhash.Sum64(hashes), simhash.NewIndex(3, nil)             // 64-bit SimHash, permuted tables
	match, dup := index.Near(fp, 3)                                          // a fingerprint within 3 bits?
	index.Insert(id, fp)                                                     // then keep it
	sig, lsh := shingle.NewMinHasher(128, 1).Signature(hashes), shingle.NewLSH(128, 0.7)
	similar, err := lsh.Query(sig)               // candidates; keep those with shingle.Estimate >= 0.8
	err = lsh.Insert(id, sig)                    // then index it
	e := lcs.NewEliminator(0)                    // repeatability of feature codes (Guo et al.)
	pid, res := e.Add(lcs.Code(text.Paragraphs)) // res.Dup, res.Of
	// README end

	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"first URL is fetched", d.Action, undust.Fetch},
		{"first page is kept", page.ID == 1 && !page.Duplicate, true},
		{"canon", canon, "http://www.movies.example/title/tt0068646/photogallery?utm_source=x"},
		{"href key", mustResolveKey(t, static, pageURL, href), "https://www.movies.example/title/tt0068647/"},
		{"learned rules", stats.Selected > 0, true},
		{"set key", mustNormalize(t, set, raw), "http://www.movies.example/title/tt0068646/mediaindex"},
		{"online key", key, "http://www.movies.example/title/tt0068646/photogallery"}, // one page: nothing learned yet
		{"tokens", len(toks) > 0, true},
		{"main text", text.Paragraphs[0][:8], "Bring th"},
		{"first fingerprint has no match", dup, false},
		{"no match", match.ID, uint64(0)},
		{"first signature has no candidate", len(similar), 0},
		{"first code", pid == 0 && !res.Dup && res.Of == -1, true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func mustResolveKey(t *testing.T, n *urlnorm.Normalizer, base, ref string) string {
	t.Helper()
	k, err := n.ResolveKey(base, ref)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustNormalize(t *testing.T, s urlnorm.Stage, raw string) string {
	t.Helper()
	k, err := s.Normalize(raw)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestREADMEShowsAPI checks that the README's API block is the code between the README markers
// of TestREADMEAPI, line for line.
func TestREADMEShowsAPI(t *testing.T) {
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, code, _ := strings.Cut(string(src), "\t// README begin\n")
	code, _, _ = strings.Cut(code, "\t// README end\n")
	var want []string
	for line := range strings.Lines(code) {
		want = append(want, strings.TrimPrefix(strings.TrimSuffix(line, "\n"), "\t"))
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(readme), "## The API in a dozen lines\n\n```go\n")
	block, _, _ = strings.Cut(block, "```\n")
	got := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README.md's API block differs from TestREADMEAPI's lines:\nREADME:\n%s\ntest:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
