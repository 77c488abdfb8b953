package shingle_test

import (
	"fmt"

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
