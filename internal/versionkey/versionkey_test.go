package versionkey

import (
	"crypto/sha1"
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// commit names commit c of a repository (a hex SHA-1).
func commit(c int) string { return fmt.Sprintf("%x", sha1.Sum([]byte{byte(c), byte(c >> 8)})) }

// site holds the URLs of one site, cluster by cluster.
type site struct {
	urls []URL
	n    int32
}

// add adds a cluster of raw URLs.
func (s *site) add(t *testing.T, raws ...string) {
	t.Helper()
	for _, raw := range raws {
		toks, err := urlnorm.Tokenize(nil, raw)
		if err != nil {
			t.Fatal(err)
		}
		host := ""
		for _, tok := range toks {
			if tok.Part == urlnorm.PartHost {
				host = tok.Value
			}
		}
		s.urls = append(s.urls, URL{Host: host, Toks: toks, Cluster: s.n})
	}
	s.n++
}

// rule parses the text of a rule of host h.
func rule(t *testing.T, h, text string) *rules.Rule {
	t.Helper()
	r, err := rules.ParseRule("host=" + h + " cov=1 prec=1 sup=1 " + text)
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

// fossil is a repository browser's files (/repo/file?name=src/F&ci=COMMIT) at commits 0-7:
// stable.c never changes (one cluster, if stable); of the files changed, those named hot*
// change at every commit (a cluster each) and the others at commit 4 (a cluster before and one
// after).
func fossil(t *testing.T, stable bool, changed ...string) *site {
	const h = "http://fossil.example.org/repo/file?name=src/"
	s := &site{}
	var urls []string
	if stable {
		for c := range 8 {
			urls = append(urls, h+"stable.c&ci="+commit(c))
		}
		s.add(t, urls...)
	}
	for _, f := range changed {
		if strings.HasPrefix(f, "hot") {
			for c := range 8 {
				s.add(t, h+f+"&ci="+commit(c))
			}
			continue
		}
		for _, cs := range [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}} {
			urls = urls[:0]
			for _, c := range cs {
				urls = append(urls, h+f+"&ci="+commit(c))
			}
			s.add(t, urls...)
		}
	}
	return s
}

// TestDeletes checks the version keys of a repository browser: the commit is irrelevant to the
// versions of stable.c, and names those of the files that changed. Its deletion, for
// one file or for all, is dropped where two files show it naming their versions, and kept where
// one does, or where no page shows it irrelevant.
func TestDeletes(t *testing.T) {
	const h = "fossil.example.org"
	forFile := `if path(-,1)="file" query("name")="src/stable.c" query("ci")=* then query("ci")=-`
	wholesale := `if path(-,1)="file" query("ci")=* then query("ci")=-`
	swap := `if path(-,1)="file" query("name")="src/stable.c" query("ci")="` + commit(2) + `" then query("ci")="` + commit(1) + `"`
	onTip := `if path(-,1)="file" query("ci")="tip" then query("ci")=-`
	for _, tt := range []struct {
		stable  bool
		changed []string
		rule    string
		want    bool
	}{
		{true, []string{"a.c", "b.c"}, forFile, true},
		{true, []string{"a.c", "hot.c"}, forFile, true},
		{true, []string{"a.c", "b.c"}, wholesale, true},
		{true, []string{"a.c", "b.c"}, swap, true},
		{true, []string{"a.c", "b.c"}, onTip, false},          // no wildcard, no hash: not a version's deletion
		{true, []string{"hot.c"}, forFile, false},             // one page changed: too little to call ci a version
		{false, []string{"hot.c", "hot.h"}, wholesale, false}, // ci tells every page apart
	} {
		s := fossil(t, tt.stable, tt.changed...)
		f := New(s.urls, nil)
		if got := f.Deletes(rule(t, h, tt.rule), ""); got != tt.want {
			t.Errorf("stable %v, changed %q: Deletes(%s) = %v, want %v", tt.stable, tt.changed, tt.rule, got, tt.want)
		}
		if got := f.Deletes(rule(t, h, tt.rule), h); got != tt.want {
			t.Errorf("changed %q, host %s: Deletes(%s) = %v, want %v", tt.changed, h, tt.rule, got, tt.want)
		}
		if f.Deletes(rule(t, h, tt.rule), "other.example.org") {
			t.Errorf("changed %q: Deletes(%s) on a host without URLs", tt.changed, tt.rule)
		}
	}
}

// TestDeletesKind checks that a rule's kind keeps its type values: the deletion of the commit
// from blame pages (a=blame) is judged on blame pages alone, where it names no versions, even
// though blob pages (a=blob) of the same files show it naming theirs.
func TestDeletesKind(t *testing.T) {
	const h = "http://git.example.org/?p=r.git&"
	s := &site{}
	for _, f := range []string{"a.c", "b.c", "c.c"} {
		s.add(t, h+"a=blob&f="+f+"&hb="+commit(0), h+"a=blob&f="+f+"&hb="+commit(1))
		s.add(t, h+"a=blob&f="+f+"&hb="+commit(2), h+"a=blob&f="+f+"&hb="+commit(3))
		s.add(t, h+"a=blame&f="+f+"&hb="+commit(0), h+"a=blame&f="+f+"&hb="+commit(1), h+"a=blame&f="+f+"&hb="+commit(2))
	}
	isType := func(name, value string) bool { return name == "a" }
	f := New(s.urls, isType)
	blob := `if query("a")="blob" query("f")="a.c" query("hb")=* then query("hb")=-`
	blame := `if query("a")="blame" query("f")="a.c" query("hb")=* then query("hb")=-`
	if !f.Deletes(rule(t, "git.example.org", blob), "") {
		t.Errorf("Deletes(%s) = false on blobs that changed", blob)
	}
	if f.Deletes(rule(t, "git.example.org", blame), "") {
		t.Errorf("Deletes(%s) = true on blame pages that did not change", blame)
	}
	// Without type values, a=blame is a page's name like f=, and the blame rule's kind takes in
	// the blobs.
	if f := New(s.urls, nil); !f.Deletes(rule(t, "git.example.org", blame), "") {
		t.Errorf("without type values, Deletes(%s) = false", blame)
	}
}

// TestDeletesNoVersions checks keys that name no versions: a forum's f= on viewforum.php
// (always tells pages apart) and a session id (never does), and that a site's "your session has
// expired" page, met through the session ids of many pages, does not make the session id a
// version key.
func TestDeletesNoVersions(t *testing.T) {
	s := &site{}
	for f := 1; f <= 6; f++ {
		s.add(t, fmt.Sprintf("http://bb.example.org/viewforum.php?f=%d", f))
	}
	for p := 1; p <= 6; p++ {
		s.add(t, fmt.Sprintf("http://bb.example.org/viewtopic.php?f=%d&t=%d", p, p), fmt.Sprintf("http://bb.example.org/viewtopic.php?f=%d&t=%d", p+1, p))
	}
	for p := 1; p <= 6; p++ {
		s.add(t, fmt.Sprintf("http://bb.example.org/page/%d?sid=%s", p, commit(100+p)), fmt.Sprintf("http://bb.example.org/page/%d?sid=%s", p, commit(200+p)))
	}
	const forum = `if path(-,1)="viewforum.php" query("f")=* then query("f")=-`
	const session = `if path(1,-)="page" query("sid")=* then query("sid")=-`
	f := New(s.urls, nil)
	for _, r := range []string{forum, session} {
		if f.Deletes(rule(t, "bb.example.org", r), "") {
			t.Errorf("Deletes(%s) = true", r)
		}
	}
	// The expired page: pages 1-3 met at an old session id, all in one cluster.
	var expired []string
	for p := 1; p <= 3; p++ {
		expired = append(expired, fmt.Sprintf("http://bb.example.org/page/%d?sid=%s", p, commit(300)))
	}
	s.add(t, expired...)
	if f := New(s.urls, nil); f.Deletes(rule(t, "bb.example.org", session), "") {
		t.Errorf("with the expired page, Deletes(%s) = true", session)
	}
	// Cut to two URLs, the expired page's cluster is no hub, and pages 1 and 2 show sid naming
	// versions, as a file at two commits would.
	s.urls = s.urls[:len(s.urls)-1]
	if f := New(s.urls, nil); !f.Deletes(rule(t, "bb.example.org", session), "") {
		t.Errorf("with two pages in a second cluster, Deletes(%s) = false", session)
	}
}

// TestLookup checks Lookup and Matches on a URL's tokens.
func TestLookup(t *testing.T) {
	toks, err := urlnorm.Tokenize(nil, "http://x.example.org/a/b/c?q=1&q=2&bare")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key  urlnorm.Key
		want string
		ok   bool
	}{
		{urlnorm.Key{Part: urlnorm.PartPath, RPos: 1}, "c", true},
		{urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}, "a", true},
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "q"}, "1", true},
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "q", Pos: 2}, "2", true},
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "bare"}, "", true},
		{urlnorm.Key{Part: urlnorm.PartQuery, Name: "z"}, "", false},
		{urlnorm.Key{Part: urlnorm.PartHost}, "x.example.org", true},
		{urlnorm.Key{Part: urlnorm.PartFragment}, "", false},
	} {
		if v, ok := Lookup(toks, tt.key); v != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%+v) = %q, %v; want %q, %v", tt.key, v, ok, tt.want, tt.ok)
		}
	}
	for text, want := range map[string]bool{
		`if path(-,1)="c" query("q")=* then query("q")=-`:             true,
		`if path(-,1)="d" then query("q")=-`:                          false,
		`if query("z")=- then query("q")=-`:                           true,
		`if query("bare")=- then query("q")=-`:                        false,
		`if path(1,-)="a" then query("z")=@query("q")`:                true,
		`if path(1,-)="a" then query("q")=@query("z")`:                false,
		`if path(2,-)="b" query("q")[1,-]=* then query("q")[1,-]="2"`: true,
	} {
		r := rule(t, "x.example.org", text)
		if got := Matches(r, "x.example.org", toks); got != want {
			t.Errorf("Matches(%s) = %v, want %v", text, got, want)
		}
		if Matches(r, "y.example.org", toks) {
			t.Errorf("Matches(%s) on another host", text)
		}
	}
	if !strings.Contains(tokenText(toks[len(toks)-1]), "bare") {
		t.Errorf("tokenText of a bare parameter = %q", tokenText(toks[len(toks)-1]))
	}
}

// TestWildKeys: a key is deleted whatever its value when the rule's context leaves it open (or
// does not name a parameter) and no action copies it, whole or a deep token of it, elsewhere.
func TestWildKeys(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`if query("s")=* then query("s")=-`, "[query(s)]"},
		{`if path(1,1)="p" then query("s")=-`, "[query(s)]"},
		{`if query("s")="x" then query("s")=-`, "[]"},
		{`if path(1,2)="w" query("title")=* then path(1,2)="wiki" path(2,1)=@query("title") query("title")=-`, "[]"},
		{`if path(1,2)="x" query("q")=* then path(2,1)=@query("q")[2,1] query("q")=-`, "[]"},
		{`if path(1,2)=* path(2,1)="print" then path(1,2)=-`, "[path(1,2)]"},
		{`if path(1,2)=* path(2,1)="print" then path(2,1)=@path(1.1,2) path(1,2)=-`, "[]"},
	} {
		r := rule(t, "example.org", tc.text)
		if got := fmt.Sprint(WildKeys(r)); got != tc.want {
			t.Errorf("WildKeys(%s) = %s, want %s", tc.text, got, tc.want)
		}
	}
}
