package main

// This file holds every use of undust's crawler adapters, so that a change of their API is met
// here alone. Each function attaches undust to a crawler set up by crawl.go and returns how to
// read the number of rules learned, the one figure the table takes from undust itself.

import (
	"github.com/gocolly/colly/v2"
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
	return func() int { return u.Stats().Rules }, nil
}

// attachKatana makes undust the unique filter of co; co.Close closes it.
func attachKatana(co *types.CrawlerOptions) (rules func() int, err error) {
	f, err := undustkatana.New(undustkatana.Options{})
	if err != nil {
		return nil, err
	}
	if err := f.Attach(co); err != nil {
		return nil, err
	}
	return func() int { return f.Stats().Online.Rules }, nil
}
