// Package shingle turns text into tokens and w-shingles, hashes shingles,
// and compares documents by the resemblance and containment of their
// shingle sets (Broder, "On the resemblance and containment of documents",
// Compression and Complexity of Sequences, 1997).
//
// # Tokens
//
// The default tokenization is the one Ellis Horowitz's lecture notes
// "Deduplication" (University of Southern California, 2011-2022; "the
// lecture notes" below and in this package's comments) settle on and the one the neardup corpus labels were computed with:
// NFKC normalization, lower case, every CJK ideograph (Unicode script Han)
// a token of its own, every other maximal run of letters and numbers
// (Unicode categories L and N) a token, everything else a separator.
// Invalid UTF-8 bytes read as U+FFFD (a separator) before normalization. So
// "Hello, 世界 World2" is "hello", "世", "界", "world2". English is split
// into words, Chinese into characters, and mixed text works without a word
// segmenter. [Options] turns on the other choices the notes list: keeping
// case or full case folding, keeping punctuation, dropping stop words,
// skipping NFKC, and character shingles.
//
// # Shingles and hashes
//
// A w-shingle is w consecutive tokens (w = 5 by default). The notes leave
// open what a text shorter than w is; here, as in the corpus, it is one
// shingle of all its tokens, and a text without tokens has no shingles.
// The 64-bit hash of a shingle is XXH64 with seed 0 of its tokens joined by
// single spaces, which makes it reproducible in any language with an
// xxhash library: "a rose is a rose" with w = 4 hashes "a rose is a" and
// "rose is a rose".
//
// # Sets, resemblance and containment
//
// A [Set] is the sorted distinct hashes of a document. For the lecture's
// A = {0, 1, 2, 5, 6} and B = {0, 2, 3, 5, 7, 9}, Jaccard(A, B) = 3/8 and
// the containment of A in B is 3/5. [Set.Sample] keeps the hashes that are
// 0 mod m, the notes' mod-m fingerprints. [Digest] and [Digest64] hash the
// normalized text for exact duplicates. Sets are plain sorted slices: on
// documentation pages they hold hundreds to a few thousand hashes, where a
// merge of two slices beats a compressed bitmap, so roaring bitmaps are not
// used.
//
// # MinHash and LSH
//
// [MinHasher] computes k-value signatures (k = 128 by default) by one
// permutation hashing with optimal densification; the scheme is spelled
// out on the type. [Estimate] is the fraction of agreeing positions, with
// standard deviation sqrt(J(1-J)/k), 0.044 at J = 0.5 (a seeded
// statistical test checks it). [LSH] bands signatures for a threshold and
// finds candidates in O(b*r + candidates); it is safe for concurrent
// queries and saves to a versioned, checksummed format.
//
// # SpotSigs and SizeSpotSigs
//
// [SpotSignatures] follows Theobald, Siddharth and Paepcke (SIGIR 2008): a
// signature is an antecedent (a stop word) and the chain of the next c
// non-antecedent tokens at spot distance d. The paper's text is not in
// the project's sources, so the defaults are this package's choice: d = 1,
// c = 2 (the paper's running example "a:rally:kick" has that shape), and
// a list of frequent English function words plus frequent Chinese
// function characters, since Chinese is tokenized into characters.
// Similarity is the weighted Jaccard of signature multisets. [SpotPairs]
// returns all pairs above a threshold with the size partitioning and
// early-break bounds of the SpotSigs / SizeSpotSigs search, exactly.
// [SizeSpots] is this package's reading of SizeSpotSigs (Mao et al., PAKDD
// 2011, as summarised by the "Duplicate Remover" paper): spot signatures
// for pages with enough of them, shingles for the rest.
//
// # Template features
//
// A site's template (a manual's table of contents on every page of the
// manual, headers, footers, a converter's furniture) leaks into the text
// that extraction keeps, and then two different pages of one manual share
// most of their shingles. [Templates] learns, from the pages of each host,
// which features are on too many of them to identify any: a feature is
// template on a page when, in the page's host or in one of its first
// directories, it is on at least 5 pages and at least 1% of that group's
// pages (both settable). Near-duplicate methods drop those features before
// they compare pages. Learning is incremental and its counts do not depend
// on the order of the pages; memory per host is bounded. On the neardup
// corpora, with full-page text (the worst case of template leakage),
// dropping the template features of all hosts took trap false positives of
// Jaccard at 0.8 from 110 to 0 and F1 from 0.727 to 0.881 on a corpus of
// Sphinx manuals the settings were not tuned on; on main content that is
// already clean it costs up to 0.014 F1.
package shingle
