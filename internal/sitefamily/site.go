package sitefamily

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// A site is one generated site while its family's code builds it: its random source, its
// names, its pages (clusters) and the traps recorded on it.
type site struct {
	fam    *Family
	id     string // cluster id prefix, "docs-s03"
	r      *rand.Rand
	pages  int    // page budget: the family code builds about this many pages
	name   string // the base name, "kalomira"
	domain string // registrable domain, "kalomira.com.br"
	scheme string // the scheme the site links with
	www    bool   // whether the site links to www.domain

	pAlias float64 // chance of a scheme or www alias of a canonical URL
	pTrack float64 // chance of a utm-tagged copy of a canonical URL

	clusters []*cluster
	byURL    map[string]*cluster
	names    map[string]bool // names handed out by fresh
	traps    []Trap
	err      error
}

// A cluster is one page: the URLs that serve it.
type cluster struct {
	n     int     // creation index
	hot   float64 // prominence: more URLs and a higher importance
	noise bool    // a grouped error page, not one page
	urls  []variant
	imp   float64
	total int // in-links of the page
}

// A variant is one URL of a page with its share of the page's in-links: w > 0 shares what
// the page's other variants leave; w == 0 is a variant with exactly 1 in-link (a session or a
// tracking copy, linked once).
type variant struct {
	url string
	w   float64
}

// Weights of variants' in-link shares.
const (
	wMain  = 1    // the URL the site links to
	wAlias = 0.15 // an alias some pages link to
	wOnce  = 0    // a URL linked once
)

func newSite(f *Family, seed uint64, idx int, scale float64) *site {
	h := xxhash.Sum64String(f.Name + "/" + strconv.Itoa(idx))
	s := &site{
		fam:   f,
		id:    fmt.Sprintf("%s-s%02d", f.Name, idx),
		r:     rand.New(rand.NewPCG(seed, h)),
		byURL: map[string]*cluster{},
		names: map[string]bool{},
	}
	lo, hi := float64(f.pages[0]), float64(f.pages[1])
	// Log-uniform sizes: many small sites, a few large ones.
	s.pages = max(20, int(scale*lo*math.Pow(hi/lo, s.r.Float64())))
	s.name = s.word(3 + s.r.IntN(2))
	s.domain = s.name + "." + pick(s.r, tlds)
	s.scheme = pick(s.r, []string{"http", "https", "https"})
	s.www = s.r.IntN(3) > 0
	s.pAlias = 0.02 + 0.10*s.r.Float64()
	s.pTrack = 0.03 * s.r.Float64()
	return s
}

var tlds = []string{"com", "com", "com", "net", "org", "de", "fr", "co.uk", "com.br", "io", "nl", "com.au", "es", "it", "pl", "se"}

var syllables = strings.Fields(`ka lo mi ra te vu no sa be di fa go hu ji ke la ma ne pi qua ri so tu va we xi yo ze
	bra cle dro fri glo pla tri sto vel mar son ter lin dor kas pen rul tam vik zor bel cor dan fel gar hol`)

// word returns a made-up word of n syllables; a match with a real name is chance.
func (s *site) word(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pick(s.r, syllables))
	}
	return b.String()
}

// slug returns a lowercase title slug of n made-up words joined by sep.
func (s *site) slug(n int, sep string) string {
	w := make([]string, n)
	for i := range w {
		w[i] = s.word(1 + s.r.IntN(3))
	}
	return strings.Join(w, sep)
}

// title returns a title of n capitalized made-up words joined by sep.
func (s *site) title(n int, sep string) string {
	w := make([]string, n)
	for i := range w {
		x := s.word(1 + s.r.IntN(3))
		w[i] = strings.ToUpper(x[:1]) + x[1:]
	}
	return strings.Join(w, sep)
}

const (
	alnum    = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lowerNum = "abcdefghijklmnopqrstuvwxyz0123456789"
	hexLower = "0123456789abcdef"
	hexUpper = "0123456789ABCDEF"
	base32   = "abcdefghijklmnopqrstuvwxyz012345"
	b64url   = alnum + "-_"
)

// rnd returns n random characters of alphabet.
func (s *site) rnd(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[s.r.IntN(len(alphabet))]
	}
	return string(b)
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// chance reports true with probability p.
func (s *site) chance(p float64) bool { return s.r.Float64() < p }

// between returns a uniform float in [lo, hi).
func (s *site) between(lo, hi float64) float64 { return lo + (hi-lo)*s.r.Float64() }

// intBetween returns a uniform int in [lo, hi].
func (s *site) intBetween(lo, hi int) int { return lo + s.r.IntN(hi-lo+1) }

// host returns the site's canonical host with the given sub-domain ("" for the canonical
// www or bare host).
func (s *site) host(sub string) string {
	switch {
	case sub != "":
		return sub + "." + s.domain
	case s.www:
		return "www." + s.domain
	}
	return s.domain
}

// origin returns scheme://host of the canonical host.
func (s *site) origin() string { return s.scheme + "://" + s.host("") }

// page starts a page of prominence boost times a Pareto draw.
func (s *site) page(boost float64) *cluster {
	c := &cluster{n: len(s.clusters), hot: boost * math.Pow(1-s.r.Float64(), -1/1.5)}
	s.clusters = append(s.clusters, c)
	return c
}

// noisePage starts a grouped error page: distinct requests that served one "not found",
// "expired" or "private" page, which content hashing of a crawl puts in one cluster.
func (s *site) noisePage() *cluster {
	c := s.page(0.3)
	c.noise = true
	return c
}

// add adds a URL to c with in-link weight w and reports whether it is new. A URL already on
// another page of the site is a bug of the family's code, reported by Generate.
func (s *site) add(c *cluster, u string, w float64) bool {
	if o, ok := s.byURL[u]; ok {
		if o != c && s.err == nil {
			s.err = fmt.Errorf("sitefamily: %s: URL %q on two pages", s.id, u)
		}
		return false
	}
	s.byURL[u] = c
	c.urls = append(c.urls, variant{u, w})
	return true
}

// fresh returns a value of gen that it has not returned before on this site. After 20 values
// of gen that it had, it appends a number to the last: gen's values may be few.
func (s *site) fresh(gen func() string) string {
	v := gen()
	for i := 0; s.names[v]; i++ {
		if i < 20 {
			v = gen()
		} else {
			v += strconv.Itoa(i % 10)
		}
	}
	s.names[v] = true
	return v
}

// freshSlug returns a slug of n words that fresh has not returned before.
func (s *site) freshSlug(n int, sep string) string {
	return s.fresh(func() string { return s.slug(n, sep) })
}

// addNoise adds u to the grouped error page c unless u is a URL of some page already.
func (s *site) addNoise(c *cluster, u string) {
	if !s.has(u) {
		s.add(c, u, wOnce)
	}
}

// has reports whether u is a URL of some page.
func (s *site) has(u string) bool { _, ok := s.byURL[u]; return ok }

// main adds the URL the site links to for c, and with the site's small chances a scheme or
// www alias and a utm-tagged copy: the host and tracking variants every site has.
func (s *site) main(c *cluster, u string) {
	s.add(c, u, wMain)
	if s.chance(s.pAlias) {
		s.add(c, s.alias(u), wAlias)
	}
	if s.chance(s.pTrack) {
		s.add(c, withParam(u, "utm_source="+pick(s.r, []string{"twitter", "newsletter", "facebook", "rss"})+"&utm_medium=social"), wOnce)
	}
}

// alias returns u with the other scheme or the other of www and bare host.
func (s *site) alias(u string) string {
	sch, rest, _ := strings.Cut(u, "://")
	if s.chance(0.5) {
		if sch == "https" {
			return "http://" + rest
		}
		return "https://" + rest
	}
	if r, ok := strings.CutPrefix(rest, "www."); ok {
		return sch + "://" + r
	}
	if strings.HasPrefix(rest, s.domain) {
		return sch + "://www." + rest
	}
	return u
}

// repeats returns how many repeated variants (session or tracking copies) a page of
// prominence c.hot gets, with mean m for an average page, at most 400.
func (s *site) repeats(c *cluster, m float64) int {
	return min(400, int(-math.Log(1-s.r.Float64())*m*c.hot))
}

// trap records that a and b are URLs of different pages that rw maps to one URL. Traps whose
// URLs did not both make it into the site are dropped when the site is finished.
func (s *site) trap(kind string, a, b string, rw Rewrite) {
	s.traps = append(s.traps, Trap{Family: s.fam.Name, Kind: kind, A: a, B: b, Naive: rw})
}

// withParam appends the query parameter kv to u.
func withParam(u, kv string) string {
	if strings.Contains(u, "?") {
		return u + "&" + kv
	}
	return u + "?" + kv
}

// finish gives the pages their ids, importances and in-links, and drops the traps whose URLs
// are not both in the site.
func (s *site) finish() {
	// Importance is Zipf-like in the page's rank by prominence on its site, as the dupclusters
	// files have it; the scale varies by site.
	scale := 3 * math.Exp(s.r.NormFloat64())
	order := make([]*cluster, 0, len(s.clusters))
	for _, c := range s.clusters {
		if len(c.urls) > 0 {
			order = append(order, c)
		}
		if len(c.urls) < 2 {
			c.noise = false // one error page is just a page
		}
	}
	sortByHot(order)
	for rank, c := range order {
		c.imp = scale * math.Pow(float64(rank+1), -0.9) * s.between(0.8, 1.25)
		c.total = max(len(c.urls), int(math.Round(2*math.Pow(c.imp/0.02, 0.6)*math.Exp(0.7*s.r.NormFloat64()))))
	}
	s.clusters = order
	kept := s.traps[:0]
	for _, t := range s.traps {
		if s.has(t.A) && s.has(t.B) && t.A != t.B {
			kept = append(kept, t)
		}
	}
	s.traps = kept
}

// sortByHot sorts pages by decreasing prominence, then by creation.
func sortByHot(cs []*cluster) {
	slices.SortStableFunc(cs, func(a, b *cluster) int {
		switch {
		case a.hot > b.hot:
			return -1
		case a.hot < b.hot:
			return 1
		}
		return a.n - b.n
	})
}

// inlinks splits c.total over c's URLs: a URL linked once gets 1, the others share the rest
// in proportion to their weights, at least 1 each.
func (c *cluster) inlinks() []int {
	out := make([]int, len(c.urls))
	rest, sum := c.total, 0.0
	for i, v := range c.urls {
		if v.w == 0 {
			out[i] = 1
			rest--
		} else {
			sum += v.w
		}
	}
	for i, v := range c.urls {
		if v.w > 0 {
			out[i] = max(1, int(math.Round(float64(max(rest, 0))*v.w/sum)))
		}
	}
	return out
}
