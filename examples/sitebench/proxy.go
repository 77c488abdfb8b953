package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
)

// maxBody is the most bytes of a response body the proxy reads; a longer body is passed on
// and scored cut at this length.
const maxBody = 32 << 20

// BudgetHeader is set on the error response the proxy gives once a crawl has spent its budget.
const BudgetHeader = "Sitebench-Budget"

// A fault is what the proxy did to a response on purpose.
type fault uint8

const (
	noFault      fault = iota
	fault5xx           // the site's response replaced by 503 Service Unavailable
	faultTimeout       // no response until the client gives up, then the connection closed
	faultCut           // the headers and half the body, then the connection closed
)

func (f fault) String() string {
	return [...]string{"", "5xx", "timeout", "cut"}[f]
}

// A fetch is one request the proxy passed to the site, in the order the responses ended.
type fetch struct {
	URL      string
	Status   int   // the status the site answered (before any fault)
	Fault    fault // what the crawler got instead, if anything
	Location string
	Truth    truth // of the page, for status 200 (with a fault: of the page the site sent)
	NoMatch  bool  // the truth selector matched nothing in the page
	At       time.Duration
}

// ok reports whether the crawler received a complete page: status 200 and no fault.
func (f *fetch) ok() bool { return f.Status == http.StatusOK && f.Fault == noFault }

// A session is the proxy's state for one crawl: its budget, its faults and what it recorded.
type session struct {
	scope   scope
	budget  int
	faults  float64
	seed    uint64
	timeout time.Duration // how long a timeout fault holds a request at most
	truth   *truther
	start   time.Time

	spent     atomic.Int64   // fetches passed to the site
	paged     atomic.Bool    // a complete page has come: faults may start
	inflight  sync.WaitGroup // requests passed to the site and not yet answered
	exhausted chan struct{}  // closed when a request finds the budget spent
	closeOnce sync.Once

	mu       sync.Mutex
	fetches  []fetch
	seen     map[string]int // URL -> requests for it so far, for the faults
	refused  int            // requests after the budget was spent
	outScope int            // requests for URLs out of scope
	errors   int            // requests the site did not answer
}

// A proxy is a forward HTTP proxy on loopback through which the crawlers fetch. It serves one
// session at a time; requests between sessions get an error.
type proxy struct {
	ln       net.Listener
	srv      *http.Server
	upstream *http.Transport
	cur      atomic.Pointer[session]
}

func newProxy() (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	p := &proxy{ln: ln, upstream: &http.Transport{
		Proxy:               nil, // the site is reached directly
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     30 * time.Second,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	}}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, ErrorLog: quietLog}
	go p.srv.Serve(ln)
	return p, nil
}

// URL is the proxy's address as a crawler's proxy setting wants it.
func (p *proxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) Close() error {
	p.upstream.CloseIdleConnections()
	return p.srv.Close()
}

// begin starts a session; end ends it and returns what it recorded.
func (p *proxy) begin(s *session) {
	s.exhausted = make(chan struct{})
	s.seen = map[string]int{}
	s.start = time.Now()
	p.cur.Store(s)
}

func (p *proxy) end() *session {
	s := p.cur.Swap(nil)
	p.upstream.CloseIdleConnections()
	return s
}

// hopHeaders are the headers of one connection, which a proxy does not pass on (RFC 9110
// section 7.6.1).
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := p.cur.Load()
	if s == nil {
		http.Error(w, "sitebench: no crawl in progress", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodConnect || !r.URL.IsAbs() {
		http.Error(w, "sitebench: the proxy takes absolute http URLs only", http.StatusBadRequest)
		return
	}
	raw := r.URL.String()
	if !s.scope.in(raw) {
		s.mu.Lock()
		s.outScope++
		s.mu.Unlock()
		http.Error(w, "sitebench: out of scope", http.StatusForbidden)
		return
	}
	if s.spent.Add(1) > int64(s.budget) {
		s.spent.Add(-1)
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		s.closeOnce.Do(func() { close(s.exhausted) })
		w.Header().Set(BudgetHeader, "spent")
		http.Error(w, "sitebench: fetch budget spent", http.StatusServiceUnavailable)
		return
	}
	s.inflight.Add(1)
	defer s.inflight.Done()
	s.mu.Lock()
	n := s.seen[raw]
	s.seen[raw] = n + 1
	s.mu.Unlock()
	flt := noFault
	if s.paged.Load() {
		flt = s.fault(raw, n)
	}

	// The site's answer is a fetch even if the crawler goes away meanwhile (as it does when
	// its crawl is stopped): the upstream request does not end with the crawler's.
	out := r.Clone(context.WithoutCancel(r.Context()))
	out.RequestURI = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	// The transport asks for gzip itself and decodes it, so the body scored is the page.
	out.Header.Del("Accept-Encoding")
	resp, err := p.upstream.RoundTrip(out)
	if err != nil {
		s.mu.Lock()
		s.errors++
		s.mu.Unlock()
		http.Error(w, "sitebench: "+err.Error(), http.StatusBadGateway)
		s.spent.Add(-1) // not a fetch: the site did not answer
		return
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	if err != nil {
		flt = faultCut // the site cut it short: pass that on
	}
	f := fetch{URL: raw, Status: resp.StatusCode, Fault: flt, Location: resp.Header.Get("Location")}
	if f.Status == http.StatusOK && err == nil {
		f.Truth, f.NoMatch = s.truth.of(resp.Header.Get("Content-Type"), body)
	}
	if f.ok() {
		s.paged.Store(true)
	}
	// The fetch is recorded before the crawler sees the response, so that the record's order
	// is the order in which the crawler could learn from the pages.
	s.mu.Lock()
	f.At = time.Since(s.start)
	s.fetches = append(s.fetches, f)
	s.mu.Unlock()

	switch flt {
	case fault5xx:
		http.Error(w, "sitebench: injected fault", http.StatusServiceUnavailable)
		return
	case faultTimeout:
		select {
		case <-r.Context().Done():
		case <-time.After(s.timeout):
		}
		panic(http.ErrAbortHandler) // closes the connection without a response
	}
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	h.Del("Content-Length")
	if flt == faultCut {
		h.Set("Content-Length", fmt.Sprint(max(len(body), 1)))
		w.WriteHeader(resp.StatusCode)
		w.Write(body[:len(body)/2])
		http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(resp.StatusCode)
	w.Write(body)
}

// fault decides whether the n-th request (from 0) for raw fails, and how: a hash of the seed,
// the URL and n, so that the same crawl order meets the same faults, and a URL fetched again
// draws again. The three kinds come in equal shares. ServeHTTP asks only once the crawl has had
// a complete page: the requests before it are the seed's and those of the redirects it leads
// to, and a crawler that lost its seed would have nothing to crawl, which measures nothing
// (colly does not retry; katana retries once, so a fault there would favour it).
func (s *session) fault(raw string, n int) fault {
	if s.faults <= 0 {
		return noFault
	}
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], s.seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(n))
	h := xxhash.New()
	h.Write(b[:])
	h.WriteString(raw)
	v := h.Sum64()
	if float64(v>>11)/(1<<53) >= s.faults {
		return noFault
	}
	return fault(1 + (v&0x7ff)%3)
}

// wait waits until the site has answered every request passed to it: a crawl that stopped may
// leave requests the crawler no longer waits for.
func (s *session) wait() { s.inflight.Wait() }

// record returns a copy of the fetches recorded so far and the request counts.
func (s *session) record() (fs []fetch, refused, outScope, errs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]fetch(nil), s.fetches...), s.refused, s.outScope, s.errors
}

// A scope is the URLs a crawl may fetch: those that start with its prefix.
type scope struct{ prefix string }

// newScope returns the scope of seed: its scheme, host and port, or prefix if it is given
// (which must contain the seed).
func newScope(seed, prefix string) (scope, error) {
	u, err := parseHTTP(seed)
	if err != nil {
		return scope{}, fmt.Errorf("seed: %w", err)
	}
	if prefix == "" {
		return scope{prefix: u.Scheme + "://" + u.Host + "/"}, nil
	}
	if _, err := parseHTTP(prefix); err != nil {
		return scope{}, fmt.Errorf("scope: %w", err)
	}
	if !strings.HasPrefix(u.String(), prefix) {
		return scope{}, fmt.Errorf("scope %q does not contain the seed %q", prefix, seed)
	}
	return scope{prefix: prefix}, nil
}

func (sc scope) in(raw string) bool { return strings.HasPrefix(raw, sc.prefix) }

// quietLog drops the http.Server's messages about aborted handlers and broken connections,
// which the faults cause on purpose.
var quietLog = log.New(io.Discard, "", 0)
