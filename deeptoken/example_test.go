package deeptoken_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/undust/undust/deeptoken"
	"github.com/undust/undust/urlnorm"
)

// Learn the patterns of a host whose title ids are "tt" and a number, then split a URL of it.
func ExampleLearn() {
	var urls []string
	for i := range 50 {
		urls = append(urls, fmt.Sprintf("http://www.example.org/title/tt%07d/trivia", 810900+i*7919))
	}
	p := deeptoken.Learn(slices.Values(urls), deeptoken.Options{})
	fmt.Print(p)

	toks, _ := urlnorm.Tokenize(nil, "http://www.example.org/title/tt0810900/photogallery")
	for _, t := range p.AppendSplit(nil, toks) {
		if t.Part == urlnorm.PartPath {
			fmt.Printf("%s = %q\n", t.Key, t.Value)
		}
	}
	// Output:
	// key path 2
	// node 0 *
	// anchor 0 0 ^ ~ tt
	// node 1 tt *
	// path(1,3) = "title"
	// path(2.1,2.2) = "tt"
	// path(2.2,2.1) = "0810900"
	// path(3,1) = "photogallery"
}

// A Learner takes the tokens of a host's URLs one at a time. The random suffix of
// "friends-lttU7d6kIuGq" becomes a deep token of its own, which a rule can wildcard.
func ExampleLearner() {
	l := deeptoken.NewLearner(deeptoken.Options{})
	const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		id := make([]byte, 12)
		for j := range id {
			id[j] = base62[r.IntN(62)]
		}
		kind := []string{"friends", "album", "profile"}[i%3]
		toks, err := urlnorm.Tokenize(nil, "http://360.example.com/user"+strconv.Itoa(i)+"/"+kind+"-"+string(id))
		if err != nil {
			panic(err)
		}
		l.Add(toks)
	}
	p := l.Patterns()

	toks, _ := urlnorm.Tokenize(nil, "http://360.example.com/ann/friends-lttU7d6kIuGq")
	split := p.AppendSplit(nil, toks)
	for _, t := range split {
		if t.Sub > 0 {
			fmt.Printf("%s = %q\n", t.Key, t.Value)
		}
	}
	fmt.Println(urlnorm.Join(split))
	// Output:
	// path(2.1,1.3) = "friends"
	// path(2.2,1.2) = "-"
	// path(2.3,1.1) = "lttU7d6kIuGq"
	// http://360.example.com/ann/friends-lttU7d6kIuGq
}

// The text form is what a rules file embeds for a host.
func ExampleParsePatterns() {
	p, err := deeptoken.ParsePatterns([]byte(
		"key path 1\n" +
			"node 0 *\n" +
			"anchor 0 0 . [ php\n" +
			"anchor 0 0 [ ] id\n" +
			"node 1 * . php [ id ] *\n"))
	if err != nil {
		panic(err)
	}
	toks, _ := urlnorm.Tokenize(nil, "http://www.example.net/accelerate.php[id]100019")
	var deep []string
	for _, t := range p.AppendSplit(nil, toks) {
		if t.Sub > 0 {
			deep = append(deep, strconv.Quote(t.Value))
		}
	}
	fmt.Println(strings.Join(deep, " "))

	_, err = deeptoken.ParsePatterns([]byte("key path 1\nnode 0 *\nnode 1 * *\n"))
	fmt.Println(err)
	// Output:
	// "accelerate" "." "php" "[" "id" "]" "100019"
	// deeptoken: line 3: two stars in a row: "node 1 * *"
}

// A Splitter splits the one token that a caller reads, here the second path segment, and
// leaves the others alone.
func ExampleSplitter() {
	var urls []string
	for i := range 50 {
		urls = append(urls, fmt.Sprintf("http://www.example.org/title/tt%07d/trivia", 810900+i*7919))
	}
	p := deeptoken.Learn(slices.Values(urls), deeptoken.Options{})

	toks, _ := urlnorm.Tokenize(nil, "http://www.example.org/title/tt0810900/photogallery")
	var sp deeptoken.Splitter
	for _, t := range toks {
		if t.Part == urlnorm.PartPath && t.Pos == 2 {
			for _, d := range sp.AppendToken(nil, p, t) {
				fmt.Printf("%s = %q\n", d.Key, d.Value)
			}
		}
	}
	// Output:
	// path(2.1,2.2) = "tt"
	// path(2.2,2.1) = "0810900"
}
