package simhash

import (
	"fmt"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// Published vectors of other libraries; see testdata/ORIGIN.md for where
// each comes from.

func TestGoDedupVectors(t *testing.T) {
	// github.com/go-dedup/simhash example_test.go, Example_output.
	tests := []struct {
		text string
		want uint64
	}{
		{"this is a test phrase", 0x8c3a5f7e9ecb3f35},  // published fingerprint
		{"this is a test phrass", 0x8c3a5f7e9ecb3f21},  // one letter changed
		{"these are test phrases", 0xddfdbf7fbfaffb1d}, // several words changed
		{"foo bar", 0xd8dbe7186bad3db3},                // unrelated
	}
	for _, tt := range tests {
		if got := GoDedup.Sum64(tt.text); got != tt.want {
			t.Errorf("GoDedup.Sum64(%q) = %x, want %x", tt.text, got, tt.want)
		}
	}
	// Published distances (go-dedup example; mfonda/simhash TestSimhash
	// asserts 2 and 29).
	dist := []struct {
		a, b string
		want int
	}{
		{"this is a test phrase", "this is a test phrass", 2},
		{"this is a test phrase", "these are test phrases", 22},
		{"this is a test phrase", "foo bar", 29},
	}
	for _, d := range dist {
		if got := Distance(GoDedup.Sum64(d.a), GoDedup.Sum64(d.b)); got != d.want {
			t.Errorf("distance(%q, %q) = %d, want %d", d.a, d.b, got, d.want)
		}
	}
}

func TestPySimhashVectors(t *testing.T) {
	md5s := func(fs ...string) []uint64 {
		var hs []uint64
		for _, f := range fs {
			hs = append(hs, MD5Low64.Hash(f))
		}
		return hs
	}
	many := make([]string, 500) // [str(i) for i in range(int(batch_size * 2.5))], batch_size 200
	weights := make([]float64, 500)
	for i := range many {
		many[i] = fmt.Sprint(i)
		weights[i] = float64(50 * i) // large_weight_cutoff * i
	}
	tests := []struct {
		name string
		got  uint64
		want uint64
	}{
		// 1e0ng/simhash tests/test_simhash.py test_value: Simhash(['aaa', 'bbb'])
		{"aaa bbb", Sum64(md5s("aaa", "bbb")), 57087923692560392},
		// test_large_inputs: many unit-weight features
		{"500 features", Sum64(md5s(many...)), 7984652473404407437},
		// test_large_inputs: the same features weighted 50*i
		{"500 weighted", Sum64Weighted(md5s(many...), weights), 3372825719632739723},
		// an earlier revision's test_value, with the V[i] >= 0 rule
		{"aaa bbb, old tie", sumTie(md5s("aaa", "bbb"), TieOne), 8637903533912358349},
		// an earlier revision's test_value for text (2-character grams)
		{"old text", PySimhashOld.Sum64("How are you? I AM fine. Thanks. And you?"), 6560575042654586091},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	// The earlier revision's test_distance.
	if d := Distance(PySimhashOld.Sum64("How are you? I AM fine. Thanks. And you?"),
		PySimhashOld.Sum64("How old are you ? :-) i am fine. Thanks. And you?")); d != 7 {
		t.Errorf("old distance = %d, want 7", d)
	}
	// The current test_chinese and test_short properties.
	if d := Distance(PySimhash.Sum64("你好　世界！　　呼噜。"), PySimhash.Sum64("你好，世界　呼噜")); d != 0 {
		t.Errorf("chinese distance = %d, want 0", d)
	}
	sh4 := PySimhash.Sum64("How are you? I Am fine. ablar ablar xyz blar blar blar blar blar blar blar Thanks.")
	sh5 := PySimhash.Sum64("How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar than")
	sh6 := PySimhash.Sum64("How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar thank")
	if Distance(sh4, sh6) >= 3 || Distance(sh5, sh6) >= 3 {
		t.Errorf("distances %d, %d, want < 3", Distance(sh4, sh6), Distance(sh5, sh6))
	}
	seen := map[uint64]string{}
	for _, s := range []string{"aa", "aaa", "aaaa", "aaaab", "aaaaabb", "aaaaabbb"} {
		fp := PySimhash.Sum64(s)
		if o, ok := seen[fp]; ok {
			t.Errorf("%q and %q have the same fingerprint", o, s)
		}
		seen[fp] = s
	}
}

func sumTie(hs []uint64, tie Tie) uint64 {
	var a Accumulator
	a.AddHashes(hs)
	return a.SumTie(tie)
}

func TestProfileFeatures(t *testing.T) {
	tests := []struct {
		p    Profile
		text string
		want []string
	}{
		{GoDedup, "It's at http://x.org/a, OK", []string{"it's", "at", "http://x.org/a", "ok"}}, // apostrophes and URLs stay whole
		{GoDedup, "", nil},                 // no words, no features
		{GoDedup, "café", []string{"caf"}}, // ASCII \w only
		{PySimhash, "How are you?", []string{"howa", "owar", "ware", "arey", "reyo", "eyou"}}, // joined 4-grams
		{PySimhash, "a b", []string{"ab"}},                                     // shorter than width: one feature
		{PySimhash, "!?", []string{""}},                                        // no word characters: one empty feature
		{PySimhashOld, "Ab_c", []string{"ab", "b_", "_c"}},                     // underscore is a word character
		{Profile{Tokens: JoinedCharGrams, Width: 1}, "Zé", []string{"z", "é"}}, // Unicode letters kept, by character
	}
	for _, tt := range tests {
		var got []string
		tt.p.Features(tt.text, func(s string) { got = append(got, s) })
		if diff := gocmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%+v.Features(%q) mismatch (-want +got):\n%s", tt.p, tt.text, diff)
		}
	}
}
