// Package lcs finds fuzzy duplicate web pages with length-variable feature
// codes and the longest common substring, following Guo, Chen, Xin and
// Wang, "A length-variable feature code based fuzzy duplicates elimination
// approach for large scale Chinese web pages" (Harbin Institute of
// Technology; our copy names no venue, its references end in 2009), except
// where this doc says otherwise.
//
// Reprinted news pages carry ads, comments and links at their start and
// end. The method keeps only the important paragraphs of a page, turns
// them into a short string, the feature code, and calls a page a duplicate
// of another when one common substring covers most of its code, so a page
// contained in a longer one is caught too.
//
// # Feature codes
//
// [Code] takes a page's text as paragraphs (from an HTML extractor such as
// undust's htmltext). Following Algorithm 2, it looks at the first 1000
// visible characters only; a paragraph of at least 300 of them, or holding
// at least 75% of them, is an Independent Extraction Unit (Definition 1),
// and the code is the anchor code of the units (Algorithm 1). Anchors are
// common characters and punctuation, such as 的, 。 and ？. The text is cut
// at anchors into segments, and each segment gives its first and last
// character. The paper's example, with ， and 。 as anchors:
//
//	系统采用的特征码提取算法是基于语法获取特征的方法。这种方法将网页内容看成字符流，
//	以一些标点符号和常用汉字作为锚点，从网页内容中抽取文字作为网页特征码。
//	-> 系法这流以点从码
//
// Short navigation paragraphs rarely qualify, so ads and links around the
// article do not change the code (Table I). Without a unit, a text of many
// paragraphs takes the first and last characters of its first and last N
// paragraphs, a text of few is joined into one and coded whole; a code that
// is still too short is replaced by the first 4N characters of the text.
//
// # Repeatability and elimination
//
// The repeatability of page j over page i is S_ij = |lcs(C_i, C_j)| / |C_j|
// (Definition 2, [Repeatability]), where lcs is the longest common
// substring ([Longest], linear time). It is asymmetric: a short page inside
// a long one has S near 1 over it, and not the reverse. Page j duplicates
// page i when S_ij >= δ, 0.75 by default. [Eliminate] sorts the codes
// longest first and checks each against all codes kept so far at once, in a
// generalized suffix automaton; a duplicate is dropped, anything else kept
// and added ([Eliminator] does the same one page at a time for a crawler).
//
// # Choices where the paper is vague
//
//   - Length. Characters are runes after removing invisible ones (white
//     space, control and format characters, invalid UTF-8 and U+FFFD), as
//     step 2 says;
//     the 1000-character cut, L_pth and δ_p all count them, and δ_p is the
//     share of the cut text.
//   - Definition 1 lists its two conditions as if both must hold; its
//     prose says either suffices. Either does here.
//   - Tokens. A CJK character (Han, kana, Hangul) is one token and one code
//     symbol, as in the paper. A run of other letters and digits is one
//     token: a word, so that English codes are made of words rather than
//     of letters next to spaces. A word of two or more runes is coded as
//     one rune of the supplementary private use planes chosen by a 64-bit
//     FNV-1a hash of the lower-cased word (131,068 values: two words share
//     a symbol with odds 1 in 131,068, which at most lengthens a common
//     substring by one symbol). Any other visible rune is a token of its
//     own. Matching is case-insensitive; there is no other normalization.
//   - Anchors. The paper names 的, 。 and ？ and "others". Its first example
//     reproduces only with ， and 。 as anchors, its Table I example only
//     with 的, ，, “ and ” too. [DefaultAnchors] has 的, the Chinese and
//     ASCII punctuation, and, for English, the, a, an, of, and, or, to, in,
//     is (the most frequent words, playing the part of 的). On the undust
//     neardup corpus, punctuation alone or more function words change the
//     precision of English pages by about one point.
//   - Segment ends. The start and end of a unit count as anchors (the
//     first example's code begins with 系, the text's first character). A
//     one-token segment gives one symbol.
//   - Step 3b takes the first and last non-anchor token of each of the
//     first N and last N paragraphs (fewer last ones when they would
//     overlap the first). N = 5 and n_th = 10, so such codes have up to 20
//     symbols, the length of the paper's Table I codes. Step 3c joins the
//     paragraphs: words end at a paragraph break, segments do not.
//   - Step 4's threshold is 10 symbols; the fallback is the first 4N = 20
//     tokens of the cut text, anchors included.
//   - An empty code (a page without visible text) is never a duplicate and
//     never matches; Repeatability of an empty C_j is 0.
//
// # The suffix structure
//
// The paper keeps the kept codes in a generalized suffix tree. This package
// uses a generalized suffix automaton, the smallest automaton of all
// substrings of the kept codes: it answers the same question, in one pass
// over the new code, with no terminator symbols and no stored text. For a
// code C it finds L, the length of the longest substring of C occurring in
// any kept code, and S = L / |C| = max over kept K of |lcs(K, C)| / |C|,
// the repeatability of C's page over the kept page that contains the most
// of it. With codes sorted longest first, |K| >= |C| for every kept K, which
// is §III.C's procedure, and as the paper notes the lengths of kept codes
// are never needed. Each state records the first kept code containing its
// substrings, which names the kept page (Result.Of).
//
// Checking a code of n runes takes O(n) steps and adding it at most 2n
// states and 3n transitions. A state is 16 bytes, four to a cache line,
// and holds its only transition inline (seven states in eight have one);
// more live in a small block or a hash table, so that most steps touch one
// or two cache lines; a transition also records whether its target is exactly one
// rune longer than its source, which the construction asks for every added
// rune and would otherwise read from the target. On Linux the arrays that
// [Eliminator.Grow] reserves are advised to transparent huge pages, since
// steps over a large automaton land at random and with 4 KiB pages most of
// them also miss the TLB. [Eliminator.Add] stops the walk once no common
// substring can reach δ any more, which skips most of the walk for a page
// that is kept.
// Memory: a state is 20 bytes with the id of its first string, kept
// apart; on the synthetic Chinese codes of BenchmarkEliminate the
// automaton holds 1.2 states and 1.75 arena entries of 8 bytes, about 38
// bytes, per kept rune, without the slack of growing slices (Grow
// reserves for all the runes it is told of; BenchmarkEliminate reports
// B/kept).
package lcs
