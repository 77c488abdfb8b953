package sitefamily

// families are the site families, in the order Generate writes them.
var families = []Family{
	{Name: "docs", Doc: "versioned documentation trees with stable/latest aliases; pages changed between releases", pages: [2]int{800, 5000}, build: buildDocs},
	{Name: "archive", Doc: "web archive captures by date (Wayback-style or dated snapshots); pages changed between captures", pages: [2]int{800, 5000}, build: buildArchive},
	{Name: "social", Doc: "profiles, tabs, photos and friend pages; random link suffixes beside random photo ids", pages: [2]int{800, 5000}, build: buildSocial},
	{Name: "forum", Doc: "phpBB, vBulletin or Discourse; f= redundant in topics and the key of forum listings", pages: [2]int{800, 5000}, build: buildForum},
	{Name: "shop", Doc: "faceted listings and products; color= a preselection on products and a filter on listings", pages: [2]int{800, 5000}, build: buildShop},
	{Name: "session", Doc: "sessions in the URL path or query; content keys as random as the sessions", pages: [2]int{800, 5000}, build: buildSession},
	{Name: "wiki", Doc: "MediaWiki or DokuWiki; current and old revisions, actions, do=recent for every id", pages: [2]int{800, 5000}, build: buildWiki},
	{Name: "cms", Doc: "WordPress, Drupal or Joomla; ?p=ID and permalinks, replytocom=, view= as content key", pages: [2]int{800, 5000}, build: buildCMS},
	{Name: "tracking", Doc: "a tracking token of an unknown name and a random value on every link; random content keys", pages: [2]int{800, 5000}, build: buildTracking},
	{Name: "print", Doc: "printer and AMP views; the print view of an article of several pages is not its first page", pages: [2]int{800, 5000}, build: buildPrint},
	{Name: "mobile", Doc: "mobile hosts, /m/ or ?m=1; articles the same, listings not", pages: [2]int{800, 5000}, build: buildMobile},
	{Name: "paths", Doc: "case-insensitive IIS paths, index files, trailing and doubled slashes; case-sensitive codes and files", pages: [2]int{800, 5000}, build: buildPaths},
	{Name: "mirror", Doc: "mirrors carrying the tree under another host and prefix; stale pages on the mirrors", pages: [2]int{800, 5000}, build: buildMirror},
	{Name: "repo", Doc: "gitweb, cgit or Fossil; a file at the commits it did not change in, hashes abbreviated; files that changed", pages: [2]int{800, 5000}, build: buildRepo},
}
