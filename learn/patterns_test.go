package learn

import (
	"os"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// TestAppPatterns checks the rules learned from small hand-made cluster files of shapes that
// web applications make (testdata/patterns, see ORIGIN.md): URLs of each same group must get
// one key, URLs of each apart group distinct keys, unseen values included. A case that needs a
// mechanism names the options or the switches of package ablate that turn it off, and with
// each of them the case must fail: the test can fail.
func TestAppPatterns(t *testing.T) {
	for _, tc := range []struct {
		file  string
		same  [][]string
		apart [][]string
		off   *Options // the options without the mechanism the case needs, if any
		// switches of package ablate each of which, turned on alone, turns off a mechanism
		// the case needs
		ablate []*bool
		// switches of package ablate that, turned on together, turn off mechanisms either
		// of which the case needs (each covers for the other)
		together []*bool
	}{{
		// A token on every link: deleted, not written as a literal of one cluster.
		file: "token.tsv",
		same: [][]string{{
			"http://example.org/item.php?id=7&zq=abc", "http://example.org/item.php?id=7&zq=x1y2z3",
			"http://example.org/item.php?id=7&zq=q0",
		}, {
			"http://example.org/item.php?id=500&zq=abc", "http://example.org/item.php?id=500&zq=zz9",
		}},
		apart: [][]string{{"http://example.org/item.php?id=7&zq=abc", "http://example.org/item.php?id=8&zq=abc"}},
		off:   &Options{NoSignatures: true},
	}, {
		// The value of do decides whether id names the page.
		file: "wiki-actions.tsv",
		same: [][]string{{
			"http://wiki.example.net/doku.php?do=recent&id=zebra", "http://wiki.example.net/doku.php?do=recent&id=aardvark",
			"http://wiki.example.net/doku.php?do=recent&id=apple",
		}, {
			"http://wiki.example.net/doku.php?do=login&id=zebra", "http://wiki.example.net/doku.php?do=login&id=apple",
		}, {
			"http://wiki.example.net/doku.php?do=show&id=zebra", "http://wiki.example.net/doku.php?id=zebra",
		}},
		apart: [][]string{
			{"http://wiki.example.net/doku.php?do=show&id=zebra", "http://wiki.example.net/doku.php?do=show&id=aardvark"},
			{"http://wiki.example.net/doku.php?do=edit&id=zebra", "http://wiki.example.net/doku.php?do=edit&id=aardvark"},
			{"http://wiki.example.net/doku.php?do=recent&id=zebra", "http://wiki.example.net/doku.php?do=login&id=zebra"},
		},
		off: &Options{NoSplits: true},
	}, {
		// Login pages: the path or title decides that the return address does not matter.
		file: "login.tsv",
		same: [][]string{{
			"http://wiki.example.net/index.php?title=Special:UserLogin&returnto=Zebra",
			"http://wiki.example.net/index.php?title=Special:UserLogin&returnto=Apple",
		}, {
			"http://blog.example.net/wp-login.php?redirect_to=http%3A%2F%2Fblog.example.net%2Fzebra%2F",
			"http://blog.example.net/wp-login.php?redirect_to=http%3A%2F%2Fblog.example.net%2F2024%2F05%2Fapple%2F",
		}, {
			"http://blog.example.net/login?g=/zebra/", "http://blog.example.net/login?g=/2024/05/apple/",
		}},
		apart: [][]string{
			{"http://wiki.example.net/index.php?title=Zebra", "http://wiki.example.net/index.php?title=Apple"},
			{"http://wiki.example.net/index.php?title=Zebra&action=history", "http://wiki.example.net/index.php?title=Apple&action=history"},
		},
	}, {
		// A symbolic name of the current revision (HEAD) is learnable; a hash that happens to
		// be the current revision is not: an old revision's hash looks the same.
		file: "revisions.tsv",
		same: [][]string{{
			"http://git.example.net/?p=repo&a=blob&f=zebra.c&hb=HEAD", "http://git.example.net/?p=repo&a=blob&f=zebra.c",
		}},
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=blob&f=zebra.c&hb=0123abcd4567", "http://git.example.net/?p=repo&a=blob&f=zebra.c"},
			{"http://git.example.net/?p=repo&a=blob&f=zebra.c", "http://git.example.net/?p=repo&a=blob&f=apple.c"},
		},
		off: &Options{NoSplits: true},
	}, {
		// Edit forms of missing pages are one page where links mark them (redlink=1); an edit
		// form without the mark is a page of its own.
		file: "missing-edit.tsv",
		same: [][]string{{
			"http://wiki.example.net/index.php?title=Zebra&action=edit&redlink=1",
			"http://wiki.example.net/index.php?title=Aardvark&action=edit&redlink=1",
		}},
		apart: [][]string{
			{"http://wiki.example.net/index.php?title=Zebra&action=edit", "http://wiki.example.net/index.php?title=Aardvark&action=edit"},
		},
	}, {
		// A content-addressed store links one object by abbreviations of its hash of several
		// lengths: the longer forms are cut to the shortest, at any hash, in the path and in
		// the query; other hashes stay apart, and a value shorter than the cut keeps its value.
		file: "hashes.tsv",
		same: [][]string{{
			"http://vcs.example.org/info/0123456789abcdef0123456789abcdef01234567",
			"http://vcs.example.org/info/0123456789abcdef",
		}, {
			"http://vcs.example.org/wdiff?id=fedcba9876543210", "http://vcs.example.org/wdiff?id=fedcba9876",
		}},
		apart: [][]string{
			{"http://vcs.example.org/info/0123456789abcdef", "http://vcs.example.org/info/0123456789abcdee"},
			{"http://vcs.example.org/info/0123456789ab", "http://vcs.example.org/info/0123456789abcdef"},
			{"http://vcs.example.org/wdiff?id=fedcba9876", "http://vcs.example.org/wdiff?id=fedcba9875"},
		},
	}, {
		// A record named by its id and a slug or alias the application ignores: the slug is
		// cut (rules.Head) at any id, in a query value and in a path segment; other ids stay
		// apart, with their slugs or without.
		file: "slugs.tsv",
		same: [][]string{{
			"http://cms.example.org/index.php?option=com_content&view=article&id=977:alpha-beta&catid=3",
			"http://cms.example.org/index.php?option=com_content&view=article&id=977&catid=3",
		}, {
			"http://forum.example.org/threads/9123-some-new-topic", "http://forum.example.org/threads/9123",
		}},
		apart: [][]string{
			{"http://cms.example.org/index.php?option=com_content&view=article&id=977:alpha-beta&catid=3",
				"http://cms.example.org/index.php?option=com_content&view=article&id=978:alpha-beta&catid=3"},
			{"http://forum.example.org/threads/9123-some-new-topic", "http://forum.example.org/threads/9124-some-new-topic"},
			{"http://forum.example.org/threads/9123", "http://forum.example.org/threads/9124"},
		},
		ablate: []*bool{&ablate.NoHead},
	}, {
		// A root listing at every commit: the rule that deletes h and hb is split on the
		// absence of f (a subdirectory's listing changes with the commit), and it stands on
		// one cluster, in which two URLs differ in h alone and two in hb alone (h and hb are
		// not always equal: mirrors, below, do not apply).
		file: "tree-root.tsv",
		same: [][]string{{
			"http://git.example.net/?p=repo&a=tree",
			"http://git.example.net/?p=repo&a=tree&h=0123456789ab&hb=fedcba987654",
			"http://git.example.net/?p=repo&a=tree&h=fedcba987654&hb=fedcba987654",
		}},
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=tree&f=src&h=0e2927d92c16&hb=7fd0c6079060", "http://git.example.net/?p=repo&a=tree&f=src&h=6669fb1fca2b&hb=7fd0c6079060"},
			{"http://git.example.net/?p=repo&a=tree", "http://git.example.net/?p=repo&a=tree&f=src&h=0e2927d92c16&hb=7fd0c6079060"},
		},
		ablate: []*bool{&ablate.NoAbsentSplits, &ablate.NoKeyPairs},
	}, {
		// The same linked from the log alone, h=C&hb=C: no two URLs differ in h or hb
		// alone, and the two parameters, always equal, are one value that the rule deletes.
		file: "tree-root-log.tsv",
		same: [][]string{{
			"http://git.example.net/?p=repo&a=tree",
			"http://git.example.net/?p=repo&a=tree&h=fedcba987654&hb=fedcba987654",
		}},
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=tree&f=src&h=3eacab900e36&hb=f404ed6efedc", "http://git.example.net/?p=repo&a=tree&f=src&h=2c901335170c&hb=f404ed6efedc"},
			{"http://git.example.net/?p=repo&a=tree", "http://git.example.net/?p=repo&a=tree&f=src&h=3eacab900e36&hb=f404ed6efedc"},
		},
		ablate: []*bool{&ablate.NoAbsentSplits, &ablate.NoMirrors},
	}, {
		// A root listing the same at every commit, and a subdirectory's listing that changed at
		// every commit, linked at other commits without its tree id h=: those listings lie in
		// clusters of their own, one URL each, and differ in hb alone, so hb tells them apart
		// (package learn's separations). The rule that deletes h and hb, learned on the root,
		// would send the subdirectory's listing at every commit to one key; it is split on the
		// absence of f.
		file: "tree-subdir.tsv",
		same: [][]string{{
			"http://git.example.net/?p=repo&a=tree",
			"http://git.example.net/?p=repo&a=tree&h=0123456789ab&hb=0123456789ab",
			"http://git.example.net/?p=repo&a=tree&h=fedcba987654&hb=0123456789ab",
		}},
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=tree&f=src&h=0e2927d92c16&hb=7fd0c6079060", "http://git.example.net/?p=repo&a=tree&f=src&h=6669fb1fca2b&hb=59395c05c18b"},
			{"http://git.example.net/?p=repo&a=tree", "http://git.example.net/?p=repo&a=tree&f=src&h=0e2927d92c16&hb=7fd0c6079060"},
		},
		ablate: []*bool{&ablate.NoSeparations},
	}, {
		// A root listing that changed: the listings before the change are another page, and
		// deleting h and hb merges them with the current one: no rule (with every rule kept,
		// whatever its precision, they merge).
		file: "tree-root-changed.tsv",
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=tree&h=56941c37c5f4&hb=56941c37c5f4", "http://git.example.net/?p=repo&a=tree"},
			{"http://git.example.net/?p=repo&a=tree&h=16478e2f9dd8&hb=16478e2f9dd8", "http://git.example.net/?p=repo&a=tree&h=a515bbc49a26&hb=a515bbc49a26"},
		},
	}, {
		// Searches for a person by name and by e-mail address: the name is the head of the
		// address, copied, not a literal of each person, and the rule holds for every
		// address, not only for the person of most pairs; another commit's search stays apart.
		file: "search-people.tsv",
		same: [][]string{{
			"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=ken@example.org&st=committer",
			"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=ken&st=author",
			"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=ken@example.org&st=author",
		}, {
			"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=margaret@example.org&st=author",
			"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=margaret&st=author",
		}},
		apart: [][]string{
			{"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=ken&st=author", "http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=grace&st=author"},
			{"http://git.example.net/?p=repo&a=search&h=9fd68f5a5090&s=ken&st=author", "http://git.example.net/?p=repo&a=search&h=7fd0c6079060&s=ken&st=author"},
		},
		ablate:   []*bool{&ablate.NoQueryHead},
		together: []*bool{&ablate.NoReadBranches, &ablate.NoMergedContexts},
	}, {
		// A form on each timeline repeats the page's query with two display settings, on
		// three forms of timeline URL, two pages each: generalization makes one context per
		// form, each on two clusters, and the context they share is the rule, on timelines
		// alone.
		file: "timeline-form.tsv",
		same: [][]string{{
			"http://scm.example.org/timeline?c=2020-05-01+12:00:00&r=trunk", "http://scm.example.org/timeline?c=2020-05-01+12:00:00&r=trunk&advm=1&udc=1",
		}, {
			"http://scm.example.org/timeline?c=2020-05-01+12:00:00&u=zoe&y=a", "http://scm.example.org/timeline?c=2020-05-01+12:00:00&u=zoe&y=a&advm=0&udc=1",
		}, {
			"http://scm.example.org/timeline?c=0123456789abcdef&y=a", "http://scm.example.org/timeline?c=0123456789abcdef&y=a&advm=1&udc=1",
		}},
		apart: [][]string{{
			"http://scm.example.org/timeline?c=2020-05-01+12:00:00&r=trunk", "http://scm.example.org/timeline?c=2020-05-02+12:00:00&r=trunk",
			"http://scm.example.org/timeline?c=2020-05-01+12:00:00&u=zoe&y=a", "http://scm.example.org/timeline?c=0123456789abcdef&y=a",
		}, {
			// The merged rule stays on its page type: not a deletion of advm site-wide.
			"http://scm.example.org/info/0123456789abcdef?advm=1", "http://scm.example.org/info/0123456789abcdef",
		}},
		ablate: []*bool{&ablate.NoMergedContexts},
	}, {
		// Display settings of two values on three forms of story URL, on three sites: the
		// shared context deletes view whatever its value on stories, and that is no evidence
		// for deleting it on every page of every site, where a gallery's view=large is another
		// page.
		file: "display-views.tsv",
		same: [][]string{{
			"http://news.example.org/story/900-zinc?section=science", "http://news.example.org/story/900-zinc?section=science&view=text",
		}, {
			"http://news.example.org/story/901-yew?author=yew", "http://news.example.org/story/901-yew?author=yew&view=print",
		}},
		apart: [][]string{{
			"http://news.example.org/gallery/902-xenon?view=large", "http://news.example.org/gallery/902-xenon",
		}, {
			"http://photos.example.com/album/7?view=large", "http://photos.example.com/album/7",
		}},
		ablate: []*bool{&ablate.NoMergedContexts},
	}, {
		// A rule that cuts any one-segment path to / merges wiki pages with their edit forms;
		// without name= it merges nothing on the training URLs, but no use but the home
		// page's meets a URL of its own cluster: the split on the absence of name= is not
		// selected.
		file: "one-segment.tsv",
		apart: [][]string{
			{"http://scm.example.org/timeline?c=0123456789", "http://scm.example.org/vdiff?c=0123456789"},
			{"http://scm.example.org/timeline?from=0123456789", "http://scm.example.org/vdiff?from=0123456789"},
		},
		ablate: []*bool{&ablate.NoAbsentSupport},
	}, {
		// A printable view is its page: the rule learned for printable=yes and the rule for
		// every title, carved out by the absence of action=, are as specific and both match
		// it; the one that names a value the URL has applies first, else printable=yes stays
		// in the key and no rule deletes it.
		file: "printable.tsv",
		same: [][]string{{
			"http://wiki.example.net/wiki/index.php?title=Zebra&printable=yes", "http://wiki.example.net/wiki/Zebra",
			"http://wiki.example.net/wiki/index.php?title=Zebra",
		}},
		apart:  [][]string{{"http://wiki.example.net/wiki/Zebra", "http://wiki.example.net/wiki/Yak"}},
		ablate: []*bool{&ablate.NoEqualsFirst},
	}, {
		// A printable view reached as index.php?title=X&printable=yes is its article, and
		// also the same page as index.php/X?printable=yes: two classes hold on it, one of
		// them deleting printable= too. The one that stops short of the article's key is
		// dropped, however many clusters support it.
		file: "printable-kept.tsv",
		same: [][]string{{
			"http://wiki.example.net/index.php?title=Zebra&printable=yes", "http://wiki.example.net/index.php/Zebra",
			"http://wiki.example.net/index.php?title=Zebra",
		}},
		apart:  [][]string{{"http://wiki.example.net/index.php/Zebra", "http://wiki.example.net/index.php/Yak"}},
		ablate: []*bool{&ablate.NoShadowed},
	}, {
		// The rule for every title learns that action= and oldid= are absent, more specific
		// than the rule for printable=yes, and matches printable views too: it is narrowed
		// to URLs without printable=, or printable=yes stays in the key.
		file: "printable-narrow.tsv",
		same: [][]string{{
			"http://wiki.example.net/index.php?title=Zebra&printable=yes", "http://wiki.example.net/index.php/Zebra",
			"http://wiki.example.net/index.php?title=Zebra",
		}},
		apart: [][]string{
			{"http://wiki.example.net/index.php/Zebra", "http://wiki.example.net/index.php/Yak"},
			{"http://wiki.example.net/index.php?title=Zebra&action=history", "http://wiki.example.net/index.php/Zebra"},
			{"http://wiki.example.net/index.php?title=Zebra&oldid=7", "http://wiki.example.net/index.php/Zebra"},
		},
		ablate: []*bool{&ablate.NoShadowed},
	}, {
		// A login link carries the page's own node: deleting destination= and writing the
		// node's path from it are learned from the same pairs, with one context, and only
		// one can apply. Deleting it meets the page in every cluster, the node's path only
		// where the cluster has it: the rule that merges in more clusters goes first.
		file: "destination.tsv",
		same: [][]string{{
			"http://cms.example.org/blog/zebra-yak?destination=node/999", "http://cms.example.org/blog/zebra-yak",
		}},
		apart:  [][]string{{"http://cms.example.org/blog/zebra-yak", "http://cms.example.org/blog/zebra-gnu"}},
		ablate: []*bool{&ablate.NoHits},
	}} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open("testdata/patterns/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			cls, _, err := ReadClusters(f, ReaderOptions{})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			keys := func(opt Options) func(string) string {
				set, _, err := Learn(cls, opt)
				if err != nil {
					t.Fatal(err)
				}
				return func(u string) string {
					k, err := set.Normalize(u)
					if err != nil {
						t.Fatalf("Normalize(%q): %v", u, err)
					}
					return k
				}
			}
			key := keys(Options{})
			for _, g := range tc.same {
				for _, u := range g[1:] {
					if a, b := key(g[0]), key(u); a != b {
						t.Errorf("keys of %q and %q differ: %q, %q", g[0], u, a, b)
					}
				}
			}
			for _, g := range tc.apart {
				for i, u := range g {
					for _, v := range g[i+1:] {
						if key(u) == key(v) {
							t.Errorf("%q and %q have one key %q", u, v, key(u))
						}
					}
				}
			}
			// passes reports whether the keys keep every same group together and every apart
			// group apart.
			passes := func() bool {
				for _, g := range tc.same {
					for _, u := range g[1:] {
						if key(g[0]) != key(u) {
							return false
						}
					}
				}
				for _, g := range tc.apart {
					for i, u := range g {
						for _, v := range g[i+1:] {
							if key(u) == key(v) {
								return false
							}
						}
					}
				}
				return true
			}
			if tc.off != nil {
				if key = keys(*tc.off); passes() {
					t.Errorf("with %+v, the case passes: it does not need the mechanism", *tc.off)
				}
			}
			for i, sw := range tc.ablate {
				*sw = true
				key = keys(Options{})
				*sw = false
				if passes() {
					t.Errorf("with ablate switch %d on, the case passes: it does not need the mechanism", i)
				}
			}
			if len(tc.together) > 0 {
				for _, sw := range tc.together {
					*sw = true
				}
				key = keys(Options{})
				for _, sw := range tc.together {
					*sw = false
				}
				if passes() {
					t.Errorf("with the switches of together on, the case passes: it does not need the mechanisms")
				}
			}
		})
	}
}
