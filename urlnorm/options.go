package urlnorm

import "strings"

// DefaultMaxLength is the input length cap used when Options.MaxLength is 0.
const DefaultMaxLength = 8 << 10

// ParamRule names a query parameter to remove. Names compare ASCII
// case-insensitively. It is a plain value; the zero value matches nothing
// and is skipped.
type ParamRule struct {
	// Name is the parameter name; a trailing '*' matches any suffix
	// ("utm_*" matches utm_source and utm_medium).
	Name string
	// IDValue restricts the rule to values that look like a session id: at
	// least 16 letters, digits, '-' or '_', with both a letter and a digit.
	// Use it for names that sites also use for content ("sid=42").
	IDValue bool
}

// Exception relaxes normalization on one host or on every host of one
// registrable domain, for sites where a generic rule removes something that
// names content (a "sid" parameter that is a story id). The zero value is
// invalid (NewOptions rejects it); NewOptions copies it.
type Exception struct {
	// Host is an exact host as Canonical prints it ("news.example.com").
	// Exactly one of Host and Domain is set.
	Host string
	// Domain is a registrable domain (public suffix plus one label, as
	// golang.org/x/net/publicsuffix computes it, "example.co.uk"); the
	// exception applies to it and to every host under it.
	Domain string
	// Keep lists parameter names (case-insensitive, exact) that are never
	// removed on these hosts.
	Keep []string
	// Clear lists flags turned off on these hosts.
	Clear Flags
}

// Options holds the settings that are values rather than on/off flags. The
// zero value means the defaults. NewOptions copies what it needs and does not
// modify it, so the caller may reuse or change an Options after the call.
type Options struct {
	// SessionParams lists the session-id parameters DropSessionIDs removes;
	// nil means DefaultSessionParams, an empty non-nil slice means none.
	SessionParams []ParamRule
	// TrackingParams lists the parameters DropTracking removes; nil means
	// DefaultTrackingParams.
	TrackingParams []ParamRule
	// IndexFiles lists the file names DropIndex removes (case-insensitive);
	// nil means DefaultIndexFiles.
	IndexFiles []string
	// Exceptions relax normalization per host or registrable domain. A Host
	// exception wins over a Domain exception for the same host.
	Exceptions []Exception
	// MaxLength caps the length in bytes of the input and of the result; 0
	// means DefaultMaxLength. Longer input, or input whose escaped result
	// would be longer, fails with ErrTooLong.
	MaxLength int
}

// DefaultSessionParams returns the session-id parameters removed by default:
// Java (jsessionid), PHP (phpsessid), classic ASP (ASPSESSIONIDxxxxxxxx),
// ColdFusion (cfid, cftoken) and generic sid/sessionid/session_id/sessid with
// an id-like value. It returns a new slice on each call.
func DefaultSessionParams() []ParamRule {
	return []ParamRule{
		{Name: "jsessionid"},
		{Name: "phpsessid"},
		{Name: "aspsessionid*"},
		{Name: "cfid"},
		{Name: "cftoken"},
		{Name: "sid", IDValue: true},
		{Name: "sessionid", IDValue: true},
		{Name: "session_id", IDValue: true},
		{Name: "sessid", IDValue: true},
	}
}

// DefaultTrackingParams returns the click and campaign tracking parameters
// removed by default (Google, Meta, Microsoft, Mailchimp, HubSpot, Marketo and
// others). It returns a new slice on each call.
func DefaultTrackingParams() []ParamRule {
	names := []string{
		"utm_*", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "fbclid",
		"msclkid", "yclid", "twclid", "ttclid", "igshid", "li_fat_id",
		"mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok",
		"oly_anon_id", "oly_enc_id", "vero_id", "rb_clickid", "s_cid",
		"srsltid", "_openstat", "zanpid",
	}
	r := make([]ParamRule, len(names))
	for i, n := range names {
		r[i] = ParamRule{Name: n}
	}
	return r
}

// DefaultIndexFiles returns the directory index file names removed by default.
// It returns a new slice on each call.
func DefaultIndexFiles() []string {
	return []string{
		"index.html", "index.htm", "index.shtml", "index.php", "index.asp",
		"index.aspx", "index.jsp", "index.cfm", "index.cgi",
		"default.html", "default.htm", "default.asp", "default.aspx",
		"home.html", "home.htm",
	}
}

// ruleSet is a compiled list of parameter rules, grouped by the first
// letter of their names: a parameter is compared only with the rules of its
// first byte's group, and most are rejected with one table lookup.
type ruleSet struct {
	rules []paramRule
	// group[c] is 1 + the index in groups of the rules a name starting with
	// byte c can match (names starting with c in lower case, and prefix rules
	// with an empty name), 0 for none.
	group  [256]uint16
	groups [][]paramRule
	// lens[c] has bit min(n, 63) set if a name of n bytes starting with
	// byte c may match a rule: one of its group of that length, or a prefix
	// rule no longer. A lookup rejects most names that share a first letter
	// with a rule without a call.
	lens [256]uint64
}

// mayMatch reports whether a name of n bytes (n > 0) starting with byte c
// may match one of set's rules; matchParam decides.
func (set *ruleSet) mayMatch(c byte, n int) bool {
	return set.lens[c]>>min(n, 63)&1 != 0
}

type paramRule struct {
	name    string // lower-case, without the '*'
	prefix  bool
	idValue bool
}

type exception struct {
	keep  []string // lower-case
	clear Flags
}

func compileRules(rs []ParamRule) *ruleSet {
	set := &ruleSet{}
	out := make([]paramRule, 0, len(rs))
	for _, r := range rs {
		name := strings.ToLower(r.Name)
		prefix := strings.HasSuffix(name, "*")
		if prefix {
			name = name[:len(name)-1]
		}
		if name == "" && !prefix {
			continue
		}
		out = append(out, paramRule{name: name, prefix: prefix, idValue: r.IDValue})
	}
	set.rules = out
	for c := range 256 {
		lc := byte(c)
		if 'A' <= lc && lc <= 'Z' {
			continue // shares the group of its lower-case letter
		}
		var g []paramRule
		for _, r := range out {
			if r.name == "" || r.name[0] == lc {
				g = append(g, r)
			}
		}
		if g == nil {
			continue
		}
		set.groups = append(set.groups, g)
		set.group[lc] = uint16(len(set.groups))
		var lens uint64
		for _, r := range g {
			if r.prefix {
				lens |= ^uint64(0) << min(len(r.name), 63)
			} else {
				lens |= 1 << min(len(r.name), 63)
			}
		}
		set.lens[lc] = lens
		if 'a' <= lc && lc <= 'z' {
			set.group[lc-'a'+'A'] = uint16(len(set.groups))
			set.lens[lc-'a'+'A'] = lens
		}
	}
	return set
}

func compileException(e Exception) *exception {
	x := &exception{clear: e.Clear}
	for _, k := range e.Keep {
		x.keep = append(x.keep, strings.ToLower(k))
	}
	return x
}

// lookupException returns the exception for a canonical host, or nil: an
// exact Host exception, else the Domain exception of the longest suffix of
// the host that has one. Map lookups with string(b) keys do not allocate.
func (n *Normalizer) lookupException(host []byte) *exception {
	if x, ok := n.hostEx[string(host)]; ok {
		return x
	}
	if len(n.domainEx) == 0 || len(host) == 0 || host[0] == '[' {
		return nil
	}
	for i := 0; i < len(host); i++ {
		if i == 0 || host[i-1] == '.' {
			if x, ok := n.domainEx[string(host[i:])]; ok {
				return x
			}
		}
	}
	return nil
}

func (x *exception) keeps(name []byte) bool {
	if x == nil {
		return false
	}
	for _, k := range x.keep {
		if equalFoldASCII(name, k) {
			return true
		}
	}
	return false
}

// matchParam reports whether a parameter (name and value as they appear in
// the normalized query) matches one of rs.
func matchParam(set *ruleSet, name, value []byte) bool {
	if len(name) == 0 {
		return false
	}
	g := set.group[name[0]]
	if g == 0 {
		return false
	}
	rs := set.groups[g-1]
	for i := range rs {
		r := &rs[i]
		if r.prefix {
			if len(name) < len(r.name) || !equalFoldASCII(name[:len(r.name)], r.name) {
				continue
			}
		} else if len(name) != len(r.name) || !equalFoldASCII(name, r.name) {
			continue
		}
		if r.idValue && !looksLikeID(value) {
			continue
		}
		return true
	}
	return false
}

// looksLikeID reports whether v looks like a generated session id rather
// than a content id: 16 or more of [A-Za-z0-9_-] with a letter and a digit.
func looksLikeID(v []byte) bool {
	if len(v) < 16 {
		return false
	}
	var letter, digit bool
	for _, c := range v {
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			letter = true
		case c == '-' || c == '_':
		default:
			return false
		}
	}
	return letter && digit
}

// equalFoldASCII compares b with the lower-case ASCII string s, ignoring
// ASCII case in b.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
