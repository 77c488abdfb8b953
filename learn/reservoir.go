package learn

import (
	"slices"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
)

// A page's URLs beyond OnlineOptions.MaxClusterURLs are not kept, and which ones fill the
// cluster is a matter of crawl order. The evidence that a parameter is irrelevant alone is a
// pair of URLs of the page that differ in it alone (see support.thin): a repository browser's
// tree of each commit, one page, reached as h=C&hb=C from the log and as h=T&hb=C from the
// commit, shows h irrelevant only where one commit came in both forms. A cluster filled by 64
// URLs of 64 commits shows neither h nor hb alone, and the rule that deletes both is then
// thin and not selected, though the crawl meets the missing pairs later. So when a cluster is
// full, a URL that differs from a kept URL in one key alone (a query parameter's value or
// presence, or one path segment) takes the place of the latest kept URL that differs so from
// none, other than the shortest (the likely target): the cluster holds at most MaxClusterURLs
// URLs still, and keeps the pairs it is shown.
// A page of session variants, every URL a pair with every other, swaps nothing; a page that a
// mistake grouped (each URL its own content key and session id) has no pair to keep either.

// A reservoir holds the pair counts of a full cluster's URLs: urls[i] is c.URLs[i] when it is
// current, forms[i] its keys, paired[i] the kept URLs that differ from it in one key alone.
type reservoir struct {
	urls   []string
	forms  []map[urlnorm.Key]string
	paired []int32
}

// urlForm returns the keys of raw: scheme, host, each path segment by position and each query
// parameter by name (its values joined), or nil if raw is not a URL Prepare accepts.
func urlForm(raw string) map[urlnorm.Key]string {
	p, ok := Prepare(raw)
	if !ok {
		return nil
	}
	toks, err := urlnorm.Tokenize(nil, p)
	if err != nil {
		return nil
	}
	f := make(map[urlnorm.Key]string, len(toks))
	for _, t := range toks {
		k := t.Key
		switch t.Part {
		case urlnorm.PartQuery:
			k = urlnorm.Key{Part: t.Part, Name: t.Name}
		case urlnorm.PartPath:
			k = urlnorm.Key{Part: t.Part, Pos: t.Pos} // from the start: a segment more or less is one key more or less
		}
		v := t.Value
		if t.Bare {
			v = "\x00"
		}
		if old, ok := f[k]; ok {
			v = old + "\x01" + v
		}
		f[k] = v
	}
	return f
}

// differsInOne reports whether forms a and b differ in exactly one key.
func differsInOne(a, b map[urlnorm.Key]string) bool {
	if a == nil || b == nil {
		return false
	}
	n := 0
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			if n++; n > 1 {
				return false
			}
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			if n++; n > 1 {
				return false
			}
		}
	}
	return n == 1
}

// swapVictim returns the index in c.URLs of the URL that raw, arriving at the full cluster c of
// page fp, replaces (see the comment at the top of the file), or -1 if raw is not kept. It
// keeps the pair counts of the cluster's reservoir as if raw replaced the victim at the end of
// c.URLs: the caller must do so. s.mu must be held.
func (s *onlineSite) swapVictim(fp uint64, c *Cluster, raw string) int {
	if ablate.NoReservoir {
		return -1
	}
	rv := s.reservoir(fp, c)
	short := 0 // the shortest kept URL, the likely target (see targetRank), stays
	for i, u := range rv.urls {
		if len(u) < len(rv.urls[short]) {
			short = i
		}
	}
	free := false // a URL that could go: no pair, not the target
	for i, n := range rv.paired {
		if n == 0 && i != short {
			free = true
			break
		}
	}
	if !free {
		return -1 // every URL but the target is paired already (session variants): none goes
	}
	f := urlForm(raw)
	var partners []int
	for i, g := range rv.forms {
		if differsInOne(f, g) {
			partners = append(partners, i)
		}
	}
	if len(partners) == 0 {
		return -1
	}
	v := -1
	for i := len(rv.paired) - 1; i >= 0; i-- {
		if rv.paired[i] == 0 && i != short && !slices.Contains(partners, i) {
			v = i
			break
		}
	}
	if v < 0 {
		return -1
	}
	for _, i := range partners {
		rv.paired[i]++
	}
	rv.urls = append(slices.Delete(rv.urls, v, v+1), raw)
	rv.forms = append(slices.Delete(rv.forms, v, v+1), f)
	rv.paired = append(slices.Delete(rv.paired, v, v+1), int32(len(partners)))
	return v
}

// reservoir returns the reservoir of the full cluster c of page fp, made anew if c's URLs
// changed since (a join, inferred URLs dropped). s.mu must be held.
func (s *onlineSite) reservoir(fp uint64, c *Cluster) *reservoir {
	rv := s.reservoirs[fp]
	if rv != nil && len(rv.urls) == len(c.URLs) {
		same := true
		for i, u := range c.URLs {
			if rv.urls[i] != u.Raw {
				same = false
				break
			}
		}
		if same {
			return rv
		}
	}
	rv = &reservoir{urls: make([]string, len(c.URLs)), forms: make([]map[urlnorm.Key]string, len(c.URLs)), paired: make([]int32, len(c.URLs))}
	for i, u := range c.URLs {
		rv.urls[i], rv.forms[i] = u.Raw, urlForm(u.Raw)
		for j := range i {
			if differsInOne(rv.forms[i], rv.forms[j]) {
				rv.paired[i]++
				rv.paired[j]++
			}
		}
	}
	if s.reservoirs == nil {
		s.reservoirs = map[uint64]*reservoir{}
	}
	s.reservoirs[fp] = rv
	return rv
}

// evict removes the URL at index v of cluster c of page fp from the site's evidence, as if it
// had never been kept, except that a URL of the last relearn's snapshot is remembered in
// snapDropped. The caller keeps s.n and the counts. s.mu must be held.
func (s *onlineSite) evict(fp uint64, c *Cluster, v int) {
	u := c.URLs[v]
	if s.byURL[u.Raw].seq < s.snapSeq {
		s.snapDropped = append(s.snapDropped, droppedURL{fp: fp, u: u})
	}
	delete(s.byURL, u.Raw)
	delete(s.inferred, u.Raw)
	delete(s.rested, u.Raw)
	c.URLs = slices.Delete(c.URLs, v, v+1)
}
