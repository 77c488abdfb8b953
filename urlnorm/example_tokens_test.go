package urlnorm_test

import (
	"fmt"

	"github.com/undust/undust/urlnorm"
)

func ExampleTokenize() {
	toks, err := urlnorm.Tokenize(nil, "http://www.imdb.com/title/tt0810900/photogallery?ref=nv&page=2")
	if err != nil {
		panic(err)
	}
	for _, t := range toks {
		fmt.Printf("%-16s %q\n", t.Key, t.Value)
	}
	// Output:
	// scheme           "http"
	// host             "www.imdb.com"
	// path(1,3)        "title"
	// path(2,2)        "tt0810900"
	// path(3,1)        "photogallery"
	// query(ref)       "nv"
	// query(page)      "2"
}

func ExampleAppendJoin() {
	toks, _ := urlnorm.Tokenize(nil, "http://ag.arizona.edu/srnr/about/art/index.html")
	// Delete the last path segment, k(-,1) = index.html; Join needs no renumbering.
	toks = toks[:len(toks)-1]
	fmt.Println(string(urlnorm.AppendJoin(nil, toks)))
	// Output:
	// http://ag.arizona.edu/srnr/about/art
}

func ExampleNormalizer_AppendKeyLayout() {
	n := urlnorm.New(urlnorm.Crawler)
	var l urlnorm.KeyLayout
	b, err := n.AppendKeyLayout(nil, "HTTP://User@Example.COM:8080/a/?z=1&a=2#top", &l)
	if err != nil {
		panic(err)
	}
	key := string(b)
	i, j := l.Host()
	qi, qj := l.Query(key)
	fmt.Println(key)
	fmt.Println(key[i:j], key[qi:qj])
	// The tokens come only when they are needed, without reading the key again.
	toks, err := l.AppendTokens(nil, key)
	if err != nil {
		panic(err)
	}
	for _, t := range toks {
		fmt.Printf("%-10s %q\n", t.Key, t.Value)
	}
	// Output:
	// http://User@example.com:8080/a/?a=2&z=1
	// example.com a=2&z=1
	// scheme     "http"
	// userinfo   "User"
	// host       "example.com"
	// port       "8080"
	// path(1,2)  "a"
	// path(2,1)  ""
	// query(a)   "2"
	// query(z)   "1"
}

func ExampleKeyLayout_ParamNames() {
	n := urlnorm.New(urlnorm.Crawler)
	// The parameters that some rules need: a key with none of them needs no closer look.
	var want uint64
	for _, name := range []string{"replytocom", "highlight"} {
		want |= urlnorm.ParamNameBit(name)
	}
	var l urlnorm.KeyLayout
	for _, raw := range []string{
		"http://example.com/a?highlight=x&page=2",
		"http://example.com/a?page=2",
		"http://example.com/a",
	} {
		b, _ := n.AppendKeyLayout(nil, raw, &l)
		fmt.Println(string(b), l.ParamNames()&want != 0)
	}
	// Output:
	// http://example.com/a?highlight=x&page=2 true
	// http://example.com/a?page=2 false
	// http://example.com/a false
}
