package main

import (
	"fmt"
	"io"
	"os"

	"github.com/undust/undust/internal/hrefs"
	"github.com/undust/undust/learn"
	"github.com/undust/undust/rules"
)

// A dupCluster is a set of URLs that served the same content in pass 1, with how often the
// crawl saw each of them linked.
type dupCluster struct {
	urls    []string
	inlinks []int
}

// clusterByContent groups the URLs fetched with status 200 into dup clusters: the URLs of one
// page id, as undust's page identity gave it. Clusters come out in the order of their first
// fetch, URLs in fetch order.
func clusterByContent(fetches []fetch) []dupCluster {
	linked := map[string]int{}
	for _, f := range fetches {
		if f.status == 200 {
			for _, l := range hrefs.Links(f.url, f.body) {
				linked[l]++
			}
		}
	}
	at := map[uint64]int{}
	var out []dupCluster
	for _, f := range fetches {
		if f.status != 200 || f.id == 0 {
			continue
		}
		i, ok := at[f.id]
		if !ok {
			i = len(out)
			at[f.id] = i
			out = append(out, dupCluster{})
		}
		out[i].urls = append(out[i].urls, f.url)
		out[i].inlinks = append(out[i].inlinks, max(1, linked[f.url]))
	}
	return out
}

// learnRules learns rewrite rules from the dup clusters of pass 1. The whole crawl is one site
// for the learner (its hosts are aliases of one another). URL importance is unknown; in-links
// are the times pass 1 saw each URL linked, which target selection uses.
func learnRules(cs []dupCluster) (*rules.Set, int, error) {
	cls := make([]learn.Cluster, len(cs))
	for i, c := range cs {
		cl := learn.Cluster{ID: fmt.Sprintf("dustshop-%06d", i), Site: "dustshop"}
		for j, u := range c.urls {
			cl.URLs = append(cl.URLs, learn.URL{Raw: u, Inlinks: c.inlinks[j]})
		}
		cls[i] = cl
	}
	m, st, err := learn.Learn(cls, learn.Options{})
	if err != nil {
		return nil, 0, fmt.Errorf("learning rules: %w", err)
	}
	return m, st.Selected, nil
}

func writeRules(path string, r io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = r.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
