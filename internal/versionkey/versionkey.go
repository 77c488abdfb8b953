// Package versionkey finds, for the DUSTER learner (package learn/align), the rules that
// delete a key naming the versions of a page.
//
// A parameter or path segment can name a version of a page: a commit of a repository browser
// (/tree/src/main.c?id=9f3a…, /file?name=src/main.c&ci=9f3a…), the timestamp of an archive's
// capture (/web/20200516104621/http://example.org/x.html). A page at two versions is one page
// when it did not change between them, which the URL does not tell. Each cluster of a file's
// unchanged versions yields the deletion of the version, and such a rule measures clean on the
// clusters it was drawn from; it merges the file's versions that changed.
//
// The site shows the key for what it is on the other pages of the rule's kind: two URLs that
// differ in the key alone and lie in different clusters (a page that changed between two
// versions). The rule's kind is its context with the page's name left open: the last path
// segment, and the values of query parameters that are not type values (a=blob stays,
// f=src/main.c does not). A rule that deletes a key, whatever its value, where two pages of its
// kind show the key separating them, holds for the versions its clusters saw, not for the next.
package versionkey

import (
	"slices"
	"strings"

	"github.com/undust/undust/internal/hashid"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// minPages is the number of pages of a rule's kind that must show its key separating them:
// two, as a tree swap needs two trees.
const minPages = 2

// maxSignatures is the number of distinct URLs, but for the key, that a cluster may hold and
// still count as one page for the key: a page at several versions (and a variant or two of its
// URL). A cluster of three or more is a page that the site serves under many URLs (a "your
// session has expired" page met through the session ids of many pages), which tells nothing
// of the key.
const maxSignatures = 3

// A URL is a training URL of a site: its host name, its whole tokens (urlnorm.Tokenize of the
// prepared URL) and the index of its cluster. Finder does not modify it.
type URL struct {
	Host    string
	Toks    []urlnorm.Token
	Cluster int32
}

// A Finder answers for the URLs of one site. It is not safe for concurrent use.
type Finder struct {
	urls      []URL
	byHost    map[string][]int
	all       []int
	typeValue func(name, value string) bool
	views     map[hostKey]*keyView
	memo      map[string]bool // a kind's text: whether it separates
}

// New returns a Finder over urls. typeValue reports whether a value of a query parameter tells
// a kind of page apart (roles.Roles.TypeValue); nil knows none.
func New(urls []URL, typeValue func(name, value string) bool) *Finder {
	f := &Finder{urls: urls, byHost: map[string][]int{}, all: make([]int, len(urls)), typeValue: typeValue,
		views: map[hostKey]*keyView{}, memo: map[string]bool{}}
	for i := range urls {
		f.byHost[urls[i].Host] = append(f.byHost[urls[i].Host], i)
		f.all[i] = i
	}
	if f.typeValue == nil {
		f.typeValue = func(string, string) bool { return false }
	}
	return f
}

// Deletes reports whether r deletes a key that names the versions of at least two pages of r's
// kind among the URLs of host ("" for every URL of the site) that r's scope and context match
// (see the package doc), whatever the key's value (WildKeys), or maps the pages of one version
// named by a hash onto another's (swapKeys).
func (f *Finder) Deletes(r *rules.Rule, host string) bool {
	keys := append(WildKeys(r), swapKeys(r)...)
	if len(keys) == 0 || len(f.urls) == 0 {
		return false
	}
	g := f.kindOf(r, keys)
	kind := host + "\x00" + g.String()
	if v, ok := f.memo[kind]; ok {
		return v
	}
	idx := f.all
	if host != "" {
		idx = f.byHost[host]
	}
	v := f.separates(&g, keys, host, idx)
	f.memo[kind] = v
	return v
}

// WildKeys returns the path segments and query parameters that r deletes whatever their values
// (its context names them with the wildcard, or a parameter not at all) and does not copy, whole
// or in part, elsewhere.
func WildKeys(r *rules.Rule) []urlnorm.Key {
	var out []urlnorm.Key
	for _, a := range r.Transform {
		if a.Op != rules.Delete || a.Key.Sub != 0 || a.Key.RSub != 0 || a.Key.Part != urlnorm.PartQuery && a.Key.Part != urlnorm.PartPath {
			continue
		}
		wild := a.Key.Part == urlnorm.PartQuery
		for _, c := range r.Context {
			if c.Key == a.Key {
				wild = c.Op == rules.Any
			}
		}
		copied := slices.ContainsFunc(r.Transform, func(b rules.Action) bool { return b.Op == rules.Copy && whole(b.From) == a.Key })
		if wild && !copied {
			out = append(out, a.Key)
		}
	}
	return out
}

// whole returns the key k is a deep token of, or k.
func whole(k urlnorm.Key) urlnorm.Key {
	k.Sub, k.RSub = 0, 0
	return k
}

// swapKeys returns the query parameters whose hash-like value (hashid.Like: a commit,
// /file?name=x&ci=9f3a…) r's context names and r deletes or overwrites with another value,
// where every action of r deletes or assigns: r maps the pages of one version onto those of
// another, right for the pages that did not change between them.
func swapKeys(r *rules.Rule) []urlnorm.Key {
	if slices.ContainsFunc(r.Transform, func(a rules.Action) bool { return a.Op != rules.Assign && a.Op != rules.Delete }) {
		return nil
	}
	var out []urlnorm.Key
	for _, a := range r.Transform {
		if a.Key.Part != urlnorm.PartQuery || a.Key.Sub != 0 || a.Key.RSub != 0 {
			continue
		}
		for _, c := range r.Context {
			if c.Key == a.Key && c.Op == rules.Equal && c.Value != a.Value && hashid.Like(c.Value) {
				out = append(out, a.Key)
				break
			}
		}
	}
	return out
}

// kindOf returns r with the conditions that name a page or a version left open (see the
// package doc): those on keys, on the last path segment, and on query parameters whose values
// are not type values.
func (f *Finder) kindOf(r *rules.Rule, keys []urlnorm.Key) rules.Rule {
	g := *r
	g.Context = make(rules.Context, len(r.Context))
	for i, c := range r.Context {
		g.Context[i] = c
		if c.Op != rules.Equal {
			continue
		}
		last := c.Key.Part == urlnorm.PartPath && c.Key.RPos == 1
		if last || slices.Contains(keys, c.Key) || c.Key.Part == urlnorm.PartQuery && !f.typeValue(c.Key.Name, c.Value) {
			g.Context[i].Op, g.Context[i].Value = rules.Any, ""
		}
	}
	return g
}

// A hostKey is a host ("" for every host) and a key of its URLs.
type hostKey struct {
	host string
	key  urlnorm.Key
}

// A keyView is what the URLs of a host say of a key: per URL (in the order of the host's
// indexes) its text but for the key ("" if it lacks the key) and the key's value, and the
// clusters of maxSignatures such texts or more.
type keyView struct {
	sigs, values []string
	hubs         map[int32]bool
}

// viewOf returns the view of key k on the URLs idx.
func (f *Finder) viewOf(idx []int, k urlnorm.Key) *keyView {
	v := &keyView{sigs: make([]string, len(idx)), values: make([]string, len(idx)), hubs: map[int32]bool{}}
	perCluster := map[int32]map[string]bool{}
	var b strings.Builder
	for j, i := range idx {
		u := &f.urls[i]
		b.Reset()
		found := false
		for _, t := range u.Toks {
			b.WriteByte(byte(t.Part))
			b.WriteString(t.Name)
			b.WriteByte(0)
			if !found && IsKey(t, k) {
				v.values[j], found = tokenText(t), true
				b.WriteString("\x00key")
			} else {
				b.WriteString(tokenText(t))
			}
			b.WriteByte(0)
		}
		if !found {
			continue
		}
		v.sigs[j] = b.String()
		s := perCluster[u.Cluster]
		if s == nil {
			s = map[string]bool{}
			perCluster[u.Cluster] = s
		}
		if s[v.sigs[j]] = true; len(s) >= maxSignatures {
			v.hubs[u.Cluster] = true
		}
	}
	return v
}

// separates reports whether some key of keys names versions among the URLs idx of host that g
// matches: pages whose URLs differ in the key alone, one of them in one cluster for two
// values (versions between which it did not change) and at least minPages of them in two
// clusters (versions between which they did), in clusters that are no hubs (see keyView). A key
// that always tells pages apart (phpBB's f= on viewforum.php) or never does (a session id)
// names no versions.
func (f *Finder) separates(g *rules.Rule, keys []urlnorm.Key, host string, idx []int) bool {
	for _, k := range keys {
		v := f.views[hostKey{host, k}]
		if v == nil {
			v = f.viewOf(idx, k)
			f.views[hostKey{host, k}] = v
		}
		groups := map[string]*versions{}
		same, split := 0, 0
		for j, i := range idx {
			u := &f.urls[i]
			if v.sigs[j] == "" || v.hubs[u.Cluster] || !Matches(g, u.Host, u.Toks) {
				continue
			}
			s := groups[v.sigs[j]]
			if s == nil {
				s = &versions{clusters: map[int32]string{}}
				groups[v.sigs[j]] = s
			}
			wasSame, wasSplit := s.same, len(s.clusters) >= 2
			s.add(v.values[j], u.Cluster)
			if s.same && !wasSame {
				same++
			}
			if len(s.clusters) >= 2 && !wasSplit {
				split++
			}
			if same >= 1 && split >= minPages {
				return true
			}
		}
	}
	return false
}

// versions is what the URLs of one page (one text but for a key) show of the key: a value of
// it per cluster, and whether a cluster holds two values.
type versions struct {
	clusters map[int32]string
	same     bool
}

// add adds a URL of the page, with value in cluster.
func (s *versions) add(value string, cluster int32) {
	if old, ok := s.clusters[cluster]; !ok {
		s.clusters[cluster] = value
	} else if old != value {
		s.same = true
	}
}

// Lookup returns the value of key k in toks (whole tokens of one URL), as package rules looks
// it up, and whether the URL has it.
func Lookup(toks []urlnorm.Token, k urlnorm.Key) (string, bool) {
	for _, t := range toks {
		if t.Part == k.Part && (k.Part != urlnorm.PartPath && k.Part != urlnorm.PartQuery || IsKey(t, k)) {
			return t.Value, true
		}
	}
	return "", false
}

// IsKey reports whether token t is the value of key k, a path segment or a query parameter.
func IsKey(t urlnorm.Token, k urlnorm.Key) bool {
	switch k.Part {
	case urlnorm.PartPath:
		return t.Part == k.Part && (k.Pos == 0 || t.Pos == k.Pos) && (k.RPos == 0 || t.RPos == k.RPos)
	case urlnorm.PartQuery:
		return t.Part == k.Part && t.Name == k.Name && t.Pos == max(k.Pos, 1)
	}
	return false
}

// Matches reports whether r's scope holds for host and its context for the URL's tokens toks,
// and whether the URL has every key r copies.
func Matches(r *rules.Rule, host string, toks []urlnorm.Token) bool {
	if !r.Scope.Covers(host) {
		return false
	}
	for i := range r.Context {
		c := &r.Context[i]
		v, ok := Lookup(toks, c.Key)
		switch c.Op {
		case rules.Equal:
			if !ok || v != c.Value {
				return false
			}
		case rules.Any:
			if !ok {
				return false
			}
		case rules.Absent:
			if ok {
				return false
			}
		}
	}
	for _, a := range r.Transform {
		if a.Op == rules.Copy {
			if _, ok := Lookup(toks, a.From); !ok {
				return false
			}
		}
	}
	return true
}

// tokenText is the text of a token's value: a bare parameter (?print) reads apart from an
// empty one (?print=).
func tokenText(t urlnorm.Token) string {
	if t.Bare {
		return "\x00bare"
	}
	return t.Value
}
