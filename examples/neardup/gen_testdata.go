//go:build ignore

// gen_testdata writes the tiny synthetic corpus in testdata/ that the
// harness tests run on: articles written for it, wrapped in two page
// templates, with reprints, an edit, an excerpt, template traps and an
// empty page. The labels are computed the way the neardup corpus computes
// them: exact Jaccard and containment of 5-shingles of the main text (the
// article). Run it with go generate; the directive is in main.go.
package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"strings"

	"github.com/undust/undust/shingle"
)

var articles = map[string]string{
	"printers": `Setting up printers. A printer is set up once on the main server and is then shared with every workstation in the school network. Open the printer administration page in a browser and choose to add a new printer. The wizard searches the local network and lists the printers it finds together with their addresses. Pick the driver that matches the model exactly, because a generic driver often prints the margins wrong. When the printer is added, print a test page from a workstation and check that the page comes out straight and complete. Teachers can then print from any room without installing anything themselves.`,
	"backups":  `Backing up home directories. The backup service copies every home directory to a second disk each night at two in the morning. Copies are kept for thirty days, after which the oldest copy is removed to make room. To restore a lost file, log in to the administration page, open the backup section and browse to the date before the file was lost. Select the file and press restore; it comes back to its old place with its old permissions. A whole directory can be restored in the same way.`,
	"mail":     `Reading mail. Every user gets a mailbox on the main server when the account is created.`,
	"fonts":    `Installing fonts. Copy the font files into the shared fonts folder and run the cache tool once.`,
}

type page struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Lang string `json:"lang"`
	HTML string `json:"html"`
}

// template wraps an article in a heavy portal page (menu, ads, comments,
// sidebar, footer) or a light manual page.
func template(kind, title, article string) string {
	var b strings.Builder
	body := "<p>" + html.EscapeString(article) + "</p>"
	switch kind {
	case "portal":
		fmt.Fprintf(&b, `<!DOCTYPE html><html><head><title>%s | School Portal</title><script>var x = 1;</script></head><body>`, html.EscapeString(title))
		b.WriteString(`<nav class="site-menu"><ul><li><a href="/a/1">Getting started with the school network</a></li><li><a href="/a/2">Accounts and passwords for pupils and teachers</a></li><li><a href="/a/3">Printing and scanning in the classroom</a></li></ul></nav>`)
		b.WriteString(`<div class="ad"><span>Advertisement</span><p>New laptops for schools at a special price this month, order before the end of the term and save on every unit.</p></div>`)
		b.WriteString(`<div class="article-body">` + body + `</div>`)
		b.WriteString(`<div class="comments"><h3>Comments</h3><div class="comment"><p>This guide helped our school a lot, thank you for writing it so clearly and with so many details.</p></div></div>`)
		b.WriteString(`<aside class="sidebar"><h3>Popular pages</h3><ul><li><a href="/a/4">How to reset a forgotten password for a pupil account</a></li><li><a href="/a/5">Connecting a projector to a classroom computer</a></li></ul></aside>`)
		b.WriteString(`<footer><p>School Portal is run by volunteers of the school network project. All texts may be copied freely.</p></footer></body></html>`)
	case "manual":
		fmt.Fprintf(&b, `<html><head><title>%s</title></head><body><div class="navheader"><a href="prev.html">Prev</a> <a href="next.html">Next</a></div>`, html.EscapeString(title))
		b.WriteString(`<div class="chapter">` + body + `</div><div class="navfooter"><a href="index.html">Home</a></div></body></html>`)
	}
	return b.String()
}

func main() {
	edit := strings.Replace(articles["printers"], "exactly", "closely", 1)
	excerpt := articles["printers"][:strings.Index(articles["printers"], " When the printer")]
	type spec struct{ id, url, kind, title, article string }
	specs := []spec{
		{"p01", "https://manual.example/printers.html", "manual", "Printers", articles["printers"]},
		{"p02", "https://portal.example/a/101.html", "portal", "Printers", articles["printers"]}, // reprint of p01
		{"p03", "https://mirror.manual.example/printers.html", "manual", "Printers", edit},       // edit of p01
		{"p04", "https://portal.example/a/102.html", "portal", "Backups", articles["backups"]},   // trap with p02
		{"p05", "https://portal.example/a/103.html", "portal", "Mail", articles["mail"]},         // short trap
		{"p06", "https://portal.example/a/104.html", "portal", "Fonts", articles["fonts"]},       // short trap
		{"p07", "https://manual.example/backups.html", "manual", "Backups", articles["backups"]}, // original of p04
		{"p08", "https://portal.example/a/105.html", "portal", "Printers (excerpt)", excerpt},    // excerpt of p01
		{"p09", "https://manual.example/empty.html", "manual", "Empty", ""},                      // no text
	}
	f, err := os.Create("testdata/pages.jsonl")
	if err != nil {
		panic(err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	main := map[string]shingle.Set{}
	for _, s := range specs {
		if err := enc.Encode(page{s.id, s.url, "en", template(s.kind, s.title, s.article)}); err != nil {
			panic(err)
		}
		main[s.id] = shingle.NewSet(shingle.Hashes(s.article, shingle.Options{}))
	}
	f.Close()
	mf, err := os.Create("testdata/main_text.jsonl")
	if err != nil {
		panic(err)
	}
	menc := json.NewEncoder(mf)
	menc.SetEscapeHTML(false)
	for _, s := range specs {
		if err := menc.Encode(map[string]string{"id": s.id, "title": s.title, "main": s.article}); err != nil {
			panic(err)
		}
	}
	mf.Close()
	var truth strings.Builder
	truth.WriteString("id_a\tid_b\tresemblance\tcontainment_a_in_b\tcontainment_b_in_a\tkind\n")
	for i, a := range specs {
		for _, b := range specs[i+1:] {
			sa, sb := main[a.id], main[b.id]
			j, cab, cba := sa.Jaccard(sb), sa.Containment(sb), sb.Containment(sa)
			if max(j, cab, cba) < 0.5 {
				continue
			}
			fmt.Fprintf(&truth, "%s\t%s\t%.4f\t%.4f\t%.4f\tother\n", a.id, b.id, j, cab, cba)
		}
	}
	if err := os.WriteFile("testdata/truth_pairs.tsv", []byte(truth.String()), 0o644); err != nil {
		panic(err)
	}
	traps := "id_a\tid_b\ttrap_type\n" +
		"p02\tp04\tsame-template\n" +
		"p04\tp05\tsame-template\n" +
		"p05\tp06\tshort-page\n"
	if err := os.WriteFile("testdata/traps.tsv", []byte(traps), 0o644); err != nil {
		panic(err)
	}
}
