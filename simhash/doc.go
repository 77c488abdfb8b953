// Package simhash computes 64-bit SimHash fingerprints of weighted features
// and finds near-duplicate fingerprints by Hamming distance, online (Index)
// and in batch (FindPairs).
//
// SimHash is Charikar's random-hyperplane rounding (M. Charikar, "Similarity
// estimation techniques from rounding algorithms", STOC 2002), used for web
// pages by G. S. Manku, A. Jain and A. Das Sarma ("Detecting near-duplicates
// for web crawling", WWW 2007) with f = 64 bits and k = 3: two pages are near
// duplicates when their fingerprints differ in at most 3 bits. The
// fingerprint follows Ellis Horowitz's lecture notes "Deduplication"
// (University of Southern California, 2011-2022; "the lecture notes" in this
// package's comments): keep 64 counters
// V[0..63] at zero; for every feature hash h with weight w, add w to V[i]
// when bit i of h is set and subtract w when it is clear; bit i of the
// fingerprint is 1 when V[i] > 0.
//
// # Conventions
//
// Bit i means the bit with value 1<<i, in the feature hashes and in the
// fingerprint alike. A counter that ends at exactly 0 gives bit 0 (the
// lecture notes' "V[i] > 0"; Charikar's sign of a zero dot product is not
// specified), so the fingerprint of no features is 0. TieOne selects the
// other rule, which some libraries use. Features are 64-bit hashes made by
// the caller (for example the w-shingle hashes of package shingle); weights
// are counts when a hash is passed once per occurrence (Sum64,
// Accumulator.Add), or any real number supplied by the caller, such as an
// inverse document frequency (Sum64Weighted, Accumulator.AddWeighted).
//
// SumText fingerprints text directly: the w-shingle hashes of package
// shingle (5-word shingles of NFKC lower-cased text by default), weighted by
// counts. Counts let text that repeats within a page (menus, footers, a
// sidebar listing every version) dominate its fingerprint; on the neardup
// corpus, fingerprints of full-page text are far less precise than those of
// main content (htmltext's Options.MainContent), or than fingerprints of the
// shingle set (Sum64 of a shingle.Set, every distinct shingle weighing 1).
//
// For example, the features 0b110, 0b011 and 0b010 give V[0] = -1,
// V[1] = +3, V[2] = -1 and V[3..63] = -3, so Sum64 returns 0b010; the
// Hamming distance from 0b110 is 1.
//
// # Online index
//
// Index implements the permuted tables of Manku et al.: cut the 64 bits
// into B blocks; two fingerprints within distance K agree on at
// least B-K whole blocks, so a table keyed by each choice of B-K blocks,
// probed at the query's key, finds every match. Manku et al. sort each
// permuted table and probe by binary search; because an Index takes inserts
// and deletes one at a time, each table here is instead a directory of
// buckets addressed by the leading bits of its key (up to the whole key),
// grown as the index grows so that a bucket holds 4 to 8 fingerprints on
// average. The default is B = K+1 (for K = 3, 4 tables each keyed by one
// 16-bit block: the least memory); IndexOptions.Tables buys longer keys and
// shorter candidate lists with more tables (for K = 3, 10 tables keyed by 2
// of 5 blocks, about 26 bits, or 20 tables keyed by 3 of 6 blocks, 32 bits,
// as in the paper's designs). A match found in several tables is reported once.
//
// # Other libraries' fingerprints
//
// A Profile fixes tokenization, feature hash and tie rule so that text
// fingerprints match another library's: GoDedup (github.com/go-dedup/simhash
// and github.com/mfonda/simhash) and PySimhash (the Python package simhash
// by 1e0ng). The tests reproduce the fingerprints those libraries publish.
// All of them weigh features by counts.
//
// # Batch finder
//
// FindPairs is the lecture notes' offline method for a whole crawl: sort
// the fingerprints, compare each with its neighbours, then rotate every
// fingerprint's bits and repeat. Sorting brings together fingerprints that
// share their high-order bits; rotating moves other bits to the top. The
// notes compare adjacent entries only and rotate by one bit at a time, up to
// 64 times; FindPairs does that by default, and also takes a window (compare
// each entry with the next W entries) and a rotation step. Rotation is to
// the left (the notes show both directions; on 64 rotations they are the
// same passes); the notes' aside of also comparing the first and last
// entries is not done. It finds only true pairs (within k) but may miss
// some; its recall against the exact answer (FindPairsExact) is measured in
// the tests, as a function of rotations and window.
package simhash
