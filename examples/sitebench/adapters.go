package main

// This file holds every use of undust's crawler adapters, so that a change of their API is met
// here alone. Each function attaches undust to a crawler set up by crawl.go and returns how to
// read the number of rules learned, the one figure the table takes from undust itself.

import (
	"github.com/gocolly/colly/v2"
	"github.com/projectdiscovery/katana/pkg/engine/standard"
	"github.com/projectdiscovery/katana/pkg/types"

	undustcolly "github.com/undust/undust/crawlers/colly"
	undustkatana "github.com/undust/undust/crawlers/katana"
)

// attachColly attaches undust to c before the crawler's own callbacks are registered.
func attachColly(c *colly.Collector) (rules func() int, err error) {
	u, err := undustcolly.Attach(c, undustcolly.Options{})
	if err != nil {
		return nil, err
	}
	return func() int { return u.Stats().Learner.Rules }, nil
}

// A katanaEngine is what crawls for katana: its standard engine or undust's.
type katanaEngine interface {
	Crawl(seed string) error
	Close() error
}

// newKatana returns the engine for co: undust's (undustkatana.New, which replaces co's unique
// filter; co.Close closes what it installed) or katana's standard one.
func newKatana(co *types.CrawlerOptions, withUndust bool) (e katanaEngine, rules func() int, err error) {
	if !withUndust {
		e, err = standard.New(co)
		return e, func() int { return -1 }, err
	}
	c, err := undustkatana.New(co, undustkatana.Options{})
	if err != nil {
		return nil, nil, err
	}
	return c, func() int { return c.Stats().Learner.Rules }, nil
}
