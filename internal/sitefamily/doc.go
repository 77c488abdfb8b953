// Package sitefamily generates dup-cluster files of site families: seeded, synthetic crawl logs
// of whole sites of a kind (versioned documentation, web archives, forums, shops, ...), each
// with the duplicates its software makes and with traps, distinct pages that look like
// duplicates. It is a test tool: the URL learners of this module check themselves on families
// they were not tuned on (learn one family out), and urldedup gen writes the files.
//
// # Output
//
// Generate returns a Dataset: the lines of a dup-cluster file in the format learn.ReadClusters
// reads, cluster<TAB>url<TAB>importance<TAB>inlinks, with a header comment line:
//
//	forum-s02-p000117	http://forum.kalomira.de/viewtopic.php?f=3&t=871&start=20	0.0412	3
//
// The cluster id names the family (the id up to its first "-", FamilyOf), the site (the id up
// to its last "-", as learn.SiteOf and urldedup -sites id read it) and the page. Every line
// of a cluster has the page's importance, Zipf-like in the page's rank by prominence on its
// site (the dupclusters files' distribution: median about 0.02, a few pages of tens), and the
// in-links of that URL string: the page's in-links (a power law in its importance) split so
// that the URL the site links to has most and a session or tracking copy has 1. A page's
// prominence also sets how many repeated variants (sessions, tracking tokens, captures) it
// gets, so prominent pages have large clusters. Lines are grouped by site, in a random order
// within a site; sites come in rounds, site 0 of each family, then site 1, and so on. Host
// names are made-up words under common top-level domains; a match with a real domain is
// chance. Every URL is new in its file and parses with net/url.
//
// Each site draws its dialect (which software, which URL scheme) and its parameters (change
// rates, session shares, numbers of forums, languages, colors) from ranges with its own random
// source, seeded by Options.Seed, the family and the site's number: the same options give the
// same bytes, a site is the same whatever families are generated beside it, and another seed
// gives other dialects, names and parameters, not only other values.
//
// Besides the lines, a Dataset lists its Traps: pairs of URLs of different pages that a naive
// rule (a Rewrite: drop a parameter, overwrite a path segment, cut a suffix, lowercase the
// path, strip an index file, replace a prefix) maps to one URL, each with its kind. And its
// Noise: clusters that group different pages, as content hashing of a real crawl does with
// soft "not found", "session expired", "private profile" or "no products match" pages, or with
// stubs whose text is only a template (the dupclusters files have about 1% of such clusters).
// A learner that trusts them learns rules that are too general.
//
// # Families
//
// The mechanisms come from the papers on learning URL rewrite rules: Bar-Yossef, Keidar and
// Schonfeld, "Do not crawl in the DUST: different URLs with similar text", WWW 2007 (substring
// substitutions, index files, mirrors and aliases); Dasgupta, Kumar and Sasturkar, "De-duping
// URLs via rewrite rules", KDD 2008 (session ids, irrelevant path components, complicated
// rewrites); Koppula et al., "Learning URL patterns for webpage de-duplication", WSDM 2010
// (deep tokens: the imdb photogallery and mediaindex, random suffixes; sessions and tracking
// on video pages); Rodrigues, Cristo, de Moura and da Silva, "Removing DUST using multiple
// alignment of sequences", TKDE 2015 (DUSTER: rules validated against a false-positive rate,
// the danger of rules from few examples). The traps come from how the software they name
// builds its URLs. Per family, the duplicates (=) and the traps (≠):
//
//   - docs: versioned documentation in the layouts of Sphinx (/3.1/library/os.html), Read
//     the Docs (/en/3.1/library/os/) or a project site (/docs/3.1/library/os), with 3-7
//     releases and aliases (stable, latest, current, dev, master). = a page in two releases
//     when it did not change between them; the alias of the newest release and that release;
//     a section and its index.html; Sphinx's ?highlight=. ≠ the 6-25% of pages that changed
//     per release (10-40% between trees two releases apart), the development version's own
//     changes; nothing in the URL tells them apart. Noise: the version switcher's links to
//     releases that lack a page, one "not found" page.
//   - archive: a web archive, Wayback-style (/web/20090514102233/http://example.com/page, a
//     collection of several archived sites) or dated snapshots of the site's own pages
//     (/snapshot/2009-05-14/page). = captures of a page between two changes; the latest
//     capture without a date. ≠ captures on either side of a change (15-50% of consecutive
//     captures); the raw capture (20090514102233id_), the original bytes without the banner.
//     Noise: links to pages never captured.
//   - social: profiles (/user/NAME or /NAME, also /profile.php?id=N), their tabs, photo
//     listings and photos, friends and wall pages. = the numeric id beside the name; a random
//     suffix on friend and wall links (/NAME/friends-x5qmrl3CCGvS); short links (/s/J7Fn6h);
//     page=1; ref=; tab=photos carried onto photo pages. ≠ tab= on the profile, the content
//     key with 2-3 values; photo ids as random as the suffixes (/NAME/photo-aZ3k9qL0Rt);
//     listing pages by page= and sort=. Noise: private profiles and unknown users.
//   - forum: phpBB (viewforum.php?f=, viewtopic.php?f=&t=&start=, p= permalinks, sid=),
//     vBulletin (forumdisplay.php, showthread.php?t= and ?T-title, s= sessions) or Discourse
//     (/t/slug/ID, /t/ID, /t/slug/ID/N). = a post's permalink and the topic page holding it;
//     f= in viewtopic.php, which t= fixes; start=0, page=1; highlighting; the default sort
//     key. ≠ f= in viewforum.php, the content key of 2-8 forums whose listings also differ by
//     start=; pages by start= and page=; the print view of the whole topic; sort keys;
//     Discourse's post number, which names the first page for posts 1-20 and the second page
//     for 21-40. Noise: deleted topics and private forums ("not authorised", whatever f= is).
//   - shop: products and faceted listings, generic (/p/ID/slug), Amazon-like
//     (/Title/dp/ASIN, /dp/ASIN, /gp/product/ASIN, /ref=sr_1_3) or Shopify-like
//     (/products/handle, /collections/c/products/handle, ?variant=). = a product under any
//     slug, category path or ref= segment, with its color or variant preselected, with
//     tracking; a listing with the default sort, page=1, view=grid|list, or a color filter
//     that keeps every item (a category of one color). ≠ the same color parameter filtering a
//     listing of several colors; sort orders (3 values); pages. Noise: empty filters across
//     categories ("no products match") and discontinued products.
//   - session: sessions in the URL: ASP.NET cookieless (/(S(lit3py55t21z5v55vlm25s55))/...),
//     servlet path parameters (;jsessionid=...[.node01]), a /sid/HEX/ segment, or a query
//     parameter no list knows; 10-80% of pages have no URL without one. ≠ content keys as
//     random as the sessions: /doc/ and 32 hex digits, /item/ and 8 base-62 characters.
//     Noise: "your session has expired" for old sessions of any page.
//   - wiki: MediaWiki (/wiki/Title, index.php?title=, oldid=, action=, printable=yes,
//     redirects) or DokuWiki (doku.php?id=ns:page, /ns/page, /doku.php/ns:page, do=, rev=).
//     = the title's first letter in either case; the current revision by oldid=; redirects;
//     action=edit of every title on a wiki closed to anonymous edits; do=recent whatever the
//     id (a legitimate cluster of hundreds). ≠ old revisions (oldid=, rev=); action=history,
//     info and edit on an open wiki; titles that differ in case after the first letter
//     (Nasa, NASA); recent changes by days= and limit=; do=index, one page per namespace of
//     the id, not per id; do=backlink, one page per id. Noise: stubs of template text only,
//     missing DokuWiki pages.
//   - cms: WordPress (/yyyy/mm/slug/, ?p=ID, amp/, replytocom=, ?cat=ID), Drupal (/node/ID and
//     its alias, index.php?q=node/ID, destination=) or Joomla (index.php?option=com_content&
//     view=article&id=ID:alias&catid=&Itemid=, /menu/ID-alias.html). ≠ WordPress feeds and
//     comment pages (/feed/, /comment-page-2/), archive pages and months that differ in one
//     segment; Drupal comment pages (?page=1); Joomla's view= (view=category&id=3 is a
//     listing, view=article&id=3 an article) and limitstart=. Noise: searches with no result,
//     access denied, missing articles.
//   - tracking: a token of the site's own made-up name and a new random value on every link
//     (?zq=Jx8Kq2...), the zq case; src= of 3-4 values; on video sites a start time t= and a
//     playlist list=. ≠ video ids as random as the token (watch?v=S9_4KMVtgw0); hl=, another
//     language with 1-2 values besides the default, which is the page; list=, the content key
//     of /playlist. Noise: removed videos and articles.
//   - print: printer views (/print/..., ?print=1, ?view=print, .../print) and AMP views
//     (/amp/...) of articles, the same page for a one-page article. ≠ the print view of an
//     article of 2-5 pages, the whole article, not its first page; its pages (?page=).
//     Noise: print views of removed articles.
//   - mobile: a mobile version on m. or mobile., under /m/, or as ?m=1 (Blogger). = articles.
//     ≠ the home page and section listings, which show fewer items a page on mobile. Noise:
//     desktop-only tools, "not available on mobile".
//   - paths: an IIS host, paths and parameter names case-insensitive, directories serving
//     default.aspx, beside an Apache host of static files. = any case of an IIS path or
//     parameter name; a directory with and without its index file and trailing slash;
//     doubled slashes. ≠ IIS short links whose codes are case-sensitive (/go/aBc12X,
//     /go/AbC12x); static files that differ in case; directories whose listing is not their
//     index.html; paths with and without a trailing slash that are two pages. Noise: the IIS
//     custom "not found" page.
//   - mirror: a project site and 1-3 mirrors on other domains, carrying the tree under a prefix
//     (http://mirror.example.net/pub/project/...) or on a host of their own. = a page and its
//     mirror copies. ≠ the 5-30% of a mirror's pages that still serve the page's previous
//     version (one page for every mirror that lags). Noise: a mirror's "not found" page.
//   - repo: a source repository browser, gitweb (/?p=R.git;a=blob;f=PATH;h=BLOB;hb=COMMIT),
//     cgit (/R/tree/PATH?id=COMMIT, /R/commit/?id=COMMIT) or Fossil (/file?name=PATH&ci=COMMIT,
//     /info/COMMIT), over a line of commits that change 1-3 files each; a crawl sees the trees
//     of some commits and some files of each. = a file or a directory listing at the commits
//     between which it did not change; gitweb's blob under any hb= when h= names its content;
//     the newest state under the branch's name (hb=HEAD, ?h=main, ci=tip); cgit's h= beside
//     id= on a commit; Fossil's commits and artifacts under abbreviations of 10, 16 and 40
//     hex digits. ≠ a file or a listing at two commits with a change between them, where the
//     URL names only the commit (a rule that maps one commit's tree onto another's is right
//     for the files that did not change); log pages by offset; cgit's logs of two branches
//     (h=, irrelevant on a commit, the key of a log). Noise: files at commits before they
//     existed.
//
// Every site also has the variants any site has, in small shares: the other scheme, www and
// the bare host, and utm_ tracking on a few URLs.
//
// # Scale
//
// A site's page budget is drawn log-uniformly from its family's range (800-5000 pages at
// Options.Scale 1); a page has 1 to a few hundred URLs (at most 400 repeated variants). The
// defaults, 14 families of 4 sites, give 230,000-270,000 URLs in 110,000-132,000 clusters
// (seeds 1 and 2), half the clusters of one URL as in the dupclusters files, about 1 trap per
// 9 URLs and 0.2% of clusters of noise.
package sitefamily
