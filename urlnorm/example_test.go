package urlnorm_test

import (
	"errors"
	"fmt"

	"github.com/undust/undust/urlnorm"
)

func ExampleNormalizer_Canonical() {
	n := urlnorm.New(urlnorm.Safe)
	for _, raw := range []string{
		"HTTP://Example.COM:80/a/./b/../%7Euser/%c3%a9?q=a b#top",
		"http://0x7f.1/",
		"https://bücher.de./",
		"http://[2001:DB8:0:0:1:0:0:1]:8080",
	} {
		c, err := n.Canonical(raw)
		fmt.Println(c, err)
	}
	// Output:
	// http://example.com/a/~user/%C3%A9?q=a%20b#top <nil>
	// http://127.0.0.1/ <nil>
	// https://xn--bcher-kva.de/ <nil>
	// http://[2001:db8::1:0:0:1]:8080/ <nil>
}

func ExampleNormalizer_Key() {
	n := urlnorm.New(urlnorm.Crawler)
	raw := "http://example.com/list;jsessionid=E85FAC04?sort=new&utm_source=mail&page=2&#results"
	c, _ := n.Canonical(raw)
	k, _ := n.Key(raw)
	fmt.Println(c)
	fmt.Println(k)
	// Output:
	// http://example.com/list;jsessionid=E85FAC04?sort=new&utm_source=mail&page=2&
	// http://example.com/list?page=2&sort=new
}

func ExampleNormalizer_AppendKey() {
	n := urlnorm.New(urlnorm.Aggressive)
	var buf []byte
	for _, raw := range []string{"https://www.example.com/Docs/index.html", "example.com/docs/"} {
		buf, _ = n.AppendKey(buf[:0], raw) // reuses buf: no allocation once it is big enough
		fmt.Println(string(buf))
	}
	// Output:
	// http://example.com/docs/
	// http://example.com/docs/
}

func ExampleNewOptions() {
	// Slashdot's sid names a story, not a session.
	n, err := urlnorm.NewOptions(urlnorm.Crawler, urlnorm.Options{
		Exceptions: []urlnorm.Exception{{Domain: "slashdot.org", Keep: []string{"sid"}}},
	})
	if err != nil {
		panic(err)
	}
	for _, raw := range []string{
		"https://news.slashdot.org/article.pl?sid=07abc12def345678",
		"https://example.org/article?sid=07abc12def345678",
	} {
		k, _ := n.Key(raw)
		fmt.Println(k)
	}
	// Output:
	// https://news.slashdot.org/article.pl?sid=07abc12def345678
	// https://example.org/article
}

func ExampleChain() {
	// A frontier chains static normalization with learned rules; any Stage fits.
	var learned urlnorm.Stage = urlnorm.New(urlnorm.Aggressive) // stands in for a rule set
	s := urlnorm.Chain(urlnorm.New(urlnorm.Crawler), learned)
	k, _ := s.Normalize("https://www.example.com/a?b=1&a=2")
	fmt.Println(k)
	// Output:
	// http://example.com/a?a=2&b=1
}

func ExampleError() {
	_, err := urlnorm.New(urlnorm.Safe).Canonical("http://example.com:99999/")
	fmt.Println(err)
	fmt.Println(errors.Is(err, urlnorm.ErrInvalidPort))
	// Output:
	// urlnorm: canonical "http://example.com:99999/": invalid port
	// true
}

func ExampleFlags_String() {
	fmt.Println(urlnorm.Crawler &^ urlnorm.Safe)
	// Output:
	// DropFragment|SortQuery|DropEmptyParams|DropBareQuery|DropSessionIDs|DropTracking|DecodeQuery|SemicolonParams
}

func ExampleSemicolonParams() {
	n := urlnorm.New(urlnorm.Crawler)
	// Two links to one gitweb page, its parameters joined by ';' in another order, and a
	// query whose ';' is part of a value.
	for _, raw := range []string{
		"http://example.com/?p=docs.git;a=tree;h=HEAD",
		"http://example.com/?a=tree;p=docs.git;h=HEAD",
		"http://example.com/search?q=a;b",
	} {
		k, _ := n.Key(raw)
		fmt.Println(k)
	}
	// Output:
	// http://example.com/?a=tree&h=HEAD&p=docs.git
	// http://example.com/?a=tree&h=HEAD&p=docs.git
	// http://example.com/search?q=a;b
}

func ExampleDecodeQuery() {
	n := urlnorm.New(urlnorm.Crawler)
	// One page, linked with an escaped query and found by a parser that decoded it.
	for _, raw := range []string{
		"http://example.com/timeline?c=2019-02-28+12%3A00%3A00",
		"http://example.com/timeline?c=2019-02-28+12:00:00",
		"http://example.com/search?q=a%26b%3Dc%2B%3A", // & = + keep their escapes
	} {
		c, _ := n.Canonical(raw)
		k, _ := n.Key(raw)
		fmt.Println(c)
		fmt.Println(k)
	}
	// Output:
	// http://example.com/timeline?c=2019-02-28+12%3A00%3A00
	// http://example.com/timeline?c=2019-02-28+12:00:00
	// http://example.com/timeline?c=2019-02-28+12:00:00
	// http://example.com/timeline?c=2019-02-28+12:00:00
	// http://example.com/search?q=a%26b%3Dc%2B%3A
	// http://example.com/search?q=a%26b%3Dc%2B:
}
