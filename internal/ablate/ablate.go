// Package ablate holds switches that turn mechanisms of the learners off, so that an
// evaluation can measure what each one buys (urldedup replay -ablate). They are not
// options for users: every switch is off (the mechanism on) unless an evaluation or a test
// sets it, before the learner is used, from one goroutine.
package ablate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

var (
	// NoBound does not check every use of a rule while the upper confidence bound on its
	// error rate is high: after its first uses, one in VerifyEvery is checked.
	NoBound bool
	// NoSeries skips a URL that a rule rewriting a literal keys as a URL whose path the site
	// serves other pages under with a query (a print view of an article of several pages) as
	// any other.
	NoSeries bool
	// NoShapeRisk checks the first uses of a rule of a risky shape as those of any other.
	NoShapeRisk bool
	// NoTreePrior gives a rule that maps one directory tree onto another (learn's treeSwap)
	// the prior of any rule of a risky shape, without a failure in it.
	NoTreePrior bool
	// NoHubs skips a URL whose key is that of a URL kept whose page the site serves under
	// unrelated URLs (an error page; learn's hub) as any other, and checks it only for its rules.
	NoHubs bool
	// NoDecisive counts a check for every rule that made either key, decisive or not.
	NoDecisive bool
	// NoOneSided counts a check, when no single rule made the match, for every rule that
	// made either key, the rules that rewrote both URLs alike among them.
	NoOneSided bool
	// NoKept ignores the rules that made the kept URL's key: only the URL met is verified.
	NoKept bool
	// NoSupport selects a rule that deletes several parameters whatever their values even
	// when its pairs come from one cluster.
	NoSupport bool
	// NoCaseTrees judges a host's paths case-insensitive or not as a whole, and lowercases
	// them everywhere, even under a first path segment whose own URLs show case to matter.
	NoCaseTrees bool
	// NoKeyPairs does not count a parameter as shown irrelevant by two URLs of a cluster that
	// differ in it alone, for a rule that deletes several parameters and stands on that cluster.
	NoKeyPairs bool
	// NoMirrors counts parameters that carry one value on every pair of a rule (h=C&hb=C) as
	// several when the rule that deletes them stands on one cluster.
	NoMirrors bool
	// NoAbsentSplits splits a rule that merges different pages only on the values of a key,
	// not on its absence.
	NoAbsentSplits bool
	// NoAbsentSupport selects a rule split on a key's absence on the uses that merge no two
	// clusters, as any other rule, not only on those that meet a URL of their own cluster.
	NoAbsentSupport bool
	// NoQueryContexts leaves out of the context of a rule's use, for verification, the site's
	// query parameters that its training uses did not have.
	NoQueryContexts bool
	// NoRestedOn drops all of a site's inferred evidence at a mismatch, not only the URLs
	// skipped on a rule retracted since.
	NoRestedOn bool
	// NoQueryRested keeps, at a mismatch, the inferred URLs skipped on a rule that rewrites
	// more than the query and has not been retracted, like those of rules of the query.
	NoQueryRested bool
	// NoReadBranches lets generalization branch on a value of a key that the class's
	// transformation copies.
	NoReadBranches bool
	// NoBurstDue makes no site due for a relearn by a burst of one shape of URL (learn's
	// burstDue).
	NoBurstDue bool
	// NoMergedContexts learns no rule from the context that the contexts of one class share
	// (learn's mergedContext).
	NoMergedContexts bool
	// NoShadowed keeps as they are the rules that would stop a URL short of the key that a
	// selected rule of another class, deleting more, gives it (see learn's shadows).
	NoShadowed bool
	// NoQueryHead learns the head of a query value only when it has a digit, as for paths.
	NoQueryHead bool
	// NoEditMemory trusts a rule learned after the retraction of one with the same edit
	// (learn's editOf) for its own training record alone.
	NoEditMemory bool
	// NoCaseContexts verifies a rule that converts the case of the whole path in the
	// contexts of any other rule, not per tree (first path segment).
	NoCaseContexts bool
	// NoHashPrefix learns no cut of a hash-like value to a shorter abbreviation of it (both
	// learners).
	NoHashPrefix bool
	// NoOutWithout lets a rule retracted in a context make the key that a check compares
	// without another rule (learn's decisive), so that the other rule is not blamed.
	NoOutWithout bool
	// NoYoung keeps no page whose template was still learning its kind, to identify it again
	// (the crawl core's recheck before a mismatch, and its identification of such pages anew).
	NoYoung bool
	// NoCompare makes no check of the rules from two pages fetched before whose URLs new
	// rules gave one key (the crawl core's rekey): the rules are checked by fetches alone.
	NoCompare bool
	// NoRecheck keeps a check that Before asked for when a link was found due when the URL comes
	// up for fetching, whatever the checks made since answered (learn.Online.Recheck).
	NoRecheck bool
	// NoTake skips a URL about to be sent (the crawl core's BeforeSend) whose key is held by a
	// URL let through and not being sent yet, as Before does, instead of giving it the key.
	NoTake bool
	// NoRekeyOut keys a URL statically when a rule that made its key is retracted in the
	// key's context, instead of keying it again by the other rules (learn's Online).
	NoRekeyOut bool
	// NoURLIDs keeps, in the texts that identify a page (the crawl core), the paragraphs that
	// are nothing but an identifier of the page's own URL.
	NoURLIDs bool
	// NoDirPairs does not check the uses of a rule that cuts a URL to its directory by the
	// bound on its error rate over the pairs of fetched URLs it gives one key (learn's
	// pairsHigh).
	NoDirPairs bool
	// NoOriginRank leaves learn.Options.MainOrigin off in the online learner (learn.Online): a
	// cluster's target is its shortest URL, whatever origin (scheme and host) the site's URLs
	// mostly have.
	NoOriginRank bool
	// NoAlternatives looks a URL up under its key alone, not also under the keys that its
	// rules give it without each rule that made its key (learn's Online.Alternatives, the
	// crawl core's Before).
	NoAlternatives bool
	// NoAliasOrigin ranks, in learn's target selection, a URL on the main alias of its
	// origin (of the scheme and "www." variants of its host, the one most of the site's URLs
	// have) as any other: the shorter URL goes first.
	NoAliasOrigin bool
	// NoClusterSupport estimates a rule without training error with one pseudo-error however
	// many clusters its uses lie in (learn's lrule.Estimate).
	NoClusterSupport bool
	// NoDetermined lets a parameter identify the pages of a type even where another
	// parameter that identifies them determines its value (phpBB's f= beside t=; package
	// roles).
	NoDetermined bool
	// NoSeparations lets a rule delete a parameter whatever its value where it rewrites a URL
	// onto the URL that training URLs of different clusters, the same but for that parameter,
	// have without it (package roles, Separations).
	NoSeparations bool
	// NoEntitySplits lets a rule that deletes a parameter identifying the pages of some of its
	// uses be split on a key of many values (a file's path: a rule per file), not only on one
	// of few (learn's maxBlockedSplitValues).
	NoEntitySplits bool
	// NoSharedDeep drops from a signature target a parameter whose values differ within the
	// cluster even where they share a deep token that differs across the site (learn's
	// sharedDeep: a wiki's do=index&id=ns:page, one page per namespace).
	NoSharedDeep bool
	// NoEqualsFirst orders two rules as specific by coverage alone (package rules'
	// precedence, learn's order), not first by their conditions that name a value the URL
	// has: a general rule carved out by a key's absence then goes before the rule for a
	// value that it leaves in the key (title=T&printable=yes).
	NoEqualsFirst bool
	// NoHits writes the Koppula learner's rules of a site with Support 0 and orders them
	// without their hits (learn's lrule.hits): of two rules with one context and as much
	// coverage, the text decides which applies, not which merges more.
	NoHits bool
	// NoHubNames counts, in learn's hub test of an error page, only identifiers with a digit
	// in them: a URL of a page named by letters alone (/Sec/LorasonTuqua.do) carries none.
	NoHubNames bool
	// NoHubStatic checks no match that the static key alone made, even to a URL kept whose page
	// is an error page (learn's hub): only matches that rules made are.
	NoHubStatic bool
	// NoDirKeys counts the fetched pairs of a rule that cuts a URL to its directory (learn's
	// sitePairs) per URL, as any two URLs of a key the rule is decisive for, instead of once
	// per directory and only where one URL of the two names the file the rule cuts.
	NoDirKeys bool
	// NoDirClean samples the uses of a rule that cuts a URL to its directory, on a host that
	// serves paths differing only in case or a trailing slash as other pages, like any other
	// rule's, instead of checking them until the site has shown 20 clean directories for it
	// (learn's dirUnproven).
	NoDirClean bool
	// NoInferredRecheck keeps a URL that the crawl core skipped under an alternative key as
	// the holder of its own key whatever the rules become, instead of giving its key back at a
	// rekey when the rules no longer make it a duplicate of its page.
	NoInferredRecheck bool
	// NoCopies lets a parameter that repeats the value of another part of its URL
	// (gitweb's fp=F beside f=F) identify pages even where a URL of the page lacks it: that
	// URL still holds the value, in the other part, and was taken to have moved it there
	// (package roles).
	NoCopies bool
	// NoReservoir drops every URL that comes to a page whose URL list is full (learn's
	// Online, OnlineOptions.MaxClusterURLs), instead of letting one that differs from a kept
	// URL in one key alone take the place of a kept URL that differs so from none.
	NoReservoir bool
	// NoHead learns no cut of a value to its head, its leading run of letters and digits
	// (rules.Head: a record's id without the slug after it), so that the id is a literal of
	// each pair (learn's headOp).
	NoHead bool
	// NoOriginMap keeps the online learner's training URLs on their origins, instead of
	// moving those of an origin that the site's clusters show to alias the main origin
	// (http://, the bare host) to it before learning, with one rule per alias (learn's
	// aliasOrigins).
	NoOriginMap bool
	// NoTokenParams keeps the query parameters that the online learner's clusters show to be
	// tokens naming no page (a session id, a link's origin) in its training URLs, instead of
	// deleting them before learning, with one rule per parameter (learn's tokenParams).
	NoTokenParams bool
	// NoRounds runs the online learner's origin map, case lowering and token parameters once
	// on a site's training URLs, instead of again on the URLs they rewrote while a round
	// finds something new (learn's maxRounds).
	NoRounds bool
	// NoNavParams keeps the query parameters of few values that the online learner's
	// clusters show to name no page (from=top, a return address) in its training URLs,
	// instead of deleting them before learning, with one rule per parameter, as tokens are
	// (learn's tokenParams).
	NoNavParams bool
	// NoFirstLetters lowercases the paths of a tree whose case variants differ in first
	// letters only (a wiki's titles) with the rest of its host, instead of counting the tree
	// as case-sensitive (package casefold).
	NoFirstLetters bool
	// NoRiskyContexts checks a rule of a risky shape on its first use in each context only,
	// as any rule, instead of its first 3 (learn's contextFirst).
	NoRiskyContexts bool
	// NoKeptTargets lets the online learner choose every cluster's target by rank alone,
	// instead of the key that the site's rules already give two of its URLs (learn's
	// keptTarget).
	NoKeptTargets bool
	// NoCheckWait skips a duplicate of a page while a check of another of its duplicates is
	// under way for good, instead of naming it in the check's Page.Retry if the check fails
	// (the crawl core's checkWait).
	NoCheckWait bool
	// NoUnchecked counts a check that Before asked for and that was never made (the fetch
	// failed, the kept page was not fetched yet, the key changed hands) as a use of the rule
	// like any, instead of uncounting it so that the rule's next use is checked (learn's
	// Online.Unchecked).
	NoUnchecked bool
	// NoTreeFamily keeps the failures of a rule that maps one tree onto another to that rule
	// (and its edit): the other rules that swap trees at that segment of the site are checked
	// as if the site changed no page between its trees.
	NoTreeFamily bool
	// NoAbbrevDue leaves a site's relearns to its URLs and duplicates alone, instead of making
	// it due as well when the crawl fetches a page under two abbreviations of one hash (learn's
	// hashAbbrev).
	NoAbbrevDue bool
	// NoFreshDue leaves a site's relearns to its other schedules, instead of making it due as
	// well when the duplicates it fetched since its last relearn reach MinDups and one per 64
	// of its URLs.
	NoFreshDue bool
	// NoChecked lets the crawl core ask for a URL again that it fetched to check a match and
	// found to be the page it was checked against, when the URL is met again.
	NoChecked bool
	// NoViewWords leaves out of a site's template words those that are a whole path segment
	// under many parents but rare among its URLs (learn's templateWords): a print view of some
	// records shares the context of the record's other URLs.
	NoViewWords bool
	// NoVersionSwap takes a rule that maps the pages of one version named by a hash in the
	// query onto another's (learn's versionSwap: /tree/x?id=9f3a… to ?id=c07b…, or the
	// parameter deleted) for a rule of no particular shape: online, not for a tree swap; in a
	// rules file, kept (learn's DropVersionSwaps).
	NoVersionSwap bool
	// NoGenCheck keeps a rule of learn/align that passes validation although it merges
	// clusters of the generation half it was drawn from (align's validate).
	NoGenCheck bool
	// NoVersionKeys keeps a rule of learn/align that deletes, whatever its value, a key that
	// names the versions of pages of the rule's kind on the site (align's
	// dropVersionDeletions, package internal/versionkey).
	NoVersionKeys bool
	// NoExonerate keeps the retractions of a mismatch whose fetched URL later proves to serve
	// an error page (learn's hub) instead of undoing them (learn's exonerate).
	NoExonerate bool
)

// switches names the switches for Set.
var switches = map[string]*bool{
	"bound": &NoBound, "series": &NoSeries, "shape": &NoShapeRisk, "treeprior": &NoTreePrior, "hubs": &NoHubs, "decisive": &NoDecisive, "onesided": &NoOneSided, "kept": &NoKept, "support": &NoSupport,
	"casetrees": &NoCaseTrees, "keypairs": &NoKeyPairs, "mirrors": &NoMirrors, "absent": &NoAbsentSplits, "absentsupport": &NoAbsentSupport, "querycontexts": &NoQueryContexts, "restedon": &NoRestedOn, "queryrested": &NoQueryRested, "readbranches": &NoReadBranches, "merged": &NoMergedContexts, "shadowed": &NoShadowed, "burstdue": &NoBurstDue, "queryhead": &NoQueryHead, "edits": &NoEditMemory, "casecontexts": &NoCaseContexts,
	"prefix": &NoHashPrefix, "young": &NoYoung, "compare": &NoCompare, "recheck": &NoRecheck, "take": &NoTake, "outwithout": &NoOutWithout,
	"rekeyout": &NoRekeyOut, "urlids": &NoURLIDs, "origin": &NoOriginRank, "alternatives": &NoAlternatives, "aliases": &NoAliasOrigin, "clustersupport": &NoClusterSupport,
	"determined": &NoDetermined, "separations": &NoSeparations, "entitysplits": &NoEntitySplits, "shareddeep": &NoSharedDeep,
	"dirpairs": &NoDirPairs, "equalsfirst": &NoEqualsFirst, "hits": &NoHits, "hubnames": &NoHubNames, "hubstatic": &NoHubStatic,
	"dirkeys": &NoDirKeys, "dirclean": &NoDirClean, "inferredrecheck": &NoInferredRecheck, "copies": &NoCopies, "reservoir": &NoReservoir,
	"head": &NoHead, "originmap": &NoOriginMap, "tokenparams": &NoTokenParams, "navparams": &NoNavParams, "rounds": &NoRounds, "firstletters": &NoFirstLetters,
	"riskycontexts": &NoRiskyContexts, "kepttargets": &NoKeptTargets, "checkwait": &NoCheckWait,
	"unchecked": &NoUnchecked, "treefamily": &NoTreeFamily, "abbrevdue": &NoAbbrevDue, "freshdue": &NoFreshDue, "checked": &NoChecked, "viewwords": &NoViewWords, "versionswap": &NoVersionSwap,
	"gencheck": &NoGenCheck, "versionkeys": &NoVersionKeys, "exonerate": &NoExonerate,
}

// Names returns the names that Set takes, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(switches))
}

// Set turns on the switches named in a comma-separated list ("bound,kept"); an unknown name
// is an error.
func Set(list string) error {
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		p, ok := switches[name]
		if !ok {
			return fmt.Errorf("ablate: unknown mechanism %q", name)
		}
		*p = true
	}
	return nil
}
