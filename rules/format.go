package rules

import (
	"bufio"
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/urlnorm"
)

// The file format, version 2. UTF-8 text, one item per line, LF line endings (CRLF is read
// too):
//
//	undust-rules v2
//	key RemoveDefaultPort|...|SortQuery
//	# comments and blank lines are ignored
//	pattern www.imdb.com <one line of the host's deep-token patterns>
//	rule host=www.imdb.com cov=120 prec=1 sup=4 if path(1,3)="title" path(2,2)=* then path(3,1)="mediaindex"
//	end 1 8c1b6f3a
//
// The first line is the magic and the version. An optional "key" line names the urlnorm flags
// of Options.Key (Flags.String). A "pattern" line carries one line of a host's
// deep-token patterns (Patterns.AppendText), in order; a "rule" line carries one rule in the
// form of Rule.AppendText. The writer puts patterns first, sorted by host, then rules sorted by
// scope and, within a scope, in precedence order, so that one set always writes the same bytes.
//
// The last line, "end N SUM", closes the file: N is the number of rule lines and SUM the
// CRC-32C (Castagnoli), 8 lower-case hex digits, of every line before it, each taken without
// its line ending and followed by one LF (so a file whose line endings were changed to CRLF
// still checks). Nothing may follow it, and it must end with its LF. A file cut anywhere, or
// with a line changed, added or lost, is an error, not a smaller set.
//
// Version 1 is the same format without the end line. It is still read, for the files written
// before version 2, but a cut v1 file cannot be told from a whole one: one cut after a complete
// line is a smaller set, and one cut within a rule line can even be a different valid rule.
// Rewrite v1 files with WriteTo to get the check.
const (
	magic     = "undust-rules"
	version   = "v2"
	header    = magic + " " + version
	headerV1  = magic + " v1"
	endPrefix = "end "
	// maxLineLen is the longest line the reader accepts, in bytes without the line ending.
	maxLineLen = 1 << 20
)

// castagnoli is the CRC-32C table of the end line's checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sumLine adds a line, without its line ending, to the checksum of the end line.
func sumLine(sum uint32, line []byte) uint32 {
	return crc32.Update(crc32.Update(sum, castagnoli, line), castagnoli, []byte{'\n'})
}

// WriteTo writes the set in the text format (version 2) and returns the number of bytes
// written. The same set writes byte-identical output.
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
	var sum uint32
	for line := range bytes.Lines(b) {
		sum = sumLine(sum, bytes.TrimSuffix(line, []byte("\n")))
	}
	b = append(b, endPrefix...)
	b = strconv.AppendInt(b, int64(len(s.rules)), 10)
	b = append(b, ' ')
	b = appendHex32(b, sum)
	b = append(b, '\n')
	n, err := w.Write(b)
	return int64(n), err
}

func appendHex32(b []byte, v uint32) []byte {
	const digits = "0123456789abcdef"
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, digits[v>>uint(shift)&0xf])
	}
	return b
}

// lineReader reads the lines of a rule file, each whole however long, up to maxLineLen.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than the reader's buffer, assembled
	n    int64  // bytes read
}

// errLongLine is what next reports for a line longer than maxLineLen.
var errLongLine = errors.New("line too long")

// next returns the next line without its line ending (LF or CRLF) and whether it had an LF;
// io.EOF when no byte is left. The line is valid until the next call. For a line longer than
// maxLineLen it returns its first bytes and errLongLine, having read no more than a buffer
// beyond the limit.
func (lr *lineReader) next() ([]byte, bool, error) {
	line, err := lr.br.ReadSlice('\n')
	lr.n += int64(len(line))
	if errors.Is(err, bufio.ErrBufferFull) {
		// The buffer holds only part of the line, and the next read overwrites it: collect the
		// parts in a buffer of our own.
		lr.long = append(lr.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(lr.long) > maxLineLen+1 {
				return lr.long, false, errLongLine
			}
			line, err = lr.br.ReadSlice('\n')
			lr.n += int64(len(line))
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if err != nil && err != io.EOF {
		return line, false, err
	}
	if len(line) == 0 {
		return nil, false, io.EOF
	}
	lf := line[len(line)-1] == '\n'
	if lf {
		line = line[:len(line)-1]
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > maxLineLen {
		return line, lf, errLongLine
	}
	return line, lf, nil
}

// ReadFrom replaces the content of s with the set that r holds in the text format (version 2,
// or version 1 without its check; see the format above), and returns the number of bytes read.
// It keeps the options of s (for a zero Set, the defaults); the
// patterns of the file replace Options.Patterns, read with Options.ParsePatterns
// (deeptoken.ParsePatterns by default), and its key line (or its absence) replaces Options.Key.
// A line that is not in the format, a line longer than 1 MiB, a version 2 file without its end
// line or whose end line does not check, and more rules than Options.MaxRules are reported as a
// *ParseError with the line number, wrapping ErrFormat, ErrInvalidRule or ErrTooManyRules; s
// is then left as it was. Memory is linear in the file's size and bounded by MaxRules rules
// (and a line of at most 1 MiB); time is linear in the file's size, plus the index build of
// NewSet. ReadFrom must not run concurrently with any other use of s.
func (s *Set) ReadFrom(r io.Reader) (int64, error) {
	lr := lineReader{br: bufio.NewReaderSize(r, 64<<10)}
	var (
		lineNo   int
		rules    []Rule
		lines    []int
		patterns = map[string][]byte{}
		key      urlnorm.Flags
		pline    = map[string]int{}
		p        parser // reused: its buffers collect each rule's conditions and actions
		v2       bool
		ended    bool
		sum      uint32
		limit    = s.opts.maxRules()
	)
	for {
		line, lf, err := lr.next()
		if err == io.EOF {
			break
		}
		lineNo++
		if err == errLongLine {
			return lr.n, &ParseError{Line: lineNo, Text: string(line[:200]), Err: malformed("line longer than 1 MiB")}
		}
		if err != nil {
			return lr.n, err
		}
		if ended {
			return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: malformed("data after the end line")}
		}
		if lineNo == 1 {
			text := string(line)
			switch text {
			case header:
				v2 = true
			case headerV1:
			default:
				if strings.HasPrefix(text, magic+" ") {
					return lr.n, &ParseError{Line: 1, Text: text, Err: malformed("unsupported version " + strings.TrimPrefix(text, magic+" "))}
				}
				return lr.n, &ParseError{Line: 1, Text: text, Err: malformed("not an undust rule file")}
			}
			sum = sumLine(sum, line)
			continue
		}
		if v2 && bytes.HasPrefix(line, []byte(endPrefix)) {
			// The LF of the end line is checked at the end: a file cut before it is cut.
			if err := checkEnd(string(line[len(endPrefix):]), len(rules), sum); err != nil {
				return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: err}
			}
			ended = true
			if !lf {
				return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: malformed("truncated file: end line without its line feed")}
			}
			continue
		}
		sum = sumLine(sum, line)
		switch {
		case len(line) == 0 || line[0] == '#':
		case bytes.HasPrefix(line, []byte("rule ")):
			text := string(line)
			if len(rules) >= limit {
				return lr.n, &ParseError{Line: lineNo, Text: text, Err: &detail{ErrTooManyRules, "more than " + strconv.Itoa(limit) + " rules (Options.MaxRules)"}}
			}
			p.s, p.i, p.err = text[len("rule "):], 0, nil
			rl := p.rule()
			if p.err != nil {
				return lr.n, &ParseError{Line: lineNo, Text: text, Err: p.err}
			}
			rules = append(rules, rl)
			lines = append(lines, lineNo)
		case bytes.HasPrefix(line, []byte("key ")):
			f, ok := parseFlags(string(line[len("key "):]))
			if !ok {
				return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: malformed("want key FLAG|FLAG...")}
			}
			key = f
		case bytes.HasPrefix(line, []byte("pattern ")):
			rest := line[len("pattern "):]
			sp := bytes.IndexByte(rest, ' ')
			if sp <= 0 || sp == len(rest)-1 {
				return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: malformed("want pattern HOST LINE")}
			}
			h := string(rest[:sp])
			patterns[h] = append(append(patterns[h], rest[sp+1:]...), '\n')
			if _, ok := pline[h]; !ok {
				pline[h] = lineNo
			}
		default:
			return lr.n, &ParseError{Line: lineNo, Text: string(line), Err: malformed("want rule, pattern or a comment")}
		}
	}
	if lineNo == 0 {
		return lr.n, &ParseError{Line: 1, Err: malformed("empty file")}
	}
	if v2 && !ended {
		return lr.n, &ParseError{Line: lineNo, Err: malformed("truncated file: no end line")}
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
				return lr.n, &ParseError{Line: pline[h], Text: "pattern " + h, Err: errors.Join(ErrFormat, err)}
			}
			opts.Patterns[h] = p
		}
	}
	var t Set
	if err := t.init(rules, &opts, lines); err != nil {
		return lr.n, err
	}
	s.rules, s.twins, s.exact, s.domain, s.all, s.every, s.hosts, s.opts, s.keyer, s.maxRw, s.tokenKey = t.rules, t.twins, t.exact, t.domain, t.all, t.every, t.hosts, t.opts, t.keyer, t.maxRw, t.tokenKey
	s.succ = t.succ
	s.dropScratch()
	return lr.n, nil
}

// checkEnd checks the fields of an end line, "N SUM", against the rules read and the checksum
// of the lines before it.
func checkEnd(fields string, rules int, sum uint32) error {
	n, hex, ok := strings.Cut(fields, " ")
	if !ok || len(hex) != 8 || n != strconv.Itoa(rules) {
		if ok && len(hex) == 8 {
			if _, err := strconv.Atoi(n); err == nil {
				return malformed("end line counts " + n + " rules, the file has " + strconv.Itoa(rules))
			}
		}
		return malformed("want end N SUM")
	}
	if want := string(appendHex32(nil, sum)); hex != want {
		return malformed("checksum " + hex + " does not match the lines before it (" + want + ")")
	}
	return nil
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
