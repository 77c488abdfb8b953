package learn

import (
	"os"
	"testing"
)

// TestAppPatterns checks the rules learned from small hand-made cluster files of shapes that
// web applications make (testdata/patterns, see ORIGIN.md): URLs of each same group must get
// one key, URLs of each apart group distinct keys, unseen values included. A case that needs a
// mechanism names the options that turn it off, and with them some same group must fall apart:
// the test can fail.
func TestAppPatterns(t *testing.T) {
	for _, tc := range []struct {
		file  string
		same  [][]string
		apart [][]string
		off   *Options // the options without the mechanism the case needs, if any
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
			if tc.off == nil {
				return
			}
			key = keys(*tc.off)
			for _, g := range tc.same {
				for _, u := range g[1:] {
					if key(g[0]) != key(u) {
						return
					}
				}
			}
			t.Errorf("with %+v, every same group has one key: the case does not need the mechanism", *tc.off)
		})
	}
}
