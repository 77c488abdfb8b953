package sitefamily

import (
	"fmt"
	"strconv"
	"strings"
)

// buildRepo builds a source repository browser in the dialect of gitweb
// (/?p=R.git;a=blob;f=PATH;h=BLOB;hb=COMMIT), cgit (/R/tree/PATH?id=COMMIT) or Fossil
// (/file?name=PATH&ci=COMMIT, /info/COMMIT under abbreviations of several lengths). The
// history is a line of commits, each changing a few files; a crawl sees the trees of some
// commits and some files of each. A file's content at two commits between which it did not
// change is one page; so is a commit or an artifact under any abbreviation of its hash, the
// blob of gitweb under any commit (its h= names the content), and the newest commit's view
// under the branch's name (hb=HEAD, ?h=main, ci=tip). Traps: a file or a directory at two
// commits with a change between them, where the URL names only the commit; log pages by
// offset, and cgit's logs of two branches. Noise: a file at a commit before it existed.
func buildRepo(s *site) {
	style := s.r.IntN(3) // 0 gitweb, 1 cgit, 2 Fossil
	host := s.origin()
	if s.chance(0.5) {
		host = s.scheme + "://" + pick(s.r, []string{"git", "code", "src", "dev"}) + "." + s.domain
	}
	repo := s.word(2)
	branch := pick(s.r, []string{"main", "master", "trunk"})
	other := pick(s.r, []string{"dev", "next", "stable"})
	pTree := s.between(0.2, 0.6) // chance the crawl saw the tree of a commit
	pFile := s.between(0.2, 0.6) // chance it saw a file of a tree it saw
	pShort := s.between(0.3, 0.9)

	type file struct {
		dir, name string
		ver       int    // changes so far
		blob      string // hash of its content now
		born      int    // the commit that added it
	}
	var files []*file
	dirs := make([]string, s.intBetween(2, 6))
	for i := range dirs {
		dirs[i] = s.freshSlug(1, "")
	}
	addFile := func(at int) {
		name := s.fresh(func() string { return s.slug(1+s.r.IntN(2), "_") }) + pick(s.r, []string{".c", ".go", ".txt", ".md", ".py", ".h"})
		files = append(files, &file{dir: pick(s.r, dirs), name: name, blob: s.rnd(40, hexLower), born: at})
	}
	for range s.intBetween(10, 40) {
		addFile(0)
	}
	// Pages by their content: a file version, a directory listing version, an artifact.
	versions := map[string]*cluster{}
	pageOf := func(key string, boost float64) *cluster {
		c := versions[key]
		if c == nil {
			c = s.page(boost)
			versions[key] = c
		}
		return c
	}
	// A directory's listing shows its files' names, and but for Fossil's their sizes: it
	// changes with any of its files.
	listing := func(dir string) string {
		var b strings.Builder
		b.WriteString(dir)
		for _, f := range files {
			if f.dir == dir {
				b.WriteString("|" + f.name)
				if style != 2 {
					b.WriteString("@" + strconv.Itoa(f.ver))
				}
			}
		}
		return b.String()
	}
	abbrev := func(h string) string { return h[:pick(s.r, []int{10, 12, 16})] }

	// URLs of the dialect. at is the commit's hash, "" for the branch's newest state.
	var fileURL func(f *file, at string) string
	var dirURL func(dir, at string) string
	switch style {
	case 0:
		p := host + "/?p=" + repo + ".git"
		fileURL = func(f *file, at string) string {
			switch {
			case at == "":
				return p + ";a=blob;f=" + f.dir + "/" + f.name + ";hb=HEAD"
			case s.chance(0.7):
				return p + ";a=blob;f=" + f.dir + "/" + f.name + ";h=" + f.blob + ";hb=" + at
			}
			return p + ";a=blob;f=" + f.dir + "/" + f.name + ";hb=" + at // from a history view
		}
		dirURL = func(dir, at string) string {
			if at == "" {
				return p + ";a=tree;f=" + dir + ";hb=HEAD"
			}
			return p + ";a=tree;f=" + dir + ";hb=" + at
		}
	case 1:
		p := host + "/" + repo
		fileURL = func(f *file, at string) string {
			switch {
			case at == "" && s.chance(0.5):
				return p + "/tree/" + f.dir + "/" + f.name
			case at == "":
				return p + "/tree/" + f.dir + "/" + f.name + "?h=" + branch
			}
			return p + "/tree/" + f.dir + "/" + f.name + "?id=" + at
		}
		dirURL = func(dir, at string) string {
			if at == "" {
				return p + "/tree/" + dir + "/?h=" + branch
			}
			return p + "/tree/" + dir + "/?id=" + at
		}
	default:
		fileURL = func(f *file, at string) string {
			if at == "" {
				return host + "/file?name=" + f.dir + "/" + f.name + "&ci=" + pick(s.r, []string{"tip", branch})
			}
			return host + "/file?name=" + f.dir + "/" + f.name + "&ci=" + at[:10]
		}
		dirURL = func(dir, at string) string {
			if at == "" {
				return host + "/dir?name=" + dir + "&ci=tip"
			}
			return host + "/dir?name=" + dir + "&ci=" + at[:10]
		}
	}
	// addLinked adds u to c unless the crawl met u already (the same commit's tree seen twice
	// is one URL), and records a trap against the URL of the same file or directory seen last
	// under another commit when the page differs and the URL names only the commit.
	last := map[string]string{}
	arg := [3]string{"hb", "id", "ci"}[style]
	addLinked := func(c *cluster, key, u string) bool {
		if s.has(u) {
			return false
		}
		s.main(c, u)
		if prev, ok := last[key]; ok && s.byURL[prev] != c && !strings.Contains(u, ";h=") && !strings.Contains(prev, ";h=") {
			s.trap("changed-between-commits", prev, u, Rewrite{Op: DropParam, Arg: arg})
		}
		last[key] = u
		return true
	}

	var notFound *cluster
	var commits []string
	for made := 0; made < s.pages; {
		at := s.rnd(40, hexLower)
		commits = append(commits, at)
		n := len(commits) - 1
		for range 1 + s.r.IntN(3) {
			f := pick(s.r, files)
			f.ver++
			f.blob = s.rnd(40, hexLower)
		}
		if s.chance(0.15) {
			addFile(n)
		}
		// The commit, its diff, and for Fossil its artifact under several abbreviations.
		c := s.page(1)
		made++
		switch style {
		case 0:
			s.main(c, host+"/?p="+repo+".git;a=commit;h="+at)
			s.main(s.page(0.7), host+"/?p="+repo+".git;a=commitdiff;h="+at)
		case 1:
			s.main(c, host+"/"+repo+"/commit/?id="+at)
			if s.chance(0.5) {
				s.add(c, host+"/"+repo+"/commit/?h="+pick(s.r, []string{branch, other})+"&id="+at, wAlias)
			}
			s.main(s.page(0.7), host+"/"+repo+"/diff/?id="+at)
		default:
			s.main(c, host+"/info/"+at[:10])
			if s.chance(pShort) {
				s.add(c, host+"/info/"+at[:16], wAlias)
			}
			if s.chance(0.3) {
				s.add(c, host+"/info/"+at, wAlias)
			}
			s.main(s.page(0.7), host+"/timeline?c="+abbrev(at))
		}
		made++
		if !s.chance(pTree) {
			continue
		}
		for _, dir := range dirs {
			if s.chance(0.5) {
				continue
			}
			key := listing(dir)
			if addLinked(pageOf(key, 1), "dir "+dir, dirURL(dir, at)) {
				made++
			}
			for _, f := range files {
				if f.dir != dir || !s.chance(pFile) {
					continue
				}
				fc := pageOf(f.dir+"/"+f.name+"@"+strconv.Itoa(f.ver), 1)
				if addLinked(fc, "file "+f.dir+"/"+f.name, fileURL(f, at)) {
					made++
				}
				if style == 2 && s.chance(0.2) {
					// The artifact of the file's content, linked under two abbreviations.
					ac := pageOf("artifact "+f.blob, 0.5)
					for _, k := range []int{10, 16} {
						if !s.has(host + "/artifact/" + f.blob[:k]) {
							s.add(ac, host+"/artifact/"+f.blob[:k], wAlias)
						}
					}
				}
			}
			if n > 0 && s.chance(0.05) {
				// A link to a file at a commit before it existed: "not found".
				for _, f := range files {
					if f.born > 0 && f.dir == dir {
						if notFound == nil || len(notFound.urls) > 12 {
							notFound = s.noisePage()
						}
						u := fileURL(f, commits[s.r.IntN(f.born)])
						if i := strings.Index(u, ";h="); i >= 0 {
							u = u[:i] + u[i+43:] // gitweb shows a blob named by h= at any commit
						}
						s.addNoise(notFound, u)
						break
					}
				}
			}
		}
	}
	// The newest state under the branch's name: the same pages as at the newest commit.
	for _, dir := range dirs {
		c := pageOf(listing(dir), 1)
		if u := dirURL(dir, ""); !s.has(u) {
			s.add(c, u, wAlias)
		}
	}
	for _, f := range files {
		if s.chance(0.4) {
			if u := fileURL(f, ""); !s.has(u) {
				s.add(pageOf(f.dir+"/"+f.name+"@"+strconv.Itoa(f.ver), 1), u, wAlias)
			}
		}
	}
	// Log pages by offset, 50 commits a page; cgit's logs of two branches differ.
	var prev string
	for pg := 0; pg*50 < len(commits); pg++ {
		var u, alt string
		switch style {
		case 0:
			u = fmt.Sprintf("%s/?p=%s.git;a=log;pg=%d", host, repo, pg)
			if pg == 0 {
				alt = host + "/?p=" + repo + ".git;a=log"
			}
		case 1:
			u = fmt.Sprintf("%s/%s/log/?h=%s&ofs=%d", host, repo, branch, 50*pg)
			if pg == 0 {
				alt = host + "/" + repo + "/log/"
			}
			o := fmt.Sprintf("%s/%s/log/?h=%s&ofs=%d", host, repo, other, 50*pg)
			s.main(s.page(0.5), o)
			s.trap("branch-is-content", u, o, Rewrite{Op: DropParam, Arg: "h"})
		default:
			u = fmt.Sprintf("%s/timeline?n=50&y=ci&p=%d", host, pg)
			if pg == 0 {
				alt = host + "/timeline?n=50&y=ci"
			}
		}
		c := s.page(2)
		s.main(c, u)
		if alt != "" {
			s.add(c, alt, wAlias)
		}
		if prev != "" {
			s.trap("page-is-content", prev, u, Rewrite{Op: DropParam, Arg: [3]string{"pg", "ofs", "p"}[style]})
		}
		prev = u
	}
}
