package rules

import "slices"

// NormalizeTrace is Normalize that also reports which rules rewrote the URL: it appends to dst
// the index (in precedence order, see Rule) of each rule that applied, in the order they
// applied, and returns the extended slice with Normalize's result and error. A URL that no rule
// changes appends nothing. A crawler that verifies rules at crawl time uses the indexes to tell
// which rules a duplicate verdict rests on.
func (s *Set) NormalizeTrace(dst []int, u string) (string, []int, error) {
	if s.keyer != nil {
		k, err := s.keyer.Key(u)
		if err != nil {
			return u, dst, &Error{Op: "key", Input: u, Err: err}
		}
		u = k
	}
	if len(s.rules) == 0 {
		return u, dst, nil
	}
	sc := s.getScratch()
	defer s.putScratch(sc)
	cur := u
	for n := 0; ; n++ {
		if err := sc.v.load(cur, s); err != nil {
			return cur, dst, &Error{Op: "normalize", Input: cur, Err: err}
		}
		i := s.match(&sc.v)
		if i < 0 {
			return cur, dst, nil
		}
		next, err := s.apply(sc, i, cur)
		if err != nil {
			return cur, dst, err
		}
		for next == cur {
			// As in Normalize: the next matching rule that changes the URL applies, if any.
			if i = s.matchFrom(&sc.v, int32(i+1)); i < 0 {
				return cur, dst, nil
			}
			if next, err = s.apply(sc, i, cur); err != nil {
				return cur, dst, err
			}
		}
		if n == s.maxRw {
			return cur, dst, &Error{Op: "normalize", Input: u, Err: ErrRewriteLimit}
		}
		dst = append(dst, i)
		sc.chain = append(sc.chain, cur)
		if slices.Contains(sc.chain, next) {
			return next, dst, &Error{Op: "normalize", Input: u, Err: ErrCycle}
		}
		cur = next
	}
}
