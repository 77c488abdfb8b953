// Package casefold finds, from dup clusters, the hosts whose server ignores the case of the
// path (IIS: /Recipe/X/default.aspx = /RECIPE/x/DEFAULT.ASPX), for the learners of package
// learn and learn/align. Such a host gets one rule, "lowercase the whole path", instead of a
// literal rule per token and case variant.
//
// The evidence is the site's own: pairs of URLs of one cluster that are equal once their paths
// are lowercased and differ in the case of a letter that is not the first of its segment (a
// wiki ignores the case of a title's first letter only, and that is no evidence for the rest),
// against the URLs of different clusters that lowercasing would merge. A case-sensitive host
// (/docs/faq.html and /DOCS/FAQ.html different pages) shows the second and not the first.
//
// A server can ignore case in one tree and not in another of the same host: an IIS site whose
// short links (/go/aB3x and /go/Ab3X) are case-sensitive codes. So the evidence is weighed per
// tree: the paths under one first segment (lowercased), and the one-segment paths. A tree whose
// own URLs show more false merges than the tolerance allows (and more than one: label noise) is
// case-sensitive, and so is a tree whose case variants of one page differ in first letters only
// (a wiki's titles: /wiki/Amber is /wiki/amber, /wiki/AMBER another page, which a crawl that
// lowercased the tree would skip before it could see them differ); the host is then judged on
// its other trees, and its paths are lowercased only in the trees whose URLs show a pair of
// case variants of one page (a host where no tree is case-sensitive has every path lowercased:
// its first segments may be titles, each a tree of a few URLs).
package casefold

import (
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
)

// Options of Hosts. The zero value means the defaults.
type Options struct {
	// MinPairs is the number of supporting pairs a host needs (default 5).
	MinPairs int
	// MaxFalse is the largest share of merged URLs of different clusters, relative to the
	// supporting pairs, that a host may show (default 0.02: label noise merges a few).
	MaxFalse float64
}

// Evidence is what lowercasing the paths of one host does to its training URLs. It is a plain
// value.
type Evidence struct {
	Pairs   int // URLs of one cluster that meet another of it only once lowercased (beyond first letters)
	False   int // URLs that lowercasing puts together with a URL of another cluster
	Changed int // URLs whose path has an upper-case letter

	// Trees are, when some tree of the host is case-sensitive, the trees whose paths are
	// lowercased, sorted by First (the root tree first): those that show a pair, and no more
	// false merges than the tolerance. Nil means every path of the host.
	Trees []Tree
}

// A Tree is a part of a host's paths with the evidence of its URLs: the paths of at least two
// segments whose first, lowercased, is First, or the paths of one segment (Root, First "").
type Tree struct {
	First                 string
	Root                  bool
	Pairs, False, Changed int
	// FirstOnly counts the URLs that meet another URL of their cluster once lowercased and
	// differ from each such URL in the case of first letters only (a wiki's titles).
	FirstOnly int
}

// Lowers reports whether the host's case rules lowercase the path of u (a URL of the host).
func (e Evidence) Lowers(u string) bool {
	if e.Trees == nil {
		return true
	}
	t := TreeOf(u)
	_, ok := slices.BinarySearchFunc(e.Trees, t, compareTrees)
	return ok
}

func compareTrees(a, b Tree) int {
	if a.Root != b.Root {
		if a.Root {
			return -1
		}
		return 1
	}
	return strings.Compare(a.First, b.First)
}

// Hosts returns the evidence of every host of urls (Crawler keys of one site's training URLs,
// distinct) whose paths the evidence shows case-insensitive, in some tree at least; cluster[i]
// is the cluster of urls[i]. It does not modify its arguments.
func Hosts(urls []string, cluster []int32, opt Options) map[string]Evidence {
	if opt.MinPairs <= 0 {
		opt.MinPairs = 5
	}
	if opt.MaxFalse == 0 {
		opt.MaxFalse = 0.02
	}
	type member struct {
		url     string
		cluster int32
	}
	type treeKey struct {
		host string
		tree Tree // First and Root
	}
	groups := map[string][]member{}
	trees := map[treeKey]*Tree{}
	for i, u := range urls {
		lo := LowerPath(u)
		tk := treeKey{host(u), TreeOf(lo)}
		t := trees[tk]
		if t == nil {
			t = &Tree{First: tk.tree.First, Root: tk.tree.Root}
			trees[tk] = t
		}
		if lo != u {
			t.Changed++
		}
		groups[lo] = append(groups[lo], member{u, cluster[i]})
	}
	for lo, ms := range groups {
		if len(ms) < 2 {
			continue
		}
		t := trees[treeKey{host(lo), TreeOf(lo)}]
		byCluster := map[int32]int{}
		for _, m := range ms {
			byCluster[m.cluster]++
		}
		if len(byCluster) > 1 {
			most := 0
			for _, n := range byCluster {
				most = max(most, n)
			}
			t.False += len(ms) - most
		}
		for i, a := range ms {
			first := false
			for _, b := range ms[:i] {
				if a.cluster != b.cluster {
					continue
				}
				if beyondFirst(a.url, b.url) {
					t.Pairs++
					first = false
					break
				}
				first = true
			}
			if first {
				t.FirstOnly++
			}
		}
	}
	// A tree whose false merges exceed the tolerance by more than one is case-sensitive: the
	// host is judged on its other trees.
	// So is a tree whose case variants of one page differ in first letters only, at least
	// minFirstOnly of them: its server shows the first letter of a segment case-insensitive
	// and nothing more (a wiki, where /wiki/AMBER is another page than /wiki/Amber).
	sensitive := func(t *Tree) bool {
		if ablate.NoCaseTrees {
			return false
		}
		return float64(t.False) > 1+opt.MaxFalse*float64(t.Pairs) || !ablate.NoFirstLetters && t.Pairs == 0 && t.FirstOnly >= minFirstOnly
	}
	ev := map[string]*Evidence{}
	split := map[string]bool{} // hosts with a case-sensitive tree
	for tk, t := range trees {
		e := ev[tk.host]
		if e == nil {
			e = &Evidence{}
			ev[tk.host] = e
		}
		if sensitive(t) {
			split[tk.host] = true
			continue
		}
		e.Pairs += t.Pairs
		e.False += t.False
		e.Changed += t.Changed
		if t.Pairs > 0 && !ablate.NoCaseTrees {
			e.Trees = append(e.Trees, *t)
		}
	}
	out := map[string]Evidence{}
	for h, e := range ev {
		if e.Pairs >= opt.MinPairs && float64(e.False) <= opt.MaxFalse*float64(e.Pairs) {
			if !split[h] {
				e.Trees = nil // no tree shows case to matter: every path
			}
			slices.SortFunc(e.Trees, compareTrees)
			out[h] = *e
		}
	}
	return out
}

// minFirstOnly is the number of URLs of a tree whose case variants differ in first letters
// only (Tree.FirstOnly), without a pair beyond first letters, that make the tree
// case-sensitive.
const minFirstOnly = 2

// TreeOf returns the tree of an absolute URL u (First lowercased, no evidence).
func TreeOf(u string) Tree {
	i := strings.Index(u, "://")
	if i < 0 {
		return Tree{Root: true}
	}
	rest := u[i+3:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 || rest[j] != '/' {
		return Tree{Root: true}
	}
	rest = rest[j+1:]
	if k := strings.IndexAny(rest, "/?#"); k >= 0 && rest[k] == '/' {
		return Tree{First: strings.ToLower(rest[:k])}
	}
	return Tree{Root: true}
}

// beyondFirst reports whether a and b (equal but for case) differ in the case of a letter
// that is not the first of its path segment.
func beyondFirst(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && i > 0 && a[i-1] != '/' {
			return true
		}
	}
	return false
}

// host returns the authority of an absolute URL u.
func host(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// LowerPath returns u with the ASCII letters of its path lowercased, except in percent escapes
// (%C3 stays %C3): what the rule "path(-,-)=lower" does to a canonical URL.
func LowerPath(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	start := i + 3
	j := strings.IndexByte(u[start:], '/')
	if j < 0 {
		return u
	}
	start += j
	end := len(u)
	if k := strings.IndexAny(u[start:], "?#"); k >= 0 {
		end = start + k
	}
	var b []byte
	for p := start; p < end; p++ {
		c := u[p]
		if c == '%' {
			p += 2
			continue
		}
		if 'A' <= c && c <= 'Z' {
			if b == nil {
				b = []byte(u)
			}
			b[p] = c + 'a' - 'A'
		}
	}
	if b == nil {
		return u
	}
	return string(b)
}
