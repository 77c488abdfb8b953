package hrefs

import (
	"slices"
	"testing"
)

func TestLinks(t *testing.T) {
	page := []byte(`<p><a href="/a?x=1#top">a</a> <a name="n">no href</a> <a class=c href="b">b</a>
<a href="mailto:x@y.z">mail</a> <a href="https://other.example/c">c</a> <a href="%zz">bad</a><area href="/d"></p>`)
	got := Links("http://h.example/dir/page", page)
	want := []string{"http://h.example/a?x=1#top", "http://h.example/dir/b", "https://other.example/c"}
	if !slices.Equal(got, want) {
		t.Errorf("Links = %q, want %q", got, want)
	}
	if got := Links("http://[bad", page); got != nil {
		t.Errorf("Links of a bad base = %q", got)
	}
}
