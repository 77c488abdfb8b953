package learn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/undust/undust/internal/ablate"
)

// TestOnlineCarry checks that a rule that checks confirmed is carried into the set of a relearn
// that dropped it by chance (the evidence it was learned from gone, as a mismatch elsewhere
// drops the URLs Skipped recorded), and not when the checks or the site's fetches show it
// wrong; nor with ablate.NoCarry, with which the first case fails.
func TestOnlineCarry(t *testing.T) {
	const u = "http://shop.example.com/list?cat=77&s=f00d"
	for _, tc := range []struct {
		name    string
		same    bool     // what the check of the rule's use found
		against []string // URLs fetched after the check, each a page of its own
		carried bool
		off     bool // ablate.NoCarry
		few     bool // one confirmation fewer than carryConfirmed
	}{
		{"confirmed", true, nil, true, false, false},
		{"confirmed too few times", true, nil, false, false, true},
		{"failed", false, nil, false, false, false}, // retracted: a reason, not chance
		{"shown wrong", true, []string{"http://shop.example.com/list?cat=5&s=a1", "http://shop.example.com/list?cat=5&s=b2"}, false, false, false}, // s names the pages of cat=5
		{"confirmed, carry off", true, nil, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.off {
				turnOff(t, &ablate.NoCarry)
			}
			o := NewOnline(OnlineOptions{})
			// A listing site whose s= is a session: each page under two values of s.
			var fp uint64
			for c := range 12 {
				fp++
				o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/list?cat=%d", c+100)}, fp)
				o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/list?cat=%d&s=x%d", c+100, c)}, fp)
			}
			o.RelearnAll()
			k, _ := o.Key(u)
			kept, _ := o.Key("http://shop.example.com/list?cat=77")
			if k.Key != kept.Key || !k.Rewritten() {
				t.Fatalf("Key(%q) = %q: want s deleted by a rule", u, k.Key)
			}
			if !o.VerifyMatch(k, kept) {
				t.Fatalf("the first use of the rule is not checked")
			}
			o.ConfirmMatch(k, kept, tc.same)
			more := carryConfirmed - 1
			if tc.few {
				more--
			}
			for c := range more { // more checks, on other pages, find what the first found
				k, _ := o.Key(fmt.Sprintf("http://shop.example.com/list?cat=%d&s=e%d", c+200, c))
				kept, _ := o.Key(fmt.Sprintf("http://shop.example.com/list?cat=%d", c+200))
				o.ConfirmMatch(k, kept, tc.same)
			}
			for _, a := range tc.against {
				fp++
				o.Observe(URL{Raw: a}, fp)
			}
			// The evidence of the rule gone: its s= variants taken out as dropInferred takes
			// out the URLs Skipped recorded; then new pages make the site due.
			s := o.site("shop.example.com", false)
			s.mu.Lock()
			for raw := range s.byURL {
				if strings.Contains(raw, "&s=x") {
					s.inferred[raw] = true
				}
			}
			s.dropInferred()
			s.mu.Unlock()
			for c := range 40 {
				fp++
				o.Observe(URL{Raw: fmt.Sprintf("http://shop.example.com/item/%d", c)}, fp)
			}
			o.RelearnAll()
			got, _ := o.Normalize(u)
			if carried := got == kept.Key; carried != tc.carried {
				t.Errorf("after the relearn Normalize(%q) = %q; carried %v, want %v", u, got, carried, tc.carried)
			}
		})
	}
}
