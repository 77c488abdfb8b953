package shingle_test

import (
	"fmt"
	"slices"

	"github.com/undust/undust/shingle"
)

func ExampleTokens() {
	fmt.Printf("%q\n", shingle.Tokens("Hello, 世界! ＮＦＫＣ-folded Café", shingle.Options{}))
	// Output:
	// ["hello" "世" "界" "nfkc" "folded" "café"]
}

func ExampleShingles() {
	for _, s := range shingle.Shingles("a rose is a rose is a rose", shingle.Options{Width: 4}) {
		fmt.Println(s)
	}
	// Output:
	// a rose is a
	// rose is a rose
	// is a rose is
	// a rose is a
	// rose is a rose
}

func ExampleAppendHashes() {
	var buf []uint64
	buf = shingle.AppendHashes(buf[:0], "a rose is a rose", shingle.Options{Width: 4})
	fmt.Printf("%#x\n", buf)
	// Output:
	// [0x8aa7fc645ef26892 0x1df13295a9233b92]
}

func ExampleMinHasher() {
	a := "The printer is set up once on the main server and is then shared with every workstation in the network."
	b := "The printer is set up once on the main server and is then shared with every computer in the network."
	m := shingle.NewMinHasher(128, 1)
	sa := m.Signature(shingle.Hashes(a, shingle.Options{}))
	sb := m.Signature(shingle.Hashes(b, shingle.Options{}))
	exact := shingle.NewSet(shingle.Hashes(a, shingle.Options{})).Jaccard(shingle.NewSet(shingle.Hashes(b, shingle.Options{})))
	fmt.Printf("exact %.2f, estimate %.2f\n", exact, shingle.Estimate(sa, sb))
	// Output:
	// exact 0.60, estimate 0.60
}

func ExampleLSH() {
	docs := []string{
		"Open the printer administration page and choose add printer; the wizard finds printers on the network.",
		"Open the printer administration page and choose add printer; the wizard finds the printers on the network.",
		"Backups run every night at two and are kept for thirty days on the second disk of the server.",
	}
	m := shingle.NewMinHasher(128, 1)
	index := shingle.NewLSH(128, 0.5)
	for i, d := range docs {
		index.Insert(uint64(i), m.Signature(shingle.Hashes(d, shingle.Options{})))
	}
	q := m.Signature(shingle.Hashes("Open the printer administration page and choose add printer; the wizard finds printers on your network.", shingle.Options{}))
	keys, _ := index.Query(q)
	slices.Sort(keys)
	fmt.Println(keys)
	// Output:
	// [0 1]
}

func ExampleCandidateThreshold() {
	// Pages are duplicates at an estimated resemblance of 0.8 or more: the
	// index proposes candidates from below that, and Estimate decides.
	index := shingle.NewLSH(128, shingle.CandidateThreshold(0.8))
	b, r := index.Bands()
	fmt.Printf("%d bands of %d rows for %.1f\n", b, r, shingle.CandidateThreshold(0.8))
	// Output:
	// 14 bands of 9 rows for 0.7
}

func ExampleSet_Jaccard() {
	a := shingle.NewSet(shingle.Hashes("a rose is a rose is a rose", shingle.Options{Width: 2}))
	b := shingle.NewSet(shingle.Hashes("a rose is a flower", shingle.Options{Width: 2}))
	fmt.Printf("J = %.2f, C(b in a) = %.2f\n", a.Jaccard(b), b.Containment(a))
	// Output:
	// J = 0.75, C(b in a) = 0.75
}

func ExampleSpotSignatures() {
	a := shingle.SpotSignatures("The printer is on the desk and the cable is in the drawer.", shingle.SpotOptions{})
	b := shingle.SpotSignatures("Welcome! The printer is on the desk and the cable is in the drawer. Share this page.", shingle.SpotOptions{})
	fmt.Printf("%d and %d spots, similarity %.2f\n", a.Size, b.Size, a.Jaccard(b))
	pairs := shingle.SpotPairs([]shingle.Spots{a, b}, 0.8)
	fmt.Println(len(pairs), "pair above 0.8")
	// Output:
	// 5 and 6 spots, similarity 0.83
	// 1 pair above 0.8
}

// A site with two manuals: each page carries its manual's table of
// contents and the site's footer. Once the pages are added, the shingles
// that identify no page are template, and a page keeps the shingles of
// its own text.
func ExampleTemplates() {
	tl := shingle.NewTemplates(shingle.TemplateOptions{})
	toc := map[string]string{
		"guide": "Contents: Installing, Configuring, Running, Upgrading, Troubleshooting.",
		"api":   "Reference index: Functions, Types, Constants, Variables, Errors, Examples.",
	}
	const footer = "Copyright the authors. Licensed under the Apache License, version 2.0."
	text := func(manual, topic string) string {
		return toc[manual] + " This page explains " + topic + " in the " + manual + " in detail. " + footer
	}
	for _, m := range []string{"guide", "api"} {
		for _, topic := range []string{"disks", "users", "printers", "backups", "networks", "mail"} {
			hs := shingle.Hashes(text(m, topic), shingle.Options{})
			if err := tl.Add("https://docs.example/"+m+"/"+topic+".html", hs); err != nil {
				fmt.Println(err)
			}
		}
	}
	t := text("guide", "disks")
	hs := shingle.Hashes(t, shingle.Options{})
	kept, err := tl.AppendKept(nil, "https://docs.example/guide/disks.html", hs)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Printf("kept %d of %d shingles:\n", len(kept), len(hs))
	for i, s := range shingle.Shingles(t, shingle.Options{}) {
		if slices.Contains(kept, hs[i]) {
			fmt.Println(s)
		}
	}
	// The template of all hosts at once, as a Set.
	all := shingle.Set(tl.AppendTemplate(nil))
	fmt.Println(all.Contains(hs[0]), all.Contains(kept[0]))
	// Output:
	// kept 5 of 22 shingles:
	// troubleshooting this page explains disks
	// this page explains disks in
	// page explains disks in the
	// explains disks in the guide
	// disks in the guide in
	// true false
}
