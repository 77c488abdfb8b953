package learn

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestDebugMiss(t *testing.T) {
	path := os.Getenv("DBG_FILE")
	if path == "" {
		t.Skip()
	}
	f, _ := os.Open(path)
	cls, _, _ := ReadClusters(f, ReaderOptions{})
	train, test := Split(cls, 1)
	m, _, _ := Learn(train, Options{MinPrecision: -1, MinCoverage: 1})
	sel := m.Select(0.95, 3, false)
	cp := newCorpus(test)
	keys := make([]string, len(cp.raw))
	for i := range cp.raw {
		keys[i] = sel.normalizeParsed(cp.prep[i], &cp.p[i])
	}
	// per cluster: distinct keys beyond 1 = missed reduction; classify by derive class of key pair
	byC := map[int32][]int{}
	for i, c := range cp.cluster {
		byC[c] = append(byC[c], i)
	}
	cnt := map[string]int{}
	ex := map[string][2]string{}
	for _, idx := range byC {
		seen := map[string]int{}
		for _, i := range idx {
			if _, ok := seen[keys[i]]; !ok {
				seen[keys[i]] = i
			}
		}
		if len(seen) < 2 {
			continue
		}
		var ks []string
		for k := range seen {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		a, _, _ := parse(ks[0], nil)
		for _, k := range ks[1:] {
			b, _, _ := parse(k, nil)
			tr := derive(&b, &a)
			c := tr.String()
			// coarse class: which parts differ
			cls := ""
			if tr.Scheme != nil {
				cls += "scheme "
			}
			if tr.Host != nil {
				cls += "host "
			}
			if tr.PathCase != 0 {
				cls += "case "
			}
			if tr.Del != 0 || len(tr.Ins) != 0 {
				cls += "path "
			}
			if len(tr.Query) != 0 {
				cls += "query "
			}
			cnt[cls]++
			if _, ok := ex[cls]; !ok || len(c) < 0 {
				ex[cls] = [2]string{cp.raw[seen[k]], cp.raw[seen[ks[0]]]}
			}
		}
	}
	for k, v := range cnt {
		fmt.Println(v, k, ex[k])
	}
}
