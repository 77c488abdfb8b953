package acyclic

import (
	"errors"
	"strings"
	"testing"

	"github.com/undust/undust/rules"
	"github.com/undust/undust/urlnorm"
)

func load(t *testing.T, lines ...string) *rules.Set {
	t.Helper()
	text := "undust-rules v1\nkey " + urlnorm.Crawler.String() + "\n" + strings.Join(lines, "\n") + "\n"
	s, err := rules.Load(strings.NewReader(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBreak(t *testing.T) {
	tests := []struct {
		name  string
		rules []string
		urls  []string
		drop  []string // the dropped rules' transformations, by their text
		keys  map[string]string
	}{
		{
			name: "www and m: the rule of smaller coverage goes",
			rules: []string{
				`rule host=www.shop.example cov=5 prec=1 sup=1 if then host="m.shop.example"`,
				`rule host=m.shop.example cov=40 prec=1 sup=1 if then host="www.shop.example"`,
			},
			urls: []string{"http://www.shop.example/a", "http://m.shop.example/b"},
			drop: []string{`host="m.shop.example"`},
			keys: map[string]string{"http://m.shop.example/b": "http://www.shop.example/b"},
		},
		{
			name: "http and https of one site",
			rules: []string{
				`rule domain=site.example cov=30 prec=1 sup=1 if scheme="http" then scheme="https"`,
				`rule domain=site.example cov=30 prec=0.9 sup=1 if scheme="https" then scheme="http"`,
				`rule domain=site.example cov=3 prec=1 sup=1 if query("sid")=* then query("sid")=-`,
			},
			urls: []string{"https://a.site.example/x?sid=1"},
			drop: []string{`scheme="http"`},
			keys: map[string]string{"http://a.site.example/x?sid=1": "https://a.site.example/x"},
		},
		{
			name:  "no cycle: the set comes back as it is",
			rules: []string{`rule host=a.example cov=3 prec=1 sup=1 if query("sid")=* then query("sid")=-`},
			urls:  []string{"http://a.example/x?sid=1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := load(t, tt.rules...)
			got, dropped, err := Break(set, tt.urls)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, r := range dropped {
				s := r.String()
				texts = append(texts, s[strings.Index(s, " then ")+len(" then "):])
			}
			if strings.Join(texts, "|") != strings.Join(tt.drop, "|") {
				t.Errorf("dropped %q, want %q", texts, tt.drop)
			}
			if len(dropped) == 0 && got != set {
				t.Error("a set without cycles was rebuilt")
			}
			for _, u := range tt.urls {
				if _, err := got.Normalize(u); errors.Is(err, rules.ErrCycle) {
					t.Errorf("Normalize(%q) still cycles", u)
				}
			}
			for in, want := range tt.keys {
				if k, err := got.Normalize(in); err != nil || k != want {
					t.Errorf("Normalize(%q) = %q, %v; want %q", in, k, err, want)
				}
			}
		})
	}
}
