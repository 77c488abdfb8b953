package rules
import ("testing"; "time")
func TestDbg(t *testing.T) {
	s := loadLearned(t)
	ls := loadDev(t, 0)
	var v view
	loads, matches, applies, nexts := 0, 0, 0, 0
	var tLoad, tMatch, tApply, tKey time.Duration
	sc := &scratch{}
	for _, l := range ls {
		t0 := time.Now()
		k, _ := s.keyer.Key(l.URL)
		tKey += time.Since(t0)
		cur := k
		for n := 0; n < 9; n++ {
			t0 = time.Now()
			v.load(cur, s); loads++
			tLoad += time.Since(t0); t0 = time.Now()
			i := s.match(&v); matches++
			tMatch += time.Since(t0)
			if i < 0 { break }
			sc.v = v
			t0 = time.Now()
			next, _ := s.apply(sc, i, cur); applies++
			tApply += time.Since(t0)
			if next == cur { nexts++; break }
			cur = next
		}
	}
	n := time.Duration(len(ls))
	t.Logf("per URL: loads %.2f matches %.2f applies %.2f unchangedbest %d; key %v load %v match %v apply %v", float64(loads)/float64(len(ls)), float64(matches)/float64(len(ls)), float64(applies)/float64(len(ls)), nexts, tKey/n, tLoad/n, tMatch/n, tApply/n)
}
