package learn_test

import (
	"fmt"

	"github.com/undust/undust/learn"
)

// A crawl that learns as it goes: fetched pages are evidence, the site is relearned when its
// evidence has grown, and a rule's first use is verified by fetching anyway.
func ExampleOnline() {
	o := learn.NewOnline(learn.OnlineOptions{})
	// The crawler fetched these URLs; the fingerprint of a page is any digest of its content.
	for i := range 30 {
		page := uint64(i + 1)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, page)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&ref=%d", i, 9000+13*i)}, page)
	}
	fmt.Println("relearned sites:", o.Relearn()) // or go o.Run(ctx) in the background

	// The frontier meets a new link: its key names page 8, fetched already.
	k, _ := o.Key("http://shop.example.com/item?id=7&ref=1")
	fmt.Println(k.Key, k.Rewritten())
	if o.Verify(k) { // the rule's first use: fetch anyway and compare
		o.Confirm(k, true) // same content: the rule holds
	}
	k, _ = o.Key("http://shop.example.com/item?id=8&ref=2")
	fmt.Println("verify again:", o.Verify(k))
	// Output:
	// relearned sites: 1
	// http://shop.example.com/item?id=7 true
	// verify again: false
}

// A mismatch found by verification retracts the rule at once.
func ExampleOnline_Confirm() {
	o := learn.NewOnline(learn.OnlineOptions{})
	for i := range 30 {
		page := uint64(i + 1)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://forum.example.org/topic?t=%d", i)}, page)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://forum.example.org/topic?t=%d&start=%d", i, 7*i+1)}, page)
	}
	o.RelearnAll()
	u := "http://forum.example.org/topic?t=3&start=40" // page 2 of a long topic
	k, _ := o.Key(u)
	fmt.Println(k.Key)
	if o.Verify(k) {
		o.Confirm(k, false) // the fetched page is not the topic's first page
	}
	key, _ := o.Normalize(u)
	fmt.Println(key)
	for _, r := range o.Retracted() { // the rule of this path and the site-wide one behind it
		fmt.Println(r)
	}
	// Output:
	// http://forum.example.org/topic?t=3
	// http://forum.example.org/topic?start=40&t=3
	// example.org	domain=example.org cov=0 prec=0 sup=0 if query("start")=* then query("start")=-
	// example.org	host=forum.example.org cov=0 prec=0 sup=0 if host="forum.example.org" path(-,1)="topic" path(1,-)="topic" scheme="http" query("start")=* query("t")=* then query("start")=-
}

// A match is verified for the rules that made either key: here the rule that deletes a
// trailing index.html made the key of the kept URL, and no rule rewrote the URL met.
func ExampleOnline_VerifyMatch() {
	o := learn.NewOnline(learn.OnlineOptions{})
	for i := range 30 {
		page := uint64(i + 1)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://docs.example.net/d%d/index.html", i)}, page)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://docs.example.net/d%d/", i)}, page)
	}
	o.RelearnAll()
	kept, _ := o.Key("http://docs.example.net/d40/index.html") // fetched before
	k, _ := o.Key("http://docs.example.net/d40/")
	fmt.Println(kept.Key, kept.Rewritten(), k.Rewritten())
	fmt.Println("Verify:", o.Verify(k)) // sees no rule
	if o.VerifyMatch(k, kept) {
		o.ConfirmMatch(k, kept, false) // the directory is a listing, not the index page
	}
	key, _ := o.Normalize("http://docs.example.net/d40/index.html")
	fmt.Println(key)
	// Output:
	// http://docs.example.net/d40/ true false
	// Verify: false
	// http://docs.example.net/d40/index.html
}

// A check that was asked for and never made (its fetch failed) does not count: the rule's next
// use is checked in its place.
func ExampleOnline_Unchecked() {
	o := learn.NewOnline(learn.OnlineOptions{})
	for i := range 30 {
		page := uint64(i + 1)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d", i)}, page)
		o.Observe(learn.URL{Raw: fmt.Sprintf("http://shop.example.com/item?id=%d&list=%d", i, 7*i+3)}, page)
	}
	o.RelearnAll()
	kept, _ := o.Key("http://shop.example.com/item?id=70") // fetched before
	first, _ := o.Key("http://shop.example.com/item?id=70&list=12")
	second, _ := o.Key("http://shop.example.com/item?id=70&list=95")
	fmt.Println("check the first use:", o.VerifyMatch(first, kept))
	o.Unchecked(first, kept) // its fetch failed
	fmt.Println("check the next use:", o.VerifyMatch(second, kept))
	// Output:
	// check the first use: true
	// check the next use: true
}
