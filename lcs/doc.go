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
// longest first and checks each against all codes kept so far at once, in
// an index of the kept codes; a duplicate is dropped, anything else kept
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
// # The index of kept codes
//
// The paper keeps the kept codes in a generalized suffix tree, and so did
// this package, in the form of a generalized suffix automaton, the
// smallest automaton of all substrings of the kept codes: one pass over a
// code finds L, the length of the longest substring of C occurring in any
// kept code, and S = L / |C| = max over kept K of |lcs(K, C)| / |C|. It
// takes O(n) steps for a code of n runes, but every step lands at random
// in a structure of some 40 bytes per kept rune, several cache and TLB
// misses per rune once it outgrows the caches: 100,000 codes of median 200
// runes took some 16 s and 0.84 GB.
//
// The question asked is narrower: whether L reaches need = ⌈δ|C|⌉ runes,
// and if so L and its witness. The [Eliminator] therefore keeps the kept
// codes as runes in one array and indexes them by minimizers: of every
// window of 4 consecutive 5-grams, the one of least hash (the leftmost of
// equal ones), about 2 grams in 5. The gram a window selects depends on
// its runes only, so two codes sharing a substring of at least 8 runes
// (4 grams) select a gram at the same place in it. A code is checked by
// looking up its own selected grams, a few independent table lookups
// rather than a chain of dependent steps; each hit is compared rune by
// rune and extended both ways along its diagonal into a maximal common
// substring (hash collisions are thereby dismissed), once per kept code
// and diagonal. Every common substring of 8 or more runes is found whole,
// so when need >= 8 the verdict is exact, and so are L and the witness of
// a duplicate: of the longest common substrings, the one ending first in
// C, and of the kept codes containing it, the first kept, as the
// automaton gave them. A code with need < 8 (fewer than 10 runes at δ =
// 0.75), or [Eliminator.Check] finding no common substring of 8 runes,
// is answered by reading all kept runes in order: wherever a pair of runes
// of the code (for Check, one rune) may start, the longest substring of
// the code starting there is found in the code's own suffix automaton.
// That is exact too, and sequential reads cost little. A kept page's
// Common and Score are lower bounds (often 0), since the search asks only
// whether a duplicate exists.
//
// Codes like real ones take a few steps per rune this way. Repetitive
// ones do not: a gram found in every kept code, or a code of one rune
// repeated, gives many postings per lookup, and scans for short codes
// cost all kept runes. The Eliminator counts its steps (a rune read in
// order as a quarter of one); once they exceed 32 per rune checked (or
// one search 16 per rune of its code), it moves the kept codes, in their
// order, into the generalized suffix automaton for good, and from then on
// checks as before, in O(n) steps per code. Either way cost stays linear
// in the input. Since Check must be exact for short common substrings
// too, an Eliminator asked mostly to Check codes unlike the kept ones
// soon moves to the automaton.
//
// The automaton's layout is chosen for few cache misses: a state is 16
// bytes, four to a cache line, and holds its only transition inline
// (seven states in eight have one); more live in a small block or a hash
// table; a transition also records whether its target is exactly one
// rune longer than its source, which the construction asks for every
// added rune. Each state records the first kept code containing its
// substrings, which names the kept page (Result.Of). [Longest] builds one
// for its first argument. On Linux the large arrays (the automaton's,
// and the index's text, table and postings) are advised to transparent
// huge pages.
//
// Memory: on the synthetic Chinese codes of BenchmarkEliminate the index
// takes 4 bytes of text, 0.37 postings of 16 bytes and the hash table's
// heads, some 14 bytes per rune that [Eliminator.Grow] is told of
// (BenchmarkEliminate reports B/kept); the automaton, when used, about 40
// bytes per kept rune. Eliminating 100,000 codes of median 200 runes
// takes 1.4 to 1.9 s of CPU time and 0.37 GB.
package lcs
