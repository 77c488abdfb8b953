package main

import (
	"bufio"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/undust/undust/htmltext"
	"github.com/undust/undust/internal/atomicfile"
	"github.com/undust/undust/shingle"
)

// Index file format: the line "undust-neardup-index 1", a line of JSON
// metadata (indexMeta, signatures base64 of little-endian uint64s, k per
// page), then the shingle.LSH file.
const indexMagic = "undust-neardup-index 1"

// maxMetaLine bounds the metadata line (ids, URLs and signatures).
const maxMetaLine = 1 << 30

type indexMeta struct {
	K          int      `json:"k"`
	Seed       uint64   `json:"seed"`
	Threshold  float64  `json:"threshold"`
	Main       bool     `json:"main"`
	IDs        []string `json:"ids"`
	URLs       []string `json:"urls"`
	Signatures string   `json:"signatures"`
}

// nearIndex is a loaded index file.
type nearIndex struct {
	meta indexMeta
	sigs [][]uint64
	lsh  *shingle.LSH
}

const sigSeed = 1

// readInputs reads pages from a JSON-lines file (optionally .gz) or from a
// directory of .html/.htm files (id = path relative to the directory). Input
// without a page is an error in both forms (index and query exit 1): an
// empty index or an empty query is almost always a wrong path or a file cut
// short, and an index of nothing would answer every later query with nothing.
func readInputs(pagesFile, dir string) ([]Page, error) {
	switch {
	case pagesFile != "" && dir != "":
		return nil, errors.New("give -pages or -dir, not both")
	case pagesFile != "":
		f, err := os.Open(pagesFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var r io.Reader = f
		if strings.HasSuffix(pagesFile, ".gz") {
			z, err := gzip.NewReader(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", pagesFile, err)
			}
			r = z
		}
		pages, err := readPages(r, pagesFile)
		if err == nil && len(pages) == 0 {
			err = fmt.Errorf("%s: no pages", pagesFile)
		}
		return pages, err
	case dir != "":
		var pages []Page
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".htm")) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			pages = append(pages, Page{ID: filepath.ToSlash(rel), HTML: string(b)})
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(pages) == 0 {
			return nil, fmt.Errorf("%s: no pages (no .html or .htm files)", dir)
		}
		return pages, nil
	}
	return nil, errors.New("give -pages FILE or -dir DIR")
}

// pageSignatures extracts and signs every page.
func pageSignatures(pages []Page, main bool, k int) [][]uint64 {
	m := shingle.NewMinHasher(k, sigSeed)
	sigs := make([][]uint64, len(pages))
	parallel(len(pages), func(i int) {
		t, err := htmltext.Extract([]byte(pages[i].HTML), htmltext.Options{MainContent: main})
		if err != nil {
			t = htmltext.Text{}
		}
		sigs[i] = m.Signature(shingle.Hashes(t.String(), shingle.Options{}))
	})
	return sigs
}

func runIndex(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pagesFile := fs.String("pages", "", "JSON-lines `file` of pages (.gz allowed)")
	dir := fs.String("dir", "", "`directory` of .html files")
	out := fs.String("o", "", "index `file` to write")
	threshold := fs.Float64("t", 0.8, "Jaccard `threshold` of the matches the index is for (its LSH bands propose candidates from t-0.1)")
	full := fs.Bool("full", false, "index full page text instead of main content")
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "neardup index: -o is required")
		return 2
	}
	if !(*threshold > 0 && *threshold < 1) {
		fmt.Fprintf(stderr, "neardup index: -t %v: want a value in (0, 1)\n", *threshold)
		return 2
	}
	if (*pagesFile == "") == (*dir == "") {
		fmt.Fprintln(stderr, "neardup index: give exactly one of -pages and -dir")
		return 2
	}
	pages, err := readInputs(*pagesFile, *dir)
	if err != nil {
		fmt.Fprintf(stderr, "neardup index: %v\n", err)
		return 1
	}
	const k = shingle.DefaultK
	sigs := pageSignatures(pages, !*full, k)
	lsh := shingle.NewLSH(k, shingle.CandidateThreshold(*threshold))
	meta := indexMeta{K: k, Seed: sigSeed, Threshold: *threshold, Main: !*full}
	blob := make([]byte, 0, len(pages)*k*8)
	for i, p := range pages {
		meta.IDs = append(meta.IDs, p.ID)
		meta.URLs = append(meta.URLs, p.URL)
		for _, v := range sigs[i] {
			blob = binary.LittleEndian.AppendUint64(blob, v)
		}
		if err := lsh.Insert(uint64(i), sigs[i]); err != nil {
			fmt.Fprintf(stderr, "neardup index: %v\n", err)
			return 1
		}
	}
	meta.Signatures = base64.StdEncoding.EncodeToString(blob)
	if err := writeIndex(*out, meta, lsh); err != nil {
		fmt.Fprintf(stderr, "neardup index: %v\n", err)
		return 1
	}
	b, r := lsh.Bands()
	fmt.Fprintf(stdout, "indexed %d pages into %s (k=%d, %d bands x %d rows, threshold %.2f, %s text)\n",
		len(pages), *out, k, b, r, *threshold, map[bool]string{true: "main", false: "full"}[!*full])
	return 0
}

// writeIndex writes the index to the file name (package atomicfile: a failed or interrupted
// write leaves no cut index behind, nor destroys an earlier one).
func writeIndex(name string, meta indexMeta, lsh *shingle.LSH) error {
	return atomicfile.Write(name, func(w io.Writer) error {
		fmt.Fprintln(w, indexMagic)
		j, err := json.Marshal(meta)
		if err != nil {
			return err
		}
		w.Write(j)
		io.WriteString(w, "\n")
		_, err = lsh.WriteTo(w)
		return err
	})
}

func readIndex(name string) (*nearIndex, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := r.ReadString('\n')
	if err != nil || strings.TrimSuffix(line, "\n") != indexMagic {
		return nil, fmt.Errorf("%s: not a neardup index (want first line %q)", name, indexMagic)
	}
	var metaLine []byte
	for {
		chunk, err := r.ReadSlice('\n')
		metaLine = append(metaLine, chunk...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull || len(metaLine) > maxMetaLine {
			return nil, fmt.Errorf("%s: bad metadata line", name)
		}
	}
	var ix nearIndex
	if err := json.Unmarshal(metaLine, &ix.meta); err != nil {
		return nil, fmt.Errorf("%s: metadata: %v", name, err)
	}
	m := ix.meta
	blob, err := base64.StdEncoding.DecodeString(m.Signatures)
	if err != nil {
		return nil, fmt.Errorf("%s: signatures: %v", name, err)
	}
	if m.K < 1 || m.K > 1<<16 || len(m.URLs) != len(m.IDs) || len(blob) != len(m.IDs)*m.K*8 {
		return nil, fmt.Errorf("%s: inconsistent metadata (k %d, %d ids, %d urls, %d signature bytes)", name, m.K, len(m.IDs), len(m.URLs), len(blob))
	}
	for i := range m.IDs {
		sig := make([]uint64, m.K)
		for j := range sig {
			sig[j] = binary.LittleEndian.Uint64(blob[(i*m.K+j)*8:])
		}
		ix.sigs = append(ix.sigs, sig)
	}
	ix.meta.Signatures = ""
	if ix.lsh, err = shingle.ReadLSH(r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if ix.lsh.Len() != len(m.IDs) || ix.lsh.K() != m.K {
		return nil, fmt.Errorf("%s: LSH holds %d pages of k=%d, metadata %d of k=%d", name, ix.lsh.Len(), ix.lsh.K(), len(m.IDs), m.K)
	}
	return &ix, nil
}

func runQuery(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	index := fs.String("index", "", "index `file` written by neardup index")
	pagesFile := fs.String("pages", "", "JSON-lines `file` of query pages (.gz allowed)")
	dir := fs.String("dir", "", "`directory` of query .html files")
	threshold := fs.Float64("t", 0, "report matches with estimated Jaccard >= `t` (default: the index's threshold)")
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *index == "" {
		fmt.Fprintln(stderr, "neardup query: -index is required")
		return 2
	}
	if (*pagesFile == "") == (*dir == "") {
		fmt.Fprintln(stderr, "neardup query: give exactly one of -pages and -dir")
		return 2
	}
	if *threshold < 0 || *threshold > 1 {
		fmt.Fprintf(stderr, "neardup query: -t %v: want a value in [0, 1]\n", *threshold)
		return 2
	}
	ix, err := readIndex(*index)
	if err != nil {
		fmt.Fprintf(stderr, "neardup query: %v\n", err)
		return 1
	}
	t := *threshold
	if t == 0 {
		t = ix.meta.Threshold
	}
	pages, err := readInputs(*pagesFile, *dir)
	if err != nil {
		fmt.Fprintf(stderr, "neardup query: %v\n", err)
		return 1
	}
	sigs := pageSignatures(pages, ix.meta.Main, ix.meta.K)
	w := bufio.NewWriter(stdout)
	fmt.Fprintln(w, "query\tmatch\tmatch_url\testimate")
	var cands []uint64
	for i, p := range pages {
		cands, _ = ix.lsh.AppendQuery(cands[:0], sigs[i])
		slices.Sort(cands)
		for _, c := range cands {
			if e := shingle.Estimate(sigs[i], ix.sigs[c]); e >= t {
				fmt.Fprintf(w, "%s\t%s\t%s\t%.3f\n", p.ID, ix.meta.IDs[c], ix.meta.URLs[c], e)
			}
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "neardup query: %v\n", err)
		return 1
	}
	return 0
}
