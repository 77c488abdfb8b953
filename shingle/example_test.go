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
