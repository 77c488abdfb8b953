package urlnorm

// Flags selects normalizations. Each flag is one normalization, documented
// with its effect as before -> after. The zero value is usable and selects
// none of the optional normalizations: the URL is still parsed and
// serialized the WHATWG way (see the package documentation for what is
// always done). Flags is a plain value, safe to copy and share.
//
// Flags split into two classes. The canonical class ([CanonicalFlags]) only
// makes changes that keep the URL fetchable and pointing at the same
// resource; [Normalizer.Canonical] applies only those. The key class may
// change what a server sees and is applied by [Normalizer.Key] alone.
//
// The flags, with their presets (S: [Safe], C: [Crawler], A: [Aggressive]);
// "go doc urlnorm.RemoveDefaultPort" and "go doc urlnorm.SortQuery" show
// each one's comment with examples:
//
//	canonical class
//	RemoveDefaultPort       S C A  http://a.com:80/ -> http://a.com/
//	RemoveTrailingDot       S C A  http://a.com./ -> http://a.com/
//	RemoveDotSegments       S C A  /b/./c/../d -> /b/d
//	UppercaseEscapes        S C A  /a%c3%a9 -> /a%C3%A9
//	DecodeUnreserved        S C A  /%7Euser -> /~user
//	EscapeStrayPercent      S C A  /90%+off -> /90%25+off
//	EncodeStrict            S C A  /a|b -> /a%7Cb
//	DropUserinfo                A  http://user:pw@a.com/ -> http://a.com/
//	DropFragment              C A  /b#top -> /b
//	key class
//	SortQuery                 C A  ?b=2&a=1 -> ?a=1&b=2
//	DropEmptyParams           C A  ?&a=&=1&b=2& -> ?a&b=2
//	DropBareQuery             C A  /a? -> /a
//	DropSessionIDs            C A  ?a=1&PHPSESSID=9682993c8daa2c54 -> ?a=1
//	DropTracking              C A  ?id=7&utm_source=x -> ?id=7
//	DecodeQuery               C A  ?t=12%3A00&p=%2Fa -> ?t=12:00&p=/a
//	SemicolonParams           C A  ?p=a.git;a=tree -> ?p=a.git&a=tree
//	FoldWWW                     A  http://www2.a.com/ -> http://a.com/
//	DropIndex                   A  /a/index.html -> /a/
//	HTTPSToHTTP                 A  https://a.com/ -> http://a.com/
//	LowercasePath               A  /A/B.HTML -> /a/b.html
//	RemoveDuplicateSlashes      A  //a//b/ -> /a/b/
//	GuessScheme                 A  a.com/b -> http://a.com/b
type Flags uint64

// Canonical-class flags: semantics-preserving, applied by Canonical and Key.
const (
	// RemoveDefaultPort drops the scheme's default port:
	// http://a.com:80/ -> http://a.com/, https://a.com:443/ -> https://a.com/.
	RemoveDefaultPort Flags = 1 << iota
	// RemoveTrailingDot drops the root dot of a fully qualified host name:
	// http://a.com./ -> http://a.com/.
	RemoveTrailingDot
	// RemoveDotSegments resolves "." and ".." path segments, also when written
	// %2e (RFC 3986 section 5.2.4, WHATWG path state):
	// http://a.com/b/./c/../%2e%2E/d -> http://a.com/d.
	RemoveDotSegments
	// UppercaseEscapes upper-cases the hex digits of percent-escapes
	// (RFC 3986 section 6.2.2.1): /a%c3%a9 -> /a%C3%A9.
	UppercaseEscapes
	// DecodeUnreserved decodes percent-escapes of unreserved characters
	// (ALPHA DIGIT - . _ ~, RFC 3986 section 6.2.2.2): /%7Euser/%41 -> /~user/A.
	// Reserved characters are never decoded: %2F %3F %23 %25 %5C %26 %3D stay.
	DecodeUnreserved
	// EscapeStrayPercent encodes a '%' that does not start a valid escape:
	// /90%+off -> /90%25+off.
	EscapeStrayPercent
	// EncodeStrict percent-encodes the characters RFC 3986 never allows raw but
	// WHATWG leaves alone (| [ ] ^ in paths; ` { } | [ ] ^ \ in queries;
	// # { } | [ ] ^ \ in fragments): /a|b?x[0]=^ -> /a%7Cb?x%5B0%5D=%5E.
	// Hosts with ` { } are rejected instead, since no encoding is allowed there.
	EncodeStrict
	// DropUserinfo removes the user name and password:
	// http://user:pw@a.com/ -> http://a.com/.
	DropUserinfo
	// DropFragment removes the fragment: http://a.com/b#top -> http://a.com/b.
	DropFragment
)

// Key-class flags: applied by Key only. They may change what a server
// returns, so the key is for deduplication, not for fetching.
const (
	// SortQuery sorts query parameters, stably, by name and then by value
	// (byte order of the normalized text): ?b=2&a=1&a=0 -> ?a=0&a=1&b=2.
	SortQuery Flags = 1 << (iota + 16)
	// DropEmptyParams removes empty parameters and parameters without a name,
	// and the '=' of an empty value: ?&a=&=1&b=2& -> ?a&b=2.
	DropEmptyParams
	// DropBareQuery removes a '?' with nothing after it: /a? -> /a.
	DropBareQuery
	// DropSessionIDs removes session identifiers: query parameters named in
	// Options.SessionParams (?a=1&PHPSESSID=9682993c8daa2c54 -> ?a=1),
	// ;jsessionid= path parameters (/a;jsessionid=E85F -> /a) and ASP.NET
	// cookieless session segments (/(S(4hqa0555fwsecu455xqckv45))/a -> /a).
	DropSessionIDs
	// DropTracking removes tracking parameters named in
	// Options.TrackingParams: ?id=7&utm_source=x&gclid=y -> ?id=7.
	DropTracking
	// FoldWWW removes leading www, www2, www12... labels unless what is left
	// is a public suffix: http://www2.a.com/ -> http://a.com/,
	// http://www.www.a.com/ -> http://a.com/, http://www.co.uk/ stays.
	FoldWWW
	// DropIndex removes a final directory index file named in
	// Options.IndexFiles: /a/index.html -> /a/.
	DropIndex
	// HTTPSToHTTP folds secure schemes to their plain twins:
	// https://a.com/ -> http://a.com/ (wss -> ws). With RemoveDefaultPort,
	// port 443 goes as the old default and port 80 as the new one:
	// https://a.com:80/ -> http://a.com/.
	HTTPSToHTTP
	// LowercasePath lower-cases ASCII letters of the path (escapes keep their
	// upper-case hex): /A/B%C3%A9.HTML -> /a/b%C3%A9.html. Many servers are
	// case-sensitive, so only Aggressive sets it.
	LowercasePath
	// RemoveDuplicateSlashes collapses empty path segments: //a//b/ -> /a/b/.
	RemoveDuplicateSlashes
	// GuessScheme treats input without a scheme (or with a dotted host before
	// the first ':') as http: a.com/b -> http://a.com/b, a.com:8080 ->
	// http://a.com:8080/, //cdn.a.com/x -> http://cdn.a.com/x. Without it
	// such input fails with ErrNotAbsolute. Only input that starts with a
	// host is guessed: an IP address, localhost, or a dotted name whose last
	// label is a top-level domain (see the package documentation). Relative
	// references (/a, ./a, ../a, ?q, #f, page, index.php) still fail with
	// ErrNotAbsolute; resolve them with ResolveKey.
	// It also strips leading invisible characters (Unicode white space and
	// format characters such as U+FEFF and U+200B), and never takes
	// "name://" for a host: \ufeffhttps://a.com/ -> http://a.com/.
	GuessScheme
	// DecodeQuery decodes the percent-escapes in the query, in names and
	// values alike, of the characters that a server reading the query as
	// application/x-www-form-urlencoded (the WHATWG URL Standard's urlencoded
	// parser; PHP, Go's net/url.ParseQuery, Python, Rails) takes to be the
	// same raw and escaped, and that the query is written with raw:
	// ?c=2019-02-28+12%3A00%3A00 -> ?c=2019-02-28+12:00:00,
	// ?u=http%3A%2F%2Fa.com%2Fx%3Fy%2C%40 -> ?u=http://a.com/x?y,@,
	// ?%24top=5 -> ?$top=5. With EncodeStrict these are the unreserved
	// characters and ! $ ( ) * , / : ? @; without it also ` { } | [ ] ^ \.
	//
	// Escapes that the form parser reads otherwise than the raw byte stay:
	// %26 (&, ends a parameter), %3D (=, ends a name), %2B (+, a space when
	// raw), %25 (%, starts an escape) and %3B (;, a separator for older
	// parsers, refused by net/url.ParseQuery). So do the escapes of what the
	// query is never written with raw: the WHATWG special-query
	// percent-encode set (controls, space, " # < > ' and non-ASCII bytes)
	// and, with EncodeStrict, what it encodes: ?a=%26%3D%2B%25%3B%23%20 stays.
	//
	// The key takes the raw form, not that of the urlencoded serializer of
	// HTML forms (?c=12%3A00): the WHATWG URL parser sends these characters
	// raw when a link or the address bar has them raw, and a query without
	// escapes, the common case, is left as it is. The canonical URL keeps
	// the escapes: a server that reads the raw query may tell them apart.
	DecodeQuery
	// SemicolonParams reads a query whose parameters are separated by ';'
	// as if they were separated by '&', as CGI libraries and the servers
	// built on them do (HTML 4 recommends ';' so that '&' need not be
	// escaped in links): ?p=a.git;a=tree;h=HEAD -> ?p=a.git&a=tree&h=HEAD,
	// so that the other query flags, and rules learned over keys, see each
	// parameter. Only a query of two or more name=value pairs, each with a
	// name, joined by ';' is read so, alone or beside parameters joined by
	// '&' that the key drops (?p=a.git;a=tree&utm_source=x: a tracker's
	// parameters appended to a CGI link): ?q=a;b, ?a=1&b=2;c=3 and ?a=1;=2
	// stay as they are, and %3B is never a separator.
	SemicolonParams
)

// Presets, graded: Safe ⊂ Crawler ⊂ Aggressive.
const (
	// Safe holds only semantics-preserving normalizations: the canonical URL.
	// It keeps userinfo and the fragment.
	Safe = RemoveDefaultPort | RemoveTrailingDot | RemoveDotSegments |
		UppercaseEscapes | DecodeUnreserved | EscapeStrayPercent | EncodeStrict

	// Crawler is Safe plus a sensible dedup key: the fragment dropped, the
	// query sorted, empty parameters, a bare '?', session ids and tracking
	// parameters removed, escapes that form decoding reads as the raw
	// character decoded in the query, and ';' read as '&' in a query of
	// name=value pairs joined by ';'.
	Crawler = Safe | DropFragment | SortQuery | DropEmptyParams |
		DropBareQuery | DropSessionIDs | DropTracking | DecodeQuery | SemicolonParams

	// Aggressive is Crawler plus www folding, index files, https -> http,
	// lower-cased path, collapsed slashes, dropped userinfo and a guessed
	// http scheme (the behaviour of urlcanon's aggressive canonicalizer).
	Aggressive = Crawler | FoldWWW | DropIndex | HTTPSToHTTP | LowercasePath |
		RemoveDuplicateSlashes | DropUserinfo | GuessScheme

	// CanonicalFlags is the mask of flags Canonical honours; the rest are
	// key-class flags.
	CanonicalFlags = Safe | DropUserinfo | DropFragment
)

var flagNames = [...]struct {
	f    Flags
	name string
}{
	{RemoveDefaultPort, "RemoveDefaultPort"},
	{RemoveTrailingDot, "RemoveTrailingDot"},
	{RemoveDotSegments, "RemoveDotSegments"},
	{UppercaseEscapes, "UppercaseEscapes"},
	{DecodeUnreserved, "DecodeUnreserved"},
	{EscapeStrayPercent, "EscapeStrayPercent"},
	{EncodeStrict, "EncodeStrict"},
	{DropUserinfo, "DropUserinfo"},
	{DropFragment, "DropFragment"},
	{SortQuery, "SortQuery"},
	{DropEmptyParams, "DropEmptyParams"},
	{DropBareQuery, "DropBareQuery"},
	{DropSessionIDs, "DropSessionIDs"},
	{DropTracking, "DropTracking"},
	{FoldWWW, "FoldWWW"},
	{DropIndex, "DropIndex"},
	{HTTPSToHTTP, "HTTPSToHTTP"},
	{LowercasePath, "LowercasePath"},
	{RemoveDuplicateSlashes, "RemoveDuplicateSlashes"},
	{GuessScheme, "GuessScheme"},
	{DecodeQuery, "DecodeQuery"},
	{SemicolonParams, "SemicolonParams"},
}

// String returns the flag names joined by '|', for example
// "RemoveDefaultPort|DropFragment", or "0" for none. Unknown bits print in hex.
func (f Flags) String() string {
	if f == 0 {
		return "0"
	}
	var b []byte
	for _, fn := range flagNames {
		if f&fn.f != 0 {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, fn.name...)
			f &^= fn.f
		}
	}
	if f != 0 {
		if len(b) > 0 {
			b = append(b, '|')
		}
		b = append(b, "0x"...)
		b = appendHex(b, uint64(f))
	}
	return string(b)
}

func appendHex(b []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	var tmp [16]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = digits[v&15]
		v >>= 4
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}
