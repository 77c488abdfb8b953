package deeptoken

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var words = strings.Fields(`apple baker blues boat bread cake castle comet cookie dragon drum falcon
	farmer harbor hotel jacket king kitchen lesson mango moon music necklace nurse onion party
	piano prince python queen river rocket salad salmon shadow station sugar tiger update valley
	village waffle wheel white window yoga zebra`)

func word(r *rand.Rand) string { return words[r.IntN(len(words))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func randID(r *rand.Rand, n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	base62  = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	upper36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

// slug returns 1 to 4 words joined by sep, each capitalized if capital.
func slug(r *rand.Rand, sep string, capital bool) string {
	ws := make([]string, 1+r.IntN(4))
	for i := range ws {
		ws[i] = word(r)
		if capital {
			ws[i] = title(ws[i])
		}
	}
	return strings.Join(ws, sep)
}

// hostURLs generates n URLs of a host with gen.
func hostURLs(n int, seed uint64, gen func(r *rand.Rand) string) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]string, n)
	for i := range out {
		out[i] = gen(r)
	}
	return out
}

func ebayURL(r *rand.Rand) string {
	head := slug(r, "-", true)
	if r.IntN(2) == 0 {
		head += fmt.Sprintf("_UPC_%012d", r.Int64N(1e12))
	}
	switch r.IntN(4) {
	case 0:
		w := slug(r, "-", false)
		return fmt.Sprintf("http://cgi.example.com/%s_W0QQ_nkwZ%sQQ_pgnZ%d", w, w, 1+r.IntN(5))
	case 1:
		return fmt.Sprintf("http://cgi.example.com/itm/%s/%d", slug(r, "-", false), r.Int64N(1e12))
	}
	fcls := r.IntN(2)
	u := fmt.Sprintf("http://cgi.example.com/%s_W0QQ_fclsZ%dQQ_pcatidZ%dQQ_pidZ%dQQ_tabZ%d",
		head, fcls, 1+r.IntN(60), 36700000+r.IntN(100000), 1+fcls)
	if r.IntN(3) == 0 {
		u += fmt.Sprintf("QQ_trksidZp%d.c0.m%d", 5000+r.IntN(500), r.IntN(900))
	}
	return u
}

func TestPaperExamples(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	tests := []struct {
		name string
		gen  func(r *rand.Rand) string
		url  string
		pos  int16
		want []string
	}{{
		// CIKM'09 §3.1: the leaf pattern cat-*-sku-*-item-*.html.
		"cat-sku",
		func(r *rand.Rand) string {
			if r.IntN(4) == 0 {
				return fmt.Sprintf("http://shop.example.com/cat-%d-sort-%s.html", r.IntN(9e6), word(r))
			}
			return fmt.Sprintf("http://shop.example.com/cat-%d-sku-%s-item-%s.html", r.IntN(9e6),
				randID(r, 10, upper36), slug(r, "_", false))
		},
		"http://shop.example.com/cat-1205234-sku-B00006HW5W-item-ibm_128mb_thinkpad.html", 1,
		[]string{"cat", "-", "1205234", "-", "sku", "-", "B00006HW5W", "-", "item", "-", "ibm_128mb_thinkpad", ".", "html"},
	}, {
		// WSDM'10 §2: the "[" "]" delimiters of simtel.net ("SiteID" is two units, see the package doc).
		"simtel",
		func(r *rand.Rand) string {
			if r.IntN(5) == 0 {
				return fmt.Sprintf("http://www.example.net/accelerate.php?id=%d", r.IntN(1e6))
			}
			site := []string{"softwareoasis", "planetutorial", "jacketlamp"}[r.IntN(3)]
			return fmt.Sprintf("http://www.example.net/accelerate.php[id]%d[SiteID]%s", r.IntN(1e6), site)
		},
		"http://www.example.net/accelerate.php[id]100019[SiteID]softwareoasis", 1,
		[]string{"accelerate", ".", "php", "[", "id", "]", "100019", "[", "Site", "ID", "]", "softwareoasis"},
	}, {
		// WSDM'10 §2.1: the random suffix of friends-lttU7d6kIuGq is one deep token.
		"friends",
		func(r *rand.Rand) string {
			user := word(r) + fmt.Sprint(r.IntN(10000))
			switch r.IntN(5) {
			case 0:
				return "http://360.example.com/" + user + "/friends"
			case 1:
				return "http://360.example.com/p/" + randID(r, 6, base62)
			}
			kind := []string{"friends", "album", "profile"}[r.IntN(3)]
			return "http://360.example.com/" + user + "/" + kind + "-" + randID(r, 12, base62)
		},
		"http://360.example.com/ann/friends-lttU7d6kIuGq", 2,
		[]string{"friends", "-", "lttU7d6kIuGq"},
	}, {
		// IMDb title ids: "tt" then the number.
		"imdb",
		func(r *rand.Rand) string {
			sub := []string{"", "trivia", "awards", "photogallery", "mediaindex", "/"}[r.IntN(6)]
			return fmt.Sprintf("http://www.example.org/title/tt%07d/%s", r.IntN(3e6), sub)
		},
		"http://www.example.org/title/tt0810900/photogallery", 2,
		[]string{"tt", "0810900"},
	}, {
		// CIKM'09 §1: eBay's QQ and Z delimiters.
		"ebay", ebayURL,
		"http://cgi.example.com/The-Grudge_UPC_043396062603_W0QQ_fclsZ1QQ_pcatidZ1QQ_pidZ36743973QQ_tabZ2", 1,
		[]string{"The-Grudge", "_", "UPC", "_", "043396062603", "_", "W", "0", "QQ", "_", "fcls", "Z", "1", "QQ", "_",
			"pcatid", "Z", "1", "QQ", "_", "pid", "Z", "36743973", "QQ", "_", "tab", "Z", "2"},
	}}
	for _, tt := range tests {
		urls := hostURLs(n, 7, tt.gen)
		p := Learn(slices.Values(urls), Options{})
		got := deep(t, p, tt.url, tt.pos)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: AppendSplit(%q) mismatch (-want +got):\n%s\npatterns:\n%s", tt.name, tt.url, diff, p)
		}
		for _, u := range urls[:200] {
			checkLossless(t, p, u)
		}
	}
}

// TestNoStructure checks that hosts whose tokens are natural words, slugs or random ids get no
// pattern at all.
func TestNoStructure(t *testing.T) {
	tests := []struct {
		name string
		gen  func(r *rand.Rand) string
	}{
		{"slugs", func(r *rand.Rand) string { // blog slugs of varying words
			return fmt.Sprintf("http://blog.example.com/%s/%s", word(r), slug(r, "-", false))
		}},
		{"wiki", func(r *rand.Rand) string { // wiki titles with capitals and underscores
			return "http://en.example.org/wiki/" + slug(r, "_", r.IntN(2) == 0)
		}},
		{"search", func(r *rand.Rand) string { // query values of free text
			return "http://search.example.com/find?q=" + slug(r, "+", false) + "&page=" + fmt.Sprint(1+r.IntN(9))
		}},
		{"shortlinks", func(r *rand.Rand) string { // random base-62 ids
			return "http://sho.rt/" + randID(r, 7, base62)
		}},
		{"camel", func(r *rand.Rand) string { // CamelCase words
			return "http://www.example.com/" + slug(r, "", true)
		}},
	}
	for _, tt := range tests {
		p := Learn(slices.Values(hostURLs(2000, 3, tt.gen)), Options{})
		if p.Len() != 0 {
			t.Errorf("%s: learned patterns from unstructured tokens:\n%s", tt.name, p)
		}
	}
}
