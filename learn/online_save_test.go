package learn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/undust/undust/internal/binfile"
)

// A replayer is a crawler's use of an Online learner over a list of URLs with their true pages:
// key, skip (verifying when asked) or observe, relearn; it logs every decision.
type replayer struct {
	o    *Online
	seen map[string]string // key -> the URL observed under it
	page map[string]uint64 // URL -> true page
	log  []string
}

type truthURL struct {
	raw  string
	page uint64
}

func (r *replayer) step(u truthURL) {
	k, err := r.o.Key(u.raw)
	if err != nil {
		r.log = append(r.log, "error "+err.Error())
		return
	}
	prev, ok := r.seen[k.Key]
	switch {
	case !ok || prev == u.raw:
		r.seen[k.Key] = u.raw
		r.page[u.raw] = u.page
		r.o.Observe(URL{Raw: u.raw}, u.page)
		r.log = append(r.log, "fetch "+u.raw+" as "+k.Key)
	case r.o.VerifyMatch(k, r.key(prev)):
		same := r.page[prev] == u.page
		r.o.ConfirmMatch(k, r.key(prev), same)
		r.page[u.raw] = u.page
		r.o.Observe(URL{Raw: u.raw}, u.page)
		r.log = append(r.log, fmt.Sprintf("verify %s against %s: %v", u.raw, prev, same))
	default:
		r.o.Skipped(URL{Raw: u.raw}, k, r.page[prev])
		r.log = append(r.log, "skip "+u.raw+" as "+prev)
	}
	if u.page%17 == 0 {
		r.o.Same(u.raw, u.raw+"#same") // a declared alias; the fragment goes in the static key
	}
	if n := r.o.Relearn(); n > 0 {
		r.log = append(r.log, fmt.Sprintf("relearned %d", n))
	}
}

// resumeURLs is the sample data set and a shop whose t parameter is redundant on most items
// and not on a few, so that verification finds mismatches and retracts, in a fixed shuffle.
func resumeURLs(t testing.TB) []truthURL {
	var us []truthURL
	for i, c := range loadSample(t) {
		for _, u := range c.URLs {
			us = append(us, truthURL{u.Raw, uint64(i + 1)})
		}
	}
	for i := range 80 {
		page := uint64(10_000 + i)
		us = append(us, truthURL{fmt.Sprintf("http://shop.example.com/item?id=%d", i), page})
		for j := range 3 {
			if i%9 == 4 && j == 2 {
				page = uint64(20_000 + i) // t matters on this item
			}
			us = append(us, truthURL{fmt.Sprintf("http://shop.example.com/item?id=%d&t=%d", i, 100*i+j), page})
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(us), func(i, j int) { us[i], us[j] = us[j], us[i] })
	return us
}

// key returns the Key of a URL kept: the rules that made its key are verified too.
func (r *replayer) key(raw string) Key {
	k, _ := r.o.Key(raw)
	return k
}

func newReplayer(o *Online) *replayer {
	return &replayer{o: o, seen: map[string]string{}, page: map[string]uint64{}}
}

// TestOnlineResume checks that a learner saved half-way and loaded into a new Online makes the
// same decisions, learns the same rules and counts the same as one that was not stopped: with
// the default bounds, and with pages of at most 3 URLs, whose full lists swap URLs (see
// swapVictim) before and after the cut.
func TestOnlineResume(t *testing.T) {
	for _, n := range []int{0, 3} {
		t.Run(fmt.Sprint("MaxClusterURLs=", n), func(t *testing.T) {
			testOnlineResume(t, OnlineOptions{VerifyFirst: 2, VerifyEvery: 7, MaxClusterURLs: n}, resumeURLs(t))
		})
	}
	// A cut between a mismatch and its undoing (see exonerate): the pending mismatch is saved.
	t.Run("pending mismatch", func(t *testing.T) {
		var us []truthURL
		for _, v := range staleSessionSite() {
			us = append(us, truthURL{v.url, uint64(v.page)})
		}
		testOnlineResume(t, OnlineOptions{VerifyEvery: 2}, us)
	})
}

func testOnlineResume(t *testing.T, opt OnlineOptions, us []truthURL) {
	whole := newReplayer(NewOnline(opt))
	mismatch, undone := -1, -1 // the steps of the first mismatch and the first retraction undone
	for i, u := range us {
		whole.step(u)
		if st := whole.o.Stats(); mismatch < 0 && st.Mismatches > 0 {
			mismatch = i
		} else if undone < 0 && st.Reinstated > 0 {
			undone = i
		}
	}
	st := whole.o.Stats()
	if st.Mismatches == 0 || st.Retracted == 0 || st.Relearns < 5 {
		t.Fatalf("the replay should relearn, verify and retract: %+v", st)
	}
	cuts := []int{len(us) / 3, len(us) / 2, len(us) - 1}
	if undone > mismatch+1 {
		cuts = append(cuts, (mismatch+undone)/2+1)
	}
	for _, cut := range cuts {
		first := newReplayer(NewOnline(opt))
		for _, u := range us[:cut] {
			first.step(u)
		}
		var b bytes.Buffer
		n, err := first.o.WriteTo(&b)
		if err != nil || n != int64(b.Len()) {
			t.Fatalf("WriteTo = %d, %v; %d bytes written", n, err, b.Len())
		}
		o := NewOnline(opt)
		if m, err := o.ReadFrom(bytes.NewReader(b.Bytes())); err != nil || m != n {
			t.Fatalf("ReadFrom = %d, %v; want %d", m, err, n)
		}
		var again bytes.Buffer
		if _, err := o.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
			t.Errorf("cut %d: saving a loaded learner gives other bytes (%v)", cut, err)
		}
		second := &replayer{o: o, seen: first.seen, page: first.page, log: first.log}
		for _, u := range us[cut:] {
			second.step(u)
		}
		if got, want := strings.Join(second.log, "\n"), strings.Join(whole.log, "\n"); got != want {
			i := 0
			for i < len(second.log) && i < len(whole.log) && second.log[i] == whole.log[i] {
				i++
			}
			t.Errorf("cut %d: decision %d differs:\nresumed: %q\nwhole:   %q", cut, i, at(second.log, i), at(whole.log, i))
		}
		if got, want := o.Stats(), whole.o.Stats(); got != want {
			t.Errorf("cut %d: stats %+v, want %+v", cut, got, want)
		}
		gs, _, err1 := o.Set()
		ws, _, err2 := whole.o.Set()
		if err1 != nil || err2 != nil || setText(t, gs) != setText(t, ws) {
			t.Errorf("cut %d: rules differ (%v, %v)", cut, err1, err2)
		}
		if got, want := o.Retracted(), whole.o.Retracted(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("cut %d: retracted %q, want %q", cut, got, want)
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(end)"
}

// TestOnlineReadFromDamaged checks that a truncated or damaged state is an error, never a panic,
// and that ReadFrom wants a new learner.
func TestOnlineReadFromDamaged(t *testing.T) {
	o := NewOnline(OnlineOptions{})
	r := newReplayer(o)
	for _, u := range resumeURLs(t)[:200] {
		r.step(u)
	}
	var b bytes.Buffer
	if _, err := o.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	step := max(1, len(data)/300)
	if testing.Short() {
		step = max(1, len(data)/60)
	}
	for n := 0; n < len(data); n += step {
		_, err := NewOnline(OnlineOptions{}).ReadFrom(bytes.NewReader(data[:n]))
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("truncated to %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, len(data), err)
		}
	}
	for i := 0; i < len(data); i += step {
		d := bytes.Clone(data)
		d[i] ^= 0x41
		if _, err := NewOnline(OnlineOptions{}).ReadFrom(bytes.NewReader(d)); err == nil {
			t.Fatalf("byte %d changed: no error", i)
		}
	}
	if _, err := o.ReadFrom(bytes.NewReader(data)); err == nil {
		t.Errorf("ReadFrom into a learner in use: no error")
	}
	if _, err := NewOnline(OnlineOptions{}).ReadFrom(strings.NewReader("UDSIMHX\n")); !errors.Is(err, binfile.ErrFormat) {
		t.Errorf("another kind of file: %v, want ErrFormat", err)
	}
	v1 := bytes.Clone(data)
	v1[len(onlineMagic)] = 1 // the version, a one-byte uvarint
	if _, err := NewOnline(OnlineOptions{}).ReadFrom(bytes.NewReader(v1)); !errors.Is(err, binfile.ErrVersion) {
		t.Errorf("a version 1 file: %v, want ErrVersion", err)
	}
}

func FuzzOnlineReadFrom(f *testing.F) {
	o := NewOnline(OnlineOptions{})
	r := newReplayer(o)
	for _, u := range resumeURLs(f)[:60] {
		r.step(u)
	}
	var b bytes.Buffer
	o.WriteTo(&b)
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		o := NewOnline(OnlineOptions{})
		if _, err := o.ReadFrom(bytes.NewReader(data)); err != nil {
			return
		}
		o.Normalize("http://shop.example.com/item?id=1&t=2")
		var out bytes.Buffer
		if _, err := o.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
	})
}
