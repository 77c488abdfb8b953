package hostile

import (
	"strconv"
	"strings"
)

// Generators for package learn's readers: dup-cluster TSV (cluster<TAB>url[<TAB>importance
// [<TAB>inlinks]]) and CDX / CDXJ crawl indexes.

// TSVLongURL returns one dup-cluster line whose URL is n bytes long (a path of "a"), with its
// newline.
func TSVLongURL(n int) string {
	const prefix = "http://h.example/"
	return "c1\t" + prefix + strings.Repeat("a", max(n-len(prefix), 1)) + "\n"
}

// TSVManyFields returns one line of n+1 tab-separated fields, n of them empty after the
// cluster: a malformed line that a reader which splits every field would cut into n strings.
func TSVManyFields(n int) string {
	return "c1" + strings.Repeat("\t", n) + "\n"
}

// TSVManyClusters returns n lines, each a cluster of its own with one URL (the interning of
// cluster ids and the grouping of clusters see n distinct ids), and every 16th line a comment.
func TSVManyClusters(n int) string {
	var b strings.Builder
	for i := range n {
		if i%16 == 0 {
			b.WriteString("# comment\n")
		}
		s := strconv.Itoa(i)
		b.WriteString("h")
		b.WriteString(strconv.Itoa(i % 97))
		b.WriteString("-p")
		b.WriteString(s)
		b.WriteString("\thttp://h")
		b.WriteString(strconv.Itoa(i % 97))
		b.WriteString(".example/item/")
		b.WriteString(s)
		b.WriteString("?ref=")
		b.WriteString(s)
		b.WriteString("\t0.5\t1\n")
	}
	return b.String()
}

// CDXLongURL returns a CDX line in the default 11-field layout whose URL is n bytes long.
func CDXLongURL(n int) string {
	const prefix = "http://h.example/"
	u := prefix + strings.Repeat("a", max(n-len(prefix), 1))
	return "example,h)/a 20200101000000 " + u + " text/html 200 SHA1DIGEST - - 100 0 f.warc.gz\n"
}

// CDXManyFields returns a " CDX" header of n+4 fields, with a, s and k last, and one capture
// line in that layout: per-line work is then n fields.
func CDXManyFields(n int) string {
	var h, l strings.Builder
	h.WriteString(" CDX")
	for i := range n {
		h.WriteString(" x")
		l.WriteString(strconv.Itoa(i % 10))
		l.WriteByte(' ')
	}
	h.WriteString(" N a s k\n")
	l.WriteString("example,h)/ http://h.example/ 200 DIGEST\n")
	return h.String() + l.String()
}

// CDXManyCaptures returns n CDX lines (default layout) of 97 hosts, status 200, each with a
// digest of its own but every 4th line, which repeats the host and digest of the line before
// it with another URL: n/4 clusters of two URLs among n/2 singletons.
func CDXManyCaptures(n int) string {
	var b strings.Builder
	for i := range n {
		d := i
		if i%4 == 3 {
			d = i - 1
		}
		h := "h" + strconv.Itoa(d%97) + ".example"
		b.WriteString("example,h)/ 20200101000000 http://")
		b.WriteString(h)
		b.WriteString("/p/")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" text/html 200 D")
		b.WriteString(strconv.Itoa(d))
		b.WriteString(" - - 100 0 f.warc.gz\n")
	}
	return b.String()
}

// CDXJNested returns a CDXJ line whose JSON object nests an extra field n levels deep (the
// reader needs only url, status, digest and mime) and has a URL of n bytes.
func CDXJNested(n int) string {
	return "example,h)/ 20200101000000 {\"extra\":" + strings.Repeat("[", n) + strings.Repeat("]", n) +
		",\"url\":\"http://h.example/" + strings.Repeat("b", n) + "\",\"status\":\"200\",\"digest\":\"D\",\"mime\":\"text/html\"}\n"
}
