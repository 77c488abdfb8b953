// Package simsite serves a simulated web site that knows which of its URLs are one page: the
// ground truth that crawler tests and demonstrations of undust score themselves against.
//
// The site is a shop with a news section, a wiki and a documentation tree, on three host names
// (www.dustshop.example, dustshop.example, mirror.dustshop.example; .example is reserved by
// RFC 2606). It serves each distinct page under several URLs through the mechanisms that make
// duplicate URLs on real sites, as catalogued by Bar-Yossef, Keidar and Schonfeld (WWW 2007) and
// Koppula et al. (WSDM 2010):
//
//	https://www.dustshop.example/story/1007                  the page
//	http://dustshop.example/story/1007                       scheme and www aliases
//	https://www.dustshop.example/story.php?id=1007           an old URL scheme
//	https://www.dustshop.example/2011/03/1007-any-slug.html  a permalink; the slug is ignored
//	https://mirror.dustshop.example/archive/story/1007       a mirrored subtree
//	https://www.dustshop.example/story/1007;jsessionid=AB12  a servlet session id
//	https://www.dustshop.example/story/1007?s=9f3a&from=top  the site's own session id, tracking
//	https://www.dustshop.example/print/story/1007            a print view (same main text)
//	https://www.dustshop.example/DOCS/KETTLE3/DEFAULT.ASPX   a case-insensitive IIS section
//
// and has pages that look alike but are distinct: listing pages that differ by page number or
// sort order, and wiki titles that differ by case after the first letter (Apple and APPLE).
//
// Every page links to its neighbours in the sorted list of pages and to a few random pages, so
// the whole site is reachable from StartURL. Each link names one of a fixed, finite set of URL
// variants of its target (Site.Links), chosen by a generator seeded with the requesting URL: the
// URL space is finite, so a crawl that dedups by exact URL ends, after fetching every variant.
// Everything is deterministic in the site's size and seed.
//
// A Site is an http.Handler. It tells hosts apart by the Host header and takes the scheme the
// client asked for from X-Forwarded-Proto, as behind a TLS-terminating proxy; Transport returns
// an http.RoundTripper that sends every request, for any host and scheme, to one loopback
// server and sets both, so a crawler can be pointed at the site without leaving the machine:
//
//	site, _ := simsite.New(300, 1)
//	srv := httptest.NewServer(site)
//	client := &http.Client{Transport: simsite.Transport(srv.Listener.Addr().String())}
//	resp, _ := client.Get(simsite.StartURL)
//
// Site.Page says which page a URL serves, as the server would answer it; Site.Pages lists the
// distinct pages. With them a test counts the distinct pages a crawl found and lost, and the
// fetches it spent per distinct page.
package simsite
