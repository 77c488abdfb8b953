package shingle

import (
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// SpotOptions are the SpotSigs parameters. The zero value means the
// defaults. Functions taking it only read Antecedents.
type SpotOptions struct {
	// Antecedents are the (normalized) stop words that anchor spot
	// signatures; nil means DefaultAntecedents.
	Antecedents []string
	// Distance is the spot distance d: the chain takes every d-th
	// non-antecedent token after the anchor; 0 means 1.
	Distance int
	// Chain is the chain length c, the number of tokens in a signature
	// after the anchor; 0 means 2.
	Chain int
	// Tokens are the tokenization options (Width is ignored).
	Tokens Options
}

// DefaultAntecedents are the default anchor words: frequent English
// function words, and frequent Chinese function characters so that Chinese
// text, tokenized into characters, has spots too.
var DefaultAntecedents = []string{
	"a", "an", "the", "is", "are", "was", "were", "be", "been", "there", "this", "that",
	"these", "those", "it", "its", "has", "have", "had", "will", "can", "which", "who",
	"的", "是", "在", "了", "和", "与", "将", "对", "从", "为",
}

func (o SpotOptions) withDefaults() SpotOptions {
	if o.Antecedents == nil {
		o.Antecedents = DefaultAntecedents
	}
	if o.Distance <= 0 {
		o.Distance = 1
	}
	if o.Chain <= 0 {
		o.Chain = 2
	}
	return o
}

// Spots is a multiset of spot signatures: distinct signature hashes in
// increasing order with their counts. The zero value is the empty
// multiset. A Spots value is never modified by this package and is safe
// for concurrent reads.
type Spots struct {
	Hashes []uint64 // distinct signature hashes, increasing
	Counts []uint32 // occurrences of each
	Size   int      // sum of Counts, |d| in the SpotSigs papers
}

// SpotSignatures returns the spot signatures of text (Theobald, Siddharth,
// Paepcke, "SpotSigs: robust and efficient near duplicate detection in
// large web collections", SIGIR 2008). At every occurrence of an
// antecedent a, the signature is a followed by the chain of the next c
// tokens at spot distance d that are not antecedents themselves, as in the
// paper's example "a:rally:kick" for "a rally to kick off"; an occurrence
// too close to the end for a full chain yields no signature. The hash of a
// signature is XXH64 of its tokens joined by ':'.
func SpotSignatures(text string, o SpotOptions) Spots {
	o = o.withDefaults()
	o.Tokens.StopWords = false
	toks := Tokens(text, o.Tokens)
	anchor := make(map[string]bool, len(o.Antecedents))
	for _, a := range o.Antecedents {
		anchor[a] = true
	}
	// Positions of the tokens that may be in a chain.
	var content []int
	next := make([]int, len(toks)+1) // index into content of the first content token at or after i
	for i, t := range toks {
		next[i] = len(content)
		if !anchor[t] {
			content = append(content, i)
		}
	}
	next[len(toks)] = len(content)
	var hs []uint64
	var b strings.Builder
	for i, t := range toks {
		if !anchor[t] {
			continue
		}
		first := next[i+1] + o.Distance - 1
		last := first + (o.Chain-1)*o.Distance
		if last >= len(content) {
			continue
		}
		b.Reset()
		b.WriteString(t)
		for k := first; k <= last; k += o.Distance {
			b.WriteByte(':')
			b.WriteString(toks[content[k]])
		}
		hs = append(hs, xxhash.Sum64String(b.String()))
	}
	return newSpots(hs)
}

// newSpots counts the hashes in h (which it sorts).
func newSpots(h []uint64) Spots {
	slices.Sort(h)
	var s Spots
	for i := 0; i < len(h); {
		j := i
		for j < len(h) && h[j] == h[i] {
			j++
		}
		s.Hashes = append(s.Hashes, h[i])
		s.Counts = append(s.Counts, uint32(j-i))
		i = j
	}
	s.Size = len(h)
	return s
}

// SpotsOf returns the multiset of the hashes h (for instance shingle
// hashes, as SizeSpotSigs uses for pages with too few spots). It does not
// modify h.
func SpotsOf(h []uint64) Spots {
	return newSpots(slices.Clone(h))
}

// Jaccard returns the weighted Jaccard similarity of two multisets,
// sum of min counts / sum of max counts, which the SpotSigs paper uses; 0
// if both are empty.
func (s Spots) Jaccard(t Spots) float64 {
	inter := s.intersection(t)
	union := s.Size + t.Size - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// intersection returns the sum of the min counts.
func (s Spots) intersection(t Spots) int {
	n, i, j := 0, 0, 0
	for i < len(s.Hashes) && j < len(t.Hashes) {
		switch {
		case s.Hashes[i] < t.Hashes[j]:
			i++
		case s.Hashes[i] > t.Hashes[j]:
			j++
		default:
			n += int(min(s.Counts[i], t.Counts[j]))
			i++
			j++
		}
	}
	return n
}

// ScoredPair is a pair of documents, by index with A < B, and their
// similarity; a plain value.
type ScoredPair struct {
	A, B int
	Sim  float64
}

// SpotPairs returns every pair of documents whose weighted Jaccard
// similarity is at least t (0 < t <= 1), exactly, sorted by (A, B).
//
// It follows the SpotSigs and SizeSpotSigs search: documents are visited
// in increasing size, and since sim(A, B) <= min(|A|,|B|)/max(|A|,|B|),
// a document is only compared with earlier ones of size at least t times
// its own, which partitions the collection by size (the paper's
// partitions [p_k, p_k+1] taken as a sliding window). Within it an
// inverted index is probed with the document's signatures in increasing
// document frequency, and the probe stops once the weight seen exceeds
// (1-t)|d|: a document that shares none of those cannot reach t (the
// paper's early break on D1). Candidates are verified with the exact
// similarity. Empty documents pair with nothing.
func SpotPairs(docs []Spots, t float64) []ScoredPair {
	if !(t > 0 && t <= 1) {
		panic("shingle: SpotPairs threshold not in (0, 1]")
	}
	df := map[uint64]int32{}
	for _, d := range docs {
		for _, h := range d.Hashes {
			df[h]++
		}
	}
	order := make([]int, 0, len(docs))
	for i, d := range docs {
		if d.Size > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return docs[a].Size - docs[b].Size })
	index := map[uint64][]int32{} // signature -> positions in order
	lo := 0                       // first position still in the size window
	stamp := make([]int32, len(order))
	var out []ScoredPair
	var probe []int
	for pos, i := range order {
		d := docs[i]
		for lo < pos && float64(docs[order[lo]].Size) < t*float64(d.Size) {
			lo++
		}
		probe = probe[:0]
		for k := range d.Hashes {
			probe = append(probe, k)
		}
		slices.SortFunc(probe, func(a, b int) int { return int(df[d.Hashes[a]] - df[d.Hashes[b]]) })
		limit := (1 - t) * float64(d.Size)
		seen := 0.0
		var cands []int32
		for _, k := range probe {
			post := index[d.Hashes[k]]
			// Postings are in visiting order: skip those that fell
			// out of the size window.
			from, _ := slices.BinarySearch(post, int32(lo))
			for _, p := range post[from:] {
				if stamp[p] != int32(pos+1) {
					stamp[p] = int32(pos + 1)
					cands = append(cands, p)
				}
			}
			seen += float64(d.Counts[k])
			if seen > limit {
				break
			}
		}
		for _, p := range cands {
			j := order[p]
			if sim := d.Jaccard(docs[j]); sim >= t {
				a, b := min(i, j), max(i, j)
				out = append(out, ScoredPair{a, b, sim})
			}
		}
		for _, h := range d.Hashes {
			index[h] = append(index[h], int32(pos))
		}
	}
	slices.SortFunc(out, func(x, y ScoredPair) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	return out
}

// SizeSpotOptions are the SizeSpotSigs parameters. The zero value means
// the defaults; it is a plain value.
type SizeSpotOptions struct {
	Spot SpotOptions
	// MinSpots is the least number of spot signatures for a page to be
	// represented by them; smaller pages use their w-shingles instead.
	// 0 means 10.
	MinSpots int
}

// SizeSpots returns the SizeSpotSigs features of text. Mao et al.
// ("SizeSpotSigs: an effective deduplicate algorithm considering the size
// of page content", PAKDD 2011) observe that spot signatures, chosen to
// skip the noise of long pages, are too few on pages with little core
// content; as the "Duplicate Remover" summary puts it, stop-word features
// are chosen for long pages. The paper gives no rule for short pages, so
// this package chooses: a page with at least MinSpots spot signatures is
// represented by them, a smaller one by the multiset of its w-shingle
// hashes (Spot.Tokens options, tagged so they never equal a spot hash).
// Pairs are then found with [SpotPairs], whose size partitioning keeps
// long and short pages apart.
func SizeSpots(text string, o SizeSpotOptions) Spots {
	minSpots := o.MinSpots
	if minSpots <= 0 {
		minSpots = 10
	}
	s := SpotSignatures(text, o.Spot)
	if s.Size >= minSpots {
		return s
	}
	h := Hashes(text, o.Spot.Tokens)
	for i := range h {
		h[i] = fmix(h[i] ^ 0x5bd1e9955bd1e995)
	}
	return newSpots(h)
}
