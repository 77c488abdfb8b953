package learn_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/undust/undust/learn"
)

// Learn rules from dup clusters and normalize URLs that were never seen.
func ExampleLearn() {
	tsv := `# cluster	url
imdb-1	http://www.imdb.com/title/tt0810900/photogallery
imdb-1	http://www.imdb.com/title/tt0810900/mediaindex
imdb-2	http://www.imdb.com/title/tt0053198/photogallery
imdb-2	http://www.imdb.com/title/tt0053198/mediaindex
imdb-3	http://www.imdb.com/title/tt0120338/photogallery?sid=a81f
imdb-3	http://www.imdb.com/title/tt0120338/photogallery?sid=77c0
imdb-3	http://www.imdb.com/title/tt0120338/mediaindex
imdb-4	http://www.imdb.com/title/tt0111161/mediaindex?sid=0b3e
imdb-4	http://www.imdb.com/title/tt0111161/mediaindex
imdb-5	http://www.imdb.com/title/tt0068646/mediaindex?sid=9a9a
imdb-5	http://www.imdb.com/title/tt0068646/mediaindex
`
	clusters, _, err := learn.ReadClusters(strings.NewReader(tsv), learn.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	set, _, err := learn.Learn(clusters, learn.Options{MinCoverage: 1, MinPrecision: -1})
	if err != nil {
		panic(err)
	}
	set.WriteTo(os.Stdout) // the rules file: rules.Load reads it back

	for _, u := range []string{
		"http://www.imdb.com/title/tt0071562/photogallery",
		"http://www.imdb.com/title/tt0071562/photogallery?sid=ffff",
	} {
		key, _ := set.Normalize(u)
		fmt.Println(key)
	}
	// Output:
	// undust-rules v2
	// key RemoveDefaultPort|RemoveTrailingDot|RemoveDotSegments|UppercaseEscapes|DecodeUnreserved|EscapeStrayPercent|EncodeStrict|DropFragment|SortQuery|DropEmptyParams|DropBareQuery|DropSessionIDs|DropTracking|DecodeQuery|SemicolonParams
	// pattern www.imdb.com key path 2
	// pattern www.imdb.com node 0 *
	// pattern www.imdb.com anchor 0 0 ^ ~ tt
	// pattern www.imdb.com node 1 tt *
	// rule domain=imdb.com cov=4 prec=1 sup=0 if query("sid")=* then query("sid")=-
	// rule host=www.imdb.com cov=2 prec=1 sup=1 if host="www.imdb.com" path(-,1)="photogallery" path(-,2)="tt0120338" path(-,3)="title" path(1,-)="title" path(2,-)="tt0120338" path(3,-)="photogallery" scheme="http" path(2.1,-)=* path(2.2,-)=* query("sid")=* then path(-,1)="mediaindex" query("sid")=-
	// rule host=www.imdb.com cov=2 prec=1 sup=2 if host="www.imdb.com" path(-,1)="mediaindex" path(-,3)="title" path(1,-)="title" path(3,-)="mediaindex" scheme="http" path(-,2)=* path(2,-)=* path(2.1,-)=* path(2.2,-)=* query("sid")=* then query("sid")=-
	// rule host=www.imdb.com cov=4 prec=1 sup=2 if host="www.imdb.com" path(-,1)="photogallery" path(-,3)="title" path(1,-)="title" path(3,-)="photogallery" scheme="http" path(-,2)=* path(2,-)=* path(2.1,-)=* path(2.2,-)=* then path(-,1)="mediaindex"
	// end 4 01d03af1
	// http://www.imdb.com/title/tt0071562/mediaindex
	// http://www.imdb.com/title/tt0071562/mediaindex
}

// Read a dup-cluster file, skipping malformed lines. The sites are found from the URLs' hosts:
// www.a.com and a.com are one site because a cluster holds URLs of both.
func ExampleReadClusters() {
	tsv := "c1\thttp://a.com/x\t0.5\t3\nbroken line\nc1\thttp://www.a.com/x?sid=1\t0.5\t1\n" +
		"c2\thttp://www.a.com/y\nc3\thttp://b.org/\n"
	clusters, skipped, err := learn.ReadClusters(strings.NewReader(tsv), learn.ReaderOptions{SkipBad: true})
	fmt.Println(len(clusters), skipped, err)
	for _, c := range clusters {
		fmt.Println(c.ID, c.Site, len(c.URLs))
	}
	// Output:
	// 3 1 <nil>
	// c1 www.a.com 2
	// c2 www.a.com 1
	// c3 b.org 1
}

// Read a file whose cluster ids name the site before their last "-", as in the data set of
// Koppula et al.
func ExampleReadClusters_byID() {
	tsv := "h0042-p1\thttp://a.com/x\nh0042-p2\thttp://mirror.b.org/x\nfrost-atlas.com-17\thttp://c.net/\n"
	clusters, _, _ := learn.ReadClusters(strings.NewReader(tsv), learn.ReaderOptions{Sites: learn.ByID})
	for _, c := range clusters {
		fmt.Println(c.ID, c.Site)
	}
	// Output:
	// h0042-p1 h0042
	// h0042-p2 h0042
	// frost-atlas.com-17 frost-atlas.com
}

// Group a CDX crawl index into dup clusters by payload digest: status 200 only, revisits and
// redirects skipped.
func ExampleCaptureClusters() {
	cdx := ` CDX N b a m s k r M S V g
com,example)/ 20200101000000 http://example.com/ text/html 200 AAAA - - 10 0 x.warc.gz
com,example)/ 20200101000001 https://example.com/ text/html 200 AAAA - - 10 10 x.warc.gz
com,example)/ 20200101000002 https://example.com/ warc/revisit - AAAA - - 10 20 x.warc.gz
com,example)/a 20200101000003 http://example.com/a unk 302 RRRR - - 10 30 x.warc.gz
com,example)/b 20200101000004 http://example.com/b unk 302 RRRR - - 10 40 x.warc.gz
`
	clusters, err := learn.CaptureClusters(learn.NewCDXReader(strings.NewReader(cdx), learn.ReaderOptions{}), learn.ByDomain)
	for _, c := range clusters {
		fmt.Println(c.ID, len(c.URLs))
	}
	fmt.Println(err)
	// Output:
	// example.com AAAA 2
	// <nil>
}

// Measure a normalizer on labelled clusters.
func ExampleMeasure() {
	tsv := "s-1\thttp://a.com/x\ns-1\thttp://a.com/x?\ns-2\thttp://a.com/y\n"
	clusters, _, _ := learn.ReadClusters(strings.NewReader(tsv), learn.ReaderOptions{})
	m := learn.Measure(clusters, learn.PrepareNormalizer)
	fmt.Printf("reduction %.3f of max %.3f, pair precision %.2f\n", m.Reduction, m.MaxReduction, m.PairPrecision)
	// Output: reduction 0.333 of max 0.333, pair precision 1.00
}

// Learn each site on its own (on any machine: a SiteResult is plain data) and assemble the
// rule set; it is the set that Learn returns for all the clusters.
func ExampleAssemble() {
	tsv := `imdb-1	http://www.imdb.com/title/tt0810900/photogallery?sid=1
imdb-1	http://www.imdb.com/title/tt0810900/photogallery
imdb-2	http://www.imdb.com/title/tt0053198/photogallery?sid=2
imdb-2	http://www.imdb.com/title/tt0053198/photogallery
imdb-3	http://www.imdb.com/title/tt0120338/photogallery?sid=3
imdb-3	http://www.imdb.com/title/tt0120338/photogallery
wiki-1	http://en.wiki.org/Main?action=view
wiki-1	http://en.wiki.org/Main
`
	clusters, _, err := learn.ReadClusters(strings.NewReader(tsv), learn.ReaderOptions{})
	if err != nil {
		panic(err)
	}
	opt := learn.Options{MinCoverage: 1, MinPrecision: -1}
	bySite := map[string][]learn.Cluster{}
	for _, c := range clusters {
		bySite[c.Site] = append(bySite[c.Site], c)
	}
	var results []learn.SiteResult
	for site, cls := range bySite { // any order
		results = append(results, learn.LearnSite(site, cls, opt))
	}
	set, st, err := learn.Assemble(results, opt)
	if err != nil {
		panic(err)
	}
	fmt.Println(st.Sites, "sites,", set.Len(), "rules")
	key, _ := set.Normalize("http://www.imdb.com/title/tt0071562/photogallery?sid=ffff")
	fmt.Println(key)
	// Output:
	// 2 sites, 2 rules
	// http://www.imdb.com/title/tt0071562/photogallery
}

// Group clusters made elsewhere into sites: the hosts that share a cluster are one site, named
// by its host with the most URLs.
func ExampleJoinSites() {
	cls := []learn.Cluster{
		{ID: "a", URLs: []learn.URL{{Raw: "http://www.shop.example/p/1"}, {Raw: "http://shop.example/p/1"}}},
		{ID: "b", URLs: []learn.URL{{Raw: "http://shop.example/p/2"}}},
		{ID: "c", URLs: []learn.URL{{Raw: "http://blog.shop.example/"}}},
	}
	learn.JoinSites(cls, learn.ByHost)
	fmt.Println(cls[0].Site, cls[1].Site, cls[2].Site)
	learn.JoinSites(cls, learn.ByDomain)
	fmt.Println(cls[0].Site, cls[1].Site, cls[2].Site)
	// Output:
	// shop.example shop.example blog.shop.example
	// shop.example shop.example shop.example
}

// Read a grouping from a command-line flag.
func ExampleParseGrouping() {
	for _, s := range []string{"host", "domain", "id", "path"} {
		g, err := learn.ParseGrouping(s)
		fmt.Println(g, err)
	}
	// Output:
	// host <nil>
	// domain <nil>
	// id <nil>
	// host learn: unknown grouping "path" (want host, domain or id)
}
