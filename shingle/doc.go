// Package shingle turns text into tokens and w-shingles, hashes shingles,
// and compares documents by the resemblance and containment of their
// shingle sets (Broder, "On the resemblance and containment of documents",
// Compression and Complexity of Sequences, 1997).
//
// # Tokens
//
// The default tokenization is the one the lecture notes on de-duplication
// settle on and the one the neardup corpus labels were computed with:
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
package shingle
