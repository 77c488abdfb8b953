package align

import (
	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/internal/roles"
	"github.com/undust/undust/internal/versionkey"
	"github.com/undust/undust/rules"
)

// Version keys (package internal/versionkey): a rule that deletes, whatever its value, a key
// that names the versions of pages of the rule's kind (a file's commit, a capture's timestamp)
// holds for the versions its clusters saw, not for the next, and is dropped.

// dropVersionDeletions returns the rules of kept that do not delete a version key of their
// kind, judged on the site's URLs items.
func dropVersionDeletions(kept []rules.Rule, items []item, ro *roles.Roles) []rules.Rule {
	if ablate.NoVersionKeys || len(items) == 0 {
		return kept
	}
	urls := make([]versionkey.URL, len(items))
	for i := range items {
		urls[i] = versionkey.URL{Host: items[i].host, Toks: items[i].toks, Cluster: items[i].cluster}
	}
	f := versionkey.New(urls, ro.TypeValue)
	out := kept[:0]
	for _, r := range kept {
		if !f.Deletes(&r, r.Scope.Host) {
			out = append(out, r)
		}
	}
	return out
}
