package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// docSet is one line of the config: a set of HTML files of one generator.
type docSet struct {
	Name, Package, Version, Licence string
	Dir                             string
	Include                         []string // path.Match patterns; "!" excludes
	Host                            string
	Content                         selector
	Drop                            []selector
	Lang                            string
	Max                             int
}

// configColumns are the config's header, in order.
var configColumns = []string{"docset", "package", "version", "licence", "dir", "include", "host", "content", "drop", "lang", "max"}

// readConfig reads a doc set config file (see the command doc).
func readConfig(name string) ([]docSet, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("neardupbuild: %v", err)
	}
	return parseConfig(string(b), name, filepath.Dir(name))
}

// parseConfig parses the text of a config file; name is for messages, and
// relative dirs are taken relative to base.
func parseConfig(text, name, base string) ([]docSet, error) {
	var sets []docSet
	seen := map[string]bool{}
	header := false
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if !header {
			if strings.Join(f, "\t") != strings.Join(configColumns, "\t") {
				return nil, fmt.Errorf("neardupbuild: %s:%d: header %q, want %q", name, i+1, line, strings.Join(configColumns, "\t"))
			}
			header = true
			continue
		}
		if len(f) != len(configColumns) {
			return nil, fmt.Errorf("neardupbuild: %s:%d: %d columns, want %d", name, i+1, len(f), len(configColumns))
		}
		d := docSet{Name: f[0], Package: f[1], Version: f[2], Licence: f[3], Dir: f[4], Host: f[6], Lang: f[9]}
		if d.Name == "" || strings.ContainsAny(d.Name, " /:") {
			return nil, fmt.Errorf("neardupbuild: %s:%d: bad docset name %q", name, i+1, d.Name)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("neardupbuild: %s:%d: duplicate docset %q", name, i+1, d.Name)
		}
		seen[d.Name] = true
		if d.Dir == "" {
			return nil, fmt.Errorf("neardupbuild: %s:%d: empty dir", name, i+1)
		}
		if !filepath.IsAbs(d.Dir) {
			d.Dir = filepath.Join(base, d.Dir)
		}
		for _, p := range strings.Split(f[5], ",") {
			p = strings.TrimSpace(p)
			if _, err := path.Match(strings.TrimPrefix(p, "!"), ""); err != nil || p == "" || p == "!" {
				return nil, fmt.Errorf("neardupbuild: %s:%d: bad include pattern %q", name, i+1, p)
			}
			d.Include = append(d.Include, p)
		}
		if d.Host == "" || strings.ContainsAny(d.Host, "/ :") {
			return nil, fmt.Errorf("neardupbuild: %s:%d: bad host %q", name, i+1, d.Host)
		}
		var err error
		if d.Content, err = parseSelector(f[7]); err != nil {
			return nil, fmt.Errorf("neardupbuild: %s:%d: content: %v", name, i+1, err)
		}
		if f[8] != "-" && f[8] != "" {
			for _, s := range strings.Split(f[8], ",") {
				sel, err := parseSelector(strings.TrimSpace(s))
				if err != nil {
					return nil, fmt.Errorf("neardupbuild: %s:%d: drop: %v", name, i+1, err)
				}
				d.Drop = append(d.Drop, sel)
			}
		}
		if d.Lang == "" {
			return nil, fmt.Errorf("neardupbuild: %s:%d: empty lang", name, i+1)
		}
		n, err := strconv.Atoi(f[10])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("neardupbuild: %s:%d: bad max %q", name, i+1, f[10])
		}
		d.Max = n
		sets = append(sets, d)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("neardupbuild: %s: no doc sets", name)
	}
	return sets, nil
}

// included reports whether rel matches the doc set's include patterns:
// at least one plain pattern and no "!" pattern.
func (d *docSet) included(rel string) bool {
	in := false
	for _, p := range d.Include {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if m, _ := path.Match(neg, rel); m {
				return false
			}
			continue
		}
		if m, _ := path.Match(p, rel); m {
			in = true
		}
	}
	return in
}

// selector is a simple CSS selector: tag, tag.class, tag#id, .class or #id.
type selector struct {
	Tag, Class, ID string
}

func (s selector) String() string {
	switch {
	case s.Class != "":
		return s.Tag + "." + s.Class
	case s.ID != "":
		return s.Tag + "#" + s.ID
	}
	return s.Tag
}

// parseSelector parses a simple selector.
func parseSelector(s string) (selector, error) {
	var sel selector
	rest := s
	if i := strings.IndexAny(s, ".#"); i >= 0 {
		sel.Tag, rest = s[:i], s[i:]
		if rest[0] == '.' {
			sel.Class = rest[1:]
		} else {
			sel.ID = rest[1:]
		}
		if rest[1:] == "" {
			return sel, fmt.Errorf("bad selector %q", s)
		}
	} else {
		sel.Tag = s
	}
	for _, part := range []string{sel.Tag, sel.Class, sel.ID} {
		for _, r := range part {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return sel, fmt.Errorf("bad selector %q", s)
			}
		}
	}
	if sel == (selector{}) {
		return sel, fmt.Errorf("bad selector %q", s)
	}
	sel.Tag = strings.ToLower(sel.Tag)
	return sel, nil
}

// matches reports whether element n matches s.
func (s selector) matches(n *html.Node) bool {
	if n.Type != html.ElementNode || s.Tag != "" && n.Data != s.Tag {
		return false
	}
	if s.ID != "" && attr(n, "id") != s.ID {
		return false
	}
	if s.Class != "" {
		for _, c := range strings.Fields(attr(n, "class")) {
			if c == s.Class {
				return true
			}
		}
		return false
	}
	return true
}

// attr returns the value of n's attribute key.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// find returns the first element under n (n included) that matches s.
func find(n *html.Node, s selector) *html.Node {
	if s.matches(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := find(c, s); m != nil {
			return m
		}
	}
	return nil
}

// findAll returns every element under n (n included) that matches s,
// outermost only.
func findAll(n *html.Node, s selector, out []*html.Node) []*html.Node {
	if s.matches(n) {
		return append(out, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = findAll(c, s, out)
	}
	return out
}
