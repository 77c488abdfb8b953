package align

import (
	"container/heap"
	"slices"

	"github.com/undust/undust/urlnorm"
)

// Scores of the pairwise alignment (a Needleman-Wunsch global alignment over tokens).
const (
	scoreEqual   = 2  // two columns that share a value: a fixed token
	scoreSameKey = 1  // two query parameters of one name with different values
	scoreMutable = 0  // two path segments (or hosts, schemes, ports) with different values
	scoreGap     = -1 // a token aligned with nothing: an optional token
	scoreNever   = -1 << 30
)

// A column is one position of a multiple alignment: a token part (and, for query parameters, a
// name) and, for every row (aligned URL), the index of that row's token in the column, or -1 for
// a gap.
type column struct {
	part  urlnorm.Part
	name  string  // query parameter name
	cells []int32 // per row: token index, -1 = gap
}

// A profile is a multiple alignment of some URLs: rows are indexes into the sequences being
// aligned, columns hold their tokens. A single URL is a profile of one row.
type profile struct {
	rows []int
	cols []column
	vals [][]string // per column: its distinct values, sorted (for scoring)
}

// seqs holds the token sequences of the URLs being aligned.
type seqs [][]urlnorm.Token

func (s seqs) single(i int) *profile {
	p := &profile{rows: []int{i}}
	for j, t := range s[i] {
		p.cols = append(p.cols, column{part: t.Part, name: t.Name, cells: []int32{int32(j)}})
	}
	p.index(s)
	return p
}

// index recomputes the distinct values of every column.
func (p *profile) index(s seqs) {
	p.vals = make([][]string, len(p.cols))
	for c := range p.cols {
		var vs []string
		for r, ti := range p.cols[c].cells {
			if ti >= 0 {
				vs = append(vs, tokenText(s[p.rows[r]][ti]))
			}
		}
		slices.Sort(vs)
		p.vals[c] = slices.Compact(vs)
	}
}

// tokenText is the value a column compares: a query parameter's value (with a mark for a bare
// parameter), any other token's value.
func tokenText(t urlnorm.Token) string {
	if t.Bare {
		return "\x00bare"
	}
	return t.Value
}

// colScore is the score of aligning column i of a with column j of b. It is symmetric.
func colScore(a *profile, i int, b *profile, j int) int {
	ca, cb := &a.cols[i], &b.cols[j]
	if ca.part != cb.part || ca.name != cb.name {
		return scoreNever
	}
	if intersects(a.vals[i], b.vals[j]) {
		return scoreEqual
	}
	if ca.part == urlnorm.PartQuery {
		return scoreSameKey
	}
	return scoreMutable
}

func intersects(x, y []string) bool {
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] == y[j]:
			return true
		case x[i] < y[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// Traceback moves.
const (
	moveDiag = iota
	moveUp   // column of a against a gap
	moveLeft // column of b against a gap
)

// alignScore returns the global alignment score of profiles a and b, and, if merge is set, the
// profile of their alignment. It takes O(len(a.cols) * len(b.cols)) time. Ties in the traceback
// prefer a diagonal move, then a gap in b, so the result depends only on the two profiles.
func alignScore(s seqs, a, b *profile, merge bool) (int, *profile) {
	n, m := len(a.cols), len(b.cols)
	w := m + 1
	dp := make([]int, (n+1)*w)
	mv := make([]uint8, (n+1)*w)
	for i := 1; i <= n; i++ {
		dp[i*w] = dp[(i-1)*w] + scoreGap
		mv[i*w] = moveUp
	}
	for j := 1; j <= m; j++ {
		dp[j] = dp[j-1] + scoreGap
		mv[j] = moveLeft
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			best, move := dp[(i-1)*w+j-1], uint8(moveDiag)
			if cs := colScore(a, i-1, b, j-1); cs == scoreNever {
				best = scoreNever
			} else {
				best += cs
			}
			if v := dp[(i-1)*w+j] + scoreGap; v > best {
				best, move = v, moveUp
			}
			if v := dp[i*w+j-1] + scoreGap; v > best {
				best, move = v, moveLeft
			}
			dp[i*w+j], mv[i*w+j] = best, move
		}
	}
	score := dp[n*w+m]
	if !merge {
		return score, nil
	}
	na, nb := len(a.rows), len(b.rows)
	out := &profile{rows: append(append([]int(nil), a.rows...), b.rows...)}
	gaps := func(k int) []int32 {
		g := make([]int32, k)
		for x := range g {
			g[x] = -1
		}
		return g
	}
	var rev []column
	for i, j := n, m; i > 0 || j > 0; {
		var c column
		switch mv[i*w+j] {
		case moveDiag:
			ca, cb := &a.cols[i-1], &b.cols[j-1]
			c = column{part: ca.part, name: ca.name, cells: append(append([]int32(nil), ca.cells...), cb.cells...)}
			i, j = i-1, j-1
		case moveUp:
			ca := &a.cols[i-1]
			c = column{part: ca.part, name: ca.name, cells: append(append([]int32(nil), ca.cells...), gaps(nb)...)}
			i--
		default:
			cb := &b.cols[j-1]
			c = column{part: cb.part, name: cb.name, cells: append(gaps(na), cb.cells...)}
			j--
		}
		rev = append(rev, c)
	}
	slices.Reverse(rev)
	out.cols = rev
	out.index(s)
	return score, out
}

// A pairItem is an entry of the priority queue of the multiple alignment: the alignment score
// of two profiles, by their ids.
type pairItem struct {
	score int
	x, y  int // profile ids, x < y
}

type pairQueue []pairItem

func (q pairQueue) Len() int { return len(q) }
func (q pairQueue) Less(i, j int) bool {
	if q[i].score != q[j].score {
		return q[i].score > q[j].score
	}
	if q[i].x != q[j].x {
		return q[i].x < q[j].x
	}
	return q[i].y < q[j].y
}
func (q pairQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pairQueue) Push(x any)   { *q = append(*q, x.(pairItem)) }
func (q *pairQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// multiAlign aligns the sequences s into one profile, by the progressive algorithm of the
// Duplicate Remover paper (§3.2, after Rodrigues et al.): the alignment scores of all pairs go
// into a priority queue; the best pair of profiles not yet aligned is merged into a consensus,
// which is then scored against every remaining profile, until one profile is left. For k
// sequences it computes O(k^2) pairwise alignments. It returns nil for no sequence.
func multiAlign(s seqs) *profile {
	if len(s) == 0 {
		return nil
	}
	profs := make([]*profile, len(s))
	for i := range s {
		profs[i] = s.single(i)
	}
	alive := make([]bool, len(s))
	for i := range alive {
		alive[i] = true
	}
	var q pairQueue
	for i := range profs {
		for j := i + 1; j < len(profs); j++ {
			sc, _ := alignScore(s, profs[i], profs[j], false)
			q = append(q, pairItem{sc, i, j})
		}
	}
	heap.Init(&q)
	live := len(profs)
	for q.Len() > 0 && live > 1 {
		it := heap.Pop(&q).(pairItem)
		if !alive[it.x] || !alive[it.y] {
			continue
		}
		_, cons := alignScore(s, profs[it.x], profs[it.y], true)
		alive[it.x], alive[it.y] = false, false
		id := len(profs)
		profs = append(profs, cons)
		alive = append(alive, true)
		live--
		for o := range id {
			if alive[o] {
				sc, _ := alignScore(s, profs[o], cons, false)
				heap.Push(&q, pairItem{sc, o, id})
			}
		}
	}
	for i := len(profs) - 1; i >= 0; i-- {
		if alive[i] {
			return profs[i]
		}
	}
	return nil
}
