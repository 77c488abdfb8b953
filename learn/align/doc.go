// Package align learns URL rewrite rules from dup clusters by multiple URL alignment: the
// DUSTER approach of Rodrigues, Cristo, de Moura and da Silva, "Removing DUST using multiple
// alignment of sequences", IEEE TKDE 2015, as the "Duplicate Remover" paper (Vaishakhi and
// Neethu) restates it in §3.2-3.4: multiple URL alignment, candidate rules with a minimum
// frequency, and validation with a maximum false-positive rate and a minimum support. It is a
// second learner beside package learn's decision-tree learner (Koppula et al., WSDM 2010): both
// return a rules.Set, and [Compare] measures them side by side on the same split.
//
// # Alignment
//
// A URL is brought to learn.Prepare's form (urlnorm's Crawler key) and cut into tokens with
// urlnorm.Tokenize: scheme, host, port, path segments, query parameters (sorted by the key).
// Two sequences of tokens are aligned globally (Needleman-Wunsch): tokens of different parts,
// or query parameters of different names, never share a column; two columns that share a value
// score +2, two query parameters of one name with different values +1, two other tokens with
// different values 0 (a mutable slot), a token against nothing -1 (an optional token). The score
// is symmetric. A cluster's URLs are aligned progressively as the paper's Algorithm 3.2 does:
// the scores of all pairs go into a priority queue; the best pair of profiles not yet aligned
// is merged into a consensus (a profile: columns holding every row's token or a gap), which is
// scored against every remaining profile, until one consensus is left. Ties go to the lower
// indexes, so the consensus depends only on the URLs. For k URLs this is O(k^2) alignments of
// O(L^2) each (L tokens); clusters larger than Options.K (10) are sampled, the K URLs with the
// smallest hash of (seed, cluster id, URL), so a cluster of 500 session variants costs what one
// of 10 does.
//
// # Candidate rules (the paper's Algorithm 3.3)
//
// A column is fixed when every row has it with one value, optional when some row lacks it, and
// mutable when every row has it with different values. The paper turns a consensus into one
// rule without saying how; here each aligned URL yields the rewrite to its cluster's canonical
// form: an optional token is deleted; a mutable host, scheme or port, and mutable values that
// are all frequent on the site (synonyms such as photogallery and mediaindex), are set to the
// value the site's clusters use most (ties to the shorter, then smaller value), so that all
// clusters agree; values that differ only in case are lowercased; values that look like hashes,
// the shortest a prefix of the others (abbreviations of one hash), are cut to the shortest
// (rules.Prefix); rare mutable values (session
// ids, random suffixes) are deleted. As in the paper, the output is then a signature of the
// cluster rather than always one of its URLs. The rule's context names every token of the URL:
// a value seen in at least Options.LiteralMin (3) of the site's clusters at its key is a
// literal, a rarer one (an id, a title) the wildcard. Path segments are keyed by their
// position from both ends, so a context matches URLs of one length. Besides this whole-URL
// rule, a URL with several actions yields one rule per action, whose context names the path,
// the columns every row has and the token acted on: these chain (rules.Set reapplies rules to
// their output) where the whole rule would need the exact combination of optional tokens.
// Some actions mean the same wherever the path goes, and also yield a rule for the whole host
// whose context names only the token acted on: deleting a query parameter (whatever its value:
// one rule per value would pass validation value by value and, together, merge every page the
// parameter tells apart), deleting or setting a last path segment with a frequent value
// (index.html, the empty segment of a trailing slash), and setting the scheme or the host.
// A host-wide parameter deletion is not made where the parameter looks identifying in a page
// family (URLs of the host with one last path segment) where no pair of one cluster shows it
// redundant and its values are mostly distinct (phpBB's f= in viewforum.php): it is replaced by
// one rule per family where a pair supports it, its context naming the last segment.
//
// Parameter roles per page type, as in package learn: a page type is a path template and the
// URL's type values (do=recent, action=edit), and a parameter whose value never differs within
// a cluster of the type, takes at least 2 values there and that no URL of a cluster drops
// identifies pages of the type, however few its values. A candidate that deletes such a
// parameter whatever its value is rejected when it changes a validation URL of that type;
// and a cluster whose URLs differ in a parameter that identifies pages of their type in most
// other clusters (pages grouped by mistake, such as the "not found" pages of deleted topics)
// is left out of generation and validation (Options.NoRoles turns this off).
//
// As in package learn, a host whose duplicates differ in path case (beyond first letters) and
// whose clusters lowercasing does not merge has its paths lowercased, by trees (first path
// segments) where case matters in some tree, and is learned from lowercased paths; and the learned set is made acyclic on its training URLs (of each rewrite
// cycle, the rule of least coverage is dropped; learn.Stats.Cycles). The set keys URLs with
// urlnorm's Crawler flags (rules.Options.Key), so its rules file carries a key line and a
// loaded set takes raw URLs as the learned one does.
//
// A path segment and a query value never share a column, so a key moved between path and query
// (/wiki/T = /w/index.php?title=T = /?title=T, /video?video_id=X = short.link/X) defeats the
// signatures. In a cluster where a path segment of one URL is a query value of another, every
// URL also yields a target rule: it rewrites the URL into the cluster's target, the URL with
// fewest query parameters, then path segments, then tokens, then shortest, fewest capitals,
// smallest (a structural order, as package learn's target selection, so that clusters agree).
// Each target value is kept where it is, copied from the token of the URL that has it (a key
// reference: path(2,1) := query(title)), or written as a literal if it is frequent on the site;
// the URL's other segments and parameters are deleted; a rule that would need a rare literal is
// not made.
//
// Candidates are grouped by their text (scope, context, transformation) and kept when at least
// Options.MinFreq (2) clusters yield them.
//
// # Validation (the paper's Algorithm 3.4)
//
// Each site's clusters are split 50/50 by learn.InHalf with a seed of the learner's own:
// candidates come from one half, validation uses the other. Each candidate is applied alone
// (through a one-rule rules.Set, as a crawler would) to the validation URLs of its host that
// its context matches. The URLs it changes are grouped by output, together with the unchanged
// validation URLs that already have that form (the paper groups only the URLs the rule
// matches, which misses a rule that maps a page onto another existing page). Pairs in a group
// with at least one changed URL support the rule; pairs of different clusters are false
// positives. URLs that share a static key count once: two of them would support any rule
// that matches them. A rule is kept with at least Options.MinSupport (1) supporting pairs and a
// false-positive rate of at most Options.FPRMax (0.01); a rule for the whole host must have no
// false-positive pair at all, since its many supporting pairs on one kind of page would hide its
// errors on another (phpBB's f= is redundant in viewtopic.php and the content in viewforum.php).
// Its Stats are the validation coverage, 1 - the false-positive rate, and the number of
// generation clusters that yielded it.
//
// A rule that passes is measured the same way on the generation half, and dropped when its
// false-positive pairs over both halves exceed Options.FPRMax of its supporting pairs over
// both: the clusters it was drawn from contradict it (not in the paper). A rule that deletes a
// commit or a capture's timestamp for one file (/tree/src/main.c?id=*, an archive's
// /web/*/http://example.org/x.html) is right for the versions of the file that one cluster
// holds and wrong for the versions that changed; when the validation half has one cluster of
// the file and the generation half the others, only the generation half shows it. On the site
// families of urldedup gen (seed 1, 14 families, learned on one half of each site's clusters
// and measured on the other) it lifts pair precision from 0.9902 to 0.9979, at 0.754 of the
// maximum reduction rather than 0.786.
//
// Neither half contradicts such a rule when the file's other versions lie in the data it will
// be used on. The site shows the key for what it is on the other pages of the rule's kind (its
// context with the last path segment and the values of parameters that are not type values
// left open): a page whose URLs differ in the key alone and lie in one cluster for two values
// (versions between which it did not change) and in two clusters for others (versions between
// which it did). Where two pages of its kind show that, a rule that deletes the key whatever
// its value is dropped (not in the paper): it holds for the versions its clusters saw, not for
// the next. A key that tells pages apart wherever a value of it is not redundant (phpBB's f=
// on viewforum.php) names no versions, nor does one that a cluster of three pages or more (a
// "session expired" page) holds at several values. On the site families above, seven seeds,
// DUSTER's pair precision on the repository browsers goes from 0.40-0.89 to 0.995-1.000.
//
// Validation judges each rule alone, as the paper does. Two rules that are right alone can be
// wrong together, and two rules that are only right together (a mirror host rewritten, and its
// path prefix deleted, by rules of two clusters that chose different signatures) are both
// rejected; the whole-URL rule of each aligned URL is what covers the second case.
//
// # Choices where the papers are vague, and limits
//
//   - Rules are scoped to the exact host of the URLs they were learned from, and sites are the
//     unit of work (Cluster.Site), as in package learn. A host that a site serves on one port
//     other than its scheme's default gets the port as a condition of every rule (port =
//     "8080"): another port of the host is another server.
//   - A candidate needs Options.MinFreq generation clusters, and a cluster is in the
//     generation or the validation half, never both: what one cluster alone shows is not
//     learned, such as a wiki's do=recent&id=X, one page for every X (package learn learns it,
//     splitting "if do=* then delete id" on do). A token on every link whose value differs
//     within every cluster (item.php?id=N&zq=R) is learned: its values are rare, and deleted.
//   - Values that differ only in the case of their first letter (wiki titles) need a
//     first-letter conversion that package rules lacks: such URLs yield no rule and are
//     counted in Stats.Overwriting.
//   - Deep tokens (package deeptoken) are not used yet: tokens are whole path segments and
//     parameters.
//   - URLs of more than 128 tokens are left out of learning (an alignment is quadratic in the
//     tokens of its two sequences); they count in Stats.BadURLs.
//   - Rewriting every URL to one real URL of its cluster (package learn's target), as the
//     only rules or beside the signatures in every cluster, reduced less on both data sets
//     (mixed everywhere, the two kinds of rule disagree on the canonical form); it is kept for
//     the clusters where a value moves between parts (see above).
//
// # Measured
//
// On the unseen halves of the dupclusters data (learn.Split seed 1; learned on the other half,
// both learners' output measured as the rules.Set a crawler loads), this learner reduces dev.tsv
// more than the decision-tree learner (0.401 against 0.371, pair precision 1.0000 both) and
// train.tsv a little less (0.330 against 0.333, pair precision 0.9999 against 1.0000). Run
// TestCompareDupclusters with UNDUST_DUPCLUSTERS set to the dupclusters directory for the
// tables. Learning all of train.tsv takes about 5 s on 2 cores.
package align
