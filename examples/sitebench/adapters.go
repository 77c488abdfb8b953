package main

// This file holds every use of undust's crawler adapters, so that a change of their API is met
// here alone. Each function attaches undust to a crawler set up by crawl.go and returns how to
// read what undust learned: the number of rules, the one figure the table takes from undust
// itself, and the rules, retractions and counters that -out writes beside the fetch log.

import (
	"fmt"
	"github.com/undust/undust/internal/ablate"
	"maps"
	"slices"
	"strings"

	"github.com/gocolly/colly/v2"
	"github.com/projectdiscovery/katana/pkg/engine/standard"
	"github.com/projectdiscovery/katana/pkg/types"

	"github.com/undust/undust"
	undustcolly "github.com/undust/undust/crawlers/colly"
	undustkatana "github.com/undust/undust/crawlers/katana"
)

// A learned is what undust learned in one crawl, read when the crawl ends.
type learned struct {
	rules int                          // rules in the learner's current sets; -1 without undust
	text  string                       // the rules, the retracted rules and the counters, for learned-CRAWLER.txt
	key   func(string) (string, error) // the crawl's key of a URL (undust.Crawl.Key); nil without undust
}

// none is learned of a crawl without undust.
func none() learned { return learned{rules: -1} }

// report reads what c learned: its counters (undust.Stats, the learner's included), the rules
// retracted by verification, and the learner's rules in the rules file format.
func report(c *undust.Crawl) learned {
	st := c.Stats()
	var b strings.Builder
	fmt.Fprintf(&b, "# stats %+v\n", st)
	l := c.Learner()
	if l == nil {
		return learned{rules: st.Learner.Rules, text: b.String(), key: c.Key}
	}
	for _, r := range l.Retracted() {
		fmt.Fprintf(&b, "# retracted %s\n", r)
	}
	if set, _, err := l.Set(); err == nil {
		_, _ = set.WriteTo(&b)
	}
	return learned{rules: st.Learner.Rules, text: b.String(), key: c.Key}
}

// attachColly attaches undust to c before the crawler's own callbacks are registered.
func attachColly(c *colly.Collector, o undust.Options) (learnt func() learned, err error) {
	u, err := undustcolly.Attach(c, undustcolly.Options{Options: o})
	if err != nil {
		return nil, err
	}
	return func() learned { return report(u.Crawl()) }, nil
}

// A katanaEngine is what crawls for katana: its standard engine or undust's.
type katanaEngine interface {
	Crawl(seed string) error
	Close() error
}

// newKatana returns the engine for co: undust's (undustkatana.New, which replaces co's unique
// filter; co.Close closes what it installed) or katana's standard one.
func newKatana(co *types.CrawlerOptions, withUndust bool, o undust.Options) (e katanaEngine, learnt func() learned, err error) {
	if !withUndust {
		e, err = standard.New(co)
		return e, none, err
	}
	c, err := undustkatana.New(co, undustkatana.Options{Options: o})
	if err != nil {
		return nil, nil, err
	}
	return c, func() learned { return report(c.Undust()) }, nil
}

// offSwitches are the mechanisms of undust that -off turns off, to measure what each buys.
var offSwitches = map[string]func(*undust.Options){
	"content":    func(o *undust.Options) { o.NoContent = true },
	"templates":  func(o *undust.Options) { o.NoTemplates = true },
	"declared":   func(o *undust.Options) { o.NoDeclared = true },
	"learning":   func(o *undust.Options) { o.NoLearning = true },
	"splits":     func(o *undust.Options) { o.Online.Learn.NoSplits = true },
	"signatures": func(o *undust.Options) { o.Online.Learn.NoSignatures = true },
	"roles":      func(o *undust.Options) { o.Online.Learn.NoRoles = true },
	"deeptokens": func(o *undust.Options) { o.Online.Learn.NoDeepTokens = true },
}

// offNames lists the names -off takes: those of offSwitches, then those of undust's internal
// switches.
func offNames() string {
	return strings.Join(slices.Sorted(maps.Keys(offSwitches)), ", ") + "; and process-wide: " + strings.Join(ablate.Names(), ", ")
}

// offOptions returns undust's options with the mechanisms of a comma-separated list off; the
// other names, those of undust's internal switches (package internal/ablate), it turns off
// process-wide.
func offOptions(list string) (undust.Options, error) {
	var o undust.Options
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if set, ok := offSwitches[name]; ok {
			set(&o)
			continue
		}
		if err := ablate.Set(name); err != nil {
			return o, fmt.Errorf("-off: unknown mechanism %q (want some of %s)", name, offNames())
		}
	}
	return o, nil
}
