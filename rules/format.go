package rules

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// The file format, version 1. UTF-8 text, one item per line, LF line endings:
//
//	undust-rules v1
//	key RemoveDefaultPort|...|SortQuery
//	# comments and blank lines are ignored
//	pattern www.imdb.com <one line of the host's deep-token patterns>
//	rule host=www.imdb.com cov=120 prec=1 sup=4 if path(1,3)="title" path(2,2)=* then path(3,1)="mediaindex"
//
// The first line is the magic and the version. An optional "key" line names the urlnorm flags
// of Options.Key (Flags.String). A "pattern" line carries one line of a host's
// deep-token patterns (Patterns.AppendText), in order; a "rule" line carries one rule in the
// form of Rule.AppendText. The writer puts patterns first, sorted by host, then rules sorted by
// scope and, within a scope, in precedence order, so that one set always writes the same bytes.
const (
	magic      = "undust-rules"
	version    = "v1"
	header     = magic + " " + version
	maxLineLen = 1 << 20
)

// WriteTo writes the set in the text format and returns the number of bytes written. The same
// set writes byte-identical output.
func (s *Set) WriteTo(w io.Writer) (int64, error) {
	var b []byte
	b = append(b, header...)
	b = append(b, '\n')
	if s.opts.Key != 0 {
		b = append(b, "key "...)
		b = append(b, s.opts.Key.String()...)
		b = append(b, '\n')
	}
	hosts := make([]string, 0, len(s.opts.Patterns))
	for h := range s.opts.Patterns {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	var text []byte
	for _, h := range hosts {
		text = s.opts.Patterns[h].AppendText(text[:0])
		for line := range bytes.Lines(text) {
			line = bytes.TrimSuffix(line, []byte("\n"))
			if len(line) == 0 {
				continue
			}
			b = append(b, "pattern "...)
			b = append(b, h...)
			b = append(b, ' ')
			b = append(b, line...)
			b = append(b, '\n')
		}
	}
	order := make([]int, len(s.rules))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := s.rules[i].Scope, s.rules[j].Scope
		if c := strings.Compare(a.Host, b.Host); c != 0 {
			return c
		}
		if a.Domain != b.Domain {
			if a.Domain {
				return 1
			}
			return -1
		}
		return i - j
	})
	for _, i := range order {
		b = append(b, "rule "...)
		b = s.rules[i].AppendText(b)
		b = append(b, '\n')
	}
	n, err := w.Write(b)
	return int64(n), err
}

// ReadFrom replaces the content of s with the set that r holds in the text format, and returns
// the number of bytes read. It keeps the options of s (for a zero Set, the defaults); the
// patterns of the file replace Options.Patterns, read with Options.ParsePatterns
// (deeptoken.ParsePatterns by default), and its key line (or its absence) replaces Options.Key.
// A line that is
// not in the format is reported as a *ParseError with its line number, wrapping ErrFormat or
// ErrInvalidRule; s is then left as it was. ReadFrom must not run concurrently with any other
// use of s.
func (s *Set) ReadFrom(r io.Reader) (int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		n        int64
		lineNo   int
		rules    []Rule
		lines    []int
		patterns = map[string][]byte{}
		key      urlnorm.Flags
		pline    = map[string]int{}
		p        parser // reused: its buffers collect each rule's conditions and actions
	)
	for {
		line, err := br.ReadSlice('\n')
		n += int64(len(line))
		long := false
		for errors.Is(err, bufio.ErrBufferFull) {
			// Keep reading the long line, only to report it.
			long = true
			if int64(len(line)) > maxLineLen {
				break
			}
			var more []byte
			more, err = br.ReadSlice('\n')
			n += int64(len(more))
			line = append(slices.Clip(line), more...)
		}
		if len(line) == 0 && err == io.EOF {
			break
		}
		lineNo++
		if long && len(line) > maxLineLen {
			return n, &ParseError{Line: lineNo, Text: string(line[:200]), Err: malformed("line longer than 1 MiB")}
		}
		if err != nil && err != io.EOF {
			return n, err
		}
		text := string(bytes.TrimSuffix(line, []byte("\n")))
		if lineNo == 1 {
			if text != header {
				if strings.HasPrefix(text, magic+" ") {
					return n, &ParseError{Line: 1, Text: text, Err: malformed("unsupported version " + strings.TrimPrefix(text, magic+" "))}
				}
				return n, &ParseError{Line: 1, Text: text, Err: malformed("not an undust rule file")}
			}
		} else {
			switch {
			case text == "" || text[0] == '#':
			case strings.HasPrefix(text, "rule "):
				p.s, p.i, p.err = text[len("rule "):], 0, nil
				rl := p.rule()
				if p.err != nil {
					return n, &ParseError{Line: lineNo, Text: text, Err: p.err}
				}
				rules = append(rules, rl)
				lines = append(lines, lineNo)
			case strings.HasPrefix(text, "key "):
				f, ok := parseFlags(text[len("key "):])
				if !ok {
					return n, &ParseError{Line: lineNo, Text: text, Err: malformed("want key FLAG|FLAG...")}
				}
				key = f
			case strings.HasPrefix(text, "pattern "):
				rest := text[len("pattern "):]
				sp := strings.IndexByte(rest, ' ')
				if sp <= 0 || sp == len(rest)-1 {
					return n, &ParseError{Line: lineNo, Text: text, Err: malformed("want pattern HOST LINE")}
				}
				h := rest[:sp]
				patterns[h] = append(append(patterns[h], rest[sp+1:]...), '\n')
				if _, ok := pline[h]; !ok {
					pline[h] = lineNo
				}
			default:
				return n, &ParseError{Line: lineNo, Text: text, Err: malformed("want rule, pattern or a comment")}
			}
		}
		if err == io.EOF {
			break
		}
	}
	if lineNo == 0 {
		return n, &ParseError{Line: 1, Err: malformed("empty file")}
	}
	opts := s.opts
	opts.Patterns = nil
	opts.Key = key
	if len(patterns) > 0 {
		parse := opts.ParsePatterns
		if parse == nil {
			parse = parseDeepTokens
		}
		opts.Patterns = make(map[string]Patterns, len(patterns))
		for h, text := range patterns {
			p, err := parse(text)
			if err != nil {
				return n, &ParseError{Line: pline[h], Text: "pattern " + h, Err: errors.Join(ErrFormat, err)}
			}
			opts.Patterns[h] = p
		}
	}
	var t Set
	if err := t.init(rules, &opts, lines); err != nil {
		return n, err
	}
	s.rules, s.twins, s.exact, s.domain, s.all, s.opts, s.keyer, s.maxRw = t.rules, t.twins, t.exact, t.domain, t.all, t.opts, t.keyer, t.maxRw
	return n, nil
}

// parseFlags reads urlnorm flags in the form of Flags.String ("A|B|C").
func parseFlags(text string) (urlnorm.Flags, bool) {
	var f urlnorm.Flags
	for name := range strings.SplitSeq(text, "|") {
		found := false
		for i := range 64 {
			if b := urlnorm.Flags(1) << i; b.String() == name {
				f |= b
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return f, f != 0
}

// Load reads a set in the text format from r with the given options (nil for the defaults): it
// is ReadFrom on a new Set.
func Load(r io.Reader, opts *Options) (*Set, error) {
	s := &Set{}
	if opts != nil {
		s.opts = *opts
	}
	if _, err := s.ReadFrom(r); err != nil {
		return nil, err
	}
	return s, nil
}
