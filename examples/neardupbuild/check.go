package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// mainRecord is one line of main_text.jsonl.
type mainRecord struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Main  string `json:"main"`
}

// readMainText reads main_text.jsonl.gz (or main_text.jsonl) of a corpus.
func readMainText(dir string) ([]mainRecord, error) {
	var r io.Reader
	p := filepath.Join(dir, "main_text.jsonl.gz")
	f, err := os.Open(p)
	if err != nil {
		p = filepath.Join(dir, "main_text.jsonl")
		if f, err = os.Open(p); err != nil {
			return nil, fmt.Errorf("neardupbuild: %v", err)
		}
		r = f
	} else {
		z, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("neardupbuild: %s: %v", p, err)
		}
		r = z
	}
	defer f.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var out []mainRecord
	for line := 1; sc.Scan(); line++ {
		var m mainRecord
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, fmt.Errorf("neardupbuild: %s:%d: %v", p, line, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("neardupbuild: %s: %v", p, err)
	}
	return out, nil
}

// truthRow is the similarity part of a truth_pairs.tsv line.
type truthRow struct{ j, ca, cb string }

// readTruth reads truth_pairs.tsv into a map from "id_a\tid_b".
func readTruth(path string) (map[string]truthRow, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("neardupbuild: %v", err)
	}
	out := map[string]truthRow{}
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 5 {
			return nil, fmt.Errorf("neardupbuild: %s:%d: want 6 columns, got %d", path, i+1, len(f))
		}
		out[f[0]+"\t"+f[1]] = truthRow{f[2], f[3], f[4]}
	}
	return out, nil
}

// checkReport is how far recomputed truth agrees with a corpus's truth_pairs.tsv.
type checkReport struct {
	Listed, Computed, Both, SameValues int
	Missing, Extra                     []string // a few examples
}

// checkTruth recomputes the truth pairs of the corpus in dir from its
// main_text.jsonl(.gz) and compares them with its truth_pairs.tsv.
func checkTruth(dir string) (checkReport, error) {
	recs, err := readMainText(dir)
	if err != nil {
		return checkReport{}, err
	}
	want, err := readTruth(filepath.Join(dir, "truth_pairs.tsv"))
	if err != nil {
		return checkReport{}, err
	}
	docs := make([]textSets, len(recs))
	parallelFor(len(recs), func(i int) { docs[i] = newTextSets(recs[i].Main) })
	got := truthPairs(docs)
	rep := checkReport{Listed: len(want), Computed: len(got)}
	have := map[string]bool{}
	for _, p := range got {
		a, b := recs[p.A].ID, recs[p.B].ID
		if a > b {
			a, b = b, a
		}
		k := a + "\t" + b
		have[k] = true
		w, ok := want[k]
		if !ok {
			if len(rep.Extra) < 5 {
				rep.Extra = append(rep.Extra, k)
			}
			continue
		}
		rep.Both++
		j, ca, cb := round4(p.J), round4(p.CA), round4(p.CB)
		if recs[p.A].ID > recs[p.B].ID {
			ca, cb = cb, ca
		}
		if w == (truthRow{j, ca, cb}) {
			rep.SameValues++
		}
	}
	for k := range want {
		if !have[k] && len(rep.Missing) < 5 {
			rep.Missing = append(rep.Missing, k)
		}
	}
	return rep, nil
}
