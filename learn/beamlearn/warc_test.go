package beamlearn

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/undust/undust/learn"
)

// warcRecord writes one WARC/1.0 record of type typ with the given target URI and block, as
// a crawler's WARC writer does.
func warcRecord(typ, target, contentType, block string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\n", typ)
	if target != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", target)
	}
	fmt.Fprintf(&b, "WARC-Date: 2024-05-01T10:00:%02dZ\r\n", n%60)
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", n)
	fmt.Fprintf(&b, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", contentType, len(block), block)
	return b.String()
}

// httpResponse is an HTTP/1.1 response as a WARC response record's block holds it.
func httpResponse(status, header, body string) string {
	return "HTTP/1.1 " + status + "\r\n" + header + "Content-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
}

func response(target, status, header, body string, n int) string {
	return warcRecord("response", target, "application/http; msgtype=response", httpResponse(status, header, body), n)
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

// gzipRecords compresses each record as a gzip member of its own, as .warc.gz files are.
func gzipRecords(records ...string) string {
	var b strings.Builder
	for _, r := range records {
		b.WriteString(gzipped(r))
	}
	return b.String()
}

type gotPage struct{ URL, HTML string }

func readAll(t *testing.T, data string, skipBad bool) ([]gotPage, warcStats, error) {
	t.Helper()
	var pages []gotPage
	st, err := readWARC(strings.NewReader(data), "crawl.warc", skipBad, func(u string, html []byte) error {
		pages = append(pages, gotPage{u, string(html)})
		return nil
	})
	return pages, st, err
}

// TestReadWARCPages checks which records are pages and that payloads are decoded, for
// uncompressed and per-record gzip files.
func TestReadWARCPages(t *testing.T) {
	const html = "<html><body><p>Hello</p></body></html>"
	chunked := fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", 24, html[:24], len(html)-24, html[24:])
	records := []string{
		warcRecord("warcinfo", "", "application/warc-fields", "software: test\r\n", 1),
		warcRecord("request", "https://a.example/x", "application/http; msgtype=request", "GET /x HTTP/1.1\r\nHost: a.example\r\n\r\n", 2),
		response("https://a.example/x", "200 OK", "Content-Type: text/html; charset=utf-8\r\n", html, 3),
		response("https://a.example/gone", "404 Not Found", "Content-Type: text/html\r\n", html, 4),
		response("https://a.example/img.png", "200 OK", "Content-Type: image/png\r\n", "\x89PNG\r\n\x1a\n", 5),
		response("https://a.example/moved", "301 Moved Permanently", "Location: /x\r\n", "", 6),
		response("https://a.example/z", "200 OK", "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", gzipped(html), 7),
		warcRecord("response", "https://a.example/c", "application/http; msgtype=response",
			"HTTP/1.1 200 OK\r\nContent-Type: application/xhtml+xml\r\nTransfer-Encoding: chunked\r\n\r\n"+chunked, 8),
		response("https://a.example/sniffed", "200 OK", "", "<!DOCTYPE html>"+html, 9),
		response("https://a.example/br", "200 OK", "Content-Type: text/html\r\nContent-Encoding: br\r\n", "\x0b\x02\x80", 10),
	}
	want := []gotPage{
		{"https://a.example/x", html},
		{"https://a.example/z", html},
		{"https://a.example/c", html},
		{"https://a.example/sniffed", "<!DOCTYPE html>" + html},
	}
	for _, c := range []struct{ name, data string }{
		{"warc", strings.Join(records, "")},
		{"warc.gz", gzipRecords(records...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, st, err := readAll(t, c.data, false)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("pages (-want +got):\n%s", diff)
			}
			if st.Records != len(records) || st.Pages != len(want) || st.Encoding != 1 || st.NotPage != 5 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// TestReadWARCBad checks that a truncated or corrupt file is an error naming the file and the
// record, and that skipBad reads on past a corrupt record.
func TestReadWARCBad(t *testing.T) {
	good := response("https://a.example/x", "200 OK", "Content-Type: text/html\r\n", "<p>x</p>", 1)
	good2 := response("https://a.example/y", "200 OK", "Content-Type: text/html\r\n", "<p>y</p>", 3)
	bad := "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: zebra\r\n\r\nnot a record\r\n\r\n"
	truncated := good + good2[:len(good2)/2]
	if _, _, err := readAll(t, truncated, false); err == nil || !strings.Contains(err.Error(), "crawl.warc") || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("truncated: error %v", err)
	}
	if _, _, err := readAll(t, good+bad+good2, false); err == nil || !strings.Contains(err.Error(), "crawl.warc: WARC record 2") || strings.Contains(err.Error(), "\n") {
		t.Errorf("corrupt: error %v", err)
	}
	got, st, err := readAll(t, good+bad+good2, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].URL != "https://a.example/y" || st.Bad != 2 {
		t.Errorf("skipBad: pages %v, stats %+v", got, st)
	}
	if _, _, err := readAll(t, "no WARC at all\n", false); err == nil {
		t.Error("a file of no record: no error")
	}
	if got, _, err := readAll(t, "", false); err != nil || len(got) != 0 {
		t.Errorf("empty file: %v, %v", got, err)
	}
	big := response("https://a.example/big", "200 OK", "Content-Type: text/html\r\n", strings.Repeat("<p>x</p>", MaxPageBytes/8+1), 4)
	got, st, err = readAll(t, big+good, false)
	if err != nil || len(got) != 1 || st.TooLarge != 1 {
		t.Errorf("too large: pages %d, stats %+v, %v", len(got), st, err)
	}
}

// writeWARC writes the pages of the JSON-lines file in as a .warc.gz file of response
// records, one gzip member per record.
func writeWARC(t *testing.T, in, out string) {
	t.Helper()
	urls, html := readPages(t, in)
	var recs []string
	for i := range urls {
		recs = append(recs, response(urls[i], "200 OK", "Content-Type: text/html; charset=utf-8\r\n", html[i], i))
		recs = append(recs, warcRecord("request", urls[i], "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n", i))
	}
	if err := os.WriteFile(out, []byte(gzipRecords(recs...)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClustersWARC checks that the page pipeline reads a WARC file of the test pages into the
// clusters it makes of the same pages as JSON lines.
func TestClustersWARC(t *testing.T) {
	in := filepath.Join("testdata", "pages.jsonl.gz")
	warc := filepath.Join(t.TempDir(), "crawl-00000.warc.gz")
	writeWARC(t, in, warc)
	want := runClusters(t, in, PageConfig{Grouping: learn.ByDomain})
	got := runClusters(t, warc, PageConfig{Grouping: learn.ByDomain})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clusters (-JSON lines +WARC):\n%s", diff)
	}
	if multi(got) < 30 {
		t.Errorf("%d pages in clusters of two or more", multi(got))
	}
}

// FuzzReadWARCPages checks that any input is read without a panic, and that every page it
// gives is within MaxPageBytes.
func FuzzReadWARCPages(f *testing.F) {
	html := "<html><body><p>Hello</p></body></html>"
	f.Add(response("https://a.example/x", "200 OK", "Content-Type: text/html\r\n", html, 1))
	f.Add(gzipRecords(response("https://a.example/x", "200 OK", "Content-Encoding: gzip\r\n", gzipped(html), 1)))
	f.Add(warcRecord("response", "https://a.example/c", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 2))
	f.Add("WARC/1.0\r\nContent-Length: 99999999999\r\n\r\n")
	f.Add("WARC/1.1\r\n\r\n\r\n\r\nWARC/")
	f.Fuzz(func(t *testing.T, data string) {
		for _, skip := range []bool{false, true} {
			readWARC(strings.NewReader(data), "fuzz.warc", skip, func(u string, html []byte) error {
				if len(html) > MaxPageBytes {
					t.Fatalf("page of %d bytes", len(html))
				}
				return nil
			})
		}
	})
}
