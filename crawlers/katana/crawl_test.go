package undustkatana

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/projectdiscovery/gologger"
	"github.com/projectdiscovery/gologger/levels"
	"github.com/projectdiscovery/katana/pkg/engine/standard"
	"github.com/projectdiscovery/katana/pkg/output"
	"github.com/projectdiscovery/katana/pkg/types"

	"github.com/undust/undust"
	"github.com/undust/undust/simsite"
)

// siteProxy serves a simsite.Site to a client that uses it as its HTTP proxy, which is how
// katana's standard engine can be pointed at a site of many host names without leaving the
// machine (its transport cannot be replaced, but it honours Options.Proxy): plain requests
// arrive in absolute form and are served at once; a CONNECT is tunnelled to a TLS server of the
// site (katana skips certificate checks). Both set X-Forwarded-Proto, and both count the
// requests the site answers.
type siteProxy struct {
	proxy, tls *httptest.Server

	mu      sync.Mutex
	fetches int
}

func newSiteProxy(t *testing.T, site http.Handler) *siteProxy {
	p := &siteProxy{}
	serve := func(scheme string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p.mu.Lock()
			p.fetches++
			p.mu.Unlock()
			r.Header.Set("X-Forwarded-Proto", scheme)
			site.ServeHTTP(w, r)
		})
	}
	p.tls = httptest.NewTLSServer(serve("https"))
	plain := serve("http")
	p.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			plain.ServeHTTP(w, r)
			return
		}
		conn, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer conn.Close()
		up, err := net.Dial("tcp", p.tls.Listener.Addr().String())
		if err != nil {
			fmt.Fprint(conn, "HTTP/1.1 502 Bad Gateway\r\n\r\n")
			return
		}
		defer up.Close()
		fmt.Fprint(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
		done := make(chan struct{})
		go func() {
			io.Copy(up, rw.Reader) // what the client sent, buffered or not
			if c, ok := up.(*net.TCPConn); ok {
				c.CloseWrite()
			}
			close(done)
		}()
		io.Copy(conn, up)
		conn.Close()
		<-done
	}))
	t.Cleanup(func() {
		p.proxy.Close()
		p.tls.Close()
	})
	return p
}

func (p *siteProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fetches
}

// recorder is katana's output writer in the test: it keeps the URL of every result that
// katana kept (written with a response, so not a duplicate by its content check).
type recorder struct {
	mu   sync.Mutex
	kept []string
	all  int
}

func (r *recorder) Close() error                 { return nil }
func (r *recorder) WriteErr(*output.Error) error { return nil }
func (r *recorder) Write(res *output.Result) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all++
	if res.Response != nil && res.Response.Resp != nil && res.Response.StatusCode == http.StatusOK {
		r.kept = append(r.kept, res.Request.URL)
	}
	return nil
}

// A score is what one crawl of the site cost and found.
type score struct {
	name    string
	fetches int // requests the site answered
	found   int // distinct pages among the results katana kept
	lost    int // pages of the site not among them
	undust  *undust.Stats
}

// crawlKatana crawls the site with katana's standard engine, breadth first, with its default
// filter, with -fsu, or with a Filter, and scores the crawl against the site's truth.
func crawlKatana(t *testing.T, site *simsite.Site, name string, similar bool, fopt *Options) score {
	t.Helper()
	p := newSiteProxy(t, site)
	opts := &types.Options{
		MaxDepth:      1 << 20, // the whole site: the crawl ends when the frontier is empty
		FieldScope:    "rdn",   // dustshop.example and its sub-domains
		BodyReadSize:  1 << 20,
		Timeout:       5, // also how long katana waits on an empty queue before it stops
		Concurrency:   4,
		RateLimit:     100000, // katana needs a limiter; this one never waits on loopback
		Parallelism:   1,
		Strategy:      "breadth-first",
		Proxy:         p.proxy.URL,
		Silent:        true,
		NoColors:      true,
		FilterSimilar: similar,
	}
	co, err := types.NewCrawlerOptions(opts)
	if err != nil {
		t.Fatalf("%s: NewCrawlerOptions: %v", name, err)
	}
	co.OutputWriter.Close()
	rec := &recorder{}
	co.OutputWriter = rec
	defer co.Close()
	var engine interface{ Crawl(string) error }
	var u *Crawler
	if fopt != nil {
		if u, err = New(co, *fopt); err != nil {
			t.Fatalf("%s: New: %v", name, err)
		}
		engine = u
	} else if engine, err = standard.New(co); err != nil {
		t.Fatalf("%s: standard.New: %v", name, err)
	}
	if err := engine.Crawl(simsite.StartURL); err != nil {
		t.Fatalf("%s: Crawl: %v", name, err)
	}
	s := score{name: name, fetches: p.count()}
	found := map[simsite.Page]bool{}
	for _, u := range rec.kept {
		if pg, _ := site.Page(u); pg != "" {
			found[pg] = true
		}
	}
	s.found = len(found)
	s.lost = site.NumPages() - s.found
	if u != nil {
		st := u.Stats()
		s.undust = &st
	}
	return s
}

func init() {
	gologger.DefaultLogger.SetMaxLevel(levels.LevelSilent)
}

// TestKatanaLoopback crawls simulated sites, each page served under several URLs, with
// katana's standard engine three times: with its default filter (exact URL, MD5 of the body),
// with -fsu (its similar-URL filter), and with a Filter. The Filter must lose no page and fetch
// fewer URLs per distinct page than the default filter. The Filter's options are the defaults,
// tuned on none of these sites.
func TestKatanaLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls simulated sites three times each")
	}
	for _, tc := range []struct {
		size int
		seed uint64
	}{
		{300, 1},
		{150, 7},
	} {
		site, err := simsite.New(tc.size, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		scores := []score{
			crawlKatana(t, site, "katana default", false, nil),
			crawlKatana(t, site, "katana -fsu", true, nil),
			crawlKatana(t, site, "katana + undust", false, &Options{}),
		}
		var b strings.Builder
		fmt.Fprintf(&b, "simsite.New(%d, %d): %d distinct pages; katana v1.5.0 standard engine, breadth first, concurrency 4\n\n",
			tc.size, tc.seed, site.NumPages())
		fmt.Fprintf(&b, "| filter | fetches | fetches per page found | pages found | pages lost |\n")
		fmt.Fprintf(&b, "| --- | ---: | ---: | ---: | ---: |\n")
		for _, s := range scores {
			fmt.Fprintf(&b, "| %s | %d | %.2f | %d | %d |\n", s.name, s.fetches, float64(s.fetches)/float64(max(s.found, 1)), s.found, s.lost)
		}
		if st := scores[2].undust; st != nil {
			fmt.Fprintf(&b, "\nundust: %d URLs asked, %d skipped before fetching, %d fetched to verify (%d mismatches);\n"+
				"%d pages: %d kept, %d duplicates; %d relearns, %d rules, %d retracted\n\n",
				st.URLs, st.Skip+st.Seen, st.Verify, st.Mismatches, st.Pages, st.Kept, st.Duplicates,
				st.Learner.Relearns, st.Learner.Rules, st.Learner.Retracted)
		}
		if testing.Verbose() {
			os.Stdout.WriteString(b.String())
		}
		def, und := scores[0], scores[2]
		if def.lost != 0 {
			t.Errorf("site %d/%d: katana's default filter lost %d pages; the comparison needs a crawl that finds them all", tc.size, tc.seed, def.lost)
		}
		if und.lost != 0 {
			t.Errorf("site %d/%d: katana + undust lost %d of %d pages", tc.size, tc.seed, und.lost, site.NumPages())
		}
		if und.fetches >= def.fetches {
			t.Errorf("site %d/%d: katana + undust fetched %d URLs, katana's default %d: no saving", tc.size, tc.seed, und.fetches, def.fetches)
		}
	}
}
