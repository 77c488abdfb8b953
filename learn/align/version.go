package align

import (
	"slices"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// Version keys. A parameter or path segment can name a version of a page: a commit of a
// repository browser (/tree/src/main.c?id=9f3a…), the timestamp of an archive's capture
// (/web/20200516104621/http://example.org/x.html). A page at two versions is one page when it
// did not change between them, which the URL does not tell. Each cluster of a file's
// unchanged versions yields the deletion of the version for that file, and a rule whose
// context names the file passes validation and the generation check when the halves hold one
// cluster of the file each; it merges the file's versions that changed.
//
// The site shows the key for what it is on the other pages of the rule's kind: two URLs that
// differ in the key alone and lie in different clusters (a page that changed between two
// versions). The rule's kind is its context with the page's name left open: the last path
// segment, and the values of query parameters that are not type values (roles.TypeValue:
// a=blob stays, f=src/main.c does not). A rule that deletes a key, whatever its value, where
// two pages of its kind show the key separating them, is dropped: it holds for the versions its
// clusters saw, not for the next.

// minVersionPages is the number of pages of a rule's kind that must show its key separating
// them: two, as a tree swap needs two trees.
const minVersionPages = 2

// maxVersionSignatures is the number of distinct URLs, but for the key, that a cluster may
// hold and still count as one page for the key: a page at several versions (and a variant or
// two of its URL). A cluster of three or more is a page that the site serves under many URLs
// (a "your session has expired" page met through the session ids of many pages), which tells
// nothing of the key.
const maxVersionSignatures = 3

// dropVersionDeletions returns the rules of kept that do not delete a version key of their
// kind (see above), judged on the site's URLs items.
func dropVersionDeletions(kept []rules.Rule, items []item, ro *roles.Roles) []rules.Rule {
	if ablate.NoVersionKeys || len(items) == 0 {
		return kept
	}
	byHost := map[string][]int{}
	for i := range items {
		byHost[items[i].host] = append(byHost[items[i].host], i)
	}
	views := map[hostKey]*keyView{}
	memo := map[string]bool{} // a kind's text: whether it separates
	out := kept[:0]
	for _, r := range kept {
		keys := wildKeys(&r)
		if len(keys) == 0 || !versionKey(&r, keys, items, byHost, views, memo, ro) {
			out = append(out, r)
		}
	}
	return out
}

// wildKeys returns the path segments and query parameters that r deletes whatever their
// values (its context names them with the wildcard, or a parameter not at all) and does not
// copy elsewhere.
func wildKeys(r *rules.Rule) []urlnorm.Key {
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
		copied := slices.ContainsFunc(r.Transform, func(b rules.Action) bool { return b.Op == rules.Copy && b.From == a.Key })
		if wild && !copied {
			out = append(out, a.Key)
		}
	}
	return out
}

// kindOf returns r with the conditions that name a page left open (see above), but those on
// keys.
func kindOf(r *rules.Rule, keys []urlnorm.Key, ro *roles.Roles) rules.Rule {
	g := *r
	g.Context = make(rules.Context, len(r.Context))
	for i, c := range r.Context {
		g.Context[i] = c
		if c.Op != rules.Equal || slices.Contains(keys, c.Key) {
			continue
		}
		last := c.Key.Part == urlnorm.PartPath && c.Key.RPos == 1
		if last || c.Key.Part == urlnorm.PartQuery && !ro.TypeValue(c.Key.Name, c.Value) {
			g.Context[i].Op, g.Context[i].Value = rules.Any, ""
		}
	}
	return g
}

// A hostKey is a host and a key of its URLs.
type hostKey struct {
	host string
	key  urlnorm.Key
}

// A keyView is what the URLs of a host say of a key: per URL (in the host's order) its text
// but for the key ("" if it lacks the key) and the key's value, and the clusters of
// maxVersionSignatures such texts or more.
type keyView struct {
	sigs, values []string
	hubs         map[int32]bool
}

// viewOf returns the view of key k on the URLs of host (the indexes idx of items).
func viewOf(items []item, idx []int, k urlnorm.Key) *keyView {
	v := &keyView{sigs: make([]string, len(idx)), values: make([]string, len(idx)), hubs: map[int32]bool{}}
	perCluster := map[int32]map[string]bool{}
	var b strings.Builder
	for j, i := range idx {
		it := &items[i]
		b.Reset()
		found := false
		for _, t := range it.toks {
			b.WriteByte(byte(t.Part))
			b.WriteString(t.Name)
			b.WriteByte(0)
			if !found && isKey(t, k) {
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
		s := perCluster[it.cluster]
		if s == nil {
			s = map[string]bool{}
			perCluster[it.cluster] = s
		}
		if s[v.sigs[j]] = true; len(s) >= maxVersionSignatures {
			v.hubs[it.cluster] = true
		}
	}
	return v
}

// versionKey reports whether some key of keys names the versions of at least minVersionPages
// pages of r's kind on the site: pages whose URLs, which r's kind matches and which differ in
// the key alone, lie in one cluster for two values and in two clusters for others, and whose
// clusters are no hubs (see keyView). A key that always tells pages apart (phpBB's f= on
// viewforum.php) or never does (a session id) names no versions. memo holds the answers per kind: the rules
// of one file each have one kind.
func versionKey(r *rules.Rule, keys []urlnorm.Key, items []item, byHost map[string][]int, views map[hostKey]*keyView, memo map[string]bool, ro *roles.Roles) bool {
	g := kindOf(r, keys, ro)
	kind := g.String()
	if v, ok := memo[kind]; ok {
		return v
	}
	v := separates(&g, keys, items, byHost[r.Scope.Host], views)
	memo[kind] = v
	return v
}

// separates reports whether some key of keys names the versions of at least minVersionPages
// pages that g matches among the URLs idx of items (see versionKey).
func separates(g *rules.Rule, keys []urlnorm.Key, items []item, idx []int, views map[hostKey]*keyView) bool {
	for _, k := range keys {
		v := views[hostKey{g.Scope.Host, k}]
		if v == nil {
			v = viewOf(items, idx, k)
			views[hostKey{g.Scope.Host, k}] = v
		}
		groups := map[string]*versions{}
		pages := 0
		for j, i := range idx {
			it := &items[i]
			if v.sigs[j] == "" || v.hubs[it.cluster] || !matches(g, it) {
				continue
			}
			s := groups[v.sigs[j]]
			if s == nil {
				s = &versions{clusters: map[int32]string{}}
				groups[v.sigs[j]] = s
			}
			if s.add(v.values[j], it.cluster) {
				if pages++; pages >= minVersionPages {
					return true
				}
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
	counted  bool
}

// add adds a URL of the page, with value in cluster, and reports whether the page has just
// become a page at versions: two values in one cluster (versions between which it did not
// change) and two clusters (versions between which it did).
func (s *versions) add(value string, cluster int32) bool {
	if old, ok := s.clusters[cluster]; !ok {
		s.clusters[cluster] = value
	} else if old != value {
		s.same = true
	}
	if s.counted || !s.same || len(s.clusters) < 2 {
		return false
	}
	s.counted = true
	return true
}
