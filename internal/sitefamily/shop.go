package sitefamily

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// buildShop builds an online shop with faceted category listings, in a generic, an
// Amazon-like or a Shopify-like URL scheme. Duplicates: product pages under a slug or none,
// under a category path, with a ref= path segment, with the variant or color preselected (the
// same page), with tracking; listings with the default sort, page=1, grid or list view, and
// color filters that keep every item. Traps: the same color parameter filters a listing (another
// page) when the category has items of several colors; sort orders (three values) and pages.
// Noise: "no products match" pages of empty filters across categories, and "no longer
// available" pages of discontinued products.
func buildShop(s *site) {
	o := s.origin()
	dialect := s.r.IntN(3)
	colorKey := pick(s.r, []string{"color", "colour", "c"})
	sortKey, sorts := "sort", []string{"price_asc", "price_desc", "newest"}
	if dialect == 2 {
		colorKey, sortKey, sorts = "filter.v.option.color", "sort_by", []string{"price-ascending", "price-descending", "created-descending"}
	}
	defaultSort := pick(s.r, []string{"relevance", "featured", "best-selling"})
	colors := []string{"black", "white", "red", "blue", "green", "grey"}
	perPage := pick(s.r, []int{24, 36, 48})
	var empty, gone *cluster
	ncat := max(2, s.pages/40)
	made := 0
	for ci := 0; ci < ncat || made < s.pages; ci++ {
		cat := s.fresh(func() string { return s.slug(1+s.r.IntN(2), "-") })
		var catURL string
		switch dialect {
		case 0:
			catURL = o + "/c/" + cat
		case 1:
			catURL = fmt.Sprintf("%s/b/%s?node=%d", o, cat, 1000000+s.r.IntN(9000000))
		default:
			catURL = o + "/collections/" + cat
		}
		// The category's colors: one for some categories, so a filter on it changes nothing.
		catColors := colors[:1+s.r.IntN(len(colors))]
		if s.chance(0.25) {
			catColors = []string{pick(s.r, colors)}
		}
		nprod := 5 + s.r.IntN(60)
		npages := (nprod + perPage - 1) / perPage
		listing := func(params string) string {
			if params == "" {
				return catURL
			}
			return withParam(catURL, params)
		}
		// Listing pages by sort and page.
		for _, sort := range append([]string{""}, sorts...) {
			if sort != "" && !s.chance(0.5) {
				continue
			}
			var prev string
			for pg := 1; pg <= npages; pg++ {
				var q []string
				if sort != "" {
					q = append(q, sortKey+"="+sort)
				}
				if pg > 1 {
					q = append(q, "page="+strconv.Itoa(pg))
				}
				u := listing(strings.Join(q, "&"))
				c := s.page(2)
				s.main(c, u)
				made++
				if sort == "" && s.chance(0.3) {
					s.add(c, withParam(u, sortKey+"="+defaultSort), wAlias)
				}
				if pg == 1 && s.chance(0.3) {
					s.add(c, withParam(u, "page=1"), wAlias)
				}
				if s.chance(0.3) {
					s.add(c, withParam(u, "view="+pick(s.r, []string{"grid", "list"})), wAlias)
				}
				if prev != "" {
					s.trap("page-is-content", prev, u, Rewrite{Op: DropParam, Arg: "page"})
				}
				if sort != "" && pg == 1 {
					s.trap("sort-is-content", catURL, u, Rewrite{Op: DropParam, Arg: sortKey})
				}
				prev = u
			}
		}
		// Color filters: the first page only.
		for _, col := range colors {
			if !s.chance(0.35) {
				continue
			}
			u := listing(colorKey + "=" + col)
			switch {
			case !slices.Contains(catColors, col):
				if empty == nil || len(empty.urls) > 20 {
					empty = s.noisePage()
				}
				s.addNoise(empty, u)
			case len(catColors) == 1:
				s.add(s.byURL[catURL], u, wAlias) // every item has this color: the same page
			default:
				c := s.page(0.7)
				s.main(c, u)
				made++
				s.trap("filter-is-content", catURL, u, Rewrite{Op: DropParam, Arg: colorKey})
			}
		}
		// Products.
		for range nprod {
			if made >= s.pages && ci >= ncat {
				break
			}
			title := s.title(2+s.r.IntN(4), "-")
			slug := strings.ToLower(title)
			var id, u string
			var aliases []string
			switch dialect {
			case 0:
				id = s.fresh(func() string { return strconv.Itoa(10000 + s.r.IntN(9990000)) })
				u = o + "/p/" + id + "/" + slug
				aliases = []string{o + "/p/" + id, o + "/p/" + id + "/" + s.slug(1, "-")}
			case 1:
				id = s.fresh(func() string { return "B0" + s.rnd(8, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") })
				u = o + "/" + title + "/dp/" + id
				aliases = []string{o + "/dp/" + id, o + "/gp/product/" + id, u + "/ref=sr_1_" + strconv.Itoa(1+s.r.IntN(48))}
			default:
				id = s.fresh(func() string { return strings.ToLower(s.title(2+s.r.IntN(4), "-")) })
				u = o + "/products/" + id
				aliases = []string{o + "/collections/" + cat + "/products/" + id}
			}
			if s.chance(0.03) {
				// A discontinued product: "no longer available", one page for all of them.
				if gone == nil || len(gone.urls) > 15 {
					gone = s.noisePage()
				}
				s.addNoise(gone, u)
				continue
			}
			c := s.page(1)
			s.main(c, u)
			made++
			for _, a := range aliases {
				if s.chance(0.3) {
					s.add(c, a, wAlias)
				}
			}
			// The color (or variant) preselected: the same product page.
			for _, col := range catColors {
				if s.chance(0.15) {
					if dialect == 2 {
						s.add(c, withParam(u, "variant="+strconv.Itoa(30000000+s.r.IntN(9999999))), wAlias)
					} else {
						s.add(c, withParam(u, colorKey+"="+col), wAlias)
					}
				}
			}
			for range s.repeats(c, 0.3) {
				s.add(c, withParam(u, pick(s.r, []string{"ref=", "gclid=", "src="})+s.rnd(8, lowerNum)), wOnce)
			}
		}
	}
}
