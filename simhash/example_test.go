package simhash_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/undust/undust/simhash"
)

func ExampleSum64() {
	// Feature hashes would come from shingle.AppendHashes; here, three
	// small ones. Bit i is set where more features set it than clear it.
	fp := simhash.Sum64([]uint64{0b110, 0b011, 0b010})
	fmt.Printf("%#b\n", fp)
	fmt.Println(simhash.Distance(fp, 0b110))
	fmt.Println(simhash.Sum64(nil)) // no features
	// Output:
	// 0b10
	// 1
	// 0
}

func ExampleSum64Weighted() {
	// Weights supplied by the caller, such as inverse document frequencies:
	// the rare feature 0b01 outweighs two common ones.
	fp := simhash.Sum64Weighted([]uint64{0b01, 0b10, 0b10}, []float64{3.2, 0.5, 0.5})
	fmt.Printf("%#b\n", fp)
	// Output:
	// 0b1
}

func ExampleAccumulator() {
	var a simhash.Accumulator
	for _, doc := range [][]uint64{{1, 3, 7}, {8, 8, 9}} {
		a.Reset()
		for _, h := range doc {
			a.Add(h)
		}
		fmt.Println(a.Sum64())
	}
	// Output:
	// 3
	// 8
}

func ExampleIndex_Near() {
	index := simhash.NewIndex(3, nil)
	index.Insert(1, 0x8c3a5f7e9ecb3f35)
	index.Insert(2, 0xd8dbe7186bad3db3)

	fp := uint64(0x8c3a5f7e9ecb3f21) // two bits away from page 1
	if dup, ok := index.Near(fp, 3); ok {
		fmt.Printf("near duplicate of page %d at distance %d\n", dup.ID, dup.Distance)
	}
	if _, ok := index.Near(fp, 1); !ok {
		fmt.Println("nothing within distance 1")
	}
	// Output:
	// near duplicate of page 1 at distance 2
	// nothing within distance 1
}

func ExampleIndex_AppendNear() {
	index := simhash.NewIndex(3, &simhash.IndexOptions{Tables: 10})
	index.Insert(10, 0xff00)
	index.Insert(11, 0xff01)
	index.Insert(12, 0xff07)
	index.Insert(13, 0x00ff)
	index.Delete(11)

	var matches []simhash.Match
	matches = index.AppendNear(matches[:0], 0xff03, 3)
	for _, m := range matches {
		fmt.Println(m.ID, m.Distance)
	}
	fmt.Println(index.Tables(), "tables")
	// Output:
	// 12 1
	// 10 2
	// 10 tables
}

func ExampleIndex_WriteTo() {
	index := simhash.NewIndex(3, nil)
	index.Insert(42, 0xdeadbeef)
	var buf bytes.Buffer
	if _, err := index.WriteTo(&buf); err != nil {
		fmt.Println(err)
	}

	var loaded simhash.Index
	if _, err := loaded.ReadFrom(&buf); err != nil {
		fmt.Println(err)
	}
	m, ok := loaded.Near(0xdeadbeee, 3)
	fmt.Println(m.ID, ok)

	_, err := loaded.ReadFrom(bytes.NewReader([]byte("not an index at all.........")))
	fmt.Println(err)
	// Output:
	// 42 true
	// simhash: decoding index at byte 0: magic "not an i": simhash: not a saved index
}

func ExampleIndexOptions_maxLoadTables() {
	// An index of many tables: C(9, 3) = 84, more than the default load
	// limit of 64.
	big := simhash.NewIndex(3, &simhash.IndexOptions{Tables: 84})
	big.Insert(1, 0xfeed)
	var buf bytes.Buffer
	big.WriteTo(&buf)
	saved := buf.Bytes()

	var x simhash.Index // default limit
	_, err := x.ReadFrom(bytes.NewReader(saved))
	fmt.Println(errors.Is(err, simhash.ErrLimit))

	y := simhash.NewIndex(3, &simhash.IndexOptions{MaxLoadTables: 100})
	_, err = y.ReadFrom(bytes.NewReader(saved))
	fmt.Println(err, y.Tables(), y.Len())
	// Output:
	// true
	// <nil> 84 1
}

func ExampleFindPairs() {
	// The lecture notes' eight 16-bit fingerprints, in the top bits.
	nums := []uint64{37586, 50086, 2648, 934, 40957, 2650, 64475, 40955}
	fps := make([]uint64, len(nums))
	for i, v := range nums {
		fps[i] = v << 48
	}
	// One sort, adjacent entries only.
	fmt.Println(simhash.FindPairs(fps, 2, &simhash.BatchOptions{Rotations: 1}))
	// 64 rotations, as in the notes, also find the pair (1, 3).
	fmt.Println(simhash.FindPairs(fps, 2, nil))
	fmt.Println(simhash.FindPairsExact(fps, 2))
	// Output:
	// [{2 5 1} {4 7 2}]
	// [{1 3 2} {2 5 1} {4 7 2}]
	// [{1 3 2} {2 5 1} {4 7 2}]
}

func ExampleProfile() {
	// Reproduce github.com/go-dedup/simhash's published fingerprints.
	a := simhash.GoDedup.Sum64("this is a test phrase")
	b := simhash.GoDedup.Sum64("this is a test phrass")
	fmt.Printf("%x %x %d\n", a, b, simhash.Distance(a, b))
	// And the Python package simhash.
	fmt.Println(simhash.Sum64([]uint64{simhash.MD5Low64.Hash("aaa"), simhash.MD5Low64.Hash("bbb")}))
	// Output:
	// 8c3a5f7e9ecb3f35 8c3a5f7e9ecb3f21 2
	// 57087923692560392
}
