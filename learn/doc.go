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
// A site (hosts or domains joined by the dup clusters they share, or the part of a cluster id
// before its last "-"; see [Grouping] and [ReadClusters]) is the unit of work; sites are
// learned in parallel. For each site:
//
//  1. Every URL is brought to [Prepare]'s form, urlnorm's Crawler dedup key (the static
//     canonicalization a crawler applies anyway: lowercase scheme and host, no default port or
//     fragment, query sorted, empty parameters, generated session ids and tracking parameters
//     dropped), and cut into keyed tokens with urlnorm.Tokenize (WSDM'10 Definition 1). Then,
//     per host, deep-token patterns are learned from the host's training URLs (package
//     deeptoken, WSDM'10 §3.1.2) and split path segments and query values into deep tokens
//     ("tt" and "0810900" of "tt0810900", "friends" and "-" and an id of "friends-xyz"), keyed
//     by their index within the token; Options.NoDeepTokens turns this off. A rewritten URL is
//     brought back to the Crawler key form, as the learned rules.Set does.
//  2. Target selection: a cluster's URLs are ranked for being the normalized form, static before
//     dynamic (fewer query parameters), fewer hops (path segments), shorter, fewer capitals, more
//     in-links, then by text; the top k (Options.Targets, default 1) are targets. The order is
//     structural before in-links on purpose: rules generalize only if similar clusters choose
//     similar targets (http before https, bare host before www, /dir before /dir/). With
//     Options.MainOrigin, the origin (scheme and host) that more of the site's URLs have goes
//     before the length: clusters that hold different aliases of it, as the clusters of a crawl
//     hold the variants it happened to fetch, all choose the main origin when they hold it,
//     rather than each its shortest alias. Without it, the same holds among the aliases of one
//     host (its scheme and "www." variants, http://example.com and https://www.example.com):
//     the alias that more of the site's URLs have goes before a shorter one, so that a site
//     whose clusters each hold its main alias and one other selects the main alias in all of
//     them, where the shortest would be http://www. in some and https:// in others and send
//     one page's URLs to two keys; a mirror on another host is no alias, and the length decides
//     between it and the site.
//     Deviation: when some URL of the cluster reaches the top-ranked one only through a rare
//     literal (a value that occurs in fewer than 3 of the site's clusters), the target is the
//     best-ranked of the 8 first that every other URL reaches without one, if any. A static
//     form that packs the parameters into one segment (item.php[id]123[ref]x) ranks before
//     item.php?id=123, but can only be written as a literal of one cluster, while the query
//     form is reached by references (the id, a deep token of the packed segment) and the
//     frequent literal item.php.
//     Second deviation, signatures: a target keeps no query parameter whose value differs
//     within the cluster where only a literal can write it (of a value in fewer than 3 of the
//     site's clusters, or of a parameter with at least 3 values in the cluster). Such a
//     parameter does not name the page: a form token or session id of unknown name on every
//     link (item.php?id=7&zq=R1, &zq=R2, &zq=R3), a return address (do=recent&id=X for every X).
//     The target is then the best-ranked URL without it, item.php?id=7, and the URL it was made
//     from is a source too; the pairs delete the parameter, a transformation that generalizes
//     where a literal of one cluster does not (Options.NoSignatures turns this off). The key is
//     then a signature of the cluster, as the alignment learner's are, and not always one of
//     its URLs: a dedup key, which need not be fetched (a crawler fetches the URLs it meets,
//     and keys them). Values that a reference or a conversion writes (a deep token, another
//     letter case) and one of a few frequent values (view=grid, view=list) stay as they are,
//     and so does a parameter whose values in the cluster (at least 3) share a deep token that
//     differs across the site: a wiki's index opened at a page (do=index&id=ns:page) is one
//     page per namespace ns, and deleting id would merge the namespaces' indexes. A rule that
//     sets such a parameter to a literal where its context wildcards it ("whatever id is, make
//     it alpha:page0") is not learned, as for path segments below.
//     Third deviation, online only, kept targets: a crawl's cluster holds the variants of a
//     page that it happened to fetch, and its best-ranked URL may be a variant (the print view
//     /print/story/7, where a rule already sends /story/7?s=X to /story/7 and the crawl skipped
//     /story/7). The key that the site's rules before the relearn give the most of the
//     cluster's URLs (a URL that is the key counting twice), moved to the main origin and
//     lowercased as they are, is then the target if it ranks before every URL of the cluster
//     on structure alone (fewer query parameters, fewer path segments, with Options.MainOrigin
//     the origin with more of the site's URLs; not on length or letter case); it is no
//     training URL. The rules learned from the cluster then send the print view to the
//     key the session URL has, instead of a second way to write the page (the session URL to
//     the print view) whose keys split the page and whose first uses are checked again. Only
//     keys made by rules of shapes that verification trusts count: none of a risky shape,
//     none that cuts a URL to its directory or deletes a path segment whatever its value,
//     whose keys may name several pages, and a target made of them would teach them again.
//     A key no simpler than a URL of the cluster is not kept: rules learned from fewer URLs
//     chose it, and keeping it would keep their choice (a wiki title with its first letter
//     lowered by a case rule is no simpler than the title the crawl fetched).
//  3. Source selection: the other URLs are sampled, at most Options.MaxSources per cluster, by
//     the paper's stratified sampling on importance (equal-size buckets, sampled in proportion
//     to each bucket's share of the importance); the dupclusters files give every URL of a
//     cluster the same importance, and then the number of distinct tokens stands in for it, as
//     the paper suggests. Pairs are linear in cluster size (Lemma 2).
//  4. Pairwise rules (Algorithm 3): the context is the source's keys, deep tokens included; each
//     target value is a key reference (to a whole token, else to a deep token), a value
//     conversion (first letter lowercased or uppercased, tried first, then the whole value), a
//     prefix of a source value when both look like hashes (a version-control front-end links
//     one object by abbreviations of its hash of several lengths; target selection makes the
//     shortest the target, so longer ones are cut to it: rules.Prefix), the head of a source
//     value when the target value is an identifier (with a digit; in a query value, a word
//     too) that the source value starts with, before a delimiter (an application that names a
//     record by its id and a slug or alias it ignores links /threads/5000-stone-ember and
//     /threads/5000, id=12:welcome and id=12; a search for a person, s=grace@example.org and
//     s=grace; the slugs share no deep-token anchor, and only the head makes the pairs of
//     every record one transformation: rules.Head) or a literal, and source keys missing from
//     the target are deleted. Deviation: the path part of a transformation is an edit of the
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
//     the key, no condition if some lack it. So does a query parameter whose value the
//     transformation copies, as soon as its rules have two values: a repository browser's
//     search for a person by e-mail address (s=grace@example.org) is the search by name, the
//     head of the address (see step 4: in a query value a word is a head), and a branch on the
//     person of most pairs would leave every other person waiting for pairs of their own.
//     Branches with fewer than Options.MinSupport rules (default 2) are dropped. Each
//     root-to-leaf path is a generalized context. When a class gets several contexts that agree
//     on scheme, host and every path condition, the context they share is a candidate too (a
//     query key fixed alike in all keeps its condition, one present in all with different
//     values becomes the wildcard, any other is left out), measured and selected like the
//     others, as C4.5 prunes a subtree whose leaves agree: a form on every timeline repeats the
//     page's query with display settings (advm=0, advm=1) on timelines reached by date, by
//     user and by check-in, the branches cover two or three URLs each, too few to be
//     selected, and the class is one rule of the page type. A deep token
//     never gets a branch, only the wildcard (or no condition): measured on dev.tsv, branching on
//     deep-token values split the classes of eBay-style (W0QQ_fclsZ1QQ...) and [id] segments into
//     branches below MinSupport and lost their rules; deep tokens earn their keep as references
//     ("friends" of "friends-<id>") and as the anchors' presence. Transformations
//     are generalized by construction: references and conversions do not mention the values they
//     copy, so "delete sid" or "lowercase the path" is one class for every cluster.
//  6. Selection: every rule is measured on all of the site's training URLs, clusters of one URL
//     included: its coverage (URLs it changes) and its false merges (URLs it maps onto a URL, or
//     onto the rewrite of a URL, of another cluster). Rules are kept when the coverage reaches
//     Options.MinCoverage and the estimated precision (Coverage-False)/(Coverage+1) reaches
//     Options.MinPrecision: one pseudo-error keeps a rule seen on three URLs from claiming
//     perfection. A rule without error whose uses lie in at least 3 clusters keeps its
//     training precision, 1: its uses are pages of their own that it rewrote right (a site's
//     few www. aliases, each of another page), where uses in one cluster may be one page
//     grouped by mistake (the "nothing found" page of every search term); with the
//     pseudo-error, a rule without error needs 19 uses to reach 0.95. The online learner
//     keeps the pseudo-error (see OnlineOptions.Learn). The evaluation tables use the paper's raw precision for their thresholds.
//     Where two rules of different classes match one URL, the one that goes first applies (see
//     package rules' precedence); when the other is selected and does what it does and deletes
//     more (parameters its context fixes to a value: a view switch such as printable=yes, not
//     a parameter deleted whatever its value), the URL would stop short of its key. The first is then dropped if the other matches
//     every URL it matches, or else, when the other fixes a query value it does not mention, it
//     gets a condition that the parameter is absent and is measured again: on a wiki, the rule
//     for every title learns that action= and oldid= are absent, which makes it more specific
//     than the rule for printable=yes, and would keep printable=yes in the key of a printable
//     view, away from its article's.
//     Two filters guard precision on unseen clusters: a rule that overwrites path segments none
//     of which its context fixes with a literal ("whatever the last segment is, make it wall")
//     is not learned (the paper's transformation generalization would turn its literal into a
//     wildcard), unless the rule copies a deep token of an overwritten segment elsewhere
//     (item.php[id]123[ref]x to item.php?id=123: the segment's content moves, it is not lost);
//     and a query parameter that a selected rule deletes whatever its value gets a
//     site-wide rule "delete P" only if deleting it from every training URL of the site merges
//     no two clusters and P looks identifying in no page family (a phpBB forum id f= is
//     redundant in viewtopic.php?f=1&t=7 and is not in viewforum.php?f=1). A page family is the
//     site's URLs with one last path segment (a script); P looks identifying in a family where
//     no two URLs of one cluster meet when P is deleted and at least 3 URLs have mostly distinct
//     values of P ([Evidence].Identifying). Otherwise P gets one rule per family where pairs
//     support deleting it and deleting it merges nothing, "if path(-,1)=F query(P)=* then
//     query(P)=-", and it is not widened beyond the site either.
//     Splitting: a generalized rule that merges different pages is not selected, and is then
//     split on the key whose value tells its good uses from its false merges. Generalization
//     wildcards a key when no value holds a strict majority of a node's pairs; when the
//     value of one parameter decides that another does not matter (a wiki's do=recent&id=X and
//     do=login&id=X are one page each for every X, do=show&id=X one page per X), the pairs that
//     delete id split evenly between recent and login, do is wildcarded, and "if do=* id=*
//     then delete id" merges the show pages. Of the keys of the rule's pairs (whole tokens,
//     not deep ones) whose values, or whose absence, at least Options.MinSupport pairs share,
//     the one whose values cut its coverage into the most coverage of selected rules gives one
//     rule per such value, "if do=recent id=* then delete id", each measured and selected like
//     any rule (Stats.Splits; Options.NoSplits turns this off). A key's absence is a value
//     where some of the rule's uses have the key: a repository browser's root listing is one
//     page at every commit (a=tree&h=C&hb=C), while a subdirectory's listing (the same with
//     f=src) changes with the commit, and "if f absent then delete h and hb" is the split.
//     Such a rule holds on URLs unlike its pairs, so a use of it counts as good only if it
//     meets a URL of its own cluster, not merely none of another: cutting the path of
//     /timeline?c=7 to /?c=7 merges nothing among the training URLs and is shown right by
//     nothing. So a symbolic revision (hb=HEAD) is
//     deleted where a revision hash, current in some clusters and old in others, is not:
//     nothing in a hash says whether it is the current revision, and no rule can.
//     Parameter roles per page type: a page type is a path template (segments that occur in
//     at least 3 of the site's clusters kept, others "*") and the type values of the URL (a
//     parameter of at most 12 values, each on at least 4 URLs and never beside another value,
//     or the parameter's absence, in a cluster: do=recent, action=edit, redlink=1). A
//     parameter whose value never differs between two URLs of one cluster of the type, that
//     takes at least 2 values there, and that no URL of a cluster drops (a URL without it
//     carries its value elsewhere, ?t=1627 and ?1627-some-title, or the cluster has none
//     without it) identifies pages of that type, however few its values: two listing pages
//     cat=1&start=0 and cat=2&start=60 that share no offset are enough, where the values of
//     a page family (see Evidence.Identifying) are too few to tell. A parameter whose value
//     another identifying parameter of the type determines across the site (each of at least
//     3 values of t, met in two clusters or more, goes with one f) says nothing of the page
//     that t does not, and identifies none: phpBB's f= on a topic's printable view. A rule that deletes such a
//     parameter whatever its value is not selected where it covers a URL of that type (it is
//     split instead, see above), and the site-wide and per-family deletions of the parameter
//     skip the type (Options.NoRoles turns roles off). Training URLs the same but for the
//     value of one parameter that lie in at least 3 clusters (and at most a quarter of those
//     clusters hold two of its values) are pages that the parameter tells apart, though each
//     may be alone in its cluster: a use of a rule that deletes the parameter whatever its
//     value and rewrites a URL onto the URL those pages have without it counts as a use on a
//     type it identifies. A repository browser's root listing reads the same at every commit,
//     and the rule deleting h= and hb= from it would reach a subdirectory's listing at the
//     head, h=T&hb=HEAD, and with it the listing at every other commit, met as f=src&hb=C1,
//     f=src&hb=C2, each its own page: the rule is split on the absence of f. Such a rule is
//     split only on a key of at most 12 values on its rows (a kind of page, a key's absence),
//     not on one of more (a file's path): a rule per file would stand for the files whose
//     versions the training URLs have not met apart yet, where the site shows that the
//     parameter tells a file's versions apart. A cluster whose URLs of one type differ
//     in a parameter that identifies pages of the type in at least 4 times as many other
//     clusters looks like pages grouped by mistake (the "not found" pages of deleted topics,
//     each URL with its own topic id, grouped by their one content): it gives no pairs. And a
//     rule that deletes several parameters whatever their values stands on the pairs of at
//     least two clusters: one cluster may be such a group, the content key riding along with
//     a session id. One cluster is enough when it leaves at most one independent parameter
//     of them unexplained, as for a single deletion: a parameter in which two of its URLs
//     differ alone (h=T&hb=C and h=C&hb=C) is shown irrelevant, and parameters that carry one
//     value in every pair (h=C&hb=C: one commit id given twice) are one parameter.
//  7. Case-insensitive hosts: a host of the site whose duplicates differ in the case of the path
//     (beyond first letters: a wiki's titles are case-insensitive in their first letter only),
//     counted across the site's hosts, and whose training URLs of different clusters
//     lowercasing does not merge (at most 2% of the supporting pairs, for label noise) has its
//     paths lowercased before the stages above, so that its other rules are learned once on
//     lowercase paths instead of once per case variant. The evidence is weighed per tree (the
//     paths under one first segment, and the one-segment paths): a tree whose own URLs show
//     false merges beyond the tolerance (and more than one) is case-sensitive, as an IIS site's
//     /go/aB3x short links are, and so is a tree whose case variants of one page differ in
//     first letters only (at least two URLs, and none beyond): a wiki whose /wiki/Amber is
//     /wiki/amber but not /wiki/AMBER, which a crawl that lowercased its paths would skip and
//     never see to differ. A host without such a tree gets one rule, path(-,-)=lower; a
//     host with one has only the trees that show a pair of case variants lowercased, by a rule
//     that lowercases the first segment of a deeper path and one per tree, path(-,-)=lower in
//     context path(1,-)="tree" (path(2,-)=- for the root). Online, such rules are verified per
//     tree (see Online.VerifyMatch). Case variants that lowercase to one URL stay one training
//     URL each (sources of pairs, counted in coverage): the host's other rules rewrite each of
//     them after the lowercasing rules.
//  8. Origin map, online only: an origin (scheme and host) of the site whose URLs the
//     site's clusters show to name the main origin's pages under the same path and query (the
//     main origin is the one most of its URLs have; a path and query held on both by one
//     cluster agrees, held by two clusters, one on each, disagrees) has its training URLs moved
//     to the main origin before the stages above, and one rule that rewrites its origin alone,
//     its coverage the agreements and its errors the disagreements; it is used only if that
//     rule passes selection. The clusters of a crawl hold the variants of a page it happened to
//     fetch, so that without it each combination of an alias with another variant (the bare
//     host with a session id, http:// with a print view) is a transformation of its own that
//     waits for support of its own, and clusters that lack the main origin choose a target on
//     an alias. Offline it is left out: complete clusters hold the main origin and choose
//     consistent targets without it, and in a trial on the site families of urldedup gen
//     (seed 1) it raised the reduction only from 0.776 to 0.779 of the maximum, while it
//     merged 19 pairs of listings that an m. host serves otherwise than the main one.
//  9. Token parameters, online only: a query parameter whose values the site's clusters show
//     to name no page, as a session id on every link does, is deleted from the training URLs
//     after the two stages above and before stages 1-6, and gets one rule of the site that
//     deletes it wherever it is. Its evidence: in at least 2 clusters two URLs of the page
//     give it different values; no value is on two URLs of one cluster nor on two clusters (a
//     parameter that names the page keeps its value on the page's URLs; one of few values,
//     from=top or color=red, shares them, and may name the pages of another type: a listing
//     filtered by color); deleting it from every training URL merges no two clusters, and the
//     URLs it brings onto another URL of their cluster, the rule's coverage, pass selection.
//     A navigation parameter of few values (from=top, from=sidebar; a return address) is
//     deleted the same way when it takes 2 values or more and the parameter roles of the
//     site's clusters (package internal/roles) show it to vary on the URLs of one page (a URL
//     drops it without holding its value elsewhere, or gives another value) in at least 2
//     clusters, of at least 4 page types, and to name the pages of no type: it identifies
//     none, and no type keeps one value of it on the URLs of each of its clusters (a profile's
//     tab=photos, which a photo's links add whatever it is). A link adds such a parameter to
//     links to every kind of page; a filter that some pages ignore (a product's preselected
//     color, a listing whose products all have it) varies on one or two types and names the
//     pages of others. A flag of one value (view=print, which prints every page of an article
//     of several pages) is left to the pairs too. As with the origin map, a crawl's clusters
//     hold the variants a crawl happened to fetch: without it each combination of a session id
//     or a link's origin with another variant (a print view, a case variant, a script's other
//     name) is a transformation of its own, learned per page type, each waiting for support of
//     its own. Offline it is left out: on the site families of urldedup gen (seed 1) the token
//     parameters raised the reduction of complete clusters only from 0.776 to 0.779 of the
//     maximum. Online, the origin map, the case lowering and this stage run again, in that
//     order, on the training URLs they rewrote, while a round finds an origin, a host or a
//     parameter that the earlier rounds did not, 3 rounds at most: each finds evidence that
//     the others' rewrites uncover (the bare host's URL of a page matches the main origin's
//     only once the session id on every link to the bare host is deleted).
//  10. Cycles: rules learned from different clusters can undo each other (www -> m and m ->
//     www, index.php and a trailing slash). Each site's selected rules, scoped as the set
//     scopes them, are checked on the site's training URLs; of each rewrite cycle, the rule of
//     least coverage (then precision) is dropped, until no training URL cycles ([Stats].Cycles).
//     Rules widened beyond their site are not part of the check. On a cycle it was not trained
//     on, rules.Set's Normalize returns the URL's static key with rules.ErrCycle.
//  11. Versions named by hashes, offline only: a rule that maps the pages of one version named
//     by a hash-like value in the query onto another's (a repository browser's file at one
//     commit onto the file at another, /r/tree/x?id=9f3a… to ?id=c07b…, or id deleted where
//     it is 9f3a…) is dropped when the site's rules map at least two versions so at that
//     parameter of a host. Each holds for the files its training clusters saw at both commits
//     and fails, unseen in the URL, for a file changed between them. Online, verification
//     checks such rules as tree swaps (see Online.VerifyMatch); a rules file has no
//     verification. On the repository browsers of urldedup gen (seed 1) the Koppula rules
//     joined 6,522 false pairs of the held-out half with them (pair precision 0.27) and 10
//     without (0.990), at 0.756 and 0.293 of the maximum reduction.
//
// # One rule model
//
// The result of learning is a *rules.Set: every selected rule is written as a rules.Rule, and
// the set is what a crawler loads ([rules.Load] reads the file that [rules.Set.WriteTo] writes,
// patterns and all). A rule's scope is the exact host its context names, else the registrable
// domain of its site's hosts when they share one that no other site has, else one rule per
// host; its Stats carry the training coverage and precision. A host served on a port that is
// not its scheme's default is a site of its own (127.0.0.1:8080 is not 127.0.0.1:9090): a
// scope names a host name, and the rule's context names the port (port = "8080"); a site
// without a port whose host name another site serves on a port gets the condition that the URL
// has none. The learner's edit form is written
// with rules' actions: a whole-path case conversion is a Convert of the whole path, the edit
// window's first values overwrite its segments (Assign, or Copy with a conversion), its other
// segments are deleted, and values beyond the window's length are inserted after it (Insert);
// the window must lie within the URL, which the context states with an Any condition on its far
// segment. Rules that rules.Rule cannot express (a bare query parameter written, a parameter set
// to several values, a host with user information) are left out and counted in Stats.Unexpressed. The set
// works on urlnorm's Crawler keys (rules.Options.Key), so its Normalize takes raw URLs and
// returns a dedup key, and the key flags travel in the file. One difference from the edit form
// remains: the edit sets or deletes every occurrence of a query parameter name, a rules action
// the first occurrence only.
//
// Matching follows package rules' precedence, which is the learner's: most specific first (more
// value and absence conditions, then more conditions, then larger coverage); the first rule
// whose context holds and whose output differs from its input applies, and the set reapplies
// rules to their own output at most 8 times, so that a mirror rewritten to the www host is then
// rewritten to the bare host. Each rule is measured in isolation during learning, in the
// learner's edit form; a test checks on the sample data that every learned rule, written as a
// rules.Rule, rewrites every training URL of its site exactly as the edit does. Learning is
// deterministic: the same clusters and options give a byte-identical rules file, whatever the
// number of workers.
//
// # Widening beyond a site
//
// Rules are per site, but some parameters mean the same on many sites (feature=, ref=,
// replytocom=). A query parameter is widened into a rule of the every-host scope
// (rules.AllHosts) when selected rules delete it, whatever its value, on at least
// Options.MinSites sites (default 3), and deleting it from every training URL of every site that
// has it merges clusters on no site beyond 10% and passes Options.MinPrecision overall. Its
// evidence is in its Stats: coverage and precision summed over the sites, and Support, the
// number of sites it was learned on. Such a rule has the lowest precedence among rules of equal
// specificity, so on a learned site it applies only where no site rule rewrites the URL (the
// learner's own model applied it only to hosts of no learned site). [Transfer] measures what
// these rules do on sites never seen.
//
// # Online learning
//
// A crawler meets most sites for the first time, where rules learned on other sites transfer
// poorly. [Online] learns a site's rules from the site's own pages while the crawl runs: the
// crawler reports each fetched URL with its page's content fingerprint ([Online.Observe]); each
// site (by default its registrable domain) is relearned with LearnSite as its evidence grows
// geometrically, off the crawler's path ([Online.Relearn], [Online.Run]); the frontier reads the
// current rules without locks ([Online.Normalize], [Online.Key]). Fed the same clusters and
// relearned, Online gives the rules Learn gives. A page keeps at most MaxClusterURLs URLs; once it
// is full, a URL that differs from a kept URL in one key alone takes the place of one that differs
// so from none, so that the pairs that show a parameter irrelevant alone (the tree of a commit as
// h=C&hb=C and as h=T&hb=C, see step 6) outlast the cap whatever the crawl order, and with them a
// deletion of several parameters that one cluster supports. Rules correct themselves at crawl
// time: some uses of a rule are fetched anyway ([Online.VerifyMatch]), and a page other than the
// one the key named retracts the rules to blame ([Online.ConfirmMatch]). Which uses: a rule's
// first use, its first use in each context (the site's template words in the last path segment,
// and the site's query parameters that the URL has and that neither the rule's context names
// nor its uses on the evidence had, on two pages and one in 20 of them at least: a rule
// learned on a repository browser's root listings, which deleting h and hb leaves one page, is
// checked apart on a subdirectory's listings, which have f and change with the commit), one
// use in VerifyEvery, and every use while an upper confidence bound on its error rate, from
// its checks and its training precision, exceeds 5% (a
// rule that failed a check or whose training precision is below 1 is checked until it fails again
// or its checks bring the bound down); the first 8 uses of a rule of a risky shape (one
// that swaps a literal path segment for another, as a site that serves one tree of documents
// under another does, or cuts a segment down to a deep token of it, a random-looking suffix),
// and, on a site whose rules map several trees onto others at one directory segment (releases
// and their aliases), every use of such a rule until about 27 clean checks bound its error rate;
// a failure of any of them counts against each (the site changes pages between its trees), so
// that the others are checked again.
// A rule that cuts a URL to its directory (/x/index.html to /x/: the server decides per
// directory whether the file is the directory's page or the directory a listing of its own) is
// also judged by the site's own fetches: the directories whose index file and directory URL
// the crawl fetched count as checks, once per directory, so that its uses are checked while the
// bound over them is high; and on a host that has served paths differing only in case or a
// trailing slash (FAQ.html and faq.html, /x and /x/) as other pages more often than as one,
// which maps URLs to files literally, until the site has shown 20 clean directories for it.
// A match is checked for the rules that made either key, the URL met's or the kept URL's (a
// rule that rewrote the kept /dir/index.html to /dir/ makes the key of /dir/, which no rule
// rewrites), and a check counts only for the rules decisive for it: without them, the two URLs
// would have had different keys. When no single rule is (two would each make the match), it
// counts for the rules that rewrote one of the two URLs only: a rule from /5.0.x to /4.0.x that
// made both keys of /latest/x and /5.0.x/x is not confirmed by their check. A crawler that
// queues the URLs it finds asks again when a queued URL comes up ([Online.Recheck]): the checks
// made meanwhile may have answered its check.
// A match to a kept page that the site serves under unrelated URLs, at least 3 of them each
// with its own identifiers (an item id, a hash, a page name that is no template word of the
// site), is always checked and informs no rule, whether rules or the static key alone made it
// (/a;jsessionid=E85F and /a): such a page is an error page ("your session has expired") that a
// link gave in place of its own page. A check whose URL met served such a page informs no rule
// either; but the crawl often fetches the error page under its third unrelated URL only after
// a check met it, and retracted a rule that was right (the session cut from the path). The
// mismatch is remembered, and undone once its page proves an error page: its checks and
// failures no longer count, and the rules it retracted are published again.
// urldedup replay measures this on a cluster file replayed as a crawl (-ablate turns each
// mechanism off).
//
// # Evaluation
//
// [Evaluate] follows the paper's protocol (§5): clusters are split 50/50 by a hash of their id
// ([InHalf]; both halves hold every site), rules are learned on one half and measured on the
// other half (URLs never seen, on the same sites) and on both, for the precision thresholds
// =1, >=0.95, >=0.9, >=0.8 and all, and minimum coverages 3, 10, 100, 1000: number and share of
// rules, reduction ratio, average reduction per rule, pair precision, false-merge rate and the
// reduction as a fraction of the maximum possible ([Metrics]), with static baselines in the same
// table. Every row is a rules.Set ([SelectRules] of the set learned with every rule). Set
// UNDUST_DUPCLUSTERS to the dupclusters directory and run go test -run TestEvaluateDupclusters
// -v ./learn (or go run ./examples/urldedup eval -data DIR) to print the tables.
//
// # Input limits
//
// The readers ([TSVReader], [CDXReader], [ReadClusters], [CaptureClusters]) take time and memory
// linear in their input: a line longer than ReaderOptions.MaxLineBytes (default 1 MiB) is a
// *ParseError wrapping ErrLineTooLong (or skipped with SkipBad) and is read past in constant
// memory; a CDX line of many fields allocates only the four fields a capture keeps; cluster ids
// are interned. What they return grows with the input: bound the input to bound the clusters.
package learn
