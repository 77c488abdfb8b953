package rules

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/internal/ablate"
	"github.com/undust/undust/urlnorm"
	"golang.org/x/net/publicsuffix"
)

// A Scope names the hosts a rule applies to: one exact host, or (Domain set) every host whose
// registrable domain is Host, Host itself included ("example.com" covers "www.example.com" and
// "m.shop.example.com"), or (Host [AllHosts], "*") every host: a rule widened beyond the sites
// it was learned on. Host is written as in a canonical URL: lower case, punycode, no port.
// A Scope is a plain value, safe to copy and share; the zero Scope is invalid (Validate rejects
// it).
type Scope struct {
	Host   string
	Domain bool
}

// AllHosts is the Host of a Scope that covers every host.
const AllHosts = "*"

// Covers reports whether a URL with host h is in the scope.
func (s Scope) Covers(h string) bool {
	if h == s.Host || s.Host == AllHosts && !s.Domain {
		return true
	}
	return s.Domain && len(h) > len(s.Host) && strings.HasSuffix(h, s.Host) && h[len(h)-len(s.Host)-1] == '.'
}

// CondOp says what a [Condition] asks of the value of its key. Its zero value is invalid.
type CondOp uint8

// The condition operators. The paper's context maps a key to a value or the wildcard "*"; Absent
// adds the paper's ⊥ (a key not present in the URL) so that a learned context can say "no
// such parameter".
const (
	Equal  CondOp = iota + 1 // the key is present with exactly Value
	Any                      // the key is present, with any value (the wildcard "*")
	Absent                   // the key is not present (⊥)
)

// A Condition is one entry of a rule's context: a key and what its value must be. It is a plain
// value, safe to copy and share; the zero Condition is invalid (no part, no op).
type Condition struct {
	Key   urlnorm.Key
	Op    CondOp
	Value string // for Equal
}

// A Context is the conjunction of its conditions (Koppula et al., Definition 2: C: K -> V ∪ {*}).
// Keys it does not name may have any value or be absent. A nil Context matches every URL of the
// rule's scope. NewSet copies it (and puts its Equal conditions first in the copy).
type Context []Condition

// ActOp says what an [Action] does to the value of its key. Its zero value is invalid.
type ActOp uint8

// The transformation operators (Koppula et al., Definition 2: T: K -> V ∪ {⊥, K'}). Keys that
// no action names are kept as they are, which is how a generalized key passes its wildcard
// value through.
const (
	Assign  ActOp = iota + 1 // the key gets the literal Value; it is added if absent
	Delete                   // the key is removed (⊥)
	Copy                     // the key gets the value of the key From of the same URL, converted by Conv; added if absent
	Convert                  // the key's own value is converted by Conv in place; on the whole path, every segment
)

// A Conversion is a value conversion applied to the value that a [Copy] action takes or that a
// [Convert] action converts in place: one of the constants below or a [Prefix]. The zero value
// is NoConversion.
type Conversion uint8

// The value conversions. The paper also lists Encode and Decode; percent-encoding is settled
// by the canonicalizer that every rewritten URL goes through, so they are left out.
const (
	NoConversion Conversion = iota
	Lower                   // "Recipe" -> "recipe" (ASCII letters only)
	Upper                   // "Recipe" -> "RECIPE" (ASCII letters only)
	LowerFirst              // "Main_Page" -> "main_Page": the first byte only, if an ASCII letter
	UpperFirst              // "main_Page" -> "Main_Page": the wiki first-letter case
	// Head keeps a value's leading run of ASCII letters and digits, and cuts the rest from the
	// first other byte on: "5000-stone-ember" -> "5000", "12:welcome" -> "12". A value that
	// starts with another byte, or has none, is kept as it is. It is for applications that
	// name a record by its id and a decoration that they ignore, a slug or an alias (a
	// thread's /threads/5000-stone-ember and /threads/5000, an article's id=12:welcome and
	// id=12): the slug varies with every record, so no literal or deep token writes the id.
	Head
)

// MaxPrefix is the longest prefix a [Prefix] conversion keeps: 128 bytes, a SHA-512 in hex.
const MaxPrefix = 128

// prefixBase is the Conversion of Prefix(1), minus one: prefixes take the upper half of the
// values, so that a Prefix fits an Action's Conv as the case conversions do.
const prefixBase = 127

// Prefix returns the conversion that keeps the first n bytes of a value: a longer value is cut
// to n bytes, a value of n bytes or fewer is kept as it is. It is for content-addressed stores
// (the web front-ends of version-control systems) that link one object by abbreviations of
// its hash of different lengths: Prefix(16) makes "bb8308f9454618b1c3689c6b" and
// "bb8308f9454618b1" one value. Prefix panics unless 1 <= n <= MaxPrefix.
func Prefix(n int) Conversion {
	if n < 1 || n > MaxPrefix {
		panic("rules: Prefix(" + strconv.Itoa(n) + ") not in [1, MaxPrefix]")
	}
	return Conversion(prefixBase + n)
}

// PrefixLen returns n if c is Prefix(n), and 0 otherwise.
func (c Conversion) PrefixLen() int {
	if c > prefixBase {
		return int(c) - prefixBase
	}
	return 0
}

// valid reports whether c is NoConversion, a case conversion, Head or a Prefix.
func (c Conversion) valid() bool {
	return c <= Head || c > prefixBase
}

// Apply returns v converted by c, as a rule's action converts it; an invalid c leaves v as it
// is.
func (c Conversion) Apply(v string) string { return c.convert(v) }

// cuts reports whether c keeps a part of a value rather than changing its bytes: Head or a
// Prefix.
func (c Conversion) cuts() bool { return c == Head || c.PrefixLen() > 0 }

// headLen returns the length of v's leading run of ASCII letters and digits, or len(v) if it
// is empty or the whole value (see Head).
func headLen(v string) int {
	for i := 0; i < len(v); i++ {
		if b := v[i] | 0x20; ('a' <= b && b <= 'z') || ('0' <= v[i] && v[i] <= '9') {
			continue
		}
		if i == 0 {
			return len(v)
		}
		return i
	}
	return len(v)
}

// convert applies c to v.
func (c Conversion) convert(v string) string {
	if n := c.PrefixLen(); n > 0 && len(v) > n {
		return v[:n]
	}
	switch c {
	case Head:
		return v[:headLen(v)]
	case Lower:
		return lowerASCII(v)
	case Upper:
		return upperASCII(v)
	case LowerFirst:
		if v != "" && 'A' <= v[0] && v[0] <= 'Z' {
			return string(v[0]+'a'-'A') + v[1:]
		}
	case UpperFirst:
		if v != "" && 'a' <= v[0] && v[0] <= 'z' {
			return string(v[0]-'a'+'A') + v[1:]
		}
	}
	return v
}

// An Action is one entry of a rule's transformation. It is a plain value, safe to copy and
// share; the zero Action is invalid.
//
// Assigning or copying to a key the URL lacks adds it: a query parameter is appended; a path
// segment with Pos p is inserted before the segment now at position p (so it lands at p), one
// with only RPos r is inserted so that r-1 of the URL's segments follow it, and past the end it
// is appended. Positions always count the segments of the URL before the rewrite. An Assign or
// Copy to a path key with Insert set always inserts a new segment at that place, even where the
// URL has a segment at the key: path(-,1)+="" appends an empty segment (a trailing slash), and
// path(2,-)="a" with path(3,-)+="b" replaces segment 2 by two segments, and so does
// path(-,1)="a" with path(-,1)+="b" at the end. Several insertions at one place keep their order
// in the transformation. An action on a
// whole token (Sub and RSub 0) that the host's deep-token patterns split replaces or deletes all
// its deep tokens; deleting a deep token empties it (it keeps its place).
//
// A Convert on the whole path (Key{Part: urlnorm.PartPath}, no position) converts every path
// segment before the other actions apply, and Copy actions whose From is a path key read the
// converted segment; it is the only action whose key has no position. A Convert on any other
// key converts that token in place, like a Copy from itself.
type Action struct {
	Key    urlnorm.Key
	Op     ActOp
	Value  string      // for Assign
	From   urlnorm.Key // for Copy: the key whose value is taken (the paper's key reference)
	Conv   Conversion  // for Copy (optional) and Convert (required)
	Insert bool        // for Assign and Copy to a path key: insert a new segment
}

// wholePath is the key of a Convert on every path segment.
var wholePath = urlnorm.Key{Part: urlnorm.PartPath}

// A Transformation is a rule's list of actions, applied together: every Copy reads the URL as it
// was before the rule, so the order of actions does not change the result, except that insertions
// at one place keep their order. A rule needs at least one action; NewSet copies the slice.
type Transformation []Action

// Stats are a rule's statistics from learning (Koppula et al. §5): they order rules that match
// the same URL and travel with the rule in the file. A plain value; the zero Stats are valid.
type Stats struct {
	Coverage  int     // URLs of the training set the rule applied to
	Precision float64 // fraction of those it rewrote without a false merge, in [0, 1]
	Support   int     // dup clusters (or pairwise rules, or sites) that support the rule
}

// A Rule rewrites URLs of its scope that its context matches by its transformation (Koppula et
// al., Definition 2). A Rule is a plain value: build it with a composite literal. The zero Rule
// is invalid. A Rule is safe for concurrent reads; NewSet copies it, and nothing in this package
// mutates a Rule it is given.
type Rule struct {
	Scope     Scope
	Context   Context
	Transform Transformation
	Stats     Stats
}

// Literals returns the number of Equal and Absent conditions of the rule's context: its
// specificity.
func (r *Rule) Literals() int {
	n := 0
	for _, c := range r.Context {
		if c.Op != Any {
			n++
		}
	}
	return n
}

// Validate reports whether the rule is well formed; the error wraps ErrInvalidRule.
// A rule must have a scope and at least one action; every key must address a token
// (a path key gives Pos, RPos or both; a query key has a Name and no RPos; other parts have no
// positions); no key may appear twice in the context, nor in two actions of the transformation
// that are not insertions; only a Convert may name the whole path, and not with a Prefix;
// a conversion is one of the constants or a Prefix; the scheme and host
// cannot be deleted or set to ""; a Domain scope must be a registrable domain.
func (r *Rule) Validate() error {
	if err := r.Scope.validate(); err != nil {
		return err
	}
	if len(r.Transform) == 0 {
		return invalid("empty transformation")
	}
	if p := r.Stats.Precision; !(p >= 0 && p <= 1) {
		return invalid("precision " + strconv.FormatFloat(p, 'g', -1, 64) + " not in [0, 1]")
	}
	if r.Stats.Coverage < 0 || r.Stats.Support < 0 {
		return invalid("negative coverage or support")
	}
	var seen keySet
	for i, c := range r.Context {
		if err := validKey(c.Key); err != nil {
			return err
		}
		if c.Op < Equal || c.Op > Absent {
			return invalid("condition op " + strconv.Itoa(int(c.Op)))
		}
		if c.Op != Equal && c.Value != "" {
			return invalid("value on a non-Equal condition of " + keyText(c.Key))
		}
		if dup(&seen, r.Context[:i], c.Key, func(d *Condition) (urlnorm.Key, bool) { return d.Key, true }) {
			return invalid("two conditions on " + keyText(c.Key))
		}
	}
	seen = keySet{}
	for i, a := range r.Transform {
		if a.Op != Convert || a.Key != wholePath {
			if err := validKey(a.Key); err != nil {
				return err
			}
		}
		if a.Insert && (a.Op != Assign && a.Op != Copy || a.Key.Part != urlnorm.PartPath || a.Key.Sub != 0 || a.Key.RSub != 0) {
			return invalid("insert on " + keyText(a.Key) + ": only an Assign or Copy to a whole path segment inserts")
		}
		switch a.Op {
		case Assign:
			if a.From != (urlnorm.Key{}) || a.Conv != NoConversion {
				return invalid("reference on an Assign to " + keyText(a.Key))
			}
			if a.Value == "" && (a.Key.Part == urlnorm.PartScheme || a.Key.Part == urlnorm.PartHost) {
				return invalid("empty " + a.Key.Part.String())
			}
		case Delete:
			if a.Value != "" || a.From != (urlnorm.Key{}) || a.Conv != NoConversion {
				return invalid("value on a Delete of " + keyText(a.Key))
			}
			if a.Key.Part == urlnorm.PartScheme || a.Key.Part == urlnorm.PartHost {
				return invalid("delete of " + a.Key.Part.String())
			}
		case Copy:
			if a.Value != "" {
				return invalid("value on a Copy to " + keyText(a.Key))
			}
			if err := validKey(a.From); err != nil {
				return err
			}
			if !a.Conv.valid() {
				return invalid("conversion " + strconv.Itoa(int(a.Conv)))
			}
		case Convert:
			if a.Value != "" || a.From != (urlnorm.Key{}) {
				return invalid("value on a Convert of " + keyText(a.Key))
			}
			if a.Conv == NoConversion || !a.Conv.valid() {
				return invalid("conversion " + strconv.Itoa(int(a.Conv)) + " on a Convert of " + keyText(a.Key))
			}
			if a.Key == wholePath && a.Conv.cuts() {
				return invalid("head or prefix conversion of the whole path")
			}
		default:
			return invalid("action op " + strconv.Itoa(int(a.Op)))
		}
		if !a.Insert && dup(&seen, r.Transform[:i], a.Key, func(b *Action) (urlnorm.Key, bool) { return b.Key, !b.Insert }) {
			return invalid("two actions on " + keyText(a.Key))
		}
	}
	return nil
}

// A keySet answers whether a key occurs among the items before the i-th of a list, for the
// checks of Validate: by a scan while the list is short, by a map of the items' keys after
// that, so that a rule of n conditions costs O(n), not O(n²), to validate.
type keySet struct {
	m map[urlnorm.Key]struct{}
	n int // the items of before[:n] are in m
}

// dup reports whether k is the key of one of before, as key gives it (and whether the item
// counts); before only grows from call to call.
func dup[T any](ks *keySet, before []T, k urlnorm.Key, key func(*T) (urlnorm.Key, bool)) bool {
	const short = 16
	if len(before) < short {
		for i := range before {
			if bk, ok := key(&before[i]); ok && bk == k {
				return true
			}
		}
		return false
	}
	if ks.m == nil {
		ks.m = make(map[urlnorm.Key]struct{}, 2*short)
	}
	for ; ks.n < len(before); ks.n++ {
		if bk, ok := key(&before[ks.n]); ok {
			ks.m[bk] = struct{}{}
		}
	}
	_, found := ks.m[k]
	return found
}

func (s Scope) validate() error {
	if s.Host == "" {
		return invalid("empty host scope")
	}
	if s.Host == AllHosts && !s.Domain {
		return nil
	}
	for i := 0; i < len(s.Host); i++ {
		if c := s.Host[i]; c <= ' ' || c >= 0x7f || c == '/' || c == '?' || c == '#' || c == '"' || ('A' <= c && c <= 'Z') {
			return invalid("host scope " + strconv.Quote(s.Host) + " not a canonical host")
		}
	}
	if s.Domain {
		d, err := publicsuffix.EffectiveTLDPlusOne(s.Host)
		if err != nil || d != s.Host {
			return invalid("domain scope " + strconv.Quote(s.Host) + " not a registrable domain")
		}
	}
	return nil
}

func validKey(k urlnorm.Key) error {
	if k.Pos < 0 || k.RPos < 0 || k.Sub < 0 || k.RSub < 0 {
		return invalid("negative position in " + keyText(k))
	}
	switch k.Part {
	case urlnorm.PartPath:
		if k.Pos == 0 && k.RPos == 0 {
			return invalid("path key without a position")
		}
		if k.Name != "" {
			return invalid("path key with a name")
		}
	case urlnorm.PartQuery:
		if k.RPos != 0 {
			return invalid("query key " + keyText(k) + " with a position from the end")
		}
	case urlnorm.PartScheme, urlnorm.PartUserinfo, urlnorm.PartHost, urlnorm.PartPort, urlnorm.PartFragment:
		if k.Pos != 0 || k.RPos != 0 || k.Name != "" {
			return invalid(k.Part.String() + " key with a position or a name")
		}
	default:
		return invalid("key of unknown part " + strconv.Itoa(int(k.Part)))
	}
	return nil
}

// precedence orders rules that match one URL: the rule that applies first comes first. The
// most specific rule first: more literal conditions (Equal and Absent), then more conditions,
// then more Equal conditions (equalsFirst), then higher coverage, then higher precision, then
// higher support, then an exact-host scope before a domain scope before the every-host scope,
// then by content (compareContent), so that the order is total and does not depend on the order
// rules were given in. It is the order the learner of package learn measures its rules in.
func precedence(a, b *crule) int {
	// Early returns rather than cmp.Or, which would evaluate every comparison: sorting a large
	// set calls this often.
	if a.lits != b.lits {
		return cmp.Compare(b.lits, a.lits)
	}
	if len(a.Context) != len(b.Context) {
		return cmp.Compare(len(b.Context), len(a.Context))
	}
	if a.eqs != b.eqs {
		return cmp.Compare(b.eqs, a.eqs)
	}
	if a.Stats.Coverage != b.Stats.Coverage {
		return cmp.Compare(b.Stats.Coverage, a.Stats.Coverage)
	}
	if c := cmp.Compare(b.Stats.Precision, a.Stats.Precision); c != 0 {
		return c
	}
	if a.Stats.Support != b.Stats.Support {
		return cmp.Compare(b.Stats.Support, a.Stats.Support)
	}
	if c := cmp.Compare(scopeRank(a.Scope), scopeRank(b.Scope)); c != 0 {
		return c
	}
	return compareContent(&a.Rule, &b.Rule)
}

// equalsFirst returns the number of Equal conditions of r's context, which precedence compares
// after the literal conditions and the conditions: of two rules as specific, the one that names
// a value the URL has applies before the one that names a key the URL lacks. A general rule
// carved out by an absence (index.php?title=T&action absent: the page /wiki/T) and a rule
// learned from the URLs with a value (title=T&printable=yes: the page too, printable deleted)
// both match index.php?title=T&printable=yes; coverage, the next tie-breaker, would pick the
// general rule, which leaves printable=yes in the key, and no rule is left to delete it. With
// ablate.NoEqualsFirst it is 0 for every rule.
func equalsFirst(r *Rule) int {
	if ablate.NoEqualsFirst {
		return 0
	}
	n := 0
	for _, c := range r.Context {
		if c.Op == Equal {
			n++
		}
	}
	return n
}

// scopeRank is 0 for an exact host, 1 for a domain, 2 for every host.
func scopeRank(s Scope) int {
	switch {
	case s.Domain:
		return 1
	case s.Host == AllHosts:
		return 2
	}
	return 0
}

// compareContent orders rules by scope, context and transformation, ignoring statistics; it is 0
// for rules that rewrite alike.
func compareContent(a, b *Rule) int {
	if c := strings.Compare(a.Scope.Host, b.Scope.Host); c != 0 {
		return c
	}
	if a.Scope.Domain != b.Scope.Domain {
		return cmp.Compare(boolInt(a.Scope.Domain), boolInt(b.Scope.Domain))
	}
	if c := slices.CompareFunc(a.Context, b.Context, compareCondition); c != 0 {
		return c
	}
	return slices.CompareFunc(a.Transform, b.Transform, compareAction)
}

func compareCondition(x, y Condition) int {
	if c := compareKey(x.Key, y.Key); c != 0 {
		return c
	}
	if x.Op != y.Op {
		return cmp.Compare(x.Op, y.Op)
	}
	return strings.Compare(x.Value, y.Value)
}

func compareAction(x, y Action) int {
	if c := compareKey(x.Key, y.Key); c != 0 {
		return c
	}
	if x.Op != y.Op {
		return cmp.Compare(x.Op, y.Op)
	}
	if c := strings.Compare(x.Value, y.Value); c != 0 {
		return c
	}
	if c := compareKey(x.From, y.From); c != 0 {
		return c
	}
	if x.Conv != y.Conv {
		return cmp.Compare(x.Conv, y.Conv)
	}
	return cmp.Compare(boolInt(x.Insert), boolInt(y.Insert))
}

// hashContent hashes what compareContent compares: rules of equal content hash alike. It
// mixes fixed-size fields directly and hashes only strings, which makes it cheap enough for
// finding the twins of a large set.
func hashContent(seed maphash.Seed, r *Rule) uint64 {
	h := maphash.String(seed, r.Scope.Host) ^ uint64(boolInt(r.Scope.Domain))
	mix := func(x uint64) {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	key := func(k urlnorm.Key) {
		mix(uint64(k.Part) | uint64(uint16(k.Pos))<<8 | uint64(uint16(k.RPos))<<24 | uint64(uint16(k.Sub))<<40)
		mix(uint64(uint16(k.RSub)))
		if k.Name != "" {
			mix(maphash.String(seed, k.Name))
		}
	}
	for i := range r.Context {
		c := &r.Context[i]
		key(c.Key)
		mix(uint64(c.Op))
		if c.Value != "" {
			mix(maphash.String(seed, c.Value))
		}
	}
	mix(0xff)
	for i := range r.Transform {
		a := &r.Transform[i]
		key(a.Key)
		mix(uint64(a.Op) | uint64(a.Conv)<<8 | uint64(boolInt(a.Insert))<<16)
		if a.Value != "" {
			mix(maphash.String(seed, a.Value))
		}
		if a.Op == Copy {
			key(a.From)
		}
	}
	return h
}

func compareKey(a, b urlnorm.Key) int {
	switch {
	case a.Part != b.Part:
		return cmp.Compare(a.Part, b.Part)
	case a.Pos != b.Pos:
		return cmp.Compare(a.Pos, b.Pos)
	case a.RPos != b.RPos:
		return cmp.Compare(a.RPos, b.RPos)
	case a.Sub != b.Sub:
		return cmp.Compare(a.Sub, b.Sub)
	case a.RSub != b.RSub:
		return cmp.Compare(a.RSub, b.RSub)
	}
	return strings.Compare(a.Name, b.Name)
}

// clone returns a copy of r that shares no slice with it.
func (r *Rule) clone() Rule {
	c := *r
	c.Context = append(Context(nil), r.Context...)
	c.Transform = append(Transformation(nil), r.Transform...)
	return c
}
