package versionkey_test

import (
	"fmt"

	"github.com/undust/undust/internal/versionkey"
	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

// A repository browser's files at commits: main.c did not change between commits a1 and b2
// (one cluster), util.c and io.c did (two clusters each). The commit names versions there, and
// a rule that deletes it, whatever its value, is one that Deletes reports.
func ExampleFinder_Deletes() {
	clusters := [][]string{
		{"/file?name=main.c&ci=a1a1a1a1a1", "/file?name=main.c&ci=b2b2b2b2b2"},
		{"/file?name=util.c&ci=a1a1a1a1a1"}, {"/file?name=util.c&ci=b2b2b2b2b2"},
		{"/file?name=io.c&ci=a1a1a1a1a1"}, {"/file?name=io.c&ci=b2b2b2b2b2"},
	}
	var urls []versionkey.URL
	for i, c := range clusters {
		for _, path := range c {
			toks, err := urlnorm.Tokenize(nil, "http://code.example.org"+path)
			if err != nil {
				panic(err)
			}
			urls = append(urls, versionkey.URL{Host: "code.example.org", Toks: toks, Cluster: int32(i)})
		}
	}
	f := versionkey.New(urls, nil)
	for _, text := range []string{
		`if path(-,1)="file" query("ci")=* then query("ci")=-`,
		`if path(-,1)="file" query("ci")="tip" then query("ci")=-`,
	} {
		r, err := rules.ParseRule("host=code.example.org cov=2 prec=1 sup=2 " + text)
		if err != nil {
			panic(err)
		}
		fmt.Println(f.Deletes(&r, ""), text)
	}
	// Output:
	// true if path(-,1)="file" query("ci")=* then query("ci")=-
	// false if path(-,1)="file" query("ci")="tip" then query("ci")=-
}
