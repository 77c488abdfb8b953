package main

import (
	"testing"

	"github.com/undust/undust/shingle"
)

func TestTemplateSetting(t *testing.T) {
	tests := []struct {
		in      string
		want    templateSetting
		wantErr bool
	}{
		{"off", templateSetting{}, false},
		{"on", templateSetting{on: true}, false},
		{"true", templateSetting{on: true}, false}, // what a bare -templates sets
		{"min=3,frac=0.2,depth=1", templateSetting{on: true, o: shingle.TemplateOptions{MinPages: 3, Fraction: 0.2, Depth: 1}}, false},
		{"scope=host", templateSetting{on: true, host: true}, false},
		{"min=x", templateSetting{}, true},     // not a number
		{"size=3", templateSetting{}, true},    // unknown setting
		{"sometimes", templateSetting{}, true}, // neither on, off nor settings
	}
	for _, tt := range tests {
		var s templateSetting
		err := s.Set(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("Set(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && s != tt.want {
			t.Errorf("Set(%q) = %+v, want %+v", tt.in, s, tt.want)
		}
	}
}

// TestEvalTemplates: on the full text of the test corpus, the portal's
// template makes a trap pair look alike at J >= 0.5; learning the
// portal's template (its five /a/ pages, so MinPages 2) removes it, and
// the main-text near-duplicates stay. A later run without the flag is
// back to the plain features.
func TestEvalTemplates(t *testing.T) {
	rows := evalRows(t, "-method", "jaccard:0.50,jaccard:0.80,minhash:0.80,spotsigs:0.80,simhash:k3", "-templates=min=2,frac=0.5")
	if r := rows["jaccard:0.50/full"]; r.TrapFP != 0 {
		t.Errorf("jaccard:0.50/full with templates: %d trap false positives, want 0", r.TrapFP)
	}
	for _, key := range []string{"jaccard:0.80/main", "minhash:0.80/main"} {
		if r := rows[key]; r.TruePos != 4 || r.TrapFP != 0 {
			t.Errorf("%s with templates: %d true, %d trap FP; want 4, 0", key, r.TruePos, r.TrapFP)
		}
	}
	rows = evalRows(t, "-method", "jaccard:0.50", "-templates=off")
	if r := rows["jaccard:0.50/full"]; r.TrapFP != 1 {
		t.Errorf("jaccard:0.50/full without templates: %d trap false positives, want 1", r.TrapFP)
	}
}
