package urlnorm_test

import (
	"errors"
	"fmt"

	"github.com/undust/undust/urlnorm"
)

func ExampleNormalizer_Resolve() {
	n := urlnorm.New(urlnorm.Safe)
	page := "http://example.com/docs/guide/intro.html?lang=en#top"
	for _, href := range []string{
		"setup.html",
		"../api/",
		"/search?q=a b",
		"?lang=fr",
		"#install",
		"//cdn.example.com/app.js",
		"https://other.example/",
		"mailto:team@example.com",
	} {
		u, err := n.Resolve(page, href)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// http://example.com/docs/guide/setup.html
	// http://example.com/docs/api/
	// http://example.com/search?q=a%20b
	// http://example.com/docs/guide/intro.html?lang=fr
	// http://example.com/docs/guide/intro.html?lang=en#install
	// http://cdn.example.com/app.js
	// https://other.example/
	// error: urlnorm: resolve "mailto:team@example.com": unsupported scheme
}

func ExampleNormalizer_ResolveKey() {
	n := urlnorm.New(urlnorm.Crawler)
	page := "https://example.com/shop/list?cat=2"
	for _, href := range []string{"../item?id=7&utm_source=x", "#reviews", "?cat=2&"} {
		k, _ := n.ResolveKey(page, href)
		fmt.Println(k)
	}
	// Output:
	// https://example.com/item?id=7
	// https://example.com/shop/list?cat=2
	// https://example.com/shop/list?cat=2
}

func ExampleNormalizer_AppendResolveKey() {
	n := urlnorm.New(urlnorm.Aggressive)
	page := "https://www.example.com/a/b.html"
	var buf []byte
	for _, href := range []string{"/Relative/Path", "c.html", "index.php"} {
		buf, _ = n.AppendResolveKey(buf[:0], page, href) // reuses buf
		fmt.Println(string(buf))
	}
	// Output:
	// http://example.com/relative/path
	// http://example.com/a/c.html
	// http://example.com/a/
}

func ExampleGuessScheme() {
	// GuessScheme reads "example.com/x" as http, but never an href's first
	// segment as a host: relative references need their base URL.
	n := urlnorm.New(urlnorm.Aggressive)
	for _, raw := range []string{"example.com/x", "/relative/path", "index.php"} {
		k, err := n.Key(raw)
		fmt.Printf("%q %v\n", k, errors.Is(err, urlnorm.ErrNotAbsolute))
	}
	k, _ := n.ResolveKey("https://example.com/a/", "/relative/path")
	fmt.Println(k)
	// Output:
	// "http://example.com/x" false
	// "" true
	// "" true
	// http://example.com/relative/path
}

func ExampleNormalizer_Base() {
	// A crawler resolves every href of a page against one Base.
	n := urlnorm.New(urlnorm.Crawler)
	page, err := n.Base("https://example.com/blog/2026/11/post.html?utm_source=feed#comments")
	if err != nil {
		panic(err)
	}
	fmt.Println(page)
	for _, href := range []string{"../10/older.html", "/tags/go?sessionid=ab12cd34ef56gh78", "#top"} {
		k, _ := page.ResolveKey(href)
		fmt.Println(k)
	}
	// Output:
	// https://example.com/blog/2026/11/post.html?utm_source=feed
	// https://example.com/blog/2026/10/older.html
	// https://example.com/tags/go
	// https://example.com/blog/2026/11/post.html
}
