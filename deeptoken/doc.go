// Package deeptoken learns the delimiters that a web host uses inside its URL tokens and splits
// tokens into deep tokens, after Koppula, Leela, Agarwal, Chitrapura, Garg and Sasturkar,
// "Learning URL patterns for webpage de-duplication", WSDM 2010, §3.1.2 (Definitions 3-5,
// Algorithms 1 DeepTokenize and 2 SelectAnchors, Lemma 1, Figure 2), and its short version,
// Agarwal et al., "URL normalization for de-duplication of web pages", CIKM 2009, §3.1.
//
// Webmasters encode parameters inside path segments with delimiters of their own:
// "accelerate.php[id]100019[SiteID]softwareoasis", "W0QQ_fclsZ1QQ_pcatidZ1", "friends-lttU7d6kIuGq",
// "tt0810900". A [Learner] reads the URLs of one host and learns, for every key (a path segment
// position or a query parameter name), a tree of patterns; [Patterns.AppendSplit] then splits
// the urlnorm tokens that a pattern covers into deep tokens, keyed k(x_i, y_j) with
// urlnorm.Key.Sub and RSub, so that a rule can address (and wildcard) the parts of a token:
//
//	friends-lttU7d6kIuGq  under the pattern  friends - *
//	-> "friends" (Sub 1), "-" (Sub 2), "lttU7d6kIuGq" (Sub 3)
//
// # Units and candidate anchors (Definition 3)
//
// A token value is cut into units: maximal runs of lowercase letters, of uppercase letters or of
// digits (a change of class is the paper's "unit change"), runs of non-ASCII bytes, and single
// delimiter characters (any other byte; a percent-escape such as "%2F" is one delimiter). Every
// run of letters or digits is a candidate anchor, except in a token that is a single unit. The
// paper's regex ([a-z]+|[A-Z]+|[0-9]+) would cut "Austria" into "A" and "ustria", which its
// own Figure 2 does not do: here an uppercase letter followed by lowercase letters starts one
// unit, a capitalized word ("Austria", the "Parser" of "HTMLParser"), unless a lowercase letter
// comes right before it, so that eBay's "nkwZtips" is "nkw", "Z", "tips" with "Z" as the
// delimiter it is. "SiteID" is "Site" and "ID" (the paper keeps it whole in an example, which
// Definition 3 does not allow).
//
// # Patterns and the pattern tree (Definition 4, Algorithms 1 and 2)
//
// A pattern is a sequence of elements, each a literal unit (an anchor or a delimiter) or "*",
// which stands for one or more units; written with spaces between elements, Figure 2's
// "*-Austria-*.html" is "* - Austria - * . html". Learning starts from the pattern "*" with all
// distinct values of the key. At a node, the candidate anchors inside the node's stars are
// clustered by the paper's start delimiter, end delimiter and type (numeric or alphabetic), and
// also by the star they sit in. The paper's own example needs one more feature: its clusters
// {Austria} and {Vienna, Salzburg, Graz} have the same delimiters ("-" and "-") and type and
// differ only in where they stand. So every candidate falls in three clusters: anywhere in its
// star, and at its position among the star's candidates counted from the start and from the end
// (up to 8). Per cluster the paper's three features are computed: token coverage, unique anchor
// count and frequency variance. Anchors in fewer than MinSupport (3) tokens are noise (an
// all-letter product id where the keyword "item" usually stands): they count neither as unique
// anchors nor as coverage. A cluster is selectable when
//
//   - its anchors cover at least MinCoverage (0.3) of the node's tokens,
//   - it has at most MaxUnique (16) anchors,
//   - the coefficient of variation (standard deviation / mean) of its anchors' token counts is
//     at most MaxVariation (1): the paper asks for low variance without a scale, and the
//     coefficient makes the bound independent of the host's size,
//   - and, for anchors with a unit change on both sides (no delimiter character: the "Z" of
//     "fclsZ1", but also any letter inside a random id), it is positional, has one anchor and
//     covers 80% of the tokens.
//
// Selected anchors refine a node's pattern into child patterns (GenerateChildPatterns): in each
// token, every occurrence of a selected anchor in its cluster becomes a literal, with the
// delimiter characters next to it, and the rest of the star between literals stays a star;
// tokens are grouped by the pattern that results. The paper selects several clusters at once
// but does not say how many; here the selectable clusters with the fewest unique anchors are
// tried together first (Figure 2's {Austria} and {html}, which make "* - Austria - * . html"),
// then each selectable cluster alone, best first (fewest unique anchors, then highest coverage,
// then lowest variance), at most 8 tries, and the first refinement that is productive is kept:
// its child patterns with at least MinSupport tokens must hold at least MinCoverage of the
// node's tokens, and there must be at most MaxChildren (32) of them. Productivity is what keeps
// random identifiers whole: their letters and digits form clusters of few unique anchors, but
// every token then makes a pattern of its own. Learning recurses into each child down to
// MaxDepth (12) levels and stops where no refinement is productive. Tokens are counted once per
// distinct value: a page crawled with a hundred session ids says no more about the host's
// delimiters than once.
//
// # Deep tokens (Definition 5)
//
// To split a token, AppendSplit walks its key's tree from the root: at a refined node it
// refines the token with the node's anchors and descends into the child whose pattern results;
// where no child matches, the node is the token's leaf pattern. Each element of the leaf pattern
// gives one deep token: a literal its unit, a star the text it spans (a random id, "Vienna").
// A token whose leaf pattern is "*" stays whole. Hosts without structure inside their tokens
// (natural words, slugs of varying words) select no anchor and get no deep tokens.
//
// # Keys
//
// Path segments are keyed by their position from the start of the path (urlnorm.Key.Pos), the
// key k_i of the paper's MapReduce stage I (§4); query values by parameter name (every
// occurrence of a name shares one tree). Position from the start suits the hosts this package is
// for: encoded segments sit at a fixed depth below fixed directories (/title/tt0810900/...,
// /user/friends-...), while their position from the end changes with a trailing slash or a
// sub-page. Scheme, host, port, userinfo and fragment are never split.
//
// # Cost
//
// Learning a tree looks at every distinct value a bounded number of times per level, so it runs
// in O(n·d_max) for n distinct values (Lemma 1). A key with more than MaxSample (4096) distinct
// values is learned from an even sample of its sorted values, which bounds the cost per key;
// shares such as coverage are estimated well from a few thousand values. Splitting a token costs
// O(units · depth) and does not allocate for tokens of up to 96 units. The learned patterns of a
// host have a deterministic, line-oriented text form ([Patterns.AppendText], [ParsePatterns])
// that the rules file embeds; see [Patterns.AppendText] for its grammar.
//
// ParsePatterns runs in time and memory linear in its text, whatever the text holds: a node of
// many anchors finds them through a map, and a key at a high path position (up to 32767) costs
// one tree, not a slot per position below it. Its limits are fixed by the format: trees at most
// 1000 levels deep, path positions and star gaps up to 32767, anchor positions within ±8. The
// caller bounds the text's size (package rules reads lines of at most 1 MiB).
package deeptoken
