package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// testSite is a small hand-made site with known duplicates: a home page, n articles, and for
// each article three more URLs of the same page (a ?ref= tracking parameter, a print view, and a
// login link whose ?redirect_to= names the article, which is one login page for all). The page
// chrome outside div.content holds a counter that changes on every response, so that a truth
// taken from the whole page would make every fetch distinct.
type testSite struct {
	n     int
	count atomic.Int64
}

// Distinct pages: the home page, the n articles and the login page.
func (s *testSite) pages() int { return s.n + 2 }

func (s *testSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := s.count.Add(1)
	page := func(title, content string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><p>served %d</p><div class=\"content\">%s</div></body></html>", title, c, content)
	}
	switch p := r.URL.Path; {
	case p == "/":
		var b strings.Builder
		b.WriteString("<h1>Home</h1>")
		for i := 1; i <= s.n; i++ {
			fmt.Fprintf(&b, `<a href="/a/%d">article %d</a> <a href="/a/%d?ref=home">again</a> `, i, i, i)
		}
		page("home", b.String())
	case p == "/login":
		page("login", `<h1>Log in</h1><form>name</form><a href="/">home</a>`)
	case strings.HasPrefix(p, "/a/"), strings.HasPrefix(p, "/print/"):
		i, err := strconv.Atoi(p[strings.LastIndexByte(p, '/')+1:])
		if err != nil || i < 1 || i > s.n {
			http.NotFound(w, r)
			return
		}
		next := i%s.n + 1
		page("article", fmt.Sprintf(`<h1>Article %d</h1><p>Text of article number %d.</p>`+
			`<a href="/a/%d">next</a> <a href="/print/%d">print</a> <a href="/login?redirect_to=/a/%d">log in</a> <a href="/a/%d?ref=next">next again</a>`,
			i, i, next, i, i, next))
	case p == "/style.css":
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body{}")
	default:
		http.NotFound(w, r)
	}
}

// serveSite starts a test site on loopback and returns it with its root URL.
func serveSite(t *testing.T, n int) (*testSite, string) {
	t.Helper()
	s := &testSite{n: n}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL + "/"
}
