package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// The text form of keys, conditions, actions and rules, used by the file format and by
// Rule.String. Keys follow the paper's notation, with query names quoted so that any name
// survives: scheme, host, path(2,-), path(-,1), path(3.2,1.1) (deep token 2 of segment 3),
// query("id"), query("id",2) (its second occurrence), query("id")[2,-] (a deep token of its
// value).

var partByName = map[string]urlnorm.Part{
	"scheme": urlnorm.PartScheme, "userinfo": urlnorm.PartUserinfo, "host": urlnorm.PartHost,
	"port": urlnorm.PartPort, "path": urlnorm.PartPath, "query": urlnorm.PartQuery,
	"fragment": urlnorm.PartFragment,
}

func keyText(k urlnorm.Key) string { return string(appendKey(nil, k)) }

func appendKey(b []byte, k urlnorm.Key) []byte {
	b = append(b, k.Part.String()...)
	switch k.Part {
	case urlnorm.PartPath:
		b = append(b, '(')
		b = appendPos(b, k.Pos, k.Sub)
		b = append(b, ',')
		b = appendPos(b, k.RPos, k.RSub)
		return append(b, ')')
	case urlnorm.PartQuery:
		b = append(b, '(')
		b = strconv.AppendQuote(b, k.Name)
		if k.Pos > 1 {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(k.Pos), 10)
		}
		b = append(b, ')')
	}
	if k.Sub != 0 || k.RSub != 0 {
		b = append(b, '[')
		b = appendPos(b, k.Sub, 0)
		b = append(b, ',')
		b = appendPos(b, k.RSub, 0)
		b = append(b, ']')
	}
	return b
}

func appendPos(b []byte, pos, sub int16) []byte {
	if pos == 0 {
		b = append(b, '-')
	} else {
		b = strconv.AppendInt(b, int64(pos), 10)
	}
	if sub != 0 {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(sub), 10)
	}
	return b
}

// AppendText appends the rule's line in the file format (without "rule " and without a newline):
//
//	host=www.imdb.com cov=120 prec=1 sup=4 if path(1,-)="title" path(2,-)=* path(-,1)="photogallery" then path(-,1)="mediaindex"
//
// An action is KEY="literal" (Assign), KEY=- (Delete), KEY=@FROM or KEY=CONV(@FROM) (Copy) or
// KEY=CONV (Convert), with "+=" for an insertion; CONV is lower, upper, lowerfirst,
// upperfirst, head, or prefix and a length from 1 to MaxPrefix without leading zeros
// (prefix16).
func (r *Rule) AppendText(b []byte) []byte {
	if r.Scope.Domain {
		b = append(b, "domain="...)
	} else {
		b = append(b, "host="...)
	}
	b = append(b, r.Scope.Host...)
	b = append(b, " cov="...)
	b = strconv.AppendInt(b, int64(r.Stats.Coverage), 10)
	b = append(b, " prec="...)
	b = strconv.AppendFloat(b, r.Stats.Precision, 'g', -1, 64)
	b = append(b, " sup="...)
	b = strconv.AppendInt(b, int64(r.Stats.Support), 10)
	b = append(b, " if"...)
	for _, c := range r.Context {
		b = append(b, ' ')
		b = appendKey(b, c.Key)
		b = append(b, '=')
		switch c.Op {
		case Equal:
			b = strconv.AppendQuote(b, c.Value)
		case Any:
			b = append(b, '*')
		case Absent:
			b = append(b, '-')
		default:
			b = append(b, '?')
		}
	}
	b = append(b, " then"...)
	for _, a := range r.Transform {
		b = append(b, ' ')
		b = appendKey(b, a.Key)
		if a.Insert {
			b = append(b, '+')
		}
		b = append(b, '=')
		switch a.Op {
		case Assign:
			b = strconv.AppendQuote(b, a.Value)
		case Delete:
			b = append(b, '-')
		case Convert:
			b = appendConv(b, a.Conv)
		case Copy:
			if a.Conv != NoConversion {
				b = appendConv(b, a.Conv)
				b = append(b, '(')
			}
			b = append(b, '@')
			b = appendKey(b, a.From)
			if a.Conv != NoConversion {
				b = append(b, ')')
			}
		default:
			b = append(b, '?')
		}
	}
	return b
}

// String returns the rule's text form, as AppendText writes it.
func (r Rule) String() string { return string(r.AppendText(nil)) }

// ParseRule parses the text form of a rule that Rule.AppendText writes and validates the rule.
// Errors wrap ErrFormat or ErrInvalidRule.
func ParseRule(s string) (Rule, error) {
	p := parser{s: s}
	r := p.rule()
	if p.err != nil {
		return Rule{}, p.err
	}
	normalizeRule(&r)
	if err := r.Validate(); err != nil {
		return Rule{}, err
	}
	return r, nil
}

// parser is a cursor over one line; the first error sticks.
type parser struct {
	s   string
	i   int
	err error
	// conds and acts collect a rule's conditions and actions; the rule gets copies of exactly
	// their length, so a parser reused over many lines allocates each rule's slices once.
	conds []Condition
	acts  []Action
}

func (p *parser) fail(msg string) {
	if p.err == nil {
		p.err = malformed(msg + " at column " + strconv.Itoa(p.i+1))
	}
}

func (p *parser) eat(lit string) bool {
	if p.err == nil && strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return true
	}
	return false
}

func (p *parser) expect(lit string) {
	if !p.eat(lit) {
		p.fail("want " + strconv.Quote(lit))
	}
}

// word returns the text up to the next space or the end.
func (p *parser) word() string {
	j := strings.IndexByte(p.s[p.i:], ' ')
	if j < 0 {
		j = len(p.s) - p.i
	}
	w := p.s[p.i : p.i+j]
	p.i += j
	return w
}

func (p *parser) int(bits int) int64 {
	j := p.i
	for j < len(p.s) && '0' <= p.s[j] && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(p.s[p.i:j], 10, bits)
	if err != nil || n < 0 {
		p.fail("want a number")
		return 0
	}
	p.i = j
	return n
}

func (p *parser) quoted() string {
	if p.err != nil {
		return ""
	}
	// Fast path: a value of printable ASCII without a backslash is what it quotes, as
	// strconv.Unquote would say.
	if p.i < len(p.s) && p.s[p.i] == '"' {
		for j := p.i + 1; j < len(p.s); j++ {
			c := p.s[j]
			if c == '"' {
				v := p.s[p.i+1 : j]
				p.i = j + 1
				return v
			}
			if c == '\\' || c < ' ' || c > '~' {
				break
			}
		}
	}
	q, err := strconv.QuotedPrefix(p.s[p.i:])
	if err != nil || q[0] != '"' {
		p.fail("want a quoted string")
		return ""
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		p.fail("want a quoted string")
		return ""
	}
	p.i += len(q)
	return v
}

func (p *parser) pos() (pos, sub int16) {
	if !p.eat("-") {
		pos = int16(p.int(16))
		if pos == 0 {
			p.fail("position 0")
		}
	}
	if p.eat(".") {
		sub = int16(p.int(16))
		if sub == 0 {
			p.fail("deep-token index 0")
		}
	}
	return
}

// index parses a deep-token index in brackets: a number or "-".
func (p *parser) index() int16 {
	if p.eat("-") {
		return 0
	}
	n := int16(p.int(16))
	if n == 0 {
		p.fail("deep-token index 0")
	}
	return n
}

func (p *parser) key() urlnorm.Key {
	j := p.i
	for j < len(p.s) && 'a' <= p.s[j] && p.s[j] <= 'z' {
		j++
	}
	part, ok := partByName[p.s[p.i:j]]
	if !ok {
		p.fail("want a key")
		return urlnorm.Key{}
	}
	p.i = j
	k := urlnorm.Key{Part: part}
	switch part {
	case urlnorm.PartPath:
		p.expect("(")
		k.Pos, k.Sub = p.pos()
		p.expect(",")
		k.RPos, k.RSub = p.pos()
		p.expect(")")
		return k
	case urlnorm.PartQuery:
		p.expect("(")
		k.Name = p.quoted()
		k.Pos = 1
		if p.eat(",") {
			k.Pos = int16(p.int(16))
			if k.Pos < 2 {
				p.fail("occurrence below 2")
			}
		}
		p.expect(")")
	}
	if p.eat("[") {
		k.Sub = p.index()
		p.expect(",")
		k.RSub = p.index()
		p.expect("]")
		if k.Sub == 0 && k.RSub == 0 {
			p.fail("empty deep-token index")
		}
	}
	return k
}

func (p *parser) rule() Rule {
	var r Rule
	switch {
	case p.eat("host="):
	case p.eat("domain="):
		r.Scope.Domain = true
	default:
		p.fail("want host= or domain=")
	}
	r.Scope.Host = p.word()
	p.expect(" cov=")
	r.Stats.Coverage = int(p.int(63))
	p.expect(" prec=")
	w := p.word()
	if p.err == nil {
		f, err := strconv.ParseFloat(w, 64)
		if err != nil {
			p.fail("want a precision")
		}
		r.Stats.Precision = f
	}
	p.expect(" sup=")
	r.Stats.Support = int(p.int(63))
	p.expect(" if")
	p.conds, p.acts = p.conds[:0], p.acts[:0]
	for p.err == nil && !p.eat(" then") {
		p.expect(" ")
		c := Condition{Key: p.key()}
		p.expect("=")
		switch {
		case p.eat("*"):
			c.Op = Any
		case p.eat("-"):
			c.Op = Absent
		default:
			c.Op = Equal
			c.Value = p.quoted()
		}
		p.conds = append(p.conds, c)
	}
	for p.err == nil && p.i < len(p.s) {
		p.expect(" ")
		a := Action{Key: p.key()}
		a.Insert = p.eat("+")
		p.expect("=")
		switch {
		case p.eat("-"):
			a.Op = Delete
		case p.eat("@"):
			a.Op = Copy
			a.From = p.key()
		case p.i < len(p.s) && p.s[p.i] == '"':
			a.Op = Assign
			a.Value = p.quoted()
		default:
			a.Conv = p.conversion()
			if p.eat("(@") {
				a.Op = Copy
				a.From = p.key()
				p.expect(")")
			} else {
				a.Op = Convert
			}
		}
		p.acts = append(p.acts, a)
	}
	if len(p.conds) > 0 {
		r.Context = slices.Clone(p.conds)
	}
	if len(p.acts) > 0 {
		r.Transform = slices.Clone(p.acts)
	}
	return r
}

// convNames are the conversions' names in the text format; the last is for an invalid one.
var convNames = [...]string{Lower: "lower", Upper: "upper", LowerFirst: "lowerfirst", UpperFirst: "upperfirst", Head: "head", Head + 1: "?"}

// appendConv appends the name of conversion c: a case conversion's name, "prefix" and the
// length of a Prefix ("prefix16"), or "?" for an invalid one.
func appendConv(b []byte, c Conversion) []byte {
	if n := c.PrefixLen(); n > 0 {
		return strconv.AppendInt(append(b, "prefix"...), int64(n), 10)
	}
	return append(b, convNames[min(int(c), len(convNames)-1)]...)
}

// conversion reads a conversion's name.
func (p *parser) conversion() Conversion {
	j := p.i
	for j < len(p.s) && 'a' <= p.s[j] && p.s[j] <= 'z' {
		j++
	}
	w := p.s[p.i:j]
	if w == "prefix" {
		k := j
		for k < len(p.s) && '0' <= p.s[k] && p.s[k] <= '9' && k-j < 4 {
			k++
		}
		n, err := strconv.Atoi(p.s[j:k])
		if err != nil || p.s[j] == '0' || n > MaxPrefix {
			p.i = j
			p.fail("want a prefix length from 1 to " + strconv.Itoa(MaxPrefix) + " after \"prefix\"")
			return NoConversion
		}
		p.i = k
		return Prefix(n)
	}
	for c := Lower; c <= Head; c++ {
		if w == convNames[c] {
			p.i = j
			return c
		}
	}
	p.fail("want a value, a reference or a conversion")
	return NoConversion
}

// normalizeKey makes equal keys equal values: a query key's occurrence 0 means the first.
func normalizeKey(k *urlnorm.Key) {
	if k.Part == urlnorm.PartQuery && k.Pos == 0 {
		k.Pos = 1
	}
}

func normalizeRule(r *Rule) {
	for i := range r.Context {
		normalizeKey(&r.Context[i].Key)
	}
	for i := range r.Transform {
		normalizeKey(&r.Transform[i].Key)
		if r.Transform[i].Op == Copy {
			normalizeKey(&r.Transform[i].From)
		}
	}
}
