// Package urlnorm normalizes URLs for web crawlers: a canonical URL that is
// safe to fetch, and a more aggressive dedup key that need not be.
//
// Users of every URL-normalization library ask for the same split: never
// change the URL that is fetched, but normalize the key used to detect
// duplicates. [Normalizer.Canonical] makes only semantics-preserving changes
// (RFC 3986 section 6 and the WHATWG URL Standard's serialization);
// [Normalizer.Key] may also sort the query, remove session ids and tracking
// parameters, fold "www." and more, as its [Flags] say.
//
//	n := urlnorm.New(urlnorm.Crawler)
//	n.Canonical("HTTP://Example.COM:80/a/./b/../c?b=2&a=1&utm_source=x#top")
//	// "http://example.com/a/c?b=2&a=1&utm_source=x"
//	n.Key("HTTP://Example.COM:80/a/./b/../c?b=2&a=1&utm_source=x#top")
//	// "http://example.com/a/c?a=1&b=2"
//
// # Parsing
//
// The parser follows the WHATWG URL Standard's basic URL parser
// (https://url.spec.whatwg.org/, the algorithm browsers use) for the special
// schemes http, https, ws, wss, ftp and file, without a base URL (with one,
// see Resolving references below). So the host
// found is the host a browser would connect to: backslashes count as slashes,
// the last '@' ends the userinfo, leading and trailing C0 controls and spaces
// are trimmed and tabs and newlines removed anywhere. Always done, whatever the
// flags: the scheme and host are lower-cased; hosts are converted with UTS #46
// ToASCII (non-transitional, the WHATWG parameters, golang.org/x/net/idna)
// when they contain non-ASCII, percent-escapes or an "xn--" label; IPv4
// addresses in every legal numeric form (0x7f.1, 017700000001, 2130706433)
// become dotted quads; IPv6 addresses are compressed and lower-cased; an
// empty port separator goes; the path starts with '/'; characters the WHATWG
// percent-encode sets name are encoded. Other schemes fail with
// ErrUnsupportedScheme: they have no host to normalize.
//
// Output always has the form scheme://[userinfo@]host[:port]/path[?query][#fragment]
// (file URLs: file://[host]/path), and '?' and '#' never appear raw inside the
// path or query.
//
// # Choices where the standards are vague or disagree
//
//   - Safe goes beyond WHATWG where RFC 3986 section 6.2.2 allows it
//     (upper-case escapes, decoded unreserved characters, removed trailing
//     host dot) and encodes what RFC 3986 never allows raw (EncodeStrict) and
//     stray '%' (EscapeStrayPercent), so the result also parses with net/url
//     and two spellings of one URL meet. Hosts containing ` { } (allowed by
//     WHATWG, by no RFC) are rejected under EncodeStrict.
//   - Invalid UTF-8 in a path, query or fragment is percent-encoded byte by
//     byte instead of being replaced by U+FFFD, which would lose information.
//   - IPv6 parsing uses net/netip; zone identifiers are rejected.
//   - Session-id parameters that are also common content names (sid,
//     sessionid) are removed only when the value looks generated (16 or more
//     letters and digits, with both); per-host exceptions can keep any name.
//   - FoldWWW keeps "www." when the rest is a public suffix (www.co.uk).
//   - The key reads a query as servers do, as application/x-www-form-urlencoded
//     (the WHATWG URL Standard's urlencoded parser): DecodeQuery decodes the
//     escapes that form decoding reads as the raw character, ?c=12%3A00 ->
//     ?c=12:00, towards the raw form the WHATWG URL parser sends, not the
//     escaped form of the urlencoded serializer; & = + % ; keep their escapes.
//     SemicolonParams reads ';' as '&' in a query of name=value pairs joined
//     by ';' only (beside, at most, parameters the key drops, such as a
//     tracker's), as CGI libraries do (gitweb, Perl and older Python
//     servers; HTML 4 recommended it), and not where ';' may be part of a
//     value (?q=a;b), which the urlencoded parser keeps whole.
//   - WHATWG strips only C0 controls and spaces around a URL, so a URL that
//     starts with an invisible character, such as a byte-order mark or a
//     zero-width space left by copying it out of a document, is not
//     absolute: Canonical and any flag set without GuessScheme reject it
//     with ErrNotAbsolute, as a browser would not load it. GuessScheme, the
//     lenient reading, first strips leading Unicode white space and format
//     characters (category Cf), so "\ufeffhttps://a.com/" keys as
//     "http://a.com/"; and it never reads "name://" as a host, so that a
//     scheme it does not know (or mangled by an invisible character inside
//     it) fails with ErrUnsupportedScheme instead of becoming a host.
//
// # Resolving references
//
// A crawler finds hrefs, not absolute URLs. [Normalizer.Resolve] resolves a
// reference against the URL of the page it was found on, following the
// WHATWG basic URL parser with a base URL (relative, relative slash and file
// states), and prints the canonical URL; [Normalizer.ResolveKey] prints its
// dedup key:
//
//	n := urlnorm.New(urlnorm.Crawler)
//	n.ResolveKey("https://example.com/shop/list?cat=2", "../item?id=7&utm_source=x")
//	// "https://example.com/item?id=7"
//
// The base is canonicalized with the canonical-class flags only (a key's
// sorted query or dropped segments would change what a relative reference
// means), the reference is joined to the parts of it that it keeps, and the
// joined URL goes through the same parser as Canonical, so
// ResolveKey(base, ref) is Key(Resolve(base, ref)). Only special schemes are
// resolved: a reference or a needed base with another scheme fails with
// ErrUnsupportedScheme (WHATWG would give a non-special URL). A [Base]
// canonicalizes a page's URL once for all the hrefs found on it.
//
// GuessScheme is for input a person wrote without a scheme, not for hrefs:
// it reads a scheme-less input as http only when it starts with a host (an
// IP address, "localhost", or a dotted name whose last label is a top-level
// domain of the public suffix list's ICANN section, is internationalized,
// or is reserved by RFC 6761), so "/a/b", "./a", "../a", "?q", "#f", "page"
// and "index.php" fail with ErrNotAbsolute instead of becoming hosts.
// "readme.md" still reads as a host (.md is Moldova's); only a base URL can
// tell.
//
// Every step costs time linear in the input, which is at most
// Options.MaxLength bytes: FoldWWW removes any number of www labels in one
// pass and asks the public suffix list a bounded number of times.
//
// # Tokens
//
// [Tokenize] splits a normalized URL into keyed [Token]s, after Koppula,
// Leela, Agarwal, Chitrapura, Garg and Sasturkar, "Learning URL patterns for
// webpage de-duplication", WSDM 2010, Definition 1: a key k(x,y) addresses a
// token by its position x from the start and y from the end, so that
// /a/b/index.html and /index.html both have index.html at k(-,1). Path
// segments carry both positions ([Key] Pos and RPos), query parameters are
// keyed by name and occurrence, and scheme, userinfo, host, port and fragment
// are parts of their own rather than positions 1 and 2 as in the paper, so a
// segment's key does not change when a URL gains a port. Sub and RSub address
// deep tokens within a token (package deeptoken sets them). [AppendJoin] is
// the lossless inverse and ignores positions, so a rule that deletes or
// reorders tokens need not renumber them:
//
//	toks, _ := urlnorm.Tokenize(nil, "http://www.imdb.com/title/tt0810900/photogallery?ref=nv")
//	// scheme "http", host "www.imdb.com", path(1,3) "title", path(2,2) "tt0810900",
//	// path(3,1) "photogallery", query(ref) "nv"
//
// Tokenize expects the shape Canonical and Key print and does not
// canonicalize; it references substrings of its input and, with room in dst,
// does not allocate. [Normalizer.AppendKeyLayout] writes a key with its
// [KeyLayout], where the key writer put each part: the host and the query
// can be read from it, and its AppendTokens makes the key's tokens, when
// they are needed, without reading the key again; they equal Tokenize of
// the key.
//
// # Concurrency and allocation
//
// A Normalizer is immutable and safe for concurrent use. The parser is a
// single pass over the input that writes straight into the output buffer;
// AppendKey into a reused buffer does not allocate for ASCII hosts (except
// for FoldWWW on a www host, which asks the public suffix list), and Key
// and Canonical return their input without allocating when it is already in
// normal form.
package urlnorm
