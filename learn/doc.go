// Package learn learns URL rewrite rules from clusters of duplicate URLs ("dup clusters") and
// evaluates them, after Koppula, Leela, Agarwal, Chitrapura, Garg and Sasturkar, "Learning URL
// patterns for webpage de-duplication" (WSDM 2010) §3.2 and §5, and its short version by Agarwal
// et al., "URL normalization for de-duplication of web pages" (CIKM 2009): offline, rules are
// learned from a crawl's dup clusters; online, a crawler rewrites a URL with them before it
// enqueues it.
//
// # Inputs
//
// Dup clusters come from a TSV file (cluster<TAB>url[<TAB>importance[<TAB>inlinks]], read by
// [TSVReader] and [ReadClusters]) or from a crawl index, CDX or CDXJ ([CDXReader],
// [CaptureClusters]): there a cluster is the set of URLs of one host (or registrable domain)
// that share a payload digest, status 200 only, with revisit records and redirects skipped (two
// redirect bodies share a digest without being the same page). Bad lines are a [*ParseError]
// with the line number, or are counted and skipped ([ReaderOptions].SkipBad); never a panic.
//
// # Learning, per site
//
// A site (the part of a dupclusters id before "-", or a crawl index's host or domain) is the
// unit of work; sites are learned in parallel. For each site:
//
//  1. Every URL is brought to [Prepare]'s form, urlnorm's Crawler dedup key (the static
//     canonicalization a crawler applies anyway: lowercase scheme and host, no default port or
//     fragment, query sorted, empty parameters, generated session ids and tracking parameters
//     dropped), and cut into keyed tokens with urlnorm.Tokenize (WSDM'10 Definition 1). A
//     rewritten URL is brought back to that form, as package rules does.
//  2. Target selection: a cluster's URLs are ranked for being the normalized form, static before
//     dynamic (fewer query parameters), fewer hops (path segments), shorter, fewer capitals, more
//     in-links, then by text; the top k (Options.Targets, default 1) are targets. The order is
//     structural before in-links on purpose: rules generalize only if similar clusters choose
//     similar targets (http before https, bare host before www, /dir before /dir/).
//  3. Source selection: the other URLs are sampled, at most Options.MaxSources per cluster, by
//     the paper's stratified sampling on importance (equal-size buckets, sampled in proportion
//     to each bucket's share of the importance); the dupclusters files give every URL of a
//     cluster the same importance, and then the number of distinct tokens stands in for it, as
//     the paper suggests. Pairs are linear in cluster size (Lemma 2).
//  4. Pairwise rules (Algorithm 3): the context is the source's keys; each target value is a key
//     reference, a value conversion (first letter lowercased or uppercased, tried first, then
//     the whole value) or a literal, and source keys missing
//     from the target are deleted. Deviation: the path part of a transformation is an edit of the
//     source path (a window of segments, anchored at the start or at the end, replaced by new
//     values, after an optional case conversion of every segment) rather than a value per
//     absolute position, so that deleting a trailing index.html is one transformation at every
//     depth (the paper's ag.arizona.edu example) and keys by position from the end do the rest.
//  5. Generalization (Algorithm 5): each transformation is a class. Keys are ranked by gain ratio
//     with respect to the classes over all the site's pairwise rules (Quinlan's refinement of the
//     information gain the paper uses: it keeps a key with many values from winning on its
//     diversity alone). Then, for each class, the keys are taken in that order: a value held by a
//     strict majority of the node's rules becomes a branch c(k) = v (or "k absent") and the other
//     rules are reconsidered on the same key; when no value holds a majority (the paper's
//     threshold, read as "more than half"), the key becomes a wildcard: c(k) = * if every rule has
//     the key, no condition if some lack it. Branches with fewer than Options.MinSupport rules
//     (default 2) are dropped. Each root-to-leaf path is a generalized context. Transformations
//     are generalized by construction: references and conversions do not mention the values they
//     copy, so "delete sid" or "lowercase the path" is one class for every cluster.
//  6. Selection: every rule is measured on all of the site's training URLs, clusters of one URL
//     included: its coverage (URLs it changes) and its false merges (URLs it maps onto a URL, or
//     onto the rewrite of a URL, of another cluster). Rules are kept when the coverage reaches
//     Options.MinCoverage and the estimated precision (Coverage-False)/(Coverage+1) reaches
//     Options.MinPrecision: one pseudo-error keeps a rule seen on three URLs from claiming
//     perfection. The evaluation tables use the paper's raw precision for their thresholds.
//     Two filters guard precision on unseen clusters: a rule that overwrites path segments none
//     of which its context fixes with a literal ("whatever the last segment is, make it wall")
//     is not learned (the paper's transformation generalization would turn its literal into a
//     wildcard); and a query parameter that a selected rule deletes whatever its value gets a
//     site-wide rule "delete P" only if deleting it from every training URL of the site merges
//     no two clusters (a phpBB forum id f= is redundant in viewtopic.php?f=1&t=7 and is not in
//     viewforum.php?f=1).
//
// Rules are tried most specific first (more value and absence conditions, then more conditions,
// then larger coverage); the first whose context holds and whose output differs from its input
// applies, and [Model.Normalize] reapplies them to their own output at most 8 times, so that a mirror
// rewritten to the www host is then rewritten to the bare host. Learning is deterministic: the
// same clusters and options give a byte-identical rules file ([Model.WriteTo]), whatever the
// number of workers.
//
// # Widening beyond a site
//
// Rules are per site, but some parameters mean the same on many sites (feature=, ref=,
// replytocom=). A query parameter is widened into a rule for every host of no learned site
// ([Model.Global]) when selected rules delete it, whatever its value, on at least
// Options.MinSites sites (default 3), and deleting it from every training URL of every site that
// has it merges clusters on no site beyond 10% and passes Options.MinPrecision overall. Its
// evidence (sites learned, sites seen, coverage, errors) is written with it. [Transfer] measures
// what these rules do on sites never seen.
//
// # Evaluation
//
// [Evaluate] follows the paper's protocol (§5): clusters are split 50/50 by a hash of their id
// ([InHalf]; both halves hold every site), rules are learned on one half and measured on the
// other half (URLs never seen, on the same sites) and on both, for the precision thresholds
// =1, >=0.95, >=0.9, >=0.8 and all, and minimum coverages 3, 10, 100, 1000: number and share of
// rules, reduction ratio, average reduction per rule, pair precision, false-merge rate and the
// reduction as a fraction of the maximum possible ([Metrics]), with static baselines in the same
// table. Set UNDUST_DUPCLUSTERS to the dupclusters directory and run
// go test -run TestEvaluateDupclusters -v ./learn to print the tables.
//
// # Not yet
//
// Deep tokens (package deeptoken) and the rules package's model and file format are not in main
// yet: this package tokenizes into basic tokens only, keeps its own rule type (whose path edits,
// first-letter conversions and most-specific-first order the rules model would need), and its
// text format is a report, not yet rules.Load input.
package learn
