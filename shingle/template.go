package shingle

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// TemplateOptions are the settings of a [Templates] learner. The zero value
// means the defaults.
type TemplateOptions struct {
	// MinPages is the least number of pages of a group a feature must be
	// on to count as template; 0 means 5. It keeps the text that a few
	// near-duplicate pages share: two copies of one article put their
	// shingles on two pages, a template puts its shingles on every page.
	MinPages int
	// Fraction is the least share of a group's pages a feature must be on
	// to count as template; 0 means 0.01. The default is low because a
	// template need not span its group: a site may wrap a handful of its
	// pages in a template of their own (a campaign, a portal section),
	// and sentence frames repeated on many pages identify none of them
	// either. MinPages keeps what a few copies share.
	Fraction float64
	// Depth is how many leading directories of a URL's path make groups
	// beside the whole host; 0 means 3, a negative value means the host
	// only. With depth 2, https://h/doc/guide/x.html belongs to the groups
	// h/, h/doc/ and h/doc/guide/.
	Depth int
	// MaxEntries bounds the memory per host: the number of (group,
	// feature) counters plus groups it keeps; 0 means 1<<20, about 40 MB
	// of Go maps. Once a host holds MaxEntries, features and groups it
	// has not counted yet are not counted any more (counters it has keep
	// counting), so a full host keeps unknown features: filtering errs on
	// the side of keeping text.
	MaxEntries int
}

func (o TemplateOptions) withDefaults() TemplateOptions {
	if o.MinPages <= 0 {
		o.MinPages = 5
	}
	if o.Fraction <= 0 {
		o.Fraction = 0.01
	}
	if o.Depth == 0 {
		o.Depth = 3
	}
	if o.Depth < 0 {
		o.Depth = 0
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 1 << 20
	}
	return o
}

// Templates learns which features (shingle hashes, spot signature hashes,
// any 64-bit feature hashes) are template on a host: the text that a site
// puts on many of its pages, a manual's table of contents, a header, a
// footer, a converter's furniture. Such a feature identifies none of the
// pages it is on, so near-duplicate methods should not count it; dropping
// it before resemblance, MinHash, SpotSigs or SimHash makes them hold on
// page templates they were not tuned on, without knowing the template's
// markup.
//
// Pages are grouped by their URL: the whole host, and each of the first
// Depth directories of the path. A feature is template on a page when, in
// some group of that page, it is on at least MinPages pages and on at
// least a Fraction of the group's pages. Directories matter on large
// hosts: a template that wraps 6 of a host's 1,117 pages, all 6 in a
// directory of 313, is on 0.5% of the host's pages but on 1.9% of the
// directory's, so with the default Fraction of 1% the directory's group
// finds it; a site-wide footer is found by the host's group.
//
// MinPages is what keeps near-duplicates: text that a few copies share is
// not template. Text shared by MinPages or more pages of a group is, even
// when it is real content (a section included in several manual pages);
// such pages are then compared by the rest of their text. That is also
// its limit: an article reprinted MinPages times loses its own text, and
// dropping what pages share lifts pairs just under a resemblance threshold
// over it. On main text that htmltext.Site extracts, which drops a site's
// template blocks itself, this filter lowered F1 on every near-duplicate
// corpus this module was measured on (see the README), so it is a tool for
// text without such extraction, not a step of the page identity.
//
// A page counts a feature once however often the feature occurs on it.
// Learning is incremental: [Templates.Add] one page at a time as a crawl
// fetches them, and ask [Templates.AppendKept] whenever needed; the answer
// uses the counts as they stand. Counts are sums, so as long as no host
// reaches MaxEntries the state depends only on which pages were added, not
// on their order: adding a crawl's pages one by one and adding them all
// at once give the same answers. Memory per host is at most MaxEntries
// counters and groups (see TemplateOptions.MaxEntries); the number of
// hosts is not bounded, so a crawler keeps one Templates per host or
// per crawl shard and drops the ones it is done with.
//
// The zero value is not usable; call [NewTemplates]. A Templates is not
// safe for concurrent use. It never keeps or modifies the slices it is
// given.
type Templates struct {
	o       TemplateOptions
	hosts   map[string]*tplHost
	scratch []uint64
	keys    []string
}

type tplHost struct {
	groups  map[string]*tplGroup
	entries int
}

type tplGroup struct {
	pages int
	df    map[uint64]uint32
}

// NewTemplates returns an empty learner with options o.
func NewTemplates(o TemplateOptions) *Templates {
	return &Templates{o: o.withDefaults(), hosts: map[string]*tplHost{}}
}

// Add counts a page: the distinct features among features, in every
// group of the page's URL rawURL. It returns an error, and counts
// nothing, when rawURL does not parse as an absolute URL with a host.
// Adding the same page twice counts it twice. It takes
// O(len(features) * (Depth+1)) expected time after sorting features.
func (t *Templates) Add(rawURL string, features []uint64) error {
	keys, host, err := t.groupKeys(t.keys[:0], rawURL)
	if err != nil {
		return err
	}
	t.keys = keys
	h := t.hosts[host]
	if h == nil {
		h = &tplHost{groups: map[string]*tplGroup{}}
		t.hosts[host] = h
	}
	t.scratch = append(t.scratch[:0], features...)
	slices.Sort(t.scratch)
	fs := slices.Compact(t.scratch)
	for _, k := range keys {
		g := h.groups[k]
		if g == nil {
			if h.entries >= t.o.MaxEntries {
				continue
			}
			g = &tplGroup{df: map[uint64]uint32{}}
			h.groups[strings.Clone(k)] = g
			h.entries++
		}
		g.pages++
		if h.entries+len(fs) <= t.o.MaxEntries {
			// Room for every feature: one map operation each.
			n := len(g.df)
			for _, f := range fs {
				g.df[f]++
			}
			h.entries += len(g.df) - n
			continue
		}
		for _, f := range fs {
			if c, ok := g.df[f]; ok {
				g.df[f] = c + 1
			} else if h.entries < t.o.MaxEntries {
				g.df[f] = 1
				h.entries++
			}
		}
	}
	return nil
}

// AppendKept appends to dst the features of features that are not
// template on the page at rawURL, in their order and with their
// repetitions, and returns the extended slice. It does not count the
// page; call [Templates.Add] first so that a page's own features count
// (the answers in the type's documentation assume so). It returns dst
// unchanged and an error when rawURL does not parse as an absolute URL
// with a host. features and dst may be the same slice (dst[:0] then
// filters in place). It takes O(len(features) * (Depth+1)) expected time.
func (t *Templates) AppendKept(dst []uint64, rawURL string, features []uint64) ([]uint64, error) {
	var kbuf [8]string
	keys, host, err := t.groupKeys(kbuf[:0], rawURL)
	if err != nil {
		return dst, err
	}
	h := t.hosts[host]
	if h == nil {
		return append(dst, features...), nil
	}
	type limit struct {
		df   map[uint64]uint32
		need uint32
	}
	var buf [8]limit
	groups := buf[:0]
	prev := -1
	for _, k := range keys {
		g := h.groups[k]
		if g == nil || g.pages < t.o.MinPages {
			continue
		}
		if g.pages == prev {
			// A directory with as many pages as its parent has the
			// same pages, and no counter the parent lacks (Add counts
			// the parent first): it adds nothing.
			continue
		}
		prev = g.pages
		groups = append(groups, limit{g.df, t.need(g.pages)})
	}
	if len(groups) == 0 {
		return append(dst, features...), nil
	}
	for _, f := range features {
		template := false
		for _, g := range groups {
			if g.df[f] >= g.need {
				template = true
				break
			}
		}
		if !template {
			dst = append(dst, f)
		}
	}
	return dst, nil
}

// AppendTemplate appends to dst the features that are template in some
// group of some host, and returns the extended slice sorted and without
// repetitions (dst[:0] gives a [Set]). Filtering every page by this one
// set, rather than each page by its own host with [Templates.AppendKept],
// treats the copies of a text alike wherever they are: when a help text
// is common on its own site, its copy on a mirror loses the same
// features, so the two stay near-duplicates. It takes time linear in the
// counters kept.
func (t *Templates) AppendTemplate(dst []uint64) []uint64 {
	start := len(dst)
	for _, h := range t.hosts {
		for _, g := range h.groups {
			if g.pages < t.o.MinPages {
				continue
			}
			need := t.need(g.pages)
			for f, c := range g.df {
				if c >= need {
					dst = append(dst, f)
				}
			}
		}
	}
	slices.Sort(dst[start:])
	return dst[:start+len(slices.Compact(dst[start:]))]
}

// need returns the least page count of a template feature in a group of
// n pages: at least MinPages and at least Fraction of n.
func (t *Templates) need(n int) uint32 {
	need := uint32(t.o.MinPages)
	// The smallest integer c with c >= Fraction*n.
	f := t.o.Fraction * float64(n)
	c := uint32(f)
	if float64(c) < f {
		c++
	}
	return max(need, c)
}

// Pages returns the number of pages added for the host of rawURL, or 0
// when rawURL has no host.
func (t *Templates) Pages(rawURL string) int {
	_, host, err := t.groupKeys(nil, rawURL)
	if err != nil {
		return 0
	}
	h := t.hosts[host]
	if h == nil {
		return 0
	}
	if g := h.groups["/"]; g != nil {
		return g.pages
	}
	return 0
}

// Entries returns the number of counters and groups kept for the host of
// rawURL, at most TemplateOptions.MaxEntries.
func (t *Templates) Entries(rawURL string) int {
	_, host, err := t.groupKeys(nil, rawURL)
	if err != nil {
		return 0
	}
	if h := t.hosts[host]; h != nil {
		return h.entries
	}
	return 0
}

// groupKeys parses rawURL and appends to dst the page's groups: "/" for
// the whole host, then "/a/", "/a/b/", ... for its first Depth
// directories. It returns them and the lower-cased host.
func (t *Templates) groupKeys(dst []string, rawURL string) ([]string, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return dst, "", fmt.Errorf("shingle: template url %q: %v", rawURL, err)
	}
	if u.Host == "" {
		return dst, "", fmt.Errorf("shingle: template url %q has no host", rawURL)
	}
	return appendGroups(dst, u.Path, t.o.Depth), strings.ToLower(u.Host), nil
}

// appendGroups appends the group keys of a URL path: "/" and the first
// depth directory prefixes, each ending in '/'. The last segment of the
// path is a file name, not a directory, unless the path ends in '/'. The
// keys are substrings of path when it starts with '/'.
func appendGroups(dst []string, path string, depth int) []string {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	dst = append(dst, "/")
	for i := 1; i < len(path) && len(dst) <= depth; i++ {
		if path[i] == '/' {
			dst = append(dst, path[:i+1])
		}
	}
	return dst
}
