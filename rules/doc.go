// Package rules applies URL rewrite rules learned from dup clusters: the rule model, a rule set
// indexed for online matching, a versioned text file format, and the metrics that judge rules.
//
// It follows Koppula, Leela, Agarwal, Chitrapura, Garg and Sasturkar, "Learning URL patterns for
// webpage de-duplication", WSDM 2010 (§2 Definitions 1 and 2, §5 metrics), and the offline
// generation / online application split of Agarwal et al., "URL normalization for
// de-duplication of web pages", CIKM 2009 (Figure 1).
//
// # Model
//
// A URL is a function from keys to values (Definition 1): the tokens of urlnorm.Tokenize, keyed
// by part, by path position from the start and from the end, by query name, and by deep-token
// index within a token. A [Rule] (Definition 2) has a [Scope] (an exact host, every host under
// a registrable domain, or every host: [AllHosts]), a [Context] of conditions on keys (a value,
// the wildcard "*", or ⊥, key absent) and a [Transformation] of actions on keys (assign a
// literal, delete ⊥, copy the value of another key — the paper's key reference — with a value
// conversion, convert a value in place (change its case, or cut it to its head or a prefix), or the whole path at any depth; an assignment or copy
// to a path key can insert a segment rather than overwrite one). Keys a context does
// not name are unconstrained; keys a transformation does not name are kept, which is how a
// wildcard passes its value through. Take www.imdb.com of the paper:
//
//	host=www.imdb.com cov=120 prec=1 sup=4 if path(1,3)="title" path(2,2)=* path(3,1)="photogallery" then path(3,1)="mediaindex"
//
// rewrites http://www.imdb.com/title/tt0810900/photogallery to .../title/tt0810900/mediaindex.
//
// Deep tokens come from package deeptoken: give a Set each host's learned *deeptoken.Patterns
// ([Options].Patterns) and rules can address a part of a segment or of a value, path(1.3,-) for
// the third deep token of the first segment. The patterns travel in the rule file.
//
// # Matching
//
// A [Set] keeps the rules of each scope in a small decision tree over their conditions: a node
// splits its rules by their condition on one key (an Equal value, Any, Absent, or none), the key
// that most of its rules have a condition on; path keys meet by their position from the start
// when they give one (path(1,3) and path(1,-) both need segment 1). A URL walks down the branches
// that its own values select, so it is checked against the few rules of the leaves it reaches,
// not against every rule of its host. Most conditions of learned rules ask only whether a key is
// present (query(s)=*) or absent (query(page)=-): each tree gives up to 64 of the keys its rules
// read a bit, a URL's presence mask for the tree is made in one pass over its query, and a rule
// whose required keys are not all present, or whose excluded ones are, is passed over with one
// test of the mask and no lookup; the conditions the mask decides are not looked up at all. On
// the learned set of the package's benchmark this leaves 1.5 rule checks and 6.5 lookups per URL
// of the 8.5 and 27 without it. When several rules match, the most specific applies: the
// rule with most literal conditions (Equal and Absent), then most conditions, then most Equal
// conditions (a value the URL has names it better than a key it lacks); ties go to higher
// coverage, then precision, then support, then exact-host scope before domain scope before the
// every-host scope, then the rule's content, so the choice never depends on the order rules were
// given in. This is the order in which package learn measured its rules, so a learned set
// rewrites as the learner measured it.
// The rewritten URL goes through the set's canonicalizer (urlnorm's Safe canonical form by
// default) and is matched again, up to [Options].MaxRewrites (8) times.
//
// # Choices where the paper is silent
//
//   - The paper numbers scheme and host as positions 1 and 2; here they are keys of their own, so
//     a path key does not move when a URL gains a port (urlnorm.Key).
//   - A context can require a key to be absent (⊥); the paper's context has values and "*" only.
//     A Copy action implicitly requires its source key to be present.
//   - Assigning to a key the URL lacks adds it (the paper's "key add"); a path segment is inserted
//     at the position its key gives, counted on the URL before the rewrite.
//   - Of the paper's value conversions, Lowercase and Uppercase are kept (ASCII letters only),
//     with LowerFirst and UpperFirst (the first byte only, if an ASCII letter: a wiki title is
//     case-insensitive in its first letter only). Encode and Decode are left to the
//     canonicalizer that every rewritten URL goes through. A further conversion, [Prefix], keeps
//     a value's first n bytes (prefix16 in the file): content-addressed stores, such as the web
//     front-ends of version-control systems, link one object by abbreviations of its hash of
//     different lengths, which no literal or case conversion makes one value. And [Head] keeps
//     a value's leading run of letters and digits (head in the file): applications that name a
//     record by its id and a slug or alias they ignore (/threads/5000-stone-ember and
//     /threads/5000, id=12:welcome and id=12) need it, since the slug differs for every record
//     and no literal or deep token writes the id.
//   - The paper keys a transformation by absolute position, so "lowercase the path" or "add a
//     trailing slash" is one rule per depth. Here a Convert of the whole path
//     (path(-,-)=lower in the file) converts every segment before the other actions apply, and an
//     Assign or Copy with Insert (path(-,1)+="" in the file) inserts a segment where one exists,
//     so a window of segments can be replaced by more segments than it had.
//   - Of the matching rules, the first in precedence order that changes the URL applies, so a rule
//     that leaves a URL as it is (a lowercasing rule on a lower-case URL) does not hide the rules
//     after it. Rewriting stops when no matching rule changes the URL, at a URL seen
//     before in the same chain (reported as ErrCycle, with the input URL, keyed if the set has
//     a Key), or at the bound (ErrRewriteLimit, with the last URL).
//   - Precision is computed as §5 defines it; see [RuleMetrics].
//
// # File format
//
// [Set.WriteTo] writes, and [Load] and [Set.ReadFrom] read, a line-oriented text file (see
// format.go): the line "undust-rules v2", an optional key line, the hosts' deep-token pattern
// lines, one line per rule, and a closing line "end N SUM" with the number of rules and a
// CRC-32C of the lines before it. A file cut anywhere or changed is an error, never a smaller
// or different set. Files of version 1 (no end line) are still read, without that check: a cut
// version 1 file loads as the rules before the cut. LF and CRLF line endings are both read.
//
// # Limits and costs
//
// Every limit has a default that a crawler can live with and can be set:
//
//   - Options.MaxRules (DefaultMaxRules, 262,144): NewSet and the reader refuse more rules with
//     ErrTooManyRules; the reader stops at the first rule too many, so memory stays bounded
//     (a rule takes about 1 KB in a Set, a learned rule of many conditions up to 2.5 KB).
//   - Options.MaxRewrites (DefaultMaxRewrites, 8): rewrites of one URL.
//   - A file line holds at most 1 MiB; a longer line is an error (ErrFormat), read no further
//     than the limit.
//
// Reading a file takes time and memory linear in its size. Building the index of n rules with c
// conditions in all takes O(c log n) time: a path through the index takes O(log n) splits that keep
// every URL from at least 1/16 of a node's rules and at most 16 weaker ones, so rules that each
// have a condition key of their own make a short chain and then one leaf, not a chain of n
// levels; the presence bits cost one pass over the tree and its rules' conditions, and a table
// of at most 64 keys. A URL whose host and domains have no rules, and that has no query parameter that a
// rule of every host requires, is turned away in O(len(URL)) before it is tokenized. Otherwise
// Normalize tokenizes the URL (of L tokens; with more than 16
// query parameters they are indexed by name), makes its presence mask for each tree it searches
// (O(L), at most 64 string comparisons per parameter), walks the index and checks the rules of the
// leaves it reaches; if the best matching rule leaves the URL as it is, it finds every matching
// rule in one more walk and tries them in precedence order, each try a lookup per action when
// the rule certainly changes nothing. Per rewrite this is O(L log L + r·(c_r log L)) for the r
// rules checked with c_r conditions each, at most every rule of the URL's scopes, and there are
// at most MaxRewrites rewrites.
package rules
