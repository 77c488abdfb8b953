package sitefamily

import (
	"strconv"
	"strings"
)

// An Op is the shape of a naive rewrite rule.
type Op uint8

// The naive rule shapes that traps defeat.
const (
	// DropParam deletes every query parameter named Arg: ?f=2&t=7 -> ?t=7.
	DropParam Op = iota + 1
	// SetSegment replaces path segment number Index (0 is the first) by "*", whatever it was:
	// one literal segment (a version, a date) mapped onto another.
	SetSegment
	// DropSegment deletes path segment number Index if the path has it and it is not empty:
	// /t/x/7/print -> /t/x/7, /2009/05/x/feed/ -> /2009/05/x/.
	DropSegment
	// CutSuffix cuts the last path segment at its last "-": /ann/photo-x7Kq -> /ann/photo.
	CutSuffix
	// LowerPath lowercases the path: /Docs/FAQ.html -> /docs/faq.html.
	LowerPath
	// StripIndex deletes a last segment index.* or default.* and then a trailing slash:
	// /dir/index.html -> /dir, /setup/ -> /setup.
	StripIndex
	// ReplacePrefix replaces the URL's prefix Arg by To: a host or mirror tree mapped onto
	// another.
	ReplacePrefix
)

var opNames = []string{DropParam: "drop-param", SetSegment: "set-segment", DropSegment: "drop-segment", CutSuffix: "cut-suffix",
	LowerPath: "lower-path", StripIndex: "strip-index", ReplacePrefix: "replace-prefix"}

// A Rewrite is a naive rule: one that a learner could draw from the duplicates of a family and
// that maps both URLs of a trap to one URL. It is a plain value.
type Rewrite struct {
	Op    Op
	Arg   string // DropParam: the parameter; ReplacePrefix: the prefix replaced
	To    string // ReplacePrefix: the new prefix
	Index int    // SetSegment, DropSegment: the segment
}

// String returns the rule as "drop-param f", "set-segment 1", "replace-prefix A B".
func (rw Rewrite) String() string {
	name := "op" + strconv.Itoa(int(rw.Op))
	if int(rw.Op) < len(opNames) && opNames[rw.Op] != "" {
		name = opNames[rw.Op]
	}
	switch rw.Op {
	case DropParam:
		return name + " " + rw.Arg
	case SetSegment, DropSegment:
		return name + " " + strconv.Itoa(rw.Index)
	case ReplacePrefix:
		return name + " " + rw.Arg + " " + rw.To
	}
	return name
}

// Apply rewrites the URL u by the rule. It works on the URL string (scheme://host, path,
// query, fragment) without escaping or unescaping anything.
func (rw Rewrite) Apply(u string) string {
	if rw.Op == ReplacePrefix {
		if rest, ok := strings.CutPrefix(u, rw.Arg); ok {
			return rw.To + rest
		}
		return u
	}
	frag := ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, frag = u[:i], u[i:]
	}
	query := ""
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u, query = u[:i], u[i:]
	}
	origin, path := u, ""
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			origin, path = u[:i+3+j], u[i+3+j:]
		}
	}
	switch rw.Op {
	case DropParam:
		if query != "" {
			var kept []string
			for _, kv := range strings.Split(query[1:], "&") {
				if name, _, _ := strings.Cut(kv, "="); name != rw.Arg {
					kept = append(kept, kv)
				}
			}
			query = ""
			if len(kept) > 0 {
				query = "?" + strings.Join(kept, "&")
			}
		}
	case SetSegment:
		segs := strings.Split(path, "/") // segs[0] is the empty string before the first "/"
		if rw.Index+1 < len(segs) {
			segs[rw.Index+1] = "*"
		}
		path = strings.Join(segs, "/")
	case DropSegment:
		segs := strings.Split(path, "/")
		if rw.Index+1 < len(segs) && segs[rw.Index+1] != "" {
			segs = append(segs[:rw.Index+1], segs[rw.Index+2:]...)
		}
		path = strings.Join(segs, "/")
	case CutSuffix:
		i := strings.LastIndexByte(path, '/')
		if j := strings.LastIndexByte(path, '-'); j > i {
			path = path[:j]
		}
	case LowerPath:
		path = strings.ToLower(path)
	case StripIndex:
		i := strings.LastIndexByte(path, '/')
		last := strings.ToLower(path[i+1:])
		if strings.HasPrefix(last, "index.") || strings.HasPrefix(last, "default.") {
			path = path[:i+1]
		}
		path = strings.TrimSuffix(path, "/")
	}
	return origin + path + query + frag
}

// A Trap is two URLs of different pages that look like duplicates: a naive rule maps them to
// one URL. It is a plain value.
type Trap struct {
	Family string
	Kind   string // what makes the pages differ, "changed-between-versions"
	A, B   string
	Naive  Rewrite
}
