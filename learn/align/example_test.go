package align_test

import (
	"fmt"

	"github.com/undust/undust/learn"
	"github.com/undust/undust/learn/align"
)

// Learn rules by multiple URL alignment and normalize URLs that were never seen.
func ExampleLearner_Learn() {
	var clusters []learn.Cluster
	for i := range 40 {
		id := fmt.Sprintf("tt%04d", i)
		clusters = append(clusters,
			learn.Cluster{ID: "imdb-" + id, Site: "imdb", URLs: []learn.URL{
				{Raw: "http://www.imdb.com/title/" + id + "/photogallery"},
				{Raw: "http://www.imdb.com/title/" + id + "/mediaindex"},
				{Raw: "http://www.imdb.com/title/" + id + "/mediaindex?sid=" + id + "f00"},
			}},
			learn.Cluster{ID: "imdb-r" + id, Site: "imdb", URLs: []learn.URL{
				{Raw: "http://www.imdb.com/title/" + id + "/reviews"},
			}})
	}
	set, _, err := (&align.Learner{}).Learn(clusters)
	if err != nil {
		panic(err)
	}
	for i := range set.Len() {
		fmt.Println(set.Rule(i).String())
	}
	n := learn.SetNormalizer(set)
	for _, u := range []string{
		"http://www.imdb.com/title/tt9999/photogallery",
		"http://www.imdb.com/title/tt9999/mediaindex?sid=ffff",
		"http://www.imdb.com/title/tt9999/reviews",
	} {
		key, _ := n.Normalize(u)
		fmt.Println(key)
	}
	// Output:
	// host=www.imdb.com cov=20 prec=1 sup=20 if scheme="http" path(1,3)="title" path(3,1)="mediaindex" path(2,2)=* query("sid")=* then query("sid")=-
	// host=www.imdb.com cov=20 prec=1 sup=20 if scheme="http" path(1,3)="title" path(3,1)="photogallery" path(2,2)=* then path(3,1)="mediaindex"
	// host=www.imdb.com cov=20 prec=1 sup=20 if path(-,1)="photogallery" then path(-,1)="mediaindex"
	// host=www.imdb.com cov=20 prec=1 sup=20 if query("sid")=* then query("sid")=-
	// http://www.imdb.com/title/tt9999/mediaindex
	// http://www.imdb.com/title/tt9999/mediaindex
	// http://www.imdb.com/title/tt9999/reviews
}
