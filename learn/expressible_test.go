package learn

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/undust/undust/urlnorm"
)

// bracketSite is a hand-made site whose pages are linked in two forms: a static one that packs
// the parameters into one path segment, item.php[id]N[ref]S, and the query form
// item.php?id=N. The static form ranks first structurally (no query), but only the query form
// is a target the other forms reach through references (the id, a deep token of the packed
// segment) and frequent literals.
func bracketSite() []Cluster {
	refs := []string{"alpha", "beta", "gamma"}
	var groups [][]string
	for i := range 24 {
		id := fmt.Sprint(104729 + 7919*i)
		groups = append(groups, []string{
			"http://shop.example/item.php[id]" + id + "[ref]" + refs[i%3],
			"http://shop.example/item.php?id=" + id,
		})
	}
	return clustersOf(groups...)
}

// TestExpressibleTarget checks target selection by expressibility and the rules it leads to:
// an unseen page in the packed form is rewritten to its query form, and two unseen pages stay
// apart.
func TestExpressibleTarget(t *testing.T) {
	set, st, err := Learn(bracketSite(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		// the id moves from the packed segment into the query; the ref is dropped
		{"http://shop.example/item.php[id]555001[ref]beta", "http://shop.example/item.php?id=555001"},
		{"http://shop.example/item.php[id]555002[ref]gamma", "http://shop.example/item.php?id=555002"},
		// the query form is the target: unchanged
		{"http://shop.example/item.php?id=555001", "http://shop.example/item.php?id=555001"},
	}
	for _, tt := range tests {
		got, err := set.Normalize(tt.in)
		if err != nil || got != tt.want {
			var b strings.Builder
			set.WriteTo(&b)
			t.Errorf("Normalize(%q) = %q, %v; want %q\nstats %+v\n%s", tt.in, got, err, tt.want, st, b.String())
		}
	}
}

// TestExpressibleFirst checks the choice of target within one cluster, given the site's value
// counts.
func TestExpressibleFirst(t *testing.T) {
	cls := bracketSite()
	byCluster := make([][]*member, len(cls))
	for ci, c := range cls {
		for _, u := range c.URLs {
			prep, _ := Prepare(u.Raw)
			byCluster[ci] = append(byCluster[ci], &member{prep: prep, p: mustParse(t, u.Raw), cluster: int32(ci)})
		}
	}
	var all []*member
	for _, ms := range byCluster {
		all = append(all, ms...)
	}
	patterns := learnPatterns(all)
	for _, m := range all {
		if pt := patterns[m.p.host]; pt != nil {
			m.p.splitDeep(pt, m.prep)
		}
	}
	common := valueClusters(byCluster)
	// the members of the cases below, split as the site's members are
	split := func(u string) *member {
		prep, _ := Prepare(u)
		m := &member{prep: prep, p: mustParse(t, u)}
		if pt := patterns[m.p.host]; pt != nil {
			m.p.splitDeep(pt, m.prep)
		}
		return m
	}
	tests := []struct {
		name string
		urls []string // in targetRank order
		want string
	}{
		// the packed segment is a value of one cluster: writing it needs a rare literal, while
		// the query form needs the frequent "item.php" and references only
		{"packed", []string{"http://shop.example/item.php[id]104729[ref]alpha", "http://shop.example/item.php?id=104729"},
			"http://shop.example/item.php?id=104729"},
		// every URL is reached from some other only through a rare literal (the title, the
		// id that no deep token isolates): the rank stands
		{"none expressible", []string{"http://shop.example/2004/03/104729-a-rare-title.html",
			"http://shop.example/story.php?id=104729", "http://shop.example/story.php?id=104729&src=feed"},
			"http://shop.example/2004/03/104729-a-rare-title.html"},
		// the first URL needs no rare literal: the rank stands
		{"rank stands", []string{"http://shop.example/item.php?id=104729", "http://shop.example/item.php?id=104729&ref=alpha"},
			"http://shop.example/item.php?id=104729"},
	}
	for _, tt := range tests {
		var ms []*member
		for _, u := range tt.urls {
			ms = append(ms, split(u))
		}
		if !slices.IsSortedFunc(ms, targetRank) {
			t.Fatalf("%s: urls not in targetRank order", tt.name)
		}
		want, _ := Prepare(tt.want)
		expressibleFirst(ms, common)
		if ms[0].prep != want {
			t.Errorf("%s: target %q, want %q", tt.name, ms[0].prep, want)
		}
		if len(ms) != len(tt.urls) {
			t.Errorf("%s: %d members after, want %d", tt.name, len(ms), len(tt.urls))
		}
	}
}

// TestOverwritesWildcardMoved checks that a rule overwriting an unfixed segment is dropped
// when the segment's content is lost, and kept when the edit copies a deep token of the
// segment elsewhere (its content moves).
func TestOverwritesWildcardMoved(t *testing.T) {
	seg := urlnorm.Key{Part: urlnorm.PartPath, Pos: 1}
	ctx := []cond{{Key: seg, Kind: condAny}}
	deepRef := vop{Kind: opRef, Ref: urlnorm.Key{Part: urlnorm.PartPath, Pos: 1, Sub: 4}}
	otherRef := vop{Kind: opRef, Ref: urlnorm.Key{Part: urlnorm.PartPath, Pos: 2, Sub: 1}}
	tests := []struct {
		name string
		e    edit
		want bool
	}{
		{"lost", edit{Del: 1, Ins: []vop{{Kind: opLiteral, Lit: "wall"}}}, true},
		{"moved to the query", edit{Del: 1, Ins: []vop{{Kind: opLiteral, Lit: "item.php"}},
			Query: []queryOp{{Name: "id", vop: deepRef}}}, false},
		{"moved into the path", edit{Del: 1, Ins: []vop{{Kind: opLiteral, Lit: "item"}, deepRef}}, false},
		{"another segment's token", edit{Del: 1, Ins: []vop{{Kind: opLiteral, Lit: "item.php"}},
			Query: []queryOp{{Name: "id", vop: otherRef}}}, true},
	}
	for _, tt := range tests {
		r := lrule{Context: ctx, edit: tt.e}
		if got := overwritesWildcard(&r); got != tt.want {
			t.Errorf("%s: overwritesWildcard(%s) = %v, want %v", tt.name, tt.e.String(), got, tt.want)
		}
	}
}
