package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// write writes the corpus files into dir, creating it.
func (c *corpus) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("neardupbuild: %v", err)
	}
	files := map[string][]byte{}
	var pages, mains bytes.Buffer
	for i := range c.pages {
		p := &c.pages[i]
		if err := jsonLine(&pages, map[string]string{"id": p.ID, "url": p.URL, "lang": p.Lang, "html": string(p.HTML)}, []string{"id", "url", "lang", "html"}); err != nil {
			return err
		}
		if err := jsonLine(&mains, map[string]string{"id": p.ID, "title": p.Title, "main": p.Main}, []string{"id", "title", "main"}); err != nil {
			return err
		}
	}
	files["pages.jsonl.gz"] = gz(pages.Bytes())
	files["main_text.jsonl.gz"] = gz(mains.Bytes())

	var meta bytes.Buffer
	meta.WriteString("id\turl\tlang\torigin\tdocset\tpackage\tparent_id\ttemplate_docset\ttrap_group\tmain_tokens\tfull_tokens\tnote\n")
	for i := range c.pages {
		p := &c.pages[i]
		parent := ""
		if p.Parent >= 0 {
			parent = c.pages[p.Parent].ID
		}
		fmt.Fprintf(&meta, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", p.ID, clean(p.URL), p.Lang, p.Origin, p.Docset,
			p.Package, parent, p.TemplateDocset, p.TrapGroup, p.main.tokens, p.full.tokens, clean(p.Note))
	}
	files["pages_meta.tsv"] = meta.Bytes()

	trapSet := map[[2]int]bool{}
	var traps bytes.Buffer
	traps.WriteString("id_a\tid_b\ttrap_type\tresemblance_main\tcontainment_a_in_b_main\tcontainment_b_in_a_main\tresemblance_full\tcontainment_a_in_b_full\tcontainment_b_in_a_full\n")
	for _, t := range c.traps {
		trapSet[[2]int{t.A, t.B}] = true
		pa, pb := &c.pages[t.A], &c.pages[t.B]
		j, ca, cb := score(pa.main.s5, pb.main.s5)
		fj, fa, fb := score(pa.full.s5, pb.full.s5)
		fmt.Fprintf(&traps, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", pa.ID, pb.ID, t.Type, round4(j), round4(ca), round4(cb), round4(fj), round4(fa), round4(fb))
	}
	files["traps.tsv"] = traps.Bytes()

	var truth bytes.Buffer
	truth.WriteString("id_a\tid_b\tresemblance\tcontainment_a_in_b\tcontainment_b_in_a\tkind\n")
	kinds := make([]string, len(c.pairs))
	for i, p := range c.pairs {
		kinds[i] = c.kind(p.A, p.B, trapSet)
		fmt.Fprintf(&truth, "%s\t%s\t%s\t%s\t%s\t%s\n", c.pages[p.A].ID, c.pages[p.B].ID, round4(p.J), round4(p.CA), round4(p.CB), kinds[i])
	}
	files["truth_pairs.tsv"] = truth.Bytes()

	st := c.stats(kinds, files)
	sj, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return fmt.Errorf("neardupbuild: %v", err)
	}
	files["stats.json"] = append(sj, '\n')
	files["README.md"] = c.readme(st, kinds)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return fmt.Errorf("neardupbuild: %v", err)
		}
	}
	return nil
}

// clean makes a string safe for an unquoted TSV field.
func clean(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// jsonLine writes one JSON object with keys in the given order.
func jsonLine(w *bytes.Buffer, m map[string]string, keys []string) error {
	w.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			w.WriteString(", ")
		}
		kb, _ := json.Marshal(k)
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m[k]); err != nil {
			return fmt.Errorf("neardupbuild: %v", err)
		}
		w.Write(kb)
		w.WriteString(": ")
		w.Write(bytes.TrimRight(vb.Bytes(), "\n"))
	}
	w.WriteString("}\n")
	return nil
}

// gz compresses b deterministically.
func gz(b []byte) []byte {
	var out bytes.Buffer
	z, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	z.Write(b)
	z.Close()
	return out.Bytes()
}

// stats are the counts of stats.json.
type stats struct {
	Seed         uint64                    `json:"seed"`
	Pages        int                       `json:"pages"`
	ZhPages      int                       `json:"zh_pages"`
	ByOriginLang map[string]int            `json:"by_origin_lang"`
	ByDocset     map[string]map[string]int `json:"by_docset_origin"`
	Skipped      map[string]int            `json:"skipped_no_content_element"`
	Pairs        int                       `json:"pairs"`
	PairsByKind  map[string]int            `json:"pairs_by_kind"`
	Traps        int                       `json:"traps"`
	TrapsByType  map[string]int            `json:"traps_by_type"`
	JHist        map[string]map[string]int `json:"j_hist"`
	Bytes        map[string]int            `json:"bytes"`
	Seconds      map[string]float64        `json:"seconds"`
}

var kindOrder = []string{"natural", "reprint", "edit", "trap", "other"}

var originOrder = []string{"shipped", "reprint", "edit", "trap"}

// jBucket names the J histogram bucket of j.
func jBucket(j float64) string {
	switch {
	case j >= 1:
		return "=1.0"
	case j < 0.5:
		return "<0.5"
	}
	lo := int(j * 10)
	return fmt.Sprintf("%.1f-%.1f", float64(lo)/10, float64(lo+1)/10)
}

var jBuckets = []string{"<0.5", "0.5-0.6", "0.6-0.7", "0.7-0.8", "0.8-0.9", "0.9-1.0", "=1.0"}

func (c *corpus) stats(kinds []string, files map[string][]byte) stats {
	st := stats{Seed: c.seed, Pages: len(c.pages), ByOriginLang: map[string]int{}, ByDocset: map[string]map[string]int{},
		Skipped: c.skipped, Pairs: len(c.pairs), PairsByKind: map[string]int{}, Traps: len(c.traps), TrapsByType: map[string]int{},
		JHist: map[string]map[string]int{}, Bytes: map[string]int{}, Seconds: c.secs}
	for i := range c.pages {
		p := &c.pages[i]
		if p.Lang == "zh" {
			st.ZhPages++
		}
		st.ByOriginLang[p.Origin+"/"+p.Lang]++
		if st.ByDocset[p.Docset] == nil {
			st.ByDocset[p.Docset] = map[string]int{}
		}
		st.ByDocset[p.Docset][p.Origin]++
	}
	for i, p := range c.pairs {
		st.PairsByKind[kinds[i]]++
		if st.JHist[kinds[i]] == nil {
			st.JHist[kinds[i]] = map[string]int{}
		}
		st.JHist[kinds[i]][jBucket(p.J)]++
	}
	for _, t := range c.traps {
		st.TrapsByType[t.Type]++
	}
	for n, b := range files {
		st.Bytes[n] = len(b)
	}
	return st
}

// readme writes the corpus README.
func (c *corpus) readme(st stats, kinds []string) []byte {
	var w bytes.Buffer
	langs := map[string]bool{}
	for i := range c.pages {
		langs[c.pages[i].Lang] = true
	}
	langList := make([]string, 0, len(langs))
	for l := range langs {
		langList = append(langList, l)
	}
	slices.Sort(langList)

	fmt.Fprintf(&w, "# Near-duplicate web pages from real documentation (with ground truth)\n\n")
	fmt.Fprintf(&w, "%d HTML pages (%d with lang zh), built by `neardupbuild build -seed %d -reprints %g -edits %g`\nfrom the HTML doc sets listed under Sources ", st.Pages, st.ZhPages, c.seed, c.shares.Reprint, c.shares.Edit)
	fmt.Fprintf(&w, "(for the packages named there, as Debian installs them), plus pages made from them: reprints in other doc sets' chrome, small edits,\nand traps. Every number in this file comes from the build that made the corpus.\n\n")
	w.WriteString("## Files\n| file | bytes | content |\n|---|---|---|\n")
	desc := [][2]string{
		{"pages.jsonl.gz", "one JSON object per line: `{\"id\", \"url\", \"lang\", \"html\"}`"},
		{"main_text.jsonl.gz", "`{\"id\", \"title\", \"main\"}`: the main text that the truth was computed from"},
		{"truth_pairs.tsv", "`id_a id_b resemblance containment_a_in_b containment_b_in_a kind`, header line, id_a < id_b; every pair with max(J, containments) >= 0.5 on main text that shares an 8-token shingle"},
		{"traps.tsv", "pairs that must NOT be judged duplicates: J and both containments on main text and on full-page text"},
		{"pages_meta.tsv", "id, url, lang, origin, docset, package, parent_id, template_docset, trap_group, main_tokens, full_tokens, note"},
		{"stats.json", "the counts in this README, machine-readable"},
	}
	for _, d := range desc {
		fmt.Fprintf(&w, "| %s | %d | %s |\n", d[0], st.Bytes[d[0]], d[1])
	}
	w.WriteString("\nThe TSV files are tab-separated with no quoting. URLs are made up (`https://<host>/...`, names under\n`docs.example`, reserved by RFC 2606). Shipped pages keep their real file path. Reprints and trap pages\nget `/a/NNN.html` on the template's host, and edits get a mirror-like host prefix. Judge pages by\ncontent: the URL is not part of the ground truth. `lang` is set by content: \"zh\" when CJK ideographs\nare at least 30% of the main-text tokens, else \"en\" (for every other language too).\n\n")

	w.WriteString("## Sources\n| package | version | licence (debian/copyright) | doc set | host | main text element | shipped pages |\n|---|---|---|---|---|---|---|\n")
	for _, d := range c.sets {
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %s | %d |\n", d.Package, d.Version, d.Licence, d.Name, d.Host, mainDesc(&d), st.ByDocset[d.Name]["shipped"])
	}
	skipped := 0
	for _, n := range c.skipped {
		skipped += n
	}
	fmt.Fprintf(&w, "\n%d sampled files were skipped: undecodable, or without the main text element. Pages in\nanother charset (as declared, e.g. ISO-8859-1) were converted to UTF-8; their HTML is otherwise as shipped.\n", skipped)
	w.WriteString("Several doc sets may share one host, as the manuals of one site do; each keeps its own chrome\n(navigation bars, sidebars with the manual's table of contents, footers) exactly as shipped.\n\n")

	w.WriteString("## How the pages were made (page `origin` in pages_meta.tsv)\n| origin |")
	for _, l := range langList {
		fmt.Fprintf(&w, " %s |", l)
	}
	w.WriteString(" total |\n|---|")
	for range langList {
		w.WriteString("---|")
	}
	w.WriteString("---|\n")
	for _, o := range originOrder {
		fmt.Fprintf(&w, "| %s |", o)
		t := 0
		for _, l := range langList {
			fmt.Fprintf(&w, " %d |", st.ByOriginLang[o+"/"+l])
			t += st.ByOriginLang[o+"/"+l]
		}
		fmt.Fprintf(&w, " %d |\n", t)
	}
	fmt.Fprintf(&w, "| **total** |")
	for _, l := range langList {
		t := 0
		for _, o := range originOrder {
			t += st.ByOriginLang[o+"/"+l]
		}
		fmt.Fprintf(&w, " %d |", t)
	}
	fmt.Fprintf(&w, " %d |\n\n", st.Pages)
	fmt.Fprintf(&w, `- **shipped**: an HTML file exactly as the package installs it, sampled where a doc set has more than its cap.
- **reprint**: the main content of a real page put into a real page of ANOTHER doc set of the same
  language (config lang). That page's header, navigation, sidebar and footer are kept and its own main
  element is replaced by the article (`+"`div.article-body`"+`) between random portal blocks: top menu,
  "popular pages" list, ads, related links, comments. The block text is real (page titles and
  sentences of other pages). %.0f%% are excerpts: the first 55-80%% of the article's top-level blocks.
- **edit**: a real page with small edits, in its own chrome: 1-8 words changed (in Chinese, 1-2
  characters per change), one paragraph dropped, one real sentence appended, or two of these.
- **trap**: short articles of real pages wrapped in the SAME heavy template (a page with much chrome),
  with one fixed set of portal blocks per `+"`trap_group`"+`. same-template groups have 20-150 token
  articles, short-page groups 3-15 token articles. Each trap page is also a reprint of its source page.

`, excerptShare*100)

	w.WriteString("## Main text, similarity, labels\n")
	w.WriteString("- Main text of shipped pages and edits is the visible text of the doc set's main text element (the\n  first element in document order that matches the selector, minus the listed elements), see Sources.\n  For reprints and traps it is the inserted article (`div.article-body`).\n")
	w.WriteString(`- Tokens: after NFKC and lower-casing, each CJK ideograph is one token and every other run of letters
  or digits is one token. Shingles are 5 consecutive tokens; a text shorter than 5 tokens counts as one
  shingle.
- For a pair A, B: resemblance J = |A∩B| / |A∪B|, containment_a_in_b = |A∩B| / |A|, and
  containment_b_in_a = |A∩B| / |B|.
- Listed pairs share at least one 8-token shingle and have max(J, C) >= 0.5, which equals max C >= 0.5.
  They are found with a complete inverted index of 5-token shingles and prefix filtering (rarest
  shingles first), which yields every pair with max C >= 0.5 without comparing all pairs. A page whose
  main text has fewer than 8 tokens never appears in truth_pairs.tsv (see main_tokens in
  pages_meta.tsv). Any pair not listed has max C < 0.5 or shares no 8-token shingle.
- **near-duplicate** := J >= 0.8 on main text. **contained** := containment >= 0.9.
- Pair ` + "`kind`" + `:
  - natural: both pages are shipped (revisions, translations left untranslated, shared text).
  - reprint / edit: one page was generated from the other (a trap page counts as a reprint of its
    source), or both are reprints (or both edits) of the same page.
  - trap: the pair is listed in traps.tsv.
  - other: any other pair, e.g. a reprint vs an edit of the same article.

`)
	w.WriteString("## Labeled pairs (truth_pairs.tsv) and J distribution\n| kind | pairs | near-dup J>=0.8 | contained C>=0.9 | contained, J<0.8 |")
	for _, bk := range jBuckets {
		fmt.Fprintf(&w, " J %s |", bk)
	}
	w.WriteString("\n|---|---|---|---|---|")
	for range jBuckets {
		w.WriteString("---|")
	}
	w.WriteString("\n")
	for _, k := range kindOrder {
		n, nd, ct, ctl := 0, 0, 0, 0
		for i, p := range c.pairs {
			if kinds[i] != k {
				continue
			}
			n++
			if p.J >= 0.8 {
				nd++
			}
			if max(p.CA, p.CB) >= 0.9 {
				ct++
				if p.J < 0.8 {
					ctl++
				}
			}
		}
		fmt.Fprintf(&w, "| %s | %d | %d | %d | %d |", k, n, nd, ct, ctl)
		for _, bk := range jBuckets {
			fmt.Fprintf(&w, " %d |", st.JHist[k][bk])
		}
		w.WriteString("\n")
	}

	w.WriteString("\n## Traps (traps.tsv): low main-text J, full-page J mostly high\n| trap_type | pairs | mean J main | max J main | max C main | mean J full | min J full | max J full |\n|---|---|---|---|---|---|---|---|\n")
	types := make([]string, 0, len(st.TrapsByType))
	for t := range st.TrapsByType {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, ty := range types {
		n := 0
		var sj, mj, mc, sf, minf, maxf float64
		minf = 2
		for _, t := range c.traps {
			if t.Type != ty {
				continue
			}
			pa, pb := &c.pages[t.A], &c.pages[t.B]
			j, ca, cb := score(pa.main.s5, pb.main.s5)
			fj, _, _ := score(pa.full.s5, pb.full.s5)
			n++
			sj += j
			mj = max(mj, j)
			mc = max(mc, ca, cb)
			sf += fj
			minf = min(minf, fj)
			maxf = max(maxf, fj)
		}
		fmt.Fprintf(&w, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", ty, n, sj/float64(n), mj, mc, sf/float64(n), minf, maxf)
	}
	w.WriteString(`
- same-template: different articles in one heavy template. The chrome and the portal blocks are
  identical within a ` + "`trap_group`" + `, and the articles are pairwise J < 0.1.
- short-page: the same, with 3-15 token articles.
- same-skeleton/FAMILY: real pages of one family (one doc set, one directory, file names with one
  prefix up to the first '-' or '_'). Up to 3000 random pairs per family were scored; kept were those
  with main J < 0.3 and both containments < 0.5, taking the 25 with the largest (full-page J - main J).
  At most 4 families (the largest with at least 20 pages) per corpus.

Full-page text is all visible text of the page (no script/style, no title), with the same tokens and
shingles.
`)
	return w.Bytes()
}

// mainDesc describes a doc set's main text element.
func mainDesc(d *docSet) string {
	s := "`" + d.Content.String() + "`"
	if len(d.Drop) > 0 {
		var ds []string
		for _, x := range d.Drop {
			ds = append(ds, "`"+x.String()+"`")
		}
		s += " minus " + strings.Join(ds, ", ")
	}
	return s
}
