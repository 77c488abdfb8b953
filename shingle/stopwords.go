package shingle

// stopWords is a common English stop-word list (articles, pronouns,
// auxiliaries, prepositions, conjunctions), the kind the lecture notes mean
// by "typically omitted as they are so common".
var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range []string{
		"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any",
		"are", "as", "at", "be", "because", "been", "before", "being", "below", "between",
		"both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during",
		"each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her",
		"here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into",
		"is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
		"not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours",
		"ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such",
		"than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
		"these", "they", "this", "those", "through", "to", "too", "under", "until", "up",
		"very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom",
		"why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves",
	} {
		m[w] = struct{}{}
	}
	return m
}()

// IsStopWord reports whether the lower-case word w is in the English
// stop-word list that Options.StopWords drops.
func IsStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}
