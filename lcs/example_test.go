package lcs_test

import (
	"fmt"
	"strings"

	"github.com/undust/undust/lcs"
)

// The example of the paper's §III.A, with its two anchors.
func ExampleExtractor_Code() {
	x, err := lcs.NewExtractor(&lcs.Options{Anchors: []string{"，", "。"}, MinCodeLen: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(x.Code([]string{"系统采用的特征码提取算法是基于语法获取特征的方法。这种方法将网页内容看成字符流，" +
		"以一些标点符号和常用汉字作为锚点，从网页内容中抽取文字作为网页特征码。"}))
	// Output: 系法这流以点从码
}

// A reprint with a navigation line and a comment added: the long
// paragraph is the only Independent Extraction Unit of both pages, so the
// codes are equal.
func ExampleCode() {
	article := strings.Repeat("国务院新闻办公室今天举行发布会，介绍了有关情况。", 15)
	page := lcs.Code([]string{article})
	reprint := lcs.Code([]string{"首页 > 新闻 > 国内", article, "我来说两句：好！"})
	fmt.Println(page == reprint, len([]rune(page)))
	// Output: true 60
}

func ExampleRepeatability() {
	long := "王示一差站高只事就示对题最机给害严府形象"
	short := "差站高只事就示对题最"
	fmt.Printf("%.2f %.2f\n", lcs.Repeatability(long, short), lcs.Repeatability(short, long))
	// Output: 1.00 0.50
}

func ExampleLongest() {
	fmt.Println(lcs.Longest("系法这流以点从码", "这流以点"))
	// Output: 这流以点
}

// Eliminate drops the page contained in a longer one, even though it
// arrives first, and the second of two equal pages. For a kept page the
// search stops as soon as δ is out of reach, so its Of and Score only
// describe what was found by then.
func ExampleEliminate() {
	codes := []string{
		"差站高只事就示对题最",           // contained in the next one
		"王示一差站高只事就示对题最机给害严府形象", // kept
		"在中哈服地统学责水造和海一七最座成架人",  // another page: kept
		"在中哈服地统学责水造和海一七最座成架人",  // equal to the previous: dropped
	}
	for i, r := range lcs.Eliminate(codes, 0.75) {
		fmt.Printf("%d: dup=%v of=%d S=%.2f\n", i, r.Dup, r.Of, r.Score)
	}
	// Output:
	// 0: dup=true of=1 S=1.00
	// 1: dup=false of=-1 S=0.00
	// 2: dup=false of=-1 S=0.00
	// 3: dup=true of=2 S=1.00
}

// A crawler keeps one Eliminator and asks about every page it fetches.
func ExampleEliminator() {
	var e lcs.Eliminator // δ = 0.75
	for _, page := range [][]string{
		{strings.Repeat("今天天气很好，我们去公园散步。", 30)},
		{"广告", strings.Repeat("今天天气很好，我们去公园散步。", 30), "评论：写得好"},
		{strings.Repeat("明天会下雨，大家记得带伞。", 30)},
	} {
		id, r := e.Add(lcs.Code(page))
		fmt.Printf("page %d: duplicate=%v of=%d\n", id, r.Dup, r.Of)
	}
	fmt.Println("kept:", e.Kept())
	// Output:
	// page 0: duplicate=false of=-1
	// page 1: duplicate=true of=0
	// page 2: duplicate=false of=-1
	// kept: 2
}
