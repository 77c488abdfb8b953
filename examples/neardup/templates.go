package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/undust/undust/shingle"
)

// Template features (the -templates flag of eval). Off by default: the
// main text that htmltext.Site extracts is the page's identity, as a
// crawler computes it. When on, every content method sees features
// without template: shingle.Templates learns, per host and URL directory,
// which shingle hashes (and, for SpotSigs, which spot signature hashes)
// are on many pages, and they are dropped before resemblance, MinHash,
// SpotSigs and SimHash. The features that are template anywhere are
// dropped everywhere, so that a text and its copy on another host lose
// the same features (scope=host filters each page by its own host only).
// A page whose features are all template keeps them all (it has nothing
// else to be compared by). The learner sees every page of the corpus
// first, as a batch; in a crawl the same counts build up page by page.
// It is kept to measure it: on every corpus measured, F1 is higher
// without it, because it deletes an article's own text once a few copies
// of it exist and lifts pairs just under the threshold over it.

// templateSetting is the value of -templates: "off", "on", or settings
// "min=N,frac=F,depth=D,scope=host|all" (which turn it on; unset ones
// keep shingle.TemplateOptions' defaults).
type templateSetting struct {
	on   bool
	host bool // filter each page by its own host's groups only
	o    shingle.TemplateOptions
}

var templates templateSetting

// resetTemplates sets template features off (the flag's default) and
// returns the setting for the flag package.
func resetTemplates() *templateSetting {
	templates = templateSetting{}
	return &templates
}

func (s *templateSetting) String() string {
	if s == nil || !s.on {
		return "off"
	}
	if s.o == (shingle.TemplateOptions{}) {
		return "on"
	}
	return fmt.Sprintf("min=%d,frac=%g,depth=%d,host=%v", s.o.MinPages, s.o.Fraction, s.o.Depth, s.host)
}

func (s *templateSetting) Set(v string) error {
	switch v {
	case "off", "false":
		*s = templateSetting{}
		return nil
	case "on", "true":
		*s = templateSetting{on: true}
		return nil
	}
	n := templateSetting{on: true}
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("want on, off or min=N,frac=F,depth=D, not %q", v)
		}
		var err error
		switch k {
		case "min":
			n.o.MinPages, err = strconv.Atoi(val)
		case "frac":
			n.o.Fraction, err = strconv.ParseFloat(val, 64)
		case "depth":
			n.o.Depth, err = strconv.Atoi(val)
		case "scope":
			n.host = val == "host"
		default:
			return fmt.Errorf("unknown template setting %q", k)
		}
		if err != nil {
			return fmt.Errorf("template setting %q: %v", kv, err)
		}
	}
	*s = n
	return nil
}

func (s *templateSetting) IsBoolFlag() bool { return true }

// shingleTemplates returns the template filter learned from the pages'
// shingle sets, built once per input.
func shingleTemplates(in *Input) *templateFilter {
	return in.Cache("templates:shingles", func() any {
		t := shingle.NewTemplates(templates.o)
		for i, d := range in.Docs {
			t.Add(d.URL, in.Sets[i]) // a page without a host URL is never filtered
		}
		return newTemplateFilter(t)
	}).(*templateFilter)
}

// templateFilter drops template features: by the union of all hosts'
// templates (the default), or by each page's own host (scope=host).
type templateFilter struct {
	t   *shingle.Templates
	all shingle.Set
}

func newTemplateFilter(t *shingle.Templates) *templateFilter {
	f := &templateFilter{t: t}
	if !templates.host {
		f.all = t.AppendTemplate(nil)
	}
	return f
}

// keep returns the features of the page at url that are not template, or
// all of them when all are (or when the page's URL has no host).
func (f *templateFilter) keep(url string, features []uint64) []uint64 {
	var kept []uint64
	if templates.host {
		var err error
		if kept, err = f.t.AppendKept(nil, url, features); err != nil {
			return features
		}
	} else {
		for _, h := range features {
			if !f.all.Contains(h) {
				kept = append(kept, h)
			}
		}
	}
	if len(kept) == 0 {
		return features
	}
	return kept
}

// featureSets returns the shingle sets the methods compare: in.Sets, or
// with -templates the sets without template shingles.
func featureSets(in *Input) []shingle.Set {
	if !templates.on {
		return in.Sets
	}
	return in.Cache("templates:sets", func() any {
		t := shingleTemplates(in)
		sets := make([]shingle.Set, len(in.Sets))
		parallel(len(in.Sets), func(i int) {
			sets[i] = t.keep(in.Docs[i].URL, in.Sets[i])
		})
		return sets
	}).([]shingle.Set)
}

// filterSpots drops template spot signatures from every page's spots with
// a learner of their own; without -templates it returns docs.
func filterSpots(in *Input, docs []shingle.Spots) []shingle.Spots {
	if !templates.on {
		return docs
	}
	tl := shingle.NewTemplates(templates.o)
	for i, d := range in.Docs {
		tl.Add(d.URL, docs[i].Hashes)
	}
	t := newTemplateFilter(tl)
	out := make([]shingle.Spots, len(docs))
	parallel(len(docs), func(i int) {
		s := docs[i]
		kept := t.keep(in.Docs[i].URL, s.Hashes)
		if len(kept) == len(s.Hashes) {
			out[i] = s
			return
		}
		var f shingle.Spots
		k := 0
		for j, h := range s.Hashes {
			if k < len(kept) && kept[k] == h {
				f.Hashes = append(f.Hashes, h)
				f.Counts = append(f.Counts, s.Counts[j])
				f.Size += int(s.Counts[j])
				k++
			}
		}
		out[i] = f
	})
	return out
}
