package htmltext

// The tokenizer's TagName and TagAttr copy every name and value (they
// replace NUL bytes with bytes.ReplaceAll, which always allocates), which
// made them the largest cost of Extract. The extractor reads tags from
// Raw() instead, with the small parser below. It follows the tokenizer's
// reading of tag syntax (HTML "tag open", "attribute name" and "attribute
// value" states) for the parts Extract uses, and does not decode character
// references in attribute values: class, id and role names in practice do
// not contain them.

// rawTagName returns the lower-cased name of the start or end tag raw into
// buf and the offset just after it.
func rawTagName(raw []byte, buf []byte) ([]byte, int) {
	i := 1 // skip '<'
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	name := buf[:0]
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if len(name) < cap(name) {
			name = append(name, c)
		} else {
			name = name[:0:0] // too long for any known tag: give up on the name
			for ; i < len(raw) && !isTagSep(raw[i]); i++ {
			}
			return nil, i
		}
	}
	return name, i
}

func isTagSep(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '/' || c == '>'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f'
}

// nextAttr reads the attribute at raw[i:] and returns its key (not
// lower-cased), value and the offset after it; ok is false at the end of
// the tag.
func nextAttr(raw []byte, i int) (key, val []byte, next int, ok bool) {
	for i < len(raw) && (isSpace(raw[i]) || raw[i] == '/') {
		i++
	}
	if i >= len(raw) || raw[i] == '>' {
		return nil, nil, i, false
	}
	// Attribute name: up to space, '/', '>' or '='; a leading '=' is part
	// of the name.
	k0 := i
	i++
	for i < len(raw) && !isTagSep(raw[i]) && raw[i] != '=' {
		i++
	}
	key = raw[k0:i]
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	if i >= len(raw) || raw[i] != '=' {
		return key, nil, i, true
	}
	i++
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	if i >= len(raw) {
		return key, nil, i, true
	}
	if q := raw[i]; q == '"' || q == '\'' {
		i++
		v0 := i
		for i < len(raw) && raw[i] != q {
			i++
		}
		val = raw[v0:i]
		if i < len(raw) {
			i++
		}
		return key, val, i, true
	}
	v0 := i
	for i < len(raw) && !isSpace(raw[i]) && raw[i] != '>' {
		i++
	}
	return key, raw[v0:i], i, true
}

// keyIs reports whether key equals the lower-case name want, ignoring ASCII
// case.
func keyIs(key []byte, want string) bool {
	if len(key) != len(want) {
		return false
	}
	for i := range len(key) {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != want[i] {
			return false
		}
	}
	return true
}
